"""`legal_commands`: what would be accepted now, so screens and phones show only that.

Computed directly, as a chess move generator does: for each verb, the candidates the table
could send are asked of the same refusal functions (`*_refusal`) that `apply` raises from,
so the list and the engine's decisions cannot drift apart. No candidate is applied, and no
state is copied. tests/test_rules_offers.py checks that `apply` accepts exactly what this
offers; tests/test_rules_legal.py compares it with trying every candidate through `apply`.
"""

from __future__ import annotations

from typing import Final

from companion.rules.buildings import (
    Builders,
    build_command_refusal,
    building_auction_refusal,
    group_builders,
    sell_refusal,
)
from companion.rules.cards import draw_refusal
from companion.rules.commands import (
    GIFTS,
    ActOffer,
    BareOffer,
    BidOffer,
    BuildingAuctionOffer,
    CorrectionOffer,
    GiftOffer,
    LandOffer,
    LegalOffer,
    PayOffer,
    SquaresOffer,
    TradeOffer,
    Verb,
)
from companion.rules.edition import KIND_LOT, KIND_STATION, OWNABLE
from companion.rules.estate import (
    bid_floor,
    bid_refusal,
    buy_refusal,
    mortgage_refusal,
    pass_refusal,
    unmortgage_refusal,
)
from companion.rules.flow import bankrupt_refusal
from companion.rules.state import (
    AUCTIONS,
    GO_PAID,
    BirthdayGiftPending,
    BuyPending,
    ChooseSquarePending,
    DebtPending,
    DrawPending,
    GameState,
    LiftMortgagesPending,
    Pending,
    RollForRentPending,
)
from companion.rules.tickets import (
    bus_targets,
    choose_square_refusal,
    gift_refusal,
    square_choices,
    ticket_refusal,
)
from companion.rules.turns import (
    end_turn_refusal,
    leave_jail_refusal,
    move_refusal,
    pass_go_refusal,
    passes_go,
    roll_refusal,
)

#: the verbs asked of every owned square, in the order they are listed
_PROPERTY_VERBS = (Verb.BUILD, Verb.SELL_BUILDING, Verb.MORTGAGE, Verb.UNMORTGAGE)
_BANK_BUILDINGS = ("house", "hotel", "skyscraper")
#: those of an edition without skyscrapers (building_auction_refusal refuses the third)
_HOUSE_AND_HOTEL = _BANK_BUILDINGS[:2]
#: the verbs offered in every state (`_turn`: the current player's, and the end) as constants:
#: a member read through its class costs a call of EnumType's attribute hook
_ROLL: Final = Verb.ROLL
_PAY_FINE: Final = Verb.PAY_FINE
_USE_CARD: Final = Verb.USE_CARD
_END_TURN: Final = Verb.END_TURN
_USE_BUS_TICKET: Final = Verb.USE_BUS_TICKET
_PASS_GO: Final = Verb.PASS_GO
_LAND: Final = Verb.LAND
_END_GAME: Final = Verb.END_GAME


#: the offers to build, sell, mortgage and lift (`property_offers`), and who may build in
#: each group (`group_builders`; None when nobody may build on an unmortgaged lot)
PropertyOffers = tuple[list[LegalOffer], Builders | None]


def legal_commands(g: GameState, owned: PropertyOffers | None = None) -> list[LegalOffer]:
    """The commands accepted now, as typed offers (companion.rules.commands): "by" filled
    in, the choices (squares, bid limits, gifts, parties) in their own fields; `to_json()`
    gives each entry of the public state's "legal" list.

    `owned`: the state's `property_offers` when the caller has them (kept from a state of
    the same `property_key`; read, never changed here), else they are worked out here."""
    if g.winner >= 0:
        return []
    out: list[LegalOffer] = []
    players = g.players
    active = [p.name for p in players if not p.bankrupt]
    top = g.top
    # the property offers, listed after the turn's or the decision's offers
    offers, builders = property_offers(g) if owned is None else owned
    if top is not None:
        _answers(g, top, out)
    else:
        _turn(g, out, builders)
    out.extend(offers)
    for owner in dict.fromkeys(c[1] for c in g.claims):
        out.append(ActOffer(Verb.CLAIM_RENT, players[owner].name))
    payers = [p.name for p in players if not p.bankrupt and p.cash > 0]
    if payers:
        out.append(PayOffer(payers + ["bank"], active + ["bank"]))
    out.append(BareOffer(_END_GAME))
    if len(active) >= 2 and not g.mr_monopoly and (
            not isinstance(top, AUCTIONS)):
        out.append(TradeOffer(active))
    return out


