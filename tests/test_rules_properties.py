"""Property tests over random legal command sequences (hypothesis), on the classic and the
Mega editions.

Whatever legal commands are sent (bank-only play included, and trades of cash, deeds,
mortgaged deeds and jail cards): money moves only by transfers, every transfer balances,
no square has two owners, the houses, hotels, skyscrapers, depots and bus tickets are all
accounted for, building stays even, cash never goes negative, and a snapshot restores the
same state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import CLASSIC, MEGA, arrange, start

from companion.game.applying import restore_snapshot
from companion.rules import Accepted, GameState, apply, legal_commands, snapshot
from companion.rules.edition import BUS_DECK, SquareKind
from companion.rules.events import Bankrupt, Debt, Events, Transfer
from companion.rules.state import FOLLOW_UPS

EDITIONS = [CLASSIC, MEGA]
SPEED_FACES = [1, 2, 3, "bus", "mr_monopoly"]


class Draw(Protocol):
    """Where a concrete command's choices come from: hypothesis, or a seeded Random."""

    def sample(self, items: Sequence[Any]) -> Any: ...

    def integer(self, low: int, high: int) -> int: ...


class HypothesisDraw:
    """Choices drawn by hypothesis (shrinkable)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def sample(self, items: Sequence[Any]) -> Any:
        return self.data.draw(st.sampled_from(items))

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


class RandomDraw:
    """Choices from a seeded Random (for the coverage test)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def sample(self, items: Sequence[Any]) -> Any:
        return self.rng.choice(list(items))

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


def trade_side(draw: Draw, g: GameState, name: str) -> dict[str, Any]:
    """What one side of a trade offers: some cash, some of its deeds (mortgaged ones too,
    and now and then one it could not trade), some of its jail cards."""
    who = next(i for i, p in enumerate(g.players) if p.name == name)
    p = g.players[who]
    deeds = [s for s in range(len(g.owner)) if g.owner[s] == who]
    squares: list[int] = []
    for _ in range(draw.integer(0, min(3, len(deeds)))):
        s = draw.sample(deeds)
        if s not in squares:
            squares.append(s)
    return {"cash": draw.integer(0, min(p.cash, 120)) if draw.integer(0, 3) else 0,
            "squares": squares, "cards": draw.integer(0, len(p.jail_cards))}


def concrete(template: dict[str, Any], draw: Draw, g: GameState) -> dict[str, Any]:
    """A concrete command from a legal_commands template."""
    cmd = {k: v for k, v in template.items()
           if k not in {"squares", "min", "max", "players", "buildings", "via_go"}}
    if template.get("correction"):  # the banker's, for any player
        cmd["by"] = draw.sample(template["players"])
    if "buildings" in template:
        cmd["building"] = draw.sample(template["buildings"])
    if "squares" in template:
        cmd["square"] = draw.sample(template["squares"])
    if template["do"] == "bid":
        cmd["amount"] = draw.integer(template["min"], min(template["max"], template["min"] + 300))
    if template["do"] == "roll":
        cmd["dice"] = [draw.integer(1, 6), draw.integer(1, 6)]
        top = g.top
        roller = g.players[g.current]
        if g.options.speed_die and top is None and not roller.in_jail:
            cmd["dice"].append(draw.sample(SPEED_FACES))
    if template["do"] == "land":  # bank-only play: the table moved the token
        if draw.integer(0, 1) and (template.get("correction")
                                   or cmd["square"] in template["via_go"]):
            cmd["via_go"] = True
        if draw.integer(0, 2) == 0:  # the white dice, for a utility's rent
            cmd["dice"] = [draw.integer(1, 6), draw.integer(1, 6)]
    if template["do"] == "pay":
        payer = draw.sample(template["from"])
        payee = draw.sample([t for t in template["to"] if t != payer])
        return {"do": "pay", "from": payer, "to": payee, "amount": draw.integer(1, 80)}
    if template["do"] == "trade":
        a = draw.sample(template["players"])
        b = draw.sample([n for n in template["players"] if n != a])
        cmd = {"do": "trade", "from": a, "to": b, "give": trade_side(draw, g, a),
               "take": trade_side(draw, g, b)}
    return cmd


