"""UNDO on the table screen shows what it undid as the phones do: the move's lines in "Last
moves" struck through (a redo restores them), and the "Undone" banner goes with the next
move.
"""

from __future__ import annotations

import pygame
import pytest
from web_fakes import FakeSession

from companion.game.api import Source
from companion.screen.controller import Controller
from companion.screen.layout import GameLayout
from companion.screen.render import render
from companion.screen.ui_state import LogLine

BANKER = Source("phone", banker=True)


pytestmark = pytest.mark.usefixtures("screen_in_english")


def table() -> tuple[FakeSession, Controller]:
    session = FakeSession()
    return session, Controller(session, language="en")


def undo_on_the_screen(controller: Controller) -> None:
    controller.press("undo")
    controller.press("yes")  # the question named the move; YES undoes it


def lines(controller: Controller) -> dict[str, bool]:
    """The recent moves' lines after the deal (the starting cash) and whether each is
    struck through."""
    return {line.text: line.undone for line in controller.ui.log
            if not line.text.startswith("Bank → ")}


def struck_on_screen(controller: Controller) -> dict[str, bool]:
    """The recent moves as drawn at 800x480: text -> drawn struck through (each of the
    lines a long move wraps into)."""
    frame = render(controller.state, controller.ui, pygame.Surface((800, 480)))
    panel = GameLayout.for_size((800, 480)).log
    out = {}
    for line in controller.ui.log:
        parts = [t for t in frame.texts if len(t.text) > 3 and t.text in line.text
                 and panel.contains(t.box)]
        if parts:
            out[line.text] = all(t.struck for t in parts)
    return out


def buy_rue_lecourbe(controller: Controller) -> None:
    controller.dice_digit(1)
    controller.dice_digit(2)
    controller.press("yes")


def test_undo_strikes_through_the_undone_move_and_only_it() -> None:
    session, controller = table()
    controller.dice_digit(3)
    controller.dice_digit(1)  # income tax
    assert session.submit({"do": "end_turn", "by": "Ann"}, BANKER).accepted
    controller.drain()
    buy_rue_lecourbe(controller)
    tax, paid, bought = "Ann → Bank €\u00a0200", "Bo → Bank €\u00a060", "Bo bought Rue Lecourbe"
    assert lines(controller) == {tax: False, paid: False, bought: False}
    undo_on_the_screen(controller)
    assert lines(controller) == {tax: False, paid: True, bought: True}
    assert len(controller.ui.log) == 6, "struck through, not removed"
    drawn = struck_on_screen(controller)
    assert drawn[bought] is True and drawn[paid] is True and drawn[tax] is False
    undo_on_the_screen(controller)  # the roll that landed Bo there: no line of its own
    assert lines(controller) == {tax: False, paid: True, bought: True}
    undo_on_the_screen(controller)  # Ann's end of turn: not Bo's to take back at the table
    assert lines(controller) == {tax: False, paid: True, bought: True}
    assert session.undo(BANKER).accepted  # the banker may: Ann's end of turn
    assert session.undo(BANKER).accepted  # and Ann's roll: her tax
    controller.drain()
    assert lines(controller) == {tax: True, paid: True, bought: True}


def test_a_redo_restores_the_struck_lines() -> None:
    session, controller = table()
    buy_rue_lecourbe(controller)
    undo_on_the_screen(controller)
    assert all(lines(controller).values())
    assert session.redo(BANKER).accepted
    controller.drain()
    shown = lines(controller)
    assert shown and not any(shown.values())
    assert len(controller.ui.log) == 3 + len(shown) == 5, "restored, not listed twice"


def test_the_undone_banner_goes_when_the_next_move_comes() -> None:
    session, controller = table()
    controller.dice_digit(4)
    controller.dice_digit(6)
    undo_on_the_screen(controller)
    assert controller.ui.message is not None and controller.ui.message.text == "Undone"
    frame = render(controller.state, controller.ui, pygame.Surface((800, 480)))
    assert "Undone" in [t.text for t in frame.texts]
    controller.dice_digit(2)
    controller.dice_digit(3)  # the next move
    assert controller.ui.message is None
    frame = render(controller.state, controller.ui, pygame.Surface((800, 480)))
    assert "Undone" not in [t.text for t in frame.texts]


def test_a_resumed_screen_shows_undone_moves_struck_through() -> None:
    session, controller = table()
    buy_rue_lecourbe(controller)
    undo_on_the_screen(controller)
    controller.close()
    resumed = Controller(session, language="en")
    assert lines(resumed) == lines(controller)
    assert any(lines(resumed).values())
    assert session.redo(BANKER).accepted  # a redo after the restart restores them too
    resumed.drain()
    assert not any(lines(resumed).values())


def test_a_struck_line_is_drawn_struck_and_dim() -> None:
    session, controller = table()
    controller.ui.log.append(LogLine("Ann → Bank €\u00a0200", (250, 0, 0), 1, undone=True))
    controller.ui.log.append(LogLine("Bo bought Rue Lecourbe", (0, 0, 250), 2))
    drawn = struck_on_screen(controller)
    assert drawn["Ann → Bank €\u00a0200"] is True and drawn["Bo bought Rue Lecourbe"] is False
