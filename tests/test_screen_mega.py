"""The Mega edition at the table screen: the speed die typed or dialled, square choices by
buttons and by touch, the bus ticket ride, the Birthday gift; and the panel's encoder and
hardware warnings, the card shown while news, the chart over undos, the phones placeholder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from web_fakes import FakeSession

from companion.game.api import Source
from companion.screen import texts
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.render import render
from companion.screen.views.endgame.history import networth_series
from companion.screen.views.setup import SetupForm

FIXTURES = Path(__file__).parent / "fixtures" / "screen"
GOLDEN = Path(__file__).parent / "data" / "games" / "mega-4p.jsonl"


@pytest.fixture(autouse=True)
def headless_sdl() -> Iterator[None]:
    """Dummy SDL video for a real (invisible) display, English; both restored after."""
    saved = os.environ.get("SDL_VIDEODRIVER")
    language = texts.language()
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    texts.use_language("en")
    pygame.display.init()
    yield
    pygame.display.quit()
    texts.use_language(language)
    if saved is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = saved


def mega_session(lines: list[str] | None = None) -> FakeSession:
    """A session with a Mega game, and the given table-script lines applied."""
    session = FakeSession(players=())
    lines = lines if lines is not None else [
        json.dumps({"do": "new_game", "edition": "mega", "players": ["Ann", "Bo", "Cy"],
                    "seed": 3, "options": {"physical_dice": True}})]  # typed in
    for line in lines:
        out = session.submit(json.loads(line), Source("script", banker=True))
        assert out.accepted, (line, out)
    return session


def script(name: str, count: int | None = None) -> list[str]:
    path = GOLDEN if name == "golden" else FIXTURES / f"{name}.jsonl"
    return path.read_text(encoding="utf-8").splitlines()[:count]


def start(session: FakeSession) -> tuple[Controller, ScreenLoop]:
    controller = Controller(session, language="en")
    loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
    loop.draw()
    return controller, loop


def key(loop: ScreenLoop, name: str) -> None:
    loop.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(name)))


def last_command(session: FakeSession) -> dict[str, Any]:
    return dict(session.history(limit=1)[-1]["command"])


def drawn(controller: Controller, loop: ScreenLoop) -> list[str]:
    loop.draw()
    while loop.follow_up:  # as the running loop does: the rest of a move's frame at once
        loop.draw()
    assert controller.frame is not None
    return [t.text for t in controller.frame.texts]


def test_typed_dice_and_the_speed_die_keys() -> None:
    session = mega_session()
    controller, loop = start(session)
    key(loop, "3")
    key(loop, "4")
    assert controller.ui.dice_entry == [3, 4] and session.version == 1, "two dice are not a roll"
    assert any("3 4 ?" in t for t in drawn(controller, loop))
    key(loop, "5")  # the speed die has no 5
    assert controller.ui.message is not None and controller.ui.message.kind == "refused"
    key(loop, "b")
    assert last_command(session) == {"do": "roll", "by": "Ann", "dice": [3, 4, "bus"]}
    assert controller.ui.dice_entry == [] and controller.ui.speed_entry is None


def test_m_is_the_menu_until_a_white_die_is_in() -> None:
    session = mega_session()
    controller, loop = start(session)
    key(loop, "m")
    assert controller.ui.overlay == "chooser", "M alone opens the menu"
    key(loop, "escape")
    key(loop, "2")
    key(loop, "m")  # after a white die: Mr. Monopoly
    key(loop, "6")
    assert last_command(session) == {"do": "roll", "by": "Ann", "dice": [2, 6, "mr_monopoly"]}
    assert controller.ui.overlay is None


def test_triple_square_cycled_with_no_and_chosen_by_touch() -> None:
    session = mega_session()
    controller, loop = start(session)
    for digit in "222":
        key(loop, digit)
    assert controller.state is not None and controller.state["pending"]["kind"] == "choose_square"
    assert "Ann: triple! Go to Boulevard de Belleville?" in drawn(controller, loop)
    key(loop, "n")
    key(loop, "n")
    key(loop, "g")
    assert controller.ui.square_focus == 2
    assert controller.frame is not None
    spots = {h.arg: h for h in controller.frame.hotspots if h.action == "square"}
    assert set(spots) == set(range(1, 52)), "every other square is a touch target"
    target = spots[24].rect.center
    controller.tap(target)
    assert controller.ui.square_focus == 24 and session.version == 2, "a first tap focuses"
    loop.draw()
    controller.tap(target)
    assert last_command(session) == {"do": "choose_square", "by": "Ann", "square": 24}
    assert controller.state["pending"]["kind"] == "buy"


def test_bus_ticket_ride_asks_where_and_can_be_called_off() -> None:
    session = mega_session(script("mega_bus"))
    controller, loop = start(session)
    assert controller.state is not None and controller.state["current"] == "Cy"
    key(loop, "y")
    assert controller.ui.bus_ride
    assert "Cy: ride the bus to Income Tax?" in drawn(controller, loop)  # said in English
    key(loop, "r")  # Back: no ride after all
    assert not controller.ui.bus_ride and session.version == 21
    key(loop, "y")
    key(loop, "n")
    key(loop, "y")
    assert last_command(session) == {"do": "use_bus_ticket", "by": "Cy", "square": 6}
    assert not controller.ui.bus_ride


@pytest.mark.parametrize(("button", "gift"), [("yes", "money"), ("no", "bus_ticket")])
def test_birthday_gift_money_or_ticket(button: str, gift: str) -> None:
    session = mega_session(script("golden", 280))
    controller, _loop = start(session)
    assert controller.state is not None
    assert controller.state["pending"]["kind"] == "birthday_gift"
    controller.press(button)
    assert last_command(session) == {"do": "choose_gift", "by": "Bo", "gift": gift}


def test_build_list_names_the_skyscraper() -> None:
    session = mega_session(script("golden", 407))
    controller, _loop = start(session)
    controller.open_squares("build")
    assert controller.ui.chooser is not None
    labels = [c.label for c in controller.ui.chooser.choices]
    assert "Cy: Rue de la Paix · skyscraper" in labels


def test_encoder_dials_the_dice_moves_lists_and_raises_bids() -> None:
    session = mega_session()
    controller, loop = start(session)
    controller.post_encoder(-1)
    assert controller.drain() and controller.ui.dial == 5
    assert "Take 6" in drawn(controller, loop), "the dial runs back from 1 to 6"
    controller.post_encoder(-5)
    controller.drain()
    controller.press("yes")
    assert controller.ui.dice_entry == [1]
    controller.post_encoder(2)
    controller.drain()
    controller.press("yes")
    assert controller.ui.dice_entry == [1, 3]
    assert "Take 1" in drawn(controller, loop), "the next die's dial starts at 1"
    controller.post_encoder(3)
    controller.drain()
    assert "Take bus" in drawn(controller, loop)
    controller.press("yes")
    assert last_command(session) == {"do": "roll", "by": "Ann", "dice": [1, 3, "bus"]}
    controller.press("no")  # decline: the auction
    assert controller.state is not None and controller.state["pending"]["kind"] == "auction"
    controller.post_encoder(2)
    controller.drain()
    controller.press("yes")
    assert last_command(session)["amount"] == 30, "three steps of a twentieth of the salary"
    key(loop, "m")
    controller.post_encoder(2)
    controller.drain()
    assert controller.ui.chooser is not None and controller.ui.chooser.focus == 2


def test_hardware_warning_shows_until_cleared() -> None:
    session = FakeSession()
    controller, loop = start(session)
    controller.post_warning("button_stuck", "roll", "ROLL stuck", True)
    controller.drain()
    assert "ROLL button stuck: check it" in " ".join(drawn(controller, loop))
    controller.post_warning("button_stuck", "roll", "ROLL stuck", False)
    controller.drain()
    assert controller.ui.warnings == {}
    assert "ROLL button stuck" not in " ".join(drawn(controller, loop))


def test_card_text_shown_while_news_only() -> None:
    session = FakeSession()
    controller, loop = start(session)
    controller.submit({"do": "roll", "by": "Ann", "dice": [3, 4]}, "keyboard")
    controller.submit({"do": "draw", "by": "Ann", "card": "chance-dividend"}, "keyboard")
    assert controller.state["card_news"]["id"] == "chance-dividend"  # type: ignore[index]
    assert controller.state["card_news"]["player"] == "Ann"  # type: ignore[index]
    french = controller.state["last_card"]["text"]  # type: ignore[index]
    card = "The bank pays you a dividend of € 50."  # the English screen reads it in English
    assert any(card in t for t in drawn(controller, loop))
    assert not any(french in t for t in drawn(controller, loop))
    controller.press("roll")  # end the turn: the card's effect is over
    assert controller.state["current"] == "Bo"  # type: ignore[index]
    assert controller.state["card_news"] is None  # type: ignore[index]
    assert not any(card in t for t in drawn(controller, loop))


def test_chart_covers_the_whole_game_despite_undos() -> None:
    session = FakeSession()
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"}):
        session.submit(command, Source("script", banker=True))
    session.undo(Source("screen", banker=True))
    session.submit({"do": "decline"}, Source("script", banker=True))
    assert session.submit({"do": "end_game"}, Source("script", banker=True)).accepted
    series = networth_series(session.history(limit=1000))
    assert len(series) == 4, "new game, roll, decline, end: the undone buy left out"
    final = {p["name"]: p["net_worth"] for p in session.state()["players"]}
    assert series[-1] == final
    controller = Controller(session, language="en")  # resumed at the game's end
    assert controller.networth_job is not None, "the curve is read off the loop's thread"
    controller.networth_job.join()
    controller.drain()
    assert controller.ui.networth == series


def test_resume_reads_one_page_of_history_while_the_game_runs() -> None:
    session = FakeSession()
    for _ in range(30):
        session.submit({"do": "roll", "dice": [1, 2]}, Source("script", banker=True))
        session.submit({"do": "decline"}, Source("script", banker=True))
        session.submit({"do": "end_turn"}, Source("script", banker=True))
    asked: list[int] = []
    history = session.history

    def paged(player: str | None = None, limit: int = 200) -> list[Any]:
        asked.append(limit)
        return history(player, limit)

    session.history = paged  # type: ignore[method-assign]
    controller = Controller(session, language="en")
    assert asked and max(asked) <= 20, "the recent moves need one page, not the journal"
    assert controller.ui.log, "the recent moves are back"
    assert controller.networth_job is None, "no curve read while nobody shows it"


def test_screenshot_says_phones_need_companion_run() -> None:
    session = FakeSession()
    controller = Controller(session, language="en")
    frame = render(controller.state, controller.ui, pygame.Surface((800, 480)))
    texts_drawn = " ".join(t.text for t in frame.texts)  # the caption may take two lines
    assert "Phones: start companion run" in texts_drawn
    _controller, loop = start(session)
    loop.draw()
    assert loop.controller.frame is not None
    assert "Phone remote off" in [t.text for t in loop.controller.frame.texts]


def test_setup_speed_die_follows_the_edition() -> None:
    form = SetupForm(editions=[("classic-eur", ""), ("mega", "")])
    assert form.new_game_command(1).options["speed_die"] is False
    form.focus = 1  # the edition's line, after the language's
    form.change(1)
    command = form.new_game_command(1)
    assert command.edition == "mega" and command.options["speed_die"] is True