def check_trade(g: GameState, before: GameState, cmd: dict[str, Any], events: Events) -> None:
    """An accepted trade moved what it said, and mortgaged deeds received cost their due."""
    index = {p.name: i for i, p in enumerate(g.players)}
    a, b = index[cmd["from"]], index[cmd["to"]]
    for side, receiver in (("give", b), ("take", a)):
        got = cmd[side]["squares"]
        assert all(g.owner[s] == receiver for s in got)
        mortgaged = [s for s in got if before.mortgaged[s]]
        if mortgaged:  # interest or the lift is charged (or owed), or lifting is offered
            name = g.players[receiver].name
            charged = any(isinstance(e, Transfer) and e.from_ == name and e.reason in
                          ("mortgage_interest", "mortgage_lift") for e in events) or any(
                isinstance(e, Debt) and e.player == name for e in events)
            assert charged or any(isinstance(e, Bankrupt) for e in events), \
                f"mortgaged deeds {mortgaged} received free"
    for who, gave, took in ((a, "give", "take"), (b, "take", "give")):
        moved = cmd[took]["cards"] - cmd[gave]["cards"]
        if not g.players[who].bankrupt:
            assert len(g.players[who].jail_cards) == len(before.players[who].jail_cards) + moved


def start_walk(draw: Draw, edition: str, players: int, seed: int) -> GameState:
    """A game to walk from: bank-only or not, deeds dealt or not, a jail card held or not."""
    options: dict[str, Any] = {}
    if draw.integer(0, 2) == 0:
        options["bank_only"] = True
    deals = draw.integer(0, 3)
    if deals:
        options["deal_deeds"] = deals
    g = start(tuple(f"P{i}" for i in range(players)), seed=seed, edition=edition, **options)
    if draw.integer(0, 1):  # someone holds a Get Out of Jail Free card to trade
        card = next(c.id for c in g.edition.cards.values() if c.effect == "jail_free")
        g = arrange(g, jail_cards={draw.integer(0, players - 1): [card]})
    return g


def walk(draw: Draw, g: GameState, steps: int,
         seen: Counter[str] | None = None) -> GameState:
    """Random legal commands from `g`, checking the invariants after each one."""
    for _ in range(steps):
        legal = [offer.to_json() for offer in legal_commands(g)]  # the phones' templates
        if not legal:
            break
        # end_game, always legal, would end most sequences early: drawn one time in 40
        going_on = [c for c in legal if c["do"] != "end_game"]
        if going_on and draw.integer(0, 39):
            legal = going_on
        template = draw.sample(legal)
        cmd = concrete(template, draw, g)
        before = snapshot(g)
        r = apply(g, cmd)
        assert snapshot(g) == before, f"apply changed the state it was given: {cmd}"
        if not isinstance(r, Accepted):
            assert template["do"] in {"trade", "pay"}, f"legal command refused: {cmd} -> {r}"
            continue
        check_invariants(r.state, g, r.events)
        if cmd["do"] == "trade":
            check_trade(r.state, g, cmd, r.events)
        if seen is not None:
            seen.update(kinds_of(cmd, g))
        assert r.state.version == g.version + 1
        g = r.state
    return g


def kinds_of(cmd: dict[str, Any], g: GameState) -> list[str]:
    """What an accepted command exercised, for the coverage test."""
    out = []
    if cmd["do"] == "land":
        out.append(("bank_only " if g.options.bank_only else "") + "land"
                   + (" via_go" if cmd.get("via_go") else ""))
    if cmd["do"] == "trade":
        squares = cmd["give"]["squares"] + cmd["take"]["squares"]
        if squares:
            out.append("trade deeds")
        if any(g.mortgaged[s] for s in squares):
            out.append("trade mortgaged deeds")
        if cmd["give"]["cards"] or cmd["take"]["cards"]:
            out.append("trade jail cards")
    return out


