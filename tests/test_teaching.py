"""The teaching table (issue: beyond every banking unit, point 2): the first time a rule
applies in a game, a lesson on the screen and on the concerned phone, once per game; on by
default for a first game; the banker can switch it off."""

from __future__ import annotations

from html import unescape
from pathlib import Path
from typing import Any

import pygame
import pytest
from web_fakes import TABLE, Phone, joined, open_real_session

from companion.game.api import Source
from companion.game.session import GameSession
from companion.screen.controller import Controller
from companion.screen.render import render

BANKER = Source("phone", banker=True)
ANN = Source("phone", player="Ann")


def lessons(session: Any) -> list[dict[str, Any]]:
    """The lessons of the session's current move."""
    teaching = session.state()["teaching"]
    assert isinstance(teaching["on"], bool)
    return list(teaching["lessons"])


def play(session: Any, *commands: dict[str, Any]) -> None:
    for command in commands:
        out = session.submit(command, TABLE)
        assert out.accepted, (command, out)


def test_a_first_game_teaches_each_rule_once(tmp_path: Path) -> None:
    session = open_real_session(tmp_path, ("Ann", "Bo"))
    try:
        assert session.state()["teaching"] == {"on": True, "lessons": []}
        play(session, {"do": "roll", "dice": [1, 1]})  # a double, to Community Chest
        assert {"topic": "doubles", "player": "Ann"} in lessons(session)
        play(session, {"do": "draw"})
        assert {"topic": "doubles", "player": "Ann"} not in lessons(session)  # that move only
        play(session, {"do": "roll", "dice": [2, 2]})  # a second double: not taught again
        assert all(x["topic"] != "doubles" for x in lessons(session))  # once per game
    finally:
        session.close()


def test_lessons_given_stay_given_after_a_restart(tmp_path: Path) -> None:
    session = open_real_session(tmp_path, ("Ann", "Bo"))
    play(session, {"do": "roll", "dice": [1, 3]})  # income tax
    assert {"topic": "tax", "player": "Ann"} in lessons(session)
    play(session, {"do": "end_turn"})
    session.close()
    again = GameSession.open(tmp_path)
    try:
        play(again, {"do": "roll", "dice": [1, 3]})  # Bo on the same tax
        assert all(x["topic"] != "tax" for x in lessons(again))
        assert again.state()["teaching"]["on"]
    finally:
        again.close()


def test_only_the_banker_switches_teaching_off(tmp_path: Path) -> None:
    session = open_real_session(tmp_path, ("Ann", "Bo"))
    try:
        refused = session.set_teaching(False, ANN)
        assert not refused.accepted and refused.code == "not_allowed"
        assert session.state()["teaching"]["on"]
        assert session.set_teaching(False, BANKER).accepted
        play(session, {"do": "roll", "dice": [1, 1]})
        assert session.state()["teaching"] == {"on": False, "lessons": []}
    finally:
        session.close()


def test_a_new_game_chooses_teaching_and_starts_the_lessons_afresh(tmp_path: Path) -> None:
    session = open_real_session(tmp_path, ("Ann", "Bo"))
    try:
        play(session, {"do": "roll", "dice": [1, 1]})
        bad = session.submit({"do": "new_game", "edition": "classic-eur",
                              "players": ["Ann", "Bo"], "teaching": "yes"}, TABLE)
        assert not bad.accepted and bad.code == "bad_command"
        play(session, {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                       "seed": 2, "teaching": False})
        play(session, {"do": "roll", "dice": [1, 1]})
        assert session.state()["teaching"] == {"on": False, "lessons": []}
        play(session, {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                       "seed": 2, "teaching": True})
        play(session, {"do": "roll", "dice": [1, 1]})
        assert {"topic": "doubles", "player": "Ann"} in lessons(session)  # a new game
    finally:
        session.close()


