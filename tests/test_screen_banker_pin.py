"""The banker PIN on the table screen: typed on the keyboard (never into the setup form
under it), touched on its buttons, and its overlay readable in every language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from web_fakes import FakeSession

from companion.game.pins import PinGuard, PinStore
from companion.inputs.entry import PinEntry
from companion.screen import texts
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.render import render
from companion.screen.ui_state import UiState
from companion.screen.views.board_info import edition_names
from companion.screen.views.setup import SetupForm

pytestmark = pytest.mark.usefixtures("screen_in_english")


@pytest.fixture
def loop(tmp_path: Path) -> Iterator[ScreenLoop]:
    pygame.display.init()
    controller = Controller(FakeSession(players=()), data_dir=tmp_path, language="en")
    controller.pins = PinGuard(PinStore(tmp_path / "banker.json"))
    controller.pins.store.set("2468")
    screen = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
    yield screen
    pygame.display.quit()


def key(loop: ScreenLoop, name: str) -> None:
    loop.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(name)))


def test_the_setup_forms_start_asks_the_pin_typed_on_the_keys(loop: ScreenLoop) -> None:
    c = loop.controller
    form = c.ui.setup
    assert form is not None
    form.focus = [line for line, _v in form.lines()].index("player:0")
    name = form.players[0].name
    c.start_game()
    assert c.ui.pin is not None and c.state is not None and not c.state.get("players")
    for digit in "2469":
        key(loop, digit)
        loop.handle(pygame.event.Event(pygame.TEXTINPUT, text=digit))  # not into the name
    key(loop, "backspace")
    key(loop, "8")
    assert form.players[0].name == name and c.ui.pin.digits == "2468"
    key(loop, "return")
    assert c.ui.pin is None and c.ui.setup is None
    session = c.session
    assert isinstance(session, FakeSession)
    assert session.history(limit=1)[-1]["source"]["banker"] is True


def test_the_pins_buttons_are_touch_targets(loop: ScreenLoop) -> None:
    c = loop.controller
    c.as_banker("banker_menu")
    loop.draw()
    frame = c.frame
    assert frame is not None
    spots = {s.arg: s for s in frame.hotspots if s.action == "button"}
    assert {"roll", "yes", "no", "pass_go", "menu"} <= set(spots)
    for _ in range(2):
        c.tap(spots["pass_go"].rect.center)  # next digit: 2
    for _ in range(4):
        c.tap(spots["yes"].rect.center)
    assert c.ui.pin is not None and c.ui.pin.digits == "2222"
    c.tap(spots["menu"].rect.center)
    assert c.ui.pin is None


@pytest.mark.parametrize("lang", ["en", "sv", "fr", "de", "nl", "pl", "ru"])
def test_the_pin_overlay_fits_in_every_language(lang: str) -> None:
    texts.use_language(lang)
    ui = UiState(pin=PinEntry("deal", digits="12"), setup=SetupForm(editions=edition_names()))
    frame = render(None, ui, pygame.Surface((800, 480)))
    assert texts.text("pin_title") in [t.text for t in frame.texts]
    assert all(t.fits for t in frame.texts), [t.text for t in frame.texts if not t.fits]
