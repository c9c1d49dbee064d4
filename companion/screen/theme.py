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

# Text sizes in design units (one unit is one pixel of the 800x480 7" screen, about 0.19
# mm): what the table reads from a metre away never falls under READABLE (about 3 mm);
# a player's cash, the largest, never under MONEY. The facts read closer (the bank's stock
# and the pot, the house rules, where a lesson stands in the rules, the detail line of a
# decision, a button's cap name, a waiting trade's details, the board's group letters) are
# READABLE too: where one does not fit, it wraps or gives up whole words. The views name
# their sizes here instead of writing numbers.
READABLE = 16
MONEY = 28


def readable(scale: float) -> float:
    """The smallest size, in design units, for what the table reads at this scale:
    READABLE on the 7-inch screen, every view alike; on a screen 1.25 times as large or
    more, 60 % of it, which is still larger in pixels (21 px at 1920x1080).

    >>> readable(1.0), readable(2.25)
    (16, 9.6)
    """
    return READABLE if scale < 1.25 else round(READABLE * 0.6, 1)


SIZES: dict[str, float] = {
    "name": 16,  # a player card's name and the change of their cash
    "cash": 30,  # a player's cash (MONEY at least; five players or more: its digits)
    "worth": 16,  # a player card's status line: net worth, jail, jail cards
    "log_title": 17,  # "Last moves"
    "log": 16,  # each recent move
    "card_title": 16,  # "Cleo drew Chance"
    "card": 16,  # the card's text
    "qr_caption": 16,  # the join address under the QR code, and "start companion run"
    "bank": 16,  # secondary: houses and hotels left, the pot
    "house_rules": 16,  # secondary: the house rules in force, under the card
    "waiting_title": 16,  # a trade or bid waiting for someone's phone: what it is
    "waiting_detail": 16,  # ...what it offers (the only one of two notes: room for it)
    "waiting_line": 16,  # ...and whom the table waits for
    "lesson_badge": 16,  # the teaching table's "New rule"
    "lesson": 16,  # ...its two sentences
    "lesson_where": 16,  # secondary: ...where the rule stands in the rules ("Rules: Jail")
    "roll": 26,  # the roll written in digits beside the dice
    "prompt_detail": 16,  # the line under a decision (secondary when it must shrink)
    "square_label": 8,  # a square's short name on its colour bar, from 1280x720: 12 px there, 18 px
    # at 1920x1080, never shrunk (a name too wide is cut to fewer letters)
    "button_name": 16,  # secondary: the panel cap's name above an on-screen button's action
}

# Buttons on screen carry the colours of the panel's caps, so a glance finds the cap.
BUTTON_COLORS: dict[str, Color] = {
    "roll": (230, 230, 235),
    "yes": (60, 180, 90),
    "no": (210, 60, 60),
    "pass_go": (235, 190, 40),
    "undo": (120, 130, 150),
    "menu": (70, 120, 210),
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



def luminance(color: Color) -> float:
    """The relative luminance of a colour (WCAG 2), 0 to 1."""
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
           for c in (v / 255 for v in color)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: Color, b: Color) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21 (AA wants 4.5 for text).

    >>> round(contrast((0, 0, 0), (255, 255, 255)), 1)
    21.0
    """
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def ink_on(color: Color) -> Color:
    """Black or white, whichever reads better on `color`: at least 4.58:1 on any colour.

    >>> ink_on((254, 242, 0)), ink_on((15, 91, 167))
    ((0, 0, 0), (255, 255, 255))
    """
    black, white = (0, 0, 0), (255, 255, 255)
    return black if contrast(color, black) >= contrast(color, white) else white


def button_ink(button: str) -> Color:
    """The text on an on-screen button in its panel cap's colour."""
    return ink_on(BUTTON_COLORS[button])
