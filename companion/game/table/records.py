"""Typed read-only records of what the faces draw: the players (cash, square, jail,
bankruptcy), the ownable squares (owner, buildings, mortgage), the turn, the bank's stock
and the game's setup (edition, currency, rule options); the decision the table waits for
is companion.game.table.decision's.

The session's view of the table (companion.game.table.view.TableView) builds them from the
public state JSON (docs/state-json.md) the first time a face asks, once per version: a
face reads `table.players`, `table.player(name)`, `table.square(index)` or `table.turn`
instead of the state's dicts, so the JSON's keys are read here and in the engine only.
Nothing is built for a version nobody draws, and what is built is one record per player
and per ownable square: the cost of a move stays flat however long the game runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.editions import load_edition
from companion.rules.edition import EditionError

#: how an edition writes money (the state's "currency": symbol, code, where the symbol
#: goes, for companion.words.catalog.format_money); None before a game
Currency = Mapping[str, Any] | None


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class Seat:
    """One player as the table draws them.

    >>> Seat.of({"name": "Ann", "cash": 1340, "position": 24, "in_jail": True})
    Seat(name='Ann', cash=1340, position=24, jailed=True, bankrupt=False, jail_cards=0, \
jail_turns=0, net_worth=0, bus_tickets=0)
    """

    name: str
    cash: int
    position: int
    jailed: bool
    bankrupt: bool
    #: Get Out of Jail Free cards held
    jail_cards: int
    #: turns spent in jail so far
    jail_turns: int
    #: cash and what the deeds and buildings are worth (the state's own figure)
    net_worth: int
    #: Mega: bus tickets held
    bus_tickets: int

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Seat:
        """The record of one entry of the state's `players`."""
        return cls(name=str(raw.get("name")), cash=_int(raw.get("cash")),
                   position=_int(raw.get("position")), jailed=bool(raw.get("in_jail")),
                   bankrupt=bool(raw.get("bankrupt")), jail_cards=_int(raw.get("jail_cards")),
                   jail_turns=_int(raw.get("jail_turns")), net_worth=_int(raw.get("net_worth")),
                   bus_tickets=_int(raw.get("bus_tickets")))


@dataclass(frozen=True, slots=True)
class Deed:
    """One ownable square (a lot, a station, a utility) as the table draws it.

    >>> Deed.of({"index": 1, "id": "old-kent", "name": "Old Kent Road", "kind": "lot",
    ...          "group": "brown", "price": 60, "owner": "Ann", "houses": 2}).houses
    2
    """

    index: int
    id: str
    name: str
    kind: str
    group: str | None
    price: int
    #: None: the bank's
    owner: str | None
    #: 0-4 (0 with a hotel)
    houses: int
    hotel: bool
    mortgaged: bool
    #: what landing there would cost now (a utility: per pip of the dice)
    rent: int
    #: Mega: a skyscraper on the lot, a depot on the station
    skyscraper: bool
    depot: bool

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Deed:
        """The record of one entry of the state's `squares`."""
        return cls(index=_int(raw.get("index")), id=str(raw.get("id") or ""),
                   name=str(raw.get("name") or ""), kind=str(raw.get("kind") or ""),
                   group=_str(raw.get("group")), price=_int(raw.get("price")),
                   owner=_str(raw.get("owner")), houses=_int(raw.get("houses")),
                   hotel=bool(raw.get("hotel")), mortgaged=bool(raw.get("mortgaged")),
                   rent=_int(raw.get("rent")), skyscraper=bool(raw.get("skyscraper")),
                   depot=bool(raw.get("depot")))


@dataclass(frozen=True, slots=True)
class Turn:
    """Where the game stands: the version, whose turn, the decision waited for (its kind
    and who answers it), the winner, the turn's number and the last dice.

    >>> Turn.of({"version": 4, "current": "Bo", "pending": {"kind": "buy", "player": "Bo"},
    ...          "turn": {"number": 3, "rolled": True}, "dice": [3, 4]}).pending
    'buy'
    """

    version: int
    current: str | None
    #: the pending decision's kind ("buy", "debt", "auction", ...), None when none
    pending: str | None
    #: who answers the pending decision (None: nobody named, as in an auction)
    pending_player: str | None
    winner: str | None
    #: the turn's number (1 before the first)
    number: int
    rolled: bool
    dice: tuple[int | str, ...]
    #: Mega: a Mr. Monopoly turn (nobody else builds, lifts a mortgage or trades)
    mr_monopoly: bool = False
    #: doubles were rolled and the player must roll again
    roll_again: bool = False

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> Turn:
        """The turn of a public state JSON."""
        pending = state.get("pending") or {}
        turn = state.get("turn") or {}
        return cls(version=_int(state.get("version")), current=_str(state.get("current")),
                   pending=_str(pending.get("kind")), pending_player=_str(pending.get("player")),
                   winner=_str(state.get("winner")), number=_int(turn.get("number"), 1),
                   rolled=bool(turn.get("rolled")), dice=tuple(state.get("dice") or ()),
                   mr_monopoly=bool(turn.get("mr_monopoly")),
                   roll_again=bool(turn.get("doubles")) and bool(turn.get("must_roll")))


