"""The SQLite journal of one saved game: every accepted command, undo and redo, in order.

One file per game (`DATA_DIR/games/<id>.journal`), WAL mode with `synchronous=FULL` on every
connection, so a row is on the storage before anyone is told about it. Every row carries a
CRC so that a damaged file is reported instead of silently replayed. See docs/session.md.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.game.api import Source
from companion.rules.events import Events, events_from_json, events_json

log = logging.getLogger(__name__)

JSON = dict[str, Any]
#: 2: rows may also be "undo_to" (the banker's jump back); a version 1 journal is moved to
#: version 2 in the transaction of its first such row, so it stays readable by older
#: companions until the feature is used
SCHEMA_VERSION = 2
_READABLE_VERSIONS = ("1", "2")
SUFFIX = ".journal"

_ENTRIES = """
CREATE TABLE {name} (
    seq INTEGER PRIMARY KEY,
    time REAL NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('command', 'undo', 'redo', 'undo_to')),
    target INTEGER,
    source TEXT NOT NULL,
    command TEXT NOT NULL,
    events TEXT NOT NULL,
    version INTEGER NOT NULL,
    rng TEXT,
    crc INTEGER NOT NULL
);
"""
_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
""" + _ENTRIES.format(name="entries") + """
CREATE TABLE snapshots (seq INTEGER PRIMARY KEY, state BLOB NOT NULL, crc INTEGER NOT NULL);
"""


_INSERT_ENTRY = "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
#: the newest entries a journal keeps parsed once read (`Journal.entries`): the Table
#: page's latest moves and the latest page of History (up to 200 entries for a player's
#: page) are read after every move; about 1 KB each
RECENT_ENTRIES = 256

#: the row kinds a version 1 journal accepts
_V1_KINDS = ("command", "undo", "redo")

#: rows between two checkpoints of the WAL into the journal file, which the session's
#: writer runs once a change is answered and shown (`Journal.checkpoint`): SQLite's own
#: automatic checkpoint (every 1 000 WAL pages, about 850 moves) is off on the writing
#: connection, since it ran inside the committing row, between a press and its first frame
#: (0.5-0.9 ms of CPU once, issue 28); 500 rows keep the WAL below the size SQLite's would
CHECKPOINT_ROWS = 500
#: after a checkpoint that could not copy every page (a reader held an older snapshot):
#: rows until it is tried again
CHECKPOINT_RETRY_ROWS = 50
#: rows after which `append` checkpoints by itself, for a writer that never calls
#: `checkpoint` (a rescue copying a game): the WAL never grows without bound
CHECKPOINT_INLINE_ROWS = 4 * CHECKPOINT_ROWS
#: bytes of the WAL file written (zeros past SQLite's last frame) once per WAL, when the
#: session's writer starts (`Journal.ready_for_rows`), else after the first answered change
#: (`Journal.checkpoint`): a row then overwrites blocks the file has
#: instead of growing it, and its fdatasync writes no new size (an inode write and one more
#: I/O inside a press's window for every row of the first CHECKPOINT_ROWS after a start,
#: issue 28). 500 rows of about 4.7 KB fit; SQLite reads frames only up to the first whose
#: salt and checksum fail, so zeros past the last frame are never taken for one
WAL_ROOM = 4 << 20
#: the room is written a page of zeros at a time, this many pages to a system call
ROOM_PAGE = 4096
ROOM_PAGES_A_WRITE = 64
_ZEROS = bytes(ROOM_PAGE)
#: the `meta` key whose value (the time) is written to begin an empty WAL outside a press
#: (`Journal.ready_for_rows`, after a checkpoint); nothing reads it
WAL_BEGUN = "wal_begun"
#: the free space a disk must have for the WAL to be given its room (8 times the room):
#: on a fuller disk the rows grow the file as before and the space stays free for them
WAL_ROOM_FREE = 8 * WAL_ROOM


class JournalError(Exception):
    """Something is wrong with the saved games; the message is for people."""


class JournalCorrupt(JournalError):
    """A journal file is damaged or truncated: it is left untouched and not replayed."""


class JournalLocked(JournalError):
    """Another process has the data directory open."""


class StorageError(JournalError):
    """Writing failed (full disk, read-only directory, I/O error): nothing was saved."""


class JournalIncomplete(JournalCorrupt):
    """The journal ends before a move that was acknowledged (its acknowledgement mark says
    so): acknowledged moves are missing. The file is left untouched; rescue what remains."""


class JournalBroken(JournalError):
    """The journal can no longer promise durability (its WAL file vanished, the
    acknowledgement mark cannot be written): nothing more is acknowledged."""


#: the acknowledgement mark beside each journal: the last acknowledged seq and its row's CRC,
#: kept apart from SQLite's WAL so that a lost or damaged WAL cannot hide a lost move
ACK_SUFFIX = ".ack"
_ACK_SIZE = 64


def ack_path(path: Path) -> Path:
    """Where a journal's acknowledgement mark is kept."""
    return path.with_name(path.name + ACK_SUFFIX)


def _ack_line(seq: int, crc: int) -> bytes:
    body = f"{seq} {crc}"
    return f"{body} {zlib.crc32(body.encode())}\n".encode().ljust(_ACK_SIZE, b" ")


