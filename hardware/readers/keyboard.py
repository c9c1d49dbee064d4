"""USB keyboard-wedge readers: they type the tag number and press Enter.

Two ways in: `keyboard` alone, where the screen program forwards its key presses to
`feed_key` (the reader's keystrokes arrive like any keyboard's), and
`keyboard:/dev/input/by-id/...-event-kbd`, where a thread reads the reader's evdev device
directly and grabs it so the digits never reach the screen. A reader types much faster than
a hand; keys further apart than `max_gap` start over, so a person typing is not a tap.
"""

from __future__ import annotations

import fcntl
import io
import logging
import select
import struct
import threading
import time
from collections.abc import Callable

from companion.inputs.events import Emit, HardwareWarning, TagEvent
from hardware.debounce import Clock
from hardware.readers.base import ReaderThread, TapDeduper

log = logging.getLogger(__name__)

EV_KEY = 0x01
EVIOCGRAB = 0x40044590
_EVENT = struct.Struct("llHHi")  # struct input_event: timeval, type, code, value
_KEYCODES: dict[int, str] = {
    2: "1", 3: "2", 4: "3", 5: "4", 6: "5", 7: "6", 8: "7", 9: "8", 10: "9", 11: "0",
    79: "1", 80: "2", 81: "3", 75: "4", 76: "5", 77: "6", 71: "7", 72: "8", 73: "9", 82: "0",
    30: "A", 48: "B", 46: "C", 32: "D", 18: "E", 33: "F",
    28: "enter", 96: "enter",
}  # fmt: skip


class KeyboardWedgeDecoder:
    """Collects a reader's fast keystrokes into tags; feed it one key at a time."""

    def __init__(
        self,
        on_tag: Callable[[str, float], None] | None = None,
        *,
        clock: Clock = time.monotonic,
        max_gap: float = 0.15,
        min_length: int = 4,
    ) -> None:
        self._on_tag = on_tag
        self._clock = clock
        self.max_gap = max_gap
        self.min_length = min_length
        self._chars: list[str] = []
        self._last = float("-inf")

    def feed_key(self, key: str) -> str | None:
        """One key ("0"-"9", "a"-"f", "enter"/"return"; others reset); the tag on Enter."""
        now = self._clock()
        if now - self._last > self.max_gap:
            self._chars.clear()
        self._last = now
        key = key.lower()
        if key in {"enter", "return", "keypad enter", "\r", "\n"}:
            chars, self._chars = self._chars, []
            if len(chars) < self.min_length:
                return None
            tag = "".join(chars).upper()
            if self._on_tag is not None:
                self._on_tag(tag, time.perf_counter())
            return tag
        if len(key) == 1 and key in "0123456789abcdef" and len(self._chars) < 32:
            self._chars.append(key)
        else:
            self._chars.clear()
        return None


class KeyboardReader:
    """A keyboard-wedge reader (`keyboard` or `keyboard:/dev/input/...`)."""

    kind = "keyboard"

    def __init__(
        self,
        emit: Emit,
        device: str | None = None,
        *,
        clock: Clock = time.monotonic,
        repeat_gap: float = 0.6,
        retry_interval: float = 1.0,
        max_gap: float = 0.15,
    ) -> None:
        self.device = device
        self.name = f"keyboard:{device}" if device else "keyboard"
        self._emit = emit
        self._deduper = TapDeduper(clock, repeat_gap)
        self.decoder = KeyboardWedgeDecoder(self._tag, clock=clock, max_gap=max_gap)
        self.retry_interval = retry_interval
        self._worker = ReaderThread()
        self._stop = self._worker.stop
        self._warning = False
        self.connected = threading.Event()

    def feed_key(self, key: str) -> bool:
        """A key from the screen's keyboard; True if it was the Enter ending a tag."""
        return self.decoder.feed_key(key) is not None

    def _tag(self, tag: str, read_at: float) -> None:
        if self._deduper.seen(tag):
            self._emit(TagEvent(tag, self.name, read_at))

    def start(self) -> None:
        """Start reading the evdev device, if one was given."""
        if self.device:
            self._worker.start(self._run, self.name)

    def close(self) -> None:
        """Stop the thread (it notices within 0.2 s)."""
        self._worker.close()

    def _run(self) -> None:
        assert self.device is not None
        while not self._stop.is_set():
            try:
                with open(self.device, "rb", buffering=0) as stream:
                    try:
                        fcntl.ioctl(stream.fileno(), EVIOCGRAB, 1)
                    except OSError:
                        log.debug("could not grab %s", self.device)
                    self.connected.set()
                    if self._warning:
                        self._warning = False
                        self._emit(HardwareWarning("reader_unplugged", self.name, "", False))
                    self._read(stream)
            except OSError as exc:
                if not self._warning:
                    self._warning = True
                    message = f"RFID reader {self.device} unplugged or missing ({exc})"
                    self._emit(HardwareWarning("reader_unplugged", self.name, message))
            except Exception:  # noqa: BLE001 - nothing here may crash the companion
                log.exception("keyboard reader %s failed", self.device)
            self.connected.clear()
            self._stop.wait(self.retry_interval)

    def _read(self, stream: io.RawIOBase) -> None:
        read = stream.read
        pending = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([stream], [], [], 0.2)
            if not ready:
                continue  # look at the stop flag now and then
            chunk = read(_EVENT.size * 16)
            if not chunk:
                return  # the device went away (or a test's pipe closed)
            pending += chunk
            while len(pending) >= _EVENT.size:
                _s, _us, etype, code, value = _EVENT.unpack_from(pending)
                pending = pending[_EVENT.size :]
                if etype == EV_KEY and value == 1:
                    self.decoder.feed_key(_KEYCODES.get(code, "other"))


def key_event(code: int, value: int = 1) -> bytes:
    """A raw evdev key event (for tests and the simulator)."""
    return _EVENT.pack(0, 0, EV_KEY, code, value)
