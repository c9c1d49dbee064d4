"""Slow requests and floods never stop the remote (issue 26, point 4), played through the
real uvicorn serving (web_remote.serving) on loopback addresses 127.0.0.x, each attack
bounded in sockets and in time:

- slowloris after a kept-alive request: the next head is half sent (or dribbled a line at
  a time) and the server closes it when its deadline passes;
- a laptop with 20 addresses holding 32 half-sent requests each (640 sockets, more than
  the remote's 512 connections), or 512 addresses holding one each: the banker and the
  players are still answered;
- streams flooded by spectators from many addresses: spectators hold only their share,
  the players' and the banker's streams are always served and get every update;
- rotating cookies from one address: its requests share the address's rate limit, while a
  player's phone at that address is still served.

No sleeps: every wait is a select on the sockets with a deadline."""

from __future__ import annotations

import http.client
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tools.bench.probe import HttpPhone
from web_remote import create_app, join_url, serve
from web_remote.hub import Hub
from web_remote.serving import MAX_CONNECTIONS, PER_ADDRESS, ServerHandle

PIN = "2468"
WAIT_S = 10.0  # the longest any socket wait may take before the test fails
ROOT = Path(__file__).resolve().parent.parent


def phone_at(server: ServerHandle, address: str = "127.0.0.1") -> HttpPhone:
    """A phone whose requests come from `address`."""
    phone = HttpPhone(server.url, timeout=WAIT_S)
    phone._conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT_S,
                                             source_address=(address, 0))
    return phone


def joined(server: ServerHandle, who: str, address: str = "127.0.0.1") -> HttpPhone:
    phone = phone_at(server, address)
    status = phone.join(join_url(server.app, server.url, fresh=True), who,
                        PIN if who == "banker" else "")
    assert status == 302, status
    return phone


def connect(port: int, address: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=WAIT_S,
                                    source_address=(address, 0))


def answered(socks: list[socket.socket], timeout: float = WAIT_S) -> list[socket.socket]:
    """Read one whole answer (with a Content-Length) on each socket; the sockets whose answer
    came whole and stayed open, in order (a refused one: a 503 and closed)."""
    selector = selectors.DefaultSelector()
    got: dict[socket.socket, bytes] = {}
    for s in socks:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
        got[s] = b""
    done: dict[socket.socket, bool] = {}
    deadline = time.monotonic() + timeout
    while len(done) < len(socks) and (left := deadline - time.monotonic()) > 0:
        for key, _mask in selector.select(left):
            sock: socket.socket = key.fileobj  # type: ignore[assignment]
            try:
                chunk = sock.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                selector.unregister(sock)
                done[sock] = False
                continue
            got[sock] += chunk
            head, sep, body = got[sock].partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), None)
            if sep and length is not None and len(body) >= length:
                selector.unregister(sock)
                done[sock] = not head.startswith(b"HTTP/1.1 503")
    selector.close()
    assert len(done) == len(socks), f"{len(socks) - len(done)} answers never came"
    return [s for s in socks if done[s]]


def closed_by_server(socks: list[socket.socket], timeout: float,
                     dribble: set[socket.socket] | None = None) -> int:
    """How many of `socks` the server closed within `timeout`; the `dribble` ones send one
    more header line whenever 0.2 s pass without news (a slowloris keeping its head alive)."""
    selector = selectors.DefaultSelector()
    for s in socks:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
    ended = 0
    deadline = time.monotonic() + timeout
    while ended < len(socks) and (left := deadline - time.monotonic()) > 0:
        events = selector.select(min(left, 0.2))
        for key, _mask in events:
            sock: socket.socket = key.fileobj  # type: ignore[assignment]
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            if not data:
                selector.unregister(sock)
                ended += 1
        for sock in dribble or ():
            if sock.fileno() != -1 and selector.get_map().get(sock.fileno()) is not None:
                try:
                    sock.send(b"X-Slow: 1\r\n")
                except OSError:
                    pass
    selector.close()
    return ended


FIRST = b"GET /static/app.css HTTP/1.1\r\nHost: x\r\n\r\n"


def kept_alive_then_half_sent(port: int, addresses: list[str], per_address: int,
                              first: bytes = FIRST) -> list[socket.socket]:
    """The laptop's attack, one address after another: each socket sends one whole
    kept-alive request, reads its answer, then sends half of the next head and holds it.
    Returns the sockets whose first answer came (the server may close them later)."""
    kept: list[socket.socket] = []
    for address in addresses:
        socks = []
        for _ in range(per_address):
            try:
                sock = connect(port, address)
                sock.sendall(first)
            except OSError:
                continue
            socks.append(sock)
        served = answered(socks)
        for sock in socks:
            if sock not in served:
                sock.close()
        for sock in served:
            try:
                sock.send(b"GET /api/state HTTP/1.1\r\nHost: x\r\nX-Half: ")
            except OSError:
                pass
        kept += served
    return kept


