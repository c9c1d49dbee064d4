"""The machine `companion doctor` examines, and the shape of what it finds.

`Host` puts everything a check touches behind one object (file system root, environment,
commands, serial ports, readers), so the tests build a fake Pi in a temporary directory;
`Finding` is one result, OK, WARN or FAIL with a fix. The checks are in __init__.py (the
screen, sound, buttons, readers, data, clock) and table.py (the renderer, memory,
mDNS and the hotspot).
"""

from __future__ import annotations

import getpass
import importlib.util
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, TextIO

from companion import engine_build


class Status(Enum):
    """How a check came out."""

    OK = "OK"
    """Works."""
    WARN = "WARN"
    """Works with something missing or simulated, or cannot be checked here."""
    FAIL = "FAIL"
    """The companion will not work properly until this is fixed."""


@dataclass(frozen=True)
class Finding:
    """One result: which check, how it came out, what was seen and how to fix it."""

    check: str
    status: Status
    message: str
    fix: str = ""


Completed = subprocess.CompletedProcess[str]
Runner = Callable[[Sequence[str], float, Mapping[str, str] | None], Completed]
ReaderFactory = Callable[[str, Callable[[Any], None]], Any]


def _run(
    argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a command, capturing its output; OSError/timeout surface as exceptions."""
    return subprocess.run(
        list(argv), capture_output=True, text=True, timeout=timeout, check=False,
        env=dict(env) if env is not None else None,
    )


def _open_serial(device: str, baudrate: int, timeout: float) -> Any:
    import serial  # deferred: only the reader checks need it

    return serial.Serial(device, baudrate, timeout=timeout)


def _open_reader(spec: str, emit: Callable[[Any], None]) -> Any:
    from hardware.readers import open_reader  # deferred: pulls in pyserial and threads

    return open_reader(spec, emit)


def _lgpio_factory() -> Any:
    from gpiozero.pins.lgpio import LGPIOFactory  # deferred: needs the lgpio library

    return LGPIOFactory()


def _has_module(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def _free_bytes(path: Path) -> int:
    return shutil.disk_usage(path).free


def _read_line(stream: TextIO, timeout: float) -> str | None:
    """A line typed on `stream` within `timeout` seconds, else None."""
    try:
        ready, _, _ = select.select([stream], [], [], timeout)
    except (OSError, ValueError, TypeError):  # no real file behind it
        return None
    return stream.readline() if ready else None


@dataclass
class Host:
    """The machine under examination; the defaults are this one, tests pass fakes."""

    root: Path = Path("/")
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    user: str = field(default_factory=getpass.getuser)
    run: Runner = _run
    access: Callable[[Path, int], bool] = os.access
    open_serial: Callable[[str, int, float], Any] = _open_serial
    open_reader: ReaderFactory = _open_reader
    pin_factory: Callable[[], Any] = _lgpio_factory
    has_module: Callable[[str], bool] = _has_module
    free_bytes: Callable[[Path], int] = _free_bytes
    serial_timeout: float = 1.0
    read_line: Callable[[float], str | None] = field(
        default=lambda timeout: _read_line(sys.stdin, timeout)
    )
    now: Callable[[], float] = time.time
    say: Callable[[str], None] = field(default=lambda text: print(text, flush=True))
    #: which rules engine runs: "compiled" or "source: <why>" (companion.engine_build)
    engine: str = field(default_factory=lambda: engine_build.status)

    def path(self, absolute: str) -> Path:
        """An absolute path of the machine, under `root`."""
        return self.root / absolute.lstrip("/")

    @property
    def model(self) -> str:
        """The board's model ("Raspberry Pi 4 Model B Rev 1.4"), "" if not a Pi."""
        try:
            text = self.path("/proc/device-tree/model").read_text(errors="replace")
        except OSError:
            return ""
        return text.strip("\x00\n ")

    @property
    def on_pi(self) -> bool:
        """Whether this is a Raspberry Pi: missing hardware is then a failure."""
        return self.model.startswith("Raspberry Pi")

    def missing(self) -> Status:
        """The status for missing hardware: FAIL on a Pi, WARN elsewhere."""
        return Status.FAIL if self.on_pi else Status.WARN

    def command(self, argv: Sequence[str], timeout: float = 5.0) -> Completed | None:
        """Run a command; None if it is not there or hangs."""
        try:
            return self.run(argv, timeout, None)
        except (OSError, subprocess.SubprocessError):
            return None
