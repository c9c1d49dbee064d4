"""Simple bots that play whole games through the engine, for benchmarks and property tests.

The policy (documented in docs/bench.md): buy when affordable; in auctions bid up to the
printed price in steps of 1/150 of the start cash (10 of 1 500); build evenly on complete
groups while keeping a reserve of 1/10 of the start cash; use a jail card, or pay the fine
when rich, else roll; raise money for a debt by selling buildings, then mortgaging, and go
bankrupt only when nothing is left; trade only to complete a colour group (the buyer offers
twice the price, and only when its cash covers that, what a mortgaged lot costs it at once
and the reserve; a seller agrees unless it breaks its own group). Bots read the state and
answer with commands, like any other input. Mega edition: build with all lots of a group
but one when the rules allow it, skyscrapers on whole groups, a train depot on a station
when rich; a bus ticket rides to the first affordable unowned property on the side, else
the bot rolls; a triple goes to the next square, the Auction square auctions the first
unowned property, a birthday gift is taken as money.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Final

from companion.rules import Accepted, Command, Edition, GameState, Verb, apply
from companion.rules.commands import (
    Bankrupt,
    Bid,
    Build,
    Buy,
    ChooseGift,
    ChooseSquare,
    CloseAuction,
    Decline,
    Draw,
    EndTurn,
    Mortgage,
    Offer,
    Pass,
    PayFine,
    Roll,
    SellBuilding,
    Trade,
    UseBusTicket,
    UseCard,
)
from companion.rules.edition import KIND_LOT, KIND_STATION
from companion.rules.estate import mortgaged_due
from companion.rules.state import (
    AuctionPending,
    BirthdayGiftPending,
    BuildingAuctionPending,
    BuyPending,
    ChooseSquarePending,
    DebtPending,
    DrawPending,
    LiftMortgagesPending,
    Pending,
    PlaceBuildingPending,
    RollForRentPending,
)
from companion.rules.tickets import bus_targets, usable_tickets

#: the verbs the bots send, as module constants: a member read through its enum class
#: (`Verb.BUY`) calls EnumType's attribute hook, about 0.13 µs in plain Python
_BANKRUPT: Final = Verb.BANKRUPT
_BID: Final = Verb.BID
_BUILD: Final = Verb.BUILD
_BUY: Final = Verb.BUY
_CHOOSE_GIFT: Final = Verb.CHOOSE_GIFT
_CHOOSE_SQUARE: Final = Verb.CHOOSE_SQUARE
_CLOSE_AUCTION: Final = Verb.CLOSE_AUCTION
_DECLINE: Final = Verb.DECLINE
_DRAW: Final = Verb.DRAW
_END_TURN: Final = Verb.END_TURN
_MORTGAGE: Final = Verb.MORTGAGE
_PASS: Final = Verb.PASS
_PAY_FINE: Final = Verb.PAY_FINE
_ROLL: Final = Verb.ROLL
_SELL_BUILDING: Final = Verb.SELL_BUILDING
_USE_BUS_TICKET: Final = Verb.USE_BUS_TICKET
_USE_CARD: Final = Verb.USE_CARD

#: a game still running after this many player turns is ended and counted as capped
TURN_CAP = 1000

#: the cash a bot keeps back, as a share of the edition's start cash (150 of 1 500)
RESERVE_SHARE = 10


class Bots:
    """All bots of one game. They remember the turn they last proposed a trade in, and keep
    the commands they send (building a Command is not free, and the same few recur)."""

    def __init__(self) -> None:
        self.trade_turn = -1
        self._owner_seen: tuple[int, ...] = ()
        #: per player (by index: a list subscript is cheaper than a dict look-up), whether
        #: _buildable, _sellers and _idle hold for the owners last looked at (_owner_seen)
        self._fresh: list[bool] = []
        self._all_but_one = False
        #: each colour group's owners in the state last looked at (_owner_seen)
        self._group_owners: list[tuple[int, ...]] = []
        self._buildable: list[list[tuple[int, ...]]] = []
        self._sellers: list[list[tuple[int, int]]] = []
        #: each player's properties in board order (cached with _fresh)
        self._owned: list[list[int] | None] = []
        self._plan_seen: tuple[object, ...] = ()
        self._plans: list[list[tuple[int, int, int]] | None] = []
        #: players with no group to build on and no lot to buy for one, while no deed
        #: moves (editions without depots): their end-of-turn look is the end of the turn
        self._idle: list[bool] = []
        self._commands: dict[tuple[object, ...], Command] = {}
        #: each player's roll, end of turn, buy, decline and draw, by name: the commands
        #: sent most often (_answers)
        self._turn_commands: dict[str, tuple[Command, Command, Command, Command, Command]] = {}
        self._edition: Edition | None = None
        self._lot_groups: list[tuple[int, ...]] = []
        #: per colour group, what gives its lots' owners from a state's owner tuple
        self._owners_of: list[Callable[[tuple[int, ...]], tuple[int, ...]]] = []
        self._ownable: tuple[int, ...] = ()
        self._stations: tuple[int, ...] = ()
        self.reserve = 150
        self.step = 10

    def _cmd(self, verb: Verb, by: str | None = None, square: int | None = None,
             amount: int | None = None, count: int = 1, gift: str = "") -> Command:
        key = (verb, by, square, amount, count, gift)
        cmd = self._commands.get(key)
        if cmd is None:
            cmd = _record(verb, by, square, amount, count, gift)
            self._commands[key] = cmd
        return cmd

    def _learn(self, edition: Edition) -> None:
        self._edition = edition
        self._group_owners = []  # nothing kept from another edition's board
        self._lot_groups = [
            members for members in edition.groups.values()
            if edition.squares[members[0]].kind is KIND_LOT
        ]
        self._owners_of = [itemgetter(*group) if len(group) > 1 else _one_owner(group[0])
                           for group in self._lot_groups]
        self._ownable = tuple(s for members in edition.groups.values() for s in members)
        self._stations = tuple(s.index for s in edition.squares if s.kind is KIND_STATION)
        self.reserve = edition.defaults.start_cash // RESERVE_SHARE
        self.step = max(1, self.reserve // 15)

    def choose(self, g: GameState) -> Command:
        """The command the bots send next in this state."""
        if g.edition is not self._edition:
            self._learn(g.edition)
        pending = g.pending
        if pending:
            top = pending[-1]
            if isinstance(top, AuctionPending):  # the question asked most: without a call
                price = g.edition.squares[top.square].price
                for i, p in enumerate(g.players):
                    if p.bankrupt or i in top.passed or i == top.bidder:
                        continue
                    amount = top.highest + self.step
                    if amount <= price and amount <= p.cash - self.reserve // 3:
                        # made, not kept: most amounts are bid once a game
                        return Bid(p.name, amount)
                    return self._cmd(_PASS, p.name)
                return self._cmd(_CLOSE_AUCTION)
            return self._decide(g, top)
        cur = g.current
        p = g.players[cur]
        try:  # a subscript, not a method call (a player's commands are made once)
            turn = self._turn_commands[p.name]
        except KeyError:
            turn = self._answers(p.name)
        if p.in_jail and not g.rolled:
            if p.jail_cards:
                return self._cmd(_USE_CARD, p.name)
            if (p.cash > g.options.jail_fine + 3 * self.reserve
                    and p.jail_turns < g.options.jail_fine_before_rolls):
                return self._cmd(_PAY_FINE, p.name)
        if g.must_roll:
            if p.bus_tickets and not p.in_jail:
                ride = self._ride(g, cur)
                if ride is not None:
                    return ride
            return turn[0]
        if p.cash > self.reserve * 2:
            if g.owner is not self._owner_seen or not self._fresh[cur]:
                self._holdings(g, cur)
            if self._idle[cur]:
                return turn[1]
            # each look only where it can find something (the holdings are fresh here)
            if self._buildable[cur] or g.edition.depots:
                build = self._build(g, cur)
                if build is not None:
                    return build
            if self._sellers[cur]:
                trade = self._completing_trade(g, cur)
                if trade is not None:
                    return trade
        return turn[1]

    def _answers(self, name: str) -> tuple[Command, Command, Command, Command, Command]:
        """The player's roll, end of turn, buy, decline and draw (made once, kept)."""
        answers = (self._cmd(_ROLL, name), self._cmd(_END_TURN, name), self._cmd(_BUY, name),
                   self._cmd(_DECLINE, name), self._cmd(_DRAW, name))
        self._turn_commands[name] = answers
        return answers

    def _decide(self, g: GameState, top: Pending) -> Command:
        """Answer the pending decision (an auction's is answered in `choose`)."""
        who = top.player
        players = g.players
        if isinstance(top, BuyPending):
            p = players[who]
            answers = self._turn_commands.get(p.name) or self._answers(p.name)
            return answers[2] if p.cash >= g.edition.squares[top.square].price else answers[3]
        name = players[who].name
        if isinstance(top, DrawPending):
            return (self._turn_commands.get(name) or self._answers(name))[4]
        if isinstance(top, DebtPending):  # before the rarer kinds: a debt is settled often
            return self._raise(g, who) or self._cmd(_BANKRUPT, name)
        if isinstance(top, BuildingAuctionPending):
            return self._cmd(_CLOSE_AUCTION)
        if isinstance(top, RollForRentPending):
            return self._cmd(_ROLL, name)
        if isinstance(top, LiftMortgagesPending):
            return self._cmd(_DECLINE, name)
        if isinstance(top, PlaceBuildingPending):
            return self._build(g, who) or self._cmd(_CLOSE_AUCTION)
        if isinstance(top, ChooseSquarePending):
            return self._cmd(_CHOOSE_SQUARE, name, square=self._choose_square(g, top))
        if isinstance(top, BirthdayGiftPending):
            return self._cmd(_CHOOSE_GIFT, name, gift="money")
        return self._raise(g, who) or self._cmd(_BANKRUPT, name)

    def _choose_square(self, g: GameState, top: ChooseSquarePending) -> int:
        """A triple: the next square; the Auction square: the first property nobody owns."""
        if top.reason == "triple":
            return (g.players[top.player].position + 1) % len(g.edition.squares)
        return next(s for s in self._ownable if g.owner[s] < 0)

    def _ride(self, g: GameState, player: int) -> Command | None:
        """A bus ticket to the first unowned property on this side the bot can afford."""
        if usable_tickets(g, player) < 1:
            return None
        p = g.players[player]
        squares = g.edition.squares
        for s in bus_targets(g, p.position):
            if g.owner[s] < 0 and s in self._ownable and squares[s].price <= p.cash - self.reserve:
                return self._cmd(_USE_BUS_TICKET, p.name, square=s)
        return None

    def _holdings(self, g: GameState, player: int) -> None:
        """The groups the player may build on and the lots they could buy to complete one
        (`_buildable`, `_sellers`, `_idle`), kept while no deed moves (a state's owner tuple
        is only replaced when one does). When deeds move, a player's are looked at again
        only when a group whose owners changed gives them something else than before: most
        moves (a station, a first lot of a group) change nobody's."""
        owner = g.owner
        if owner is not self._owner_seen:
            self._owner_seen = owner
            old = self._group_owners
            # each colour group's owners, lot by lot: one C-level item getter a group
            groups = self._group_owners = [get(owner) for get in self._owners_of]
            n = len(g.players)
            self._owned = [None] * n
            all_but_one = g.options.build_with_all_but_one
            if len(self._fresh) != n or len(old) != len(groups) \
                    or all_but_one is not self._all_but_one:
                self._all_but_one = all_but_one
                self._fresh = [False] * n
                self._buildable = [[]] * n  # each replaced (never changed) when looked at
                self._sellers = [[]] * n
                self._idle = [False] * n
            else:
                fresh = self._fresh
                for index, now in enumerate(groups):
                    before = old[index]
                    if now == before:
                        continue
                    size = len(now)
                    slack = 2 if all_but_one and size > 2 else 1
                    # a group's entries are a player's only where they own a lot of it
                    # (or, for a one-lot group, anyone's: its owner may sell it), and only
                    # where they are at most `slack` lots short (_entries)
                    for who in {*before, *now} if size > 1 else range(n):
                        if who < 0 or not fresh[who] or (size - before.count(who) > slack
                                                         and size - now.count(who) > slack):
                            continue
                        if self._entries(index, before, who) != self._entries(index, now, who):
                            fresh[who] = False
        if self._fresh[player]:
            return
        buildable: list[tuple[int, ...]] = []
        sellers: list[tuple[int, int]] = []
        lot_groups = self._lot_groups
        all_but_one = self._all_but_one
        for index, owners in enumerate(self._group_owners):
            # more than one lot short (two where all lots but one count): nothing to build
            # or buy there (the usual case, without _entries' call)
            size = len(owners)
            if size - owners.count(player) <= (2 if all_but_one and size > 2 else 1):
                can_build, offers = self._entries(index, owners, player)
                if can_build:
                    buildable.append(lot_groups[index])
                if offers:
                    sellers.extend(offers)
        self._fresh[player] = True
        self._buildable[player] = buildable
        self._sellers[player] = sellers
        self._idle[player] = not buildable and not sellers and not g.edition.depots

    def _entries(self, index: int, owners: tuple[int, ...],
                 player: int) -> tuple[bool, tuple[tuple[int, int], ...]]:
        """What colour group `index` with these owners gives the player: whether they may
        build on it, and the lots they could buy to make it (nearly) whole, with their
        owner: in a group one lot (or, where building needs all lots but one, two lots)
        short, from an owner who holds just that lot of the group."""
        group = self._lot_groups[index]
        size = len(group)
        have = owners.count(player)
        if not have and size > 1:
            return False, ()
        big = self._all_but_one and size > 2
        short = size - have
        if short == 1 or (big and short == 2):
            return have >= (size - 1 if big else size), tuple(
                (target, who) for target, who in zip(group, owners, strict=True)
                if who != player and who >= 0 and owners.count(who) == 1)
        return have >= (size - 1 if big else size), ()

    def _build_plan(self, g: GameState, player: int) -> list[tuple[int, int, int]]:
        """Where the player's next even build would go, group by group in the order they are
        tried: (lot, its house price, the stock it takes: 0 a house, 1 a hotel, 2 a
        skyscraper). Cached while no deed, building or mortgage moves (their tuples are
        replaced when one does) and the bank keeps skyscrapers or not: only the cash and the
        bank's stock are left to look at."""
        owner, level, mortgaged = g.owner, g.level, g.mortgaged
        towers = g.seldom.bank_skyscrapers > 0
        seen = self._plan_seen
        if not seen or seen[0] is not owner or seen[1] is not level \
                or seen[2] is not mortgaged or seen[3] is not towers:
            self._plan_seen = (owner, level, mortgaged, towers)
            self._plans = [None] * len(g.players)
        plan = self._plans[player]
        if plan is not None:
            return plan
        plan = []
        hotel = g.options.houses_before_hotel + 1  # g.hotel_level, without its call
        squares = g.edition.squares
        all_but_one = g.options.build_with_all_but_one
        for group in self._buildable[player]:  # _build looked at the holdings first
            mine = group
            if all_but_one and len(group) > 2:
                mine = tuple(s for s in group if owner[s] == player)
                if len(mine) < len(group) - 1:
                    continue
            # every lot of `mine` is the player's (the holdings are fresh: _build): it stays
            # -1 when one is mortgaged, nothing to build
            low = -1
            for s in mine:
                if mortgaged[s]:
                    low = -1
                    break
                if low < 0 or level[s] < low:
                    low = level[s]
            if low < 0:
                continue
            top = hotel + 1 if towers and len(mine) == len(group) else hotel
            if low >= top:
                continue
            for s in mine:  # the first lot at the lowest level: the even build's next one
                if level[s] == low:
                    stock = 2 if low == hotel else 1 if low + 1 == hotel else 0
                    plan.append((s, squares[s].house_cost, stock))
                    break
        self._plans[player] = plan
        return plan

    def _build(self, g: GameState, player: int) -> Command | None:
        """The next even build on a complete (or all-but-one), unmortgaged group, keeping a
        reserve; then a skyscraper on a whole group, or a depot when rich."""
        cash = g.players[player].cash
        reserve = self.reserve
        if g.owner is not self._owner_seen or not self._fresh[player]:
            self._holdings(g, player)
        if self._buildable[player]:  # else no plan: nothing to build on
            for s, cost, kind in self._build_plan(g, player):
                if cash - cost < reserve:
                    continue
                stock = g.bank_houses if kind == 0 else g.bank_hotels if kind == 1 \
                    else g.bank_skyscrapers
                if stock < 1:
                    continue
                return self._cmd(_BUILD, g.players[player].name, square=s)
        owner, mortgaged = g.owner, g.mortgaged
        if g.edition.depots and cash - g.edition.depot_cost > 3 * self.reserve:
            for s in self._stations:
                if owner[s] == player and not mortgaged[s] and s not in g.depots:
                    return self._cmd(_BUILD, g.players[player].name, square=s)
        return None

    def _raise(self, g: GameState, player: int) -> Command | None:
        """The next sale of a building, or mortgage, to raise money for a debt."""
        name = g.players[player].name
        owner, level = g.owner, g.level
        if owner is not self._owner_seen:
            self._holdings(g, player)
        owned = self._owned[player]
        if owned is None:  # cached while no deed moves, as the holdings are
            owned = self._owned[player] = [s for s in self._ownable if owner[s] == player]
        s, lvl = -1, 0  # the first of the most built of them, in one pass
        for x in owned:
            if level[x] > lvl:
                s, lvl = x, level[x]
        if lvl:
            count = 1
            hotel = g.hotel_level
            if lvl == hotel and g.options.sell_group_hotels_together:
                # the group's hotels go back together: down to the houses the bank can give
                group = g.edition.groups[g.edition.squares[s].group]
                hotels = sum(1 for x in group if owner[x] == player and level[x] == hotel)
                keep = min(hotel - 1, g.bank_houses // hotels)
                return self._cmd(_SELL_BUILDING, name, square=s, count=lvl - keep)
            if (lvl == hotel and g.bank_houses < g.options.houses_before_hotel) or (
                    lvl > hotel and g.bank_hotels < 1):
                # the bank cannot break the hotel (skyscraper) down: sell down to the houses
                # it can give
                count = lvl - min(hotel - 1, g.bank_houses)
            return self._cmd(_SELL_BUILDING, name, square=s, count=count)
        for s in g.depots:
            if owner[s] == player:
                return self._cmd(_SELL_BUILDING, name, square=s)
        for s in owned:
            if not g.mortgaged[s]:
                return self._cmd(_MORTGAGE, name, square=s)
        return None

    def _completing_trade(self, g: GameState, player: int) -> Command | None:
        """Offer to buy the one lot missing from a colour group (or, when building needs all
        lots but one, one of the two missing), at twice its price."""
        if self.trade_turn == g.turn_number or g.seldom.mr_monopoly:
            return None
        level = g.level
        cash = g.players[player].cash
        if g.owner is not self._owner_seen or not self._fresh[player]:
            self._holdings(g, player)
        for target, seller in self._sellers[player]:
            if g.players[seller].bankrupt or level[target]:  # the seller's one lot is built
                continue
            price = 2 * g.edition.squares[target].price
            # a mortgaged lot costs the buyer its interest, or its whole lift where the buyer
            # must redeem at once (the Russian rule), on top of the price
            due = mortgaged_due(g, player, (target,)) if g.mortgaged[target] else 0
            if price + due > cash - self.reserve:
                continue
            self.trade_turn = g.turn_number
            return Trade(g.players[player].name, g.players[seller].name, Offer(cash=price),
                         Offer(squares=(target,)))
        return None


def _one_owner(square: int) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """The owners of a one-lot group as a tuple (`itemgetter` of one item gives the item)."""
    return lambda owner: (owner[square],)


#: the command record of each verb the bots send, from (by, square, amount, count, gift):
#: one look-up instead of a chain of comparisons with enum members
_RECORDS: dict[Verb, Callable[[str | None, int, int, int, str], Command]] = {
    Verb.ROLL: lambda by, spot, amount, count, gift: Roll(by),
    Verb.END_TURN: lambda by, spot, amount, count, gift: EndTurn(by),
    Verb.BUY: lambda by, spot, amount, count, gift: Buy(by),
    Verb.DECLINE: lambda by, spot, amount, count, gift: Decline(by),
    Verb.BID: lambda by, spot, amount, count, gift: Bid(by or "", amount),
    Verb.PASS: lambda by, spot, amount, count, gift: Pass(by or ""),
    Verb.CLOSE_AUCTION: lambda by, spot, amount, count, gift: CloseAuction(),
    Verb.DRAW: lambda by, spot, amount, count, gift: Draw(by),
    Verb.PAY_FINE: lambda by, spot, amount, count, gift: PayFine(by),
    Verb.USE_CARD: lambda by, spot, amount, count, gift: UseCard(by),
    Verb.BANKRUPT: lambda by, spot, amount, count, gift: Bankrupt(by),
    Verb.BUILD: lambda by, spot, amount, count, gift: Build(spot, by, count),
    Verb.SELL_BUILDING: lambda by, spot, amount, count, gift: SellBuilding(spot, by, count),
    Verb.MORTGAGE: lambda by, spot, amount, count, gift: Mortgage(spot, by),
    Verb.USE_BUS_TICKET: lambda by, spot, amount, count, gift: UseBusTicket(spot, by),
    Verb.CHOOSE_SQUARE: lambda by, spot, amount, count, gift: ChooseSquare(spot, by),
    Verb.CHOOSE_GIFT: lambda by, spot, amount, count, gift: ChooseGift(gift, by),
}


def _record(verb: Verb, by: str | None, square: int | None, amount: int | None, count: int,
            gift: str) -> Command:
    """The command record a bot sends: `verb` with the fields it uses."""
    make = _RECORDS.get(verb)
    if make is None:
        raise ValueError(f"the bots do not send {verb.value}")
    return make(by, square or 0, amount or 0, count, gift)


def play_bot_game(seed: int, players: int = 4, edition: str = "classic-eur",
                  turn_cap: int = TURN_CAP) -> tuple[GameState, int, int, bool]:
    """One whole bot game: final state, player turns, commands applied, capped or not."""
    from companion.game.applying import apply_command  # loads the edition's data (I/O)

    names = [f"P{i + 1}" for i in range(players)]
    result = apply_command(None, {"do": "new_game", "edition": edition, "players": names,
                                  "seed": seed})
    assert isinstance(result, Accepted)
    g = result.state
    bots = Bots()
    # each Turn event counts the game's turn on by one: count them by the counter; and each
    # accepted command the version by one: count the commands by it (the loop is a step of
    # every command the benchmark times: it does no more than it must)
    first = g.turn_number
    last = first + turn_cap
    version = g.version
    while g.winner < 0:
        if g.turn_number >= last:
            return g, g.turn_number - first, g.version - version, True
        command = bots.choose(g)
        r = apply(g, command)
        try:
            g = r.state  # type: ignore[union-attr]  # a Rejection has none: below
        except AttributeError:
            raise RuntimeError(f"bot command refused: {command.to_json()} -> {r}") from None
    return g, g.turn_number - first + 1, g.version - version, False
