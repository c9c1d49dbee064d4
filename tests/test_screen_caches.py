"""What the screen keeps between frames (text measurements and renderings, the board's ring)
never changes a pixel: a frame drawn from warm caches equals one drawn from cold ones, also
after the board changed."""

from __future__ import annotations

import copy

import pygame
import pytest
from fixtures.screen.scenarios import SCENARIOS, scenario

from companion.screen import painter
from companion.screen.render import render
from companion.screen.views import board_map

pytestmark = pytest.mark.usefixtures("screen_in_english")


def cold() -> None:
    """Forget everything the screen keeps between frames."""
    painter.forget()
    board_map._ring = None


def pixels(state: object, ui: object, size: tuple[int, int] = (800, 480)) -> bytes:
    surface = pygame.Surface(size)
    render(state, ui, surface)  # type: ignore[arg-type]
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_warm_frame_is_the_cold_frame(name: str) -> None:
    state, ui = scenario(name, "en")
    cold()
    first = pixels(state, ui)
    assert painter._measured and painter._rendered, "the first frame filled the caches"
    assert pixels(state, ui) == first
    for size in ((1920, 1080), (800, 480)):  # another size and back: the ring is redrawn
        pixels(state, ui, size)
    assert pixels(state, ui) == first


def test_the_ring_is_drawn_again_when_a_deed_changes_hands_or_gets_a_house() -> None:
    state, ui = scenario("turn", "en")
    assert state is not None
    cold()
    before = pixels(state, ui)
    ring = board_map._ring
    changed = copy.deepcopy(state)
    square = next(sq for sq in changed["squares"] if sq.get("owner"))
    square["houses"] = int(square.get("houses") or 0) + 1
    warm = pixels(changed, ui)
    assert board_map._ring is not ring and warm != before
    cold()
    assert pixels(changed, ui) == warm
    ring = board_map._ring
    pixels(changed, ui)
    assert board_map._ring is ring, "nothing on the ring changed: drawn once"


def test_a_cached_text_is_the_glyphs_freetype_draws() -> None:
    face = painter.font(False)
    for text, px in (("Kr\u00a018\u00a0800", 18), ("Жёлтый gjpq", 11), ("…", 27)):
        direct = pygame.Surface((320, 80))
        cached = pygame.Surface((320, 80))
        face.render_to(direct, (20, 50), text, fgcolor=(250, 200, 100), size=px)
        ink = painter.ink(text, px)
        cached.blit(painter.rendered(text, px, (250, 200, 100)), (20 + ink.x, 50 - ink.y))
        assert pygame.image.tobytes(direct, "RGB") == pygame.image.tobytes(cached, "RGB")
