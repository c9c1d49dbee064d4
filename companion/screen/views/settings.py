"""What the screen remembers between runs, in `screen.json` of the data directory.

Player colours and tokens, the sound volume and mute, the screen's language, the timed
game's end and the banker PIN (as a salted hash) are table matters the rules engine does not
know about.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

FILE_NAME = "screen.json"
PIN_ROUNDS = 50_000


@dataclass
class ScreenSettings:
    """The remembered settings; unknown or broken files give the defaults."""

    volume: int = 80
    muted: bool = False
    language: str = ""  # the screen's language chosen at setup; "" follows the edition
    styles: dict[str, dict[str, str]] = field(default_factory=dict)
    clock_end: float | None = None  # wall-clock (time.time) end of a timed game
    pin_salt: str = ""
    pin_hash: str = ""

    def set_pin(self, pin: str) -> None:
        """Remember a banker PIN (empty: none)."""
        if not pin:
            self.pin_salt = self.pin_hash = ""
            return
        self.pin_salt = secrets.token_hex(8)
        self.pin_hash = _hash(pin, self.pin_salt)

    def check_pin(self, pin: str) -> bool:
        """Whether `pin` is the banker PIN (any PIN when none was set)."""
        if not self.pin_hash:
            return True
        return hmac.compare_digest(_hash(pin, self.pin_salt), self.pin_hash)


def _hash(pin: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), PIN_ROUNDS).hex()


def load(data_dir: Path | None) -> ScreenSettings:
    """The settings saved in `data_dir` (defaults when absent or unreadable)."""
    if data_dir is None:
        return ScreenSettings()
    try:
        raw: Any = json.loads((data_dir / FILE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ScreenSettings()
    if not isinstance(raw, dict):
        return ScreenSettings()
    known = ScreenSettings.__dataclass_fields__
    try:
        return ScreenSettings(**{k: v for k, v in raw.items() if k in known})
    except TypeError:
        return ScreenSettings()


def save(data_dir: Path | None, settings: ScreenSettings) -> None:
    """Write the settings atomically (a crash leaves the old file or the new one)."""
    if data_dir is None:
        return
    data_dir.mkdir(parents=True, exist_ok=True)
    tmp = data_dir / (FILE_NAME + ".tmp")
    tmp.write_text(json.dumps(asdict(settings), indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, data_dir / FILE_NAME)
