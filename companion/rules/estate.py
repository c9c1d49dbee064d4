"""Property: buying, auctions, mortgages and trades (buildings: see buildings.py)."""

from __future__ import annotations

from typing import Any

from companion.rules.board import cannot_afford
from companion.rules.buildings import (
    after_acquiring,
    auction_refusal,
    build,
    can_place,
    completes_built_group,
    debt_refusal,
    mr_monopoly_refusal,
    property_refusal,
    sell_building,
    start_building_auction,
)
from companion.rules.buildings import own_property as _own_lot
from companion.rules.codes import CODE_HAS_BUILDINGS, Code, RulesError
from companion.rules.edition import KIND_LOT, OWNABLE
from companion.rules.events import (
    AuctionClosed,
    AuctionStarted,
    Bid,
    Bought,
    Declined,
    Events,
    Goods,
    Mortgaged,
    Passed,
    Traded,
    Unmortgaged,
    Why,
)
from companion.rules.money import (
    charge,
    interest_why,
    lift_cost,
    lift_why,
    mortgage_take_interest,
    transfer,
    transfer_interest,
)
from companion.rules.state import (
    AUCTIONS,
    BANK,
    COMPILED,
    NOBODY,
    AuctionPending,
    BuildingAuctionPending,
    BuyPending,
    GameState,
    LiftMortgagesPending,
    PlaceBuildingPending,
    bare,
)

#: either auction: a property's or a building's
AnyAuction = AuctionPending | BuildingAuctionPending


def buy_refusal(g: GameState, pending: BuyPending) -> RulesError | None:
    """Why the player cannot buy the property they stand on (None: they can)."""
    sq = g.edition.squares[pending.square]
    if g.players[pending.player].cash < sq.price:
        return cannot_afford(g, pending.player, sq.name, sq.price, purpose="buy",
                             square=sq.index)
    return None


def buy(g: GameState, ev: Events, pending: BuyPending) -> None:
    """The player buys the property they stand on at the printed price."""
    refusal = buy_refusal(g, pending)
    if refusal is not None:
        raise refusal
    sq = g.edition.squares[pending.square]
    g.pending.pop()
    transfer(g, ev, pending.player, BANK, sq.price, "purchase",
             Why("purchase", sq.index, (("price", sq.price),)))
    g.set_owner(sq.index, pending.player)
    ev.append(Bought(g.players[pending.player].name, sq.index, sq.price))
    after_acquiring(g, ev, pending.player, [sq.index])


def decline(g: GameState, ev: Events, pending: BuyPending) -> None:
    """The player declines: the bank auctions the property at once (if auctions are on)."""
    g.pending.pop()
    ev.append(Declined(g.players[pending.player].name, pending.square))
    if g.options.auctions:
        start_auction(g, ev, pending.square)


def start_auction(g: GameState, ev: Events, square: int,
                  queue: tuple[int, ...] | list[int] = ()) -> None:
    """Open the bank's auction of a property; every player still in the game may bid."""
    g.pending.append(AuctionPending(square, queue=tuple(queue)))
    ev.append(AuctionStarted(square))
    _maybe_close(g, ev)


def bidders(g: GameState) -> list[int]:
    """Players who may take part in an auction."""
    return [i for i, p in enumerate(g.players) if not p.bankrupt]


def bid_floor(pending: AnyAuction) -> int:
    """The lowest bid the running auction takes now."""
    return max(pending.highest + 1, pending.min_bid)


