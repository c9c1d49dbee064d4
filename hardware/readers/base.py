"""What every RFID reader shares: one placement is one tap, and a serial reader's thread
that reconnects by itself and never lets an error escape.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

import serial

from companion.inputs.events import Emit, HardwareWarning, TagEvent
from hardware.debounce import Clock

log = logging.getLogger(__name__)


class Reader(Protocol):
    """A source of TagEvents: started once, closed once."""

    name: str

    def start(self) -> None:
        """Start listening (on a thread of its own); returns at once."""
        ...

    def close(self) -> None:
        """Stop listening and release the device."""
        ...


class ReaderSilent(Exception):
    """The device is open but does not answer (a PN532 on /dev/serial0 was unplugged)."""


class TapDeduper:
    """Readers repeat a tag while it lies there: report a tag only after `gap` seconds unseen.

    Tracks every tag separately, so two cards on the reader that it reads in turn are two
    taps, not one per alternation.
    """

    def __init__(self, clock: Clock = time.monotonic, gap: float = 0.6) -> None:
        self._clock = clock
        self.gap = gap
        self._last_seen: dict[str, float] = {}

    def seen(self, tag: str) -> bool:
        """Record a read of `tag`; True if it is a new placement (a tap)."""
        now = self._clock()
        last = self._last_seen.get(tag)
        self._last_seen[tag] = now
        if len(self._last_seen) > 64:
            self._last_seen = {t: s for t, s in self._last_seen.items() if now - s <= self.gap} or {
                tag: now
            }
        return last is None or now - last > self.gap


SerialFactory = Callable[..., Any]


class ReaderThread:
    """A reader's background thread and its stop event, shared by every reader kind."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        """Whether the thread was started and not closed yet."""
        return self._thread is not None

    def start(self, target: Callable[[], None], name: str) -> None:
        """Start `target` on a daemon thread (idempotent)."""
        if self._thread is None:
            self.stop.clear()
            self._thread = threading.Thread(target=target, name=name, daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Ask the thread to stop and wait for it (not when called from the thread itself)."""
        self.stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None


class SerialReader:
    """A reader on a serial port, run by a thread that opens, reads and reopens the port.

    Subclasses implement `session(port)`, which reads until `self.stopping` or an I/O error.
    Unplugging shows a `reader_unplugged` warning; the thread retries every
    `retry_interval` seconds and clears the warning when the reader is back. No exception
    leaves the thread.
    """

    baudrate = 9600
    kind = "serial"

    def __init__(
        self,
        port: str,
        emit: Emit,
        *,
        clock: Clock = time.monotonic,
        repeat_gap: float = 0.6,
        retry_interval: float = 1.0,
        read_timeout: float = 0.05,
        serial_factory: SerialFactory = serial.Serial,
    ) -> None:
        self.port = port
        self.name = f"{self.kind}:{port}"
        self._emit = emit
        self.deduper = TapDeduper(clock, repeat_gap)
        self.retry_interval = retry_interval
        self.read_timeout = read_timeout
        self._serial_factory = serial_factory
        self._worker = ReaderThread()
        self._stop = self._worker.stop
        self.connected = threading.Event()
        self._warning: str | None = None
        self._progress = threading.Condition()
        self.bytes_received = 0
        self.bad_frames = 0

    @property
    def stopping(self) -> bool:
        """True once close() was called."""
        return self._stop.is_set()

    def start(self) -> None:
        """Start the reader thread (idempotent)."""
        self._worker.start(self._run, self.name)

    def close(self) -> None:
        """Stop the thread; the port closes when its read times out."""
        self._worker.close()

    def wait_for_bytes(self, count: int, timeout: float) -> bool:
        """Wait until `count` bytes were read in all (for tests and diagnostics)."""
        with self._progress:
            return self._progress.wait_for(lambda: self.bytes_received >= count, timeout)

    def _received(self, data: bytes) -> None:
        with self._progress:
            self.bytes_received += len(data)
            self._progress.notify_all()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                port = self._serial_factory(self.port, self.baudrate, timeout=self.read_timeout)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._warn("reader_unplugged", f"RFID reader not found at {self.port} ({exc})")
                self._stop.wait(self.retry_interval)
                continue
            try:
                self.connected.set()
                self.session(port)
            except ReaderSilent as exc:
                self._warn("reader_silent", f"RFID reader at {self.port} does not answer ({exc})")
            except (serial.SerialException, OSError) as exc:
                self._warn("reader_unplugged", f"RFID reader at {self.port} unplugged ({exc})")
            except Exception:  # noqa: BLE001 - nothing here may crash the companion
                log.exception("RFID reader %s failed", self.name)
                self._warn("reader_error", f"RFID reader at {self.port} failed; restarting it")
            finally:
                self.connected.clear()
                try:
                    port.close()
                except Exception:  # noqa: BLE001
                    log.debug("closing %s failed", self.port, exc_info=True)
            if not self._stop.is_set():
                self._stop.wait(self.retry_interval)

    def session(self, port: Any) -> None:
        """Read from an open port until stopping; raise on I/O errors."""
        raise NotImplementedError

    def connected_ok(self) -> None:
        """Subclasses call this once the device answered: clears a standing warning."""
        if self._warning is not None:
            code, self._warning = self._warning, None
            self._emit(HardwareWarning(code, self.name, "RFID reader is back", active=False))

    def tag_read(self, tag: str, read_at: float) -> None:
        """A tag was read; emit a TagEvent if it is a new placement."""
        if self.deduper.seen(tag):
            self._emit(TagEvent(tag, self.name, read_at))

    def _warn(self, code: str, message: str) -> None:
        if self._warning == code:
            return
        if self._warning is not None:
            self._emit(HardwareWarning(self._warning, self.name, "", active=False))
        self._warning = code
        log.warning("%s", message)
        self._emit(HardwareWarning(code, self.name, message, active=True))
