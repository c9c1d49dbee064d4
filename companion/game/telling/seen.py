"""Each person's news stays on their phone until they have seen it: which events of the
moves in force are news to whom (`news_items`), and which of those each player has seen
(`SeenNews`, kept in `<id>.seen.json` beside the game's journal).

A news item is one event of one move that concerns a player (money they paid or received,
their going to jail, an auction they won); its key is "<move>:<index>", the move's command
row in the journal and the event's place among the move's own events. A redo applies the
same command again with the same dice, so it brings back the same keys: an item seen before
its move was undone stays seen after the redo, one never seen comes back unseen. The
moves' items come from the moves in force only, so an undone move's news is gone.

Marks are kept per player (every phone of Ann shares them), written atomically when they
change; a missing or damaged file means nothing has been seen yet.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.paths import read_json, write_json
from companion.rules.events import (
    AuctionClosed,
    Event,
    EventError,
    GameStarted,
    Jailed,
    Transfer,
    event_from_json,
)

log = logging.getLogger(__name__)
JSON = dict[str, Any]

SUFFIX = ".seen.json"
#: how many moves in force back a phone's news reaches (about ten rounds of four players)
NEWS_MOVES = 400
#: how many keys one request may mark seen
MARK_MAX = 500
#: how many seen keys a player keeps (the oldest go first; far above one game's news)
KEPT_MAX = 20_000
_KEY = re.compile(r"^[1-9][0-9]{0,11}:[0-9]{1,4}$")
#: event kinds that are the journal's own, not what a move did
_JOURNAL_KINDS = ("undone", "redone")


def addressees(event: Event) -> tuple[str, ...]:
    """The players an event is news to: the payer and the payee of money (not the bank or
    the pot), whoever went to jail, the winner of an auction.

    >>> addressees(Transfer("Dan", "Ann", 8, "rent"))
    ('Dan', 'Ann')
    >>> addressees(Transfer(None, "pot", 50, "tax"))
    ()
    """
    if isinstance(event, Transfer):
        if event.from_ == event.to:
            return ()
        return tuple(p for p in (event.from_, event.to) if p is not None and p != "pot")
    if isinstance(event, Jailed):
        return (event.player,)
    if isinstance(event, AuctionClosed) and event.winner is not None:
        return (event.winner,)
    return ()


def item_key(move: int, index: int) -> str:
    """The key of a news item: the move's command row and the event's place in the move."""
    return f"{move}:{index}"


def valid_key(key: object) -> bool:
    """Whether `key` is shaped like a news item's key.

    >>> valid_key("12:0"), valid_key("0:1"), valid_key("12:0:1"), valid_key(12)
    (True, False, False, False)
    """
    return isinstance(key, str) and _KEY.match(key) is not None


#: the kinds of event that can be news (`addressees`) or deal a new game: a move's other
#: events are not read back from their JSON (five a move, a tenth of the listeners' thread)
_NEWS_KINDS = frozenset({Transfer.kind, Jailed.kind, AuctionClosed.kind, GameStarted.kind})


@dataclass(frozen=True)
class MoveNews:
    """What one move is as news: whether it dealt a new game, and its items, each
    (player, {"key", "seq", "event"})."""

    dealt: bool
    items: tuple[tuple[str, JSON], ...]


def move_news(move: int, events: Sequence[Mapping[str, Any]]) -> MoveNews:
    """One move's news (`move`: its command row; `events`: what the row that applied it
    did, as JSON; a redo's own "redone" mark and an undo's are not the move's)."""
    own = [e for e in events if isinstance(e, Mapping) and e.get("kind") not in _JOURNAL_KINDS]
    dealt = False
    items: list[tuple[str, JSON]] = []
    for index, data in enumerate(own):
        if data.get("kind") not in _NEWS_KINDS:
            continue  # addressed to nobody, not a deal: not read (issue 28)
        try:
            event = event_from_json(data)
        except EventError:
            continue
        if isinstance(event, GameStarted):
            dealt, items = True, []
            continue
        for player in addressees(event):
            items.append((player, {"key": item_key(move, index), "seq": move,
                                   "event": dict(data)}))
    return MoveNews(dealt, tuple(items))


def news_items(moves: Iterable[MoveNews]) -> dict[str, list[JSON]]:
    """Per player, the news items of the game in play, oldest first (`moves`: the news of
    the moves in force, oldest first); a new game starts the news afresh.

    >>> paid = {"kind": "transfer", "from": "Dan", "to": "Ann", "amount": 8, "reason": "rent"}
    >>> news_items([move_news(7, [paid])])["Ann"]
    [{'key': '7:0', 'seq': 7, 'event': {'kind': 'transfer', 'from': 'Dan', 'to': 'Ann', \
'amount': 8, 'reason': 'rent'}}]
    """
    out: dict[str, list[JSON]] = {}
    for news in moves:
        if news.dealt:
            out = {}
        for player, item in news.items:
            out.setdefault(player, []).append(item)
    return out


