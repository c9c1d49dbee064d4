"""The remote keeps serving a hostile or unlucky table (issue 17, "live updates that cannot
starve the remote"), over real sockets on loopback: 50 streaming phones leave room for
commands, a phone reloading 40 times does not stop the remote, and 220 idle sockets from
an unjoined laptop (127.0.0.2) do not stop a joined phone. No sleeps: every wait is on
sockets with a deadline. About 30 s in all, 20 of them the issue's 20-second load."""

from __future__ import annotations

import math
import re
import selectors
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tools.bench.probe import HttpPhone
from web_remote import create_app, join_url, serve
from web_remote.hub import PER_DEVICE
from web_remote.serving import ServerHandle

_ID = re.compile(rb"\nid: (\d+)\n")


def start(game: Any, tmp_path: Path, **kwargs: Any) -> ServerHandle:
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468", "rate_per_s": 1000.0,
                                               "burst": 1000.0})
    return serve(app, "127.0.0.1", 0, **kwargs)


def joined(server: ServerHandle, who: str, pin: str = "") -> HttpPhone:
    phone = HttpPhone(server.url, timeout=5)
    assert phone.join(join_url(server.app, server.url), who, pin) == 302
    return phone


class RawStream:
    """One phone's live stream on a socket from its own address, read without blocking;
    remembers the newest version seen."""

    def __init__(self, port: int, cookie: str, source: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                             source_address=(source, 0))
        self.sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          f"Cookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.sock.setblocking(False)
        self.head = b""
        self.tail = b"\n"
        self.version = 0
        self.closed = False

    def feed(self) -> None:
        """Read what has come (the socket is readable)."""
        try:
            chunk = self.sock.recv(1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.closed = True
            return
        if len(self.head) < 12:
            self.head += chunk[:12]
        seen = self.tail + chunk
        for found in _ID.findall(seen):
            self.version = max(self.version, int(found))
        self.tail = seen[-40:]

    def close(self) -> None:
        self.sock.close()


class Reader(threading.Thread):
    """Drains every stream on one thread until stopped; `wait` blocks for a condition."""

    def __init__(self, streams: list[RawStream]) -> None:
        super().__init__(name="test-stream-reader", daemon=True)
        self.streams = streams
        self.selector = selectors.DefaultSelector()
        for s in streams:
            self.selector.register(s.sock, selectors.EVENT_READ, s)
        self.halt = threading.Event()
        self.changed = threading.Condition()

    def run(self) -> None:
        while not self.halt.is_set():
            for key, _mask in self.selector.select(timeout=0.2):
                stream: RawStream = key.data
                stream.feed()
                if stream.closed:
                    self.selector.unregister(stream.sock)
            with self.changed:
                self.changed.notify_all()

    def wait(self, done: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self.changed:
            while not done():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
        return True

    def stop(self) -> None:
        self.halt.set()
        self.join(5)
        self.selector.close()


def test_fifty_streaming_phones_leave_room_for_commands(game: Any, tmp_path: Path) -> None:
    with start(game, tmp_path) as server:
        # 50 streams of spectators (the game has three seats): let spectators hold them all
        server.app.extensions["web_remote"].hub.spectators = 64
        cookies = []
        for _ in range(50):
            spectator = joined(server, "spectator")
            cookies.append(spectator.cookie)
            spectator.close()
        streams = [RawStream(server.port, c, f"127.0.0.{10 + i}") for i, c in enumerate(cookies)]
        reader = Reader(streams)
        reader.start()
        try:
            first = game.version
            assert reader.wait(lambda: all(s.version >= first for s in streams), 10)
            assert all(s.head.startswith(b"HTTP/1.1 200") for s in streams)
            banker = joined(server, "banker", "2468")
            version, payer, took = game.version, ("Ann", "Bo"), []
            ok = 0
            end = time.monotonic() + 20
            while time.monotonic() < end:
                began = time.monotonic()
                status, body = banker.command(
                    {"do": "pay", "from": payer[0], "to": payer[1], "amount": 1}, version)
                took.append(time.monotonic() - began)
                if status == 200:
                    ok += 1
                    version = body["version"]
                    payer = payer[::-1]
                else:
                    version = banker.state()["version"]
            took.sort()
            p99 = took[math.ceil(0.99 * len(took)) - 1]
            assert ok / len(took) >= 0.95, (ok, len(took))
            assert p99 <= 0.5, p99
            assert len(took) >= 20  # the load really ran
            assert reader.wait(lambda: all(s.version >= version for s in streams), 10), \
                sorted(s.version for s in streams)[:5]
            banker.close()
        finally:
            reader.stop()
            for s in streams:
                s.close()


def test_forty_quick_reloads_then_ten_commands_each_answered_in_2s(game: Any,
                                                                    tmp_path: Path) -> None:
    with start(game, tmp_path) as server:
        ann = joined(server, "player:Ann")
        ann.close()
        for _ in range(40):  # each reload opens the stream, sees the table, and goes away
            page = HttpPhone(server.url, timeout=2)
            page.cookie = ann.cookie
            page.open_stream()
            assert page.next_event(2) is not None
            page.close()
        assert server.app.extensions["web_remote"].hub.count <= PER_DEVICE
        banker = joined(server, "banker", "2468")
        version = game.version
        for n in range(10):
            began = time.monotonic()
            status, body = banker.command({"do": "pay", "from": "Ann", "to": "Bo",
                                           "amount": 1 + n}, version)
            assert status == 200, body
            assert time.monotonic() - began <= 2.0
            version = body["version"]
        banker.close()


def test_220_idle_sockets_do_not_stop_a_joined_phone(game: Any, tmp_path: Path) -> None:
    with start(game, tmp_path, first_request_s=1.0) as server:
        ann = joined(server, "player:Ann")
        ann.close()  # its next request opens a new connection, after the idle ones
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                         source_address=("127.0.0.2", 0)) for _ in range(220)]
        try:
            for _ in range(3):
                began = time.monotonic()
                state = ann.state()
                status, body = ann.command({"do": "roll", "dice": [1, 2]}, state["version"])
                assert status in (200, 422), body
                assert time.monotonic() - began <= 2.0
                ann.close()
            assert closed_by_server(idle, 5.0) == len(idle)  # refused at once, or timed out
        finally:
            for s in idle:
                s.close()
            ann.close()


