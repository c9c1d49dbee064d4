"""The game's story: what a finished (or running) game was, told from its journal.

`tell` replays the moves in force of the game in play (the journal's live line from its last
new game: undone moves and moves a jump back took are left out) and reads their events:
every player's net worth at the start of each turn, the rent each property earned (the
square a rent was paid for is where the payer's token moved to in that move before paying,
else where it stood when the move began: a debt paid later, a rent rolled for),
rent per colour group, the squares landed on most, the biggest trade, every auction and who
won it, and the time played. The record is plain data (`Story.to_json`), saved beside the
journal (`save`); the session hands the phone remote and the table screen the typed record
itself (`Story`, in `story_record`, re-exported here: its `clock`, `final` and `series()`
worked out there once), which they say in words, the phones also as one HTML page.
Pure apart from `save`: no clock, no randomness.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.game.applying import apply_command
from companion.game.journal import Entry
from companion.game.replaying import with_rng
from companion.game.telling.story_record import (
    AuctionFigure,
    GroupRent,
    SquareFigure,
    Story,
    TradeFigure,
    WorthPoint,
    read,
)
from companion.rules import Accepted, GameState, net_worths
from companion.rules.events import AuctionClosed, Moved, Traded, Transfer, Turn, Winner

JSON = dict[str, Any]
#: how many of the squares landed on most the story names
MOST_LANDED = 5
STORY_SUFFIX = ".story.json"


def tell(moves: Iterable[Entry]) -> Story | None:
    """The story of the game in play, from the journal's command entries in force, in
    order (companion.game.reading.effective_commands); None before any game."""
    teller = Teller()
    teller.more(moves)
    return teller.story()


class Teller:
    """The story told on as the game goes (the session's, issue 28: told again from the
    journal after every move, a phone on the story page cost a replay of the whole game a
    move): `more` takes the next command entries in force, `story()` is the record of the
    game in play as `tell` gives it for all of them."""

    def __init__(self) -> None:
        self._begin()

    def _begin(self) -> None:
        """The story of a game dealt now: nothing told of it yet."""
        self._first: Entry | None = None  # the game in play's deal
        self._last: Entry | None = None  # and its latest move in force
        self._moves = 0
        self._broken = False
        self._state: GameState | None = None
        self._worth: list[WorthPoint] = []
        self._rent: dict[int, int] = {}
        self._earner: dict[int, str] = {}
        self._landed: Counter[int] = Counter()
        self._trades: list[TradeFigure] = []
        self._auctions: list[AuctionFigure] = []
        self._turn = 1
        self._winner: str | None = None

    def more(self, moves: Iterable[Entry]) -> None:
        """Tell the next moves in force (command entries, in order): a new game begins the
        story again; once a move does not replay, the line is broken and nothing after it
        is told (the journal replays: it never happens to a sound one)."""
        for entry in moves:
            if entry.command.get("do") == "new_game":
                self._begin()
                self._first = entry
            elif self._first is None:
                continue  # before any game
            self._last = entry
            self._moves += 1
            if not self._broken:
                self._step(entry)

    def _step(self, entry: Entry) -> None:
        result = apply_command(self._state, entry.command)
        if not isinstance(result, Accepted):  # the journal replays: a broken line ends here
            self._broken = True
            return
        before = self._state
        state = self._state = with_rng(result.state, entry.rng)
        if before is None:
            self._worth.append(WorthPoint(self._turn, _worths(state)))
        moved_to: dict[str, int] = {}
        for event in entry.events:
            if isinstance(event, Moved):
                self._landed[event.to] += 1
                moved_to[event.player] = event.to
            elif isinstance(event, Transfer) and event.reason == "rent" and event.to:
                square = moved_to.get(str(event.from_), _position(before or state,
                                                                   event.from_))
                if square is not None:
                    self._rent[square] = self._rent.get(square, 0) + event.amount
                    self._earner[square] = event.to
            elif isinstance(event, Traded):
                self._trades.append(_trade(entry.seq, event, state))
            elif isinstance(event, AuctionClosed):
                self._auctions.append(AuctionFigure(entry.seq, event.square, event.building,
                                                    event.winner, event.amount))
            elif isinstance(event, Winner):
                self._winner = event.player
            elif isinstance(event, Turn) and before is not None:
                self._turn += 1
                self._worth.append(WorthPoint(self._turn, _worths(state)))

    def story(self) -> Story | None:
        """The record of the game in play told so far (None before any game)."""
        state, turn, first, last = self._state, self._turn, self._first, self._last
        if state is None or first is None or last is None:
            return None
        worth = (*self._worth, WorthPoint(turn, _worths(state)))
        groups = {sq.index: sq.group for sq in state.edition.squares}
        by_group: dict[str, int] = {}
        for square, amount in self._rent.items():
            group = groups.get(square, "")
            by_group[group] = by_group.get(group, 0) + amount
        started, ended = first.time, last.time
        return Story(
            edition=state.edition.id, players=tuple(p.name for p in state.players),
            started=started, ended=ended, seconds=max(0, round(ended - started)), turns=turn,
            moves=self._moves, winner=self._winner,
            over=state.winner >= 0 or self._winner is not None,
            worth=worth,
            rent_by_square=tuple(sorted(
                (SquareFigure(s, groups.get(s, ""), amount=a, owner=self._earner.get(s))
                 for s, a in self._rent.items()), key=lambda f: (-f.amount, f.square))),
            rent_by_group=tuple(sorted((GroupRent(g, a) for g, a in by_group.items()),
                                       key=lambda f: (-f.amount, f.group))),
            landed=tuple(SquareFigure(s, groups.get(s, ""), count=c) for s, c in sorted(
                self._landed.items(), key=lambda sc: (-sc[1], sc[0]))[:MOST_LANDED]),
            biggest_trade=max(self._trades, key=lambda t: (t.value, -t.seq), default=None),
            trades=len(self._trades), auctions=tuple(self._auctions))


def _worths(state: GameState) -> tuple[int, ...]:
    return net_worths(state)


def _position(state: GameState, name: str | None) -> int | None:
    """Where a player's token stands (the square of a rent paid without moving first)."""
    return next((p.position for p in state.players if p.name == name), None)


def _trade(seq: int, event: Traded, state: GameState) -> TradeFigure:
    prices = {sq.index: sq.price for sq in state.edition.squares}
    value = (event.give.cash + event.take.cash
             + sum(prices.get(s, 0) for s in (*event.give.squares, *event.take.squares)))
    return TradeFigure(seq, event.from_, event.to, event.give.cash, event.give.squares,
                       event.take.cash, event.take.squares, value)


def story_path(journal: Path) -> Path:
    """Where a game's story is saved: beside its journal."""
    return journal.with_name(journal.name.removesuffix(".journal") + STORY_SUFFIX)


def save(journal: Path, story: Story) -> Path:
    """Write the story beside the journal (atomically: a temporary file of this writer's
    own, renamed; two writers at once each rename a whole story)."""
    target = story_path(journal)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o644)  # as a file opened for writing (mkstemp's own is 0600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(story.to_json(), fh, ensure_ascii=False, separators=(",", ":"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return target


__all__ = ["AuctionFigure", "GroupRent", "SquareFigure", "Story", "TradeFigure",
           "Teller", "WorthPoint", "read", "save", "story_path", "tell"]
