"""Who may talk to the remote: the cookie secret, one-time join codes, the banker's PIN
(with the table-wide throttle and the banker sessions' generation), the seats phones hold,
CSRF tokens, the Origin check and a per-phone rate limit.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from web_remote.store import read_json, write_json

#: how long a join link shown on the screen stays valid
JOIN_TTL_S = 15 * 60
PIN_ITERATIONS = 60_000


def load_secret(path: Path) -> bytes:
    """The cookie-signing secret, created once and kept so a restart logs nobody out."""
    try:
        data = path.read_bytes().strip()
        if len(data) >= 32:
            return data
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_hex(32).encode()
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(secret)
    tmp.replace(path)
    return secret


class JoinCodes:
    """One-time join codes: minted for the screen's QR code, spent when a phone joins."""

    def __init__(self, ttl: float = JOIN_TTL_S, clock: Callable[[], float] = time.monotonic,
                 on_spent: Callable[[], None] | None = None) -> None:
        self._codes: dict[str, float] = {}
        self._current: str | None = None
        self._lock = threading.Lock()
        self._ttl = ttl
        self._clock = clock
        self._on_spent = on_spent

    def mint(self, fresh: bool = True) -> str:
        """A join code; without `fresh`, the outstanding unspent one when there is one."""
        now = self._clock()
        with self._lock:
            self._codes = {c: t for c, t in self._codes.items() if t > now}
            if not fresh and self._current in self._codes:
                return self._current
            code = secrets.token_urlsafe(12)
            self._codes[code] = now + self._ttl
            self._current = code
            return code

    def valid(self, code: str) -> bool:
        """Whether the code may still be spent."""
        with self._lock:
            return self._codes.get(code, 0.0) > self._clock()

    def spend(self, code: str) -> bool:
        """Use the code up; False when it is unknown, spent or expired."""
        with self._lock:
            expiry = self._codes.pop(code, None)
            if self._current == code:
                self._current = None
        ok = expiry is not None and expiry > self._clock()
        if ok and self._on_spent is not None:
            self._on_spent()
        return ok


class PinStore:
    """The banker's PIN, kept only as a salted PBKDF2 hash in the data directory, with the
    generation of banker sessions: every banker cookie carries the generation it was given,
    and locking the banker phone or changing the PIN moves it on, ending every other one."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        raw = read_json(path, {})
        self._data: dict[str, Any] = raw if isinstance(raw, dict) else {}

    @property
    def is_set(self) -> bool:
        """Whether a banker PIN exists."""
        return bool(self._data.get("hash"))

    @property
    def generation(self) -> int:
        """The banker sessions' generation: a banker cookie of another one is void."""
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
        return generation

    def end_sessions(self) -> int:
        """End every banker session (the banker locked a phone); returns the new generation."""
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
    """Wrong banker PINs the banker has not yet seen: how many, since when, the last one, and
    how long the table now waits before it checks another PIN (seconds)."""

    wrong: int
    first: float
    last: float
    wait: float


@dataclass(frozen=True)
class PinVerdict:
    """One PIN check: "right", "wrong" or "wait" (not checked: `wait` seconds to go)."""

    result: str
    wait: float = 0.0

    @property
    def right(self) -> bool:
        """Whether the PIN was right."""
        return self.result == "right"


#: PIN checks the whole table may make per minute, whatever the number of phones
PIN_CHECKS_PER_MINUTE = 10
#: wrong PINs in a row before each next one doubles the wait (1 s, 2 s, 4 s ... 15 min)
FREE_WRONG = 3
MAX_BACKOFF_S = 15 * 60.0


