"""The table's sounds: which engine events make which sound, played through pygame.mixer.

Choosing a sound is pure (`sounds_for`), so it is tested without audio; `SoundPlayer`
plays them and stays silent, without errors, on a machine with no audio device. An open
SDL audio device wakes its thread about 50 times a second even in silence, so the player
opens the device on its own thread when a sound comes and closes it again after
`IDLE_CLOSE_S` of silence: an idle table wakes nothing.
"""

from __future__ import annotations

import logging
import os
import queue
import sys
import threading
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

#: the audio device closes after this many seconds without a sound (longer than any sound)
IDLE_CLOSE_S = 5.0

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
    """Plays the named sounds at a volume; silent when muted or when there is no audio.

    `play` only hands the name to the player's thread (the screen loop never waits for the
    audio device); that thread opens the device for it and closes it after `idle_close_s`
    of silence."""

    def __init__(
        self, volume: float = 0.8, muted: bool = False, sounds_dir: Path | None = None,
        idle_close_s: float = IDLE_CLOSE_S,
    ) -> None:
        self.volume = min(1.0, max(0.0, volume))
        self.muted = muted
        self.available = False
        self.idle_close_s = idle_close_s
        self._paths: dict[str, Path] = {}
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        #: set while the audio device is open (tests and the bench look at it)
        self.device_open = threading.Event()
        #: set whenever the device has been closed after silence
        self.device_closed = threading.Event()
        self._probe(sounds_dir or default_sounds_dir())

    def _probe(self, sounds_dir: Path) -> None:
        """Open the mixer once, load every sound, close it again: on any failure stay
        silent."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        if no_sound_device():
            log.info("sound off: no sound device (/dev/snd)")
            return
        paths = {name: sounds_dir / f"{name}.wav" for name in SOUND_NAMES}
        paths = {name: path for name, path in paths.items() if path.exists()}
        try:
            loaded = self._open_device(paths)
        except Exception as exc:  # no device, no driver, broken file: run silent
            log.info("sound off: %s", exc)
            return
        finally:
            self._close_device()
        self._paths = {name: paths[name] for name in loaded}
        self.available = bool(self._paths)

    def _open_device(self, paths: dict[str, Path]) -> dict[str, Any]:
        import pygame.mixer

        if not pygame.mixer.get_init():
            pygame.mixer.init(frequency=22050, size=-16, channels=2, buffer=512)
        self.device_open.set()
        self.device_closed.clear()
        return {name: pygame.mixer.Sound(str(path)) for name, path in paths.items()}

    def _close_device(self) -> None:
        try:
            import pygame.mixer

            if pygame.mixer.get_init():
                pygame.mixer.quit()
        except Exception as exc:  # closing must never fail the caller
            log.info("closing the mixer: %s", exc)
        if self.device_open.is_set():
            self.device_open.clear()
            self.device_closed.set()

    def set_volume(self, volume: float) -> None:
        """Set the volume, 0.0 to 1.0 (clamped)."""
        self.volume = min(1.0, max(0.0, volume))

    def set_muted(self, muted: bool) -> None:
        """Mute or unmute; muting stops nothing already playing (sounds are short)."""
        self.muted = muted

    def play(self, name: str) -> bool:
        """Play one sound; False when it will not be played (muted, silent, unknown)."""
        if self.muted or name not in self._paths or self.volume == 0.0:
            return False
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="sounds", daemon=True)
                self._thread.start()
        self._queue.put(name)
        return True

    def play_events(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """Play what one command's events call for; returns the sounds actually played."""
        return [name for name in sounds_for(events) if self.play(name)]

    def settle(self) -> None:
        """Wait until every sound handed over has been started (tests)."""
        self._queue.join()

    def _run(self) -> None:
        """The player's thread: open the device for a sound, close it after silence."""
        sounds: dict[str, Any] = {}
        while True:
            try:
                name = self._queue.get(timeout=max(0.05, self.idle_close_s) if sounds
                                       else None)
            except queue.Empty:
                if not self._busy():
                    sounds = {}
                    self._close_device()
                continue
            try:
                if name is None:
                    return
                if not sounds:
                    sounds = self._open_device(self._paths)
                sound = sounds[name]
                sound.set_volume(self.volume)
                sound.play()
            except Exception as exc:  # a device that vanished mid-game: try again next time
                log.info("sound failed: %s", exc)
                sounds = {}
                self._close_device()
            finally:
                self._queue.task_done()

    @staticmethod
    def _busy() -> bool:
        try:
            import pygame.mixer

            return bool(pygame.mixer.get_init() and pygame.mixer.get_busy())
        except Exception:  # a mixer gone: nothing plays
            return False

    def close(self) -> None:
        """Release the audio device."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()
        self._paths = {}
        self.available = False
        self._close_device()
