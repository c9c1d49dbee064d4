"""What the world sees of a game: the public state JSON, and full snapshots for the journal."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from companion.rules.board import auction_choices, rent_for
from companion.rules.commands import LegalOffer
from companion.rules.dice import dice_json
from companion.rules.edition import BUS_DECK, OWNABLE, Edition, SquareKind
from companion.rules.events import EventError, why_from_json
from companion.rules.money import party_name
from companion.rules.options import RuleOptions
from companion.rules.speed import triple_targets
from companion.rules.state import (
    BANK,
    GO_PAID,
    NOBODY,
    AuctionPending,
    BirthdayGiftPending,
    BuildingAuctionPending,
    BusPending,
    BuyPending,
    ChooseSquarePending,
    DebtPending,
    DrawPending,
    GameState,
    LiftMortgagesPending,
    MrMonopolyPending,
    Pending,
    PendingKind,
    PlaceBuildingPending,
    Player,
    RollForRentPending,
)

JSON = dict[str, Any]
#: each kind's JSON name: `kind.value` goes through the enum's property, a Python call
_KIND_VALUES: Final = {kind: kind.value for kind in SquareKind}


def net_worth(g: GameState, player: int) -> int:
    """Cash, deeds at price (mortgaged at price less the mortgage), buildings at cost."""
    return net_worths(g)[player]


def net_worths(g: GameState) -> tuple[int, ...]:
    """Every player's `net_worth`, in seat order, from one walk of the board (what the
    state JSON and the session's followers need after each move)."""
    totals = [p.cash for p in g.players]
    owner, mortgaged, level, depots = g.owner, g.mortgaged, g.level, g.depots
    for sq in g.edition.squares:
        if sq.kind in OWNABLE:
            i = sq.index
            who = owner[i]
            if who >= 0:
                totals[who] += (sq.price - (sq.mortgage if mortgaged[i] else 0)
                                + level[i] * sq.house_cost)
                if depots and i in depots:
                    totals[who] += g.edition.depot_cost
    return tuple(totals)


def _name(g: GameState, who: int) -> str | None:
    return g.players[who].name if who >= 0 else None


def pending_json(g: GameState, p: Pending) -> JSON:
    """One pending decision as JSON (see docs/state-json.md)."""
    out: JSON = {"kind": p.kind.value, "player": _name(g, p.player)}
    if isinstance(p, BuyPending):
        out.update(square=p.square, price=g.edition.squares[p.square].price)
    elif isinstance(p, (AuctionPending, BuildingAuctionPending)):
        out.update(highest=p.highest, bidder=_name(g, p.bidder),
                   bidders=[q.name for q in g.players if not q.bankrupt],
                   passed=[g.players[i].name for i in p.passed], min_bid=max(p.min_bid, 1))
        if isinstance(p, AuctionPending):
            out.update(square=p.square, queue=list(p.queue))
        else:
            out.update(building=p.building)
    elif isinstance(p, DrawPending):
        out.update(deck=p.deck)
    elif isinstance(p, DebtPending):
        out.update(creditor=party_name(g, p.creditor), amount=p.amount, reason=p.reason)
        if p.why is not None:
            out["why"] = p.why.to_json()
    elif isinstance(p, RollForRentPending):
        out.update(square=p.square, multiplier=p.multiplier)
    elif isinstance(p, LiftMortgagesPending):
        out.update(squares=list(p.squares))
    elif isinstance(p, PlaceBuildingPending):
        out.update(building=p.building)
    elif isinstance(p, ChooseSquarePending):
        out.update({"for": p.reason, "squares": triple_targets(g, p.player)
                    if p.reason == "triple" else auction_choices(g)})
    elif isinstance(p, BirthdayGiftPending):
        out.update(square=p.square, amount=p.amount)
    return out


class ViewParts(NamedTuple):
    """The parts of the state JSON that change seldom from one state to the next, each
    built by its own function from the inputs it names (`view_parts`), so that a caller
    that keeps them may hand an earlier state's to `public_state` while those inputs are
    the same (companion.game.applying.StateJsonMemory). Shared, never changed: readers
    must not change them."""

    #: "squares" (board_json)
    squares: list[JSON]
    #: "players" (player_json)
    players: list[JSON]
    #: "options": RuleOptions.to_json of the state's options
    options: JSON
    #: "currency": the edition's
    currency: JSON
    #: "bank" (bank_json)
    bank: JSON


