"""The phone remote says refusals in each phone's language: the game's (code and params
through companion.words.refusals, the edition's square names and money) and its own; the English
stays in `message_en` for logs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import Phone, open_real_session

from companion.game.api import Source
from companion.words import catalog as i18n
from web_remote import create_app

BANKER = Source(kind="script", banker=True)


def start(tmp_path: Path, edition: str, left: int | None = None) -> Any:
    """A real session of `edition`; with `left`, Ann keeps only that and stands on square 9."""
    session = open_real_session(tmp_path / "game", ("Ann", "Bo"), seed=1, edition=edition)
    if left is not None:
        cash = session.state()["players"][0]["cash"]
        assert session.submit({"do": "pay", "from": "Ann", "to": "bank",
                               "amount": cash - left}, BANKER).accepted
        assert session.submit({"do": "roll", "by": "Ann", "dice": [4, 5]}, BANKER).accepted
    return session


@pytest.fixture
def remote(tmp_path: Path) -> Any:
    """Make a phone remote for a session; closed after the test."""
    made: list[tuple[Any, Flask]] = []

    def make(session: Any) -> Flask:
        app = create_app(session, tmp_path, {"banker_pin": "2468"})
        made.append((session, app))
        return app

    yield make
    for session, app in made:
        app.extensions["web_remote"].close()
        session.close()


def phone(app: Flask, who: str, lang: str) -> Phone:
    """A phone that joined as `who` and chose `lang`."""
    p = Phone(app)
    assert p.join(who).status_code == 302
    p.client.get(f"/lang/{lang}")
    return p


@pytest.mark.parametrize(("edition", "left", "lang", "expected"), [
    ("sv", 2000, "sv", "Ann har inte råd med Ringvägen: Kr 2 400 behövs, Kr 2 000 i handen"),
    ("ru-monopolist", 100, "ru",
     "Ann не может купить поле Речная улица: нужно М120, на руках М100"),
    ("sv", 2000, "fr",  # a French phone at a Swedish table: French words, kronor
     "Ann n’a pas les moyens d’acheter Ringvägen\u00a0: il faut Kr 2 400, Kr 2 000 en main"),
])
def test_a_refused_command_is_said_in_the_phones_language(
        tmp_path: Path, remote: Any, edition: str, left: int, lang: str, expected: str) -> None:
    app = remote(start(tmp_path, edition, left))
    ann = phone(app, "player:Ann", lang)
    resp = ann.command({"do": "buy"})
    assert resp.status_code == 422
    body = resp.get_json()
    assert body["code"] == "insufficient_funds"
    assert body["message"].replace(i18n.NBSP, " ") == expected.replace(i18n.NBSP, " ")
    assert body["message_en"].startswith("Ann cannot afford")  # the engine's English, for logs
    assert body["params"]["purpose"] == "buy" and body["params"]["square"] == 9


def test_each_phone_reads_the_same_refusal_in_its_own_language(tmp_path: Path,
                                                               remote: Any) -> None:
    app = remote(start(tmp_path, "sv", 2000))
    bo = phone(app, "player:Bo", "sv")
    assert bo.command({"do": "end_turn"}).get_json()["message"] == "Det är Ann som har turen"
    bo.client.get("/lang/ru")  # the same phone, now in Russian
    said = bo.command({"do": "end_turn"}).get_json()
    assert said["message"] == "Сейчас ходит Ann"
    assert said["code"] == "not_your_turn" and said["message_en"] == "Ann must do this, not Bo"


def test_the_remotes_own_refusals_keep_their_english(tmp_path: Path, remote: Any) -> None:
    app = remote(start(tmp_path, "sv"))
    ann = phone(app, "player:Ann", "sv")
    body = ann.post("/api/commands", {"command": {"do": "roll"}}).get_json()
    assert body["code"] == "bad_version"
    assert body["message"] and body["message"] != body["message_en"]  # Swedish
    assert body["message_en"] == "Say which version of the table you saw."
    stale = ann.command({"do": "roll", "dice": [1, 2]}, version=0).get_json()
    assert stale["code"] == "stale_version" and stale["refresh"] is True
    assert stale["message"] == "Bordet har ändrats: titta igen"


def test_a_failed_trade_accept_is_said_to_each_phone_in_its_language(tmp_path: Path,
                                                                     remote: Any) -> None:
    session = start(tmp_path, "sv")
    app = remote(session)
    ann, bo = phone(app, "player:Ann", "ru"), phone(app, "player:Bo", "sv")
    proposal = ann.post("/api/trades", {"version": session.state()["version"], "to": "Bo",
                                        "give": {"cash": 10}}).get_json()["proposal"]
    assert session.submit({"do": "roll", "by": "Ann", "dice": [4, 5]}, BANKER).accepted
    assert session.submit({"do": "decline", "by": "Ann"}, BANKER).accepted  # an auction
    resp = bo.post(f"/api/trades/{proposal['id']}/accept",
                   {"version": session.state()["version"]})
    assert resp.status_code == 422
    assert resp.get_json()["message"] == "Avsluta auktionen först"
    assert bo.client.get("/api/trades").get_json()[0]["error"] == "Avsluta auktionen först"
    assert ann.client.get("/api/trades").get_json()[0]["error"] == "Сначала завершите аукцион"
    page = ann.client.get("/me?partial=1").get_data(as_text=True)
    assert "Сначала завершите аукцион" in page