def check_invariants(g: GameState, before: GameState, events: Events) -> None:
    ed = g.edition
    houses = sum(g.houses_on(i) for i in range(len(g.level)))
    hotels = sum(1 for i in range(len(g.level)) if g.has_hotel(i))
    skyscrapers = sum(1 for i in range(len(g.level)) if g.has_skyscraper(i))
    assert houses + g.bank_houses == ed.houses
    assert hotels + g.bank_hotels == ed.hotels
    assert skyscrapers + g.bank_skyscrapers == ed.skyscrapers
    assert len(g.depots) <= ed.depots and len(set(g.depots)) == len(g.depots)
    for s in g.depots:
        assert ed.squares[s].kind is SquareKind.STATION and g.owner[s] >= 0
        assert not g.mortgaged[s]
    assert not (g.pending and g.pending[-1].kind in FOLLOW_UPS), "a follow-up left on top"
    delta: dict[Any, int] = {}
    for e in events:
        if isinstance(e, Transfer):
            delta[e.from_] = delta.get(e.from_, 0) - e.amount
            delta[e.to] = delta.get(e.to, 0) + e.amount
    for i, p in enumerate(g.players):
        assert p.cash == before.players[i].cash + delta.get(p.name, 0), "money moved unrecorded"
        assert p.cash >= 0
    assert g.pot == before.pot + delta.get("pot", 0)
    for group, members in ed.groups.items():
        if ed.squares[members[0]].kind is not SquareKind.LOT:
            continue
        built = [s for s in members if g.level[s]]
        if built:
            builder = g.owner[built[0]]
            mine = [s for s in members if g.owner[s] == builder]
            assert all(g.owner[s] == builder for s in built), f"{group} built by two players"
            all_but_one = (g.options.build_with_all_but_one and len(members) > 2
                           and len(mine) == len(members) - 1)
            assert len(mine) == len(members) or all_but_one, f"{group} built without monopoly"
            # a mortgaged lot carries nothing; beside built lots only when the rules let a
            # lot be mortgaged once its own buildings are sold
            assert not any(g.mortgaged[s] and g.level[s] for s in mine)
            assert g.options.mortgage_strips_only_lot or not any(g.mortgaged[s] for s in mine)
            levels = [g.level[s] for s in mine]
            sold_outright = max(levels) - min(levels) > 1
            assert not sold_outright or g.bank_houses < g.options.houses_before_hotel or (
                g.bank_hotels < 1)
            if any(g.has_skyscraper(s) for s in members):
                assert len(mine) == len(members)
    top_level = g.hotel_level + (1 if ed.skyscrapers else 0)
    for i, lvl in enumerate(g.level):
        assert 0 <= lvl <= top_level
        if g.mortgaged[i]:
            assert g.owner[i] >= 0
    held = [c for p in g.players for c in p.jail_cards]
    for deck_id, cards in ed.decks.items():
        in_deck = g.decks[deck_id]
        if deck_id == BUS_DECK:  # used tickets leave the game: pile and hands only shrink
            tickets = in_deck + [t for p in g.players for t in p.bus_tickets]
            assert len(set(tickets)) == len(tickets)
            assert set(tickets) <= {c.id for c in cards}
            assert len(tickets) <= len(before.decks[deck_id]) + sum(
                len(p.bus_tickets) for p in before.players)
            continue
        assert sorted(in_deck + [c for c in held if ed.cards[c].deck == deck_id]) == sorted(
            c.id for c in cards)


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 6), seed=st.integers(0, 1000))
def test_random_legal_sequences_keep_the_invariants(
    edition: str, data: st.DataObject, players: int, seed: int
) -> None:
    draw = HypothesisDraw(data)
    g = walk(draw, start_walk(draw, edition, players, seed), 120)
    assert snapshot(restore_snapshot(snapshot(g))) == snapshot(g)


def test_the_walks_cover_bank_only_play_and_trades_of_everything() -> None:
    # the same walks from a seeded Random: what they exercise is counted, so that the
    # property test above is known to reach these (its shrinking draws the same way)
    seen: Counter[str] = Counter()
    rng = random.Random(5)
    for n in range(40):
        draw = RandomDraw(rng)
        walk(draw, start_walk(draw, EDITIONS[n % 2], rng.randint(2, 6), n), 120, seen)
    for kind in ("bank_only land", "bank_only land via_go", "land", "trade deeds",
                 "trade mortgaged deeds", "trade jail cards"):
        assert seen[kind] > 0, f"no accepted {kind} in the walks: {dict(seen)}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_bot_games_end_with_a_winner_and_keep_the_invariants(edition: str) -> None:
    from companion.bots import Bots

    for seed in range(3):
        g = start(("A", "B", "C", "D"), seed=seed, edition=edition)
        bots = Bots()
        for _ in range(20000):
            if g.winner >= 0:
                break
            r = apply(g, bots.choose(g))
            assert isinstance(r, Accepted), r
            check_invariants(r.state, g, r.events)
            g = r.state
        assert g.winner >= 0