def _answers(g: GameState, top: Pending, out: list[LegalOffer]) -> None:
    """The answers to the decision the table waits for."""
    who = g.players[top.player].name if top.player >= 0 else None
    if isinstance(top, BuyPending):
        if buy_refusal(g, top) is None:
            out.append(ActOffer(Verb.BUY, who))
        out.append(ActOffer(Verb.DECLINE, who))
    elif isinstance(top, AUCTIONS):
        floor = max(bid_floor(top), 1)
        for i, p in enumerate(g.players):
            if p.bankrupt or i in top.passed:  # a building auction: only who can place it
                continue
            if p.cash >= floor and bid_refusal(g, top, i, floor) is None:
                out.append(BidOffer(p.name, floor, p.cash))
            if pass_refusal(g, top, i) is None:
                out.append(ActOffer(Verb.PASS, p.name))
        out.append(BareOffer(Verb.CLOSE_AUCTION))
    elif isinstance(top, DrawPending):
        if draw_refusal(g, top, None) is None:
            out.append(ActOffer(Verb.DRAW, who))
    elif isinstance(top, RollForRentPending):
        if roll_refusal(g, top.player) is None:
            out.append(ActOffer(Verb.ROLL, who))
    elif isinstance(top, LiftMortgagesPending):
        squares = [s for s in top.squares if unmortgage_refusal(g, top.player, s) is None]
        if squares:
            out.append(SquaresOffer(Verb.UNMORTGAGE, who, squares))
        out.append(ActOffer(Verb.DECLINE, who))
    elif isinstance(top, DebtPending):
        if bankrupt_refusal(g, top.player) is None:
            out.append(ActOffer(Verb.BANKRUPT, who))
    elif isinstance(top, ChooseSquarePending):
        squares = [s for s in square_choices(g, top)
                   if choose_square_refusal(g, top, s) is None]
        out.append(SquaresOffer(Verb.CHOOSE_SQUARE, who, squares))
    elif isinstance(top, BirthdayGiftPending):
        for gift in GIFTS:
            if gift_refusal(g, gift) is None:
                out.append(GiftOffer(who, gift))


def _turn(g: GameState, out: list[LegalOffer], builders: Builders | None) -> None:
    """With nothing pending: the current player's moves (leaving jail among them).
    `builders`: who may build in each group (`group_builders`), None when nobody may build
    on an unmortgaged lot (`_property`)."""
    cur_i = g.current
    cur = g.players[cur_i].name
    if roll_refusal(g, cur_i) is None:
        out.append(ActOffer(_ROLL, cur))
    # the refusals that are sure are not built (a refusal is a record with its message):
    # leave_jail_refusal refuses a player not in jail, move_refusal and pass_go_refusal
    # every move where the device rolls (not bank-only); each stays the rule where asked
    jailed = g.players[cur_i].in_jail
    bank_only = g.options.bank_only
    if jailed and leave_jail_refusal(g, cur_i, by_card=False) is None:
        out.append(ActOffer(_PAY_FINE, cur))
    if jailed and leave_jail_refusal(g, cur_i, by_card=True) is None:
        out.append(ActOffer(_USE_CARD, cur))
    if end_turn_refusal(g, cur_i) is None:
        out.append(ActOffer(_END_TURN, cur))
    if ticket_refusal(g, cur_i, None) is None:
        out.append(SquaresOffer(_USE_BUS_TICKET, cur,
                                bus_targets(g, g.players[cur_i].position)))
    # bank-only play: the square this roll's move reached, its salary before it; where the
    # device rolls it moves the tokens itself (turns.move_refusal)
    if bank_only and move_refusal(g, cur_i) is None:
        start = g.players[cur_i].position
        every = range(len(g.edition.squares))
        via_go = [s for s in every if passes_go(start, s)]
        paid = g.go_salary == GO_PAID
        out.append(LandOffer(cur, via_go if paid else list(every), [] if paid else via_go))
    if bank_only and pass_go_refusal(g, cur_i) is None:
        out.append(ActOffer(_PASS_GO, cur))
    # the banker's corrections (the session lets nobody else send them)
    active = [p.name for p in g.players if not p.bankrupt]
    out.append(CorrectionOffer(_LAND, active, list(range(len(g.edition.squares)))))
    out.append(CorrectionOffer(_PASS_GO, active))
    # the banker's call in a shortage: what the bank still has to auction one by one;
    # refused whatever else holds while nobody may build in a group (nobody could place it)
    kinds = [b for b in (_BANK_BUILDINGS if g.edition.skyscrapers else _HOUSE_AND_HOTEL)
             if builders is not None and building_auction_refusal(g, b, builders) is None]
    if kinds:
        out.append(BuildingAuctionOffer(kinds))


def property_offers(g: GameState) -> PropertyOffers:
    """The offers to build, sell, mortgage and lift, per player (`_property`), and who may
    build in each group. They depend on nothing but what `property_key` holds."""
    owned: list[LegalOffer] = []
    builders = _property(g, g.top, owned)
    return owned, builders


