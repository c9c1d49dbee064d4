"""Who may talk to the remote: the cookie secret, one-time join codes, the seats phones
hold, CSRF tokens, the Origin check and a per-phone rate limit. The banker's PIN and its
table-wide guard are the screen's too: companion.game.pins.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

from companion.paths import trusted_file_problem
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
    """One-time join codes: minted for the screen's QR code, spent when a phone joins (or
    when a wrong banker PIN is typed on it: one guess per link). `on_spent(joined)` is told
    which, so the screen shows the next code and says "a phone joined" only for a join."""

    def __init__(self, ttl: float = JOIN_TTL_S, clock: Callable[[], float] = time.monotonic,
                 on_spent: Callable[[bool], None] | None = None) -> None:
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

    def spend(self, code: str, joined: bool = True) -> bool:
        """Use the code up (`joined`: a phone joined with it, else a guess used it); False
        when it is unknown, spent or expired."""
        with self._lock:
            expiry = self._codes.pop(code, None)
            if self._current == code:
                self._current = None
        ok = expiry is not None and expiry > self._clock()
        if ok and self._on_spent is not None:
            self._on_spent(joined)
        return ok


#: the seats file, in the phone remote's folder of the data directory
SEATS_FILE = Path("web") / "seats.json"
#: the holder of every seat while the seats file is damaged: no phone's device id
UNKNOWN_HOLDER = "?"


def seats_file_problem(path: Path) -> str | None:
    """Why the seats file cannot be trusted (one line), or None when it is sound or absent
    (no seat held yet). A damaged file must never read as "every seat free": the next join
    link would take a seat another phone holds."""
    return trusted_file_problem(
        path, "the phones' seats file",
        lambda data: isinstance(data, dict)
        and all(isinstance(v, str) and v for v in data.values()),
        "Put it back from a backup, or delete it to let each player's phone join its seat "
        "again")


class Seats:
    """Which phone holds each player's seat (player name -> the phone's device id), kept in
    the data directory: a fresh join link cannot take a held seat; only the banker releases
    it, which signs the old phone out at once.

    A damaged file (`damaged`) holds every seat for no phone until the banker releases it
    (`companion run` refuses to start on it anyway, companion.app.row_check); while it is
    damaged nothing is written over it, so a restart holds every seat again."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        self.damaged = seats_file_problem(path) is not None
        raw = {} if self.damaged else read_json(path, {})
        self._held: dict[str, str] = {k: v for k, v in raw.items()
                                      if isinstance(k, str) and isinstance(v, str)} \
            if isinstance(raw, dict) else {}
        self._released: set[str] = set()  # seats the banker freed while the file is damaged

    def holder(self, player: str) -> str | None:
        """The device holding the seat (None: free; UNKNOWN_HOLDER: the file is damaged and
        the banker has not released it)."""
        with self._lock:
            return self._holder(player)

    def _holder(self, player: str) -> str | None:
        held = self._held.get(player)
        if held is None and self.damaged and player not in self._released:
            return UNKNOWN_HOLDER
        return held

    def _save(self) -> None:
        if not self.damaged:  # a damaged file stays as it is: a restart holds every seat
            write_json(self._path, self._held, private=True)

    def holds(self, player: str, device: str) -> bool:
        """Whether this device holds the player's seat."""
        with self._lock:
            return bool(device) and self._held.get(player) == device

    def take(self, player: str, device: str) -> bool:
        """Give a free seat (or one this device holds) to the device; False when another
        phone holds it."""
        with self._lock:
            if not device or device == UNKNOWN_HOLDER or \
                    (self._holder(player) or device) != device:
                return False
            self._held[player] = device
            self._save()
            return True

    def release(self, player: str) -> bool:
        """Free the seat (the banker's "release this seat"); False when it was free."""
        with self._lock:
            if self._holder(player) is None:
                return False
            self._held.pop(player, None)
            if self.damaged:
                self._released.add(player)
            self._save()
            return True

    def held(self, players: Iterable[str] = ()) -> list[str]:
        """The players whose seat a phone holds; while the file is damaged also each of
        `players` (the game's) the banker has not released."""
        with self._lock:
            return sorted({*self._held, *(p for p in players if self._holder(p) is not None)})


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


def table_names() -> list[str]:
    """The names this machine answers to on the table's network: its host name and the
    mDNS name avahi announces (`<name>.local`, docs: deploy/install.sh)."""
    name = socket.gethostname().strip().lower()
    if not name or name == "localhost":
        return []
    base = name.removesuffix(".local")
    return [base, f"{base}.local"]


def table_origins(scheme: str, server_name: str, server_port: str, names: Iterable[str],
                  configured: str | None = None) -> list[str]:
    """The origins the table's own pages have for a request that arrived on `server_name`
    and `server_port` (this server's end of the connection, never the Host header the
    sender writes): that address, the table's `names` on that port, `localhost` when the
    connection is a loopback one, and the configured table URL."""
    host = server_name.strip("[]")
    port = server_port or ("443" if scheme == "https" else "80")
    hosts = [host, *names]
    try:
        if ipaddress.ip_address(host).is_loopback:
            hosts.append("localhost")
    except ValueError:
        pass
    found = [f"{scheme}://[{h}]:{port}" if ":" in h else f"{scheme}://{h}:{port}" for h in hosts]
    return found + ([configured] if configured else [])


#: an origin's key: scheme, host name and port
OriginKey = tuple[str, str, int]


@functools.lru_cache(maxsize=64)
def table_origin_keys(scheme: str, server_name: str, server_port: str, names: tuple[str, ...],
                      configured: str | None = None) -> frozenset[OriginKey]:
    """The keys of `table_origins` (same arguments), made once per address and port a
    request arrives on, not for every POST."""
    return frozenset(key for origin in table_origins(scheme, server_name, server_port, names,
                                                     configured)
                     if (key := _origin_key(origin)) is not None)


@functools.lru_cache(maxsize=64)  # a phone sends the same Origin with every POST
def _origin_key(url: str) -> OriginKey | None:
    """(scheme, host, port) of an origin or URL, the default port filled in; None: unreadable."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return scheme, parts.hostname.lower().rstrip("."), port or (443 if scheme == "https" else 80)


def same_origin(origin: str | None, referer: str | None, ours: frozenset[OriginKey]) -> bool:
    """Whether a POST comes from our own pages: Origin (else Referer) must be one of the
    table's own origins, `ours` their keys (table_origin_keys). Not the Host header: a page
    of another site whose name points at the table (DNS rebinding) sends a Host matching
    its Origin."""
    for header in (origin, referer):
        if header and header != "null":
            theirs = _origin_key(header)
            return theirs is not None and theirs in ours
    return False
