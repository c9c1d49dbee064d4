"""A hostile player at the table, through the real HTTP remote (issue "Who may act at the
table", point 6): every attack is refused, nothing changes, and the refusal says why in the
attacker's phone's language (French here, so a message left in English shows)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import ORIGIN, Phone, joined, page_csrf, play, text

from companion.game.pins import PIN_CHECKS_PER_MINUTE, PinGuard, PinWarning
from web_remote import TableHooks, create_app, join_url


class Clock:
    """The PIN guard's clock, moved by hand: no sleeping."""

    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def warnings() -> list[PinWarning]:
    return []


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(game: Any, tmp_path: Path, clock: Clock, warnings: list[PinWarning]) -> Iterator[Flask]:
    # the test client's devices all come from one address: its request rate limit (an
    # address's share, tests/test_attack_slow_requests.py) lifted to see the PIN guard's own
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468", "burst": 1000.0},
                     TableHooks(on_pin_warning=warnings.append))
    r = app.extensions["web_remote"]
    r.pin = PinGuard(r.pin.store, clock=clock, on_warning=warnings.append)
    yield app
    r.close()


def table(app: Flask) -> Any:
    """What the table holds now: the game, the join link, the seats, the proposals."""
    r = app.extensions["web_remote"]
    state = r.session.state()
    return (state["version"], [(p["name"], p["cash"]) for p in state["players"]],
            [(s["index"], s.get("owner")) for s in state["squares"]],
            join_url(app, ORIGIN), r.seats.held(), r.proposals.open())


def in_french(phone: Phone) -> Phone:
    phone.client.get("/lang/fr")
    return phone


def refused(resp: Any, status: int, code: str) -> str:
    """The refusal's French message, checked to be a translation of its English one."""
    body = resp.get_json()
    assert resp.status_code == status, body
    assert body["ok"] is False and body["code"] == code, body
    assert body["message"] and body["message"] != body["message_en"], body
    return str(body["message"])


def form(phone: Phone, path: str, **fields: str) -> Any:
    """A page's form sent by its script (asking for JSON)."""
    return phone.client.post(path, data={**fields, "csrf_token": phone.csrf},
                             headers={"Origin": ORIGIN, "Accept": "application/json"})


def fresh_join(phone: Phone, app: Flask, who: str, pin: str = "") -> Any:
    """Open a new link from the table screen and join with it (the refusal kept as JSON)."""
    url = join_url(app, ORIGIN, fresh=True).removeprefix(ORIGIN)
    return join_with(phone, url, who, pin)


def join_with(phone: Phone, url: str, who: str, pin: str = "") -> Any:
    """Join with a link's page, as a phone's browser sends the form (JSON asked)."""
    page = phone.client.get(url)
    token = page_csrf(page.get_data(as_text=True)) if page.status_code == 200 else phone.csrf
    phone.csrf = token
    return phone.client.post(url, data={"who": who, "pin": pin, "csrf_token": token},
                             headers={"Origin": ORIGIN, "Accept": "application/json"})


# --- the banker PIN ---------------------------------------------------------------------


def test_pin_guessing_over_16_devices_is_held_to_ten_a_minute(
        app: Flask, clock: Clock, warnings: list[PinWarning],
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = app.extensions["web_remote"].pin.store
    checked: list[str] = []
    real_check = store.check
    monkeypatch.setattr(store, "check", lambda pin: checked.append(pin) or real_check(pin))
    devices = [in_french(Phone(app)) for _ in range(16)]
    answers = []
    for guess, phone in enumerate(devices * 3):  # 48 guesses, 3 from each of 16 devices
        resp = fresh_join(phone, app, "banker", pin=f"{guess:04d}")
        answers.append(resp.get_json()["code"])
        clock.now += 1.0
    assert len(checked) <= PIN_CHECKS_PER_MINUTE
    assert "2468" not in checked
    assert answers.count("bad_pin") == len(checked) and "rate_limited" in answers
    wait = fresh_join(devices[0], app, "banker", pin="2468")  # even the right one waits
    message = refused(wait, 429, "rate_limited")
    assert "attendez" in message and wait.get_json()["wait"] >= 1
    assert all(p.client.get("/api/state").status_code == 401 for p in devices)  # none joined
    assert warnings and warnings[-1].wrong == len(checked)


def test_a_wrong_pin_spends_the_join_link(app: Flask) -> None:
    phone = in_french(Phone(app))
    url = join_url(app, ORIGIN, fresh=True).removeprefix(ORIGIN)
    refused(join_with(phone, url, "banker", "0000"), 403, "bad_pin")
    refused(join_with(phone, url, "banker", "2468"), 403, "bad_join")  # the link is spent
    assert phone.client.get("/api/state").status_code == 401


def test_a_wrong_pin_renews_the_code_without_saying_a_phone_joined(
        game: Any, tmp_path: Path) -> None:
    """The table screen shows the next code after a wrong PIN spent the link, but "a phone
    joined" (and the phones' "joined" news) only after a phone did join."""
    spent: list[bool] = []
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"},
                     TableHooks(on_join=spent.append))
    try:
        phone = in_french(Phone(app))
        url = join_url(app, ORIGIN, fresh=True).removeprefix(ORIGIN)
        refused(join_with(phone, url, "banker", "0000"), 403, "bad_pin")
        assert spent == [False]
        url = join_url(app, ORIGIN, fresh=True).removeprefix(ORIGIN)
        assert join_with(phone, url, "banker", "2468").status_code == 302
        assert spent == [False, True]
    finally:
        app.extensions["web_remote"].close()


