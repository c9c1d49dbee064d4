"""`apply` accepts exactly what `legal_commands` offers, to the actor it names.

Random states (random walks through legal commands and bot moves, bank-only play included)
on every edition; at each state random commands of every verb from random actors with
random parameters. A command the engine accepts must match an offer (same verb and actor,
square / amount / building / gift within the offered choices), and a concrete command
drawn from an offer must be accepted. This is what makes `legal_commands` the table's one
source of truth for who may do what: a phone or a button that sends anything else is
refused by the engine itself.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from legal_oracle import legal_by_trial
from rules_helpers import start

from companion.bots import Bots
from companion.rules import Accepted, GameState, apply, legal_commands
from companion.rules.commands import (
    BUILDINGS,
    GIFTS,
    ActOffer,
    AuctionBuilding,
    BareOffer,
    Bid,
    BidOffer,
    BuildingAuctionOffer,
    ChooseGift,
    Command,
    CorrectionOffer,
    GiftOffer,
    Land,
    LandOffer,
    LegalOffer,
    Offer,
    PassGo,
    Pay,
    PayOffer,
    Roll,
    SquaresOffer,
    Trade,
    TradeOffer,
    Verb,
    parse_command,
)
from companion.rules.estate import bid_floor

EDITIONS = ["classic-eur", "classic-en", "sv", "ch", "pl", "ru-monopolist", "mega"]
#: verbs whose offers are exact: every concrete command drawn from the offer is accepted
#: (pay and trade offers name the parties, the amounts and deeds are the table's to agree)
EXACT = {v.value for v in Verb} - {"new_game", "pay", "trade"}
SPEED = [1, 2, 3, "bus", "mr_monopoly"]


def matches(cmd: Command, offer: LegalOffer, g: GameState) -> bool:
    """Whether a concrete command is within one offer's actor, choices and ranges (a square
    named by its id is the square of that index)."""
    if cmd.do is not offer.do:
        return False
    if isinstance(offer, PayOffer):
        assert isinstance(cmd, Pay)
        return cmd.payer in offer.payers and cmd.payee in offer.payees
    if isinstance(offer, TradeOffer):
        assert isinstance(cmd, Trade)
        return cmd.payer in offer.players and cmd.payee in offer.players
    if isinstance(offer, BuildingAuctionOffer):
        assert isinstance(cmd, AuctionBuilding)
        return cmd.building in offer.buildings
    if isinstance(cmd, (Land, PassGo)) and cmd.correction:  # the banker's, for anyone
        if not isinstance(offer, CorrectionOffer):
            return False
        who = cmd.by if cmd.by is not None else g.players[g.current].name
        return who in offer.players and (offer.squares is None or (
            isinstance(cmd, Land) and g.edition.square_index(cmd.square) in offer.squares))
    if isinstance(offer, CorrectionOffer):
        return False
    if isinstance(offer, BareOffer):
        return getattr(cmd, "by", None) is None
    if getattr(cmd, "by", None) != offer.by:
        return False
    if isinstance(offer, SquaresOffer):
        square = getattr(cmd, "square", None)
        return g.edition.square_index(square) in offer.squares
    if isinstance(offer, LandOffer):
        assert isinstance(cmd, Land)
        square = g.edition.square_index(cmd.square)
        return square in offer.squares and (not cmd.via_go or square in offer.via_go)
    if isinstance(offer, GiftOffer):
        assert isinstance(cmd, ChooseGift)
        return cmd.gift == offer.gift
    if isinstance(offer, BidOffer):
        assert isinstance(cmd, Bid)
        return offer.min <= cmd.amount <= offer.max
    return True


def random_command(rng: random.Random, g: GameState) -> dict[str, Any]:
    """Any verb, from any actor (bankrupt ones and strangers too), with any parameters."""
    names = [p.name for p in g.players] + ["Stranger"]
    verb = rng.choice(sorted(EXACT | {"pay", "trade"}))
    cmd: dict[str, Any] = {"do": verb}
    if verb not in {"close_auction", "auction_building", "end_game", "pay", "trade"}:
        cmd["by"] = rng.choice(names)
    size = len(g.edition.squares)
    if verb in {"land", "build", "sell_building", "mortgage", "unmortgage", "use_bus_ticket",
                "choose_square"}:
        # any square, by index or by id, the board's first and last, and off the board
        cmd["square"] = rng.choice([rng.randrange(size), rng.randrange(size), 0, size - 1,
                                    g.edition.squares[rng.randrange(size)].id, -1, size])
    if verb == "bid":
        amounts = [1, rng.randint(1, 400), rng.randint(1, 5000)]
        top = g.top
        actor = next((p for p in g.players if p.name == cmd["by"]), None)
        if top is not None and top.kind.value in {"auction", "building_auction"}:
            amounts += [bid_floor(top) - 1, bid_floor(top)]  # the lowest bid, and one less
        if actor is not None:
            amounts += [actor.cash, actor.cash + 1]  # all the bidder has, and one more
        cmd["amount"] = max(1, rng.choice(amounts))
    if verb in {"build", "sell_building"} and rng.random() < 0.2:
        cmd["count"] = rng.randint(2, 5)
    if verb in {"build", "auction_building"}:
        cmd["building"] = rng.choice(BUILDINGS if verb == "build" else BUILDINGS[:3])
    if verb == "choose_gift":
        cmd["gift"] = rng.choice(GIFTS)
    if verb in {"roll", "land"} and rng.random() < 0.7:
        cmd["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
        if verb == "roll" and g.options.speed_die:
            cmd["dice"].append(rng.choice(SPEED))
    if verb == "land" and rng.random() < 0.3:
        cmd["via_go"] = True
    if verb in {"land", "pass_go"} and rng.random() < 0.3:
        cmd["correction"] = True
    if verb == "pay":
        cmd.update({"from": rng.choice(names + ["bank"]), "to": rng.choice(names + ["bank"]),
                    "amount": rng.randint(1, 300)})
    if verb == "trade":
        a, b = rng.sample(names, 2)
        cmd.update({"from": a, "to": b, "give": {"cash": rng.randint(0, 50)},
                    "take": {"cash": 0}})
    return cmd


def concrete(rng: random.Random, offer: LegalOffer, g: GameState) -> Command:
    """One concrete command within an offer."""
    if isinstance(offer, SquaresOffer):
        cmd = {"do": offer.do.value, "by": offer.by, "square": rng.choice(offer.squares)}
    elif isinstance(offer, LandOffer):
        square = rng.choice(offer.squares)
        cmd = {"do": "land", "by": offer.by, "square": square}
        if square in offer.via_go and rng.random() < 0.5:
            cmd["via_go"] = True
    elif isinstance(offer, CorrectionOffer):
        cmd = {"do": offer.do.value, "by": rng.choice(offer.players), "correction": True}
        if offer.squares is not None:
            cmd["square"] = rng.choice(offer.squares)
    elif isinstance(offer, BuildingAuctionOffer):
        cmd = {"do": "auction_building", "building": rng.choice(offer.buildings)}
    elif isinstance(offer, BidOffer):
        return Bid(offer.by, rng.randint(offer.min, offer.max))
    elif isinstance(offer, PayOffer):
        payer = rng.choice(offer.payers)
        return Pay(payer, rng.choice([t for t in offer.payees if t != payer]),
                   rng.randint(1, 80))
    elif isinstance(offer, TradeOffer):
        a, b = rng.sample(offer.players, 2)
        return Trade(a, b, Offer(cash=rng.randint(0, 30)))
    elif isinstance(offer, ActOffer) and offer.do is Verb.ROLL and rng.random() < 0.5:
        dice: list[int | str] = [rng.randint(1, 6), rng.randint(1, 6)]
        top = g.top
        if g.options.speed_die and top is None and not g.players[g.current].in_jail:
            dice.append(rng.choice(SPEED))
        return Roll(offer.by, tuple(dice))
    else:
        cmd = offer.to_json()
    return parse_command(cmd)


def walk(edition: str, seed: int, steps: int,
         options: dict[str, Any] | None = None) -> list[GameState]:
    """States met on a random walk: bot moves mixed with random legal offers."""
    rng = random.Random(seed)
    g = start(tuple(f"P{i}" for i in range(rng.randint(2, 6))), seed=seed, edition=edition,
              **(options or {}))
    bots = Bots()
    seen = [g]
    for _ in range(steps):
        if g.winner >= 0:
            break
        if rng.random() < 0.6:
            command: Any = bots.choose(g)
        else:
            offers = [o for o in legal_commands(g) if o.do is not Verb.END_GAME]
            command = concrete(rng, rng.choice(offers), g)
        r = apply(g, command)
        if isinstance(r, Accepted):
            g = r.state
            seen.append(g)
    return seen


#: house rules that open paths the editions' defaults do not take
HOUSE_RULES: list[dict[str, Any]] = [
    {},
    {"bank_only": True},
    {"rent_must_be_claimed": True, "free_parking_pot": True, "auctions": False},
    {"even_building": False, "sell_group_hotels_together": True, "mortgage_interest": "on_take"},
]


@pytest.mark.parametrize("edition", EDITIONS)
def test_apply_accepts_exactly_what_legal_commands_offers(edition: str) -> None:
    rng = random.Random(edition)
    checked = accepted = 0
    for seed in range(6):
        states = walk(edition, seed, 600, HOUSE_RULES[seed % len(HOUSE_RULES)])
        for g in rng.sample(states, min(60, len(states))):
            offers = legal_commands(g)
            for _ in range(40):
                cmd = random_command(rng, g)
                r = apply(g, cmd)
                checked += 1
                if isinstance(r, Accepted):
                    accepted += 1
                    assert any(matches(parse_command(cmd), o, g) for o in offers), \
                        f"accepted but not offered: {cmd}\noffers: {offers}"
            for offer in offers:
                if offer.do in EXACT:
                    cmd = concrete(rng, offer, g)
                    r = apply(g, cmd)
                    assert isinstance(r, Accepted), f"offered but refused: {cmd} -> {r}"
    assert checked > 10000 and accepted > 100  # the walk reached states where commands count


@pytest.mark.parametrize("edition", EDITIONS)
def test_legal_commands_are_what_trying_every_candidate_through_apply_gives(
        edition: str) -> None:
    """The direct predicates list what the old way, applying each candidate, listed: the
    same commands in the same order (tests/legal_oracle.py), on every state of the walks."""
    rng = random.Random(edition)
    compared = 0
    kinds: set[str] = set()
    for seed in range(4):
        states = walk(edition, 100 + seed, 500, HOUSE_RULES[seed % len(HOUSE_RULES)])
        for g in rng.sample(states, min(100, len(states))):
            offered = [offer.to_json() for offer in legal_commands(g)]
            assert offered == legal_by_trial(g), f"state version {g.version}"
            compared += 1
            kinds.add(g.top.kind.value if g.top is not None else "turn")
    assert compared > 300
    assert {"turn", "buy", "auction", "draw"} <= kinds  # the walks met the usual decisions


@pytest.mark.parametrize("verb", ["pass_go", "land"])
def test_bank_only_moves_belong_to_the_current_player_with_nothing_pending(verb: str) -> None:
    g = start(("Ann", "Bo", "Cy"), bank_only=True)
    extra: dict[str, Any] = {"square": 5} if verb == "land" else {}
    for who in ("Bo", "Cy"):
        r = apply(g, {"do": verb, "by": who, **extra})
        assert not isinstance(r, Accepted) and r.code.value == "not_your_turn"
    r = apply(g, {"do": "land", "square": 1})  # Ann lands on a lot: buy? is pending
    assert isinstance(r, Accepted) and r.state.top is not None
    r = apply(r.state, {"do": verb, "by": "Ann", **extra})
    assert not isinstance(r, Accepted) and r.code.value == "decision_pending"
    r = apply(g, {"do": verb, "by": "Ann", **extra})
    assert isinstance(r, Accepted)
    assert r.state.players[0].cash > g.players[0].cash or verb == "land"
    r = apply(start(("Ann", "Bo", "Cy")), {"do": verb, "by": "Ann", **extra})
    assert not isinstance(r, Accepted) and r.code.value == "device_moves"
