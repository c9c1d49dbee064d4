"""The table's sounds: which engine events make which sound, played through pygame.mixer.

Choosing a sound is pure (`sounds_for`), so it is tested without audio; `SoundPlayer`
plays them and stays silent, without errors, on a machine with no audio device.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SOUND_NAMES = ("dice", "cash_in", "cash_out", "pass_go", "jail", "gavel", "bankrupt", "refused")

# Event kinds (engine vocabulary) that always mean one sound.
KIND_SOUNDS: dict[str, str] = {
    "dice": "dice",
    "rolled": "dice",
    "roll": "dice",
    "salary": "pass_go",
    "pass_go": "pass_go",
    "passed_go": "pass_go",
    "jail": "jail",
    "jailed": "jail",
    "sent_to_jail": "jail",
    "go_to_jail": "jail",
    "auction_won": "gavel",
    "auction_closed": "gavel",
    "auction_ended": "gavel",
    "bankrupt": "bankrupt",
    "rejected": "refused",
    "refused": "refused",
}
SALARY_REASONS = frozenset({"salary", "pass_go", "go"})
BANK_NAMES = frozenset({None, "bank", "Bank", "pot"})

# When one command causes several sounds, the most telling one wins (dice also play).
PRIORITY = ("bankrupt", "refused", "jail", "gavel", "pass_go", "cash_in", "cash_out")


def sound_for_event(event: Mapping[str, Any]) -> str | None:
    """The sound one engine event calls for, or None.

    A transfer to a player rings the till (cash in); a transfer to the bank is cash out.

    >>> sound_for_event({"kind": "transfer", "from": "bank", "to": "Ann", "reason": "salary"})
    'pass_go'
    >>> sound_for_event({"kind": "transfer", "from": "Ann", "to": "Bo", "reason": "rent"})
    'cash_in'
    >>> sound_for_event({"kind": "transfer", "from": "Ann", "to": "bank", "reason": "tax"})
    'cash_out'
    """
    kind = str(event.get("kind", ""))
    if kind == "transfer":
        if event.get("reason") in SALARY_REASONS:
            return "pass_go"
        return "cash_out" if event.get("to") in BANK_NAMES else "cash_in"
    return KIND_SOUNDS.get(kind)


def sounds_for(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The sounds to play for one command's events: the dice (if rolled), then the top one.

    >>> sounds_for([{"kind": "rolled"}, {"kind": "transfer", "from": "Ann", "to": "Bo"},
    ...             {"kind": "bankrupt"}])
    ['dice', 'bankrupt']
    """
    found = {sound_for_event(e) for e in events} - {None}
    chosen = ["dice"] if "dice" in found else []
    for name in PRIORITY:
        if name in found:
            chosen.append(name)
            break
    return chosen


def default_sounds_dir() -> Path:
    """$COMPANION_SOUNDS_DIR, else the project's `sounds/` (beside the package)."""
    explicit = os.environ.get("COMPANION_SOUNDS_DIR")
    if explicit:
        return Path(explicit)
    return Path(__file__).resolve().parents[2] / "sounds"


def no_sound_device(dev: Path = Path("/dev/snd")) -> bool:
    """Linux without any sound device (a server, a container): SDL would only fill the log
    with ALSA errors. A driver named in SDL_AUDIODRIVER is always tried."""
    if os.environ.get("SDL_AUDIODRIVER") or not sys.platform.startswith("linux"):
        return False
    return not dev.exists()


class SoundPlayer:
    """Plays the named sounds at a volume; silent when muted or when there is no audio."""

    def __init__(
        self, volume: float = 0.8, muted: bool = False, sounds_dir: Path | None = None
    ) -> None:
        self.volume = min(1.0, max(0.0, volume))
        self.muted = muted
        self.available = False
        self._sounds: dict[str, Any] = {}
        self._open(sounds_dir or default_sounds_dir())

    def _open(self, sounds_dir: Path) -> None:
        """Start the mixer and load every sound; on any failure stay silent."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        if no_sound_device():
            log.info("sound off: no sound device (/dev/snd)")
            return
        try:
            import pygame.mixer

            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=512)
            for name in SOUND_NAMES:
                path = sounds_dir / f"{name}.wav"
                if path.exists():
                    self._sounds[name] = pygame.mixer.Sound(str(path))
        except Exception as exc:  # no device, no driver, broken file: run silent
            log.info("sound off: %s", exc)
            self._sounds.clear()
            return
        self.available = bool(self._sounds)
        self._apply_volume()

    def _apply_volume(self) -> None:
        for sound in self._sounds.values():
            sound.set_volume(self.volume)

    def set_volume(self, volume: float) -> None:
        """Set the volume, 0.0 to 1.0 (clamped)."""
        self.volume = min(1.0, max(0.0, volume))
        self._apply_volume()

    def set_muted(self, muted: bool) -> None:
        """Mute or unmute; muting stops nothing already playing (sounds are short)."""
        self.muted = muted

    def play(self, name: str) -> bool:
        """Play one sound; False when it was not played (muted, silent, unknown)."""
        sound = self._sounds.get(name)
        if self.muted or sound is None or self.volume == 0.0:
            return False
        try:
            sound.play()
        except Exception as exc:  # a device that vanished mid-game
            log.info("sound failed: %s", exc)
            return False
        return True

    def play_events(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """Play what one command's events call for; returns the sounds actually played."""
        return [name for name in sounds_for(events) if self.play(name)]

    def close(self) -> None:
        """Release the audio device."""
        self._sounds.clear()
        self.available = False
        try:
            import pygame.mixer

            if pygame.mixer.get_init():
                pygame.mixer.quit()
        except Exception as exc:  # closing must never fail the caller
            log.info("closing the mixer: %s", exc)
