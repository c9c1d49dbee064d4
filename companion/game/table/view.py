"""The typed view of the table that every face renders: built once per version (and per
change of the open offers) by the session, read by the screen, the phones and a headless
table alike.

It says whose turn it is, what each person is being asked now (a decision of the game, a
bid in an auction, an offer waiting for them), the open offers, the clocks, and what each
of the panel's game buttons would send now (companion.game.table.buttons). A face that
renders it needs no rule of its own: who acts, what a press means and when an offer lapses
are decided here and below.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar, overload

from companion.game.table.buttons import buttons_of, command_for, decider
from companion.game.table.decision import AUCTIONS, Clock, Decision, auction_asked, decision_of
from companion.game.table.offers import Offer, put_to
from companion.game.table.records import (
    Bank,
    Deed,
    DrawnCard,
    Seat,
    Setup,
    Turn,
    deeds,
    seats,
    version_of,
)

JSON = dict[str, Any]
_T = TypeVar("_T")


class built_once(Generic[_T]):  # noqa: N801  # a decorator's name
    """functools.cached_property without the lock Python 3.11's takes on each first read
    (an RLock for the whole class: the view's fields are read a dozen times on the
    screen's first frame's path, issue 28; Python 3.12 dropped that lock). Two threads
    reading a field first at once may both build it: the first one stored is the one
    every reader gets (the fields are built from the one state alone)."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> built_once[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> Any:
        if obj is None:
            return self
        kept: dict[str, Any] = obj.__dict__
        return kept.setdefault(self.name, self.func(obj))


#: the public state's list of what the engine offers now (docs/state-json.md): read here
#: only; a face asks the view (`TableView.moves_of`, `move`, `choices`) what it means
MOVES_KEY = "legal"
#: fields of an offer that list choices rather than being part of the command sent
CHOICE_FIELDS = ("squares", "min", "max", "via_go", "players", "buildings", "choices",
                 "amounts", "cards")


def waiting_on(state: Mapping[str, Any]) -> str | None:
    """The named player other than the current one whose decision is on the table now
    (a debt to raise money for, mortgages to lift or keep, a building to place), which only
    their own phone or bank card answers; None when it is the current player's, nobody's
    or an auction's (each bidder answers for themselves).

    >>> waiting_on({"current": "Cy", "pending": {"kind": "debt", "player": "Bo"}})
    'Bo'
    >>> waiting_on({"current": "Bo", "pending": {"kind": "debt", "player": "Bo"}}) is None
    True
    """
    pending = state.get("pending") or {}
    who = pending.get("player")
    if not isinstance(who, str) or who == state.get("current") or \
            pending.get("kind") in AUCTIONS:
        return None
    return who


class Move:
    """One thing someone may do now, as the engine offers it: the verb, who sends it (None:
    the banker's call, or anyone's at the table), what it leaves to choose (the squares it
    may name, a bid's lowest and highest amount), and the offer as the public state writes
    it (`to_json`, docs/state-json.md). Read-only. Built for every offer of a version, so
    it holds the offer as it is and reads its choices only when asked (a frozen dataclass
    made the view cost more than the screen's frame on a Pi)."""

    __slots__ = ("do", "by", "correction", "_entry")

    def __init__(self, entry: Mapping[str, Any]) -> None:
        by = entry.get("by")
        self.do: str = str(entry.get("do"))
        self.by: str | None = by if isinstance(by, str) else None
        #: the banker's move correction (never the table's own buttons')
        self.correction: bool = bool(entry.get("correction"))
        self._entry = entry

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> Move:
        """The move of one entry of the state's offers."""
        return cls(entry)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self._entry == other._entry

    __hash__ = None  # type: ignore[assignment]  # equal by value, like the offer's JSON

    def __repr__(self) -> str:
        return f"Move({dict(self._entry)!r})"

    @property
    def squares(self) -> tuple[int, ...]:
        """The squares it may name (board indexes), () when it names none."""
        return tuple(int(s) for s in self._entry.get("squares") or ())

    @property
    def low(self) -> int | None:
        """A bid's lowest amount (None: not an amount)."""
        low = self._entry.get("min")
        return low if isinstance(low, int) else None

    @property
    def high(self) -> int | None:
        """A bid's highest amount (None: not an amount)."""
        high = self._entry.get("max")
        return high if isinstance(high, int) else None

    @property
    def players(self) -> tuple[str, ...]:
        """The players a move open to several names (a trade between any two of them, the
        banker's correction of one of their moves)."""
        return tuple(str(p) for p in self._entry.get("players") or ())

    @property
    def buildings(self) -> tuple[str, ...]:
        """The buildings the banker's shortage call may auction now."""
        return tuple(str(b) for b in self._entry.get("buildings") or ())

    @property
    def gift(self) -> str | None:
        """The Birthday gift this move chooses ("money", "bus_ticket"), else None."""
        gift = self._entry.get("gift")
        return gift if isinstance(gift, str) else None

    def open_to(self, player: str | None) -> bool:
        """Whether `player` may send it: it names them, or it is a trade among them."""
        return player is not None and (self.by == player or (
            self.by is None and self.do == "trade" and player in self.players))

    def command(self, **fields: Any) -> JSON:
        """The command to send: the offer with its choice lists dropped, `fields` set (the
        square chosen, the amount)."""
        out = {k: v for k, v in self._entry.items() if k not in CHOICE_FIELDS}
        out.update(fields)
        return out

    def to_json(self) -> JSON:
        """The offer as the public state writes it (a page's form reads its choices)."""
        return dict(self._entry)


