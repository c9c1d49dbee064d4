"""Short names on the board's squares from 1280x720 up, none on the 7-inch 800x480 screen: each
a distinctive word of the square's name in the screen's language, at most five characters."""

from __future__ import annotations

import pygame
import pytest
from fixtures.screen.scenarios import LANGUAGES, scenario

from companion.screen import texts
from companion.screen.layout import GameLayout
from companion.screen.render import render
from companion.screen.views.short_names import short_label

pytestmark = pytest.mark.usefixtures("screen_in_english")


@pytest.mark.parametrize(("name", "label"), [
    ("Whitechapel Road", "Whit."), ("Rue de la Paix", "Paix"), ("Dorpsstraat, Ons Dorp", "Dorp."),
    ("ul. Konopacka", "Kono."), ("S:t Eriksgatan", "Erik."), ("Go", "Go"), ("Bow Street", "Bow"),
    ("Улица Арбат", "Арбат"), ("", ""),
])
def test_a_short_label_is_a_distinctive_word(name: str, label: str) -> None:
    assert short_label(name) == label


def _board_labels(language: str, size: tuple[int, int]) -> tuple[list[str], list[str]]:
    """(the squares' short labels, the texts drawn on the board's ring) at `size`."""
    texts.use_language(language)
    state, ui = scenario("turn", language)
    frame = render(state, ui, pygame.Surface(size))
    board = GameLayout.for_size(size).board
    labels = [short_label(sq.name) for sq in ui.board.squares]
    return labels, [t.text for t in frame.texts if board.contains(t.box)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_squares_carry_short_labels_from_1280x720(language: str) -> None:
    for size in ((1280, 720), (1920, 1080)):
        labels, drawn = _board_labels(language, size)
        assert len(labels) == 40 and all(0 < len(label) <= 5 for label in labels), labels
        assert all(label in drawn for label in labels), (size, set(labels) - set(drawn))


@pytest.mark.parametrize("language", ["en", "nl", "ru"])
def test_no_labels_clutter_the_7_inch_screen(language: str) -> None:
    labels, drawn = _board_labels(language, (800, 480))
    assert not set(labels) & set(drawn) - {"Go"}, set(labels) & set(drawn)
