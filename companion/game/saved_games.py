"""The data directory: its lock, the saved games in it and which one is current.

Layout: `DATA_DIR/lock` (held with flock by the one process that writes), `DATA_DIR/current`
(the id of the game to resume) and `DATA_DIR/games/<id>.journal` (one SQLite journal each).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import secrets
import time
from pathlib import Path

from companion.game.journal import (
    SUFFIX,
    JournalError,
    JournalLocked,
    StorageError,
    ack_path,
    storage_message,
)
from companion.game.telling.seen import SUFFIX as SEEN_SUFFIX
from companion.game.telling.teaching import SUFFIX as TEACHING_SUFFIX

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def check_game_id(game_id: str) -> str:
    """The id itself when it is a safe file name; JournalError otherwise."""
    if not _ID.match(game_id):
        raise JournalError(f"{game_id!r} is not a game id (letters, digits, - and _)")
    return game_id


def new_game_id() -> str:
    """A fresh, sortable game id: the UTC time and a short random suffix."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(2)


def games_dir(data_dir: Path) -> Path:
    """Where the journals are."""
    return data_dir / "games"


def journal_path(data_dir: Path, game_id: str) -> Path:
    """The journal file of a game."""
    return games_dir(data_dir) / (check_game_id(game_id) + SUFFIX)


def game_ids(data_dir: Path) -> list[str]:
    """Every saved game's id, oldest first (ids sort by creation time)."""
    folder = games_dir(data_dir)
    if not folder.is_dir():
        return []
    return sorted(p.name[: -len(SUFFIX)] for p in folder.iterdir()
                  if p.name.endswith(SUFFIX) and _ID.match(p.name[: -len(SUFFIX)]))


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def current_game(data_dir: Path) -> str | None:
    """The game to resume: the one named in DATA_DIR/current, else the newest saved one."""
    ids = game_ids(data_dir)
    try:
        named = (data_dir / "current").read_text("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        named = ""
    if named in ids:
        return named
    if not ids:
        return None
    return max(ids, key=lambda i: journal_path(data_dir, i).stat().st_mtime)


def set_current(data_dir: Path, game_id: str) -> None:
    """Make a game the one resumed next time."""
    try:
        if (data_dir / "current").read_text("utf-8").strip() == game_id:
            return
    except (OSError, UnicodeDecodeError):
        pass
    try:
        _atomic_write(data_dir / "current", game_id + "\n")
    except OSError as exc:
        raise StorageError(f"cannot write {data_dir / 'current'}: {storage_message(exc)}") from exc


def delete_game(data_dir: Path, game_id: str) -> None:
    """Remove a saved game's journal (its WAL files, its acknowledgement mark, its
    teaching state and who saw which news). The caller holds the lock."""
    path = journal_path(data_dir, game_id)
    if not path.exists():
        raise JournalError(f"there is no saved game {game_id!r}")
    try:
        lessons = path.with_name(game_id + TEACHING_SUFFIX)  # the teaching table's state
        seen = path.with_name(game_id + SEEN_SUFFIX)  # who saw which news
        for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), ack_path(path), lessons,
                  seen):
            p.unlink(missing_ok=True)
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise StorageError(f"cannot delete {game_id}: {storage_message(exc)}") from exc


class DataDirLock:
    """An exclusive flock on DATA_DIR/lock: one writing process per data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self._fd: int | None = None

    def acquire(self) -> DataDirLock:
        """Take the lock or raise JournalLocked naming the holder; StorageError if unusable."""
        path = self.data_dir / "lock"
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM) or not path.exists():
                raise StorageError(
                    f"cannot use the data directory {self.data_dir}: {storage_message(exc)}"
                ) from exc
            fd = os.open(path, os.O_RDONLY)  # read-only directory: lock without writing
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = ""
            with contextlib.suppress(OSError, ValueError):
                holder = f" (process {int(os.pread(fd, 32, 0).decode().strip())})"
            os.close(fd)
            raise JournalLocked(
                f"the data directory {self.data_dir} is in use by another companion{holder}"
            ) from None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        """Let go of the lock."""
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> DataDirLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
