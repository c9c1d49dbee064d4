"""The open offers of the table: trades proposed on a phone, until their receiver answers.

One store for the run: the phones list and answer them, the screen and a headless table
show them, a bank card's question names one (companion.inputs). The session's writer
lapses them (`lapse`) before anyone sees the state that ends them:

- at the end of the turn in which the offer was made (the turn number changed, an undo
  across the turn too);
- at a new game, and when the table switches to another saved game (`clear`);
- when it is overtaken: a deed of either side changed hands, a player went out, or the same
  deal was done (a "traded" event).

Reads never show a lapsed offer even between two lapses (`open` checks the turn). A
player's `trade` reaches the engine only as the receiver's answer to an open offer with the
very same deal (`matches`, which the session's authority check asks). Persisted beside the
phones' files so that a restart keeps the offers of the turn in play.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.paths import read_json, write_json
from companion.rules import GameState
from companion.rules.state import NOBODY

JSON = dict[str, Any]
#: open offers per player; a phone cannot fill the Pi's memory with them
MAX_OPEN_PER_PLAYER = 10
#: how a store is saved: (path, a function giving the JSON to write)
Saver = Callable[[Path, Callable[[], Any]], None]


def _sync_save(path: Path, snapshot: Callable[[], Any]) -> None:
    try:
        write_json(path, snapshot())
    except OSError:
        pass  # a full or read-only card must not stop the game; the next save retries


def deal(trade: Mapping[str, Any]) -> tuple[Any, ...]:
    """What an offer, a `trade` command or a "traded" event exchanges, comparable.

    >>> deal({"from": "Ann", "to": "Bo", "give": {"cash": 50}, "take": {}}) == deal(
    ...     {"from": "Ann", "to": "Bo", "give": {"cash": 50, "cards": 0, "squares": []},
    ...      "take": {"cash": 0, "cards": 0, "squares": []}})
    True
    """
    def side(goods: Any) -> tuple[int, int, tuple[int, ...]]:
        goods = goods if isinstance(goods, Mapping) else {}
        try:
            return (int(goods.get("cash") or 0), int(goods.get("cards") or 0),
                    tuple(sorted(int(s) for s in goods.get("squares") or [])))
        except (TypeError, ValueError):
            return (-1, -1, ())  # matches no offer

    return trade.get("from"), trade.get("to"), side(trade.get("give")), side(trade.get("take"))


def put_to(offers: Iterable[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """The offer put to each receiver (the one the screen shows them, a card's question
    names, YES answers): the newest open offer made to them. `offers`: oldest first.

    >>> sorted((to, o["id"]) for to, o in put_to([{"id": "a", "to": "Cy"},
    ...     {"id": "b", "to": "Bo"}, {"id": "c", "to": "Cy"}]).items())
    [('Bo', 'b'), ('Cy', 'c')]
    """
    out: dict[str, Mapping[str, Any]] = {}
    for offer in offers:
        out[str(offer.get("to"))] = offer
    return out


def _whole(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(frozen=True, slots=True)
class Goods:
    """One side of an offer as the faces say it: the cash, the deeds (board indexes) and
    the Get Out of Jail Free cards it hands over.

    >>> Goods.of({"cash": 200, "squares": [3, 1]}), Goods.of(None).empty
    (Goods(cash=200, squares=(3, 1), cards=0), True)
    """

    cash: int = 0
    squares: tuple[int, ...] = ()
    cards: int = 0

    @classmethod
    def of(cls, raw: Any) -> Goods:
        """The goods of an offer's "give" or "take" (nothing for what is not one)."""
        if not isinstance(raw, Mapping):
            return cls()
        squares = raw.get("squares")
        return cls(_whole(raw.get("cash")),
                   tuple(s for s in squares if isinstance(s, int) and not isinstance(s, bool))
                   if isinstance(squares, list | tuple) else (), _whole(raw.get("cards")))

    @property
    def empty(self) -> bool:
        """Whether it hands over nothing at all."""
        return not (self.cash or self.squares or self.cards)

    def to_json(self) -> JSON:
        """The goods as an offer writes them ({"cash", "squares", "cards"})."""
        return {"cash": self.cash, "squares": list(self.squares), "cards": self.cards}


