"""The decision panels of the states the session worked out ahead (issue 28's thirteenth
round, companion.screen.render.keep_forecast_panel): kept by what they show, so that the
frame of a press that brings such a state blits the very pixels a panel drawn anew has, and a panel
of a state that did not come is never shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from companion.screen import painter, theme
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.painter import Painter
from companion.screen.render import game_layout, keep_forecast_panel
from companion.screen.views.board_map import player_colors
from companion.screen.views.panels import draw_prompt
from tests.panel_draws import count_panel_draws, lead_screen
from tools.bench.journal import bot_script

BOT = Source("script", banker=True)
SETTLE_S = 10.0

pytestmark = pytest.mark.usefixtures("dummy_display")


def _cold(size: tuple[int, int], prompt: Any, colors: dict[str, Any]) -> bytes:
    """`prompt`'s panel drawn anew (nothing kept) on a surface of its own: its pixels."""
    kept = dict(painter.PANELS.items), dict(painter.PANELS.seen), painter.PANELS.bytes
    painter.PANELS.clear()
    try:
        surface = pygame.Surface(size)
        surface.fill(theme.BACKGROUND)
        layout = game_layout(size)
        draw_prompt(Painter(surface, 1.0, 1.0), layout, prompt, colors)
        return pygame.image.tobytes(surface.subsurface(layout.prompt), "RGB")
    finally:
        painter.PANELS.items.clear()
        painter.PANELS.items.update(kept[0])
        painter.PANELS.seen.clear()
        painter.PANELS.seen.update(kept[1])
        painter.PANELS.bytes = kept[2]


def test_a_panel_kept_ahead_is_the_panel_drawn_anew(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    painter.forget()
    drawn = count_panel_draws(monkeypatch)
    script = bot_script(seed=5, count=160)
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller, surface, loop = lead_screen(session)
        size = surface.get_size()
        blits = frames = kept_ahead = 0
        for command in script[1:]:
            state = controller.state
            assert state is not None and session.ahead_settled(SETTLE_S)
            found = session.ahead_states(int(state["version"]))
            assert found is not None
            for ahead in found:
                drawn.clear()
                kept_ahead += keep_forecast_panel(ahead, controller.ui, size)
            outcome = session.submit(command, BOT)
            assert outcome.accepted
            controller.drain_updates(outcome.version)
            drawn.clear()
            loop.draw()
            frame = controller.frame
            assert frame is not None and frame.prompt is not None
            frames += 1
            blits += not drawn  # the frame found the panel kept
            shown = pygame.image.tobytes(surface.subsurface(game_layout(size).prompt), "RGB")
            colors = player_colors(controller.state or {}, controller.ui)
            assert shown == _cold(size, frame.prompt, colors), command
            while loop.follow_up:
                loop.draw()
        print(f"{frames} frames, {kept_ahead} panels kept ahead, {blits} blitted")
        assert kept_ahead > frames // 3, (kept_ahead, frames)
        assert blits >= frames * 4 // 5, (blits, frames)  # 88 of 159 without them


def test_a_panel_kept_for_a_state_that_did_not_come_is_not_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept panel is found only by what it shows: one kept for another state's prompt
    leaves the frame drawing its own anew."""
    painter.forget()
    script = bot_script(seed=5, count=3)
    with GameSession.open(tmp_path) as session:
        session.submit(script[0], BOT)
        controller = Controller(session, language="en")
        surface = pygame.display.set_mode((800, 480))
        size = surface.get_size()
        loop = ScreenLoop(controller, surface)
        loop.draw()
        state = controller.state
        assert state is not None and session.ahead_settled(SETTLE_S)
        found = session.ahead_states(int(state["version"]))
        assert found
        other = {**found[0], "current": found[0]["players"][-1]["name"]}
        assert keep_forecast_panel(other, controller.ui, size)
        assert not keep_forecast_panel(other, controller.ui, size)  # kept: nothing done
        drawn = count_panel_draws(monkeypatch)
        outcome = session.submit(script[1], BOT)
        controller.drain_updates(outcome.version)
        loop.draw()
        frame = controller.frame
        assert frame is not None and frame.prompt is not None
        assert drawn == ["x"]  # the state that came: its panel drawn, not the one kept
        shown = pygame.image.tobytes(surface.subsurface(game_layout(size).prompt), "RGB")
        assert shown == _cold(size, frame.prompt,
                              player_colors(controller.state or {}, controller.ui))
