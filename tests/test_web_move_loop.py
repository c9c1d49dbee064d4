"""A phone's move answered on the serving loop without a pool thread (issue 28:
`MoveFastPath.begin`, `Dispatcher._move`, `GameSession.submit_nowait`): over real HTTP, the
same status, headers and bytes as the pool's path gives, for an accepted move, a stale
version, the engine's refusal in the phone's language, a malformed body, a spectator acting
and another player's seat; a phone gone while its command waits in the writer's queue
changes nothing but the game (the move stands, the server goes on); a writer that stopped
answers the waiting move as `submit` would."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import Phone, open_real_session

from companion.game.api import Hold, Source, Update
from web_remote import app as app_module
from web_remote import create_app, serving
from web_remote.serving import ServerHandle, serve

WAIT_S = 10.0


class Served:
    """A real journaled game, its remote served over HTTP; `loop` False: every move
    through the pool's threads as before."""

    def __init__(self, where: Path, loop: bool) -> None:
        self.game = open_real_session(where / "game", options={"physical_dice": True})
        self.app: Flask = create_app(self.game, where, {"banker_pin": "2468"})
        path = self.app.wsgi_app
        assert isinstance(path, app_module.MoveFastPath)
        self.path = path
        if not loop:
            setattr(path, "begin", lambda environ, tell: None)  # noqa: B010
        self.begun = 0
        if loop:
            begin = path.begin

            def counted(environ: Any, tell: Any) -> Any:
                game = begin(environ, tell)
                self.begun += game is not None
                return game

            setattr(path, "begin", counted)  # noqa: B010
        self.handle: ServerHandle = serve(self.app, "127.0.0.1", 0, 2)
        self.origin = f"http://127.0.0.1:{self.handle.port}"
        self.phones = {who: self._joined(who) for who in ("Ann", "Bo", "spectator")}

    def _joined(self, who: str) -> tuple[str, str]:
        phone = Phone(self.app)
        assert phone.join("spectator" if who == "spectator" else f"player:{who}").status_code \
            == 302
        cookie = phone.client.get_cookie("companion")
        assert cookie is not None
        return f"companion={cookie.value}", phone.csrf

    def post(self, who: str, body: bytes, lang: str = "") -> tuple[int, list[Any], bytes]:
        """POST `body` to the moves' route as `who`'s phone; status, headers, body."""
        cookie, csrf = self.phones[who]
        if lang:
            cookie += f"; lang={lang}"
        conn = http.client.HTTPConnection("127.0.0.1", self.handle.port, timeout=WAIT_S)
        try:
            conn.request("POST", "/api/commands", body=body, headers={
                "Cookie": cookie, "X-CSRF-Token": csrf, "Origin": self.origin,
                "Content-Type": "application/json"})
            resp = conn.getresponse()
            headers = [(k, v) for k, v in resp.getheaders() if k.lower() != "date"]
            return resp.status, headers, resp.read()
        finally:
            conn.close()

    def close(self) -> None:
        self.handle.stop()
        self.game.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, Served]]:
    """Two tables alike: moves on the loop, and moves on the pool's threads."""
    loop, pool = Served(tmp_path / "loop", True), Served(tmp_path / "pool", False)
    yield loop, pool
    loop.close()
    pool.close()


def move(command: Any, version: Any) -> bytes:
    return json.dumps({"command": command, "version": version}).encode()