@dataclass(frozen=True, slots=True)
class Offer:
    """An open offer as the faces show it: who offers (`sender`) what (`give`) to whom
    (`receiver`) for what (`take`), and when it was made.

    >>> o = Offer.of({"id": "o1", "from": "Ann", "to": "Bo", "give": {"cash": 5}})
    >>> o.sender, o.receiver, o.give.cash, o.take.empty
    ('Ann', 'Bo', 5, True)
    """

    id: str
    sender: str
    receiver: str
    give: Goods
    take: Goods
    #: epoch seconds (0: not known)
    created: float = 0.0

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Offer:
        """The record of one offer of the store (`OfferStore.open`, `TableView.offers`)."""
        created = raw.get("created")
        return cls(str(raw.get("id")), str(raw.get("from")), str(raw.get("to")),
                   Goods.of(raw.get("give")), Goods.of(raw.get("take")),
                   float(created) if isinstance(created, int | float) else 0.0)


@dataclass(frozen=True)
class Facts:
    """What the lapse rules read of a state: the turn, who is still in, who owns what."""

    turn: int
    active: frozenset[str]
    owners: Mapping[int, str | None]

    @classmethod
    def of_state(cls, g: GameState) -> Facts:
        """The facts of an engine state (the session's writer)."""
        names = [p.name for p in g.players]
        return cls(g.turn_number, frozenset(p.name for p in g.players if not p.bankrupt),
                   {i: (names[o] if o != NOBODY else None) for i, o in enumerate(g.owner)})

    @classmethod
    def of_json(cls, state: Mapping[str, Any]) -> Facts:
        """The facts of a public state JSON (a session that keeps no store itself)."""
        return cls(int((state.get("turn") or {}).get("number") or 0),
                   frozenset(p.get("name") for p in state.get("players") or []
                             if not p.get("bankrupt")),
                   {sq.get("index"): sq.get("owner") for sq in state.get("squares") or []})


