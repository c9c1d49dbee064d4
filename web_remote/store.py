"""Small JSON files in the data directory: atomic writes, and a writer thread for callers
(the session's listener) that must never wait for the SD card.

A file replaced whole (`save`) costs what the file holds; a file that grows with the game
(the net-worth chart) is appended to instead (`append`), so a move costs the same at move
5 000 as at move 1. A file whose lines can be made again after a power cut (the chart's,
from the journal: web_remote/worth.py) is appended to without an fdatasync a line
(`sync=False`), synced at most every SYNC_S seconds and at stop (issue 28).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.paths import append_bytes, read_json, replace_bytes, sync_file, write_json

__all__ = ["Persister", "read_json", "write_json"]

log = logging.getLogger(__name__)

#: a file appended to without a sync a line is synced when its oldest unsynced line is
#: this old (s), with the next line written, and at stop
SYNC_S = 10.0


@dataclass
class _Pending:
    """What is still to be written to one path: its whole content (replacing the file,
    called on the writer thread), then lines to add after it."""

    whole: Callable[[], bytes] | None = None
    tail: list[bytes] = field(default_factory=list)
    #: whether the lines are fdatasynced as they are written (False: see SYNC_S)
    sync: bool = True


class Persister:
    """Writes files on its own thread; a later `save` of a path replaces what is pending
    for it, `append`s are written in order after it.

    `pace`: called on that thread before it writes what is pending (None: writes at once).
    The table screen's (`TableHooks.pace_writes`) returns once a frame with the session's
    version is on the screen, bounded as the listeners' hold is: the net-worth chart's line
    of a move, scheduled by the session's writer before the move is answered, is then
    written after the table's first frame, not beside it (issue 28); what is scheduled
    meanwhile waits with it, in order, and is written with it."""

    def __init__(self, pace: Callable[[], None] | None = None) -> None:
        self.pace = pace
        self._pending: dict[Path, _Pending] = {}
        #: per path, writes that failed (a full card): retried before the next append, the
        #: lines starting on a fresh line (a reader then loses a torn line alone)
        self._failed: dict[Path, _Pending] = {}
        self._cond = threading.Condition()
        self._busy = False
        self._stopped = False
        #: per path appended to without a sync, when its oldest unsynced line was written
        #: (time.monotonic); the Persister's thread's alone
        self._unsynced: dict[Path, float] = {}
        self._thread = threading.Thread(target=self._run, name="web-persister", daemon=True)
        self._thread.start()

    def save(self, path: Path, snapshot: Callable[[], Any]) -> None:
        """Schedule writing `snapshot()` (called on the writer thread) to `path` as JSON."""
        self.replace(path, lambda: json.dumps(snapshot(), ensure_ascii=False,
                                              separators=(",", ":")).encode("utf-8"))

    def replace(self, path: Path, content: Callable[[], bytes]) -> None:
        """Schedule replacing `path` with `content()` (called on the writer thread),
        atomically; appends scheduled before are dropped (the content holds them)."""
        with self._cond:
            self._failed.pop(path, None)
            self._pending[path] = _Pending(content)
            self._cond.notify()

    def append(self, path: Path, data: bytes, sync: bool = True) -> None:
        """Schedule adding `data` at the end of `path` (after a pending replacement);
        `sync` False: no fdatasync for it (a file whose lines are made again after a power
        cut), the file synced every SYNC_S seconds at most and at stop."""
        with self._cond:
            pending = self._pending.get(path) or self._failed.pop(path, None) or _Pending()
            pending.tail.append(data)
            pending.sync = pending.sync and sync
            self._pending[path] = pending
            self._cond.notify()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every scheduled write is done (tests, shutdown)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def stop(self) -> None:
        """Write what is pending and end the thread."""
        self.flush()
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        self._thread.join(5)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._stopped)
                if self._stopped and not self._pending:
                    self._sync_all()
                    return
                pace = None if self._stopped else self.pace
            if pace is not None:
                try:
                    pace()  # the table's first frame first (bounded)
                except Exception:  # noqa: BLE001 (the files are written anyway)
                    log.exception("waiting for the table's frame before writing")
            with self._cond:
                path, pending = self._pending.popitem()
                self._busy = True
            try:
                self._write(path, pending)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _write(self, path: Path, pending: _Pending) -> None:
        """One path's pending writes. A full or read-only card must not stop the game: what
        failed is kept and tried again with the path's next append (or given up for its next
        replacement); lines tried again start on a fresh line, so a reader of the file loses
        a torn line alone."""
        try:
            if pending.whole is not None:
                replace_bytes(path, pending.whole())  # fsynced
                self._unsynced.pop(path, None)
                pending = _Pending(None, pending.tail, pending.sync)  # done: not again
            if pending.tail:
                append_bytes(path, b"".join(pending.tail), pending.sync)
                self._synced_later(path, pending.sync)
            return
        except OSError:
            pass
        if pending.whole is None:
            pending.tail.insert(0, b"\n")
        with self._cond:
            later = self._pending.get(path)
            if later is None:
                self._failed[path] = pending
            elif later.whole is None:  # appended meanwhile: after what failed, in order
                pending.tail.extend(later.tail)
                self._pending[path] = pending

    def _synced_later(self, path: Path, synced: bool) -> None:
        """After lines were appended to `path`: when written unsynced, sync the file once
        its oldest unsynced line is SYNC_S old (a sync is the line's whole cost)."""
        now = time.monotonic()
        if synced:
            self._unsynced.pop(path, None)
            return
        since = self._unsynced.setdefault(path, now)
        if now - since >= SYNC_S:
            try:
                sync_file(path)
            except OSError:
                log.warning("cannot sync %s", path)
                return
            del self._unsynced[path]

    def _sync_all(self) -> None:
        """At stop: every file appended to without a sync is synced."""
        for path in list(self._unsynced):
            try:
                sync_file(path)
            except OSError:
                log.warning("cannot sync %s", path)
        self._unsynced.clear()