def closed_by_server(socks: list[socket.socket], timeout: float) -> int:
    """How many of `socks` the server closed (a 503 first, or just the end) within
    `timeout`."""
    selector = selectors.DefaultSelector()
    for s in socks:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
    ended = 0
    deadline = time.monotonic() + timeout
    while ended < len(socks) and (left := deadline - time.monotonic()) > 0:
        for key, _mask in selector.select(left):
            sock: socket.socket = key.fileobj  # type: ignore[assignment]
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            if not data:
                selector.unregister(sock)
                ended += 1
            else:
                assert data.startswith(b"HTTP/1.1 503"), data[:40]
    selector.close()
    return ended


def stream_of(server: ServerHandle, cookie: str) -> HttpPhone:
    page = HttpPhone(server.url, timeout=2)
    page.cookie = cookie
    page.open_stream()
    assert page.next_event(2) is not None
    return page


def test_streams_are_capped_per_phone_and_in_total(game: Any, tmp_path: Path) -> None:
    app = create_app(game, tmp_path / "game", {"streams_max": 3, "streams_per_device": 2,
                                               "rate_per_s": 1000.0, "burst": 1000.0})
    with serve(app, "127.0.0.1", 0) as server:
        ann = joined(server, "player:Ann")
        ann.close()
        tabs = [stream_of(server, ann.cookie) for _ in range(3)]  # a reload, twice
        with pytest.raises(ConnectionError):  # the oldest ended for the newer ones
            while tabs[0].next_event(2) is not None:
                pass
        bo = joined(server, "player:Bo")
        bo.close()
        bo_tab = stream_of(server, bo.cookie)
        status, headers, body = bo.request("HEAD", "/api/stream")  # opens no stream
        assert status == 200 and body == b""
        cy = joined(server, "player:Cy")
        status, headers, body = cy.request("GET", "/api/stream")
        assert status == 503 and headers["retry-after"] == "10"
        assert b'"code":"rate_limited"' in body.replace(b" ", b"")
        bo_tab.close()  # the page is closed: its place is free at once
        hub = app.extensions["web_remote"].hub
        deadline = time.monotonic() + 2
        while hub.count >= 3 and time.monotonic() < deadline:  # noticed in milliseconds
            pass
        assert hub.count == 2
        tabs.append(stream_of(server, cy.cookie))
        for page in tabs + [cy, bo, ann]:
            page.close()


def raw_post(port: int, source: str, head: str, body: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    sock.sendall(head.encode() + body)
    return sock


def test_slow_bodies_hold_no_thread_and_big_ones_stay_refused(game: Any,
                                                              tmp_path: Path) -> None:
    with start(game, tmp_path, threads=2) as server:
        banker = joined(server, "banker", "2468")
        head = (f"POST /api/commands HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                f"Content-Type: application/json\r\nCookie: {banker.cookie}\r\n"
                f"X-CSRF-Token: {banker.csrf}\r\nOrigin: {server.url}\r\n")
        slow = [raw_post(server.port, "127.0.0.3", head + "Content-Length: 100\r\n\r\n",
                         b'{"version"') for _ in range(6)]  # the rest never comes
        began = time.monotonic()
        status, body = banker.command({"do": "pay", "from": "Ann", "to": "Bo", "amount": 5},
                                      game.version)
        assert status == 200, body
        assert time.monotonic() - began <= 2.0
        huge = raw_post(server.port, "127.0.0.4",
                        head + f"Content-Length: {10 * 1024 * 1024}\r\n\r\n", b"[" * 1000)
        assert huge.recv(4096).startswith(b"HTTP/1.1 413")
        chunked = raw_post(server.port, "127.0.0.4", head + "Transfer-Encoding: chunked\r\n\r\n",
                           (b"10000\r\n" + b"[" * 0x10000 + b"\r\n") * 2 + b"0\r\n\r\n")
        assert chunked.recv(4096).startswith(b"HTTP/1.1 413")
        for sock in slow + [huge, chunked]:
            sock.close()
        banker.close()
