"""Every screen state at 800x480 and 1920x1080 in every language: no missing glyph, no text
out of its box, a touch target for every live button. Set SCREEN_PNG_DIR to keep the PNGs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest
from fixtures.screen.scenarios import LANGUAGES, SCENARIOS, SIZES, scenario

from companion.screen import texts
from companion.screen.fonts import missing_glyphs
from companion.screen.render import render
from companion.screen.ui_state import DELTA_SHOWN_S

pytestmark = pytest.mark.usefixtures("screen_in_english")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", SCENARIOS)
def test_screen_state_renders_cleanly(name: str, size: tuple[int, int], language: str) -> None:
    texts.use_language(language)
    state, ui = scenario(name, language)
    surface = pygame.Surface(size)
    frame = render(state, ui, surface)
    out_dir = os.environ.get("SCREEN_PNG_DIR")
    if out_dir:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, f"{out_dir}/{name}-{size[0]}x{size[1]}-{language}.png")
    assert frame.texts, "something was drawn"
    overflow = [(t.text, t.drawn, t.rect, t.box) for t in frame.texts if not t.fits]
    assert overflow == []
    missing = {t.drawn: missing_glyphs(t.drawn) for t in frame.texts if missing_glyphs(t.drawn)}
    assert missing == {}
    screen = pygame.Rect((0, 0), size)
    assert all(screen.contains(t.rect) for t in frame.texts)
    assert frame.prompt is not None
    live = {a.button for a in frame.prompt.actions if a.button}
    targets = {h.arg for h in frame.hotspots if h.action == "button"}
    if ui.overlay is None:
        assert live == targets, "every live panel button has its on-screen twin"
    for spot in frame.hotspots:
        assert spot.rect.width >= 20 * size[0] // 800 and spot.rect.height >= 20 * size[1] // 480


def test_refusal_names_price_and_cash() -> None:
    state, ui = scenario("rich", "en")
    frame = render(state, ui, pygame.Surface((800, 480)))
    drawn = [t.drawn for t in frame.texts]
    assert "Bo: buy Götgatan for Kr\u00a02\u00a0400?" in drawn
    assert any("Bo cannot afford Götgatan: Kr\u00a02\u00a0400 needed, Kr\u00a01\u00a0850 in hand"
               in d for d in drawn)
    assert frame.prompt is not None and frame.prompt.for_button("yes") is None


def test_the_first_frame_shows_the_new_balance_and_nothing_redraws_by_itself() -> None:
    """A move's first frame has its result (the new balance, its change beside it); no
    frame follows on its own until the change is taken down (issue 28: every frame costs a
    whole redraw)."""
    state, ui = scenario("rich", "en")
    assert state is not None
    ui.anims["Zoë"].start = ui.now
    ui.message = None
    ui.clock_deadline = None
    surface = pygame.Surface((800, 480))
    first = render(state, ui, surface)
    assert not first.animating
    # eight players: one row each, the digits large and the currency beside them
    drawn = [t.drawn for t in first.texts]
    assert "18\u00a0800" in drawn and "20\u00a0200" not in drawn  # the result, not the old
    assert "−1\u00a0400" in drawn
    assert first.next_change == ui.now + DELTA_SHOWN_S  # the change is taken down then
    ui.now += DELTA_SHOWN_S
    settled = render(state, ui, surface)
    assert not settled.animating and settled.next_change is None
    drawn = [t.drawn for t in settled.texts]
    assert "18\u00a0800" in drawn and "−1\u00a0400" not in drawn


def test_game_over_shows_standings_and_chart() -> None:
    state, ui = scenario("game_over", "en")
    frame = render(state, ui, pygame.Surface((800, 480)))
    assert frame.screen == "game_over"
    drawn = [t.drawn for t in frame.texts]
    assert "Game over · Ann wins!" in drawn
    assert "Net worth over the game" in drawn
    assert len(ui.networth) >= 2