def moves_of_state(state: Mapping[str, Any]) -> tuple[Move, ...]:
    """Every move the engine offers in a public state JSON."""
    return tuple(map(Move, state.get(MOVES_KEY) or ()))


def moves_for(state: Mapping[str, Any], player: str | None) -> tuple[Move, ...]:
    """What `player` may send in a public state JSON (`TableView.moves_of` without the
    view), for comparing two versions."""
    return tuple(m for m in moves_of_state(state) if m.open_to(player))


def whose_moves_changed(before: Mapping[str, Any], after: Mapping[str, Any],
                        players: Sequence[str]) -> set[str]:
    """The players whose own moves differ between two public states (a phone's Me page
    shows them).

    >>> whose_moves_changed({"legal": [{"do": "roll", "by": "Ann"}]},
    ...                     {"legal": [{"do": "buy", "by": "Ann"}]}, ["Ann", "Bo"])
    {'Ann'}
    """
    old, new = moves_of_state(before), moves_of_state(after)
    return {p for p in players
            if [m for m in old if m.open_to(p)] != [m for m in new if m.open_to(p)]}


def names_the_moves(path: Sequence[Any]) -> bool:
    """Whether a step of a change of the state JSON (its path) changes the moves."""
    return bool(path) and path[0] == MOVES_KEY


@dataclass(frozen=True)
class Asked:
    """One thing one person is being asked now: `what` is the pending decision's kind
    ("buy", "debt", "auction", ...) or "offer" (a trade offered to them: `offer` is its
    id)."""

    player: str
    what: str
    offer: str | None = None


