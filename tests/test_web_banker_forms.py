"""A refused banker form is said on the banker page, beside the form, keeping what was typed:
as JSON for the page's script (which shows it in the form's [data-form-error]) and, without
the script, as the banker page again (the refusal's status) with the message beside the form
and the form filled in as it was sent; never the bare error page. Flask's test client."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import ORIGIN, Phone, open_real_session

from companion.words.catalog import localized_name
from web_remote import TableHooks, create_app

JSON = {"Accept": "application/json"}


class Tags:
    """The tags hook: registers what it understands, refuses the rest."""

    def __init__(self) -> None:
        self.items: list[dict[str, str]] = []

    def list(self, lang: str = "en") -> list[dict[str, str]]:
        return self.items

    def register(self, tag: str, meaning: str) -> None:
        if ":" not in meaning:
            raise ValueError(f"unknown meaning {meaning!r}")
        self.items.append({"tag": tag, "meaning": meaning})

    def status(self, lang: str) -> dict[str, Any]:
        return {"active": False, "finished": False, "kinds": ["deeds", "bank_cards"]}

    def start(self, kind: str) -> None:
        raise ValueError(f"cannot register {kind} on this board")

    def confirm(self, yes: bool) -> None:
        raise ValueError("nothing to confirm")

    def skip(self) -> None:
        raise ValueError("no run")

    def back(self) -> None:
        raise ValueError("no run")

    def cancel(self) -> None:
        raise ValueError("no run")

    def add_listener(self, callback: Any) -> Any:
        return lambda: None


class Games:
    """The games hook: one saved game, which cannot be opened."""

    def list(self) -> list[dict[str, Any]]:
        return [{"id": "g-1", "name": "Ann, Bo", "players": ["Ann", "Bo"], "edition": "sv",
                 "last_played": "", "current": True},
                {"id": "g-2", "name": "Cy, Dee", "players": ["Cy", "Dee"], "edition": "pl",
                 "last_played": "", "current": False}]

    def resume(self, game_id: str) -> None:
        error = LookupError(f"no game {game_id}") if game_id != "g-2" else \
            RuntimeError("the journal is damaged")
        error.code = "no_such_game" if game_id != "g-2" else "cannot_open"  # type: ignore
        raise error


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo"))
    yield session
    session.close()


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Iterator[Flask]:
    tags = Tags()
    app = create_app(game, tmp_path / "game",
                     {"banker_pin": "2468"},
                     TableHooks(tags=tags, registration=tags, games=Games()))
    yield app
    app.extensions["web_remote"].close()


@pytest.fixture
def banker(app: Flask) -> Phone:
    phone = Phone(app)
    phone.join("banker", pin="2468")
    return phone


def send(phone: Phone, path: str, script: bool = False, **form: str) -> Any:
    """A banker form as the browser sends it (`script`: as the page's script does)."""
    headers = {"Origin": ORIGIN, **(JSON if script else {})}
    return phone.client.post(path, data={"csrf_token": phone.csrf, **form}, headers=headers)


def beside(html: str, action: str) -> str:
    """The form posting to `action`, as the page shows it."""
    found = re.search(rf'<form method="post" action="{re.escape(action)}".*?</form>', html,
                      re.S)
    assert found, action
    return found.group(0)


def said(form: str) -> tuple[str, str]:
    """(code, message) of the refusal shown in a form ("", "" when none)."""
    found = re.search(r'<p class="error form-error" data-form-error role="alert"'
                      r'(?: data-code="([^"]*)")?( hidden)?>(.*?)</p>', form, re.S)
    assert found, form
    return (found.group(1) or "", unescape(found.group(3))) if not found.group(2) else ("", "")


NEW_GAME = {"edition": "sv", "players": "Åsa, Bo, Cy, Dee, Eve, Fay, Gus", "seed": "7",
            "pin": "13579", "free_parking_pot": "1", "bank_only": "1"}


def test_a_refused_new_game_is_said_beside_the_form_with_what_was_typed(
        banker: Phone, game: Any) -> None:
    before = game.version
    resp = send(banker, "/banker/new-game", **NEW_GAME)
    assert resp.status_code == 400 and game.version == before
    html = resp.get_data(as_text=True)
    assert "<h1>Banker</h1>" in html and "Sorry" not in html, "the banker page, not an error page"
    assert 'data-partial="/banker"' in html  # its live part refreshes from the banker page
    form = beside(html, "/banker/new-game")
    sweden = localized_name("sv", "sv", "en")  # as an English phone names the edition
    assert said(form) == ("bad_players", f"{sweden} is for 2 to 6 players.")
    assert 'value="Åsa, Bo, Cy, Dee, Eve, Fay, Gus"' in form
    assert re.search(r'<option value="sv"[^>]* selected>', form)
    assert 'name="seed" inputmode="numeric" value="7"' in form and 'value="13579"' in form
    assert 'name="free_parking_pot" value="1" checked' in form
    assert 'name="bank_only" value="1" checked' in form
    assert 'name="no_rent_in_jail" value="1">' in form
    for other in ("/banker/pin", "/banker/tags", "/banker/resume"):
        assert said(beside(html, other)) == ("", "")  # only the form that was sent
    fresh = banker.client.get("/banker").get_data(as_text=True)
    assert said(beside(fresh, "/banker/new-game")) == ("", "")
    assert 'value="Ann, Bo"' in beside(fresh, "/banker/new-game")  # the game in play again


def test_the_engines_refusal_is_said_beside_the_form_in_the_phones_language(
        banker: Phone, game: Any) -> None:
    banker.client.get("/lang/de?next=/banker")
    resp = send(banker, "/banker/new-game", edition="classic-eur", players="Ann, Ann")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    code, message = said(beside(html, "/banker/new-game"))
    assert "Neues Spiel" in html  # the page in German, the refusal too
    scripted = send(banker, "/banker/new-game", script=True, edition="classic-eur",
                    players="Ann, Ann").get_json()
    assert (code, message) == ("bad_players", scripted["message"])
    assert message == "Zu wenige oder zu viele Spieler, oder zwei mit demselben Namen"
    assert scripted["message_en"] != message


def test_the_pages_script_gets_json_to_say_it_beside_the_form(banker: Phone,
                                                              game: Any) -> None:
    refused = send(banker, "/banker/new-game", script=True, **NEW_GAME)
    assert refused.status_code == 400
    assert refused.get_json() == {
        "ok": False, "code": "bad_players",
        "message": f"{localized_name('sv', 'sv', 'en')} is for 2 to 6 players.",
        "message_en": f"{localized_name('sv', 'sv', 'en')} is for 2 to 6 players."}
    done = send(banker, "/banker/new-game", script=True, edition="sv", players="Åsa, Bo")
    assert done.status_code == 200 and done.get_json() == {"ok": True}
    assert [p["name"] for p in game.state()["players"]] == ["Åsa", "Bo"]
    assert send(banker, "/banker/new-game", edition="sv", players="Åsa, Cy").status_code == 302


@pytest.mark.parametrize(("action", "form", "status", "code", "kept"), [
    ("/banker/pin", {"pin": "12"}, 400, "bad_pin", 'value="12"'),
    ("/banker/tags", {"tag": "04AB", "meaning": "nonsense"}, 400, "bad_command",
     'value="nonsense"'),
    ("/banker/tags", {"tag": "04AB", "meaning": ""}, 400, "bad_command", 'value="04AB"'),
    ("/banker/registration", {"do": "start", "kind": "bank_cards"}, 400, "bad_command",
     '<option value="bank_cards" selected>'),
    ("/banker/registration", {"do": "fly"}, 400, "bad_command", ""),
    ("/banker/resume", {"game": "nope"}, 404, "no_such_game", ""),
    ("/banker/resume", {"game": "g-2"}, 422, "cannot_open", '<option value="g-2" selected>'),
])
def test_every_banker_form_says_its_refusal_beside_it(banker: Phone, action: str,
                                                      form: dict[str, str], status: int,
                                                      code: str, kept: str) -> None:
    resp = send(banker, action, **form)
    assert resp.status_code == status
    html = resp.get_data(as_text=True)
    mine = beside(html, action)
    assert said(mine)[0] == code and said(mine)[1]
    assert kept in mine
    assert said(beside(html, "/banker/new-game")) == ("", "")
    scripted = send(banker, action, script=True, **form)
    assert scripted.status_code == status and scripted.get_json()["code"] == code


def test_a_form_the_page_does_not_have_is_refused_on_top(game: Any, tmp_path: Path) -> None:
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})  # no hooks
    try:
        banker = Phone(app)
        banker.join("banker", pin="2468")
        resp = send(banker, "/banker/tags", tag="04AB", meaning="player:Ann")
        assert resp.status_code == 404
        html = resp.get_data(as_text=True)
        assert 'data-code="no_tags"' in html and "<h1>Banker</h1>" in html
        resp = send(banker, "/banker/new-game", edition="sv", players="Åsa, Bo", file="new")
        assert resp.status_code == 404
        assert said(beside(resp.get_data(as_text=True), "/banker/new-game"))[0] == "no_games"
    finally:
        app.extensions["web_remote"].close()