def board_json(g: GameState, names: list[str]) -> tuple[list[JSON], list[int]]:
    """The state JSON's "squares" (a row per ownable square) and each player's deeds at
    their worth (what `net_worths` adds to their cash), from one walk of the board;
    `names`: the players' names in seat order.

    Reads nothing but the edition, the options, `names` and the state's `owner`, `level`,
    `mortgaged` and `depots` (`rent_for` reads no more): the same of these, the same
    result (a caller may keep it for a later state on that condition)."""
    ed = g.edition
    owner, level, mortgaged, depots = g.owner, g.level, g.mortgaged, g.seldom.depots
    hotel = g.options.houses_before_hotel + 1  # g.hotel_level, without its call
    with_skyscrapers, with_depots = bool(ed.skyscrapers), bool(ed.depots)
    depot_cost = ed.depot_cost
    # every player's deeds at their worth (`net_worths`' sums) from this same walk
    worths = [0] * len(names)
    squares = []
    for sq in ed.squares:
        if sq.kind not in OWNABLE:
            continue
        i = sq.index
        who = owner[i]
        lvl = level[i]
        if who >= 0:
            worths[who] += (sq.price - (sq.mortgage if mortgaged[i] else 0)
                            + lvl * sq.house_cost)
            if depots and i in depots:
                worths[who] += depot_cost
        # houses_on, has_hotel and has_skyscraper from the level read once
        row = {
            "index": i, "id": sq.id, "name": sq.name, "kind": _KIND_VALUES[sq.kind],
            "group": sq.group, "price": sq.price, "owner": names[who] if who >= 0 else None,
            "houses": 0 if lvl >= hotel else lvl, "hotel": lvl == hotel,
            "mortgaged": mortgaged[i], "rent": rent_for(g, i, 1) if who >= 0 else 0,
        }
        if with_skyscrapers:
            row["skyscraper"] = lvl > hotel
        if with_depots:
            row["depot"] = i in depots
        squares.append(row)
    return squares, worths


def player_json(p: Player, net_worth: int, tickets: bool) -> JSON:
    """One player's row of the state JSON: reads nothing but the record, the net worth
    given and `tickets` (whether the edition has bus tickets)."""
    person = {"name": p.name, "cash": p.cash, "position": p.position, "in_jail": p.in_jail,
              "jail_turns": p.jail_turns, "jail_cards": len(p.jail_cards),
              "bankrupt": p.bankrupt, "net_worth": net_worth}
    if tickets:
        person["bus_tickets"] = len(p.bus_tickets)
    return person


def bank_json(g: GameState) -> JSON:
    """The state JSON's "bank": what the bank still has."""
    ed = g.edition
    seldom = g.seldom
    bank = {"houses": g.bank_houses, "hotels": g.bank_hotels}
    if ed.skyscrapers:
        bank["skyscrapers"] = seldom.bank_skyscrapers
    if ed.depots:
        bank["depots"] = ed.depots - len(seldom.depots)
    if BUS_DECK in ed.decks:
        bank["bus_tickets"] = len(seldom.decks[BUS_DECK])
    return bank


def view_parts(g: GameState) -> ViewParts:
    """The state's `ViewParts`, all built anew."""
    players = g.players
    names = [p.name for p in players]
    squares, deeds = board_json(g, names)
    tickets = BUS_DECK in g.edition.decks
    rows = [player_json(p, p.cash + deeds[i], tickets) for i, p in enumerate(players)]
    return ViewParts(squares, rows, g.options.to_json(), dict(g.edition.currency),
                     bank_json(g))


def public_state(g: GameState, legal: list[LegalOffer] | None = None,
                 parts: ViewParts | None = None) -> JSON:
    """The state JSON every screen, phone and script sees (docs/state-json.md); `legal`,
    the offers of legal_commands, become its "legal" list. `parts`: the state's
    `ViewParts` when the caller has them (kept from an earlier state whose inputs to them
    are the same), else they are built here."""
    if parts is None:
        parts = view_parts(g)
    ed = g.edition
    names = [p.name for p in g.players]
    seldom = g.seldom  # the state's seldom-written fields, each read once (not per property)
    opts = g.options
    card = ed.cards.get(seldom.last_card)
    turn: JSON = {"number": g.turn_number, "rolled": g.rolled, "doubles": g.doubles,
                  "must_roll": g.must_roll}
    if opts.speed_die:
        turn["mr_monopoly"] = seldom.mr_monopoly
    if opts.bank_only:
        turn["go_paid"] = seldom.go_salary == GO_PAID
    pending = g.pending
    out: JSON = {
        "version": g.version,
        "edition": ed.id,
        "currency": parts.currency,
        "options": parts.options,
        "players": parts.players,
        "squares": parts.squares,
        "bank": parts.bank,
        "pot": seldom.pot,
        "current": names[g.current],
        "turn": turn,
        "dice": dice_json(g.dice) if g.dice else None,
        "pending": pending_json(g, pending[-1]) if pending else None,
        "waiting": [pending_json(g, p) for p in reversed(pending[:-1])],
        "last_card": ({"deck": card.deck, "id": card.id, "text": card.text} if card else None),
        "winner": names[g.winner] if g.winner >= 0 else None,
        "variant": seldom.extra.get("variant", "standard"),
        "standings": list(seldom.standings) or None,
        "claimable_rents": [
            {"payer": names[payer], "owner": names[owner], "square": square,
             "amount": amount, "turns_left": left}
            for payer, owner, square, amount, left in seldom.claims
        ],
    }
    if legal is not None:
        out["legal"] = [offer.to_json() for offer in legal]
    return out