def bid_refusal(g: GameState, pending: AnyAuction, player: int, amount: int) -> RulesError | None:
    """Why the bid is refused (None: taken). A bid must beat the last one (and the opening
    minimum) and not exceed the cash; a building is bid for only by who could place it."""
    if isinstance(pending, BuildingAuctionPending) and not can_place(g, player,
                                                                      pending.building):
        return RulesError(Code.NOT_NOW, f"{g.players[player].name} has nowhere to place a "
                          f"{pending.building}", player=g.players[player].name)
    if player in pending.passed:
        return RulesError(Code.ALREADY_PASSED,
                          f"{g.players[player].name} has left this auction")
    floor = bid_floor(pending)
    if amount < floor:
        return RulesError(Code.BID_TOO_LOW, f"a bid must be at least {floor}", minimum=floor)
    cash = g.players[player].cash
    if amount > cash:
        return RulesError(Code.INSUFFICIENT_FUNDS, f"{g.players[player].name} has only {cash}",
                          player=g.players[player].name, purpose="bid", needed=amount,
                          cash=cash)
    return None


def bid(g: GameState, ev: Events, pending: AnyAuction, player: int, amount: int) -> None:
    """Take a bid (see bid_refusal)."""
    if type(pending) is not AuctionPending or player in pending.passed \
            or amount <= pending.highest or amount < pending.min_bid \
            or amount > g.players[player].cash:  # else nothing in bid_refusal refuses it
        refusal = bid_refusal(g, pending, player, amount)
        if refusal is not None:
            raise refusal
    g.pending[-1] = pending.with_bid(player, amount)
    if COMPILED:
        ev.append(Bid(g.players[player].name, amount))
    else:  # the fields on a bare record, as money.transfer makes its Transfer
        e: Any = bare(Bid)
        e.player = g.players[player].name
        e.amount = amount
        ev.append(e)
    _maybe_close(g, ev)


def pass_refusal(g: GameState, pending: AnyAuction, player: int) -> RulesError | None:
    """Why the player cannot leave the auction (None: they can)."""
    if player in pending.passed:
        return RulesError(Code.ALREADY_PASSED, f"{g.players[player].name} has already passed")
    if player == pending.bidder:
        return RulesError(Code.NOT_NOW, f"{g.players[player].name} holds the highest bid")
    return None


def pass_auction(g: GameState, ev: Events, pending: AnyAuction, player: int) -> None:
    """The player leaves the auction; it ends when all but the highest bidder have passed."""
    refusal = pass_refusal(g, pending, player)
    if refusal is not None:
        raise refusal
    g.pending[-1] = pending.with_pass(player)
    ev.append(Passed(g.players[player].name))
    _maybe_close(g, ev)


def _maybe_close(g: GameState, ev: Events) -> None:
    pending = g.pending[-1] if g.pending else None  # g.top, without its call
    if not isinstance(pending, AUCTIONS):
        return
    # who is still in: bidders(g) less those who passed, counted without the lists
    passed = pending.passed
    left = 0
    last = NOBODY
    for i, p in enumerate(g.players):
        if not p.bankrupt and i not in passed:
            left += 1
            last = i
    if not left or (left == 1 and last == pending.bidder):
        close_auction(g, ev)


def close_auction(g: GameState, ev: Events) -> None:
    """End the auction: the highest bid wins; with no bid the bank keeps it."""
    pending = g.pending.pop()
    assert isinstance(pending, AUCTIONS)
    if isinstance(pending, BuildingAuctionPending):
        if pending.bidder != NOBODY:
            # a bid is covered when made and stays so (see pay); should it not be, a debt
            charge(g, ev, pending.bidder, BANK, pending.highest, "building_auction",
                   why=Why("building_auction", None, (("bid", pending.highest),)))
            g.pending.append(PlaceBuildingPending(pending.bidder, pending.building))
        ev.append(AuctionClosed(None, pending.building,
                                g.players[pending.bidder].name if pending.bidder >= 0 else None,
                                pending.highest))
        return
    if pending.bidder != NOBODY:
        charge(g, ev, pending.bidder, BANK, pending.highest, "auction",
               why=Why("auction", pending.square, (("bid", pending.highest),), "auctions"))
        g.set_owner(pending.square, pending.bidder)
    ev.append(AuctionClosed(pending.square, None,
                            g.players[pending.bidder].name if pending.bidder >= 0 else None,
                            pending.highest))
    if pending.bidder != NOBODY:
        after_acquiring(g, ev, pending.bidder, [pending.square])
    if pending.queue:
        start_auction(g, ev, pending.queue[0], pending.queue[1:])