def test_the_banker_is_warned_of_wrong_pins_on_the_banker_page(app: Flask) -> None:
    ann = joined(app, "Ann")
    for pin in ("0000", "1111"):
        refused(form(in_french(ann), "/unlock", pin=pin), 403, "bad_pin")
    banker = joined(app, "banker")
    page = text(banker.client.get("/banker?partial=1"))
    assert "2 wrong banker PINs typed" in page
    assert form(banker, "/banker/warning").get_json()["ok"] is True
    assert "wrong banker PIN" not in text(banker.client.get("/banker?partial=1"))


def test_a_banker_cookie_ends_when_another_banker_phone_locks(app: Flask) -> None:
    kept, locking = joined(app, "banker"), joined(app, "banker")
    assert kept.client.get("/banker").status_code == 200
    assert locking.client.post("/lock", data={"csrf_token": locking.csrf},
                               headers={"Origin": ORIGIN}).status_code == 302
    before = table(app)
    in_french(kept)
    refused(kept.client.get("/banker", headers={"Accept": "application/json"}), 403,
            "banker_only")
    refused(kept.post("/api/undo", {"version": before[0]}), 403, "not_allowed")
    refused(kept.command({"do": "pay", "from": "bank", "to": "Bo", "amount": 50}), 403,
            "spectator")
    assert table(app) == before


def test_a_banker_cookie_ends_when_the_pin_changes(app: Flask) -> None:
    old, changer = joined(app, "banker"), joined(app, "banker")
    resp = form(changer, "/banker/pin", old_pin="2468", pin="8642")
    assert resp.get_json() == {"ok": True}
    assert changer.client.get("/banker").status_code == 200  # the phone that changed it stays
    before = table(app)
    refused(in_french(old).command({"do": "pay", "from": "bank", "to": "Ann", "amount": 50}),
            403, "spectator")
    assert table(app) == before
    assert Phone(app).join("banker", pin="8642").status_code == 302


def test_the_pin_cannot_change_without_the_old_one(app: Flask) -> None:
    banker = in_french(joined(app, "banker"))
    refused(form(banker, "/banker/pin", pin="1111"), 403, "bad_pin")
    refused(form(banker, "/banker/pin", old_pin="9999", pin="1111"), 403, "bad_pin")
    refused(form(banker, "/banker/new-game", players="Dee, Eve", edition="classic-eur",
                 pin="1111"), 403, "bad_pin")
    assert Phone(app).join("banker", pin="1111").status_code == 403
    assert Phone(app).join("banker", pin="2468").status_code == 302
    assert [p["name"] for p in app.extensions["web_remote"].session.state()["players"]] == [
        "Ann", "Bo", "Cy"]


# --- seats and join codes -----------------------------------------------------------------


def test_a_fresh_link_cannot_take_a_held_seat(app: Flask) -> None:
    ann = joined(app, "Ann")
    thief = in_french(Phone(app))
    before = table(app)
    message = refused(fresh_join(thief, app, "player:Ann"), 409, "not_yours")
    assert "Ann" in message and "banquier" in message
    assert thief.client.get("/api/state").status_code == 401
    assert table(app)[:3] == before[:3] and table(app)[4:] == before[4:]
    assert ann.client.get("/api/state").status_code == 200  # Ann keeps her seat
    page = text(thief.client.get(join_url(app, ORIGIN).removeprefix(ORIGIN)))
    assert 'value="player:Ann" disabled' in page and 'value="player:Bo" disabled' not in page