@dataclass(frozen=True)
class MarkRefused:
    """Why marks were not taken: a refusal code, its English message and its facts."""

    code: str
    message: str
    params: JSON


def check_marks(keys: Any, news: Sequence[Mapping[str, Any]],
                seen: frozenset[str]) -> list[str] | MarkRefused:
    """The keys to mark seen, or why the request is refused as a whole (`news`: the player's
    news items now, `seen`: the keys they saw): a list of 1 to MARK_MAX distinct keys, each
    an item of their news not seen yet (a request sent again is refused: already seen).

    >>> check_marks(["7:0"], [{"key": "7:0"}], frozenset())
    ['7:0']
    >>> check_marks(["7:0"], [{"key": "7:0"}], frozenset({"7:0"})).code
    'already_seen'
    """
    if not isinstance(keys, list) or not keys or len(keys) > MARK_MAX:
        return MarkRefused("bad_request", f"'keys' must be a list of 1 to {MARK_MAX} news "
                           "keys", {})
    if not all(valid_key(k) for k in keys) or len(set(keys)) != len(keys):
        return MarkRefused("bad_request", "each key must be a news key like '12:0', once", {})
    mine = {str(item.get("key")) for item in news}
    stray = [k for k in keys if k not in mine]
    if stray:
        return MarkRefused("not_news", f"{stray[0]} is not news of yours now",
                           {"key": stray[0]})
    again = [k for k in keys if k in seen]
    if again:
        return MarkRefused("already_seen", f"{again[0]} was already seen", {"key": again[0]})
    return list(keys)


def _move_of(key: str) -> int:
    return int(key.split(":", 1)[0])


class SeenNews:
    """Which news items each player has seen; thread-safe. With a path, kept in that file
    (written atomically on every change); without, in memory only."""

    def __init__(self, path: Path | None, seen: dict[str, set[str]] | None = None) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._seen: dict[str, set[str]] = {p: set(keys) for p, keys in (seen or {}).items()}

    @classmethod
    def beside(cls, journal: Path) -> SeenNews:
        """The marks of the game whose journal is `journal`; a missing or damaged file is
        taken as nothing seen yet."""
        path = journal.with_name(journal.name.rsplit(".", 1)[0] + SUFFIX)
        raw = read_json(path, None)
        if raw is None:
            return cls(path)
        players = raw.get("seen") if isinstance(raw, dict) else None
        if not isinstance(players, dict) or not all(
                isinstance(p, str) and isinstance(keys, list) and all(valid_key(k) for k in keys)
                for p, keys in players.items()):
            log.warning("news marks %s unreadable: nothing is taken as seen", path)
            return cls(path)
        return cls(path, {p: set(keys) for p, keys in players.items()})

    def seen(self, player: str) -> frozenset[str]:
        """The keys `player` has seen."""
        with self._lock:
            return frozenset(self._seen.get(player, ()))

    def has(self, player: str, key: str) -> bool:
        """Whether `player` has seen the item `key` (without copying their marks)."""
        with self._lock:
            mine = self._seen.get(player)
            return mine is not None and key in mine

    def mark(self, player: str, keys: Iterable[str]) -> bool:
        """`player` has seen these items; saved at once (a failure is logged: the marks are
        not the game). True when older marks were let go to keep KEPT_MAX."""
        dropped = False
        with self._lock:
            mine = self._seen.setdefault(player, set())
            mine.update(keys)
            if len(mine) > KEPT_MAX:
                dropped = True
                for key in sorted(mine, key=_move_of)[:len(mine) - KEPT_MAX]:
                    mine.discard(key)
            if self._path is None:
                return dropped
            data = {"seen": {p: sorted(k, key=lambda x: (_move_of(x), x))
                             for p, k in self._seen.items()}}
            try:
                write_json(self._path, data)
            except OSError as exc:
                log.warning("cannot save the news marks %s: %s", self._path, exc)
        return dropped


#: one move in force on the session's undo stack: (the row that applied it, its command row)
Move = tuple[int, int]
#: reads the events of journal rows (JSON, as `move_news` takes them), by row
RowReader = Callable[[Sequence[int]], dict[int, list[JSON]]]


