"""Backups of a data directory while a game runs, and their restore.

A backup is a gzipped tar: every game's journal copied through SQLite's online backup (a
consistent copy even while the writer commits), its acknowledgement mark made for that copy,
and the data directory's small files (settings, card registry, banker PIN, news marks, the
chart), which are always replaced whole by a rename and so are never read half written. Left
out: the lock, sockets, SQLite's WAL and shared-memory files (the copy holds their rows) and
the phones' cookie secret (a restored table signs new cookies; phones join again). The file is
created readable by its owner only (0600): it holds the banker PIN's hash.
"""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
import tarfile
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from companion.game.journal import ACK_SUFFIX, SUFFIX, JournalError, _ack_line, ack_path

#: the top folder inside every archive: a backup is recognised by it
TOP = "table-companion-backup"
#: file names never put in a backup (the lock, the tap socket, the phones' cookie secret)
LEFT_OUT = frozenset({"lock", "tap.sock", "secret_key"})
#: the data directory's folder of what is kept only to start faster (the phones' compiled
#: page templates, web_remote.template_cache): rebuilt when missing, never backed up
CACHE = "cache"
#: endings never put in a backup: SQLite's side files, temporary files of atomic writes
LEFT_OUT_ENDINGS = ("-wal", "-shm", "-journal", ".tmp")
#: what a backup may hold at the most (a game journal is well under a megabyte an evening)
MAX_MEMBER_BYTES = 256 * 1024 * 1024
#: the data directory's folder `companion backup` writes into unless told otherwise: the
#: data directory is writable wherever the table runs (on the card image's read-only root
#: it is the data partition), the folder the command is started in may not be
BACKUPS = "backups"


class BackupError(JournalError):
    """A backup could not be made, or an archive cannot be restored; the message is for
    people, and nothing was changed."""


@dataclass(frozen=True)
class BackupSummary:
    """What a backup or a restore held: the games (ids) and the other files (paths)."""

    games: tuple[str, ...]
    files: tuple[str, ...]


def default_name(now: float | None = None) -> str:
    """The file name a backup gets unless told otherwise.

    >>> default_name(0.0).startswith("companion-backup-") and default_name(0.0).endswith(".tar.gz")
    True
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    return f"companion-backup-{stamp}.tar.gz"


def default_folder(data_dir: Path) -> Path:
    """Where `companion backup` puts its file unless told otherwise: `data_dir/backups`.

    >>> default_folder(Path("/var/lib/table-companion")).as_posix()
    '/var/lib/table-companion/backups'
    """
    return data_dir / BACKUPS


def _kept(relative: Path) -> bool:
    name = relative.name
    if name.startswith(("companion-backup-", ".backup-")):
        return False  # a backup kept in the data directory is not backed up again
    return name not in LEFT_OUT and not name.endswith(LEFT_OUT_ENDINGS) and \
        not name.endswith(SUFFIX) and not name.endswith(SUFFIX + ACK_SUFFIX)


def _small_files(data_dir: Path) -> Iterator[Path]:
    """The data directory's regular files other than journals, marks and what is left out."""
    for path in sorted(data_dir.rglob("*")):
        relative = path.relative_to(data_dir)
        if path.is_symlink() or not path.is_file() or not _kept(relative):
            continue
        if relative.parts[0].startswith("replaced-") or relative.parts[0] in (BACKUPS, CACHE):
            continue  # what an earlier restore moved aside, the backups and what is only
            # kept to go faster (the compiled page templates) stay here
        yield path


def _copy_journal(source: Path, target: Path) -> tuple[int, int]:
    """SQLite's online backup of one journal into `target`; its last (seq, crc)."""
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=10.0)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot read {source}: {exc}") from exc
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            row = dst.execute(
                "SELECT seq, crc FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"cannot copy {source}: {exc}") from exc
    finally:
        src.close()
    return (0, 0) if row is None else (int(row[0]), int(row[1]))


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes, mtime: float) -> None:
    info = tarfile.TarInfo(f"{TOP}/{name}")
    info.size, info.mode, info.mtime = len(data), 0o600, int(mtime)
    tar.addfile(info, io.BytesIO(data))