def mortgage_refusal(g: GameState, player: int, square: int) -> RulesError | None:
    """Why the player cannot mortgage the property (None: they can)."""
    sq = g.edition.squares[square]
    if g.owner[square] != player or sq.kind not in OWNABLE:  # else the player's property
        refusal = property_refusal(g, player, square)
        if refusal is not None:
            return refusal
    if g.mortgaged[square]:
        return RulesError(Code.ALREADY_MORTGAGED, f"{sq.name} is already mortgaged")
    if sq.kind is KIND_LOT:
        if g.options.mortgage_strips_only_lot:
            # only this lot's buildings go back first (SV «Alla byggnader på en tomt måste
            # säljas», FR «vendez tout d'abord les bâtiments de cette propriété»); the other
            # lots keep theirs, as evenly as the selling left them (RU «на остальных
            # участках этого цвета оставить по одному дому»)
            if g.level[square]:
                return RulesError(CODE_HAS_BUILDINGS, f"sell the buildings of {sq.name} first",
                                  square=square, on="lot")
        # the player's lots of the group: the one lot of another player (building with all
        # lots but one) carries nothing of theirs
        else:
            owner, level = g.owner, g.level
            for s in g.edition.groups[sq.group]:  # a loop: any() over a generator costs a frame
                if owner[s] == player and level[s]:
                    return RulesError(CODE_HAS_BUILDINGS,
                                      f"sell the buildings of {sq.name}'s group first",
                                      square=square, on="group")
    elif square in g.seldom.depots:  # not through the state's property: a call
        return RulesError(CODE_HAS_BUILDINGS, f"sell the train depot of {sq.name} first",
                          square=square, on="depot")
    return None


#: the reasons of mortgages, by (square, value)
_MORTGAGE_WHY: dict[tuple[int, int], Why] = {}


def mortgage(g: GameState, ev: Events, player: int, square: int) -> None:
    """Mortgage a property with no buildings on it; the bank pays its value."""
    refusal = mortgage_refusal(g, player, square)
    if refusal is not None:
        raise refusal
    sq = g.edition.squares[square]
    g.set_mortgaged(square, True)
    key = (square, sq.mortgage)
    why = _MORTGAGE_WHY.get(key)
    if why is None:  # the same for every mortgage of the deed: kept (a reason is read-only)
        why = _MORTGAGE_WHY[key] = Why("mortgage", square, (("value", sq.mortgage),))
    transfer(g, ev, BANK, player, sq.mortgage, "mortgage", why)
    fee = mortgage_take_interest(g, sq.mortgage)
    if fee:
        transfer(g, ev, player, BANK, fee, "mortgage_interest", interest_why(g, [square], fee))
    ev.append(Mortgaged(g.players[player].name, square))


def _lift_offered(g: GameState, player: int, square: int) -> bool:
    """Whether the player may lift this mortgage at its value alone: deeds just received."""
    top = g.top
    return (isinstance(top, LiftMortgagesPending) and top.player == player
            and square in top.squares)


def unmortgage_refusal(g: GameState, player: int, square: int) -> RulesError | None:
    """Why the player cannot lift the mortgage (None: they can). Not while an auction runs,
    nor in another player's Mr. Monopoly turn, nor while the player's debt waits."""
    pending = g.pending
    # with nothing pending and no Mr. Monopoly turn (the usual case), neither an auction,
    # another's turn nor a debt refuses; the player's own property needs no question either
    if pending or g.seldom.mr_monopoly:
        refusal = auction_refusal(g) or mr_monopoly_refusal(g, player, "lifting of mortgages") \
            or debt_refusal(g, player, "lifting of mortgages")
        if refusal is not None:
            return refusal
    sq = g.edition.squares[square]
    if g.owner[square] != player or sq.kind not in OWNABLE:
        refusal = property_refusal(g, player, square)
        if refusal is not None:
            return refusal
    if not g.mortgaged[square]:
        return RulesError(Code.NOT_MORTGAGED, f"{sq.name} is not mortgaged")
    cost = sq.mortgage if pending and _lift_offered(g, player, square) else lift_cost(g, square)
    if cost > g.players[player].cash:
        return cannot_afford(g, player, f"lifting the mortgage on {sq.name}", cost,
                             purpose="unmortgage", square=square)
    return None


