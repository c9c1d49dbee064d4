"""The table screen says a refused command in its own language: the refusal's code and
params through companion.words.refusals, square names and money as the edition writes them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fakes import open_real_session

from companion.game.api import Outcome, Source
from companion.screen import texts
from companion.screen.controller import Controller
from companion.words import catalog as i18n

BANKER = Source(kind="script", banker=True)


@pytest.fixture(autouse=True)
def screen_env() -> Iterator[None]:
    """Dummy SDL; the screen's language restored after the test."""
    saved = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    language = texts.language()
    yield
    texts.use_language(language)
    if saved is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = saved


def poor_buyer(data_dir: Path, edition: str, left: int) -> Any:
    """A real session where Ann, with `left` in hand, stands on square 9 (unowned)."""
    session = open_real_session(data_dir, ("Ann", "Bo"), seed=1, edition=edition)
    cash = session.state()["players"][0]["cash"]
    assert session.submit({"do": "pay", "from": "Ann", "to": "bank", "amount": cash - left},
                          BANKER).accepted
    assert session.submit({"do": "roll", "by": "Ann", "dice": [4, 5]}, BANKER).accepted
    return session


def banner(controller: Controller) -> str:
    message = controller.ui.message
    assert message is not None and message.kind == "refused"
    return message.text.replace(i18n.NBSP, " ")


@pytest.mark.parametrize(("edition", "left", "expected"), [
    ("sv", 2000, "Nekat: Ann har inte råd med Ringvägen: Kr 2 400 behövs, Kr 2 000 i handen"),
    ("ru-monopolist", 100,
     "Отказ: Ann не может купить поле Речная улица: нужно М120, на руках М100"),
])
def test_a_refused_buy_is_said_in_the_editions_language(tmp_path: Path, edition: str,
                                                        left: int, expected: str) -> None:
    session = poor_buyer(tmp_path / "game", edition, left)
    try:
        controller = Controller(session, data_dir=tmp_path)
        outcome = controller.submit({"do": "buy", "by": "Ann"}, "keyboard")
        assert outcome is not None and outcome.code == "insufficient_funds"
        assert outcome.message is not None and "cannot afford" in outcome.message  # English
        assert banner(controller) == expected
    finally:
        session.close()


def test_the_chosen_screen_language_wins_and_money_stays_the_editions(tmp_path: Path) -> None:
    session = poor_buyer(tmp_path / "game", "sv", 2000)
    try:
        controller = Controller(session, data_dir=tmp_path, language="de")
        controller.submit({"do": "end_turn", "by": "Ann"}, "keyboard")
        assert banner(controller) == \
            "Abgelehnt: Zuerst entscheiden, ob die Straße gekauft wird"
        controller.submit({"do": "buy", "by": "Bo"}, "keyboard")
        assert banner(controller) == "Abgelehnt: Ann ist an der Reihe"
        controller.submit({"do": "buy", "by": "Ann"}, "keyboard")
        assert banner(controller) == "Abgelehnt: Ann kann sich Ringvägen nicht leisten: " \
            "Kr 2 400 nötig, Kr 2 000 in der Hand"
    finally:
        session.close()


def test_a_refused_tap_from_the_readers_is_said_too(tmp_path: Path) -> None:
    session = poor_buyer(tmp_path / "game", "sv", 2000)
    try:
        controller = Controller(session, data_dir=tmp_path)
        controller.post_refusal(Outcome(False, 3, code="must_roll", message="Bo must roll first",
                                        params={"player": "Bo", "again": False}))
        controller.post_refusal(Outcome(False, 3, code="not_now", message="English words"))
        assert controller.drain()
        assert banner(controller) == "Nekat: Det går inte just nu"
        controller.refuse(Outcome(False, 3, code="insufficient_funds", message="Bo has only Kr 5"))
        assert banner(controller) == "Nekat: Bo has only Kr 5", "no facts: the English message"
    finally:
        session.close()
