"""Tokens leave the squares' short names readable (from 1280x720, where the map carries
them): no player's disc touches the name of the square it stands on, with all eight players
on one square, in jail with visitors, on every language's board and the Mega board."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from fixtures.screen.scenarios import LANGUAGES, crowd

from companion.game.table.view import build
from companion.screen import texts
from companion.screen.layout import GameLayout, scales
from companion.screen.painter import Painter
from companion.screen.render import render
from companion.screen.views.board_map import square_rect, token_spots

pytestmark = pytest.mark.usefixtures("screen_in_english")

SIZES = ((1280, 720), (1920, 1080))


def _table(base: str, language: str, squares: list[int], jailed: int) -> tuple[
        dict[str, Any], Any]:
    """Eight players spread over `squares` in turn, the first `jailed` of those at square 10
    in jail (the others there visiting), nobody bankrupt."""
    state, ui = crowd(base, language, 8)
    for seat, player in enumerate(state["players"]):
        player.update(bankrupt=False, position=squares[seat % len(squares)], in_jail=False)
    in_jail = [p for p in state["players"] if p["position"] == 10][:jailed]
    for player in in_jail:
        player["in_jail"] = True
    return state, ui


def _clashes(state: dict[str, Any], ui: Any, size: tuple[int, int],
             labelled: bool = True) -> tuple[int, list[Any]]:
    """(how many tokens were checked, the tokens that touch a short name or leave their
    square) as drawn at `size` (`labelled`: where the map with short names puts them)."""
    frame = render(state, ui, pygame.Surface(size))
    board = GameLayout.for_size(size).board
    p = Painter(pygame.Surface(size), *scales(size))

    def cell(index: int) -> pygame.Rect:
        return square_rect(board, ui.board.size, index)

    spots = token_spots(p, build(state), cell, labelled)
    bad = []
    for player, (x, y, radius) in spots:
        disc = pygame.Rect(x - radius - 1, y - radius - 1, 2 * radius + 3, 2 * radius + 3)
        square = cell(player.position)
        # the short name; the lot's group letter in its corner may be covered (every lot
        # of the group shows it)
        labels = [t for t in frame.texts if square.contains(t.box)
                  and t.text not in ui.board.group_letters.values()]
        assert labels, f"square {player.position} has its short name at {size}"
        if not square.contains(disc) or any(disc.colliderect(t.rect) for t in labels):
            bad.append((player.name, player.position, disc, [t.rect for t in labels]))
    return len(spots), bad


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("base", ["turn", "mega_bus"])
def test_tokens_leave_the_short_names_readable(base: str, language: str,
                                               size: tuple[int, int]) -> None:
    texts.use_language(language)
    for squares, jailed in (([39], 0), ([10], 3), ([0], 0), ([1, 10], 2), ([5, 6, 8], 0)):
        state, ui = _table(base, language, squares, jailed)
        checked, bad = _clashes(state, ui, size)
        assert checked == 8 and bad == []


def test_the_check_can_fail() -> None:
    """Tokens where the 7-inch map puts them (around the middle of the square) are caught."""
    texts.use_language("en")
    state, ui = _table("turn", "en", [39], 0)
    checked, bad = _clashes(state, ui, (1280, 720), labelled=False)
    assert checked == 8 and len(bad) >= 4