def test_answers_on_the_loop_are_the_pools_byte_for_byte(
        served: tuple[Served, Served]) -> None:
    loop, pool = served
    pay = {"do": "pay", "to": "Bo", "amount": 25}
    cases: list[tuple[str, Any, str]] = [
        ("Ann", lambda v: move(pay, v), ""),  # accepted
        ("Bo", lambda v: move({"do": "pay", "to": "Ann", "amount": 3}, v), ""),
        ("Ann", lambda v: move(pay, v - 1), ""),  # a stale version: 409
        ("Bo", lambda v: move({"do": "buy"}, v), "fr"),  # the engine refuses: 422, French
        ("Ann", lambda v: b"{not json", ""),  # malformed: Flask's 400
        ("Ann", lambda v: move({"do": "pay", "from": "Bo", "to": "Ann", "amount": 500}, v),
         ""),  # another player's seat
        ("spectator", lambda v: move(pay, v), ""),  # a spectator acting: 403
        ("Ann", lambda v: move({"do": "pay", "to": "Cy", "amount": 7}, v), ""),
    ]
    statuses = []
    for who, body, lang in cases:
        a = loop.post(who, body(loop.game.version), lang)
        b = pool.post(who, body(pool.game.version), lang)
        assert a == b
        assert loop.game.version == pool.game.version
        statuses.append(a[0])
    assert statuses == [200, 200, 409, 422, 400, 403, 403, 200]
    assert loop.begun == 5 and pool.begun == 0  # the plain moves, queued from the loop
    assert loop.path.answered == pool.path.answered == 5
    cash = {p["name"]: p["cash"] for p in loop.game.state()["players"]}
    assert cash == {"Ann": 1500 - 25 + 3 - 7, "Bo": 1500 + 25 - 3, "Cy": 1507}


class HeldWriter:
    """The session's writer held inside the leading listener of the table's own move (a
    banker's payment from Bo to Cy, sent on a thread of its own) until `release`."""

    def __init__(self, game: Any) -> None:
        self.inside = threading.Event()
        self.go = threading.Event()
        self.remove = game.lead(self._held)
        self.table = threading.Thread(target=game.submit, args=(
            {"do": "pay", "from": "Bo", "to": "Cy", "amount": 1},
            Source(kind="script", banker=True)))
        self.table.start()

    def _held(self, _update: Update) -> Hold | None:
        self.inside.set()
        assert self.go.wait(WAIT_S)
        return None

    def release(self) -> None:
        self.go.set()
        self.remove()
        self.table.join(WAIT_S)


def test_a_phone_gone_while_its_move_waits_for_the_writer(
        served: tuple[Served, Served]) -> None:
    loop, _pool = served
    game = loop.game
    before = game.version
    held = HeldWriter(game)
    try:
        assert held.inside.wait(WAIT_S)  # the writer is held on the table's move
        cookie, csrf = loop.phones["Ann"]
        body = move({"do": "pay", "to": "Bo", "amount": 2}, before + 1)
        sock = socket.create_connection(("127.0.0.1", loop.handle.port), timeout=WAIT_S)
        sock.sendall(b"POST /api/commands HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     b"Cookie: %s\r\nX-CSRF-Token: %s\r\nOrigin: %s\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
                         loop.handle.port, cookie.encode(), csrf.encode(),
                         loop.origin.encode(), len(body), body))
        done = threading.Event()
        remove = game.add_listener(lambda u: done.set() if u.version == before + 2 else None)
        sock.close()  # gone while its move waits in the writer's queue
    finally:
        held.release()
    assert done.wait(WAIT_S)  # the move stands, journaled as any other
    remove()
    assert game.version == before + 2 and loop.begun == 1
    status, _headers, data = loop.post("Bo", move({"do": "pay", "to": "Ann", "amount": 1},
                                                  before + 2))
    assert status == 200 and json.loads(data)["version"] == before + 3  # the server goes on


def test_a_writer_that_stopped_answers_the_waiting_move(
        served: tuple[Served, Served], monkeypatch: pytest.MonkeyPatch) -> None:
    loop, _pool = served
    game = loop.game
    monkeypatch.setattr(serving, "WRITER_LOOK_S", 0.05)
    held = HeldWriter(game)
    try:
        assert held.inside.wait(WAIT_S)
        monkeypatch.setattr(game, "healthy", lambda stuck_after=0.0: False)  # as if it died
        status, _headers, data = loop.post("Ann", move({"do": "pay", "to": "Bo", "amount": 2},
                                                       game.version))
    finally:
        held.release()
    assert status == 422 and json.loads(data)["code"] == "session_closed"