def property_key(g: GameState) -> tuple[object, ...]:
    """Every input of `property_offers`, the refusals it asks included (`_property`,
    `group_builders`, `sell_refusal`, `build_command_refusal`, `mortgage_refusal`,
    `unmortgage_refusal` and what they call): two states with equal keys have the same
    property offers, so a caller may keep them for a later state of the same key
    (companion.game.applying.StateJsonMemory). Keep it whole when those change: a field
    they come to read belongs here (tests/test_state_json_memory.py changes every field
    left out and asks for the same offers).

    The edition and the options; the board (`owner`, `level`, `mortgaged`, the depots);
    the bank's buildings; the mortgages kept from a transfer (their lift costs interest);
    the whole pending stack (an auction, a debt anywhere in it, the building to place, the
    deeds just received); the Mr. Monopoly turn and, only in one, whose turn it is (nobody
    else builds, lifts or trades; no other question reads the current player); and each
    player's name, cash and bankruptcy. Not the positions, the jail, the cards, the dice,
    the turn's count and flags, the pot, the claims, the decks nor the version."""
    seldom = g.seldom
    mr_monopoly = seldom.mr_monopoly
    return (g.edition, g.options, g.owner, g.level, g.mortgaged, seldom.depots,
            g.bank_houses, g.bank_hotels, seldom.bank_skyscrapers, seldom.kept_mortgages,
            tuple(g.pending), mr_monopoly, g.current if mr_monopoly else -1,
            tuple([(p.name, p.cash, p.bankrupt) for p in g.players]))


def _property(g: GameState, top: Pending | None,
              out: list[LegalOffer]) -> Builders | None:
    """Building, selling, mortgaging and lifting, per player, on the squares that allow it.

    Deeds just received with their mortgages (LIFT_MORTGAGES) are lifted in that answer,
    so their new owner's lifting of those is not listed twice (their other deeds are).

    Each refusal function is asked only of the squares it could accept: whatever else holds,
    it refuses a mortgaged square to build on or mortgage, an unmortgaged one to lift, one
    without a building (nor a train depot) to sell from, one with them to mortgage, a square
    that is neither a lot nor (in an edition with train depots) a station to build on, every
    lot of a colour group its player may not build in and, under even building, every lot
    above the player's lowest of its group (`group_builders`: who may build where, from one
    walk of the groups a state). So a mid-game state asks a few dozen questions instead of
    four per deed, and builds a handful of refusals instead of about a hundred (issue 28);
    the deeds are sorted by owner in one walk of the board. tests/test_rules_offers.py
    still checks that `apply` accepts exactly this.

    Returns who may build in each group (`group_builders`) when any player may build in a
    colour group where they have an unmortgaged lot, else None: without one, nobody could
    place a building the bank auctions either.
    """
    lifting = top.player if isinstance(top, LiftMortgagesPending) else -1
    received = set(top.squares) if isinstance(top, LiftMortgagesPending) else set()
    owner, mortgaged, level, depots = g.owner, g.mortgaged, g.level, g.depots
    squares = g.edition.squares
    players = g.players
    # each player's deeds, from one walk of the board
    deeds: list[list[int]] = [[] for _ in players]
    for sq in squares:
        if sq.kind in OWNABLE:
            who = owner[sq.index]
            if who >= 0:
                deeds[who].append(sq.index)
    building = group_builders(g)  # who may build in each group (builder_lots, once a group)
    # a station takes a train depot only in an edition with depots; elsewhere every build
    # on it is refused (_lot_plan: nothing can be built there)
    with_depots = bool(g.edition.depots)
    builders = False
    for i, p in enumerate(players):
        owned = deeds[i]
        if p.bankrupt or not owned:
            continue
        build: list[int] = []
        sell: list[int] = []
        mortgage: list[int] = []
        lift: list[int] = []
        for s in owned:
            if (level[s] or s in depots) and sell_refusal(g, i, s, 1) is None:
                sell.append(s)
            sq = squares[s]
            if mortgaged[s]:
                if not (i == lifting and s in received) and unmortgage_refusal(g, i, s) is None:
                    lift.append(s)
                continue
            if sq.kind is KIND_LOT:
                may = building.get(sq.group)
                if may is not None and may[0] == i:
                    builders = True
                    if s in may[1] and build_command_refusal(g, i, s, 1) is None:
                        build.append(s)
            elif with_depots and sq.kind is KIND_STATION and \
                    build_command_refusal(g, i, s, 1) is None:
                build.append(s)
            # a lot with buildings, a station with a train depot: sell them first
            if not (level[s] if sq.kind is KIND_LOT else s in depots) and \
                    mortgage_refusal(g, i, s) is None:
                mortgage.append(s)
        for verb, chosen in zip(_PROPERTY_VERBS, (build, sell, mortgage, lift), strict=True):
            if chosen:
                out.append(SquaresOffer(verb, p.name, chosen))
    return building if builders else None


__all__ = ["legal_commands", "property_offers", "property_key", "PropertyOffers"]
