"""Keys typed in a burst reach the screen in one batch of SDL events: every key is taken, in
order (dice, names, the PIN), and NO takes back a wrong die typed. The same through the real
window under Xvfb: tests/test_screen_journey.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from web_fakes import FakeSession

from companion.game.pins import PinGuard, PinStore
from companion.screen.app import MENU_HOLD_S, ScreenLoop
from companion.screen.controller import Controller
from companion.screen.views.overlays import HELP_LINES

pytestmark = pytest.mark.usefixtures("dummy_display")


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


# --- the banker menu from the keyboard (M held, Shift+M) ------------------------------------


class Clock:
    """The controller's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def banker_loop(tmp_path: Path, pin: str | None) -> tuple[Controller, ScreenLoop, Clock]:
    clock = Clock()
    session: Any = FakeSession()
    controller = Controller(session, data_dir=tmp_path, language="en", clock=clock)
    controller.pins = PinGuard(PinStore(tmp_path / "banker.json"))
    if pin:
        controller.pins.store.set(pin)
    loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
    loop.draw()
    return controller, loop, clock


def chooser_actions(controller: Controller) -> list[str | None]:
    assert controller.ui.overlay == "chooser" and controller.ui.chooser is not None
    return [c.action for c in controller.ui.chooser.choices]


def test_shift_m_asks_the_banker_pin_then_opens_the_banker_menu(tmp_path: Path) -> None:
    controller, loop, _clock = banker_loop(tmp_path, "2468")
    shift_m = pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code("m"),
                                 mod=pygame.KMOD_LSHIFT, unicode="M")
    assert loop.handle_all([shift_m, pygame.event.Event(pygame.TEXTINPUT, text="M")])
    assert controller.ui.pin is not None and controller.ui.pin.then == "banker_menu"
    burst(loop, "2 4 6 8 return")
    assert controller.ui.pin is None
    assert "end_now" in chooser_actions(controller)
    assert controller.ui.chooser is not None and controller.ui.chooser.title == "Banker menu"


def test_m_held_becomes_the_banker_menu_and_a_short_m_stays_the_menu(tmp_path: Path) -> None:
    controller, loop, clock = banker_loop(tmp_path, None)  # no PIN on this table: at once
    m = pygame.key.key_code("m")
    loop.handle_all([pygame.event.Event(pygame.KEYDOWN, key=m, mod=0, unicode="m")])
    assert "end_now" not in chooser_actions(controller), "M opens the menu at once"
    assert loop.timeout_ms() <= 1000 * MENU_HOLD_S + 1, "the loop wakes for the hold"
    clock.now += MENU_HOLD_S / 2
    assert not loop.menu_held()
    clock.now += MENU_HOLD_S / 2
    assert loop.menu_held(), "held long enough"
    assert "end_now" in chooser_actions(controller)
    loop.handle_all([pygame.event.Event(pygame.KEYUP, key=m, mod=0)])
    assert "end_now" in chooser_actions(controller), "letting go keeps the banker menu"

    burst(loop, "escape")
    loop.handle_all([pygame.event.Event(pygame.KEYDOWN, key=m, mod=0, unicode="m"),
                     pygame.event.Event(pygame.KEYUP, key=m, mod=0)])
    clock.now += 5 * MENU_HOLD_S
    assert not loop.menu_held(), "a short press is the menu only"
    assert "end_now" not in chooser_actions(controller)


def test_the_banker_menus_end_now_from_the_keys_ends_the_game(tmp_path: Path) -> None:
    controller, loop, _clock = banker_loop(tmp_path, "2468")
    shift_m = pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code("m"),
                                 mod=pygame.KMOD_LSHIFT, unicode="M")
    loop.handle_all([shift_m])
    burst(loop, "2 4 6 8 return")
    down = chooser_actions(controller).index("end_now")
    burst(loop, " ".join(["down"] * down) + " return return")
    assert controller.state is not None and controller.state.get("winner")


def test_the_help_says_how_to_reach_the_banker_menu() -> None:
    from companion.screen import texts

    texts.use_language("en")
    assert "help_banker" in HELP_LINES
    assert "Shift+M" in texts.text("help_banker")
    for lang in ("sv", "fr", "de", "nl", "pl", "ru"):
        texts.use_language(lang)
        said = texts.text("help_banker")
        assert "M" in said and said != "M held or Shift+M  banker menu: end now, cards"
    texts.use_language("en")
