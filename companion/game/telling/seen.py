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
from collections.abc import Iterable, Mapping, Sequence
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

    def mark(self, player: str, keys: Iterable[str]) -> None:
        """`player` has seen these items; saved at once (a failure is logged: the marks are
        not the game)."""
        with self._lock:
            mine = self._seen.setdefault(player, set())
            mine.update(keys)
            if len(mine) > KEPT_MAX:
                for key in sorted(mine, key=_move_of)[:len(mine) - KEPT_MAX]:
                    mine.discard(key)
            if self._path is None:
                return
            data = {"seen": {p: sorted(k, key=lambda x: (_move_of(x), x))
                             for p, k in self._seen.items()}}
            try:
                write_json(self._path, data)
            except OSError as exc:
                log.warning("cannot save the news marks %s: %s", self._path, exc)
