"""A part that paints its own ground (`Painter.part(..., ground=...)`, the decision
panel, issue 28's eleventh round) gives the pixels of one drawn on a filled ground, drawn
or blitted kept, whatever was under it; the frame fills only the margin around it."""

from __future__ import annotations

from functools import partial

import pygame
import pytest

from companion.screen import painter, theme
from companion.screen.painter import Painter, PartStore
from companion.screen.render import _fill_around

pytestmark = pytest.mark.usefixtures("dummy_display")

RECT = pygame.Rect(20, 30, 200, 60)


def _draw(p: Painter) -> None:
    """A rounded panel: its corners show the ground."""
    p.fill(RECT, theme.PANEL_LIGHT, radius=8)
    p.fill(pygame.Rect(RECT.x + 10, RECT.y + 10, 40, 20), (200, 40, 40))


def _screen() -> pygame.Surface:
    return pygame.display.set_mode((320, 160))


def _reference() -> pygame.Surface:
    surface = _screen()
    surface.fill(theme.BACKGROUND)
    _draw(Painter(surface, 1.0, 1.0))
    return surface.copy()


def test_a_part_with_its_ground_has_the_pixels_of_one_drawn_on_that_ground() -> None:
    painter.forget()
    reference = _reference()
    store = PartStore(4, 1 << 20, again=True)
    for showing in range(4):  # drawn, drawn and kept, then blitted twice
        surface = _screen()
        surface.fill(theme.BACKGROUND)
        surface.fill((250, 250, 0), RECT)  # what the last frame left under the panel
        p = Painter(surface, 1.0, 1.0)
        p.part(("panel",), RECT, partial(_draw, p), store=store, ground=theme.BACKGROUND)
        assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(reference, "RGB"), \
            f"showing {showing}"
        assert len(store.items) == (0 if showing == 0 else 1)


def test_a_part_kept_by_its_ground_is_found_as_one_read_from_the_surface() -> None:
    surface = _screen()
    surface.fill(theme.BACKGROUND)
    p = Painter(surface, 1.0, 1.0)
    area = RECT.clip(surface.get_rect())
    assert p._part_key(("k",), RECT, area, theme.BACKGROUND) == p._part_key(("k",), RECT, area)
    assert p._part_key(("k",), RECT, area, theme.PANEL) != p._part_key(("k",), RECT, area)


def test_only_the_margin_around_the_rect_is_filled() -> None:
    surface = _screen()
    surface.fill((1, 2, 3))
    area = RECT.inflate(4, 4)
    _fill_around(surface, area, RECT)
    background = surface.map_rgb(theme.BACKGROUND)
    for x in range(area.left, area.right):
        for y in range(area.top, area.bottom):
            inside = RECT.collidepoint(x, y)
            assert (surface.get_at_mapped((x, y)) == background) != inside, (x, y)
    assert surface.get_at((area.left - 1, area.top)) == pygame.Color(1, 2, 3)
