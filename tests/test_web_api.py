"""The phone remote's JSON API through Flask's test client: joining, commands, refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import ORIGIN, Phone, open_real_session

from web_remote import create_app, join_url


@pytest.fixture
def game(tmp_path: Path) -> Any:
    """The real journaled session (the fake stands in only where speed matters)."""
    session = open_real_session(tmp_path / "game", options={"physical_dice": True})
    yield session
    session.close()


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Any:
    app = create_app(game, tmp_path, {"banker_pin": "2468"})
    yield app
    app.extensions["web_remote"].close()


@pytest.fixture
def ann(app: Flask) -> Phone:
    phone = Phone(app)
    assert phone.join("player:Ann").status_code == 302
    return phone


@pytest.fixture
def bo(app: Flask) -> Phone:
    phone = Phone(app)
    assert phone.join("player:Bo").status_code == 302
    return phone


def roll(phone: Phone, dice: list[int]) -> Any:
    return phone.command({"do": "roll", "dice": dice})


# --- joining -------------------------------------------------------------------------------


def test_join_link_is_one_time(app: Flask) -> None:
    url = join_url(app, ORIGIN, fresh=True).removeprefix(ORIGIN)
    first, second = Phone(app), Phone(app)
    first.client.get(url)
    second.client.get(url)
    for phone in (first, second):
        phone.refresh_csrf()
    assert first.client.post(url, data={"who": "player:Ann", "csrf_token": first.csrf},
                             headers={"Origin": ORIGIN}).status_code == 302
    again = second.client.post(url, data={"who": "player:Bo", "csrf_token": second.csrf},
                               headers={"Origin": ORIGIN})
    assert again.status_code == 403
    assert second.client.get("/api/state").status_code == 401
    assert second.client.get(url).status_code == 403


def test_join_url_repeats_until_spent(app: Flask) -> None:
    a = join_url(app, "http://pi:8080")
    assert join_url(app, "http://pi:8080/") == a
    assert a.startswith("http://pi:8080/join/")
    Phone(app).join("spectator")  # spends a fresh one, not `a`
    phone = Phone(app)
    code_path = a.removeprefix("http://pi:8080")
    phone.client.get(code_path)
    phone.refresh_csrf()
    phone.client.post(code_path, data={"who": "spectator", "csrf_token": phone.csrf},
                      headers={"Origin": ORIGIN})
    assert join_url(app, "http://pi:8080") != a


def test_cookie_survives_a_restart(game: Any, tmp_path: Path) -> None:
    first = create_app(game, tmp_path)
    phone = Phone(first)
    phone.join("player:Ann")
    cookie = phone.client.get_cookie("companion")
    assert cookie is not None
    first.extensions["web_remote"].close()
    second = create_app(game, tmp_path)
    client = second.test_client()
    client.set_cookie("companion", cookie.value)
    assert client.get("/api/state").status_code == 200
    second.extensions["web_remote"].close()


def test_unknown_player_and_bad_choice_are_refused(app: Flask) -> None:
    assert Phone(app).join("player:Zed").status_code == 400
    assert Phone(app).join("mayor").status_code == 400


def test_banker_join_needs_the_pin(app: Flask) -> None:
    assert Phone(app).join("banker", pin="1111").status_code == 403
    assert Phone(app).join("banker", pin="2468").status_code == 302


def test_first_banker_sets_the_pin(game: Any, tmp_path: Path) -> None:
    app = create_app(game, tmp_path)
    assert Phone(app).join("banker", pin="12").status_code == 400
    assert Phone(app).join("banker", pin="9753").status_code == 302
    assert Phone(app).join("banker", pin="1111").status_code == 403
    app.extensions["web_remote"].close()


def test_player_unlocks_banker_with_pin(app: Flask, ann: Phone) -> None:
    wrong = ann.client.post("/unlock", data={"pin": "0000", "csrf_token": ann.csrf},
                            headers={"Origin": ORIGIN})
    assert wrong.status_code == 403
    assert ann.client.get("/banker").status_code == 403
    ok = ann.client.post("/unlock", data={"pin": "2468", "csrf_token": ann.csrf},
                         headers={"Origin": ORIGIN})
    assert ok.status_code == 302
    assert ann.client.get("/banker").status_code == 200


# --- commands ------------------------------------------------------------------------------


def test_player_acts_for_themselves(game: Any, ann: Phone) -> None:
    before = game.version
    resp = roll(ann, [3, 4])
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["ok"] is True
    assert game.version == before + 1
    entry = game.history(limit=1)[0]
    assert entry["source"] == {"kind": "phone", "player": "Ann", "banker": False}
    assert entry["command"]["by"] == "Ann"


def test_other_players_action_is_refused(game: Any, bo: Phone) -> None:
    before = game.version
    resp = bo.command({"do": "roll", "by": "Ann", "dice": [3, 4]})
    assert resp.status_code == 403
    assert resp.get_json()["code"] == "not_yours"
    assert game.version == before


def test_engine_refusal_changes_nothing(game: Any, bo: Phone) -> None:
    before = game.state()
    resp = roll(bo, [3, 4])  # it is Ann's turn
    assert resp.status_code == 422
    assert resp.get_json()["code"] == "not_your_turn"
    assert game.state() == before


def test_property_commands_default_to_me(game: Any, ann: Phone, bo: Phone) -> None:
    roll(ann, [1, 2])  # Ann lands on 3 (Rue Lecourbe)
    assert ann.command({"do": "buy"}).status_code == 200
    before = game.version
    resp = bo.command({"do": "mortgage", "square": 3})  # Bo may not mortgage Ann's lot
    assert resp.status_code == 422
    assert game.version == before
    assert resp.get_json()["code"] == "not_owner"


def test_stale_version_is_refused_with_refresh(game: Any, ann: Phone) -> None:
    old = game.version
    roll(ann, [1, 2])
    resp = ann.command({"do": "buy"}, version=old)
    assert resp.status_code == 409
    body = resp.get_json()
    assert body["code"] == "stale_version" and body["refresh"] is True
    assert body["version"] == game.version


@pytest.mark.parametrize("amount", [0, -5, 1.5, "100", True, None, 10**9])
def test_bad_amounts_are_refused(game: Any, ann: Phone, amount: Any) -> None:
    before = game.version
    resp = ann.command({"do": "pay", "to": "Bo", "amount": amount})
    assert resp.status_code == 400
    assert resp.get_json()["code"] == "bad_amount"
    assert game.version == before


def test_good_payment(game: Any, ann: Phone) -> None:
    resp = ann.command({"do": "pay", "to": "Bo", "amount": 25})
    assert resp.status_code == 200
    cash = {p["name"]: p["cash"] for p in game.state()["players"]}
    assert cash["Ann"] == 1475 and cash["Bo"] == 1525


def test_player_cannot_take_money(game: Any, ann: Phone) -> None:
    resp = ann.command({"do": "pay", "from": "Bo", "to": "Ann", "amount": 25})
    assert resp.status_code == 403


@pytest.mark.parametrize("square", [40, -1, "atlantis", 2.5, [1]])
def test_unknown_squares_are_refused(game: Any, ann: Phone, square: Any) -> None:
    before = game.version
    resp = ann.command({"do": "mortgage", "square": square})
    assert resp.status_code == 400
    assert resp.get_json()["code"] == "unknown_square"
    assert game.version == before


@pytest.mark.parametrize("body", [b"{not json", b"[]", b"42", b'"x"'])
def test_bad_json_is_refused(game: Any, ann: Phone, body: bytes) -> None:
    before = game.version
    resp = ann.client.post("/api/commands", data=body, content_type="application/json",
                           headers={"X-CSRF-Token": ann.csrf, "Origin": ORIGIN})
    assert resp.status_code == 400
    assert resp.get_json()["code"] == "bad_json"
    assert game.version == before


@pytest.mark.parametrize("command", [None, [], {"do": "fly"}, {"do": 3}, {"nope": 1}])
def test_bad_commands_are_refused(game: Any, ann: Phone, command: Any) -> None:
    resp = ann.post("/api/commands", {"command": command, "version": game.version})
    assert resp.status_code == 400
    assert resp.get_json()["code"] == "bad_command"


def test_missing_version_is_refused(game: Any, ann: Phone) -> None:
    resp = ann.post("/api/commands", {"command": {"do": "roll"}})
    assert resp.status_code == 400
    assert resp.get_json()["code"] == "bad_version"


def test_no_cookie_is_refused(game: Any, app: Flask) -> None:
    client = app.test_client()
    for path in ("/api/state", "/api/history", "/api/trades", "/api/stream"):
        assert client.get(path).status_code == 401, path
    resp = client.post("/api/commands", json={"command": {"do": "roll"}, "version": 1},
                       headers={"Origin": ORIGIN})
    assert resp.status_code == 403  # no cookie, no CSRF token
    assert game.version == 1


def test_bad_csrf_is_refused(game: Any, ann: Phone) -> None:
    before = game.version
    assert ann.post("/api/commands", {"command": {"do": "roll"}, "version": before},
                    csrf="forged").status_code == 403
    assert ann.post("/api/commands", {"command": {"do": "roll"}, "version": before},
                    csrf="").status_code == 403
    assert game.version == before


@pytest.mark.parametrize("origin", ["http://evil.example", "null", None])
def test_foreign_origin_is_refused(game: Any, ann: Phone, origin: str | None) -> None:
    before = game.version
    resp = ann.post("/api/commands", {"command": {"do": "roll"}, "version": before},
                    origin=origin)
    assert resp.status_code == 403
    assert resp.get_json()["code"] == "bad_origin"
    assert game.version == before


def test_referer_counts_when_origin_is_missing(game: Any, ann: Phone) -> None:
    resp = ann.client.post("/api/commands", json={"command": {"do": "roll", "dice": [2, 3]},
                                                  "version": game.version},
                           headers={"X-CSRF-Token": ann.csrf, "Referer": ORIGIN + "/me"})
    assert resp.status_code == 200


def test_spectator_only_watches(game: Any, app: Flask) -> None:
    phone = Phone(app)
    phone.join("spectator")
    assert phone.client.get("/api/state").status_code == 200
    resp = roll(phone, [1, 1])
    assert resp.status_code == 403 and resp.get_json()["code"] == "spectator"
    assert phone.post("/api/undo", {"version": game.version}).status_code == 403


def test_banker_acts_for_anyone_and_undoes(game: Any, app: Flask) -> None:
    banker = Phone(app)
    banker.join("banker", pin="2468")
    v0 = game.version
    assert banker.command({"do": "roll", "by": "Ann", "dice": [1, 2]}).status_code == 200
    assert banker.command({"do": "pay", "from": "bank", "to": "Cy", "amount": 100}) \
        .status_code == 200
    cy = next(p for p in game.state()["players"] if p["name"] == "Cy")
    assert cy["cash"] == 1600
    assert banker.post("/api/undo", {"version": game.version}).status_code == 200
    cy = next(p for p in game.state()["players"] if p["name"] == "Cy")
    assert cy["cash"] == 1500
    assert game.version > v0 + 2
    assert banker.post("/api/redo", {"version": game.version}).status_code == 200
    assert banker.post("/api/undo", {"version": v0}).status_code == 409


def test_player_cannot_undo_or_close_auctions(game: Any, ann: Phone) -> None:
    assert ann.post("/api/undo", {"version": game.version}).status_code == 403
    resp = ann.command({"do": "close_auction"})
    assert resp.status_code == 403 and resp.get_json()["code"] == "banker_only"
    # a trade is its receiver's to accept (companion.game.authority.RIGHTS), never its sender's
    resp = ann.command({"do": "trade", "from": "Ann", "to": "Bo", "give": {"cash": 1}})
    assert resp.status_code == 403 and resp.get_json()["code"] == "not_yours"


def test_flood_is_rate_limited(game: Any, tmp_path: Path) -> None:
    app = create_app(game, tmp_path, {"rate_per_s": 0.001, "burst": 10})
    phone = Phone(app)
    phone.join("player:Ann")
    codes = [phone.post("/api/commands", {"command": {"do": "fly"}, "version": 1}).status_code
             for _ in range(30)]
    assert 429 in codes
    assert codes.count(400) < 10
    other = Phone(app)  # another phone is not slowed down by the flood
    assert other.join("player:Bo").status_code == 302
    assert other.client.get("/api/state").status_code == 200
    app.extensions["web_remote"].close()


def test_history_api(game: Any, ann: Phone) -> None:
    ann.command({"do": "pay", "to": "Bo", "amount": 25})
    everything = ann.client.get("/api/history").get_json()
    mine = ann.client.get("/api/history?player=Cy").get_json()
    assert len(everything) == 2 and everything[-1]["command"]["do"] == "pay"
    assert [e["command"]["do"] for e in mine] == ["new_game"]
    assert ann.client.get("/api/history?limit=x").status_code == 400
