"""Simple bots that play whole games through the engine, for benchmarks and property tests.

The policy (documented in docs/bench.md): buy when affordable; in auctions bid up to the
printed price in steps of 10; build evenly on complete groups while keeping a reserve; pay
the jail fine when rich, else roll; raise money to pay a debt by selling buildings, then
mortgaging, and go bankrupt only when nothing is left; trade only to complete a colour
group (the buyer offers twice the price, a seller agrees unless it breaks its own group).
Bots read the state and answer with commands, like any other input.
"""

from __future__ import annotations

from companion.rules import Command, GameState, PendingKind, Verb
from companion.rules.commands import Offer
from companion.rules.edition import OWNABLE, SquareKind

RESERVE = 150


def _cmd(verb: Verb, by: str | None = None, **kw: object) -> Command:
    return Command(do=verb, by=by, **kw)  # type: ignore[arg-type]


class Bots:
    """All bots of one game; they remember only which turn they last proposed a trade in."""

    def __init__(self) -> None:
        self.trade_turn = -1

    def choose(self, g: GameState) -> Command:
        """The command the bots send next in this state."""
        return choose(g, self)


def choose(g: GameState, bots: Bots) -> Command:
    """The command the bots send next in this state."""
    top = g.top
    players = g.players
    if top is not None:
        k = top.kind
        if k is PendingKind.BUY:
            p = players[top.player]
            verb = Verb.BUY if p.cash >= top.amount else Verb.DECLINE
            return _cmd(verb, p.name)
        if k is PendingKind.AUCTION:
            price = g.edition.squares[top.square].price
            for i, p in enumerate(players):
                if p.bankrupt or i in top.passed or i == top.bidder:
                    continue
                amount = top.highest + 10
                if amount <= price and amount <= p.cash - RESERVE // 3:
                    return _cmd(Verb.BID, p.name, amount=amount)
                return _cmd(Verb.PASS, p.name)
            return _cmd(Verb.CLOSE_AUCTION)
        if k is PendingKind.BUILDING_AUCTION:
            return _cmd(Verb.CLOSE_AUCTION)
        if k is PendingKind.DRAW:
            return _cmd(Verb.DRAW, players[top.player].name)
        if k is PendingKind.ROLL_FOR_RENT:
            return _cmd(Verb.ROLL, players[top.player].name)
        if k is PendingKind.LIFT_MORTGAGES:
            return _cmd(Verb.DECLINE, players[top.player].name)
        if k is PendingKind.PLACE_BUILDING:
            return _raise_or_build(g, top.player, build=True) or _cmd(Verb.CLOSE_AUCTION)
        if k is PendingKind.DEBT:
            return _raise_or_build(g, top.player, build=False) or _cmd(
                Verb.BANKRUPT, players[top.player].name)
    cur = g.current
    p = players[cur]
    if p.in_jail and not g.rolled:
        if p.jail_cards:
            return _cmd(Verb.USE_CARD, p.name)
        if p.cash > 600:
            return _cmd(Verb.PAY_FINE, p.name)
    if g.must_roll:
        return _cmd(Verb.ROLL, p.name)
    if p.cash > RESERVE * 2:
        build = _raise_or_build(g, cur, build=True)
        if build is not None:
            return build
        trade = _completing_trade(g, cur, bots)
        if trade is not None:
            return trade
    return _cmd(Verb.END_TURN, p.name)


def _raise_or_build(g: GameState, player: int, build: bool) -> Command | None:
    """The next even build (when building), or the next sale / mortgage to raise money."""
    name = g.players[player].name
    squares = g.edition.squares
    owned = [s for s in squares if s.kind in OWNABLE and g.owner[s.index] == player]
    if build:
        cash = g.players[player].cash
        for sq in owned:
            if sq.kind is not SquareKind.LOT or g.level[sq.index] >= g.hotel_level:
                continue
            group = g.edition.groups[sq.group]
            if any(g.owner[s] != player or g.mortgaged[s] for s in group):
                continue
            if g.level[sq.index] > min(g.level[s] for s in group):
                continue
            if cash - sq.house_cost < RESERVE:
                continue
            if g.level[sq.index] + 1 == g.hotel_level:
                if g.bank_hotels < 1:
                    continue
            elif g.bank_houses < 1:
                continue
            return _cmd(Verb.BUILD, name, square=sq.index)
        return None
    built = [s for s in owned if g.level[s.index]]
    if built:
        sq = max(built, key=lambda s: g.level[s.index])
        level = g.level[sq.index]
        count = 1
        if level >= g.hotel_level and g.bank_houses < g.options.houses_before_hotel:
            count = level - g.bank_houses  # the bank cannot break the hotel into houses
        return _cmd(Verb.SELL_BUILDING, name, square=sq.index, count=count)
    for sq in owned:
        if not g.mortgaged[sq.index]:
            return _cmd(Verb.MORTGAGE, name, square=sq.index)
    return None


def _completing_trade(g: GameState, player: int, bots: Bots) -> Command | None:
    """Offer to buy the one lot missing from a colour group, at twice its price."""
    if bots.trade_turn == g.turn_number:
        return None
    cash = g.players[player].cash
    for members in g.edition.groups.values():
        sq0 = g.edition.squares[members[0]]
        if sq0.kind is not SquareKind.LOT:
            continue
        missing = [s for s in members if g.owner[s] != player]
        if len(missing) != 1:
            continue
        target = missing[0]
        seller = g.owner[target]
        if seller < 0 or g.players[seller].bankrupt:
            continue
        price = 2 * g.edition.squares[target].price
        if price > cash - RESERVE:
            continue
        seller_group = g.edition.groups[g.edition.squares[target].group]
        if sum(1 for s in seller_group if g.owner[s] == seller) > 1:
            continue
        if any(g.level[s] for s in seller_group):
            continue
        bots.trade_turn = g.turn_number
        return Command(do=Verb.TRADE, payer=g.players[player].name,
                       payee=g.players[seller].name, give=Offer(cash=price),
                       take=Offer(squares=(target,)))
    return None
