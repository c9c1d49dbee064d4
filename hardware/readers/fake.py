"""The fake reader: taps arrive on a Unix socket in the data directory (DATA_DIR/tap.sock).

`companion tap TAG` connects and sends the tag, so a developer or a test can tap a card
into a running companion on a machine without a reader. One line per tap, answered with
"ok" (or "error: ...").
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from pathlib import Path

from companion.inputs.events import Emit, HardwareWarning, TagEvent

log = logging.getLogger(__name__)

SOCKET_NAME = "tap.sock"
MAX_TAG = 64


def normalize_tag(text: str) -> str | None:
    """The tag as readers report it (stripped, uppercase), None if it cannot be a tag.

    >>> normalize_tag(" 0a1b2c3d4e\\n"), normalize_tag("a b"), normalize_tag("")
    ('0A1B2C3D4E', None, None)
    """
    tag = text.strip().upper()
    if not tag or len(tag) > MAX_TAG or not all(c.isalnum() or c in "-_:" for c in tag):
        return None
    return tag


def socket_path(data_dir: Path) -> Path:
    """Where a running companion's fake reader listens."""
    return data_dir / SOCKET_NAME


class FakeReader:
    """Listens on DATA_DIR/tap.sock; every line received is one tap."""

    kind = "fake"

    def __init__(self, emit: Emit, data_dir: Path) -> None:
        self.name = "fake"
        self._emit = emit
        self.path = socket_path(data_dir)
        self._sock: socket.socket | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.listening = threading.Event()

    def tap(self, tag: str) -> bool:
        """Tap a tag directly (the simulator's on-screen cards); False if it is no tag."""
        clean = normalize_tag(tag)
        if clean is None:
            return False
        self._emit(TagEvent(clean, self.name, time.perf_counter()))
        return True

    def start(self) -> None:
        """Bind the socket (replacing a stale one) and serve taps on a thread."""
        if self._thread is not None:
            return
        try:
            self._sock = self._bind()
        except OSError as exc:
            message = f"fake RFID reader cannot listen on {self.path} ({exc})"
            log.warning("%s", message)
            self._emit(HardwareWarning("reader_unplugged", self.name, message))
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="fake-reader", daemon=True)
        self._thread.start()

    def _bind(self) -> socket.socket:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(str(self.path))
            except OSError:
                self.path.unlink()  # left behind by a companion that died
            else:
                raise OSError(f"another companion is already listening on {self.path}")
            finally:
                probe.close()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(str(self.path))
        os.chmod(self.path, 0o600)
        sock.listen(8)  # accept blocks: an idle reader wakes nothing; close() shuts it down
        return sock

    def _serve(self) -> None:
        sock = self._sock
        assert sock is not None
        self.listening.set()
        while not self._stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:  # shut down by close()
                break
            try:
                self._handle(conn)
            except Exception:  # noqa: BLE001 - a bad client never stops the reader
                log.debug("fake reader client failed", exc_info=True)
            finally:
                conn.close()
        self.listening.clear()

    def _handle(self, conn: socket.socket) -> None:
        conn.settimeout(1.0)
        data = b""
        while b"\n" not in data and len(data) <= MAX_TAG + 2:
            chunk = conn.recv(128)
            if not chunk:
                break
            data += chunk
        tag = normalize_tag(data.split(b"\n", 1)[0].decode("utf-8", "replace"))
        if tag is None:
            conn.sendall(b"error: not a tag\n")
            return
        self._emit(TagEvent(tag, self.name, time.perf_counter()))
        conn.sendall(b"ok\n")

    def close(self) -> None:
        """Stop serving and remove the socket file."""
        self._stop.set()
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)  # ends the blocking accept at once
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass


def send_tap(data_dir: Path, tag: str, timeout: float = 2.0) -> str:
    """Send one tap to the companion running on `data_dir`; its answer line.

    Raises ConnectionError (FileNotFoundError / ConnectionRefusedError) when none runs.
    """
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(str(socket_path(data_dir)))
        sock.sendall(tag.encode() + b"\n")
        answer = b""
        while b"\n" not in answer:
            chunk = sock.recv(128)
            if not chunk:
                break
            answer += chunk
    return answer.decode("utf-8", "replace").strip()
