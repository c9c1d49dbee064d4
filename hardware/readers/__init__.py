"""RFID readers: RDM6300 and PN532 on a serial port, keyboard-wedge readers, a fake one.

`open_reader(spec, emit)` builds the reader a configuration names: "rdm6300:/dev/serial0",
"pn532:/dev/ttyUSB0", "keyboard", "keyboard:/dev/input/event3", "fake" or "none". Every
reader emits TagEvents (one per placement) and HardwareWarnings; call start() then close().
"""

from __future__ import annotations

import time
from pathlib import Path

from companion.inputs.events import Emit
from hardware.debounce import Clock
from hardware.readers.base import Reader, SerialReader, TapDeduper
from hardware.readers.fake import FakeReader, normalize_tag
from hardware.readers.keyboard import KeyboardReader
from hardware.readers.pn532 import Pn532Reader
from hardware.readers.rdm6300 import Rdm6300Reader

__all__ = [
    "FakeReader",
    "KeyboardReader",
    "NullReader",
    "Pn532Reader",
    "Rdm6300Reader",
    "Reader",
    "ReaderSpecError",
    "SerialReader",
    "TapDeduper",
    "normalize_tag",
    "open_reader",
    "parse_spec",
]

SERIAL_KINDS: dict[str, type[SerialReader]] = {"rdm6300": Rdm6300Reader, "pn532": Pn532Reader}


class ReaderSpecError(ValueError):
    """A reader specification that names no known kind, or lacks its port."""


class NullReader:
    """No reader at all (`none`)."""

    name = "none"

    def start(self) -> None:
        """Nothing to start."""

    def close(self) -> None:
        """Nothing to close."""


def parse_spec(spec: str) -> tuple[str, str | None]:
    """Split "kind:path" into its kind and path (None when absent).

    >>> parse_spec("rdm6300:/dev/serial0"), parse_spec("fake")
    (('rdm6300', '/dev/serial0'), ('fake', None))
    """
    kind, _, path = spec.strip().partition(":")
    kind = kind.lower()
    if kind in SERIAL_KINDS and not path:
        raise ReaderSpecError(f"{kind} needs a serial port, e.g. {kind}:/dev/serial0")
    if kind not in {*SERIAL_KINDS, "keyboard", "fake", "none", ""}:
        known = ", ".join([*SERIAL_KINDS, "keyboard", "fake", "none"])
        raise ReaderSpecError(f"unknown reader {kind!r} (known: {known})")
    return kind or "none", path or None


def open_reader(
    spec: str,
    emit: Emit,
    *,
    data_dir: Path | None = None,
    clock: Clock = time.monotonic,
    repeat_gap: float = 0.6,
    retry_interval: float = 1.0,
    rdm6300_confirm: int = 2,
) -> Reader:
    """The reader `spec` names, not yet started; `emit` receives its events.

    data_dir: where the fake reader's socket goes (default: companion.paths.default_data_dir()).
    """
    kind, path = parse_spec(spec)
    if kind in SERIAL_KINDS:
        assert path is not None
        reader = SERIAL_KINDS[kind](
            path, emit, clock=clock, repeat_gap=repeat_gap, retry_interval=retry_interval
        )
        if isinstance(reader, Rdm6300Reader):
            reader.confirm = rdm6300_confirm
        return reader
    if kind == "keyboard":
        return KeyboardReader(
            emit, path, clock=clock, repeat_gap=repeat_gap, retry_interval=retry_interval
        )
    if kind == "fake":
        if data_dir is None:
            from companion.paths import default_data_dir

            data_dir = default_data_dir()
        return FakeReader(emit, data_dir)
    return NullReader()
