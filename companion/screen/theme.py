"""Colours of the table screen: a dark, high-contrast theme readable across a table."""

from __future__ import annotations

Color = tuple[int, int, int]

BACKGROUND: Color = (18, 22, 30)
PANEL: Color = (32, 38, 50)
PANEL_LIGHT: Color = (46, 54, 70)
TEXT: Color = (238, 240, 245)
TEXT_DIM: Color = (150, 158, 175)
ACCENT: Color = (255, 200, 60)
GOOD: Color = (90, 210, 120)
BAD: Color = (255, 95, 85)
REFUSED_BG: Color = (120, 28, 30)
INFO_BG: Color = (30, 70, 120)
BOARD_CELL: Color = (58, 66, 82)
BOARD_CORNER: Color = (78, 88, 108)
MORTGAGED: Color = (95, 95, 95)
HOUSE: Color = (60, 200, 90)
HOTEL: Color = (230, 50, 50)

# Buttons on screen carry the colours of the panel's caps, so a glance finds the cap.
BUTTON_COLORS: dict[str, Color] = {
    "roll": (230, 230, 235),
    "yes": (60, 180, 90),
    "no": (210, 60, 60),
    "pass_go": (235, 190, 40),
    "undo": (120, 130, 150),
    "menu": (70, 120, 210),
}
BUTTON_TEXT: dict[str, Color] = {
    "roll": (20, 20, 25),
    "pass_go": (20, 20, 25),
}

# Player colours, in seat order when the setup chose none; bright on the dark background.
PLAYER_COLORS: dict[str, Color] = {
    "red": (255, 90, 80),
    "blue": (90, 160, 255),
    "green": (90, 220, 110),
    "yellow": (255, 220, 60),
    "purple": (200, 120, 255),
    "orange": (255, 150, 50),
    "cyan": (70, 225, 230),
    "pink": (255, 130, 200),
}

# Colour groups of the classic boards, used when the edition data gives no colour.
GROUP_COLORS: dict[str, Color] = {
    "brown": (139, 74, 43),
    "light_blue": (168, 221, 244),
    "pink": (214, 54, 140),
    "orange": (243, 146, 33),
    "red": (226, 35, 26),
    "yellow": (254, 242, 0),
    "green": (31, 166, 74),
    "dark_blue": (15, 91, 167),
    "station": (235, 235, 235),
    "utility": (140, 150, 160),
}


def parse_hex(value: str, default: Color = TEXT_DIM) -> Color:
    """'#8B4A2B' -> (139, 74, 43); anything else -> default.

    >>> parse_hex("#8B4A2B")
    (139, 74, 43)
    """
    digits = value.lstrip("#")
    if len(digits) != 6:
        return default
    try:
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
    except ValueError:
        return default


def player_color(name: str | None, seat: int) -> Color:
    """A named player colour, or the seat's default."""
    if name and name in PLAYER_COLORS:
        return PLAYER_COLORS[name]
    if name and name.startswith("#"):
        return parse_hex(name)
    palette = list(PLAYER_COLORS.values())
    return palette[seat % len(palette)]