def read_ack(path: Path) -> tuple[int, int] | None:
    """The acknowledged (seq, crc) of a journal, or None without a readable mark."""
    try:
        raw = ack_path(path).read_bytes()
    except OSError:
        return None
    parts = raw.decode("ascii", "replace").split()
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    seq, crc, check = (int(p) for p in parts)
    if zlib.crc32(f"{seq} {crc}".encode()) != check:
        return None  # a torn mark: the journal itself decides
    return seq, crc


def lost_journals(folder: Path) -> None:
    """JournalIncomplete when a game's acknowledgement mark is in `folder` but its journal
    is not (deleted, or lost with its directory entry): acknowledged moves would vanish
    without a word, the start making a new game at version 0. Nothing is touched."""
    try:
        marks = sorted(folder.glob("*" + SUFFIX + ACK_SUFFIX))
    except OSError:
        return
    for mark_file in marks:
        journal = mark_file.with_name(mark_file.name[: -len(ACK_SUFFIX)])
        mark = read_ack(journal)
        if journal.exists() or (mark is not None and mark[0] == 0):
            continue  # a journal to check, or a game that never acknowledged a move
        game = journal.name[: -len(SUFFIX)]
        count = "some" if mark is None else str(mark[0])  # a torn mark: moves were made
        raise JournalIncomplete(
            f"the saved game {game} had {count} acknowledged moves but its journal "
            f"{journal} is gone; nothing was changed. Put the journal back (from a backup; "
            f"'companion games --rescue {game}' if it is damaged), or give the game up by "
            f"deleting {mark_file}")


@dataclass(frozen=True)
class Entry:
    """One journal row: a command as resolved by the engine, an undo / redo of one, or the
    banker's jump back to an earlier row ("undo_to", companion.game.going_back).

    command: the command as applied (device dice and cards filled in); for undo and redo the
    command undone or redone; for undo_to {"do": "undo_to", "seq": target}. target: the seq
    of that command row (undo / redo), the row gone back to (undo_to).
    events: what happened, typed (companion.rules.events); the row keeps their JSON form.
    rng: the engine's generator after the row when the row moved it (device dice).
    """

    seq: int
    time: float
    kind: str
    target: int | None
    source: Source
    command: JSON
    events: Events = field(default_factory=list)
    version: int = 0
    rng: int | None = None
    #: the events' JSON form once made (the journal's row and the listeners share it)
    _events_json: list[JSON] | None = field(default=None, init=False, compare=False,
                                            repr=False)
    #: the row's text from its command on (`row_text`, `written_as`)
    _text: RowText | None = field(default=None, init=False, compare=False, repr=False)

    def events_json(self) -> list[JSON]:
        """The events in their JSON form, as the journal keeps them and listeners get them
        (made once per entry: the writer's row and its listeners' news read the same)."""
        made = self._events_json
        if made is None:
            made = events_json(self.events)
            object.__setattr__(self, "_events_json", made)
        return made

    def row_text(self) -> RowText:
        """The journal row's text of this entry from its command on (made once, or given
        by `written_as`)."""
        made = self._text
        if made is None:
            made = row_text(self.command, self.events_json(), self.version, self.rng)
            object.__setattr__(self, "_text", made)
        return made

    def written_as(self, text: RowText) -> None:
        """This entry's row text made ahead (companion.game.ahead: the forecast of the very
        command at the very state, so the same command, events, version and generator);
        its events' JSON form becomes this entry's. Before the entry is journaled or told."""
        if text.version != self.version or (self.rng is None) != (text.rng is None):
            raise ValueError(f"entry {self.seq}: the row text is not its own")
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_events_json", text.events_json)

    def to_json(self) -> JSON:
        """The entry as shown in the history (phones, export)."""
        return {"seq": self.seq, "time": self.time, "kind": self.kind, "target": self.target,
                "source": source_json(self.source), "command": self.command,
                "events": self.events_json(), "version": self.version}


def source_json(source: Source) -> JSON:
    """A Source as a JSON object."""
    return {"kind": source.kind, "player": source.player, "banker": source.banker}


def source_from_json(data: Any) -> Source:
    """A Source back from `source_json`; raises ValueError when malformed."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise ValueError("malformed source")
    player = data.get("player")
    return Source(data["kind"], player if isinstance(player, str) else None,
                  bool(data.get("banker", False)))


#: the rows' JSON form, made once: `json.dumps` with options builds an encoder per call
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _dumps(value: Any) -> str:
    return _ENCODE(value)


@functools.lru_cache(maxsize=64)
def _source_text(source: Source) -> str:
    """A Source's JSON text, as the rows keep it (a table has a handful of sources)."""
    return _dumps(source_json(source))


def _row_crc(seq: int, t: float, kind: str, target: int | None, source: str, command: str,
             events: str, version: int, rng: str | None) -> int:
    text = f"{seq}|{t!r}|{kind}|{target}|{source}|{command}|{events}|{version}|{rng}"
    return zlib.crc32(text.encode("utf-8"))


