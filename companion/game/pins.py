"""The banker's PIN and its one guard for the whole table, the screen's and the phones' alike.

The PIN is kept only as a salted PBKDF2 hash in the data directory (`web/banker.json`),
with the generation of banker sessions. `PinGuard` is the only way to check it: at most 10
checks a minute at each door (all the phones together, the screen's banker menu, an open
banker session), a wait that doubles after each further wrong PIN in a row at that door,
and a warning for the banker after every wrong one, wherever it was typed: guessing on
phones never locks the banker out. companion/app builds one guard and hands it to both.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.paths import read_json, trusted_file_problem, write_json

PIN_ITERATIONS = 60_000
MIN_PIN, MAX_PIN = 4, 12
#: where the remote keeps the banker PIN, in the data directory
PIN_FILE = Path("web") / "banker.json"


def valid_pin(pin: str) -> bool:
    """A PIN is 4 to 12 digits."""
    return pin.isascii() and pin.isdigit() and MIN_PIN <= len(pin) <= MAX_PIN


def pin_file_problem(path: Path) -> str | None:
    """Why the banker PIN file cannot be trusted (one line), or None when it is sound or
    absent (no PIN set yet). A damaged file must never read as "no PIN": the next phone
    would set its own and be the banker."""
    return trusted_file_problem(
        path, "the banker PIN file", lambda data: isinstance(data, dict) and _sound(data),
        "Put it back from a backup, or delete it to let the next banker who joins set a new "
        "PIN")


def _sound(data: dict[str, Any]) -> bool:
    """Whether a PIN file's content is what PinStore writes."""
    generation = data.get("generation", 0)
    if isinstance(generation, bool) or not isinstance(generation, int):
        return False
    if "hash" not in data and "salt" not in data:
        return True  # no PIN set (the banker phones were locked before one was)
    salt, digest = data.get("salt"), data.get("hash")
    if not (isinstance(salt, str) and isinstance(digest, str) and len(digest) == 64):
        return False
    try:
        bytes.fromhex(salt), bytes.fromhex(digest)
    except ValueError:
        return False
    return True


class PinStore:
    """The banker's PIN, kept only as a salted PBKDF2 hash in the data directory, with the
    generation of banker sessions: every banker cookie carries the generation it was given,
    and locking the banker phone or changing the PIN moves it on, ending every other one.

    A damaged file (`damaged`) keeps the table PIN-locked: a PIN is set, and none is right,
    until the banker sets a new one (the screen's setup, or the banker card's menu);
    `companion run` refuses to start on it anyway (companion.app.row_check)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        self.damaged = pin_file_problem(path) is not None
        raw = {} if self.damaged else read_json(path, {})
        self._data: dict[str, Any] = raw if isinstance(raw, dict) else {}

    @property
    def is_set(self) -> bool:
        """Whether a banker PIN exists (a damaged file counts: never an open banker seat)."""
        return self.damaged or bool(self._data.get("hash"))

    @property
    def generation(self) -> int:
        """The banker sessions' generation: a banker cookie of another one is void (every
        one, while the file is damaged)."""
        if self.damaged:
            return -1
        value = self._data.get("generation", 0)
        return value if isinstance(value, int) else 0

    def set(self, pin: str) -> int:
        """Set (or change) the PIN; every banker session made before ends. Returns the new
        generation (for the phone that changed it, which stays the banker)."""
        salt = secrets.token_hex(16)
        digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), PIN_ITERATIONS)
        with self._lock:
            generation = self.generation + 1
            self._data = {"salt": salt, "hash": digest.hex(), "generation": generation}
            write_json(self._path, self._data, private=True)
            self.damaged = False
        return generation

    def end_sessions(self) -> int:
        """End every banker session (the banker locked a phone); returns the new generation.
        A damaged file is left as it is (it ends every session already)."""
        if self.damaged:
            return self.generation
        with self._lock:
            generation = self.generation + 1
            self._data = {**self._data, "generation": generation}
            write_json(self._path, self._data, private=True)
        return generation

    def check(self, pin: str) -> bool:
        """Whether the PIN is right (constant-time comparison). Callers go through PinGuard,
        which limits how often this may be asked."""
        with self._lock:
            data = dict(self._data)
        if not data.get("hash"):
            return False
        digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(data["salt"]),
                                     PIN_ITERATIONS)
        return hmac.compare_digest(digest.hex(), data["hash"])


@dataclass(frozen=True)
class PinWarning:
    """Wrong banker PINs the banker has not yet seen: how many, since when, the last one,
    how long the door it was typed at now waits before it checks another PIN (seconds),
    and where the last one was typed."""

    wrong: int
    first: float
    last: float
    wait: float
    where: str = "phone"  # where the last wrong one was typed: "phone" or "screen"


@dataclass(frozen=True)
class PinVerdict:
    """One PIN check: "right", "wrong" or "wait" (not checked: `wait` seconds to go)."""

    result: str
    wait: float = 0.0

    @property
    def right(self) -> bool:
        """Whether the PIN was right."""
        return self.result == "right"


#: PIN checks one door may make per minute (the phones' door: whatever their number)
PIN_CHECKS_PER_MINUTE = 10
#: wrong PINs in a row before each next one doubles the wait (1 s, 2 s, 4 s ... 15 min)
FREE_WRONG = 3
MAX_BACKOFF_S = 15 * 60.0
#: the doors a PIN is typed at, each throttled on its own: the phones that are not the
#: banker's (all of them together, however many cookies they rotate), the table screen's
#: banker menu, and a banker session already open (changing the PIN asks the old one)
LANES = ("phone", "screen", "banker")


class _Door:
    """One door's throttle: the checks of the last minute and the wrong PINs in a row."""

    __slots__ = ("checks", "in_a_row", "not_before")

    def __init__(self) -> None:
        self.checks: deque[float] = deque()
        self.in_a_row = 0
        self.not_before = 0.0

    def wait(self, now: float, per_minute: int) -> float:
        while self.checks and self.checks[0] <= now - 60.0:
            self.checks.popleft()
        wait = self.not_before - now
        if len(self.checks) >= per_minute:
            wait = max(wait, self.checks[0] + 60.0 - now)
        return max(0.0, wait)