@dataclass(frozen=True)
class TableView:
    """The table as every face renders it; see the module doc."""

    version: int
    current: str | None
    winner: str | None
    #: what each person is asked now, the game's decisions first, then the offers
    asked: tuple[Asked, ...]
    #: the open offers, oldest first ({"id", "from", "to", "give", "take", ...})
    offers: tuple[Mapping[str, Any], ...]
    #: the auction's clock (while someone holds the highest bid) and the timed game's
    auction_clock: Clock | None
    game_clock: Clock | None
    #: what ROLL, YES, NO and PASS GO send now for whoever decides (None: nothing)
    buttons: Mapping[str, JSON | None]
    #: whom the shared buttons answer for now (the decision's owner, else the current
    #: player; in an auction the current player while they may still bid or pass)
    decider: str | None
    #: the named player other than the current one whose decision is on the table (their
    #: own phone or bank card answers it), else None
    waiting_on: str | None
    #: everything the engine offers now, to whom (the engine's own order)
    moves: tuple[Move, ...]
    #: the public state the view was built from, for `press` with the dial's steps
    _state: Mapping[str, Any]

    @property
    def state(self) -> Mapping[str, Any]:
        """The public state JSON the view was built from (docs/state-json.md)."""
        return self._state

    # -- what the faces draw (companion.game.table.records): built on the first read, once
    # -- per version, since the session keeps one view per version

    @built_once
    def players(self) -> tuple[Seat, ...]:
        """Every player, in seat order: name, cash, square, jail, bankruptcy."""
        return seats(self._state)

    @built_once
    def deeds(self) -> tuple[Deed, ...]:
        """Every ownable square, in board order: owner, buildings, mortgage, rent."""
        return deeds(self._state)

    @built_once
    def turn(self) -> Turn:
        """Where the game stands: whose turn, the decision waited for, the dice."""
        return Turn.of(self._state)

    @built_once
    def bank(self) -> Bank:
        """The bank's stock: buildings left, (Mega) bus tickets in the pile."""
        return Bank.of(self._state)

    @built_once
    def card(self) -> DrawnCard | None:
        """The card that is news now, with its drawer (None: none, its effect is over)."""
        return DrawnCard.of(self._state)

    def shows(self, state: Mapping[str, Any]) -> bool:
        """Whether this view is of `state`'s version (a face holding the session's view and
        a state of its own asks before reading the view for it)."""
        return self.version == version_of(state)

    @built_once
    def open_offers(self) -> tuple[Offer, ...]:
        """The open offers as typed records, oldest first (`offers` is their JSON)."""
        return tuple(Offer.of(o) for o in self.offers)

    def offer(self, offer_id: str | None) -> Offer | None:
        """The open offer with id `offer_id` (None: none open with it)."""
        return next((o for o in self.open_offers if o.id == offer_id), None)

    @built_once
    def setup(self) -> Setup:
        """The game's setup: the edition, how its money is written, the rule options."""
        return Setup.of(self._state)

    @built_once
    def teaching_on(self) -> bool | None:
        """Whether the teaching table explains the rules as they apply (None: no game, so
        no teaching table to switch)."""
        teaching = self._state.get("teaching")
        return bool(teaching.get("on")) if isinstance(teaching, Mapping) else None

    def auction_left(self, now: float) -> int | None:
        """The auction clock's whole seconds left at `now` (epoch seconds; the session's
        `now()` when the page is drawn, since the view is built once per version and the
        clock runs on), None while no clock runs."""
        clock = self.auction_clock
        return clock.left_at(now) if clock is not None else None

    @built_once
    def _seat_by_name(self) -> dict[str, Seat]:
        return {p.name: p for p in self.players}

    @built_once
    def _deed_by_index(self) -> dict[int, Deed]:
        return {d.index: d for d in self.deeds}

    @built_once
    def _deed_by_id(self) -> dict[str, Deed]:
        return {d.id: d for d in self.deeds}

    def player(self, name: str | None) -> Seat | None:
        """The player named `name` (None: no such player)."""
        return self._seat_by_name.get(name) if name is not None else None

    def deed(self, index: int) -> Deed | None:
        """The ownable square at board index `index` (None: not an ownable square)."""
        return self._deed_by_index.get(index)

    def deed_by_id(self, square_id: str) -> Deed | None:
        """The ownable square with the edition's id `square_id` (a deed card's tag)."""
        return self._deed_by_id.get(square_id)

    # -- the decision the table waits for (companion.game.table.decision): built on the
    # -- first read, once per version

    @built_once
    def decision(self) -> Decision | None:
        """The pending decision: who is asked, what, the answers on offer with the command
        and the button of each, the amounts, the auction's clock (None: none pending)."""
        return decision_of(self._state, self.moves, self.buttons, self.auction_clock)

    def with_auction_clock_of(self, state: Mapping[str, Any]) -> TableView:
        """This view for `state`: a public state equal to the view's own but for its
        auction clock, which the session adds at a commit, of the commit's time (so a view
        built ahead of a move, issue 28, cannot hold it). The records built so far are
        kept; the clock, and the decision that holds it, are `state`'s."""
        clock = _auction_clock_of(state)
        view = copy.copy(self)  # the fields and the records built (its __dict__), shallow
        object.__setattr__(view, "auction_clock", clock)
        object.__setattr__(view, "_state", state)
        decided = self.__dict__.get("decision")
        if decided is not None:
            view.__dict__["decision"] = replace(
                decided, clock=clock if decided.auction and decided.bidder is not None
                else None)
        return view

    def names(self) -> tuple[str, ...]:
        """The players' names, in seat order (the bankrupt too)."""
        return tuple(p.name for p in self.players)

    def asked_of(self, player: str) -> tuple[Asked, ...]:
        """What `player` is being asked now."""
        return tuple(a for a in self.asked if a.player == player)

    def moves_of(self, player: str | None) -> tuple[Move, ...]:
        """What `player` may send now (their own moves, and a trade among them); the
        banker's corrections are the banker's (`correction_for`)."""
        return tuple(m for m in self.moves if m.open_to(player))

    def move(self, verb: str, by: str | None = None, *, anyone: bool = False) -> Move | None:
        """The move `verb` that `by` may send now (None: the banker's or the table's own,
        as the gavel; `anyone`: whoever it names), never a banker's correction."""
        return next((m for m in self.moves if m.do == verb and not m.correction
                     and (anyone or m.by == by)), None)

    def choices(self, verb: str, by: str | None = None) -> tuple[Move, ...]:
        """Every offer of `verb` (`by`'s only, when given), the corrections left out: the
        square picker lists their squares."""
        return tuple(m for m in self.moves if m.do == verb and not m.correction
                     and (by is None or m.by == by))

    def verbs(self) -> frozenset[str]:
        """The verbs anyone may send now (the menu lists what is possible)."""
        return frozenset(m.do for m in self.moves if not m.correction)

    def senders(self, verb: str) -> frozenset[str]:
        """Who may send `verb` now (the players it names)."""
        return frozenset(m.by for m in self.moves if m.do == verb and m.by is not None)

    def correction_for(self, player: str | None) -> Move | None:
        """The banker's correction of `player`'s move (their token put on a square, the
        salary paid), when the engine offers it."""
        return next((m for m in self.moves if m.correction and m.do == "land"
                     and player in m.players), None)

    def for_seat(self, player: str | None, banker: bool = False,
                 now: float | None = None) -> JSON:
        """What one phone may see and do, as JSON (the phones' /api/table): the table's
        public part (whose turn, the clocks, whom it waits for), and for a seat only what
        that player is asked and may send, the buttons only when they answer for that
        player, and the offers they made or were made; the banker sees every move and
        offer. A spectator (no player, not the banker) sees the public part alone. The
        clocks' seconds left are told at `now` when given (the view may be older)."""
        out: JSON = {
            "version": self.version, "current": self.current, "winner": self.winner,
            "waiting_on": self.waiting_on, "player": player,
            "auction_clock": _clock_json(self.auction_clock, now),
            "game_clock": _clock_json(self.game_clock, now),
        }
        if banker:
            out["asked"] = [_asked_json(a) for a in self.asked]
            out["moves"] = [m.to_json() for m in self.moves]
            out["offers"] = [dict(o) for o in self.offers]
            out["buttons"] = {b: c for b, c in self.buttons.items() if c is not None}
            return out
        mine = self.moves_of(player)
        out["asked"] = [_asked_json(a) for a in self.asked_of(player)] if player else []
        out["moves"] = [m.to_json() for m in mine]
        out["offers"] = [dict(o) for o in self.offers
                         if player is not None and player in (o.get("from"), o.get("to"))]
        out["buttons"] = {b: c for b, c in self.buttons.items()
                          if c is not None and player is not None and c.get("by") == player}
        return out

    def press(self, button: str, steps: int = 0) -> JSON | None:
        """What `button` sends now; a bid `steps` steps above the next one (the dial)."""
        if steps and button == "yes":
            return command_for(self._state, button, steps)
        return self.buttons.get(button)