def unmortgage(g: GameState, ev: Events, player: int, square: int) -> None:
    """Lift a mortgage: the value plus interest, or just the value right after a transfer."""
    refusal = unmortgage_refusal(g, player, square)
    if refusal is not None:
        raise refusal
    sq = g.edition.squares[square]
    top = g.top
    offer = _lift_offered(g, player, square)
    cost = sq.mortgage if offer else lift_cost(g, square)
    transfer(g, ev, player, BANK, cost, "mortgage_lift", lift_why(g, square, cost))
    g.set_mortgaged(square, False)
    ev.append(Unmortgaged(g.players[player].name, square))
    if offer and isinstance(top, LiftMortgagesPending):
        left = tuple(s for s in top.squares if s != square)
        if left:
            g.pending[-1] = LiftMortgagesPending(top.player, left)
        else:
            g.pending.pop()


def trade(
    g: GameState, ev: Events, a: int, b: int, give: tuple[int, int, list[int]],
    take: tuple[int, int, list[int]],
) -> None:
    """An agreed exchange: (cash, jail cards, squares) from a to b and from b to a."""
    if a == b:
        raise RulesError(Code.SAME_PLAYER, "a trade needs two different players")
    for who, (cash, cards, squares) in ((a, give), (b, take)):
        p = g.players[who]
        if p.bankrupt:
            raise RulesError(Code.BANKRUPT_PLAYER, f"{p.name} is out of the game")
        if cash > p.cash:
            raise RulesError(Code.INSUFFICIENT_FUNDS,
                             f"{p.name} has only {p.cash} to give",
                             player=p.name, purpose="pay", needed=cash, cash=p.cash)
        if cards > len(p.jail_cards):
            raise RulesError(Code.NO_JAIL_CARD, f"{p.name} holds only {len(p.jail_cards)} "
                             "Get Out of Jail Free card(s)")
        if len(set(squares)) != len(squares):
            raise RulesError(Code.BAD_COMMAND, "a square is named twice in the trade")
        for s in squares:
            _own_lot(g, who, s)
            sq = g.edition.squares[s]
            if any(g.level[x] for x in g.edition.groups[sq.group] if g.owner[x] == who):
                raise RulesError(Code.HAS_BUILDINGS,
                                 f"sell the buildings of {sq.name}'s group before trading it",
                                 square=s, on="group")
            if s in g.depots:
                raise RulesError(Code.HAS_BUILDINGS,
                                 f"sell the train depot of {sq.name} before trading it",
                                 square=s, on="depot")
    # Interest on mortgaged deeds received must be payable from the cash after the trade;
    # a mortgaged last lot of a group the receiver built on is lifted at once.
    for who, (_, _, got) in ((b, give), (a, take)):
        cash_after = g.players[who].cash - (give[0] if who == a else take[0]) + (
            take[0] if who == a else give[0])
        due = mortgaged_due(g, who, got)
        if due > cash_after:
            raise RulesError(Code.INSUFFICIENT_FUNDS,
                             f"{g.players[who].name} could not pay the {due} due on "
                             "the mortgaged deeds received")
    pa, pb = g.wp(a), g.wp(b)
    transfer(g, ev, a, b, give[0], "trade", Why("trade"))
    transfer(g, ev, b, a, take[0], "trade", Why("trade"))
    # the cards change hands oldest first, into new lists (copies share the old ones)
    a_cards, b_cards = pa.jail_cards, pb.jail_cards
    pa.jail_cards, pb.jail_cards = (a_cards[give[1]:] + b_cards[:take[1]],
                                    b_cards[take[1]:] + a_cards[:give[1]])
    for s in give[2]:
        g.set_owner(s, b)
    for s in take[2]:
        g.set_owner(s, a)
    ev.append(Traded(pa.name, pb.name, Goods(give[0], give[1], tuple(give[2])),
                     Goods(take[0], take[1], tuple(take[2]))))
    after_acquiring(g, ev, b, give[2])
    after_acquiring(g, ev, a, take[2])
    receive_mortgaged(g, ev, b, [s for s in give[2] if g.mortgaged[s]])
    receive_mortgaged(g, ev, a, [s for s in take[2] if g.mortgaged[s]])