def laptop_attack(port: int, addresses: list[str],
                  first: bytes = FIRST) -> list[socket.socket]:
    """`kept_alive_then_half_sent` with PER_ADDRESS sockets from each address, then one
    more from each address at a time (a batch at once overshoots and is refused whole)
    until none gets in: every place the remote gives is taken."""
    socks = kept_alive_then_half_sent(port, addresses, PER_ADDRESS, first)
    for _pass in range(PER_ADDRESS):
        more = kept_alive_then_half_sent(port, addresses, 1, first)
        socks += more
        if not more:
            break
    return socks


@contextmanager
def remote(game: Any, tmp_path: Path, config: dict[str, Any] | None = None,
           parser: str = "", **serving: Any) -> Iterator[ServerHandle]:
    """The remote served on loopback; with `parser` ("httptools" or "h11", the `parser`
    fixture) on that parser, checked."""
    app = create_app(game, tmp_path / "game", {"banker_pin": PIN, "rate_per_s": 1000.0,
                                               "burst": 1000.0, **(config or {})})
    with serve(app, "127.0.0.1", 0, pure=parser == "h11", **serving) as server:
        assert server.parser == (parser or server.parser)
        yield server


def test_a_half_sent_head_after_a_kept_alive_request_is_closed(game: Any,
                                                               tmp_path: Path, parser: str) -> None:
    with remote(game, tmp_path, next_request_s=1.0, parser=parser) as server:
        socks = kept_alive_then_half_sent(server.port, [f"127.0.0.{n}" for n in (5, 6)], 8)
        assert len(socks) == 16
        idle = [connect(server.port, "127.0.0.7") for _ in range(4)]
        for sock in idle:  # a kept-alive connection that then says nothing at all
            sock.sendall(b"GET /static/app.css HTTP/1.1\r\nHost: x\r\n\r\n")
        assert len(answered(idle)) == 4
        try:
            dribbling = set(socks[::2])  # half of them send a header line every 0.2 s
            assert closed_by_server(socks + idle, WAIT_S, dribbling) == len(socks) + len(idle)
        finally:
            for sock in socks + idle:
                sock.close()


def test_a_slow_body_is_answered_408_and_closed(game: Any, tmp_path: Path, parser: str) -> None:
    """A body that never ends holds a connection only until its deadline (no thread)."""
    with remote(game, tmp_path, parser=parser) as server:
        from web_remote import serving

        sock = connect(server.port, "127.0.0.8")
        sock.sendall(b"POST /api/commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/"
                     b"json\r\nContent-Length: 100\r\n\r\n{\"version\"")
        sock.settimeout(serving.BODY_TIMEOUT_S + WAIT_S)
        assert sock.recv(4096).startswith(b"HTTP/1.1 408")
        sock.close()


def test_a_laptop_with_20_addresses_cannot_shut_out_the_table(game: Any,
                                                              tmp_path: Path, parser: str) -> None:
    """20 addresses x 32 kept-alive half-sent requests (640 > 512 connections), deadlines
    long enough not to help: the banker, the players and a newcomer are still answered."""
    with remote(game, tmp_path, parser=parser, first_request_s=120.0,
                next_request_s=120.0) as server:
        banker, ann = joined(server, "banker"), joined(server, "player:Ann")
        banker.close()
        ann.close()
        addresses = [f"127.0.0.{20 + n}" for n in range(20)]
        socks: list[socket.socket] = []
        try:
            socks += laptop_attack(server.port, addresses)
            assert len(socks) >= MAX_CONNECTIONS - PER_ADDRESS  # the attack filled the remote
            for _round in range(3):  # each on a new connection, after the attack's
                for phone in (banker, ann):
                    state = phone.state()
                    status, body = phone.command({"do": "roll", "dice": [1, 2]},
                                                 state["version"])
                    assert status in (200, 422), body
                    phone.close()
            newcomer = joined(server, "spectator", "127.0.0.60")  # a guest arrives
            assert newcomer.state()["version"] >= 1
            newcomer.close()
            shed = closed_by_server(socks, 1.0)  # the attack's sockets made the room
            assert shed >= 1
        finally:
            for sock in socks:
                sock.close()


