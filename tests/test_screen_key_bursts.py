"""Keys typed in a burst reach the screen in one batch of SDL events: every key is taken, in
order (dice, names, the PIN), and NO takes back a wrong die typed. The same through the real
window under Xvfb: tests/test_screen_journey.py."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from web_fakes import FakeSession

from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller


@pytest.fixture(autouse=True)
def headless_sdl() -> Iterator[None]:
    """Dummy SDL video for a real (invisible) display; environment restored after."""
    saved = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    yield
    pygame.display.quit()
    if saved is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = saved


def make_loop(session: Any) -> tuple[Controller, ScreenLoop]:
    controller = Controller(session, language="en")
    loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
    loop.draw()
    return controller, loop


def key_events(keys: str) -> list[pygame.event.Event]:
    """What SDL hands over for `keys` typed fast (space-separated key names): a key down,
    its text when it types one, a key up."""
    out = []
    for name in keys.split():
        code = pygame.key.key_code(name)
        out.append(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=""))
        if len(name) == 1:
            out.append(pygame.event.Event(pygame.TEXTINPUT, text=name))
        out.append(pygame.event.Event(pygame.KEYUP, key=code, mod=0))
    return out


def commands(session: FakeSession) -> list[dict[str, object]]:
    return [dict(e["command"]) for e in session.history(limit=50)
            if e["command"].get("do") != "new_game"]


def burst(loop: ScreenLoop, keys: str) -> bool:
    """One batch, as the loop takes it after one wait."""
    return loop.handle_all(key_events(keys))


def test_two_dice_typed_in_one_batch_are_one_roll() -> None:
    session = FakeSession()
    controller, loop = make_loop(session)
    assert burst(loop, "2 3 y r")
    assert commands(session) == [{"do": "roll", "by": "Ann", "dice": [2, 3]},
                                 {"do": "buy", "by": "Ann"}, {"do": "end_turn", "by": "Ann"}]
    assert controller.state is not None and controller.state["current"] == "Bo"


def test_three_dice_with_the_speed_die_in_one_batch() -> None:
    session = FakeSession(options={"speed_die": True})
    controller, loop = make_loop(session)
    burst(loop, "5 6 3")
    assert commands(session)[-1] == {"do": "roll", "by": "Ann", "dice": [5, 6, 3]}
    assert controller.ui.dice_entry == [] and controller.ui.speed_entry is None


def test_no_takes_back_the_wrong_die_typed() -> None:
    session = FakeSession()
    controller, loop = make_loop(session)
    burst(loop, "5")
    prompt = controller.current_prompt()
    no = next(a for a in prompt.actions if a.button == "no")
    assert no.label == "Clear the 5" and no.ui == "dice_back"
    burst(loop, "n 1")
    assert controller.ui.dice_entry == [1], "the 5 went, the 1 is the first die"
    assert commands(session) == [], "nothing was sent while a die is missing"
    burst(loop, "n n n 2 3")  # NO with nothing typed is the turn's own NO: nothing to refuse
    assert commands(session) == [{"do": "roll", "by": "Ann", "dice": [2, 3]}]


def test_no_takes_back_the_speed_die_first() -> None:
    session = FakeSession(options={"speed_die": True})
    controller, loop = make_loop(session)
    burst(loop, "4 4")
    assert controller.ui.dice_entry == [4, 4]
    burst(loop, "n")
    assert controller.ui.dice_entry == [4]
    burst(loop, "6 b")
    assert commands(session)[-1] == {"do": "roll", "by": "Ann", "dice": [4, 6, "bus"]}


def test_names_and_the_pin_typed_at_once_on_the_setup_form() -> None:
    controller, loop = make_loop(None)
    form = controller.ui.setup
    assert form is not None
    first = [line for line, _v in form.lines()].index("player:0")
    pin = [line for line, _v in form.lines()].index("pin")
    keys = " ".join(["down"] * first) + " W i l h e l m i n a tab B o backspace e a " + \
        " ".join(["down"] * (pin - first - 1)) + " 2 4 6 8 1 3"
    burst(loop, keys)
    assert [p.name for p in form.players[:2]] == ["Wilhelmina", "Bea"]
    assert form.pin == "246813"
