"""Reading saved games without taking the lock (a running companion may be writing them):
the game in force, the commands in force, and the game as a table script."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from companion.game.journal import Entry, Journal, JournalError, source_json
from companion.game.replaying import stacks_of, state_at
from companion.game.saved_games import current_game, journal_path
from companion.rules import GameState


@dataclass
class SavedGame:
    """A saved game read without taking the lock (a running companion may be writing)."""

    game_id: str
    journal: Journal
    state: GameState | None

    def close(self) -> None:
        """Close the journal."""
        self.journal.close()


def read_game(data_dir: Path, game_id: str | None = None) -> SavedGame:
    """Read a saved game (the current one by default) read-only; JournalError if impossible."""
    gid = game_id or current_game(data_dir)
    if gid is None:
        raise JournalError(f"there is no saved game in {data_dir}")
    journal = Journal.open(journal_path(data_dir, gid), readonly=True)
    try:
        stacks_of(journal)  # checks every row
        state = state_at(journal, journal.last_seq())
    except BaseException:
        journal.close()
        raise
    return SavedGame(gid, journal, state)


def effective_commands(journal: Journal) -> list[Entry]:
    """The command entries in force now, in order (undone ones left out, redone ones in,
    the moves a jump back took left out)."""
    stacks = stacks_of(journal)
    by_seq = {e.seq: e for e in journal.entries() if e.kind == "command"}
    return [by_seq[move] for _applied, move in stacks.undo if move in by_seq]


def export_script(journal: Journal) -> str:
    """The game as a table script: the commands in force, device dice and cards written out.

    Each line also carries the source that sent it ("source" is ignored by the engine), so
    an import keeps the record of who did what.
    """
    lines = []
    for entry in effective_commands(journal):
        line = dict(entry.command)
        line["source"] = source_json(entry.source)
        lines.append(json.dumps(line, ensure_ascii=False))
    return "".join(f"{line}\n" for line in lines)


__all__ = ["SavedGame", "read_game", "effective_commands", "export_script"]
