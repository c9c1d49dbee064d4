"""The saved game's journal rows checked against their CRCs in a child process while
`companion run` imports the rest of its start.

Opening a game checks every row (damage anywhere is reported before the first move, not
when someone scrolls the history); on a 10 000-move game that is tens of milliseconds of
Python. A thread would share the start's one GIL (tried: slower), and a fork makes the
parent pay a copy for every page it touches while the child lives, so the check runs in a
fresh `python -m companion.app.row_check JOURNAL` started before the heavy imports, side by
side on another core; the session then takes the child's word for those rows
(`GameSession.open(checked=...)`) and checks only rows written since. Whatever goes wrong
in the child only means the session checks every row itself, as it does without this.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.game.journal import (
    Journal,
    JournalCorrupt,
    JournalError,
    lost_journals,
    storage_message,
)
from companion.game.pins import PIN_FILE, pin_file_problem
from companion.game.saved_games import current_game, games_dir, journal_path
from companion.paths import data_dir_problem


def start_problem(data_dir: Path) -> str | None:
    """Why `companion run` must not start on `data_dir` (one line saying what to do), or
    None: the data directory is a directory it can use, no game's journal is gone while its
    acknowledgement mark says moves were made, and the banker PIN file and the phones' seats
    file, when there are, are sound (a damaged one would leave the banker's or a player's
    seat open). Changes no file but
    creating a missing data directory; a damaged journal is found when it is opened."""
    problem = data_dir_problem(data_dir)
    if problem is not None:
        return problem
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot use the data directory {data_dir}: {storage_message(exc)}"
    try:
        lost_journals(games_dir(data_dir))
    except JournalError as exc:
        return str(exc)
    from web_remote.security import SEATS_FILE, seats_file_problem  # not in the row child

    return pin_file_problem(data_dir / PIN_FILE) or seats_file_problem(data_dir / SEATS_FILE)


class RowCheck:
    """A child checking the rows of `data_dir`'s current game (`game_id`: which one)."""

    def __init__(self, data_dir: Path) -> None:
        self.game_id = current_game(data_dir) if data_dir.is_dir() else None
        self._child: subprocess.Popen[bytes] | None = None
        if self.game_id is None:
            return
        path = journal_path(data_dir, self.game_id)
        if not path.exists():
            return
        try:
            self._child = subprocess.Popen(
                [sys.executable, "-m", "companion.app.row_check", str(path)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError:  # no memory or processes left for it: the session checks every row
            self._child = None

    def checked(self) -> int:
        """The last row the child found sound (0: none, the session checks every row);
        JournalCorrupt with the child's words when a row is damaged."""
        if self._child is None:
            return 0
        said, _ = self._child.communicate()
        self._child = None
        word, _, rest = said.decode("utf-8", "replace").strip().partition(" ")
        if word == "damaged":
            raise JournalCorrupt(rest)
        return int(rest) if word == "ok" and rest.isdigit() else 0

    def close(self) -> None:
        """Stop and reap the child when the start ends before taking its word."""
        if self._child is not None:
            self._child.kill()
            self._child.communicate()
            self._child = None


def _check(path: Path) -> str:
    """"ok N" when rows 1..N are sound, "damaged <why>", or "unknown" (the session checks)."""
    try:
        journal = Journal.open(path, readonly=True)
        try:
            rows = journal.scan()
        finally:
            journal.close()
    except JournalCorrupt as exc:
        return f"damaged {exc}"
    except BaseException:  # noqa: BLE001 - anything else: let the session find out itself
        return "unknown"
    return f"ok {rows[-1][0] if rows else 0}"


if __name__ == "__main__":  # the child: one line on stdout
    print(_check(Path(sys.argv[1])))
