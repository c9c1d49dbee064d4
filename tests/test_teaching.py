"""The teaching table (issue: beyond every banking unit, point 2): the first time a rule
applies in a game, a lesson on the screen and on the concerned phone, once per game; on by
default for a first game; the banker can switch it off."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from web_fakes import TABLE, Phone, open_real_session

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
        assert not refused.accepted and refused.code == "not_banker"
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