def write_backup(data_dir: Path, out: BinaryIO) -> BackupSummary:
    """Write a backup of `data_dir` (running or not) as a gzipped tar to `out`."""
    games_dir = data_dir / "games"
    games: list[str] = []
    files: list[str] = []
    now = time.time()
    with tempfile.TemporaryDirectory(prefix="companion-backup-") as scratch, \
            tarfile.open(fileobj=out, mode="w:gz") as tar:
        for journal in sorted(games_dir.glob(f"*{SUFFIX}")) if games_dir.is_dir() else []:
            copy = Path(scratch) / journal.name
            seq, crc = _copy_journal(journal, copy)
            _add_bytes(tar, f"games/{journal.name}", copy.read_bytes(), now)
            _add_bytes(tar, f"games/{ack_path(journal).name}", _ack_line(seq, crc), now)
            copy.unlink()
            games.append(journal.name[: -len(SUFFIX)])
        for path in _small_files(data_dir):
            relative = path.relative_to(data_dir).as_posix()
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise BackupError(f"cannot read {path}: {exc.strerror or exc}") from exc
            _add_bytes(tar, relative, data, path.stat().st_mtime)
            files.append(relative)
    return BackupSummary(tuple(games), tuple(files))


def save_backup(data_dir: Path, target: Path) -> BackupSummary:
    """A backup into the file `target` (0600), written whole or not at all."""
    fd, temp = tempfile.mkstemp(prefix=".backup-", dir=target.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as out:
            summary = write_backup(data_dir, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return summary


def _members(archive: Path) -> list[tuple[tarfile.TarInfo, bytes]]:
    """The archive's files, checked: all under TOP, relative, plain files, not too large."""
    try:
        with tarfile.open(archive, mode="r:gz") as tar:
            members = []
            for info in tar.getmembers():
                parts = Path(info.name).parts
                if info.isdir() and parts == (TOP,):
                    continue
                if not info.isfile() or len(parts) < 2 or parts[0] != TOP or \
                        any(p in ("..", "") for p in parts) or Path(info.name).is_absolute():
                    raise BackupError(f"{archive} is not a companion backup "
                                      f"(unexpected entry {info.name!r})")
                if info.size > MAX_MEMBER_BYTES:
                    raise BackupError(f"{archive}: {info.name} is too large to be ours")
                extracted = tar.extractfile(info)
                assert extracted is not None
                members.append((info, extracted.read()))
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        raise BackupError(f"{archive} cannot be read as a backup: {exc}") from exc
    if not members:
        raise BackupError(f"{archive} is not a companion backup (it is empty)")
    return members


def _check_journal(name: str, data: bytes, scratch: Path) -> None:
    """Every row of a backed-up journal reads and its CRC holds, and its mark agrees."""
    from companion.game.journal import Journal

    path = scratch / Path(name).name
    path.write_bytes(data)
    try:
        journal = Journal.open(path, readonly=True)
    except JournalError as exc:
        raise BackupError(f"the backup's {name} is damaged: {exc}") from exc
    try:
        for _entry in journal.entries():
            pass
    except JournalError as exc:
        raise BackupError(f"the backup's {name} is damaged: {exc}") from exc
    finally:
        journal.close()


def restore_backup(archive: Path, data_dir: Path) -> tuple[BackupSummary, Path | None]:
    """Put a backup's files into `data_dir` (the companion must not be running there).

    Every journal of the archive is checked first; a file the restore would replace is
    moved into `data_dir/replaced-<time>/` (returned), so nothing on the table is lost.
    """
    from companion.game.saved_games import DataDirLock

    members = _members(archive)
    with tempfile.TemporaryDirectory(prefix="companion-restore-") as scratch:
        for info, data in members:
            name = info.name.split("/", 1)[1]
            if name.endswith(SUFFIX):
                _check_journal(name, data, Path(scratch))
    with DataDirLock(data_dir):
        aside = data_dir / time.strftime("replaced-%Y%m%d-%H%M%S")
        moved = False
        games, files = [], []
        for info, data in members:
            name = info.name.split("/", 1)[1]
            target = data_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            for old in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
                if old.exists():
                    keep = aside / old.relative_to(data_dir)
                    keep.parent.mkdir(parents=True, exist_ok=True)
                    shutil.move(old, keep)
                    moved = True
            temp = target.with_name(f".{target.name}.restore")
            temp.write_bytes(data)
            os.chmod(temp, 0o600 if target.name in ("banker.json",) else 0o644)
            os.replace(temp, target)
            if name.endswith(SUFFIX):
                games.append(Path(name).name[: -len(SUFFIX)])
            elif not name.endswith(ACK_SUFFIX):
                files.append(name)
        for folder in {p.parent for p in data_dir.rglob("*") if p.is_file()}:
            fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    return BackupSummary(tuple(games), tuple(files)), aside if moved else None
