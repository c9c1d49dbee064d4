"""`companion games`: list the saved games; --resume, --delete, --new, --import SCRIPT; and
`companion backup` / `companion restore`, the saved games into a file and back.

Listing reads the journals without the lock; changing which games exist takes the data
directory's lock, so it is refused while the companion runs. A backup may be taken while a
game is being played (companion.game.backup: SQLite's online backup); a restore needs the
companion stopped, checks every journal of the archive first and moves whatever it replaces
aside, so nothing is lost either way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from companion.app.replay import ScriptError, read_script
from companion.app.script_cli import data_dir_of, import_script
from companion.game.backup import (
    default_folder,
    default_name,
    restore_backup,
    save_backup,
)
from companion.game.journal import JournalError
from companion.game.reading import read_game
from companion.game.saved_games import (
    DataDirLock,
    check_game_id,
    current_game,
    delete_game,
    game_ids,
    journal_path,
    new_game_id,
    set_current,
)
from companion.game.session import GameSession


def summary(data_dir: Path, game_id: str, current: str | None) -> dict[str, Any]:
    """One saved game in a line: players, turn, version, winner, or what is wrong with it."""
    out: dict[str, Any] = {"id": game_id, "current": game_id == current}
    try:
        saved = read_game(data_dir, game_id)
    except JournalError as exc:
        out.update(status="damaged", message=str(exc))
        return out
    try:
        g = saved.state
        last = saved.journal.last_time()
        out.update(status="ok", entries=saved.journal.last_seq(),
                   updated=None if last is None else time.strftime(
                       "%Y-%m-%d %H:%M", time.localtime(last)))
        if g is not None:
            out.update(version=g.version, players=[p.name for p in g.players],
                       turn=g.turn_number,
                       winner=g.players[g.winner].name if g.winner >= 0 else None)
    finally:
        saved.close()
    return out


def _line(item: dict[str, Any]) -> str:
    mark = "*" if item["current"] else " "
    if item["status"] != "ok":
        return f"{mark} {item['id']}  DAMAGED: {item['message']}"
    if "players" not in item:
        return f"{mark} {item['id']}  (no game started)"
    state = f"won by {item['winner']}" if item["winner"] else f"turn {item['turn']}"
    return (f"{mark} {item['id']}  {', '.join(item['players'])}  {state}  "
            f"version {item['version']}  {item['updated']}")


def main(argv: list[str]) -> int:
    """Entry point of `companion games`."""
    parser = argparse.ArgumentParser(prog="companion games", description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=None, help="the data directory")
    parser.add_argument("--json", action="store_true", help="list as JSON")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--resume", metavar="ID", help="make this game the one resumed")
    group.add_argument("--delete", metavar="ID", help="delete this saved game")
    group.add_argument("--new", action="store_true", help="start a new, empty saved game")
    group.add_argument("--import", dest="script", metavar="SCRIPT",
                       help="a new saved game from a table script")
    group.add_argument("--rescue", metavar="ID",
                       help="copy what can be read of a damaged game into a new game")
    parser.add_argument("--id", help="the id for --new, --import or --rescue "
                        "(default: a fresh one)")
    args = parser.parse_args(argv)
    data_dir = data_dir_of(args)
    try:
        if args.resume or args.delete:
            gid = check_game_id(args.resume or args.delete)
            if not journal_path(data_dir, gid).exists():
                raise JournalError(f"there is no saved game {gid!r}")
            with DataDirLock(data_dir):
                if args.resume:
                    set_current(data_dir, gid)
                else:
                    delete_game(data_dir, gid)
            print(f"{'current game' if args.resume else 'deleted'}: {gid}")
            return 0
        if args.rescue:
            from companion.game.rescue import rescue

            done = rescue(data_dir, check_game_id(args.rescue),
                          check_game_id(args.id) if args.id else new_game_id())
            print(f"rescued {done.kept} entries (version {done.version}) into game "
                  f"{done.game_id}; stopped at: {done.stopped}")
            print(f"the damaged file is unchanged; resume the rescued game with "
                  f"`companion games --resume {done.game_id}`")
            return 0
        if args.new or args.script:
            gid = check_game_id(args.id) if args.id else new_game_id()
            if journal_path(data_dir, gid).exists():
                raise JournalError(f"game {gid!r} exists already")
            if args.new:
                GameSession.open(data_dir, gid).close()
                print(gid)
                return 0
            return _import(Path(args.script), data_dir, gid)
    except JournalError as exc:
        print(f"companion games: {exc}", file=sys.stderr)
        return 1
    current = current_game(data_dir)
    items = [summary(data_dir, gid, current) for gid in game_ids(data_dir)]
    if args.json:
        print(json.dumps(items, ensure_ascii=False, indent=1))
    elif not items:
        print(f"no saved games in {data_dir}")
    else:
        for item in items:
            print(_line(item))
    return 0


def _import(script: Path, data_dir: Path, gid: str) -> int:
    try:
        text = sys.stdin.read() if str(script) == "-" else script.read_text("utf-8")
        lines = read_script(text)
    except (OSError, UnicodeDecodeError, ScriptError) as exc:
        print(f"companion games: cannot import {script}: {exc}", file=sys.stderr)
        return 1
    refused = import_script(lines, data_dir, gid)
    for r in refused:
        print(f"refused line {r['line']}: {r['message']} ({r['code']})", file=sys.stderr)
    print(gid)
    return 0


def backup_main(argv: list[str]) -> int:
    """`companion backup`: the saved games (and the table's settings) into a file; by
    default in the data directory's `backups/`, which is writable where the table runs
    (on the card image's read-only root, the folder the command is started in is not)."""
    parser = argparse.ArgumentParser(
        prog="companion backup",
        description="Copy the saved games (and the table's settings) into a file.")
    parser.add_argument("--out", type=Path, help="the backup file, or a folder for it "
                        "(default: companion-backup-DATE-TIME.tar.gz in the data "
                        "directory's backups/ folder)")
    parser.add_argument("--data-dir", type=Path, help="where the games are saved")
    args = parser.parse_args(argv)
    data_dir = data_dir_of(args)
    if not data_dir.is_dir():
        print(f"companion backup: {data_dir} is not a data directory", file=sys.stderr)
        return 2
    target = args.out
    if target is None:
        folder = default_folder(data_dir)
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            print(f"companion backup: cannot make the folder {folder} for the backup "
                  f"({exc.strerror or exc}); name a writable one with --out DIR",
                  file=sys.stderr)
            return 2
        target = folder
    if target.is_dir():
        target = target / default_name()
    if not target.parent.is_dir():
        print(f"companion backup: no folder {target.parent} to write into", file=sys.stderr)
        return 2
    try:
        summary = save_backup(data_dir, target)
    except JournalError as exc:
        print(f"companion backup: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion backup: cannot write {target} ({exc.strerror or exc}); "
              "nothing was written: name a writable folder with --out DIR", file=sys.stderr)
        return 2
    print(f"{target}: {len(summary.games)} game(s) and {len(summary.files)} other file(s)")
    return 0


def restore_main(argv: list[str]) -> int:
    """`companion restore`: a backup put back (the companion stopped); what it replaces is
    kept aside."""
    parser = argparse.ArgumentParser(
        prog="companion restore",
        description="Put a backup back (stop the companion first); replaced files are kept "
        "aside.")
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
