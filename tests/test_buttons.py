"""What each of the six buttons means, decided once (companion.inputs.buttons): the table
screen's decision panel sends the very commands the table says, and a table without a
screen answers the same presses (issue 25: the panel works the same with or without a
screen)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.bots import Bots
from companion.config import BUTTON_NAMES
from companion.game.api import Source
from companion.game.applying import apply_command, state_json
from companion.game.authority import as_json, waiting_on
from companion.game.session import GameSession
from companion.game.table.buttons import PRESSES, command_for
from companion.inputs.actions import Action, PassOn
from companion.inputs.buttons import BUTTONS, KEYS
from companion.inputs.controller import InputController
from companion.inputs.events import Button, ButtonEvent, EncoderEvent
from companion.inputs.pump import InputPump
from companion.inputs.registry import TagRegistry
from companion.rules import Accepted, apply
from companion.screen.headless import HeadlessTable
from companion.screen.ui_state import UiState
from companion.screen.views.prompt import PANEL_BUTTONS, build_prompt

BANKER = Source("script", banker=True)
GAME_BUTTONS = ("roll", "yes", "no", "pass_go")


def test_one_list_of_the_six_buttons() -> None:
    from companion.screen.app import KEY_BUTTONS
    from hardware.panel import KEYBOARD_MAP

    assert BUTTONS == PANEL_BUTTONS == BUTTON_NAMES == tuple(b.value for b in Button)
    assert set(KEYS.values()) == set(BUTTONS)
    assert KEY_BUTTONS == KEYS == {k: b.value for k, b in KEYBOARD_MAP.items()}
    assert {b for row in PRESSES.values() for b in row} <= set(GAME_BUTTONS)


def bot_states(seed: int, edition: str, limit: int = 400) -> Iterator[dict[str, Any]]:
    """The public states of a bots' game, one per command."""
    result = apply_command(None, {"do": "new_game", "edition": edition,
                                  "players": ["Ann", "Bo", "Cy"], "seed": seed})
    assert isinstance(result, Accepted)
    g, bots = result.state, Bots()
    for _ in range(limit):
        yield state_json(g)
        if g.winner >= 0:
            return
        r = apply(g, bots.choose(g))
        assert isinstance(r, Accepted)
        g = r.state


@pytest.mark.parametrize(("seed", "edition"), [(1, "classic-eur"), (7, "mega"),
                                               (3, "classic-eur")])
def test_the_screens_panel_sends_what_the_table_says_each_button_means(
        seed: int, edition: str) -> None:
    """Over a whole bots' game: wherever the screen's panel sends a game command for ROLL,
    YES, NO or PASS GO, it is `command_for(state, button)`, and wherever the table says a
    button sends one, the panel offers it, unless the decision is another player's (their
    phone or bank card answers it)."""
    seen: set[tuple[str, str]] = set()
    for state in bot_states(seed, edition):
        if state.get("winner"):
            break
        prompt = build_prompt(state, UiState())
        for button in GAME_BUTTONS:
            action = prompt.for_button(button)
            table = command_for(state, button)
            sent = dict(as_json(action.command)) if action and action.command else None
            if sent is not None and sent["do"] not in ("choose_square", "use_bus_ticket"):
                assert sent == table, (button, state["pending"], state["legal"])
                seen.add((str(table and table["do"]), button))
            elif table is not None and action is None:  # only another's, theirs to answer
                assert waiting_on(state) == table.get("by"), (button, table, state["pending"])
    assert ("roll", "roll") in seen and ("buy", "yes") in seen


class Headless:
    """A table without a screen as `companion run --headless` wires it: the panel's
    presses go through the readers' pump to the headless table."""

    def __init__(self, data_dir: Path) -> None:
        self.session = GameSession.open(data_dir)
        assert self.session.submit({"do": "new_game", "edition": "classic-eur",
                                    "players": ["Ann", "Bo", "Cy"], "seed": 3},
                                   BANKER).accepted
        self.said: list[str] = []
        self.table = HeadlessTable(self.session, say=self.said.append)
        self.pump = InputPump(self.session, InputController(TagRegistry()), self.ui)

    def ui(self, action: Action) -> None:
        self.table.reader_action(action)

    def caught_up(self) -> None:
        want = self.session.state()["version"]
        while self.table.state.get("version") != want:
            self.table.apply_update(self.table.updates.get(timeout=10))

    def press(self, button: Button) -> None:
        self.caught_up()
        self.pump.process(ButtonEvent(button))
        self.table.drain()
        self.caught_up()

    def last(self) -> dict[str, Any]:
        return dict(self.session.history(None, 1)[-1]["command"])


@pytest.fixture
def headless(tmp_path: Path) -> Iterator[Headless]:
    h = Headless(tmp_path)
    yield h
    h.table.close()
    h.session.close()


def test_a_headless_tables_panel_plays_the_turn(headless: Headless) -> None:
    headless.press(Button.ROLL)
    assert headless.last()["do"] == "roll"
    state = headless.session.state()
    assert state["pending"]["kind"] == "buy", state["pending"]  # seed 3: a lot
    headless.press(Button.NO)  # declined: the auction
    assert headless.last() == {"do": "decline", "by": "Ann"}
    headless.pump.process(EncoderEvent(2))  # the knob sets Ann's bid two steps up
    headless.table.drain()
    headless.press(Button.YES)
    bid = headless.last()
    assert bid["do"] == "bid" and bid["by"] == "Ann" and bid["amount"] == 30, bid
    version = headless.session.version
    headless.press(Button.NO)  # the highest bidder may not pass: nothing, and it says so
    assert headless.session.version == version and headless.said[-1].startswith("refused")


def test_undo_on_a_headless_table_asks_first(headless: Headless) -> None:
    headless.press(Button.ROLL)
    headless.press(Button.YES)  # bought
    version = headless.session.version
    headless.press(Button.UNDO)
    assert headless.session.version == version and "bought" in headless.said[-1]
    headless.press(Button.NO)  # kept
    assert headless.session.version == version
    headless.press(Button.UNDO)
    headless.press(Button.YES)
    assert headless.session.state()["pending"]["kind"] == "buy"


def test_the_shared_panel_never_answers_another_players_decision(headless: Headless) -> None:
    headless.press(Button.ROLL)
    headless.press(Button.NO)
    assert headless.session.submit({"do": "pass", "by": "Ann"}, BANKER).accepted
    version = headless.session.version
    for button in (Button.YES, Button.NO, Button.ROLL):
        headless.press(button)  # Bo's and Cy's bids are theirs: phone or bank card
    assert headless.session.version == version


def test_presses_are_passed_on_unless_a_gesture_holds_them() -> None:
    controller = InputController(TagRegistry())
    for button in Button:
        assert controller.handle(ButtonEvent(button), {"version": 1}) == [
            PassOn(button.value)]
