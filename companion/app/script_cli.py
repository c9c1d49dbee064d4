"""Command-line use of the durable game session: `companion replay SCRIPT --data-dir DIR`.

Shared by the `state`, `undo`, `games` and `export` subcommands: opening a data directory
with clear messages instead of tracebacks.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.game.api import Outcome, Source
from companion.game.journal import JournalError, source_from_json
from companion.game.session import GameSession
from companion.paths import default_data_dir, usable_data_dir

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
    """The data directory asked for, or the platform's default; UnusableDataDir (one line,
    printed by `companion`) when it is a file."""
    return usable_data_dir(args.data_dir if args.data_dir is not None else default_data_dir())


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
