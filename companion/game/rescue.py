"""Rescue a damaged journal: copy its sound prefix into a new saved game.

The damaged file is only read, never changed; the new game holds every entry up to the
first one that cannot be read, fails its checksum or no longer replays: the last good state.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from companion.game.journal import Entry, Journal, JournalError
from companion.game.replaying import (
    UNDO_TO,
    Stacks,
    needs_snapshot,
    snapshot_of,
    step,
    with_version,
)
from companion.game.saved_games import DataDirLock, journal_path
from companion.rules import GameState


@dataclass(frozen=True)
class Rescue:
    """What a rescue kept: the new game's id, how many entries, and why it stopped."""

    game_id: str
    kept: int
    version: int
    stopped: str


def _read_prefix(path: Path) -> tuple[list[Entry], str]:
    """The readable, checksummed entries from the start, and why reading stopped."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return [], f"cannot open: {exc}"
    reader = Journal(path, conn, readonly=True)
    out: list[Entry] = []
    try:
        while True:
            seq = len(out) + 1
            try:
                found = list(reader.entries(after=seq - 1, upto=seq))
            except JournalError as exc:
                return out, str(exc)
            if not found:
                return out, f"no entry {seq}: the end of the readable journal"
            out.append(found[0])
    finally:
        conn.close()


def _known(state: GameState | None) -> GameState:
    """A state a jump back returns to (there is always a game by then)."""
    if state is None:
        raise JournalError("a jump back to before the first game")
    return state


def rescue(data_dir: Path, game_id: str, new_id: str) -> Rescue:
    """Copy the sound prefix of a damaged game into a new saved game `new_id`."""
    source = journal_path(data_dir, game_id)
    if not source.exists():
        raise JournalError(f"there is no saved game {game_id!r}")
    target = journal_path(data_dir, new_id)
    with DataDirLock(data_dir):
        if target.exists():
            raise JournalError(f"game {new_id!r} exists already")
        entries, stopped = _read_prefix(source)
        states: list[GameState | None] = [None]
        stacks = Stacks()
        good: list[tuple[Entry, GameState]] = []
        for entry in entries:
            try:
                if entry.kind == "undo":
                    applied = stacks.undo[-1][0]
                    before = states[applied - 1]
                    if before is None:
                        raise JournalError("undo of the first game")
                    after = with_version(before, entry.version)
                elif entry.kind == "undo_to":
                    at = stacks.position(int(entry.target or 0))
                    if at is None:
                        raise JournalError("a jump back to a move not in force")
                    after = with_version(_known(states[stacks.undo[at][0]]), entry.version)
                elif entry.kind == "redo" and entry.command.get("do") == UNDO_TO:
                    after = with_version(_known(states[int(entry.target or 0)]),
                                         entry.version)
                else:
                    after = step(states[-1], entry)
                stacks.record(entry.seq, entry.kind, entry.target)
            except (JournalError, IndexError) as exc:
                stopped = f"entry {entry.seq} does not replay: {exc}"
                break
            states.append(after)
            good.append((entry, after))
        if not good:
            raise JournalError(f"nothing of {game_id} can be read ({stopped}); "
                               "the file is left as it is")
        journal = Journal.create(target, new_id)
        try:
            last_snapshot = 0
            for entry, after in good:
                snap = None
                if needs_snapshot(entry, last_snapshot):
                    snap = snapshot_of(after)
                    last_snapshot = entry.seq
                journal.append(entry, snap)
        finally:
            journal.close()
    return Rescue(new_id, len(good), good[-1][1].version, stopped)