#: the bank's stock key of each building in the state JSON's "bank"
_STOCK = {"house": "houses", "hotel": "hotels", "skyscraper": "skyscrapers", "depot": "depots"}


@dataclass(frozen=True, slots=True)
class Bank:
    """What the bank holds: buildings left to sell, (Mega) bus tickets in the pile and the
    Free Parking pot; the stocks an edition has not, and the pot when the house rule is
    off, are None.

    >>> bank = Bank.of({"bank": {"houses": 28, "hotels": 10}})
    >>> bank.stock("house"), bank.stock("skyscraper"), bank.bus_tickets, bank.pot
    (28, 0, None, None)
    >>> Bank.of({"options": {"free_parking_pot": True}, "pot": 150}).pot
    150
    """

    houses: int
    hotels: int
    skyscrapers: int | None
    depots: int | None
    bus_tickets: int | None
    #: the Free Parking pot (None: the house rule is off)
    pot: int | None = None

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> Bank:
        """The bank of a public state JSON (all None but houses and hotels, 0, before a
        game)."""
        raw = state.get("bank")
        bank: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}

        def held(key: str) -> int | None:
            return _int(bank[key]) if key in bank else None

        options = state.get("options")
        pot_on = isinstance(options, Mapping) and bool(options.get("free_parking_pot"))
        return cls(houses=_int(bank.get("houses")), hotels=_int(bank.get("hotels")),
                   skyscrapers=held("skyscrapers"), depots=held("depots"),
                   bus_tickets=held("bus_tickets"),
                   pot=_int(state.get("pot")) if pot_on else None)

    def stock(self, building: str) -> int:
        """How many of `building` ("house", "hotel", "skyscraper", "depot") the bank has
        left (0: none, or not in this edition)."""
        left = getattr(self, _STOCK[building]) if building in _STOCK else None
        return left if isinstance(left, int) else 0


@dataclass(frozen=True, slots=True)
class Setup:
    """What the game was set up with, as the faces show it: the edition (whose board
    names the squares and colours the groups), how its money is written (the currency, for
    companion.words.catalog.format_money) and the rule options in force.

    >>> Setup.of({"edition": "classic-eur", "currency": {"symbol": "€"}}).edition
    'classic-eur'
    >>> Setup.of({}).currency is None, Setup.of({}).options
    (True, {})
    """

    #: the edition's id ("" before a game)
    edition: str
    #: the state's "currency" (symbol, code, where the symbol goes), None before a game
    currency: Currency
    #: the rule options in force (docs/state-json.md), {} before a game
    options: Mapping[str, Any]

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> Setup:
        """The setup of a public state JSON."""
        currency, options = state.get("currency"), state.get("options")
        return cls(edition=str(state.get("edition") or ""),
                   currency=currency if isinstance(currency, Mapping) else None,
                   options=options if isinstance(options, Mapping) else {})

    @property
    def board_size(self) -> int:
        """How many squares the edition's board has (40, the classic board's, for an
        edition not shipped or before a game).

        >>> Setup("mega", None, {}).board_size, Setup("", None, {}).board_size
        (52, 40)
        """
        board = _board(self.edition)
        return len(board) or 40

    def printed_name(self, index: int) -> str | None:
        """The name the edition prints on square `index` (None: no such square)."""
        board = _board(self.edition)
        return board[index] if 0 <= index < len(board) else None


@cache
def _board(edition_id: str) -> tuple[str, ...]:
    """The printed names of an edition's squares, in board order (() when not shipped)."""
    try:
        return tuple(sq.name for sq in load_edition(edition_id).squares) if edition_id else ()
    except EditionError:
        return ()


