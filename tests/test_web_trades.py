"""Trade proposals between phones: proposed on one, accepted (or refused) on the other,
executed by the engine only on acceptance, kept across a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import Phone

from web_remote import TableHooks, create_app


def joined(app: Flask, who: str, pin: str = "") -> Phone:
    phone = Phone(app)
    assert phone.join(who, pin).status_code == 302
    return phone


@pytest.fixture
def ann(app: Flask, game: Any) -> Phone:
    phone = joined(app, "player:Ann")
    phone.command({"do": "roll", "dice": [1, 2]})
    phone.command({"do": "buy"})  # Ann owns Rue Lecourbe (3)
    return phone


def cash(game: Any) -> dict[str, int]:
    return {p["name"]: p["cash"] for p in game.state()["players"]}


def propose(phone: Phone, game: Any, **body: Any) -> Any:
    return phone.post("/api/trades", {"version": game.version, **body})


def test_propose_and_accept(ann: Phone, app: Flask, game: Any) -> None:
    bo = joined(app, "player:Bo")
    resp = propose(ann, game, to="Bo", give={"squares": [3]}, take={"cash": 100})
    assert resp.status_code == 200, resp.get_json()
    pid = resp.get_json()["proposal"]["id"]
    assert game.state()["squares"][1]["owner"] == "Ann"  # nothing happens before Bo agrees
    listed = bo.client.get("/api/trades").get_json()
    assert [p["id"] for p in listed] == [pid]
    assert pid in bo.client.get("/me").get_data(as_text=True)
    before = cash(game)
    resp = bo.post(f"/api/trades/{pid}/accept", {"version": game.version})
    assert resp.status_code == 200, resp.get_json()
    owner = {s["index"]: s["owner"] for s in game.state()["squares"]}
    assert owner[3] == "Bo"
    after = cash(game)
    assert after["Ann"] == before["Ann"] + 100 and after["Bo"] == before["Bo"] - 100
    assert bo.client.get("/api/trades").get_json() == []
    last = game.history(None, 1)[-1]
    assert last["command"]["do"] == "trade" and last["source"]["player"] == "Bo"


def test_only_the_receiver_accepts(ann: Phone, app: Flask, game: Any) -> None:
    cy = joined(app, "player:Cy")
    pid = propose(ann, game, to="Bo", give={"cash": 10}).get_json()["proposal"]["id"]
    v = game.version
    assert cy.post(f"/api/trades/{pid}/accept", {"version": v}).status_code == 403
    assert ann.post(f"/api/trades/{pid}/accept", {"version": v}).status_code == 403
    assert cy.post(f"/api/trades/{pid}/decline", {}).status_code == 403
    assert cy.client.get("/api/trades").get_json() == []  # not Cy's business
    assert game.version == v


def test_refuse_and_withdraw(ann: Phone, app: Flask, game: Any) -> None:
    bo = joined(app, "player:Bo")
    first = propose(ann, game, to="Bo", give={"cash": 10}).get_json()["proposal"]["id"]
    second = propose(ann, game, to="Bo", give={"cash": 20}).get_json()["proposal"]["id"]
    assert bo.post(f"/api/trades/{first}/decline", {}).status_code == 200
    assert ann.post(f"/api/trades/{second}/decline", {}).status_code == 200
    assert bo.client.get("/api/trades").get_json() == []
    assert bo.post(f"/api/trades/{first}/accept", {"version": game.version}).status_code == 404


@pytest.mark.parametrize("body,code", [
    ({"to": "Bo", "give": {"squares": [5]}}, "not_owner"),  # Ann does not own 5
    ({"to": "Bo", "take": {"squares": [3]}}, "not_owner"),  # 3 is Ann's, not Bo's
    ({"to": "Bo", "give": {"cards": 1}}, "no_jail_card"),
    ({"to": "Bo", "give": {"cash": -1}}, "bad_amount"),
    ({"to": "Bo", "give": {"cash": 10**7}}, "bad_amount"),
    ({"to": "Bo", "give": {"squares": [77]}}, "unknown_square"),
    ({"to": "Bo", "give": {"gold": 1}}, "bad_command"),
    ({"to": "Ann", "give": {"cash": 1}}, "unknown_player"),
    ({"to": "Zed", "give": {"cash": 1}}, "unknown_player"),
    ({"to": "Bo"}, "empty_trade"),
])
def test_bad_proposals_are_refused(ann: Phone, game: Any, body: dict[str, Any],
                                   code: str) -> None:
    resp = propose(ann, game, **body)
    assert resp.status_code in (400, 403), resp.get_json()
    assert resp.get_json()["code"] == code
    assert ann.client.get("/api/trades").get_json() == []


def test_stale_proposal_is_refused(ann: Phone, game: Any) -> None:
    resp = ann.post("/api/trades", {"version": game.version - 1, "to": "Bo",
                                    "give": {"cash": 5}})
    assert resp.status_code == 409


def test_engine_revalidates_on_accept(ann: Phone, app: Flask, game: Any) -> None:
    bo = joined(app, "player:Bo")
    pid = propose(ann, game, to="Bo", give={"cash": 10},
                  take={"cash": 1500}).get_json()["proposal"]["id"]
    bo.command({"do": "pay", "to": "Cy", "amount": 100})  # now Bo cannot pay 1500
    before = game.state()
    resp = bo.post(f"/api/trades/{pid}/accept", {"version": game.version})
    assert resp.status_code == 422
    assert game.state() == before
    listed = bo.client.get("/api/trades").get_json()
    assert listed[0]["error"]


def test_proposals_survive_a_restart(ann: Phone, game: Any, tmp_path: Path,
                                     app: Flask) -> None:
    pid = propose(ann, game, to="Bo", give={"cash": 10}).get_json()["proposal"]["id"]
    app.extensions["web_remote"].persister.flush()
    again = create_app(game, tmp_path / "game")
    assert again.extensions["web_remote"].proposals.get(pid)["to"] == "Bo"
    again.extensions["web_remote"].close()


def test_overtaken_proposals_disappear(ann: Phone, app: Flask, game: Any) -> None:
    banker = joined(app, "banker", "2468")
    propose(ann, game, to="Bo", give={"squares": [3]}, take={"cash": 50})
    banker.command({"do": "trade", "from": "Ann", "to": "Cy", "give": {"squares": [3]},
                    "take": {"cash": 60}})
    assert ann.client.get("/api/trades").get_json() == []


def test_new_game_clears_proposals(ann: Phone, app: Flask, game: Any) -> None:
    banker = joined(app, "banker", "2468")
    propose(ann, game, to="Bo", give={"cash": 5})
    banker.command({"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"]})
    assert banker.client.get("/api/trades").get_json() == []


def test_screen_is_told_of_proposals(game: Any, tmp_path: Path) -> None:
    shown: list[dict[str, Any]] = []
    app = create_app(game, tmp_path / "told", hooks=TableHooks(on_trade=shown.append))
    ann = joined(app, "player:Ann")
    propose(ann, game, to="Bo", give={"cash": 5})
    assert shown and shown[0]["from"] == "Ann" and shown[0]["to"] == "Bo"


def test_screen_is_told_when_a_proposal_is_settled(game: Any, tmp_path: Path) -> None:
    """The screen's "Waiting for Bo" goes when Bo declines, or accepts, on his phone."""
    closed: list[str] = []
    app = create_app(game, tmp_path / "closed", hooks=TableHooks(on_trade_closed=closed.append))
    ann, bo = joined(app, "player:Ann"), joined(app, "player:Bo")
    first = propose(ann, game, to="Bo", give={"cash": 5}).get_json()["proposal"]["id"]
    second = propose(ann, game, to="Bo", give={"cash": 7}).get_json()["proposal"]["id"]
    assert closed == []
    assert bo.post(f"/api/trades/{first}/decline", {}).status_code == 200
    assert closed == [first]
    accepted = bo.post(f"/api/trades/{second}/accept", {"version": game.version})
    assert accepted.status_code == 200, accepted.get_json()
    assert closed == [first, second]