class OfferStore:
    """The open offers by id; thread-safe. See the module doc."""

    def __init__(self, path: Path | None = None, save: Saver = _sync_save) -> None:
        self._path = path
        self._save_with = save
        self._lock = threading.Lock()
        raw = read_json(path, {}) if path is not None else {}
        items = raw.get("offers") if isinstance(raw, dict) and "offers" in raw else {}
        self._items: dict[str, JSON] = {
            k: v for k, v in (items or {}).items()
            if isinstance(v, dict) and isinstance(v.get("turn"), int)}
        #: the turn in play as the writer last said (None: not told yet, nothing lapses)
        self.turn: int | None = raw.get("turn") if isinstance(raw, dict) and \
            isinstance(raw.get("turn"), int) else None
        #: grows with every change, so a face can tell it has something new to show
        self.generation = 0
        self._listeners: list[Callable[[], None]] = []

    # --- saving and telling -------------------------------------------------------------

    def persist_with(self, save: Saver) -> None:
        """Save from now on with `save` (the phones' writer thread, off the caller's path)."""
        self._save_with = save

    def add_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call back (any thread, keep it short) after each change; returns remove()."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners \
            else None

    def _changed(self) -> None:
        """Under the lock: save, and tell the listeners (after the lock is let go)."""
        self.generation += 1
        if self._path is not None:
            snapshot = {"turn": self.turn, "offers": {k: dict(v) for k, v in self._items.items()}}
            self._save_with(self._path, lambda: snapshot)

    def _tell(self) -> None:
        for callback in list(self._listeners):
            callback()

    # --- reading ------------------------------------------------------------------------

    def _open(self, item: JSON) -> bool:
        return self.turn is None or item.get("turn") == self.turn

    def open(self, player: str | None = None) -> list[JSON]:
        """Open offers (involving `player` if given), oldest first."""
        with self._lock:
            items = [dict(p) for p in self._items.values() if self._open(p)]
        if player is not None:
            items = [p for p in items if player in (p["from"], p["to"])]
        return sorted(items, key=lambda p: (p["created"], p["id"]))

    def get(self, pid: str) -> JSON | None:
        """One open offer, or None."""
        with self._lock:
            item = self._items.get(pid)
            return dict(item) if item is not None and self._open(item) else None

    def asked(self, player: str) -> JSON | None:
        """The offer the table puts to `player` now: the newest open offer made to them (the
        one the screen shows them), or None."""
        offer = put_to(self.open(player)).get(player)
        return dict(offer) if offer is not None else None

    def matches(self, trade: Mapping[str, Any]) -> str | None:
        """The id of the open offer with exactly this deal (a `trade` command), or None."""
        wanted = deal(trade)
        with self._lock:
            return next((pid for pid, p in self._items.items()
                         if self._open(p) and deal(p) == wanted), None)

    # --- changing -----------------------------------------------------------------------

    def add(self, sender: str, receiver: str, give: JSON, take: JSON, version: int,
            turn: int | None = None) -> JSON | None:
        """A new offer made in turn `turn` (None when the sender has too many open, or the
        turn is over already)."""
        with self._lock:
            turn = self.turn if turn is None else turn
            if self.turn is not None and turn != self.turn:
                return None
            if sum(p["from"] == sender for p in self._items.values()) >= MAX_OPEN_PER_PLAYER:
                return None
            pid = secrets.token_urlsafe(8)
            item = {"id": pid, "from": sender, "to": receiver, "give": give, "take": take,
                    "version": version, "turn": turn if turn is not None else 0,
                    "created": time.time(), "error": None}
            self._items[pid] = item
            self._changed()
        self._tell()
        return dict(item)

    def note_error(self, pid: str, message: str, code: str | None = None,
                   params: JSON | None = None) -> None:
        """Remember why accepting failed (shown on both phones): the English `message`, and
        the refusal's `code` and `params` to say it in each phone's language."""
        with self._lock:
            if pid not in self._items:
                return
            self._items[pid].update(error=message, error_code=code,
                                    error_params=dict(params or {}))
            self._changed()
        self._tell()

    def remove(self, pid: str) -> JSON | None:
        """Drop an offer (accepted, declined or withdrawn)."""
        with self._lock:
            item = self._items.pop(pid, None)
            if item is not None:
                self._changed()
        if item is not None:
            self._tell()
        return item

    def clear(self, turn: int | None = None) -> None:
        """Forget every offer (a new game, another saved game); `turn`: the turn in play."""
        with self._lock:
            changed = bool(self._items) or turn != self.turn
            self._items.clear()
            self.turn = turn
            if changed:
                self._changed()
        if changed:
            self._tell()

    def follow(self, facts: Facts | None) -> None:
        """The session this store follows is in play at `facts` (None: no game yet): its
        offers of another turn lapse."""
        self.lapse(facts, ())

    def lapse(self, facts: Facts | None, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """After a change of the game (the session's writer, before anyone sees it): drop
        the offers it ends (see the module doc); returns their ids."""
        events = list(events)
        if any(e.get("kind") == "game_started" for e in events):
            gone = list(self._items)
            self.clear(facts.turn if facts is not None else None)
            return gone
        done = {deal(e) for e in events if e.get("kind") == "traded"}
        with self._lock:
            turn = facts.turn if facts is not None else None
            gone = [pid for pid, p in self._items.items()
                    if facts is None or not self._stands(p, facts, done)]
            for pid in gone:
                del self._items[pid]
            moved = turn != self.turn and bool(self._items)  # saved with its offers' turn
            self.turn = turn
            if gone or moved:
                self._changed()
        if gone:
            self._tell()
        return gone

    @staticmethod
    def _stands(p: JSON, facts: Facts, done: set[tuple[Any, ...]]) -> bool:
        owner = facts.owners
        return (p.get("turn") == facts.turn and p["from"] in facts.active
                and p["to"] in facts.active and deal(p) not in done
                and all(owner.get(s) == p["from"] for s in (p.get("give") or {}).get("squares")
                        or [])
                and all(owner.get(s) == p["to"] for s in (p.get("take") or {}).get("squares")
                        or []))
