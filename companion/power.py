"""The Raspberry Pi's power: under-voltage and throttling, as its firmware reports them.

Under-voltage is the first cause of a damaged SD card on a Pi: `companion doctor` says so and
the running table warns on its screen and phones. The firmware's flags are read from the
kernel's sysfs file (no process started; cheap enough to look every half minute), else from
`vcgencmd get_throttled`. Off a Pi there is nothing to read, and nothing is said.

While the table runs, `watch_power` reads them every half minute on a thread of its own,
never on the path of a move, and posts a change to the table's face as a hardware warning
(`post_warning(code, source, message, active)`; the screen's sentence is the catalog's
`warn_<code>`), cleared when it is over; the phones follow it too (`PowerWatch.follow`: every
phone's page shows it in its language).
"""

from __future__ import annotations

import logging
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: the Raspberry Pi kernel's copy of the firmware's throttled flags (hex text)
SYSFS = "/sys/devices/platform/soc/soc:firmware/get_throttled"

UNDER_VOLTAGE_NOW = 1 << 0
FREQUENCY_CAPPED_NOW = 1 << 1
THROTTLED_NOW = 1 << 2
SOFT_TEMPERATURE_LIMIT_NOW = 1 << 3
UNDER_VOLTAGE_SINCE_BOOT = 1 << 16
FREQUENCY_CAPPED_SINCE_BOOT = 1 << 17
THROTTLED_SINCE_BOOT = 1 << 18
SOFT_TEMPERATURE_LIMIT_SINCE_BOOT = 1 << 19


@dataclass(frozen=True)
class Power:
    """The firmware's flags, read as what a table needs to know."""

    flags: int

    @property
    def under_voltage_now(self) -> bool:
        """The supply gives less than 4.63 V right now."""
        return bool(self.flags & UNDER_VOLTAGE_NOW)

    @property
    def under_voltage_since_boot(self) -> bool:
        """The supply fell below 4.63 V at least once since the Pi started."""
        return bool(self.flags & (UNDER_VOLTAGE_NOW | UNDER_VOLTAGE_SINCE_BOOT))

    @property
    def throttled_now(self) -> bool:
        """The processor is slowed down right now (power or heat)."""
        return bool(self.flags & (THROTTLED_NOW | FREQUENCY_CAPPED_NOW
                                  | SOFT_TEMPERATURE_LIMIT_NOW))

    @property
    def throttled_since_boot(self) -> bool:
        """The processor was slowed down at least once since the Pi started."""
        return self.throttled_now or bool(self.flags & (
            THROTTLED_SINCE_BOOT | FREQUENCY_CAPPED_SINCE_BOOT
            | SOFT_TEMPERATURE_LIMIT_SINCE_BOOT))

    @property
    def healthy(self) -> bool:
        """Neither under-voltage nor throttling, now or since the Pi started."""
        return not (self.under_voltage_since_boot or self.throttled_since_boot)


def parse_throttled(text: str) -> Power | None:
    """The flags in `vcgencmd get_throttled`'s answer or the sysfs file; None if unreadable.

    >>> parse_throttled("throttled=0x50005").under_voltage_now
    True
    >>> parse_throttled("50000\\n").under_voltage_now, parse_throttled("0").healthy
    (False, True)
    >>> parse_throttled("error=1") is None
    True
    """
    value = text.strip().removeprefix("throttled=")
    try:
        return Power(int(value, 16))
    except ValueError:
        return None


def read_power(root: Path = Path("/"),
               run: Callable[[list[str]], str | None] | None = None) -> Power | None:
    """The Pi's power flags now (sysfs first, then vcgencmd), or None where there are none."""
    try:
        return parse_throttled((root / SYSFS.lstrip("/")).read_text())
    except OSError:
        pass
    answer = (run or _vcgencmd)(["vcgencmd", "get_throttled"])
    return None if answer is None else parse_throttled(answer)


def _vcgencmd(argv: list[str]) -> str | None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


# --- watched while the table runs ----------------------------------------------------