class NewsWindow:
    """Every player's news of the last `size` moves in force, kept up to date move by move:
    a move made adds its items, the move that leaves the window drops its own, an undo takes
    the last move's items off and brings an older move back in. Each step costs the items of
    the moves it touches, never the window (issue 28: a move costs the same at move 1 as at
    move 1 300); the same items, in the same order, as `news_items` over the window.

    Not thread-safe: its owner (the session) calls it under one lock, with the undo stack as
    it stands between two commits. `sync` follows the stack; the readers read."""

    def __init__(self, seen: SeenNews, size: int = NEWS_MOVES) -> None:
        self._seen = seen
        self._size = size
        #: the window: the moves of the stack's places [_lo, _lo + len), with their news
        self._moves: deque[tuple[Move, MoveNews]] = deque()
        self._lo = 0
        #: the stack place of the window's last move that dealt a new game, None: none
        self._dealt: int | None = None
        #: per player, the items since that deal (all of the window without one), oldest
        #: first; and those not seen yet, by key, oldest first
        self._items: dict[str, deque[JSON]] = {}
        self._unseen: dict[str, OrderedDict[str, JSON]] = {}

    def sync(self, stack: Sequence[Move], read: RowReader) -> bool:
        """Follow the undo stack (its moves change only at its top: a move made or redone is
        pushed, an undo pops one and may push back what a jump took, a jump back pops
        several). False, leaving the window a part of the stack's to be completed by the
        next call, when a row was missing from what `read` gave (what `read` raises is the
        caller's to catch, the window as consistent)."""
        moves = self._moves
        top = len(stack)
        while moves and (self._hi() > top or stack[self._hi() - 1] != moves[-1][0]):
            self._pop_top()
        if moves and stack[self._lo] != moves[0][0]:  # not the stack it followed: afresh
            moves.clear()
        bottom = max(0, top - self._size)
        while moves and self._lo < bottom:
            self._drop_bottom()
        if not moves:
            self._lo = bottom
            self._dealt = None
            self._items.clear()
            self._unseen.clear()
        first = self._hi()
        wanted = [applied for applied, _move in stack[first:top]]
        wanted += [applied for applied, _move in stack[bottom:self._lo]]
        events = read(wanted) if wanted else {}
        if any(applied not in events for applied in wanted):
            return False
        for at in range(first, top):
            applied, move = stack[at]
            self._push_top(stack[at], move_news(move, events[applied]))
        for at in range(self._lo - 1, bottom - 1, -1):
            applied, move = stack[at]
            self._add_bottom(stack[at], move_news(move, events[applied]))
        return True

    def items(self, player: str) -> list[JSON]:
        """`player`'s news items in the window, seen or not, oldest first."""
        return list(self._items.get(player, ()))

    def unseen(self, player: str) -> list[JSON]:
        """`player`'s news items not seen yet, newest first."""
        return list(reversed(self._unseen.get(player, {}).values()))

    def summary(self, player: str) -> tuple[int, str | None, str | None]:
        """How many of `player`'s items are unseen, the newest one's key and the oldest's."""
        mine = self._unseen.get(player)
        if not mine:
            return (0, None, None)
        return (len(mine), next(reversed(mine)), next(iter(mine)))

    def marked(self, player: str, keys: Iterable[str], dropped: bool = False) -> None:
        """`player` has seen these keys (SeenNews.mark has them); `dropped`: it let older
        marks go, so items seen before may be unseen again."""
        if dropped:
            self._recount()
            return
        mine = self._unseen.get(player)
        if mine is not None:
            for key in keys:
                mine.pop(key, None)

    def _hi(self) -> int:
        return self._lo + len(self._moves)

    def _push_top(self, move: Move, news: MoveNews) -> None:
        if news.dealt:
            self._dealt = self._hi()
            self._items.clear()
            self._unseen.clear()
        self._moves.append((move, news))
        for player, item in news.items:
            self._items.setdefault(player, deque()).append(item)
            if not self._seen.has(player, item["key"]):
                self._unseen.setdefault(player, OrderedDict())[item["key"]] = item

    def _pop_top(self) -> None:
        _move, news = self._moves.pop()
        if self._dealt is not None and self._dealt >= self._hi():
            self._dealt = None  # the deal itself is undone: the moves before it count again
            self._recount()
            return
        for player, item in reversed(news.items):
            self._items[player].pop()
            self._unseen.get(player, {}).pop(item["key"], None)

    def _drop_bottom(self) -> None:
        _move, news = self._moves.popleft()
        at = self._lo
        self._lo += 1
        if self._dealt is not None and at < self._dealt:
            return  # before the last deal: its items were not counted
        if self._dealt == at:
            self._dealt = None
        for player, item in news.items:
            self._items[player].popleft()
            self._unseen.get(player, {}).pop(item["key"], None)

    def _add_bottom(self, move: Move, news: MoveNews) -> None:
        self._moves.appendleft((move, news))
        self._lo -= 1
        if self._dealt is not None:
            return  # a later deal: this move's items do not count
        if news.dealt:
            self._dealt = self._lo
        for player, item in reversed(news.items):
            self._items.setdefault(player, deque()).appendleft(item)
            if not self._seen.has(player, item["key"]):
                mine = self._unseen.setdefault(player, OrderedDict())
                mine[item["key"]] = item
                mine.move_to_end(item["key"], last=False)

    def _recount(self) -> None:
        """Every player's items again from the window's moves (after a deal is undone, or
        marks were let go): the window's length, not a move's, so only on those."""
        self._items.clear()
        self._unseen.clear()
        self._dealt = None
        for at, (_move, news) in enumerate(self._moves, start=self._lo):
            if news.dealt:
                self._dealt = at
                self._items.clear()
            for player, item in news.items:
                self._items.setdefault(player, deque()).append(item)
        for player, items in self._items.items():
            self._unseen[player] = OrderedDict(
                (item["key"], item) for item in items if not self._seen.has(player, item["key"]))
