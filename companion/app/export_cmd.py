"""`companion export [--data-dir DIR] [--game ID] [-o FILE]`: the saved game as a table script.

The commands in force (undone ones left out), with the device's dice and cards written out
and each line's source; `companion games --import FILE` makes a new saved game from it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.app.script_cli import add_common, data_dir_of
from companion.game.journal import JournalError
from companion.game.reading import export_script, read_game


def main(argv: list[str]) -> int:
    """Entry point of `companion export`."""
    parser = argparse.ArgumentParser(prog="companion export", description=__doc__)
    add_common(parser)
    parser.add_argument("-o", "--output", type=Path, help="write to this file, not stdout")
    args = parser.parse_args(argv)
    try:
        saved = read_game(data_dir_of(args), args.game)
        try:
            text = export_script(saved.journal)
        finally:
            saved.close()
    except JournalError as exc:
        print(f"companion export: {exc}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"companion export: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return 1
    return 0