@dataclass(frozen=True)
class RowText:
    """What of a row's text its entry fixes before the row is written (its command's and
    events' JSON, its version and generator), with the CRC's part over them: a row worked
    out ahead of its commit (companion.game.ahead) is written from it, and every row goes
    through it, so a row is the same text whether or not it was made ahead. The seq, the
    time and the source are known at the commit only (`Journal.append`).

    `tail` is the UTF-8 of the CRC's text from the command on (`_row_crc`'s text is
    `head + tail`, head = "seq|time|kind|target|source"): zlib.crc32 is incremental, so the
    row's CRC is crc32(tail, crc32(head)), the same number as `_row_crc`'s."""

    command: str
    events: str
    version: int
    rng: str | None
    tail: bytes
    #: the events' JSON form the texts were made from (the entry's, shared with listeners)
    events_json: list[JSON]


def row_text(command: JSON, events_json: list[JSON], version: int,
             rng: int | None) -> RowText:
    """The row text of an entry's command, events (JSON form), version and generator."""
    command_text = _dumps(command)
    events_text = _dumps(events_json)
    rng_text = None if rng is None else str(rng)
    tail = f"|{command_text}|{events_text}|{version}|{rng_text}".encode()
    return RowText(command_text, events_text, version, rng_text, tail, events_json)


def command_text(command: JSON) -> str:
    """A command's JSON text as a row keeps it."""
    return _dumps(command)


def _row_crc_of(seq: int, t: float, kind: str, target: int | None, source: str,
                text: RowText) -> int:
    """`_row_crc` of a row whose text from the command on is `text` (its CRC part)."""
    return zlib.crc32(text.tail, zlib.crc32(f"{seq}|{t!r}|{kind}|{target}|{source}".encode()))


def _row_crc_bytes(seq: int, t: float, kind: bytes, target: int | None, source: bytes,
                   command: bytes, events: bytes, version: int, rng: bytes | None) -> int:
    """`_row_crc` of a row read with its text as bytes (the same bytes are summed)."""
    text = b"%d|%b|%b|%b|%b|%b|%b|%d|%b" % (
        seq, repr(t).encode(), kind, b"None" if target is None else b"%d" % target, source,
        command, events, version, b"None" if rng is None else rng)
    return zlib.crc32(text)


def storage_message(exc: BaseException) -> str:
    """A short human reason for a failed write."""
    text = str(exc).lower()
    if "full" in text or getattr(exc, "errno", None) == 28:
        return "the data directory is full"
    if "readonly" in text or "read-only" in text or getattr(exc, "errno", None) in (13, 30):
        return "the data directory is read-only"
    if "i/o" in text:
        return "the storage failed (I/O error)"
    return f"the storage failed ({exc})"


def _is_corruption(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text or "corrupt" in text


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    """A connection with the journal's pragmas (WAL, synchronous=FULL) set. Read-only and
    without a WAL file beside it, the file is opened immutable: reading makes no empty WAL
    (a journal refused at the start is left exactly as it was)."""
    uri = f"file:{path}?mode={'ro' if readonly else 'rw'}"
    if readonly and not os.path.exists(f"{path}-wal"):
        uri = f"file:{path}?immutable=1"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                           timeout=5.0)
    try:
        if not readonly:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"{path}: cannot use WAL mode ({mode})")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA cell_size_check=ON")
    except BaseException:
        conn.close()
        raise
    return conn


def _connect_readonly_anyhow(path: Path) -> sqlite3.Connection:
    """Read a WAL journal in a read-only directory (where -shm cannot be created)."""
    try:
        return _connect(path, readonly=True)
    except sqlite3.Error:
        conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True, isolation_level=None,
                               check_same_thread=False)
        return conn