def test_not_the_banker_still_gets_the_error_page(app: Flask) -> None:
    ann = Phone(app)
    ann.join("player:Ann")
    resp = send(ann, "/banker/new-game", edition="sv", players="Åsa, Bo")
    assert resp.status_code == 403 and "banker_only" in resp.get_data(as_text=True)
    assert send(ann, "/banker/pin", script=True, pin="1234").get_json()["code"] == "banker_only"


def test_start_it_in_a_new_saved_file_is_refused_beside_the_form(tmp_path: Path) -> None:
    from companion.game.switch import SessionHolder

    open_real_session(tmp_path / "saved", ("Ann", "Bo")).close()
    holder = SessionHolder.open(tmp_path / "saved")
    app = create_app(holder, tmp_path / "saved", {"banker_pin": "2468"},
                     TableHooks(games=holder, new_game_file=holder.start_new_game_file))
    try:
        banker = Phone(app)
        banker.join("banker", pin="2468")
        games = [g["id"] for g in holder.games()]
        resp = send(banker, "/banker/new-game", edition="classic-eur", players="Cy, Cy",
                    file="new")
        assert resp.status_code == 422
        form = beside(resp.get_data(as_text=True), "/banker/new-game")
        assert said(form)[0] == "bad_players" and 'value="Cy, Cy"' in form
        assert 'name="file" value="new"' in form
        assert [g["id"] for g in holder.games()] == games, "no new file"
        scripted = send(banker, "/banker/new-game", script=True, edition="classic-eur",
                        players="Cy, Cy", file="new")
        assert scripted.status_code == 422 and scripted.get_json()["code"] == "bad_players"
        done = send(banker, "/banker/new-game", script=True, edition="classic-eur",
                    players="Cy, Dee", file="new")
        assert done.get_json() == {"ok": True} and len(holder.games()) == len(games) + 1
    finally:
        app.extensions["web_remote"].close()
        holder.close()