def test_teaching_is_off_by_default_once_the_table_has_played_before(tmp_path: Path) -> None:
    open_real_session(tmp_path, ("Ann", "Bo")).close()
    second = GameSession.open(tmp_path, "second-game")
    try:
        play(second, {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"]})
        assert second.state()["teaching"]["on"] is False
    finally:
        second.close()


@pytest.mark.usefixtures("screen_in_english")
def test_the_screen_shows_the_lesson_with_where_the_rule_stands(tmp_path: Path) -> None:
    session = open_real_session(tmp_path, ("Ann", "Bo"))
    try:
        play(session, {"do": "roll", "dice": [1, 3]})  # income tax
        controller = Controller(session, language="en")
        frame = render(session.state(), controller.ui, pygame.Surface((800, 480)))
        said = " ".join(t.text for t in frame.texts)
        assert "New rule" in said
        assert "A tax square: pay the bank what it says." in said
        assert "Rules: Taxes" in said
        play(session, {"do": "end_turn"})
        frame = render(session.state(), controller.ui, pygame.Surface((800, 480)))
        assert "New rule" not in " ".join(t.text for t in frame.texts)
    finally:
        session.close()


# --- the phones ----------------------------------------------------------------------------

@pytest.fixture
def game(tmp_path: Path) -> Any:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo"))
    yield session
    session.close()


def page(phone: Phone, path: str) -> str:
    html = phone.client.get(path).get_data(as_text=True)
    return unescape(html).replace("\u00a0", " ")


def test_the_concerned_phone_shows_the_lesson_with_its_rule(app: Any, game: Any) -> None:
    ann, bo = joined(app, "Ann"), joined(app, "Bo")
    play(game, {"do": "roll", "dice": [1, 3]})  # Ann on the income tax
    mine = page(ann, "/me?partial=1")
    assert '<aside class="lesson"><strong>New rule</strong> A tax square: pay the bank ' \
           'what it says. Nobody can buy it. <a href="/rules#taxes">Rules: Taxes</a>' in mine
    assert 'class="lesson"' not in page(bo, "/me?partial=1")  # Ann's lesson, not Bo's
    assert "A tax square" in page(bo, "/table?partial=1")  # the table's page shows all
    bo.client.set_cookie("lang", "sv")
    assert "En skatteruta: betala banken det som står." in page(bo, "/table?partial=1")
    play(game, {"do": "end_turn"})
    assert 'class="lesson"' not in page(ann, "/me?partial=1")  # gone with its move


def test_only_the_bankers_phone_switches_teaching(app: Any, game: Any) -> None:
    ann, banker = joined(app, "Ann"), joined(app, "banker")
    refused = ann.client.post("/banker/teaching", data={"on": "0", "csrf_token": ann.csrf},
                              headers={"Origin": "http://localhost"})
    assert refused.status_code == 403
    assert game.state()["teaching"]["on"]
    assert "Switch teaching off" in page(banker, "/banker?partial=1")
    done = banker.client.post("/banker/teaching", data={"on": "0", "csrf_token": banker.csrf},
                              headers={"Origin": "http://localhost"})
    assert done.status_code == 302
    assert game.state()["teaching"]["on"] is False
    assert "Switch teaching on" in page(banker, "/banker?partial=1")
    play(game, {"do": "roll", "dice": [1, 3]})
    assert 'class="lesson"' not in page(ann, "/me?partial=1")


def test_the_new_game_form_chooses_teaching(app: Any, game: Any) -> None:
    banker = joined(app, "banker")
    form = page(banker, "/banker?partial=1")
    assert '<input type="checkbox" name="teaching" value="1" checked>' in form  # as it is now
    sent = banker.client.post("/banker/new-game", data={
        "edition": "classic-eur", "players": "Ann, Bo", "seed": "1",
        "csrf_token": banker.csrf}, headers={"Origin": "http://localhost"})
    assert sent.status_code == 302, sent.get_data(as_text=True)
    assert game.state()["teaching"]["on"] is False  # left unticked
    assert '<input type="checkbox" name="teaching" value="1">' in page(banker, "/banker?partial=1")


def test_a_restart_shows_the_lesson_of_the_move_it_stopped_at(tmp_path: Path) -> None:
    session = open_real_session(tmp_path, ("Ann", "Bo"))
    play(session, {"do": "roll", "dice": [1, 3]})  # income tax: a lesson
    before = session.state()
    session.close()
    again = GameSession.open(tmp_path)
    try:
        assert again.state()["teaching"] == before["teaching"]
        assert {"topic": "tax", "player": "Ann"} in lessons(again)
    finally:
        again.close()


def test_a_damaged_teaching_file_is_a_fresh_start(tmp_path: Path) -> None:
    session = open_real_session(tmp_path, ("Ann", "Bo"))
    session.close()
    (saved,) = (tmp_path / "games").glob("*.teaching.json")
    saved.write_text("{not json", encoding="utf-8")
    again = GameSession.open(tmp_path)
    try:
        play(again, {"do": "roll", "dice": [1, 3]})
        assert {"topic": "tax", "player": "Ann"} in lessons(again)
    finally:
        again.close()