def test_the_banker_releases_a_seat_and_the_old_phone_is_signed_out(app: Flask,
                                                                   game: Any) -> None:
    lost = joined(app, "Ann")
    banker = joined(app, "banker")
    page = text(banker.client.get("/banker?partial=1"))
    assert "Release this seat" in page and "Lost phone?" in page
    assert form(banker, "/banker/seat", player="Ann").get_json() == {"ok": True}
    assert lost.client.get("/api/state").status_code == 401  # at once
    assert lost.post("/api/commands", {"command": {"do": "roll", "dice": [1, 2]},
                                       "version": game.version}).status_code == 401
    found = Phone(app)
    assert found.join("player:Ann").status_code == 302  # the new link gives the seat
    assert found.command({"do": "roll", "dice": [1, 2]}).status_code == 200
    refused(form(in_french(banker), "/banker/seat", player="Nobody"), 404, "not_found")


@pytest.mark.parametrize("who", ["Ann", "spectator"])
def test_only_the_banker_mints_join_codes(app: Flask, who: str) -> None:
    phone = in_french(joined(app, who) if who != "spectator" else Phone(app))
    if who == "spectator":
        phone.join("spectator")
    outstanding = join_url(app, ORIGIN)
    for _ in range(3):
        refused(phone.client.get("/qr.svg", headers={"Accept": "application/json"}), 403,
                "banker_only")
    assert join_url(app, ORIGIN) == outstanding  # no code was minted or spent
    assert "/qr.svg" not in text(phone.client.get("/table"))
    banker = joined(app, "banker")
    assert "/join/" in text(banker.client.get("/qr.svg"))
    assert "/qr.svg" in text(banker.client.get("/table"))


# --- trades ---------------------------------------------------------------------------------


@pytest.fixture
def offer(app: Flask, game: Any) -> tuple[Phone, str]:
    """Ann owns Rue Lecourbe and offers it to Bo for 100."""
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})
    ann = joined(app, "Ann")
    resp = ann.post("/api/trades", {"version": game.version, "to": "Bo",
                                    "give": {"squares": [3]}, "take": {"cash": 100}})
    assert resp.status_code == 200, resp.get_json()
    return ann, resp.get_json()["proposal"]["id"]


@pytest.mark.parametrize("who", ["banker", "Cy", "Ann"])
def test_nobody_accepts_a_trade_for_the_player_it_is_offered_to(
        app: Flask, game: Any, offer: tuple[Phone, str], who: str) -> None:
    _ann, pid = offer
    phone = in_french(joined(app, who) if who != "Ann" else offer[0])
    before = table(app)
    message = refused(phone.post(f"/api/trades/{pid}/accept", {"version": game.version}),
                      403, "not_yours")
    assert "Bo" in message
    assert table(app) == before  # the deed, the cash and the open proposal as they were
    bo = joined(app, "Bo")
    assert bo.post(f"/api/trades/{pid}/accept", {"version": game.version}).status_code == 200
    assert {s["index"]: s["owner"] for s in game.state()["squares"]}[3] == "Bo"


def test_the_banker_may_still_withdraw_a_trade(app: Flask, game: Any,
                                               offer: tuple[Phone, str]) -> None:
    banker = joined(app, "banker")
    page = text(banker.client.get("/me?as=Bo"))
    assert f'data-proposal="{offer[1]}"' in page and "/accept" not in page  # Bo's to accept
    assert "/accept" in text(joined(app, "Bo").client.get("/me"))
    assert banker.post(f"/api/trades/{offer[1]}/decline", {}).get_json() == {"ok": True}
    assert app.extensions["web_remote"].proposals.open() == []


# --- slips -----------------------------------------------------------------------------------


def test_a_player_takes_back_their_own_last_move(app: Flask, game: Any) -> None:
    ann, bo = joined(app, "Ann"), in_french(joined(app, "Bo"))
    assert ann.command({"do": "roll", "dice": [1, 2]}).status_code == 200
    assert ann.command({"do": "buy"}).status_code == 200
    assert "Undo my last move" in text(ann.client.get("/me"))
    assert "Undo my last move" not in text(bo.client.get("/me"))
    before = table(app)
    refused(bo.post("/api/undo", {"version": game.version}), 403, "not_allowed")
    assert table(app) == before
    resp = ann.post("/api/undo", {"version": game.version})
    assert resp.status_code == 200, resp.get_json()
    assert {s["index"]: s["owner"] for s in game.state()["squares"]}[3] is None
    last = game.history(None, 1)[-1]
    assert last["kind"] == "undo" and last["source"]["player"] == "Ann"