class PinGuard:
    """The one door to the banker PIN for the whole table: at most 10 checks a minute, a
    wait that doubles after each further wrong PIN in a row, and a warning for the banker
    (on the banker page, and `on_warning` for the table screen) after every wrong one.
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
        self._checks: deque[float] = deque()
        self._in_a_row = 0
        self._not_before = 0.0
        self._unseen: list[float] = []

    def _wait(self, now: float) -> float:
        while self._checks and self._checks[0] <= now - 60.0:
            self._checks.popleft()
        wait = self._not_before - now
        if len(self._checks) >= self._per_minute:
            wait = max(wait, self._checks[0] + 60.0 - now)
        return max(0.0, wait)

    def wait(self) -> float:
        """Seconds until the table checks another PIN (0: now)."""
        with self._lock:
            return self._wait(self._clock())

    def check(self, pin: str) -> PinVerdict:
        """Check a PIN when the table may, counting it; a wrong one warns the banker."""
        now = self._clock()
        with self._lock:
            wait = self._wait(now)
            if wait > 0:
                return PinVerdict("wait", wait)
            self._checks.append(now)
        right = self.store.check(pin)
        with self._lock:
            if right:
                self._in_a_row = 0
                return PinVerdict("right")
            self._in_a_row += 1
            if self._in_a_row >= FREE_WRONG:
                backoff = min(MAX_BACKOFF_S, 2.0 ** (self._in_a_row - FREE_WRONG))
                self._not_before = max(self._not_before, now + backoff)
            self._unseen.append(self._wall())
            warning = self._warning(now)
        if self._on_warning is not None and warning is not None:
            self._on_warning(warning)
        return PinVerdict("wrong", self.wait())

    def _warning(self, now: float) -> PinWarning | None:
        if not self._unseen:
            return None
        return PinWarning(len(self._unseen), self._unseen[0], self._unseen[-1], self._wait(now))

    def warning(self) -> PinWarning | None:
        """The wrong PINs the banker has not yet seen (None: none)."""
        with self._lock:
            return self._warning(self._clock())

    def seen(self) -> None:
        """The banker saw the warning: it goes (the wait stays)."""
        with self._lock:
            self._unseen.clear()


class Seats:
    """Which phone holds each player's seat (player name -> the phone's device id), kept in
    the data directory: a fresh join link cannot take a held seat; only the banker releases
    it, which signs the old phone out at once."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        raw = read_json(path, {})
        self._held: dict[str, str] = {k: v for k, v in raw.items()
                                      if isinstance(k, str) and isinstance(v, str)} \
            if isinstance(raw, dict) else {}

    def holder(self, player: str) -> str | None:
        """The device holding the seat (None: free)."""
        with self._lock:
            return self._held.get(player)

    def holds(self, player: str, device: str) -> bool:
        """Whether this device holds the player's seat."""
        with self._lock:
            return bool(device) and self._held.get(player) == device

    def take(self, player: str, device: str) -> bool:
        """Give a free seat (or one this device holds) to the device; False when another
        phone holds it."""
        with self._lock:
            if self._held.get(player, device) != device:
                return False
            self._held[player] = device
            write_json(self._path, self._held, private=True)
            return True

    def release(self, player: str) -> bool:
        """Free the seat (the banker's "release this seat"); False when it was free."""
        with self._lock:
            if self._held.pop(player, None) is None:
                return False
            write_json(self._path, self._held, private=True)
            return True

    def held(self) -> list[str]:
        """The players whose seat a phone holds."""
        with self._lock:
            return sorted(self._held)


def valid_pin(pin: str) -> bool:
    """A PIN is 4 to 12 digits."""
    return pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12


class RateLimiter:
    """Token buckets per key (a phone, else an address): cheap, checked before any work."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str, cost: float = 1.0) -> bool:
        """Take `cost` tokens from the key's bucket; False when it is empty."""
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens < cost:
                self._buckets[key] = (tokens, now)
                return False
            self._buckets[key] = (tokens - cost, now)
            if len(self._buckets) > 4096:  # forget idle phones; keeps memory bounded
                full = [k for k, (t, _) in self._buckets.items() if t >= self.burst]
                for k in full[:2048]:
                    del self._buckets[k]
            return True


def new_token() -> str:
    """A random CSRF token."""
    return secrets.token_urlsafe(24)


def same_origin(origin: str | None, referer: str | None, host_url: str) -> bool:
    """Whether a POST comes from our own pages: Origin (else Referer) must match the host."""
    ours = urlsplit(host_url)
    for header in (origin, referer):
        if header and header != "null":
            theirs = urlsplit(header)
            return (theirs.scheme, theirs.netloc) == (ours.scheme, ours.netloc)
    return False
