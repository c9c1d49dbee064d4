"""`companion backup [--out FILE] [--data-dir DIR]` and `companion restore FILE`.

A backup may be taken while a game is being played (companion.game.backup: SQLite's online
backup); a restore needs the companion stopped, checks every journal of the archive first and
moves whatever it replaces aside, so nothing is lost either way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.app.script_cli import data_dir_of
from companion.game.backup import default_name, restore_backup, save_backup
from companion.game.journal import JournalError


def main(argv: list[str]) -> int:
    """Make a backup of the saved games (and the table's settings) into a file."""
    parser = argparse.ArgumentParser(prog="companion backup", description=main.__doc__)
    parser.add_argument("--out", type=Path, help="the backup file, or a folder for it "
                        "(default: companion-backup-DATE-TIME.tar.gz here)")
    parser.add_argument("--data-dir", type=Path, help="where the games are saved")
    args = parser.parse_args(argv)
    data_dir = data_dir_of(args)
    if not data_dir.is_dir():
        print(f"companion backup: {data_dir} is not a data directory", file=sys.stderr)
        return 2
    target = args.out or Path(default_name())
    if target.is_dir():
        target = target / default_name()
    if not target.parent.is_dir():
        print(f"companion backup: no folder {target.parent} to write into", file=sys.stderr)
        return 2
    try:
        summary = save_backup(data_dir, target)
    except (JournalError, OSError) as exc:
        print(f"companion backup: {exc}", file=sys.stderr)
        return 2
    print(f"{target}: {len(summary.games)} game(s) and {len(summary.files)} other file(s)")
    return 0


def restore_main(argv: list[str]) -> int:
    """Put a backup back (stop the companion first); replaced files are kept aside."""
    parser = argparse.ArgumentParser(prog="companion restore", description=restore_main.__doc__)
    parser.add_argument("archive", type=Path, help="a file made by `companion backup`")
    parser.add_argument("--data-dir", type=Path, help="where the games are saved")
    args = parser.parse_args(argv)
    try:
        summary, aside = restore_backup(args.archive, data_dir_of(args))
    except (JournalError, OSError) as exc:
        print(f"companion restore: {exc}", file=sys.stderr)
        return 2
    print(f"restored {len(summary.games)} game(s) and {len(summary.files)} other file(s)")
    if aside is not None:
        print(f"the files they replaced are kept in {aside}")
    return 0
