"""Small JSON files in the data directory: atomic writes, and a writer thread for callers
(the session's listener) that must never wait for the SD card.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.paths import read_json, write_json

__all__ = ["Persister", "read_json", "write_json"]


class Persister:
    """Writes files on its own thread; later saves of a path replace pending ones."""

    def __init__(self) -> None:
        self._pending: dict[Path, Callable[[], Any]] = {}
        self._cond = threading.Condition()
        self._busy = False
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="web-persister", daemon=True)
        self._thread.start()

    def save(self, path: Path, snapshot: Callable[[], Any]) -> None:
        """Schedule writing `snapshot()` (called on the writer thread) to `path`."""
        with self._cond:
            self._pending[path] = snapshot
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
                    return
                path, snapshot = self._pending.popitem()
                self._busy = True
            try:
                write_json(path, snapshot())
            except OSError:
                pass  # a full or read-only card must not stop the game; next save retries
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
