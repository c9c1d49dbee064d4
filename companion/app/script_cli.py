"""Command-line use of the durable game session: `companion replay SCRIPT --data-dir DIR`.

Shared by the `state`, `undo`, `games` and `export` subcommands: opening a data directory
with clear messages instead of tracebacks.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.game.api import Outcome, Source
from companion.game.journal import Entry, Journal, JournalError, source_from_json, source_json
from companion.game.replaying import stacks_of, state_at
from companion.game.saved_games import current_game, journal_path
from companion.game.session import GameSession
from companion.paths import default_data_dir
from companion.rules import GameState

#: the authority of a script or the keyboard: the person at the console is the banker
SCRIPT = Source(kind="script", banker=True)
KEYBOARD = Source(kind="keyboard", banker=True)


def outcome_line(line: int, outcome: Outcome) -> dict[str, Any]:
    """The one JSON line printed for a settled script line."""
    if outcome.accepted:
        return {"line": line, "ok": True, "version": outcome.version}
    return {"line": line, "ok": False, "code": outcome.code, "message": outcome.message}


def open_or_report(prog: str, data_dir: Path, game_id: str | None = None) -> GameSession | None:
    """Open the session, or print why not (stderr) and return None."""
    try:
        return GameSession.open(data_dir, game_id)
    except JournalError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None


def replay_durably(lines: list[tuple[int, dict[str, Any]]], data_dir: Path,
                   game_id: str | None = None) -> int:
    """Apply script lines to the saved game, one stdout line per script line once settled.

    A line is printed (and flushed) only after it is committed to the journal or refused,
    so whatever a reader saw survives a crash. Exit status 0, or 1 if the game cannot be
    opened.
    """
    session = open_or_report("companion replay", data_dir, game_id)
    if session is None:
        return 1
    with session:
        for number, command in lines:
            outcome = session.submit(command, SCRIPT)
            sys.stdout.write(json.dumps(outcome_line(number, outcome), ensure_ascii=False)
                             + "\n")
            sys.stdout.flush()
    return 0


def add_common(parser: argparse.ArgumentParser) -> None:
    """--data-dir and --game, shared by the session subcommands."""
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="the data directory (default: $COMPANION_DATA_DIR or XDG data)")
    parser.add_argument("--game", help="the saved game's id (default: the current game)")


def data_dir_of(args: argparse.Namespace) -> Path:
    """The data directory asked for, or the platform's default."""
    return args.data_dir if args.data_dir is not None else default_data_dir()


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
    """The command entries in force now, in order (undone ones left out, redone ones in)."""
    in_force: list[Entry] = []
    by_seq: dict[int, Entry] = {}
    for entry in journal.entries():
        if entry.kind == "command":
            by_seq[entry.seq] = entry
            in_force.append(entry)
        elif entry.kind == "undo":
            in_force.pop()
        elif entry.kind == "redo" and entry.target is not None:
            in_force.append(by_seq[entry.target])
    return in_force


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


def import_script(lines: list[tuple[int, dict[str, Any]]], data_dir: Path,
                  game_id: str) -> list[dict[str, Any]]:
    """Create a new saved game from a table script; the refused lines (nothing else)."""
    refused = []
    with GameSession.open(data_dir, game_id) as session:
        if session.version:
            raise JournalError(f"game {game_id!r} exists already")
        for number, command in lines:
            try:
                source = source_from_json(command["source"]) if "source" in command else SCRIPT
            except ValueError:
                source = SCRIPT
            outcome = session.submit(command, source)
            if not outcome.accepted:
                refused.append(outcome_line(number, outcome))
    return refused