#: seconds between two reads of the flags
EVERY_S = 30.0
#: the warnings' codes (the screen's sentences are `warn_under_voltage`, `warn_throttled`)
UNDER_VOLTAGE = "under_voltage"
THROTTLED = "throttled"
#: the English fallbacks, for a face without the catalog's sentence (and the log)
MESSAGES = {
    UNDER_VOLTAGE: "Power supply too weak: use the Pi's own power supply",
    THROTTLED: "The Pi is too hot and slows down: give it air",
}

#: post(code, source, message, active): the face's post_warning
Post = Callable[[str, str, str, bool], None]
Reader = Callable[[], Power | None]


def wanted(power: Power, before: Power | None) -> set[str]:
    """The warnings `power` calls for: under-voltage now, or a dip since the last read
    (the firmware's since-boot bit newly set: a dip shorter than the read interval);
    throttling now, unless under-voltage already explains it.

    >>> sorted(wanted(Power(0x1), None)), sorted(wanted(Power(0x50000), Power(0x0)))
    (['under_voltage'], ['under_voltage'])
    >>> sorted(wanted(Power(0x50000), Power(0x50000))), sorted(wanted(Power(0x4), None))
    ([], ['throttled'])
    """
    shown = set()
    dipped = before is not None and power.under_voltage_since_boot \
        and not before.under_voltage_since_boot
    if power.under_voltage_now or dipped:
        shown.add(UNDER_VOLTAGE)
    elif power.throttled_now:
        shown.add(THROTTLED)
    return shown


class PowerWatch:
    """Reads the flags every `every` seconds and posts what changed (`check`, also callable
    directly); `close` stops the thread."""

    def __init__(self, post: Post, read: Reader, first: Power, every: float = EVERY_S) -> None:
        self._post, self._read, self.every = post, read, every
        self._last: Power | None = None
        self.shown: set[str] = set()
        self._others: list[Post] = []  # faces that follow besides the first (`follow`)
        self._lock = threading.Lock()  # a check and a face joining: one at a time
        self._stop = threading.Event()
        self.check(first)
        self._thread = threading.Thread(target=self._run, name="power-watch", daemon=True)
        self._thread.start()

    def follow(self, post: Post) -> None:
        """Tell another face too (the phones, started after the watch): what is shown now
        at once, then every change."""
        with self._lock:
            self._others.append(post)
            for code in sorted(self.shown):
                post(code, "power", MESSAGES[code], True)

    def check(self, power: Power | None = None) -> set[str]:
        """One look: post the warnings that start and clear those that ended; returns what
        is shown now. An unreadable moment changes nothing."""
        power = self._read() if power is None else power
        if power is None:
            return self.shown
        with self._lock:
            now = wanted(power, self._last)
            self._last = power
            for code in sorted(now - self.shown):
                log.warning("power: %s (firmware flags %#x)", MESSAGES[code], power.flags)
                self._tell(code, True)
            for code in sorted(self.shown - now):
                log.info("power: %s is over (flags %#x)", code, power.flags)
                self._tell(code, False)
            self.shown = now
        return now

    def _tell(self, code: str, active: bool) -> None:
        """Every face, each on its own: one that fails does not keep it from the others."""
        for post in (self._post, *self._others):
            try:
                post(code, "power", MESSAGES[code], active)
            except Exception:  # a face never takes the watch down
                log.exception("power: telling a face of %s failed", code)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.check()
            except Exception:  # a watcher never takes the table down
                log.exception("power: reading the firmware's flags failed")

    def close(self) -> None:
        """Stop reading."""
        self._stop.set()
        self._thread.join(timeout=5)


def watch_power(face: Any, root: Path = Path("/"), every: float = EVERY_S,
                run: Callable[[list[str]], str | None] | None = None) -> PowerWatch | None:
    """Start watching for the table's `face` (the screen's controller: its post_warning;
    a headless table: its post_message, into the log). None off a Pi (nothing to read)."""
    def read() -> Power | None:
        return read_power(root, run)

    first = read()
    if first is None:
        return None
    post_warning = getattr(face, "post_warning", None)
    if callable(post_warning):
        post: Post = post_warning
    else:
        post_message = face.post_message

        def post(code: str, source: str, message: str, active: bool) -> None:
            if active:
                post_message(message, "warning")

    return PowerWatch(post, read, first, every)
