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


def game_line(moves: Iterable[Entry]) -> list[Entry]:
    """The moves in force of the game in play: from the last new game on."""
    line = list(moves)
    starts = [i for i, e in enumerate(line) if e.command.get("do") == "new_game"]
    return line[starts[-1]:] if starts else []


def tell(moves: Iterable[Entry]) -> Story | None:
    """The story of the game in play, from the journal's command entries in force, in
    order (companion.game.reading.effective_commands); None before any game."""
    line = game_line(moves)
    if not line:
        return None
    state: GameState | None = None
    worth: list[WorthPoint] = []
    rent: dict[int, int] = {}
    earner: dict[int, str] = {}
    landed: Counter[int] = Counter()
    trades: list[TradeFigure] = []
    auctions: list[AuctionFigure] = []
    turn = 1
    winner: str | None = None
    for entry in line:
        result = apply_command(state, entry.command)
        if not isinstance(result, Accepted):  # the journal replays: a broken line ends here
            break
        before = state
        state = with_rng(result.state, entry.rng)
        if before is None:
            worth.append(WorthPoint(turn, _worths(state)))
        moved_to: dict[str, int] = {}
        for event in entry.events:
            if isinstance(event, Moved):
                landed[event.to] += 1
                moved_to[event.player] = event.to
            elif isinstance(event, Transfer) and event.reason == "rent" and event.to:
                square = moved_to.get(str(event.from_), _position(before or state,
                                                                   event.from_))
                if square is not None:
                    rent[square] = rent.get(square, 0) + event.amount
                    earner[square] = event.to
            elif isinstance(event, Traded):
                trades.append(_trade(entry.seq, event, state))
            elif isinstance(event, AuctionClosed):
                auctions.append(AuctionFigure(entry.seq, event.square, event.building,
                                              event.winner, event.amount))
            elif isinstance(event, Winner):
                winner = event.player
            elif isinstance(event, Turn) and before is not None:
                turn += 1
                worth.append(WorthPoint(turn, _worths(state)))
    if state is None:
        return None
    worth.append(WorthPoint(turn, _worths(state)))
    groups = {sq.index: sq.group for sq in state.edition.squares}
    by_group: dict[str, int] = {}
    for square, amount in rent.items():
        by_group[groups.get(square, "")] = by_group.get(groups.get(square, ""), 0) + amount
    started, ended = line[0].time, line[-1].time
    return Story(
        edition=state.edition.id, players=tuple(p.name for p in state.players),
        started=started, ended=ended, seconds=max(0, round(ended - started)), turns=turn,
        moves=len(line), winner=winner, over=state.winner >= 0 or winner is not None,
        worth=tuple(worth),
        rent_by_square=tuple(sorted(
            (SquareFigure(s, groups.get(s, ""), amount=a, owner=earner.get(s))
             for s, a in rent.items()), key=lambda f: (-f.amount, f.square))),
        rent_by_group=tuple(sorted((GroupRent(g, a) for g, a in by_group.items()),
                                   key=lambda f: (-f.amount, f.group))),
        landed=tuple(SquareFigure(s, groups.get(s, ""), count=c) for s, c in sorted(
            landed.items(), key=lambda sc: (-sc[1], sc[0]))[:MOST_LANDED]),
        biggest_trade=max(trades, key=lambda t: (t.value, -t.seq), default=None),
        trades=len(trades), auctions=tuple(auctions))


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
           "WorthPoint", "game_line", "read", "save", "story_path", "tell"]
