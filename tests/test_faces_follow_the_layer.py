"""Every face asks the table layer what each person may do (issue 25): a rule option that
changes what the engine offers changes what the screen, a headless table and the phones
offer without a line of theirs changing, and a layer that offers less makes every face
offer less; the phones' typed view (/api/table) shows a seat only its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import TABLE, Phone, open_real_session, play

from companion.game.api import Source, Update
from companion.game.table import view as table_view
from companion.game.table.view import Move
from companion.screen.controller import Controller
from companion.screen.headless import HeadlessTable
from companion.screen.ui_state import UiState
from companion.screen.views.prompt import build_prompt, square_choices
from web_remote import create_app


def _table(tmp_path: Path, options: dict[str, Any]) -> Iterator[tuple[Any, Flask]]:
    game = open_real_session(tmp_path / "game", options=options)
    app = create_app(game, tmp_path, {"banker_pin": "2468"})
    yield game, app
    app.extensions["web_remote"].close()
    game.close()


@pytest.fixture
def bank_only(tmp_path: Path) -> Iterator[tuple[Any, Flask]]:
    yield from _table(tmp_path, {"bank_only": True})


@pytest.fixture
def device(tmp_path: Path) -> Iterator[tuple[Any, Flask]]:
    yield from _table(tmp_path, {"physical_dice": True})


def _phone(app: Flask, who: str) -> Phone:
    phone = Phone(app)
    assert phone.join(who).status_code == 302
    return phone


def _seat(phone: Phone) -> dict[str, Any]:
    resp = phone.client.get("/api/table")
    assert resp.status_code == 200, resp.data
    body: dict[str, Any] = resp.get_json()
    return body


@pytest.mark.parametrize("bank", [True, False])
def test_a_rule_option_changes_what_every_face_offers(bank: bool, tmp_path: Path) -> None:
    """Bank-only play (the tokens are moved by hand): the salary is the player's to tell,
    so PASS GO sends it on the screen and on a headless table, and Ann's phone offers it;
    where the companion moves the tokens none of them does. No face names the option's
    effect: each renders what the layer says."""
    for game, app in _table(tmp_path / str(bank), {"bank_only": bank}):
        state = game.state()
        assert state["current"] == "Ann"
        prompt = build_prompt(state, UiState())
        go = prompt.for_button("pass_go")
        assert go is not None
        assert (go.command == {"do": "pass_go", "by": "Ann"}) is bank
        assert (go.ui == "go_by_device") is not bank
        ann = _phone(app, "player:Ann")
        seat = _seat(ann)
        assert ("pass_go" in seat["buttons"]) is bank
        assert any(m["do"] == "pass_go" for m in seat["moves"]) is bank
        me = ann.client.get("/me").get_data(as_text=True)
        assert ('"do": "pass_go"' in me) is bank
        headless = HeadlessTable(game)
        try:
            before = game.version
            headless.press("pass_go")
            assert (game.version == before + 1) is bank  # sent, or "does nothing now"
        finally:
            headless.close()


def test_when_the_layer_offers_less_every_face_offers_less(
        device: tuple[Any, Flask], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann owns a lot she may mortgage; a layer that hides mortgages (as a rule that
    forbade them would) takes them off the screen's square picker and menu verbs, the
    phone's deed cards and its typed view: no face reads the engine's list itself."""
    game, app = device
    play(game, {"do": "roll", "by": "Ann", "dice": [1, 2]}, {"do": "buy", "by": "Ann"})
    state = game.state()
    ann = _phone(app, "player:Ann")
    assert [c[1] for c in square_choices(state, UiState(), "mortgage")] == [
        {"do": "mortgage", "by": "Ann", "square": 3}]
    screen = Controller(game)
    assert "choose:mortgage" in _menu(screen)
    assert any(m["do"] == "mortgage" for m in _seat(ann)["moves"])
    assert "mortgage" in _deed_buttons(ann)

    real = table_view.moves_of_state

    def no_mortgages(state: Any) -> tuple[Move, ...]:
        return tuple(m for m in real(state) if m.do != "mortgage")

    monkeypatch.setattr(table_view, "moves_of_state", no_mortgages)
    play(game, {"do": "end_turn", "by": "Ann"})  # a new version: a new view of the table
    play(game, {"do": "roll", "by": "Bo", "dice": [1, 1]})
    state = game.state()
    assert any(e["do"] == "mortgage" and e["by"] == "Ann" for e in state["legal"])
    assert square_choices(state, UiState(), "mortgage") == []
    assert "mortgage" not in game.table().verbs()
    screen.apply_update(_latest(game))
    assert "choose:mortgage" not in _menu(screen)
    screen.close()
    assert not any(m["do"] == "mortgage" for m in _seat(ann)["moves"])
    assert "mortgage" not in _deed_buttons(ann)