def test_no_take_back_once_somebody_acted_after(app: Flask, game: Any) -> None:
    ann = in_french(joined(app, "Ann"))
    assert ann.command({"do": "roll", "dice": [1, 2]}).status_code == 200
    play(game, {"do": "decline"})  # the table acted after Ann's roll
    assert "Undo my last move" not in text(ann.client.get("/me"))
    before = table(app)
    refused(ann.post("/api/undo", {"version": game.version}), 403, "not_allowed")
    assert table(app) == before


@pytest.mark.parametrize("verb", ["mortgage", "sell_building"])
def test_selling_and_mortgaging_ask_first(app: Flask, game: Any, verb: str) -> None:
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"},  # Ann: both brown lots
         {"do": "land", "square": 1}, {"do": "buy"})
    ann = in_french(joined(app, "Ann"))
    if verb == "sell_building":
        assert ann.command({"do": "build", "square": 1}).status_code == 200
    before = table(app)
    body = ann.command({"do": verb, "square": 1}).get_json()
    assert body["confirm"] is True and "code" not in body  # a question, not a refusal
    assert "Boulevard de Belleville" in body["question"]
    assert body["question"].startswith("Vendre" if verb == "sell_building" else "Hypothéquer")
    assert table(app) == before
    resp = ann.post("/api/commands", {"command": {"do": verb, "square": 1},
                                      "version": game.version, "confirmed": True})
    assert resp.status_code == 200, resp.get_json()


def test_a_large_correction_asks_first_a_small_one_does_not(app: Flask, game: Any) -> None:
    banker = in_french(joined(app, "banker"))
    before = table(app)
    body = banker.command({"do": "pay", "from": "bank", "to": "Bo", "amount": 500}).get_json()
    assert body["confirm"] is True and "code" not in body and "Bo" in body["question"]
    assert table(app) == before
    assert banker.command({"do": "pay", "from": "bank", "to": "Bo",
                           "amount": 50}).status_code == 200
    resp = banker.post("/api/commands", {"command": {"do": "pay", "from": "bank", "to": "Bo",
                                                     "amount": 500},
                                         "version": game.version, "confirmed": True})
    assert resp.status_code == 200, resp.get_json()


# --- another player's debt ----------------------------------------------------------------

BO_IN_DEBT = (  # Cy's turn; Bo (Rue Lecourbe, € 5 in cash) owes Cy € 10 for her birthday
    {"do": "roll", "dice": [1, 2]}, {"do": "decline"}, {"do": "pass", "by": "Ann"},
    {"do": "pass", "by": "Cy"}, {"do": "bid", "by": "Bo", "amount": 60}, {"do": "end_turn"},
    {"do": "roll", "dice": [2, 3]}, {"do": "decline"}, {"do": "pass", "by": "Ann"},
    {"do": "pass", "by": "Cy"}, {"do": "pass", "by": "Bo"}, {"do": "end_turn"},
    {"do": "pay", "from": "Bo", "to": "bank", "amount": 1435},
    {"do": "roll", "dice": [1, 1]}, {"do": "draw", "card": "chest-birthday"})


@pytest.mark.parametrize("who", ["Cy", "Ann"])
@pytest.mark.parametrize(("command", "status", "code"), [
    ({"do": "mortgage", "by": "Bo", "square": 3}, 403, "not_yours"),
    ({"do": "bankrupt", "by": "Bo"}, 403, "not_yours"),
    ({"do": "bankrupt"}, 422, "not_in_debt"),  # taken as the phone's own: not in debt
])
def test_nobody_answers_a_debt_for_the_player_who_owes(
        app: Flask, game: Any, who: str, command: dict[str, Any], status: int,
        code: str) -> None:
    play(game, *BO_IN_DEBT)
    assert (game.state()["pending"]["player"], game.state()["current"]) == ("Bo", "Cy")
    phone = in_french(joined(app, who))
    before = table(app)
    resp = phone.post("/api/commands", {"command": command, "version": game.version,
                                        "confirmed": True})
    refused(resp, status, code)
    assert table(app) == before
    bo = joined(app, "Bo")  # his own phone may
    resp = bo.post("/api/commands", {"command": {"do": "mortgage", "square": 3},
                                     "version": game.version, "confirmed": True})
    assert resp.status_code == 200, resp.get_json()
    assert game.history(limit=1)[-1]["source"] == {"kind": "phone", "player": "Bo",
                                                   "banker": False}
