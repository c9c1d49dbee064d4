"""Draw one frame from the public state JSON and the UI state; no I/O, no engine objects.

`render` returns a `Frame` saying what was drawn (texts with their boxes, touch targets,
the prompt whose buttons are live) and whether the picture is still moving.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pygame

from companion.screen import theme
from companion.screen.layout import GameLayout, scales
from companion.screen.painter import DrawnText, Hotspot, Painter
from companion.screen.texts import text
from companion.screen.ui_state import UiState
from companion.screen.views.board_map import draw_board, player_colors
from companion.screen.views.endgame.gameover import draw_game_over
from companion.screen.views.overlays import draw_chooser, draw_help
from companion.screen.views.panels import (
    draw_banner,
    draw_buttons,
    draw_header,
    draw_log,
    draw_players,
    draw_prompt,
)
from companion.screen.views.pin import draw_pin
from companion.screen.views.prompt import Action, Prompt, build_prompt, table_of
from companion.screen.views.registration import draw_registration
from companion.screen.views.setup import draw_setup
from companion.screen.views.wifi import draw_phones


@dataclass
class Frame:
    """What one render drew."""

    texts: list[DrawnText] = field(default_factory=list)
    hotspots: list[Hotspot] = field(default_factory=list)
    prompt: Prompt | None = None
    animating: bool = False
    next_change: float | None = None
    screen: str = "game"  # "setup", "game", "game_over"

    def hotspot_at(self, pos: tuple[int, int]) -> Hotspot | None:
        """The touch target under `pos`; later (overlay) targets win."""
        for spot in reversed(self.hotspots):
            if spot.rect.collidepoint(pos):
                return spot
        return None


def setup_prompt() -> Prompt:
    """The setup screen's buttons."""
    return Prompt(text("setup_title"), [], [
        Action("roll", text("act_next"), ui="setup_next"),
        Action("yes", text("act_change"), ui="setup_change"),
        Action("no", text("act_back"), ui="setup_back"),
        Action("pass_go", text("act_start"), ui="setup_start"),
        Action("menu", text("act_help"), ui="help"),
    ])


def render(state: Mapping[str, Any] | None, ui: UiState, surface: pygame.Surface) -> Frame:
    """Draw everything for `state` (None: no game yet, the setup form) on `surface`."""
    sx, sy = scales(surface.get_size())
    p = Painter(surface, sx, sy)
    surface.fill(theme.BACKGROUND)
    frame = Frame()
    if state is None or ui.setup is not None:
        frame.screen = "setup"
        if ui.setup is not None:
            layout = draw_setup(p, ui.setup)
            draw_phones(p, layout.remote, ui)
            frame.prompt = setup_prompt()
            draw_buttons(p, layout.buttons, frame.prompt)
    else:
        colors = player_colors(state, ui)
        frame.prompt = build_prompt(state, ui)
        if table_of(state, ui).winner:
            frame.screen = "game_over"
            over = draw_game_over(p, state, ui, colors)
            draw_buttons(p, over.buttons, frame.prompt)
        else:
            game = GameLayout.for_size(surface.get_size())
            draw_header(p, game.header, state, ui, colors)
            draw_players(p, game.players, state, ui, colors)
            draw_board(p, game.board, state, ui)
            if ui.wifi is None:
                draw_log(p, game.log, ui)
                draw_phones(p, game.remote, ui)
            else:  # until a phone is on the table's Wi-Fi its code takes the side column
                draw_phones(p, game.log.union(game.remote), ui)
            draw_prompt(p, game, frame.prompt, colors)
            draw_banner(p, game.banner, ui, upward=True)  # the header stays readable
    if ui.overlay == "help":
        draw_help(p)
    elif ui.overlay == "chooser" and ui.chooser is not None:
        draw_chooser(p, ui.chooser)
    elif ui.overlay == "registration" and ui.chooser is not None:
        draw_registration(p, ui.chooser)  # card registration (companion.screen.views.registration)
    if ui.pin is not None:
        draw_pin(p, ui.pin)  # the banker PIN, over everything (companion.screen.views.pin)
    if ui.pin is not None:  # above the PIN's box, which hides the game's own banner
        draw_banner(p, p.rect(6, 2, 788, 34), ui)
    elif frame.screen != "game":
        draw_banner(p, p.rect(6, 380, 788, 36), ui, upward=True)
    frame.texts = p.texts
    frame.hotspots = p.hotspots
    frame.animating = ui.animating()
    frame.next_change = ui.next_change()
    return frame
