"""Who may talk to the remote: the cookie secret, one-time join codes, the seats phones
hold, CSRF tokens, the Origin check and a per-phone rate limit. The banker's PIN and its
table-wide guard are the screen's too: companion.game.pins.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from web_remote.store import read_json, write_json

#: how long a join link shown on the screen stays valid
JOIN_TTL_S = 15 * 60
#: the ASGI scope key where the app marks a request sent by a player's or the banker's
#: phone, so that the serving loop (web_remote.serving) keeps that address's connections
#: before anyone else's; absent when another WSGI server runs the app
TABLE_SLOT = "web_remote.table"


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
