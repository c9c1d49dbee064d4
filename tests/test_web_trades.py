"""Trade proposals between phones: proposed on one, accepted (or refused) on the other,
executed by the engine only on acceptance, kept across a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import Phone

from companion.game.table.offers import OfferStore
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


def test_the_screen_and_the_phones_share_one_store(game: Any, tmp_path: Path) -> None:
    """The phones offer into the table's one store (companion.game.table.offers), which the
    screen and the card readers read: no second list to tell."""
    offers = OfferStore(tmp_path / "offers.json")
    game.keep_offers(offers)
    app = create_app(game, tmp_path / "told", hooks=TableHooks(offers=offers))
    ann, bo = joined(app, "player:Ann"), joined(app, "player:Bo")
    first = propose(ann, game, to="Bo", give={"cash": 5}).get_json()["proposal"]["id"]
    second = propose(ann, game, to="Bo", give={"cash": 7}).get_json()["proposal"]["id"]
    assert [o["id"] for o in offers.open()] == [first, second]
    assert offers.asked("Bo")["id"] == second  # the newest is the one put to Bo
    assert bo.post(f"/api/trades/{first}/decline", {}).status_code == 200
    assert [o["id"] for o in offers.open()] == [second]
    accepted = bo.post(f"/api/trades/{second}/accept", {"version": game.version})
    assert accepted.status_code == 200, accepted.get_json()
    assert offers.open() == []
    app.extensions["web_remote"].close()


def test_an_offer_lapses_at_the_end_of_its_turn(ann: Phone, app: Flask, game: Any) -> None:
    bo = joined(app, "player:Bo")
    pid = propose(ann, game, to="Bo", give={"cash": 5}).get_json()["proposal"]["id"]
    assert ann.command({"do": "end_turn"}).status_code == 200
    assert bo.client.get("/api/trades").get_json() == []
    out = bo.post(f"/api/trades/{pid}/accept", {"version": game.version})
    assert out.status_code == 404 and out.get_json()["code"] == "no_proposal"
    assert cash(game)["Bo"] == 1500


def test_a_receiver_cannot_dictate_a_trade_nobody_offered(ann: Phone, app: Flask,
                                                          game: Any) -> None:
    """A trade is the receiver's answer to an open offer with the very same deal: Bo's
    phone sending its own terms (Ann's street for 1) is refused and nothing changes."""
    bo = joined(app, "player:Bo")
    propose(ann, game, to="Bo", give={"squares": [3]}, take={"cash": 100})
    before, money = game.state(), cash(game)
    for take in ({"cash": 1}, {"cash": 99}):
        resp = bo.command({"do": "trade", "from": "Ann", "to": "Bo",
                           "give": {"squares": [3]}, "take": take})
        assert resp.get_json()["code"] == "no_offer", resp.get_json()
    assert game.state()["squares"] == before["squares"] and cash(game) == money
    resp = bo.command({"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [3]},
                       "take": {"cash": 100}})  # the offer as it stands: Bo's to accept
    assert resp.status_code == 200, resp.get_json()
    assert {s["index"]: s["owner"] for s in game.state()["squares"]}[3] == "Bo"
    assert bo.client.get("/api/trades").get_json() == []
