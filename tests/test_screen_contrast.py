"""The table screen's palette meets WCAG AA (issue 30): every text colour on every
background it is drawn on at least 4.5:1, the buttons' labels on their cap colours, and
the squares' short names on every colour group of every edition."""

from __future__ import annotations

import pytest

from companion.editions import edition_ids, load_edition
from companion.screen import theme
from companion.screen.theme import contrast, ink_on

AA = 4.5
#: the panels the screen writes on, and the texts written there
BACKGROUNDS = {"BACKGROUND": theme.BACKGROUND, "PANEL": theme.PANEL,
               "PANEL_LIGHT": theme.PANEL_LIGHT, "INFO_BG": theme.INFO_BG}
TEXTS = {"TEXT": theme.TEXT, "ACCENT": theme.ACCENT, "GOOD": theme.GOOD}


def test_text_on_the_panels() -> None:
    weak = {(fg, bg): round(contrast(c, b), 2) for fg, c in TEXTS.items()
            for bg, b in BACKGROUNDS.items() if contrast(c, b) < AA}
    assert weak == {}
    assert contrast(theme.TEXT, theme.REFUSED_BG) >= AA  # a refusal's message
    for bg in ("BACKGROUND", "PANEL", "PANEL_LIGHT"):  # secondary text
        assert contrast(theme.TEXT_DIM, BACKGROUNDS[bg]) >= AA, bg
    for bg in ("BACKGROUND", "PANEL"):  # a warning's red
        assert contrast(theme.BAD, BACKGROUNDS[bg]) >= AA, bg


@pytest.mark.parametrize("button", list(theme.BUTTON_COLORS))
def test_a_buttons_label_on_its_cap(button: str) -> None:
    assert contrast(theme.button_ink(button), theme.BUTTON_COLORS[button]) >= AA


def test_square_names_on_every_colour_group() -> None:
    colours = dict(theme.GROUP_COLORS)
    for edition_id in edition_ids():
        for group, info in load_edition(edition_id).group_info.items():
            if info.get("color"):
                colours[f"{edition_id}/{group}"] = theme.parse_hex(str(info["color"]))
    weak = {name: round(contrast(ink_on(c), c), 2) for name, c in colours.items()
            if contrast(ink_on(c), c) < AA}
    assert weak == {}


def test_the_checker_sees_a_weak_pair() -> None:
    """White on the yes cap's green was 2.3:1: the measure can fail."""
    assert contrast((250, 250, 250), theme.BUTTON_COLORS["yes"]) < AA


def test_the_board_carries_each_groups_letter() -> None:
    """A street's group is told apart without colour: the same letter as on the phones,
    on its colour bar on the 7-inch screen, under it where the bar holds a short name."""
    import pygame

    from companion.editions import group_letters
    from companion.screen.painter import Painter
    from companion.screen.views.board_info import board_info
    from companion.screen.views.board_map import _draw_group_letter

    assert board_info("sv").group_letters == group_letters("sv")
    assert sorted(group_letters("sv").values()) == list("ABCDEFGH")
    surface = pygame.Surface((400, 400))
    painter = Painter(surface, 1.0, 1.0)
    pink = theme.GROUP_COLORS["pink"]
    _draw_group_letter(painter, pygame.Rect(0, 0, 40, 40), 10, "C", pink)
    _draw_group_letter(painter, pygame.Rect(40, 0, 40, 40), 10, "", pink)  # a station: none
    assert [t.text for t in painter.texts] == ["C"]
    # on the 7-inch screen the letter stands on its colour bar, in the ink that reads there
    assert all(contrast(theme.ink_on(c), c) >= AA for c in theme.GROUP_COLORS.values())
    big = Painter(surface, 1.6, 1.6)  # where the bar holds a short name: on its cell
    _draw_group_letter(big, pygame.Rect(0, 0, 60, 60), 20, "C", pink)
    assert [t.text for t in big.texts] == ["C"]
    assert contrast(theme.TEXT, theme.BOARD_CELL) >= AA