class Journal:
    """One game's journal file; thread-safe (one lock around the one connection)."""

    def __init__(self, path: Path, conn: sqlite3.Connection, readonly: bool) -> None:
        self.path = path
        self.readonly = readonly
        self._conn = conn
        self._lock = threading.Lock()
        #: why writing is impossible when the file could only be opened read-only
        self.readonly_reason: str | None = None
        #: for tests and the bench: a hook run before each row is committed (inside the
        #: write transaction before COMMIT, or before a lone row's one statement)
        self.before_commit: Any = None
        #: why nothing more can be acknowledged (JournalBroken), or None
        self.broken: str | None = None
        self._ack_fd: int | None = None
        #: the (seq, crc) of the row committed with `append(..., mark=False)` whose
        #: acknowledgement mark is still to be written (`mark`), or None
        self._unmarked: tuple[int, int] | None = None
        self._wal: tuple[int, int] | None = None
        #: rows committed since the last checkpoint of the WAL (`checkpoint`)
        self._unchecked = 0
        #: the WAL file (device, inode) given WAL_ROOM bytes already (`_make_room`)
        self._roomy: tuple[int, int] | None = None
        #: the newest entries read (`entries`), parsed and checked once: after every move
        #: the phones' pages read the latest ones again (the Table page's 12, the latest
        #: page of History's), and a row never changes once written (issue 28)
        self._recent: dict[int, Entry] = {}
        #: the newest entry's seq once read, then kept by `append` (every row of a
        #: writable journal is written through it); None: read it
        self._last: int | None = None

    # --- opening -------------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, game_id: str) -> Journal:
        """Create a new empty journal atomically (a temporary file renamed into place)."""
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            for stale in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                stale.unlink(missing_ok=True)
            conn = sqlite3.connect(str(tmp), isolation_level=None)
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=FULL")
                conn.executescript(_SCHEMA)  # a temporary file: atomicity comes from rename
                conn.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("schema_version", str(SCHEMA_VERSION)), ("game_id", game_id),
                    ("created", repr(time.time())),
                ])
            finally:
                conn.close()
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            if path.exists():
                tmp.unlink()
                raise JournalError(f"game {game_id!r} exists already")
            ack_path(path).unlink(missing_ok=True)  # a deleted game's mark is not this one's
            os.rename(tmp, path)
            _fsync_dir(path.parent)
        except sqlite3.Error as exc:
            raise StorageError(f"cannot create {path}: {storage_message(exc)}") from exc
        except OSError as exc:
            raise StorageError(f"cannot create {path}: {storage_message(exc)}") from exc
        return cls.open(path)

    @classmethod
    def open(cls, path: Path, readonly: bool = False) -> Journal:
        """Open an existing journal; JournalCorrupt when it is not a sound journal file."""
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            raise JournalError(f"{path}: no such saved game") from None
        if size == 0:
            raise JournalCorrupt(f"{path} is empty (truncated): the journal is damaged")
        reason = None
        if not readonly:
            cls._probe(path)  # a damaged journal is found read-only, and never written to
        try:
            conn = _connect(path, readonly)
        except sqlite3.Error as exc:
            if _is_corruption(exc):
                raise JournalCorrupt(f"{path} is damaged: {exc}") from exc
            if readonly or os.access(path.parent, os.W_OK):
                raise StorageError(f"cannot open {path}: {storage_message(exc)}") from exc
            # a read-only directory: show the game, refuse every change
            conn = _connect_readonly_anyhow(path)
            reason = "the data directory is read-only"
            readonly = True
        journal = cls(path, conn, readonly)
        journal.readonly_reason = reason
        try:
            journal._check_schema()
            journal._check_acknowledged()
            if not readonly:
                journal._open_ack()
                # the WAL is checkpointed after a change is shown, not inside its commit
                conn.execute("PRAGMA wal_autocheckpoint=0")
        except BaseException:
            conn.close()
            raise
        return journal

    @classmethod
    def _probe(cls, path: Path) -> None:
        """Check the schema and the acknowledgement mark over a read-only connection."""
        try:
            conn = _connect(path, readonly=True)
        except sqlite3.Error:
            return  # the read-write open says what is wrong
        try:
            probe = cls(path, conn, readonly=True)
            probe._check_schema()
            probe._check_acknowledged()
        finally:
            conn.close()

    def _row_crc_at(self, seq: int) -> int | None:
        row = self._conn.execute("SELECT crc FROM entries WHERE seq=?", (seq,)).fetchone()
        return None if row is None else int(row[0])

    def _check_acknowledged(self) -> None:
        """JournalIncomplete when the journal ends before its last acknowledged move."""
        mark = read_ack(self.path)
        if mark is None or mark[0] == 0:
            return
        seq, crc = mark
        try:
            last = self._newest_seq()
            found = self._row_crc_at(seq)
        except sqlite3.Error as exc:
            raise JournalCorrupt(f"{self.path} is damaged: {exc}") from exc
        if last < seq or found != crc:
            missing = max(seq - last, 1)
            version = self._conn.execute(
                "SELECT version FROM entries WHERE seq=?", (min(last, seq),)).fetchone()
            good = f"version {version[0]}" if version else "no game"
            raise JournalIncomplete(
                f"{self.path}: {missing} acknowledged moves are missing (the last "
                f"acknowledged was entry {seq}, the journal ends at entry {last}); the last "
                f"good state is {good}. The file is left as it is: rescue what remains with "
                f"'companion games --rescue {self.path.stem}'")

    def _open_ack(self) -> None:
        """Open (or start) the acknowledgement mark for writing."""
        target = ack_path(self.path)
        fresh = not target.exists()
        try:
            self._ack_fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)
            if fresh or read_ack(self.path) is None:
                last = self._newest_seq()
                self._write_ack(last, self._row_crc_at(last) or 0)
                _fsync_dir(self.path.parent)
        except OSError as exc:
            raise StorageError(f"cannot write {target}: {storage_message(exc)}") from exc

    def _write_ack(self, seq: int, crc: int) -> None:
        assert self._ack_fd is not None
        os.pwrite(self._ack_fd, _ack_line(seq, crc), 0)
        os.fdatasync(self._ack_fd)

    def _wal_identity(self) -> tuple[int, int] | None:
        try:
            st = os.stat(f"{self.path}-wal")
        except FileNotFoundError:
            return None
        return st.st_dev, st.st_ino

    def _check_wal(self) -> None:
        """Before COMMIT (or a row's own one-statement transaction): the WAL is still the
        file SQLite writes to. When it vanished, what was acknowledged is checkpointed into
        the journal (SQLite still holds the vanished file) and nothing more is
        acknowledged."""
        wal = self._wal_identity()
        if self._wal is None or wal == self._wal:
            return
        self.broken = (f"the journal's WAL file {self.path}-wal vanished while the game "
                       "ran: nothing more is saved; restart the companion")
        if self._conn.in_transaction:
            self._conn.execute("ROLLBACK")
        try:
            self._conn.execute("PRAGMA wal_checkpoint(FULL)")
        except sqlite3.Error:
            pass  # the acknowledgement mark still tells what is missing
        raise JournalBroken(f"not saved: {self.broken}")

    def _acknowledge(self, seq: int, crc: int, now: bool) -> None:
        """After COMMIT: the acknowledgement mark names this entry, now or (not `now`) at
        the caller's `mark()`."""
        if self._wal is None:
            self._wal = self._wal_identity()
        self._unmarked = (seq, crc)
        if now:
            self._mark()

    def _mark(self) -> None:
        """Under the lock: the mark written for the row committed last, if it is not yet."""
        if self._unmarked is None:
            return
        seq, crc = self._unmarked
        try:
            self._write_ack(seq, crc)
        except OSError as exc:
            self.broken = f"cannot write {ack_path(self.path)}: {storage_message(exc)}"
            raise JournalBroken(f"not saved: {self.broken}") from exc
        self._unmarked = None

    def mark(self) -> None:
        """Write (and fdatasync) the acknowledgement mark of the row `append(...,
        mark=False)` committed, if it is not written yet. Raises JournalBroken when it
        cannot be written: nothing more is then acknowledged."""
        if self._unmarked is None:
            return
        with self._lock:
            self._mark()

    def _check_schema(self) -> None:
        try:
            rows = dict(self._conn.execute("SELECT key, value FROM meta").fetchall())
            tables = {r[0] for r in self._conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.Error as exc:
            raise JournalCorrupt(f"{self.path} is damaged: {exc}") from exc
        if not {"meta", "entries", "snapshots"} <= tables:
            raise JournalCorrupt(f"{self.path} is damaged: tables are missing")
        if rows.get("schema_version") not in _READABLE_VERSIONS:
            raise JournalCorrupt(
                f"{self.path}: unknown journal format {rows.get('schema_version')!r}")

    def close(self) -> None:
        """Close the connection (a clean close also checkpoints the WAL) and the mark."""
        with self._lock:
            try:
                self._mark()  # a committed row's mark its caller did not write
            except JournalBroken as exc:
                log.error("%s", exc)
            self._conn.close()
            if self._ack_fd is not None:
                os.close(self._ack_fd)
                self._ack_fd = None

    def meta(self, key: str) -> str | None:
        """A value from the meta table."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def check(self) -> None:
        """SQLite's own structural check; JournalCorrupt when the file is damaged."""
        with self._lock:
            try:
                result = [r[0] for r in self._conn.execute("PRAGMA quick_check")]
            except sqlite3.Error as exc:
                raise JournalCorrupt(f"{self.path} is damaged: {exc}") from exc
        if result != ["ok"]:
            raise JournalCorrupt(f"{self.path} is damaged: {'; '.join(result[:3])}")

    # --- writing -------------------------------------------------------------------------

    def ready_for_rows(self) -> None:
        """Once the journal's game is loaded, before its first row (the session's writer,
        as it starts): what that row's commit would otherwise do inside a press's window
        (issue 28: the first press after a start took about 0.25 ms more CPU than the
        others). SQLite's WAL is begun (`_begin_wal`) and given its room (`_make_room`),
        and the row's statement is prepared and its pages read in a transaction rolled
        back: no row is written. A failure leaves that work to the first row, as before."""
        if self.readonly or self.broken is not None:
            return
        with self._lock:
            try:
                self._begin_wal()
                self._wal = self._wal_identity()
                self._make_room()
                conn = self._conn
                conn.execute("BEGIN IMMEDIATE")
                try:
                    placeholder = (self._newest_seq() + 1, 0.0, "command", None, "", "", "", 0,
                                   None, 0)
                    conn.execute(_INSERT_ENTRY, placeholder)
                finally:
                    conn.execute("ROLLBACK")
            except sqlite3.Error as exc:
                log.warning("journal %s not made ready for rows: %s", self.path,
                            storage_message(exc))

    def _begin_wal(self) -> None:
        """Under the lock: a small write (the `meta` table's WAL_BEGUN, the time) so that
        SQLite begins its WAL now. An empty WAL (after a start, or after a checkpoint that
        copied every page) is begun by the next commit, which first writes and syncs the
        WAL's header: about 0.1-0.2 ms more CPU for that row, in its press's window."""
        self._conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                           (WAL_BEGUN, repr(time.time())))

    def append(self, entry: Entry, snapshot: JSON | None = None, *,
               mark: bool = True) -> None:
        """Commit one entry (and a snapshot of the state after it) durably, or raise.

        The row is durable when this returns (SQLite's WAL, `synchronous=FULL`). Its
        acknowledgement mark is written after it, here, or with `mark=False` by the
        caller's `mark()` (the session's writer: after the table's first frame of its own
        press, docs/session.md); a mark still unwritten is written before the next row.

        Raises StorageError when nothing was written; the caller then knows the entry is
        not in the journal (JournalBroken when the mark of the row before cannot be
        written; this entry is then not written either).
        """
        if self.readonly:
            raise StorageError(f"not saved: {self.readonly_reason or 'opened read-only'}")
        if self.broken is not None:
            raise JournalBroken(f"not saved: {self.broken}")
        text = entry.row_text()
        source = _source_text(entry.source)
        crc = _row_crc_of(entry.seq, entry.time, entry.kind, entry.target, source, text)
        blob = None
        if snapshot is not None:
            blob = zlib.compress(_dumps(snapshot).encode("utf-8"), 1)
        row = (entry.seq, entry.time, entry.kind, entry.target, source, text.command,
               text.events, text.version, text.rng, crc)
        with self._lock:
            self._mark()  # the row before's, when its caller did not write it
            conn = self._conn
            try:
                if blob is None and entry.kind in _V1_KINDS:
                    # the row alone: one statement in SQLite's own transaction, the
                    # checks first (BEGIN and COMMIT were about 0.05 ms of CPU more here)
                    if self.before_commit is not None:
                        self.before_commit(entry)
                    self._check_wal()
                    conn.execute(_INSERT_ENTRY, row)
                    self._acknowledge(entry.seq, crc, mark)
                    self._committed(entry.seq)
                    return
                conn.execute("BEGIN IMMEDIATE")
                try:
                    if entry.kind not in _V1_KINDS:
                        self._upgrade()
                    conn.execute(_INSERT_ENTRY, row)
                    if blob is not None:
                        _insert_snapshot(conn, entry.seq, blob)
                    if self.before_commit is not None:
                        self.before_commit(entry)
                    self._check_wal()
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                self._acknowledge(entry.seq, crc, mark)
                self._committed(entry.seq)
            except sqlite3.Error as exc:
                raise StorageError(f"not saved: {storage_message(exc)}") from exc
            except OSError as exc:
                raise StorageError(f"not saved: {storage_message(exc)}") from exc

    def _committed(self, seq: int) -> None:
        """After row `seq` (under the lock): the newest seq known, and counted for the next
        checkpoint; one that is long overdue (nobody calls `checkpoint`) is run now."""
        if self._last is not None:
            self._last = max(self._last, seq)
        self._unchecked += 1
        if self._unchecked >= CHECKPOINT_INLINE_ROWS:
            try:
                self._checkpoint()
            except sqlite3.Error:
                pass  # the row is committed; the WAL is checkpointed at the next try

    def checkpoint(self) -> bool:
        """Copy the WAL's pages into the journal file once CHECKPOINT_ROWS rows were
        committed since the last time (SQLite's PASSIVE checkpoint: it waits for no reader
        and holds no writer; a crash in it loses nothing, the WAL stays valid until the
        file has every page); the session's writer calls it once a change is answered and
        on the table's screen. True when it ran and copied every page. The first call
        for a WAL file also gives it WAL_ROOM bytes (`_make_room`)."""
        if self.readonly or self.broken is not None:
            return False
        if self._wal is not None and self._roomy != self._wal:
            with self._lock:
                self._make_room()
        if self._unchecked < CHECKPOINT_ROWS:
            return False
        with self._lock:
            try:
                complete = self._checkpoint()
            except sqlite3.Error as exc:
                self._unchecked = CHECKPOINT_ROWS - CHECKPOINT_RETRY_ROWS
                raise StorageError(f"WAL not checkpointed: {storage_message(exc)}") from exc
            if complete:  # the WAL begun again now, not by the next press's row
                with contextlib.suppress(sqlite3.Error):  # (else by that row, as before)
                    self._begin_wal()
            return complete

    def _make_room(self) -> None:
        """Under the lock, after a change is answered: zeros written past the WAL's end up
        to WAL_ROOM bytes and made durable, once per WAL file, so that the rows after it
        overwrite blocks rather than grow the file (the same fdatasync per row, without the
        file's new size in it). Only SQLite's frames, up to the first invalid one, are read
        from a WAL; a failure here loses nothing and is not tried again for this file."""
        wal = f"{self.path}-wal"
        try:
            fd = os.open(wal, os.O_WRONLY)
        except OSError:
            return
        size = None
        try:
            st = os.fstat(fd)
            self._roomy = (st.st_dev, st.st_ino)
            if self._roomy != self._wal or st.st_size >= WAL_ROOM:
                return
            disk = os.fstatvfs(fd)
            if disk.f_bavail * disk.f_frsize < WAL_ROOM_FREE:
                return  # a disk this full keeps its space for the rows and the checkpoint
            size = st.st_size
            at = size
            while at < WAL_ROOM:  # one page of zeros written over and over (a big buffer
                # of zeros, freed at once, stayed in the process's memory)
                head = (-at) % ROOM_PAGE
                if head:  # up to the next page boundary first
                    at += os.pwrite(fd, _ZEROS[:min(head, WAL_ROOM - at)], at)
                    continue
                pages = min(ROOM_PAGES_A_WRITE, (WAL_ROOM - at) // ROOM_PAGE)
                at += os.pwritev(fd, [_ZEROS] * pages, at)
            os.fdatasync(fd)
        except OSError as exc:  # the rows grow the file as before
            log.warning("cannot make room in %s: %s", wal, storage_message(exc))
            if size is not None:  # what was written of the room is given back to the disk
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, size)
        finally:
            os.close(fd)

    def _checkpoint(self) -> bool:
        busy, frames, copied = self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        complete = not busy and copied == frames
        self._unchecked = 0 if complete else CHECKPOINT_ROWS - CHECKPOINT_RETRY_ROWS
        return bool(complete)

    def add_snapshot(self, seq: int, snapshot: JSON) -> None:
        """Commit a snapshot of the state after row `seq` (in the journal already) in a
        transaction of its own: a replay starts from it; without it, from an earlier one.
        Raises StorageError when it was not written."""
        if self.readonly or self.broken is not None:
            raise StorageError(f"not saved: {self.readonly_reason or self.broken or 'read-only'}")
        blob = zlib.compress(_dumps(snapshot).encode("utf-8"), 1)
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    _insert_snapshot(conn, seq, blob)
                    self._check_wal()
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StorageError(f"not saved: {storage_message(exc)}") from exc

    def _upgrade(self) -> None:
        """Inside the open write transaction: a version 1 journal's entries table rebuilt
        to accept "undo_to" rows (SQLite cannot change a CHECK in place); rows and CRCs are
        copied as they are, so a failed commit leaves the version 1 file untouched."""
        conn = self._conn
        row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is not None and row[0] == str(SCHEMA_VERSION):
            return
        conn.execute(_ENTRIES.format(name="entries_v2"))
        conn.execute("INSERT INTO entries_v2 SELECT * FROM entries")
        conn.execute("DROP TABLE entries")
        conn.execute("ALTER TABLE entries_v2 RENAME TO entries")
        conn.execute("UPDATE meta SET value=? WHERE key='schema_version'",
                     (str(SCHEMA_VERSION),))

    # --- reading -------------------------------------------------------------------------

    def last_seq(self) -> int:
        """The seq of the newest entry (0 when empty)."""
        with self._lock:
            if self._last is not None:
                return self._last
            try:
                last = self._newest_seq()
            except sqlite3.Error as exc:
                raise self._read_error(exc) from exc
            if not self.readonly:  # nobody else writes it: kept by `_committed` from now
                self._last = last
            return last

    def _newest_seq(self) -> int:
        """The seq of the newest entry, 0 when empty (under the lock, or while opening;
        sqlite3.Error as it is)."""
        return int(self._conn.execute("SELECT max(seq) FROM entries").fetchone()[0] or 0)

    def _read_error(self, exc: sqlite3.Error) -> JournalError:
        if _is_corruption(exc):
            return JournalCorrupt(f"{self.path} is damaged: {exc}")
        return StorageError(f"cannot read {self.path}: {storage_message(exc)}")

    def entries(self, after: int = 0, upto: int | None = None) -> Iterator[Entry]:
        """Entries with after < seq <= upto, oldest first, each checked against its CRC
        (the newest ones read, RECENT_ENTRIES, once: `_recent`)."""
        kept: list[Entry] = []  # newest first
        with self._lock:
            recent = self._recent
            start = min(max(recent), upto) if recent and upto is not None else None
            seq = start  # the run of rows kept from `start` down, not read again
            while seq is not None and seq > after and seq in recent:
                kept.append(recent[seq])
                seq -= 1
            if not kept:
                seq = start = upto
            older = self._rows(after, seq) if seq is None or seq > after else []
            newer = self._rows(start, upto) if kept and start is not None and upto is not None \
                and upto > start else []
        out = self._parsed(older, after)
        if kept:
            if (out[-1].seq if out else after) != kept[-1].seq - 1:
                raise JournalCorrupt(f"{self.path} is damaged: an entry before "
                                     f"{kept[-1].seq} is missing")
            out.extend(reversed(kept))
            out.extend(self._parsed(newer, kept[0].seq))
        fresh = [e for e in out if e.seq not in recent]
        if fresh:
            self._keep(fresh)
        yield from out

    def _rows(self, after: int, upto: int | None) -> list[Any]:
        """The rows with after < seq <= upto, oldest first (under the lock)."""
        sql = "SELECT * FROM entries WHERE seq > ?"
        args: list[Any] = [after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        try:
            return self._conn.execute(sql + " ORDER BY seq", args).fetchall()
        except sqlite3.Error as exc:
            raise self._read_error(exc) from exc

    def _parsed(self, rows: list[Any], after: int) -> list[Entry]:
        """The rows as entries, each checked, none missing after seq `after`."""
        out = []
        expected = after + 1
        for row in rows:
            entry = self._parse(row)
            if entry.seq != expected:
                raise JournalCorrupt(f"{self.path} is damaged: entry {expected} is missing")
            expected += 1
            out.append(entry)
        return out

    def _keep(self, entries: list[Entry]) -> None:
        """Keep the newest of `entries` read (oldest first) among the RECENT_ENTRIES newest
        kept: a page of History further back does not push the latest ones out."""
        with self._lock:
            recent = self._recent
            top = max(entries[-1].seq, max(recent, default=0))
            for entry in entries:
                if entry.seq > top - RECENT_ENTRIES:
                    recent[entry.seq] = entry
            while len(recent) > RECENT_ENTRIES:
                del recent[min(recent)]

    def scan(self, after: int = 0) -> list[tuple[int, str, int | None]]:
        """(seq, kind, target) of every entry after `after`, each row checked against its CRC.

        Cheap enough to run on every resume (no JSON parsing), so damage anywhere in the
        journal is reported when the game is opened, not when someone scrolls the history.
        The rows are read as bytes and checked as bytes (`_row_crc_bytes`): no text is
        decoded but the kinds, a third of the cost on a 10 000-row game.
        """
        with self._lock:
            try:
                self._conn.text_factory = bytes
                try:
                    rows = self._conn.execute("SELECT * FROM entries WHERE seq > ? "
                                              "ORDER BY seq", (after,)).fetchall()
                finally:
                    self._conn.text_factory = str
            except sqlite3.Error as exc:
                raise self._read_error(exc) from exc
        out: list[tuple[int, str, int | None]] = []
        for expected, row in enumerate(rows, start=after + 1):
            seq, t, kind, target, source, command, events, version, rng, crc = row
            if seq != expected:
                raise JournalCorrupt(f"{self.path} is damaged: entry {expected} is missing")
            try:
                sound = _row_crc_bytes(seq, t, kind, target, source, command, events,
                                       version, rng) == crc
                name = kind.decode("utf-8")
            except (TypeError, ValueError):
                sound = False
            if not sound:
                raise JournalCorrupt(f"{self.path} is damaged at entry {seq}: "
                                     "checksum mismatch")
            out.append((seq, name, target))
        return out

    def other_rows(self, checked: int) -> list[tuple[int, str, int | None]]:
        """(seq, kind, target) of the rows up to `checked` that are not plain commands
        (undo, redo, going back), when those rows were checked against their CRCs already
        (by `companion run`'s start, in another process); the rows between are commands.
        JournalCorrupt when rows 1..checked are not all there."""
        with self._lock:
            try:
                count, last = self._conn.execute(
                    "SELECT count(*), coalesce(max(seq), 0) FROM entries WHERE seq <= ?",
                    (checked,)).fetchone()
                rows = self._conn.execute(
                    "SELECT seq, kind, target FROM entries WHERE seq <= ? AND kind != 'command'"
                    " ORDER BY seq", (checked,)).fetchall()
            except sqlite3.Error as exc:
                raise self._read_error(exc) from exc
        if count != checked or last != checked:
            raise JournalCorrupt(f"{self.path} is damaged: entries are missing")
        return [(int(seq), str(kind), target) for seq, kind, target in rows]

    def sources(self, seqs: list[int]) -> dict[int, Source]:
        """The sources of the given entries."""
        out: dict[int, Source] = {}
        with self._lock:
            for seq in seqs:
                row = self._conn.execute("SELECT source FROM entries WHERE seq=?",
                                         (seq,)).fetchone()
                if row is not None:
                    out[seq] = source_from_json(json.loads(row[0]))
        return out

    def _parse(self, row: tuple[Any, ...]) -> Entry:
        seq, t, kind, target, source, command, events, version, rng, crc = row
        try:
            if _row_crc(seq, t, kind, target, source, command, events, version, rng) != crc:
                raise ValueError("checksum mismatch")
            return Entry(int(seq), float(t), str(kind), None if target is None else int(target),
                         source_from_json(json.loads(source)), json.loads(command),
                         events_from_json(json.loads(events)), int(version),
                         None if rng is None else int(rng))
        except (ValueError, TypeError) as exc:
            raise JournalCorrupt(f"{self.path} is damaged at entry {seq}: {exc}") from None

    def snapshot_at_or_before(self, seq: int) -> tuple[int, JSON] | None:
        """The newest sound snapshot at or before seq; a damaged one is an error."""
        with self._lock:
            try:
                row = self._conn.execute(
                    "SELECT seq, state, crc FROM snapshots WHERE seq <= ? ORDER BY seq DESC "
                    "LIMIT 1", (seq,)).fetchone()
            except sqlite3.Error as exc:
                raise self._read_error(exc) from exc
        if row is None:
            return None
        at, blob, crc = row
        try:
            if zlib.crc32(blob) != crc:
                raise ValueError("checksum mismatch")
            data = json.loads(zlib.decompress(blob).decode("utf-8"))
        except (ValueError, zlib.error, TypeError) as exc:
            raise JournalCorrupt(f"{self.path} is damaged at snapshot {at}: {exc}") from None
        if not isinstance(data, dict):
            raise JournalCorrupt(f"{self.path} is damaged at snapshot {at}")
        return int(at), data

    def last_snapshot_seq(self) -> int:
        """The seq of the newest snapshot (0 when none)."""
        with self._lock:
            try:
                row = self._conn.execute("SELECT max(seq) FROM snapshots").fetchone()
            except sqlite3.Error as exc:
                raise self._read_error(exc) from exc
        return int(row[0] or 0)

    def game_started(self) -> float | None:
        """When the newest new_game entry was written (the timed game's clock starts then)."""
        with self._lock:
            try:
                rows = self._conn.execute(
                    "SELECT time, command FROM entries WHERE kind='command' AND command LIKE ?"
                    " ORDER BY seq DESC LIMIT 20", ('%new_game%',)).fetchall()
            except sqlite3.Error as exc:
                raise self._read_error(exc) from exc
        for when, command in rows:
            try:
                if json.loads(command).get("do") == "new_game":
                    return float(when)
            except (ValueError, AttributeError):
                continue
        return None

    def last_time(self) -> float | None:
        """When the newest entry was written."""
        with self._lock:
            row = self._conn.execute(
                "SELECT time FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None else float(row[0])


def _insert_snapshot(conn: sqlite3.Connection, seq: int, blob: bytes) -> None:
    """The snapshot row of `seq` with its CRC, inside the caller's transaction (a row that
    carries one, or add_snapshot's own)."""
    conn.execute("INSERT INTO snapshots VALUES (?, ?, ?)", (seq, blob, zlib.crc32(blob)))