class PinGuard:
    """The one guard of the banker PIN for the whole table, with a door for each place a
    PIN is typed (LANES): at most 10 checks a minute at a door, a wait that doubles after
    each further wrong PIN in a row there, and a warning for the banker (on the banker page,
    and `on_warning` for the table screen) after every wrong one, wherever it was typed.
    Guesses from phones never make the screen's banker menu or an open banker session wait,
    and the banker card needs no PIN at all: the banker is never locked out.
    The clock is injected, so tests need no sleeping."""

    def __init__(self, store: PinStore, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time,
                 on_warning: Callable[[PinWarning], None] | None = None,
                 per_minute: int = PIN_CHECKS_PER_MINUTE) -> None:
        self.store = store
        self._clock = clock
        self._wall = wall
        self._on_warning = on_warning
        self._per_minute = per_minute
        self._lock = threading.Lock()
        self._doors = {lane: _Door() for lane in LANES}
        self._unseen: list[float] = []
        self._where = "phone"
        self._last_lane = "phone"

    def _door(self, lane: str) -> _Door:
        return self._doors.get(lane) or self._doors["phone"]

    def wait(self, lane: str = "phone") -> float:
        """Seconds until the door `lane` checks another PIN (0: now)."""
        with self._lock:
            return self._door(lane).wait(self._clock(), self._per_minute)

    def check(self, pin: str, where: str = "phone", lane: str | None = None) -> PinVerdict:
        """Check a PIN when its door may, counting it; a wrong one warns the banker
        (`where`: "phone" or "screen", said in the warning; `lane`: the door, `where` unless
        said: "banker" for a phone whose banker session is open)."""
        lane = lane if lane in LANES else where
        now = self._clock()
        with self._lock:
            door = self._door(lane)
            wait = door.wait(now, self._per_minute)
            if wait > 0:
                return PinVerdict("wait", wait)
            door.checks.append(now)
        right = self.store.check(pin)
        with self._lock:
            if right:
                door.in_a_row = 0
                return PinVerdict("right")
            door.in_a_row += 1
            if door.in_a_row >= FREE_WRONG:
                backoff = min(MAX_BACKOFF_S, 2.0 ** (door.in_a_row - FREE_WRONG))
                door.not_before = max(door.not_before, now + backoff)
            self._unseen.append(self._wall())
            self._where = where
            self._last_lane = lane
            warning = self._warning(now)
            wait = door.wait(now, self._per_minute)
        if self._on_warning is not None and warning is not None:
            self._on_warning(warning)
        return PinVerdict("wrong", wait)

    def _warning(self, now: float) -> PinWarning | None:
        if not self._unseen:
            return None
        wait = self._door(self._last_lane).wait(now, self._per_minute)
        return PinWarning(len(self._unseen), self._unseen[0], self._unseen[-1], wait,
                          self._where)

    def warning(self) -> PinWarning | None:
        """The wrong PINs the banker has not yet seen (None: none)."""
        with self._lock:
            return self._warning(self._clock())

    def seen(self) -> None:
        """The banker saw the warning: it goes (the wait stays)."""
        with self._lock:
            self._unseen.clear()