@dataclass(frozen=True, slots=True)
class DrawnCard:
    """The card that is news now, as the session keeps it for the screen and every phone
    (companion.game.telling.news): its id in the edition, its deck, its printed text and
    who drew it.

    >>> DrawnCard.of({"card_news": {"id": "ch-go", "deck": "chance", "player": "Bo"}})
    DrawnCard(id='ch-go', deck='chance', text='', player='Bo')
    >>> DrawnCard.of({"card_news": {}}) is None
    True
    """

    id: str
    deck: str
    text: str
    #: who drew it (None: not told)
    player: str | None

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> DrawnCard | None:
        """The card that is news in a public state JSON (None: none, its effect is over)."""
        card = state.get("card_news")
        if not isinstance(card, Mapping) or not card.get("id"):
            return None
        return cls(str(card.get("id")), str(card.get("deck") or ""),
                   str(card.get("text") or ""), _str(card.get("player")))


def version_of(state: Mapping[str, Any]) -> int:
    """The version of a public state JSON (0: none), to match a state to its view.

    >>> version_of({"version": 7}), version_of({})
    (7, 0)
    """
    return _int(state.get("version"))


#: the last record of each seat (by its place at the table) with a copy of the entry it
#: was built from, as `_deeds_seen`: a move changes one or two players
_seats_seen: dict[int, tuple[dict[str, Any], Seat]] = {}


def seats(state: Mapping[str, Any]) -> tuple[Seat, ...]:
    """Every player of a public state JSON, in seat order.

    >>> first = seats({"players": [{"name": "Ann", "cash": 1500}]})
    >>> seats({"players": [{"name": "Ann", "cash": 1500}]})[0] is first[0]
    True
    >>> seats({"players": [{"name": "Ann", "cash": 1300}]})[0].cash
    1300
    """
    out = []
    for place, raw in enumerate(_list(state, "players")):
        seen = _seats_seen.get(place)
        if seen is not None and seen[0] == raw:
            out.append(seen[1])
            continue
        player = Seat.of(raw)
        _seats_seen[place] = (dict(raw), player)  # a copy: changed in place is changed
        out.append(player)
    return tuple(out)


def seated(state: Mapping[str, Any]) -> bool:
    """Whether a public state JSON seats any player (`seats(state)` not empty), without
    building their records (issue 28: asked before a press's first frame).

    >>> seated({"players": [{"name": "Ann"}]}), seated({"players": []}), seated({})
    (True, False, False)
    """
    return bool(_list(state, "players"))


def seat(state: Mapping[str, Any], name: str | None) -> Seat | None:
    """The player named `name` in a public state JSON (None: no such player); a face with
    the session's view asks `TableView.player` instead, built once for the version."""
    return next((Seat.of(p) for p in _list(state, "players") if p.get("name") == name), None)


#: the last record of each ownable square (by its index), with a copy of the entry of the
#: state JSON it was built from: a move changes a few squares, and an entry equal to the
#: copy gives the same record again (comparing the two is about 0.15 µs, building a record
#: about 4.5 µs here: 28-52 squares at every version, on the first frame's path, issue 28)
_deeds_seen: dict[int, tuple[dict[str, Any], Deed]] = {}


def deeds(state: Mapping[str, Any]) -> tuple[Deed, ...]:
    """Every ownable square of a public state JSON, in board order.

    >>> first = deeds({"squares": [{"index": 1, "name": "Old Kent Road", "owner": "Ann"}]})
    >>> again = deeds({"squares": [{"index": 1, "name": "Old Kent Road", "owner": "Ann"}]})
    >>> again[0] is first[0], deeds({"squares": [{"index": 1, "owner": "Bo"}]})[0].owner
    (True, 'Bo')
    """
    out = []
    for raw in _list(state, "squares"):
        index = raw.get("index")
        seen = _deeds_seen.get(index) if isinstance(index, int) else None
        if seen is not None and seen[0] == raw:
            out.append(seen[1])
            continue
        deed = Deed.of(raw)
        if isinstance(index, int):  # a copy: an entry changed in place is seen as changed
            _deeds_seen[index] = (dict(raw), deed)
        out.append(deed)
    return tuple(out)


def _list(state: Mapping[str, Any], key: str) -> Sequence[Mapping[str, Any]]:
    value = state.get(key)
    return value if isinstance(value, list) else ()
