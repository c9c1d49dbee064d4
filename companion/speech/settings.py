"""What the table's voice remembers: on or off, its volume and its quiet hours, in
`speech.json` of the data directory (beside the screen's `screen.json`).

The screen's menu and the banker page both change it; the announcer reads it again
whenever the file changed, so neither needs the other.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from companion.paths import read_json, write_json

FILE_NAME = "speech.json"


@dataclass
class SpeechSettings:
    """On/off, volume 0-100, and quiet hours (local hours; equal hours: none)."""

    on: bool = True
    volume: int = 80
    quiet_from: int = 0
    quiet_until: int = 0

    def quiet_at(self, hour: int) -> bool:
        """Whether the voice keeps quiet at this local hour (the span may cross midnight).

        >>> SpeechSettings(quiet_from=22, quiet_until=7).quiet_at(23)
        True
        >>> SpeechSettings(quiet_from=22, quiet_until=7).quiet_at(12)
        False
        >>> SpeechSettings().quiet_at(3)
        False
        """
        start, end = self.quiet_from % 24, self.quiet_until % 24
        if start == end:
            return False
        return start <= hour < end if start < end else hour >= start or hour < end

    def speaks_at(self, hour: int) -> bool:
        """Whether a sentence is said now."""
        return self.on and self.volume > 0 and not self.quiet_at(hour)


def load(data_dir: Path | None) -> SpeechSettings:
    """The settings in `data_dir` (defaults when absent, unreadable or wrong)."""
    raw: Any = None if data_dir is None else read_json(data_dir / FILE_NAME, None)
    if not isinstance(raw, dict):
        return SpeechSettings()
    try:
        return SpeechSettings(on=bool(raw.get("on", True)),
                              volume=max(0, min(100, int(raw.get("volume", 80)))),
                              quiet_from=int(raw.get("quiet_from", 0)) % 24,
                              quiet_until=int(raw.get("quiet_until", 0)) % 24)
    except (TypeError, ValueError):
        return SpeechSettings()


def save(data_dir: Path | None, settings: SpeechSettings) -> None:
    """Write the settings atomically (companion.paths.write_json: fsynced, then renamed, so
    a power cut leaves the old file or the new one)."""
    if data_dir is None:
        return
    write_json(data_dir / FILE_NAME, asdict(settings))


def stamp(data_dir: Path | None) -> float | None:
    """The file's modification time (None: no file): changed means read it again."""
    try:
        return None if data_dir is None else (data_dir / FILE_NAME).stat().st_mtime_ns / 1e9
    except OSError:
        return None
