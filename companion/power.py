"""The Raspberry Pi's power: under-voltage and throttling, as its firmware reports them.

Under-voltage is the first cause of a damaged SD card on a Pi: `companion doctor` says so and
the running table warns on its screen and phones. The firmware's flags are read from the
kernel's sysfs file (no process started; cheap enough to look every half minute), else from
`vcgencmd get_throttled`. Off a Pi there is nothing to read, and nothing is said.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
