"""Short names on the board's squares from 1280x720 up, none on the 7-inch 800x480 screen: each
a distinctive word of the square's name in the screen's language, at most five characters,
legible from a metre (12 px at 1280x720, 16 px at 1920x1080), cut shorter rather than shrunk."""

from __future__ import annotations

import pygame
import pytest
from fixtures.screen.scenarios import LANGUAGES, scenario

from companion.screen import texts
from companion.screen.layout import GameLayout
from companion.screen.render import render
from companion.screen.views.board_map import square_rect
from companion.screen.views.short_names import short_label

pytestmark = pytest.mark.usefixtures("screen_in_english")


@pytest.mark.parametrize(("name", "label"), [
    ("Whitechapel Road", "Whit."), ("Rue de la Paix", "Paix"), ("Dorpsstraat, Ons Dorp", "Dorp."),
    ("ul. Konopacka", "Kono."), ("S:t Eriksgatan", "Erik."), ("Go", "Go"), ("Bow Street", "Bow"),
    ("Улица Арбат", "Арбат"), ("", ""), ("START", "Start"), ("ГУМ", "ГУМ"),
    ("Aleje Ujazdowskie", "Ujaz."),
])
def test_a_short_label_is_a_distinctive_word(name: str, label: str) -> None:
    assert short_label(name) == label


def _board_labels(language: str, size: tuple[int, int], base: str = "turn") -> tuple[
        list[str], list[str]]:
    """(the squares' short labels, the texts drawn on the board's ring) at `size`."""
    texts.use_language(language)
    state, ui = scenario(base, language)
    frame = render(state, ui, pygame.Surface(size))
    board = GameLayout.for_size(size).board
    labels = [short_label(sq.name) for sq in ui.board.squares]
    return labels, [t.text for t in frame.texts if board.contains(t.box)]


#: the smallest short name read from a metre at each size, in pixels
LEGIBLE = {(1280, 720): 12, (1920, 1080): 16}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("base", ["turn", "mega_bus"])
def test_the_squares_carry_legible_short_labels_from_1280x720(language: str,
                                                              base: str) -> None:
    """Every square of the language's board and of the Mega board has its short name, drawn
    whole inside the square at 12 px or more at 1280x720 and 16 px or more at 1920x1080: a
    name too wide is cut to fewer letters (never under two), never shrunk."""
    texts.use_language(language)
    state, ui = scenario(base, language)
    letters = set(ui.board.group_letters.values())  # each lot's group letter besides
    for size, floor in LEGIBLE.items():
        frame = render(state, ui, pygame.Surface(size))
        board = GameLayout.for_size(size).board
        for sq in ui.board.squares:
            cell = square_rect(board, ui.board.size, sq.index)
            full = short_label(sq.name)
            assert 0 < len(full) <= 5, sq.name
            drawn = [t for t in frame.texts if cell.contains(t.box) and t.text not in letters]
            assert len(drawn) == 1, (size, sq.name, [t.text for t in drawn])
            label = drawn[0]
            stem = label.text.rstrip(".")
            assert len(stem) >= 2 and full.rstrip(".").startswith(stem), (full, label.text)
            assert label.drawn == label.text and label.size >= floor, (size, label)
            assert cell.contains(label.rect), (size, label)


def test_a_label_too_wide_for_its_square_is_cut_not_shrunk() -> None:
    """At 1280x720 the wide names are cut to fewer letters ("Comp." to "Com.", "Water" to
    "Wate."), drawn at the full 12 px."""
    texts.use_language("en")
    state, ui = scenario("turn", "en")
    frame = render(state, ui, pygame.Surface((1280, 720)))
    full = {short_label(sq.name) for sq in ui.board.squares}
    board = GameLayout.for_size((1280, 720)).board
    letters = set(ui.board.group_letters.values())
    cut = [t for t in frame.texts if board.contains(t.box) and t.text not in full
           and t.text not in letters
           and any(label.startswith(t.text.rstrip(".")) for label in full)]
    assert {t.text for t in cut} >= {"Com.", "Wate."}, [t.text for t in cut]
    assert all(t.size == 12 for t in cut)


@pytest.mark.parametrize("language", ["en", "nl", "ru"])
def test_no_labels_clutter_the_7_inch_screen(language: str) -> None:
    labels, drawn = _board_labels(language, (800, 480))
    assert not set(labels) & set(drawn) - {"Go"}, set(labels) & set(drawn)