def mortgaged_due(g: GameState, player: int, squares: list[int] | tuple[int, ...]) -> int:
    """What the player pays the bank at once for the mortgaged deeds among `squares`, all
    received together: the interest, or the whole lift where the buyer must redeem at once
    (RU) or the deed completes a group they built on (Mega)."""
    receiving = frozenset(squares)
    return sum(
        (lift_cost(g, s) if g.options.mortgaged_transfer == "redeem_at_once"
         or completes_built_group(g, player, s, receiving)
         else transfer_interest(g, g.edition.squares[s].mortgage))
        for s in squares if g.mortgaged[s]
    )


def receive_mortgaged(
    g: GameState, ev: Events, player: int, squares: list[int], how: str | None = None
) -> None:
    """A player received mortgaged deeds: interest at once, then lift now or keep."""
    if not squares:
        return
    if (how or g.options.mortgaged_transfer) == "redeem_at_once":
        for s in squares:
            cost = lift_cost(g, s)
            charge(g, ev, player, BANK, cost, "mortgage_lift", why=lift_why(g, s, cost))
            g.set_mortgaged(s, False)
            ev.append(Unmortgaged(g.players[player].name, s))
        return
    fee = sum(transfer_interest(g, g.edition.squares[s].mortgage) for s in squares)
    # kept mortgaged, each will cost the interest again when lifted later (lift_cost); one
    # lifted now, at its value (the offer below), is no longer kept (set_mortgaged)
    g.kept_mortgages = tuple(sorted({*g.kept_mortgages, *squares}))
    g.pending.append(LiftMortgagesPending(player, tuple(sorted(squares))))
    charge(g, ev, player, BANK, fee, "mortgage_interest", why=interest_why(g, squares, fee))


def pay(g: GameState, ev: Events, payer: int, payee: int, amount: int) -> None:
    """A payment between parties (a correction or a side deal); players never lend."""
    if payer == payee:
        raise RulesError(Code.SAME_PLAYER, "a payment needs two different parties")
    if payer >= 0 and g.players[payer].cash < amount:
        raise RulesError(Code.INSUFFICIENT_FUNDS, f"{g.players[payer].name} has only "
                         f"{g.players[payer].cash}",
                         player=g.players[payer].name, purpose="pay", needed=amount,
                         cash=g.players[payer].cash)
    top = g.top
    if (isinstance(top, AUCTIONS) and top.bidder == payer
            and g.players[payer].cash - amount < top.highest):
        raise RulesError(Code.INSUFFICIENT_FUNDS, f"{g.players[payer].name}'s highest bid of "
                         f"{top.highest} must stay covered until the auction ends",
                         player=g.players[payer].name, purpose="pay", needed=amount,
                         cash=g.players[payer].cash - top.highest)
    transfer(g, ev, payer, payee, amount, "payment", Why("payment"))


__all__ = ["buy", "buy_refusal", "decline", "bid", "bid_floor", "bid_refusal", "pass_auction",
           "pass_refusal", "mortgage_refusal", "unmortgage_refusal", "close_auction", "build",
           "sell_building",
           "mortgage", "unmortgage", "trade", "start_auction", "start_building_auction", "pay",
           "charge", "mortgaged_due"]