def _menu(screen: Controller) -> list[str | None]:
    """The actions of the screen's MENU list as it opens now."""
    screen.open_menu()
    assert screen.ui.chooser is not None
    return [c.action for c in screen.ui.chooser.choices]


def _latest(game: Any) -> Update:
    return Update(game.version, game.state(), [], TABLE)


def _deed_buttons(phone: Phone) -> str:
    """The verbs the Me page's deed cards offer, as the page writes them."""
    html = phone.client.get("/me").get_data(as_text=True)
    return " ".join(v for v in ("build", "sell_building", "mortgage", "unmortgage")
                    if f'"do": "{v}"' in html)


def test_a_phone_sees_only_its_own_seat(device: tuple[Any, Flask]) -> None:
    """Bo's phone learns what Bo may do and what the table waits for, never Ann's moves,
    her buttons or an offer between others; a spectator sees the public part; the banker
    everything. The seat is the cookie's: `?as=` names nobody."""
    game, app = device
    play(game, {"do": "roll", "by": "Ann", "dice": [1, 2]})
    bo, watcher = _phone(app, "player:Bo"), _phone(app, "spectator")
    ann = _phone(app, "player:Ann")
    mine = _seat(ann)
    assert mine["player"] == "Ann" and mine["current"] == "Ann"
    assert {m["do"] for m in mine["moves"]} >= {"buy", "decline"}
    assert mine["buttons"]["yes"] == {"do": "buy", "by": "Ann"}
    assert [a["what"] for a in mine["asked"]] == ["buy"]
    theirs = _seat(bo)
    assert theirs["player"] == "Bo" and theirs["current"] == "Ann"
    assert all(m.get("by") in ("Bo", None) for m in theirs["moves"])
    assert theirs["buttons"] == {} and theirs["asked"] == []
    assert bo.client.get("/api/table?as=Ann").get_json()["moves"] == theirs["moves"]
    public = _seat(watcher)
    assert public["player"] is None and public["moves"] == [] and public["asked"] == []
    assert public["version"] == mine["version"] == game.version
    banker = Phone(app)
    assert banker.join("banker", "2468").status_code == 302
    everything = _seat(banker)
    assert {m.get("by") for m in everything["moves"]} >= {"Ann"}
    assert Phone(app).client.get("/api/table").status_code == 401


def test_a_phone_reloading_forty_times_costs_the_session_one_view(
        device: tuple[Any, Flask]) -> None:
    """The typed view is built once per version for every phone: forty reads of it give
    the one the session keeps."""
    game, app = device
    ann = _phone(app, "player:Ann")
    first = game.table()
    for _ in range(40):
        assert _seat(ann)["version"] == first.version
    assert game.table() is first


def test_the_phones_undo_flag_asks_the_session(device: tuple[Any, Flask]) -> None:
    """/api/table's "undo" is the session's answer (companion.game.authority): Ann may take
    back her own buy, Bo may not, and nobody a die the companion rolled."""
    game, app = device
    ann, bo = _phone(app, "player:Ann"), _phone(app, "player:Bo")
    assert ann.command({"do": "roll", "dice": [1, 2]}).status_code == 200
    assert ann.command({"do": "buy"}).status_code == 200
    assert _seat(ann)["undo"] is True
    assert _seat(bo)["undo"] is False
    assert game.undo_refusal(Source("phone", player="Bo")) is not None
    out = game.submit({"do": "end_turn", "by": "Ann"}, TABLE)
    assert out.accepted
    assert _seat(ann)["undo"] is False  # the banker's script sent it: not hers


def test_the_banker_page_offers_the_calls_the_layer_offers(
        device: tuple[Any, Flask], monkeypatch: pytest.MonkeyPatch) -> None:
    """The banker's "End now and count" is there while the table offers end_game; a layer
    that does not offer it takes it off the page."""
    game, app = device
    banker = Phone(app)
    assert banker.join("banker", "2468").status_code == 302
    assert '"do": "end_game"' in banker.client.get("/banker").get_data(as_text=True)
    real = table_view.moves_of_state
    monkeypatch.setattr(table_view, "moves_of_state",
                        lambda state: tuple(m for m in real(state) if m.do != "end_game"))
    play(game, {"do": "roll", "by": "Ann", "dice": [1, 2]})  # a new version, a new view
    assert any(e["do"] == "end_game" for e in game.state()["legal"])
    assert '"do": "end_game"' not in banker.client.get("/banker").get_data(as_text=True)