def test_a_players_own_laptop_cannot_shut_out_the_other_players(game: Any,
                                                                 tmp_path: Path) -> None:
    """Bo's cookie on 20 addresses (each made the table's by his seated requests), 32
    kept-alive half-sent requests from each: Ann's and the banker's phones still play."""
    with remote(game, tmp_path, first_request_s=120.0, next_request_s=120.0) as server:
        banker, ann = joined(server, "banker"), joined(server, "player:Ann")
        bo = joined(server, "player:Bo", "127.0.0.70")
        for phone in (banker, ann, bo):
            phone.close()
        first = (f"GET /api/state HTTP/1.1\r\nHost: x\r\nCookie: {bo.cookie}\r\n\r\n"
                 ).encode()
        socks = laptop_attack(server.port, [f"127.0.0.{150 + n}" for n in range(20)], first)
        try:
            assert len(socks) >= MAX_CONNECTIONS - PER_ADDRESS  # the attack filled the remote
            for phone in (banker, ann):
                state = phone.state()
                status, body = phone.command({"do": "roll", "dice": [1, 2]},
                                             state["version"])
                assert status in (200, 422), body
                phone.close()
        finally:
            for sock in socks:
                sock.close()


def test_512_addresses_holding_one_connection_each_cannot_shut_out_the_table(
        game: Any, tmp_path: Path, parser: str) -> None:
    """Every connection held, each by an address of its own (no address is heavier than
    a newcomer's share): the players' and the banker's phones still come first."""
    with remote(game, tmp_path, parser=parser, first_request_s=120.0,
                next_request_s=120.0) as server:
        banker, ann = joined(server, "banker"), joined(server, "player:Ann")
        banker.close()
        ann.close()
        addresses = [f"127.0.{1 + n // 256}.{n % 256}" for n in range(MAX_CONNECTIONS)]
        socks = kept_alive_then_half_sent(server.port, addresses, 1)
        try:
            assert len(socks) == MAX_CONNECTIONS
            for phone in (banker, ann):
                state = phone.state()
                status, body = phone.command({"do": "roll", "dice": [1, 2]},
                                             state["version"])
                assert status in (200, 422), body
                phone.close()
            assert closed_by_server(socks, 1.0) >= 1  # the attack's sockets made the room
        finally:
            for sock in socks:
                sock.close()


def open_stream(port: int, cookie: str, address: str) -> socket.socket:
    sock = connect(port, address)
    sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n"
                 f"Accept: text/event-stream\r\n\r\n".encode())
    return sock


def status_of(sock: socket.socket) -> int:
    """The status of an answer's first line (0: closed first)."""
    sock.settimeout(WAIT_S)
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            return 0
        head += chunk
    return int(head.split(b" ")[1])


def test_spectators_flooding_streams_leave_the_table_its_own(game: Any,
                                                             tmp_path: Path, parser: str) -> None:
    """Spectators from 12 addresses ask for 96 streams: they hold at most their share
    (8 from one address, 32 in all), and every player's and the banker's stream is served
    and follows the game."""
    with remote(game, tmp_path, parser=parser) as server:
        hub: Hub = server.app.extensions["web_remote"].hub
        socks: list[socket.socket] = []
        statuses: dict[str, list[int]] = {}
        try:
            for n in range(12):
                address = f"127.0.0.{80 + n}"
                for _device in range(4):
                    spectator = joined(server, "spectator", address)
                    spectator.close()
                    for _tab in range(2):
                        sock = open_stream(server.port, spectator.cookie, address)
                        socks.append(sock)
                        statuses.setdefault(address, []).append(status_of(sock))
            assert all(s.count(200) <= hub.spectators_per_address for s in statuses.values())
            assert sum(s.count(200) for s in statuses.values()) <= hub.spectators
            table = [joined(server, who) for who in ("banker", "player:Ann", "player:Bo",
                                                     "player:Cy")]
            for phone in table:
                phone.close()
                phone.open_stream()  # a 503 raises ConnectionError
                assert phone.wait_version(1, WAIT_S)
            version = game.version
            banker = table[0]
            status, body = banker.command({"do": "pay", "from": "Ann", "to": "Bo",
                                           "amount": 5}, version)
            assert status == 200, body
            assert all(phone.wait_version(version + 1, WAIT_S) for phone in table)
            for phone in table:
                phone.close()
        finally:
            for sock in socks:
                sock.close()


