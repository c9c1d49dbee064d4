"""A phone over real HTTP, for the benchmark and the end-to-end tests: joins with a link,
keeps its cookie, posts commands, and reads the live stream with timeouts (no sleeps; a
benchmark's phone may be paced to a number of requests a second, as a person's is).
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import time
from collections import deque
from typing import Any
from urllib.parse import urlencode, urlsplit

from web_remote.part_change import applied

_CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')


class HttpPhone:
    """One phone: its own connection for requests and one for the live stream."""

    def __init__(self, base_url: str, timeout: float = 10.0, source: str | None = None,
                 per_s: int | None = None) -> None:
        parts = urlsplit(base_url)
        self.base = base_url.rstrip("/")
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.timeout = timeout
        self.cookie = ""
        self.csrf = ""
        #: the address this phone connects from (a loopback one of its own: each phone of a
        #: table has its own), None: the kernel's choice
        self.source = (source, 0) if source else None
        self._conn = self._connection()
        self._stream: http.client.HTTPResponse | None = None
        self._stream_conn: http.client.HTTPConnection | None = None
        self._buffer = b""
        #: perf_counter() of the stream's last read, and of the block next_event returned last
        self._last_read = 0.0
        self.arrived = 0.0
        #: bytes of the stream's events read so far (keep-alives included)
        self.event_bytes = 0
        self._sock: socket.socket | None = None
        #: the live part the stream sent last, whole (web_remote.part_change)
        self._part: str | None = None
        #: at most this many requests in any second (the companion's rate limit refuses a
        #: phone more than 20 a second sustained): a request waits for its turn, None: never
        self.per_s = per_s
        self._sent: deque[float] = deque()
        #: how many times this phone waited for its turn under `per_s`
        self.paced = 0

    def wait_turn(self) -> None:
        """Wait until this phone may send its next request under `per_s` (at once when it
        may, or without a limit): a bench calls it before it starts a timed request, so the
        wait is outside the span it times; `request` then goes at once."""
        if self.per_s is None:
            return
        while True:
            now = time.monotonic()
            while self._sent and self._sent[0] <= now - 1.0:
                self._sent.popleft()
            if len(self._sent) < self.per_s:
                return
            self.paced += 1
            time.sleep(self._sent[0] + 1.0 - now)

    def _connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout,
                                          source_address=self.source)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        """One request on the keep-alive connection: status, headers, body (after waiting
        for its turn under `per_s`)."""
        if self.per_s is not None:
            self.wait_turn()
            self._sent.append(time.monotonic())
        h = {"Cookie": self.cookie} if self.cookie else {}
        h.update(headers or {})
        try:
            self._conn.request(method, path, body=body, headers=h)
            resp = self._conn.getresponse()
        except (http.client.HTTPException, OSError):
            self._conn.close()
            self._conn = self._connection()
            self._conn.request(method, path, body=body, headers=h)
            resp = self._conn.getresponse()
        data = resp.read()
        for key, value in resp.getheaders():
            if key.lower() == "set-cookie" and value.startswith("companion="):
                self.cookie = value.split(";", 1)[0]
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data

    def join(self, join_url: str, who: str, pin: str = "") -> int:
        """Open the join link, pick `who`, keep the cookie; the final status."""
        path = urlsplit(join_url).path
        status, _h, page = self.request("GET", path)
        if status != 200:
            return status
        self.csrf = _CSRF.search(page.decode()).group(1)  # type: ignore[union-attr]
        form = urlencode({"who": who, "pin": pin, "csrf_token": self.csrf}).encode()
        status, _h, _b = self.request("POST", path, form, {
            "Content-Type": "application/x-www-form-urlencoded", "Origin": self.base})
        if status == 302:  # joining gave a new cookie and with it a new CSRF token
            page = self.request("GET", "/rules")[2]
            self.csrf = _CSRF.search(page.decode()).group(1)  # type: ignore[union-attr]
        return status

    def post_json(self, path: str, body: Any) -> tuple[int, Any]:
        """POST JSON as the page's script does."""
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        status, _h, data = self.request("POST", path, raw, {
            "Content-Type": "application/json", "X-CSRF-Token": self.csrf,
            "Origin": self.base})
        try:
            return status, json.loads(data)
        except ValueError:
            return status, None

    def command(self, command: Any, version: int) -> tuple[int, Any]:
        """Submit a command against a version."""
        return self.post_json("/api/commands", {"command": command, "version": version})

    def state(self) -> Any:
        """GET /api/state."""
        return json.loads(self.request("GET", "/api/state")[2])

    def open_stream(self, part: str | None = None, shown: int | None = None) -> None:
        """Connect the live stream (its first event is the current version); with `part`
        (a page's address) it carries that page's live part, told the page shows `shown`."""
        conn = self._connection()
        query = {"part": part, "shown": shown}
        path = "/api/stream" + ("?" + urlencode({k: v for k, v in query.items()
                                                 if v is not None}) if part else "")
        conn.request("GET", path, headers={"Cookie": self.cookie,
                                                     "Accept": "text/event-stream"})
        self._sock = conn.sock  # http.client lets go of it for a response without a length
        resp = conn.getresponse()
        if resp.status != 200:
            raise ConnectionError(f"stream refused: {resp.status} "
                                  f"{resp.read(300).decode(errors='replace')}")
        self._stream_conn, self._stream = conn, resp
        self._part = None

    def next_event(self, timeout: float) -> tuple[str, Any] | None:
        """The next event (name, data), ("comment", text) for keep-alives, None on timeout."""
        assert self._stream is not None and self._stream_conn is not None
        deadline = time.monotonic() + timeout
        while True:
            if b"\n\n" in self._buffer:
                # the block was whole at the last read at the latest: its arrival, taken
                # before its JSON is parsed (a phone parses in its own browser, not here)
                self.arrived = self._last_read
                block, self._buffer = self._buffer.split(b"\n\n", 1)
                self.event_bytes += len(block) + 2
                event, data = "message", None
                comment = None
                for line in block.decode().split("\n"):
                    if line.startswith(":"):
                        comment = line[1:].strip()
                    elif line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:"):
                        data = json.loads(line[5:])
                if data is None and comment is not None:
                    return "comment", comment
                if data is not None:
                    if event == "part" and isinstance(data, dict):
                        # the whole part, as the page's script makes it of a change of the
                        # one before (None: a change of another text than this one's)
                        data["html"] = self._part = applied(self._part, data)
                    return event, data
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            assert self._sock is not None
            self._sock.settimeout(left)
            try:
                chunk = self._stream.read1(65536)
            except TimeoutError:
                return None
            if not chunk:
                raise ConnectionError("stream closed")
            self._last_read = time.perf_counter()
            self._buffer += chunk

    def wait_version(self, version: int, timeout: float) -> bool:
        """Read the stream until a state event of at least `version` arrives."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            item = self.next_event(left)
            if item is None:
                return False
            name, data = item
            if name == "state" and int(data["version"]) >= version:
                return True
        return False

    def hang_up(self) -> None:
        """End the stream's connection under its reader: a thread blocked reading it wakes
        up to the end of the stream (close the phone once that thread is done)."""
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        """Close both connections."""
        self.hang_up()
        for conn in (self._conn, self._stream_conn):
            if conn is not None:
                conn.close()
        if self._stream is not None:
            self._stream.close()
