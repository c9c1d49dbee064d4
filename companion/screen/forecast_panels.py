"""The decision panels of the next moves the session worked out ahead (issue 28's thirteenth
round): while the table waits, the screen draws the panel each such state's prompt would
show and keeps it in PANELS, so that the press that brings that state finds it there (one
blit) instead of drawing it in its first frame.

The states come from `GameSession.ahead_states` (companion.game.ahead): they are no move,
and nothing of them is shown. A panel is kept by everything it shows
(`views.panels._panel_key`), so one built from a state or a UI state that the real update
does not bring is simply never found: it costs CPU and a place in the store, never a wrong
pixel. The UI state the prompt is built with is the screen's, with what an update resets
or what the press's own entry changes set as they are after a move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

import pygame

from companion.screen import theme
from companion.screen.layout import scales
from companion.screen.painter import PANELS, Painter
from companion.screen.render import _scratch_for, game_layout
from companion.screen.ui_state import UiState
from companion.screen.views.board_map import player_colors
from companion.screen.views.panels import _bare, _draw_prompt, _panel_key
from companion.screen.views.prompt import build_prompt


def ui_after_move(ui: UiState) -> UiState:
    """The screen's UI state as a move's update leaves it for the decision panel: no view
    of the table yet (the state's own is built), no UNDO question, no dice typed, no
    dial, no bid steps, no square chosen, no bus ride, no auction clock (a copy)."""
    return replace(ui, table=None, confirm_undo=False, undo_target=None, dice_entry=[],
                   speed_entry=None, dial=None, bid_steps=0, square_focus=None,
                   bus_ride=False, auction_deadline=None)


def keep_forecast_panel(state: Mapping[str, Any], ui: UiState, size: tuple[int, int]) -> bool:
    """Keep in PANELS the decision panel `state`'s prompt shows (a state worked out ahead)
    for a window of `size`, drawn on the scratch surface on the screen's ground, as
    `panels.draw_prompt` keeps it; False when it is kept already (nothing done)."""
    after = ui_after_move(ui)
    prompt = build_prompt(state, after)
    color = player_colors(state, after).get(str(prompt.player), theme.ACCENT)
    surface, game = _scratch_for(size)
    sx, sy = scales(size)
    p = Painter(surface, sx, sy)
    bare = _bare(p, game, prompt)
    shown = game_layout(size).prompt.clip(pygame.Rect((0, 0), size)).topleft
    return p.keep_ahead(_panel_key(bare, color), game.prompt,
                        partial(_draw_prompt, p, game, bare, color), PANELS,
                        ground=theme.BACKGROUND, shown_at=shown, unseen=True)
