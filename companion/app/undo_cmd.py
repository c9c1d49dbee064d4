"""`companion undo [--redo] [--data-dir DIR] [--game ID]`: undo (or redo) with the banker's
authority from the keyboard. Journaled like any undo; needs the data directory's lock, so it
is refused while the companion runs (use the UNDO button or a phone then).
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.app.script_cli import KEYBOARD, add_common, data_dir_of, open_or_report


def main(argv: list[str]) -> int:
    """Entry point of `companion undo`."""
    parser = argparse.ArgumentParser(prog="companion undo", description=__doc__)
    add_common(parser)
    parser.add_argument("--redo", action="store_true", help="redo the last undone command")
    args = parser.parse_args(argv)
    session = open_or_report("companion undo", data_dir_of(args), args.game)
    if session is None:
        return 1
    with session:
        outcome = session.redo(KEYBOARD) if args.redo else session.undo(KEYBOARD)
    what = "redone" if args.redo else "undone"
    if not outcome.accepted:
        print(f"companion undo: {outcome.message} ({outcome.code})", file=sys.stderr)
        return 1
    command = outcome.events[0].get("command") if outcome.events else None
    print(f"{what}: {json.dumps(command, ensure_ascii=False)} (now version {outcome.version})")
    return 0
