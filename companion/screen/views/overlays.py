"""Overlays drawn over the game: the key and button help, and choosers (menu, squares)."""

from __future__ import annotations

import pygame

from companion.screen import theme
from companion.screen.layout import rows
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import Chooser

HELP_LINES = ("help_roll", "help_yes", "help_no", "help_pass_go", "help_undo", "help_menu",
              "help_banker", "help_digits", "help_speed", "help_dial", "help_help", "help_touch")
CHOOSER_ROWS = 7


def _dim(p: Painter) -> None:
    """Darken what lies under an overlay."""
    shade = pygame.Surface(p.surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    p.surface.blit(shade, (0, 0))


def draw_help(p: Painter) -> None:
    """Which key or panel button does what (H or the MENU's help)."""
    _dim(p)
    box = p.rect(40, 30, 720, 420)  # wide: every key's line whole at the readable size
    p.fill(box, theme.PANEL, radius=10)
    p.frame(box, theme.ACCENT, width=2, radius=10)
    inner = box.inflate(-p.px(30), -p.px(20))
    lines = rows(inner, len(HELP_LINES) + 1)
    p.text(text("help_title"), lines[0], 22, theme.ACCENT, bold=True)
    for line, key in zip(lines[1:], HELP_LINES, strict=True):
        p.text(text(key), line, 16, theme.TEXT, min_size=theme.readable(p.scale))
    p.hotspot(box, "close")


def draw_chooser(p: Painter, chooser: Chooser) -> None:
    """A list to choose from: ROLL / NO move, YES chooses; every row is a touch target."""
    _dim(p)
    box = p.rect(100, 24, 600, 432)
    p.fill(box, theme.PANEL, radius=10)
    p.frame(box, theme.ACCENT, width=2, radius=10)
    inner = box.inflate(-p.px(24), -p.px(16))
    slots = rows(inner, CHOOSER_ROWS + 1, p.px(4))
    p.text(chooser.title, slots[0], 20, theme.ACCENT, bold=True)
    first = max(0, min(chooser.focus - CHOOSER_ROWS // 2, len(chooser.choices) - CHOOSER_ROWS))
    for slot, index in zip(slots[1:], range(first, len(chooser.choices)), strict=False):
        choice = chooser.choices[index]
        focused = index == chooser.focus
        p.fill(slot, theme.ACCENT if focused else theme.PANEL_LIGHT, radius=6)
        label_box = slot.inflate(-p.px(20), -p.px(4))
        p.text(choice.label, label_box, 17, (20, 20, 25) if focused else theme.TEXT,
               bold=focused, min_size=theme.readable(p.scale))
        p.hotspot(slot, "choose", index)
