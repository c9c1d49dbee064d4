"""The game's story on the table screen at game over: all its lines are shown whole in every
language and size, the chart follows the story's turns, and the controller asks the session
for it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest
from fixtures.screen.scenarios import LANGUAGES, SIZES, scenario

from companion.game.telling.story import Story
from companion.screen import texts
from companion.screen.render import render
from companion.screen.views.endgame.story import story_lines

pytestmark = pytest.mark.usefixtures("screen_in_english")


def a_story(state: dict[str, Any]) -> dict[str, Any]:
    """A story for the scenario's players, the long figures of a long game."""
    names = [p["name"] for p in state["players"]]
    return {
        "players": names, "seconds": 3 * 3600 + 7 * 60, "turns": 187, "over": True,
        "worth": [{"turn": t, "worth": [15000 + 900 * t * (i - 1) for i in range(len(names))]}
                  for t in range(1, 12)],
        "rent_by_square": [{"square": 39, "group": "dark_blue", "amount": 48000,
                            "owner": names[0]}],
        "landed": [{"square": 24, "group": "red", "count": 31}],
        "biggest_trade": {"giver": names[0], "receiver": names[-1], "value": 125000},
        "auctions": [{"square": 5}, {"square": 12}],
    }


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_story_fits_under_the_chart(language: str, size: tuple[int, int]) -> None:
    texts.use_language(language)
    state, ui = scenario("game_over", language)
    ui.story = Story.of(a_story(state))
    surface = pygame.Surface(size)
    frame = render(state, ui, surface)
    out_dir = os.environ.get("SCREEN_PNG_DIR")
    if out_dir:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, f"{out_dir}/story-{size[0]}x{size[1]}-{language}.png")
    said = " ".join(t.drawn for t in frame.texts)  # a long fact wraps onto two lines
    lines = story_lines(ui.story, state, ui)
    assert len(lines) == 5
    for line in lines:
        assert line in said, line
    assert "3:07" in lines[0] and "187" in lines[0]


def test_without_a_story_the_game_over_screen_is_as_before() -> None:
    state, ui = scenario("game_over", "en")
    ui.story = None
    assert story_lines(None, state, ui) == []
    frame = render(state, ui, pygame.Surface((800, 480)))
    assert not any("Time played" in t.text for t in frame.texts)
