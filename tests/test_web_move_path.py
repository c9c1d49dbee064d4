"""A phone's move answered outside Flask's request machinery (web_remote.app.MoveFastPath):
the same answers as Flask's own path, byte for byte, and every check kept: a move that is
not plain goes to Flask whole and is refused there as before, changing nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import ORIGIN, Phone, open_real_session

from web_remote import app as app_module
from web_remote import create_app


class Table:
    """A real journaled game with its remote; `fast` False: every move through Flask."""

    def __init__(self, where: Path, fast: bool) -> None:
        self.game = open_real_session(where / "game", options={"physical_dice": True})
        self.app: Flask = create_app(self.game, where, {"banker_pin": "2468"})
        path = self.app.wsgi_app
        assert isinstance(path, app_module.MoveFastPath)
        self.path: app_module.MoveFastPath = path
        if not fast:
            self.app.wsgi_app = self.path.inner  # type: ignore[method-assign]
        self.ann = Phone(self.app)
        assert self.ann.join("player:Ann").status_code == 302
        self.bo = Phone(self.app)
        assert self.bo.join("player:Bo").status_code == 302

    def close(self) -> None:
        self.app.extensions["web_remote"].close()
        self.game.close()


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[tuple[Table, Table]]:
    """Two tables alike: one with the move's own path, one with Flask's alone."""
    fast, slow = Table(tmp_path / "fast", True), Table(tmp_path / "slow", False)
    yield fast, slow
    fast.close()
    slow.close()


def answer(resp: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    """What the phone reads of an answer: status, headers in order, body."""
    return resp.status_code, list(resp.headers.items()), resp.get_data()


def both(tables: tuple[Table, Table], send: Any) -> tuple[Any, Any]:
    """`send(table)` on both tables, their answers (which must be alike) and versions."""
    fast, slow = tables
    a, b = send(fast), send(slow)
    assert answer(a) == answer(b)
    assert fast.game.version == slow.game.version
    return a, b


def test_moves_are_answered_as_flask_answers_them(tables: tuple[Table, Table]) -> None:
    fast, slow = tables
    moves: list[tuple[str, Any, int | None]] = [
        ("ann", {"do": "pay", "to": "Bo", "amount": 25}, None),
        ("bo", {"do": "pay", "to": "Ann", "amount": 3}, None),
        ("ann", {"do": "pay", "to": "Bo", "amount": 1}, 1),  # stale: 409, refresh
        ("bo", {"do": "buy"}, None),  # the engine refuses it: 422, said in the phone's words
        ("ann", {"do": "pay", "to": "Cy", "amount": 7}, None),
    ]
    statuses = []
    for who, command, version in moves:
        a, _b = both(tables, lambda t, w=who, c=command, v=version: getattr(t, w).command(c, v))
        statuses.append(a.status_code)
    assert statuses == [200, 200, 409, 422, 200]
    assert fast.path.answered == len(moves)  # every one of them took the move's own path
    assert slow.path.answered == 0
    cash = {p["name"]: p["cash"] for p in fast.game.state()["players"]}
    assert cash == {"Ann": 1500 - 25 + 3 - 7, "Bo": 1500 + 25 - 3, "Cy": 1507}


def test_a_refusal_after_the_submit_is_in_the_phones_language(
        tables: tuple[Table, Table]) -> None:
    for table in tables:
        table.bo.client.set_cookie("lang", "fr")
    a, _b = both(tables, lambda t: t.bo.command({"do": "buy"}))
    assert a.status_code == 422
    body = a.get_json()
    assert body["message"] != body["message_en"]  # French, with the English for the logs


ATTACKS: dict[str, Any] = {
    # another player's seat: Ann pays from Bo's cash
    "for_another": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "pay", "from": "Bo", "to": "Ann", "amount": 500}, "version": v}),
    "by_another": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "buy", "by": "Bo"}, "version": v}),
    "by_a_list": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "buy", "by": ["Bo"]}, "version": v}),
    "forged_csrf": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "pay", "to": "Bo", "amount": 1}, "version": v}, csrf="forged"),
    "no_csrf": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "pay", "to": "Bo", "amount": 1}, "version": v}, csrf=""),
    "foreign_origin": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "pay", "to": "Bo", "amount": 1}, "version": v},
        origin="http://evil.example"),
    "no_origin": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "pay", "to": "Bo", "amount": 1}, "version": v}, origin=None),
    "not_json": lambda t, v: t.ann.client.post(
        "/api/commands", data=b"{not json", content_type="application/json",
        headers={"X-CSRF-Token": t.ann.csrf, "Origin": ORIGIN}),
    "as_a_form": lambda t, v: t.ann.client.post(
        "/api/commands", data={"command": "pay", "csrf_token": t.ann.csrf},
        headers={"Origin": ORIGIN}),
    "nested": lambda t, v: t.ann.client.post(
        "/api/commands", data=b'{"version": 2, "command": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        content_type="application/json",
        headers={"X-CSRF-Token": t.ann.csrf, "Origin": ORIGIN}),
    "too_large": lambda t, v: t.ann.client.post(
        "/api/commands", data=b'{"pad": "' + b"x" * 70_000 + b'"}',
        content_type="application/json",
        headers={"X-CSRF-Token": t.ann.csrf, "Origin": ORIGIN}),
    "not_an_object": lambda t, v: t.ann.post("/api/commands", [1, 2]),
    "no_version": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "pay", "to": "Bo", "amount": 1}}),
    "a_true_version": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "pay", "to": "Bo", "amount": 1}, "version": True}),
    "bad_amount": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "pay", "to": "Bo", "amount": -5}, "version": v}),
    "unknown_verb": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "take_all"}, "version": v}),
    "banker_verb": lambda t, v: t.ann.post("/api/commands", {
        "command": {"do": "end_game"}, "version": v}),
    "no_cookie": lambda t, v: t.app.test_client().post(
        "/api/commands", json={"command": {"do": "pay", "to": "Bo", "amount": 1},
                               "version": v},
        headers={"Origin": ORIGIN, "X-CSRF-Token": t.ann.csrf}),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_attacks_are_refused_by_flask_and_change_nothing(
        tables: tuple[Table, Table], attack: str) -> None:
    fast, _slow = tables
    before = fast.game.version
    a, _b = both(tables, lambda t: ATTACKS[attack](t, t.game.version))
    assert a.status_code in (400, 401, 403, 413, 422), a.get_data()
    assert fast.game.version == before
    assert fast.path.answered == 0  # Flask answered it


def test_a_released_seat_cannot_move_through_the_fast_path(
        tables: tuple[Table, Table]) -> None:
    fast, _slow = tables
    a, _b = both(tables, lambda t: t.ann.command({"do": "pay", "to": "Bo", "amount": 1}))
    assert a.status_code == 200 and fast.path.answered == 1
    for table in tables:  # the banker gives Ann's seat to another phone
        assert table.app.extensions["web_remote"].seats.release("Ann")
    before = fast.game.version
    a, _b = both(tables, lambda t: t.ann.command({"do": "pay", "to": "Bo", "amount": 1},
                                               t.game.version))
    assert a.status_code == 401
    assert fast.game.version == before and fast.path.answered == 1


def test_a_cookie_past_its_days_goes_to_flask(tables: tuple[Table, Table],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    fast, _slow = tables
    a, _b = both(tables, lambda t: t.ann.command({"do": "pay", "to": "Bo", "amount": 1}))
    assert a.status_code == 200 and fast.path.answered == 1
    later = time.time() + 31 * 86_400
    monkeypatch.setattr(time, "time", lambda: later)  # itsdangerous' clock too
    before = fast.game.version
    a, _b = both(tables, lambda t: t.ann.post("/api/commands", {
        "command": {"do": "pay", "to": "Bo", "amount": 1}, "version": before}))
    assert a.status_code == 403  # an empty session now: its CSRF token is gone
    assert a.get_json()["code"] == "bad_csrf"
    assert fast.game.version == before and fast.path.answered == 1


def test_the_rate_limit_holds(tmp_path: Path) -> None:
    answers = []
    for name, fast in (("fast", True), ("slow", False)):
        where = tmp_path / name
        game = open_real_session(where / "game", options={"physical_dice": True})
        app = create_app(game, where, {"rate_per_s": 0.001, "burst": 12.0})
        if not fast:
            app.wsgi_app = app.wsgi_app.inner  # type: ignore[attr-defined,method-assign]
        ann = Phone(app)
        assert ann.join("player:Ann").status_code == 302
        version = game.version
        seen = []
        for _ in range(12):
            resp = ann.post("/api/commands", {"command": {"do": "pay", "to": "Bo", "amount": 1},
                                              "version": version})
            seen.append(resp.status_code)
            if resp.status_code == 200:
                version = resp.get_json()["version"]
        answers.append((seen, game.version))
        app.extensions["web_remote"].close()
        game.close()
    assert answers[0] == answers[1]
    assert 429 in answers[0][0] and 200 in answers[0][0]


def test_a_phone_reloading_forty_times_still_moves(tables: tuple[Table, Table]) -> None:
    fast, _slow = tables
    for _ in range(40):  # within the burst of 60 requests
        assert fast.ann.client.get("/me").status_code == 200
    fast.ann.refresh_csrf()
    assert fast.ann.command({"do": "pay", "to": "Bo", "amount": 2}).status_code == 200
    assert fast.path.answered == 1


#: the checks the move's own path mirrors, as they were when it was last held to them:
#: Flask's hook for every request, the move's view and what it calls to check a command
MIRRORED = {
    "web_remote.app._before": "8ac291f5c2effea9",
    "web_remote.views.api.commands": "9089d153c203b695",
    "web_remote.views.api.joined": "e55c4105696d3bb4",
    "web_remote.views.api._body": "9672231713ad36ce",
}


def test_the_checks_it_mirrors_are_the_ones_it_was_held_to() -> None:
    """A tripwire: a check added to Flask's path for a move (its hook, the view, the body's
    reading) must be added to MoveFastPath too, or the move's own path would skip it. When
    one of these changes, review `MoveFastPath._checked` against it, then update the
    digests here (the failure prints them)."""
    import hashlib
    import importlib
    import inspect

    found = {}
    for name in MIRRORED:
        module, attr = name.rsplit(".", 1)
        source = inspect.getsource(getattr(importlib.import_module(module), attr))
        found[name] = hashlib.sha256(source.encode()).hexdigest()[:16]
    assert found == MIRRORED, (
        "Flask's path for a move changed: review web_remote.app.MoveFastPath._checked "
        f"against it, then set MIRRORED to {found}")
