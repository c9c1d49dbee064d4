""""End now and count", by agreement: the banker's phone and the screen's banker menu end
the game after a confirmation, by the banker's authority only; then every phone shows the
standings and the winner (the README's promise)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import joined

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.game.api import Source  # noqa: E402
from companion.game.session import GameSession  # noqa: E402
from companion.inputs.registrar import Registrar  # noqa: E402
from companion.inputs.registry import TagRegistry  # noqa: E402
from companion.screen import texts  # noqa: E402
from companion.screen.controller import Controller  # noqa: E402
from companion.screen.views.registration import BANKER_MENU, CardRegistration  # noqa: E402


def test_the_banker_phone_ends_now_and_every_phone_sees_the_standings(app: Flask,
                                                                      game: Any) -> None:
    banker, ann = joined(app, "banker"), joined(app, "Ann")
    page = banker.client.get("/banker").get_data(as_text=True)
    assert '"do": "end_game"' in page and "data-confirm" in page
    assert ann.command({"do": "end_game"}).status_code == 403  # a player cannot
    assert game.state()["winner"] is None
    out = banker.command({"do": "end_game", "reason": "time"})  # the clock's reason is not
    assert out.status_code == 200, out.get_json()                 # the phone's to give
    ended = game.history(None, 1)[-1]
    assert ended["command"] == {"do": "end_game"}
    state = game.state()
    assert state["winner"] and state["standings"]
    me = ann.client.get("/me").get_data(as_text=True)
    assert 'class="standings"' in me and f"Game over: {state['winner']} wins" in me
    assert '"do": "end_game"' not in banker.client.get("/banker").get_data(as_text=True)


@pytest.fixture
def screen(tmp_path: Path) -> Iterator[tuple[Controller, GameSession]]:
    language = texts.language()
    with GameSession.open(tmp_path) as session:
        session.submit({"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                        "seed": 1}, Source("script", banker=True))
        controller = Controller(session, data_dir=tmp_path, language="en")
        registrar = Registrar(TagRegistry.in_data_dir(tmp_path), session.state)
        controller.cards = CardRegistration(controller, registrar)
        yield controller, session
        controller.cards.close()
        controller.close()
    texts.use_language(language)


def test_the_screens_banker_menu_ends_now_after_asking(
        screen: tuple[Controller, GameSession]) -> None:
    controller, session = screen
    controller.press("menu")  # the plain MENU does not offer it
    assert controller.ui.chooser is not None
    assert "End now and count" not in [c.label for c in controller.ui.chooser.choices]
    controller.press("no")
    controller.press(BANKER_MENU)
    chooser = controller.ui.chooser
    assert chooser is not None
    labels = [c.label for c in chooser.choices]
    controller.choose(labels.index("End now and count"), "button")
    asked = controller.ui.chooser
    assert asked is not None and asked.title.startswith("End the game now")
    assert session.state()["winner"] is None  # only asked so far
    controller.choose(0, "button")
    assert session.state()["winner"] is not None and session.state()["standings"]
    controller.press(BANKER_MENU)
    assert controller.ui.chooser is not None
    assert "End now and count" not in [c.label for c in controller.ui.chooser.choices]


def chosen_edition(form: str) -> str:
    """The edition the new-game form has selected."""
    select = re.search(r'<select name="edition">(.*?)</select>', form, re.S)
    assert select is not None
    picked = re.findall(r'<option value="([\w-]+)"[^>]*\bselected\b', select.group(1))
    assert len(picked) == 1, picked
    return picked[0]


def test_the_bankers_first_page_is_the_setup_in_the_phones_language(tmp_path: Path) -> None:
    from web_remote import create_app

    with GameSession.open(tmp_path / "empty") as session:  # a first start: no game yet
        app = create_app(session, tmp_path / "empty", {"banker_pin": "2468"})
        try:
            banker = joined(app, "banker")
            first = banker.client.get("/me")
            assert first.status_code == 302 and first.location.endswith("/banker")
            page = banker.client.get("/me?partial=1").get_data(as_text=True)
            assert "You are not a player" not in page and "Banker page" in page
            form = banker.client.get("/banker").get_data(as_text=True)
            assert chosen_edition(form) == "classic-en"  # not the first of the list (ch)
            assert form.index('<details class="advanced"') < form.index('name="seed"')
            banker.client.set_cookie("lang", "sv")
            assert chosen_edition(banker.client.get("/banker").get_data(as_text=True)) == "sv"
        finally:
            app.extensions["web_remote"].close()
