"""The remote served over real HTTP (web_remote.serving): live updates reach every phone,
keep-alives flow, and stopping the server ends the streams."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tools.bench.probe import HttpPhone
from web_remote import create_app, join_url, serve
from web_remote.serving import ServerHandle


@pytest.fixture
def server(game: Any, tmp_path: Path, parser: str) -> Iterator[ServerHandle]:
    """The remote on `parser` (httptools where installed, and h11)."""
    app = create_app(game, tmp_path / "game", {"keepalive_s": 0.2, "banker_pin": "2468"})
    handle = serve(app, "127.0.0.1", 0, threads=32, pure=parser == "h11")
    assert handle.parser == parser
    yield handle
    handle.stop()


def phone(server: ServerHandle, who: str, pin: str = "") -> HttpPhone:
    p = HttpPhone(server.url)
    assert p.join(join_url(server.app, server.url), who, pin) == 302
    return p


def test_every_phone_sees_a_command_live(server: ServerHandle, game: Any) -> None:
    phones = [phone(server, "player:Ann"), phone(server, "player:Bo"),
              phone(server, "spectator")]
    for p in phones:
        p.open_stream()
        assert p.wait_version(game.version, 5)
    status, body = phones[0].command({"do": "roll", "dice": [1, 2]}, game.version)
    assert status == 200, body
    for p in phones:
        assert p.wait_version(body["version"], 5)
        p.close()


def test_keepalives_flow(server: ServerHandle) -> None:
    p = phone(server, "spectator")
    p.open_stream()
    seen = [p.next_event(5) for _ in range(3)]
    assert ("comment", "keep-alive") in seen
    p.close()


def test_a_keepalive_comes_once_a_stream_was_quiet(server: ServerHandle, game: Any) -> None:
    """After a move's event the stream says nothing until it has been quiet for its
    keep-alive time (0.2 s here), then keeps the connection alive again."""
    p = phone(server, "player:Ann")
    p.open_stream()
    assert p.wait_version(game.version, 5)
    status, body = p.command({"do": "roll", "dice": [1, 2]}, game.version)
    assert status == 200, body
    assert p.wait_version(body["version"], 5)
    told, alive = p.arrived, 0
    for _ in range(20):
        item = p.next_event(5)
        assert item is not None
        if item != ("comment", "keep-alive"):  # the move's other events (news, trades)
            told = p.arrived
            continue
        assert p.arrived - told >= 0.15  # not before the stream was quiet (0.2 s)
        told, alive = p.arrived, alive + 1
        if alive == 3:
            break
    assert alive == 3
    p.close()


def test_stop_ends_streams(game: Any, tmp_path: Path) -> None:
    app = create_app(game, tmp_path / "game", {"keepalive_s": 30})
    handle = serve(app, "127.0.0.1", 0)
    p = phone(handle, "spectator")
    p.open_stream()
    assert p.next_event(5) is not None
    handle.stop()
    with pytest.raises((ConnectionError, OSError)):
        while p.next_event(5) is not None:
            pass
        raise ConnectionError("no more events")
    p.close()


def test_stop_joins_every_thread_and_closes_the_port(game: Any, tmp_path: Path) -> None:
    """Stopping ends the serving loop's thread and the pool's threads, and closes the port,
    an idle kept-alive connection (a phone between requests) included."""
    before = set(threading.enumerate())
    app = create_app(game, tmp_path / "game", {"keepalive_s": 30})
    handle = serve(app, "127.0.0.1", 0, threads=6)
    idle = phone(handle, "player:Ann")  # its connection stays open after the join
    streaming = phone(handle, "spectator")
    streaming.open_stream()
    assert streaming.next_event(5) is not None
    started = {t.name for t in set(threading.enumerate()) - before}
    assert "web-remote" in started  # the event loop's thread; the stream holds no other
    assert 1 <= len({n for n in started if n.startswith("WSGI")}) <= 6
    handle.stop()
    assert [t.name for t in set(threading.enumerate()) - before if t.is_alive()] == []
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", handle.port), timeout=2).close()
    idle.close()
    streaming.close()


def test_page_and_static_over_http(server: ServerHandle) -> None:
    p = phone(server, "player:Ann")
    for path in ("/me", "/table", "/history", "/worth", "/rules", "/static/app.js",
                 "/static/app.css"):
        status, headers, body = p.request("GET", path)
        assert status == 200, path
        assert body
    p.close()


def test_bench_reports_the_flood() -> None:
    """(The fan-out to 12 phones: tests/test_bench_real_path.py, on a real companion run.)"""
    from tools.bench.web import run_bench

    result = run_bench()
    assert result["web.flood_untouched"] == 1.0
    assert result["web.flood_rate_limited"] > 0


def test_one_publish_wakes_every_stream_with_one_hand_over() -> None:
    """A move published to every phone's queue wakes the serving loop once for all of their
    streams (web_remote.serving.Wakers), not once per phone; each stream is woken, and a
    stream woken after the loop took the first batch is handed over again."""
    import asyncio
    import threading

    from web_remote.hub import Hub
    from web_remote.serving import Wakers

    loop = asyncio.new_event_loop()
    try:
        handed: list[object] = []
        real = loop.call_soon_threadsafe

        def counted(callback: Any, *args: Any) -> Any:
            handed.append(callback)
            return real(callback, *args)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign,assignment]
        wakers = Wakers(loop)
        hub = Hub()
        events = [asyncio.Event() for _ in range(12)]
        clients = []
        for k, event in enumerate(events):
            client = hub.subscribe(f"phone{k}")
            assert client is not None
            client.waker = wakers.waker(event)
            clients.append(client)
        publisher = threading.Thread(target=hub.publish, args=("state", {"version": 2}))
        publisher.start()  # from another thread, as the session's listener publishes
        publisher.join(5)
        assert len(handed) == 1 and not any(e.is_set() for e in events)
        loop.run_until_complete(asyncio.sleep(0))  # the loop runs the one hand-over
        assert all(e.is_set() for e in events)
        assert all(c.take()[0][0].payload == {"version": 2} for c in clients)
        hub.publish("state", {"version": 3})
        assert len(handed) == 2  # the next move: one hand-over again
    finally:
        loop.close()


def test_a_phone_that_stops_reading_holds_up_nobody(server: ServerHandle, game: Any) -> None:
    """A phone stops reading its stream (a cheater's, or a phone asleep) while the table
    plays on: its socket and then the server's buffer for it fill (uvicorn's flow control
    makes its writes wait), and every other phone still has every event, in order, and the
    server answers; when it goes away, its stream is forgotten. (The writes from the loop's
    wake-up, web_remote.serving.pump: a write that must wait is finished by a task of its
    own, the stream's bytes in order.)"""
    import time

    hub = server.app.extensions["web_remote"].hub
    stuck, reader = phone(server, "spectator"), phone(server, "player:Ann")
    stuck.open_stream()
    reader.open_stream()
    assert stuck.wait_version(game.version, 5) and reader.wait_version(game.version, 5)
    streams = hub.count
    blob = "x" * 40_000  # 40 KB an event: megabytes in a few hundred
    got: list[int] = []
    arrived = threading.Condition()

    def read() -> None:
        while len(got) < 150:
            item = reader.next_event(10)
            if item is None:
                return
            if item[0] == "bulk":
                with arrived:
                    got.append(int(item[1]["n"]))
                    arrived.notify_all()

    t = threading.Thread(target=read)
    t.start()
    for n in range(150):  # one at a time, as moves come: each written before the next
        hub.publish("bulk", {"n": n, "pad": blob})
        with arrived:
            assert arrived.wait_for(lambda n=n: len(got) > n, 10), f"event {n} not read"
    t.join(10)
    assert got == list(range(150))  # every event, in order, for the phone that reads
    other = phone(server, "spectator")
    assert other.request("GET", "/table?partial=1")[0] == 200
    other.close()
    stuck.close()  # the stuck phone goes away: its stream ends, the hub forgets it
    deadline = time.monotonic() + 10
    while hub.count >= streams and time.monotonic() < deadline:  # noticed in milliseconds
        pass
    assert hub.count == streams - 1
    reader.close()
