"""Count the decision panels drawn anew from now on (`panels._draw_prompt` wrapped), for the
tests that tell a panel kept ahead (one blit) from one drawn in the frame."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from companion.game.session import GameSession
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.views import panels


def count_panel_draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, one "x" in the list returned per decision panel drawn anew."""
    drawn: list[str] = []
    real = panels._draw_prompt

    def counting(*args: Any) -> None:
        drawn.append("x")
        real(*args)

    monkeypatch.setattr(panels, "_draw_prompt", counting)
    return drawn


def lead_screen(session: GameSession) -> tuple[Controller, pygame.Surface, ScreenLoop]:
    """The table's screen on `session` (it leads: the session works ahead for it) in an
    800x480 window, its first frame drawn: (controller, window surface, loop)."""
    controller = Controller(session, language="en")
    surface = pygame.display.set_mode((800, 480))
    loop = ScreenLoop(controller, surface)
    loop.draw()
    return controller, surface, loop