# --- snapshots: everything, for the journal ----------------------------------------------

def pending_snapshot(g: GameState, p: Pending) -> JSON:
    """One pending decision as a snapshot writes it: every kind's record with all the
    fields any kind has, the ones it does not have at their defaults (the form journals
    have always held, so old and new snapshots read alike)."""
    out: JSON = {"kind": p.kind.value, "player": p.player, "square": -1, "amount": 0,
                 "creditor": BANK, "reason": "", "deck": "", "multiplier": 0, "highest": 0,
                 "bidder": NOBODY, "passed": [], "queue": [], "squares": [], "building": "",
                 "min_bid": 0, "then_move": 0}
    if isinstance(p, BuyPending):
        out.update(square=p.square, amount=g.edition.squares[p.square].price)
    elif isinstance(p, AuctionPending):
        out.update(square=p.square, highest=p.highest, bidder=p.bidder, passed=list(p.passed),
                   queue=list(p.queue), min_bid=p.min_bid)
    elif isinstance(p, BuildingAuctionPending):
        out.update(highest=p.highest, bidder=p.bidder, passed=list(p.passed),
                   building=p.building, min_bid=p.min_bid)
    elif isinstance(p, DrawPending):
        out.update(deck=p.deck)
    elif isinstance(p, DebtPending):
        out.update(amount=p.amount, creditor=p.creditor, reason=p.reason,
                   then_move=p.then_move)
        if p.why is not None:
            out["why"] = p.why.to_json()
    elif isinstance(p, RollForRentPending):
        out.update(square=p.square, multiplier=p.multiplier)
    elif isinstance(p, LiftMortgagesPending):
        out.update(squares=list(p.squares))
    elif isinstance(p, PlaceBuildingPending):
        out.update(building=p.building)
    elif isinstance(p, ChooseSquarePending):
        out.update(square=p.square, reason=p.reason)
    elif isinstance(p, BirthdayGiftPending):
        out.update(square=p.square, amount=p.amount)
    return out


def pending_from_snapshot(raw: JSON) -> Pending:
    """A pending decision from its snapshot form (pending_snapshot); a KeyError, TypeError
    or ValueError when it is not one."""
    kind = PendingKind(raw["kind"])
    player = int(raw["player"])
    if kind is PendingKind.BUY:
        return BuyPending(player, int(raw["square"]))
    if kind is PendingKind.AUCTION:
        return AuctionPending(int(raw["square"]), int(raw["highest"]), int(raw["bidder"]),
                              tuple(int(i) for i in raw["passed"]),
                              tuple(int(s) for s in raw["queue"]), int(raw["min_bid"]))
    if kind is PendingKind.BUILDING_AUCTION:
        return BuildingAuctionPending(str(raw["building"]), int(raw["highest"]),
                                      int(raw["bidder"]), tuple(int(i) for i in raw["passed"]),
                                      int(raw["min_bid"]))
    if kind is PendingKind.DRAW:
        return DrawPending(player, str(raw["deck"]))
    if kind is PendingKind.DEBT:
        return DebtPending(player, int(raw["amount"]), int(raw["creditor"]), str(raw["reason"]),
                           why_from_json(raw.get("why")), int(raw["then_move"]))
    if kind is PendingKind.ROLL_FOR_RENT:
        return RollForRentPending(player, int(raw["square"]), int(raw["multiplier"]))
    if kind is PendingKind.LIFT_MORTGAGES:
        return LiftMortgagesPending(player, tuple(int(s) for s in raw["squares"]))
    if kind is PendingKind.PLACE_BUILDING:
        return PlaceBuildingPending(player, str(raw["building"]))
    if kind is PendingKind.CHOOSE_SQUARE:
        return ChooseSquarePending(player, str(raw["reason"]), int(raw["square"]))
    if kind is PendingKind.BIRTHDAY_GIFT:
        return BirthdayGiftPending(player, int(raw["square"]), int(raw["amount"]))
    if kind is PendingKind.MR_MONOPOLY:
        return MrMonopolyPending(player)
    return BusPending(player)


