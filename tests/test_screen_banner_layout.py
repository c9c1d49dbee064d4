"""A card's question, or any notice, and the whose-turn header are both readable at 800x480
(issue 25): the banner sits just above the decision panel, growing upward, never over the
header, the panel's title or its buttons, in every language and with a three-line notice."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pygame
import pytest

from companion.screen import texts
from companion.screen.layout import GameLayout
from companion.screen.render import render
from companion.screen.texts import text
from companion.screen.ui_state import Message
from companion.words.input_texts import input_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fixtures.screen.scenarios import scenario  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
SIZE = (800, 480)
LANGUAGES = ("en", "sv", "fr", "de", "nl", "pl", "ru")


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


def _questions(language: str, player: str) -> list[str]:
    """The card's questions a tap outside a decision asks, and a notice long enough for
    three lines."""
    return [input_text("card_tapped_land", language, player=player),
            input_text("card_tapped_pay", language, player=player),
            " ".join([input_text("card_tapped_land", language, player=player)] * 2)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_cards_question_leaves_the_whose_turn_header_readable(language: str) -> None:
    texts.use_language(language)
    layout = GameLayout.for_size(SIZE)
    state, ui = scenario("turn", language)
    assert state is not None
    current = str(state["current"])
    ui.message = None
    drawn_before = len(render(state, ui, pygame.Surface(SIZE)).texts)
    for question in _questions(language, str(state["players"][1]["name"])):
        ui.message = Message(question, "info", ui.now + 5)
        frame = render(state, ui, pygame.Surface(SIZE))
        banner = frame.texts[drawn_before:]  # the banner is drawn last, over the game
        assert banner, f"the question is drawn: {question}"
        shown = " ".join(t.drawn for t in banner)
        if len(question) < 200:  # a real question is said whole (a longer notice: 3 lines)
            assert shown.split() == question.split(), "the whole question, in order"
        header = [t for t in frame.texts if t.box.colliderect(layout.header)]
        turn_words = {text("whose_turn", player=current), current}
        assert any(t.drawn in turn_words for t in header), "whose turn is still said"
        for line in banner:
            assert not line.box.colliderect(layout.header), line.drawn
            assert not line.box.colliderect(layout.prompt), line.drawn
        title = [t for t in frame.texts if layout.prompt_title.contains(t.box)]
        assert title, "the decision panel's title is still drawn"


def test_the_banner_draws_nothing_over_the_header_in_pixels() -> None:
    """The header's pixels are the same with and without the notice up."""
    texts.use_language("en")
    layout = GameLayout.for_size(SIZE)
    state, ui = scenario("turn", "en")
    plain = pygame.Surface(SIZE)
    render(state, ui, plain)
    ui.message = Message(_questions("en", "Bo")[2], "info", ui.now + 5)
    asked = pygame.Surface(SIZE)
    render(state, ui, asked)
    head = layout.header
    assert pygame.image.tobytes(plain.subsurface(head), "RGB") == \
        pygame.image.tobytes(asked.subsurface(head), "RGB")
    below = layout.banner
    assert pygame.image.tobytes(plain.subsurface(below), "RGB") != \
        pygame.image.tobytes(asked.subsurface(below), "RGB"), "the notice is drawn there"