def _clock_json(clock: Clock | None, now: float | None) -> JSON | None:
    if clock is None:
        return None
    left = clock.seconds_left if now is None else clock.left_at(now)
    return {"ends_at": clock.ends_at, "seconds_left": left}


def _asked_json(asked: Asked) -> JSON:
    return {"player": asked.player, "what": asked.what, "offer": asked.offer}


def _clock(raw: Any) -> Clock | None:
    if not isinstance(raw, Mapping) or "ends_at" not in raw:
        return None
    return Clock(float(raw["ends_at"]), int(raw.get("seconds_left") or 0))


def _auction_clock_of(state: Mapping[str, Any]) -> Clock | None:
    """The auction clock a view of `state` holds: while someone holds the highest bid."""
    pending = state.get("pending") or {}
    return _clock(state.get("auction_clock")) if pending.get("bidder") else None


def build(state: Mapping[str, Any], offers: Sequence[Mapping[str, Any]] = ()) -> TableView:
    """The view of a public state JSON (docs/state-json.md) and the open offers.

    >>> view = build({"version": 3, "current": "Ann", "pending": {"kind": "buy",
    ...     "player": "Ann"}, "legal": [{"do": "buy", "by": "Ann"}]},
    ...     [{"id": "o1", "from": "Bo", "to": "Cy", "give": {"cash": 5}, "take": {}}])
    >>> view.asked, view.buttons["yes"]
    ((Asked(player='Ann', what='buy', offer=None), Asked(player='Cy', what='offer', \
offer='o1')), {'do': 'buy', 'by': 'Ann'})
    """
    pending = state.get("pending") or {}
    asked: list[Asked] = []
    kind = pending.get("kind")
    moves = moves_of_state(state)
    if kind in AUCTIONS:  # each who may still bid or pass (companion.game.table.decision)
        asked += [Asked(by, str(kind)) for by in auction_asked(moves, pending.get("bidder"))]
    elif kind and isinstance(pending.get("player"), str):
        asked.append(Asked(pending["player"], str(kind)))
    asked += [Asked(to, "offer", str(offer.get("id"))) for to, offer in put_to(offers).items()]
    current, winner = state.get("current"), state.get("winner")
    by = decider(state)
    return TableView(
        version=int(state.get("version") or 0),
        current=current if isinstance(current, str) else None,
        winner=winner if isinstance(winner, str) else None,
        asked=tuple(asked), offers=tuple(dict(o) for o in offers),
        auction_clock=_auction_clock_of(state),
        game_clock=_clock(state.get("clock")),
        buttons=buttons_of(state, by), decider=by,
        waiting_on=waiting_on(state), moves=moves, _state=state)