def streams_ended(socks: list[socket.socket], timeout: float) -> int:
    """How many of the live streams on `socks` ended (the last chunk came, or the server
    closed) within `timeout`."""
    selector = selectors.DefaultSelector()
    tails: dict[socket.socket, bytes] = {}
    for s in socks:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
        tails[s] = b""
    ended = 0
    deadline = time.monotonic() + timeout
    while ended < len(socks) and (left := deadline - time.monotonic()) > 0:
        for key, _mask in selector.select(left):
            sock: socket.socket = key.fileobj  # type: ignore[assignment]
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            tails[sock] = (tails[sock] + data)[-16:]
            if not data or tails[sock].endswith(b"\r\n0\r\n\r\n"):
                selector.unregister(sock)
                ended += 1
    selector.close()
    return ended


def test_a_full_table_of_streams_makes_room_for_a_player(game: Any, tmp_path: Path) -> None:
    """Spectators hold every stream there is (a small table: 6): a player's and the
    banker's streams end the oldest spectators' and are served."""
    config = {"streams_max": 6, "streams_spectators": 6,
              "streams_spectators_per_address": 2}
    with remote(game, tmp_path, config) as server:
        watching = []
        for n in range(3):
            address = f"127.0.0.{100 + n}"
            for _device in range(2):
                spectator = joined(server, "spectator", address)
                spectator.close()
                sock = open_stream(server.port, spectator.cookie, address)
                assert status_of(sock) == 200
                watching.append(sock)
        late = joined(server, "spectator", "127.0.0.110")
        late.close()
        refused = open_stream(server.port, late.cookie, "127.0.0.110")
        assert status_of(refused) == 503  # the spectators' share is full
        refused.close()
        try:
            table = [joined(server, "banker"), joined(server, "player:Ann")]
            for phone in table:
                phone.close()
                phone.open_stream()
                assert phone.wait_version(1, WAIT_S)
            assert streams_ended(watching[:2], WAIT_S) == 2  # the oldest two made room
            assert streams_ended(watching[2:], 0.5) == 0
            for phone in table:
                phone.close()
        finally:
            for sock in watching:
                sock.close()


def test_rotating_cookies_share_their_address_rate_limit(game: Any, tmp_path: Path) -> None:
    """A laptop collects 20 fresh cookies, then floods with them in turn: past its
    address's burst it is told to wait, and a player's phone at the same address is still
    served."""
    with remote(game, tmp_path, {"rate_per_s": 1.0, "burst": 30.0}) as server:
        ann = joined(server, "player:Ann", "127.0.0.50")
        laptop = phone_at(server, "127.0.0.50")
        cookies = []
        for _ in range(20):
            laptop.cookie = ""
            status, _h, _b = laptop.request("GET", "/")
            assert status == 200 and laptop.cookie
            cookies.append(laptop.cookie)
        statuses = []
        for n in range(120):
            laptop.cookie = cookies[n % len(cookies)]
            statuses.append(laptop.request("GET", "/api/state")[0])
        assert statuses.count(429) >= 60, statuses  # 20 cookies x 30 would let all 120 by
        for _ in range(5):
            assert ann.request("GET", "/api/state")[0] == 200
        laptop.close()
        ann.close()


def test_the_laptop_attack_on_a_real_companion_run(tmp_path: Path) -> None:
    """The same laptop (20 addresses x 32 kept-alive, half-sent requests) against a real
    `companion run --headless` with its own settings: the banker's phone still plays."""
    from tools.bench.proc import free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--headless", "--port", str(port),
         "--data-dir", str(tmp_path / "data")], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "SDL_AUDIODRIVER": "dummy",
             "COMPANION_CONFIG": str(tmp_path / "none.toml")})
    socks: list[socket.socket] = []
    try:
        assert proc.stdout is not None
        code = re.search(r"/join/(\S+)", proc.stdout.readline())
        assert code is not None
        base = f"http://127.0.0.1:{port}"
        banker = HttpPhone(base, timeout=WAIT_S)
        assert banker.join(f"{base}/join/{code.group(1)}", "banker", PIN) == 302
        status, body = banker.command({"do": "new_game", "edition": "classic-eur",
                                       "players": ["Ann", "Bo"], "seed": 5}, 0)
        assert status == 200, body
        banker.close()
        addresses = [f"127.0.0.{20 + n}" for n in range(20)]
        socks += laptop_attack(port, addresses)
        assert len(socks) >= MAX_CONNECTIONS - PER_ADDRESS  # the attack filled the remote
        for amount in (1, 2, 3):  # each on a new connection, after the attack's
            state = banker.state()
            status, body = banker.command({"do": "pay", "from": "Ann", "to": "Bo",
                                           "amount": amount}, state["version"])
            assert status == 200, body
            banker.close()
    finally:
        for sock in socks:
            sock.close()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
