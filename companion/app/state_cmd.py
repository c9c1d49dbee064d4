"""`companion state [--data-dir DIR] [--game ID] [--json]`: the saved game's table.

Reads the journal without taking the data directory's lock, so it also works while the
companion is running.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.app.script_cli import add_common, data_dir_of
from companion.game.applying import state_json
from companion.game.journal import JournalError
from companion.game.reading import read_game
from companion.words.table_text import render_table


def main(argv: list[str]) -> int:
    """Entry point of `companion state`."""
    parser = argparse.ArgumentParser(prog="companion state", description=__doc__)
    add_common(parser)
    parser.add_argument("--json", action="store_true",
                        help="print the state JSON (docs/state-json.md)")
    args = parser.parse_args(argv)
    try:
        saved = read_game(data_dir_of(args), args.game)
    except JournalError as exc:
        print(f"companion state: {exc}", file=sys.stderr)
        return 1
    try:
        if saved.state is None:
            print(f"companion state: game {saved.game_id} has not started (no new_game yet)",
                  file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps(state_json(saved.state), ensure_ascii=False, indent=1))
        else:
            print(f"game {saved.game_id}")
            print(render_table(saved.state))
    finally:
        saved.close()
    return 0
