"""What the screen remembers between runs, in `screen.json` of the data directory.

Player colours and tokens, the sound volume and mute, the screen's language and the timed
game's end are table matters the rules engine does not know about. The banker PIN is not
here: the table has one, the phones' (companion.game.pins).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from companion.paths import read_json, write_json

FILE_NAME = "screen.json"


@dataclass
class ScreenSettings:
    """The remembered settings; unknown or broken files give the defaults."""

    volume: int = 80
    muted: bool = False
    language: str = ""  # the screen's language chosen at setup; "" follows the edition
    styles: dict[str, dict[str, str]] = field(default_factory=dict)
    clock_end: float | None = None  # wall-clock (time.time) end of a timed game


def load(data_dir: Path | None) -> ScreenSettings:
    """The settings saved in `data_dir` (defaults when absent or unreadable)."""
    raw: Any = None if data_dir is None else read_json(data_dir / FILE_NAME, None)
    if not isinstance(raw, dict):
        return ScreenSettings()
    known = ScreenSettings.__dataclass_fields__
    try:
        return ScreenSettings(**{k: v for k, v in raw.items() if k in known})
    except TypeError:
        return ScreenSettings()


def save(data_dir: Path | None, settings: ScreenSettings) -> None:
    """Write the settings atomically (companion.paths.write_json: fsynced, then renamed, so
    a power cut leaves the old file or the new one, never an empty one)."""
    if data_dir is None:
        return
    write_json(data_dir / FILE_NAME, asdict(settings))
