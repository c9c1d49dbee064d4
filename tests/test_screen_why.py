"""The table screen says why the move just made cost what it did, under its line in "Last
moves" (the engine's reason, companion.words.explaining.why_words), and stops saying it once
the next move comes."""

from __future__ import annotations

import pygame
import pytest
from web_fakes import FakeSession

from companion.game.api import Source
from companion.screen.controller import Controller
from companion.screen.render import render

BANKER = Source("phone", banker=True)
pytestmark = pytest.mark.usefixtures("screen_in_english")


def drawn(controller: Controller) -> list[str]:
    """Every text drawn on an 800x480 frame, spaces made plain."""
    frame = render(controller.state, controller.ui, pygame.Surface((800, 480)))
    return [t.text.replace("\u00a0", " ") for t in frame.texts]


def test_the_move_just_made_says_why_its_amount() -> None:
    session = FakeSession()
    controller = Controller(session, language="en")
    controller.dice_digit(3)
    controller.dice_digit(1)  # Ann: income tax
    said = " ".join(drawn(controller))
    assert "Ann → Bank € 200" in said
    assert "Income Tax: € 200, as printed on the square" in said
    assert session.submit({"do": "end_turn", "by": "Ann"}, BANKER).accepted
    controller.drain()
    controller.dice_digit(1)
    controller.dice_digit(2)  # Bo stands on Rue Lecourbe: a purchase is offered, no money yet
    said = " ".join(drawn(controller))
    assert "as printed on the square" not in said  # the reason went with its move
