"""The dice on the screen: how many the table rolls now, the typed (or dialled) entry of the
physical dice, and the die faces, the speed die's bus and Mr. Monopoly included.

With the speed die (the Mega edition, or the `speed_die` rule on any board) a roll is two
white dice and the speed die, whose faces are 1, 2, 3, "bus" and "mr_monopoly"; in jail, and
for a utility's rent, only the white dice are rolled. The entry keeps the white dice and the
speed die apart, so the speed die may be typed before, between or after the white ones.
"""

from __future__ import annotations

import pygame

from companion.screen.painter import Painter
from companion.screen.texts import text

#: typed keys for the speed die's picture faces
SPEED_KEYS: dict[str, str] = {"b": "bus", "m": "mr_monopoly"}

PIPS = {
    1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}
WHITE = (245, 245, 245)
SPEED = (214, 40, 40)  # the speed die is red, its pips and pictures white
INK = (20, 20, 25)


def face_word(value: int | str) -> str:
    """A die face as words: "4", "bus", "Mr. Monopoly"."""
    if value == "bus":
        return text("speed_bus")
    if value == "mr_monopoly":
        return text("speed_mr_monopoly")
    return str(value)


def entry_text(whites: list[int], speed: int | str | None, needed: int) -> str:
    """The dice typed so far, with a question mark for each one still missing: "3 ? bus".

    >>> entry_text([3, 4], None, 3), entry_text([5], None, 2)
    ('3 4 ?', '5 ?')
    """
    shown = [str(w) for w in whites] + ["?"] * max(0, 2 - len(whites))
    if needed > 2:
        shown.append(face_word(speed) if speed is not None else "?")
    return " ".join(shown)


def draw_die(p: Painter, rect: pygame.Rect, value: int | str, speed: bool = False) -> None:
    """One die face: pips, or the speed die's bus or Mr. Monopoly (a top hat) in white on
    red. Pictures are drawn, not written, so no font is needed for them."""
    body = SPEED if speed else WHITE
    ink = WHITE if speed else INK
    p.fill(rect, body, radius=4)
    if value == "bus":
        _bus(rect, p.surface, ink)
        return
    if value == "mr_monopoly":
        _top_hat(rect, p.surface, ink)
        return
    pip = max(2, rect.width // 8)  # pips of a 34 px die: 8 px across
    for col, row in PIPS.get(int(value), []):
        center = (rect.x + rect.width * (1 + 2 * col) // 6,
                  rect.y + rect.height * (1 + 2 * row) // 6)
        pygame.draw.circle(p.surface, ink, center, pip)


def _bus(rect: pygame.Rect, surface: pygame.Surface, ink: tuple[int, int, int]) -> None:
    """A bus seen from the side: body, three windows, two wheels."""
    w, h = rect.width, rect.height
    body = pygame.Rect(rect.x + w // 8, rect.y + h // 4, w * 3 // 4, h * 2 // 5)
    pygame.draw.rect(surface, ink, body, border_radius=max(1, w // 12))
    win_w = max(1, body.width // 5)
    for i in range(3):
        window = pygame.Rect(body.x + win_w // 2 + i * (win_w + win_w // 3),
                             body.y + body.height // 6, win_w, body.height // 3)
        pygame.draw.rect(surface, SPEED, window)
    radius = max(2, w // 10)
    for cx in (body.x + body.width // 4, body.right - body.width // 4):
        pygame.draw.circle(surface, ink, (cx, body.bottom), radius)
        pygame.draw.circle(surface, SPEED, (cx, body.bottom), max(1, radius // 2))


def _top_hat(rect: pygame.Rect, surface: pygame.Surface, ink: tuple[int, int, int]) -> None:
    """Mr. Monopoly's top hat: crown, band and brim."""
    w, h = rect.width, rect.height
    crown = pygame.Rect(rect.x + w * 3 // 10, rect.y + h // 5, w * 2 // 5, h * 9 // 20)
    pygame.draw.rect(surface, ink, crown)
    band = pygame.Rect(crown.x, crown.bottom - max(2, h // 10), crown.width, max(2, h // 12))
    pygame.draw.rect(surface, SPEED, band)
    brim = pygame.Rect(rect.x + w // 6, crown.bottom, w * 2 // 3, max(2, h // 8))
    pygame.draw.rect(surface, ink, brim, border_radius=max(1, h // 16))