def snapshot(g: GameState) -> JSON:
    """The whole state as JSON (deck order and generator included: not for players' eyes)."""
    return {
        "edition": g.edition.id,
        "options": g.options.to_json(),
        "players": [
            {"name": p.name, "cash": p.cash, "position": p.position, "in_jail": p.in_jail,
             "jail_turns": p.jail_turns, "jail_cards": list(p.jail_cards),
             "bankrupt": p.bankrupt, "bus_tickets": list(p.bus_tickets)} for p in g.players
        ],
        "owner": list(g.owner), "level": list(g.level), "mortgaged": list(g.mortgaged),
        "bank_houses": g.bank_houses, "bank_hotels": g.bank_hotels, "rng": g.rng,
        "decks": {k: list(v) for k, v in g.decks.items()}, "version": g.version,
        "current": g.current, "turn_number": g.turn_number, "rolled": g.rolled,
        "must_roll": g.must_roll, "doubles": g.doubles,
        "dice": list(g.dice) if g.dice is not None else None,
        "pending": [pending_snapshot(g, p) for p in g.pending],
        "last_card": g.last_card, "pot": g.pot, "winner": g.winner, "extra": dict(g.extra),
        "standings": list(g.standings), "claims": [list(c) for c in g.claims],
        "bank_skyscrapers": g.bank_skyscrapers, "depots": list(g.depots),
        "fresh_tickets": g.fresh_tickets, "mr_monopoly": g.mr_monopoly,
        **({"go_salary": g.go_salary} if g.go_salary else {}),  # bank-only play's salary
        # only when there are any, so that snapshots of games without them stay as they were
        **({"kept_mortgages": list(g.kept_mortgages)} if g.kept_mortgages else {}),
    }


def restore(data: JSON, edition: Edition) -> GameState:
    """Rebuild a state from `snapshot` output; raises ValueError on a malformed snapshot."""
    if data.get("edition") != edition.id:
        raise ValueError(f"snapshot is of edition {data.get('edition')!r}, not {edition.id!r}")
    try:
        options = RuleOptions().with_changes(data["options"])
        players = [Player(p["name"], int(p["cash"]), int(p["position"]), bool(p["in_jail"]),
                          int(p["jail_turns"]), list(p["jail_cards"]), bool(p["bankrupt"]),
                          tuple(p.get("bus_tickets", ())))
                   for p in data["players"]]
        pending = [pending_from_snapshot(raw) for raw in data["pending"]]
        n = len(edition.squares)
        g = GameState(
            edition=edition, options=options, players=players, owner=tuple(data["owner"]),
            level=tuple(data["level"]), mortgaged=tuple(data["mortgaged"]),
            bank_houses=int(data["bank_houses"]), bank_hotels=int(data["bank_hotels"]),
            rng=int(data["rng"]), decks={k: list(v) for k, v in data["decks"].items()},
            version=int(data["version"]), current=int(data["current"]),
            turn_number=int(data["turn_number"]), rolled=bool(data["rolled"]),
            must_roll=bool(data["must_roll"]), doubles=int(data["doubles"]),
            dice=tuple(data["dice"]) if data["dice"] is not None else None, pending=pending,
            last_card=str(data["last_card"]), pot=int(data["pot"]), winner=int(data["winner"]),
            extra=dict(data.get("extra", {})), standings=list(data.get("standings", [])),
            claims=[(int(c[0]), int(c[1]), int(c[2]), int(c[3]), int(c[4]))
                    for c in data.get("claims", [])],
            bank_skyscrapers=int(data.get("bank_skyscrapers", edition.skyscrapers)),
            depots=tuple(data.get("depots", ())), fresh_tickets=int(data.get("fresh_tickets", 0)),
            mr_monopoly=bool(data.get("mr_monopoly", False)),
            go_salary=int(data.get("go_salary", 0)),
            kept_mortgages=tuple(int(x) for x in data.get("kept_mortgages", ())),
        )
    except (KeyError, TypeError, EventError) as exc:
        raise ValueError(f"malformed snapshot: {exc}") from None
    if not (len(g.owner) == len(g.level) == len(g.mortgaged) == n):
        raise ValueError("malformed snapshot: the board does not match the edition")
    return g


__all__ = ["public_state", "ViewParts", "view_parts", "board_json", "player_json",
           "bank_json", "snapshot", "restore", "net_worth", "NOBODY", "SquareKind"]
