"""Where each panel goes, computed from the window size.

Panels are designed on an 800x480 grid (the official 7" touchscreen) and scaled per axis to
the window, so 1920x1080 keeps the same arrangement; the board map stays square.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

DESIGN_W = 800
DESIGN_H = 480


def scales(size: tuple[int, int]) -> tuple[float, float]:
    """Horizontal and vertical scale from design units to this window's pixels."""
    return size[0] / DESIGN_W, size[1] / DESIGN_H


def _rect(sx: float, sy: float, x: float, y: float, w: float, h: float) -> pygame.Rect:
    left, top = round(x * sx), round(y * sy)
    return pygame.Rect(left, top, round((x + w) * sx) - left, round((y + h) * sy) - top)


def square_in(rect: pygame.Rect) -> pygame.Rect:
    """The largest square centred in `rect`."""
    side = min(rect.width, rect.height)
    square = pygame.Rect(0, 0, side, side)
    square.center = rect.center
    return square


def rows(rect: pygame.Rect, count: int, gap: int = 0) -> list[pygame.Rect]:
    """`rect` cut into `count` equal rows with `gap` pixels between them."""
    if count <= 0:
        return []
    height = (rect.height - gap * (count - 1)) / count
    return [pygame.Rect(rect.x, round(rect.y + i * (height + gap)), rect.width, int(height))
            for i in range(count)]


def columns(rect: pygame.Rect, count: int, gap: int = 0) -> list[pygame.Rect]:
    """`rect` cut into `count` equal columns with `gap` pixels between them."""
    if count <= 0:
        return []
    width = (rect.width - gap * (count - 1)) / count
    return [pygame.Rect(round(rect.x + i * (width + gap)), rect.y, int(width), rect.height)
            for i in range(count)]


@dataclass(frozen=True)
class GameLayout:
    """The game screen: header, players, board map, side column, decision panel, and where a
    notice or a card's question shows while it lasts (`banner`: just above the decision
    panel whose buttons answer it, growing upward, so the whose-turn header stays in
    sight)."""

    header: pygame.Rect
    players: pygame.Rect
    board: pygame.Rect
    log: pygame.Rect
    remote: pygame.Rect
    prompt: pygame.Rect
    prompt_title: pygame.Rect
    prompt_detail: pygame.Rect
    buttons: pygame.Rect
    banner: pygame.Rect

    @classmethod
    def for_size(cls, size: tuple[int, int]) -> GameLayout:
        """The layout for a window of `size` pixels."""
        sx, sy = scales(size)

        def r(x: float, y: float, w: float, h: float) -> pygame.Rect:
            return _rect(sx, sy, x, y, w, h)

        return cls(
            header=r(0, 0, 800, 40),
            players=r(6, 46, 286, 306),
            board=square_in(r(298, 46, 306, 306)),
            log=r(610, 46, 184, 186),
            remote=r(610, 238, 184, 114),
            prompt=r(6, 358, 788, 116),
            prompt_title=r(16, 361, 768, 34),
            prompt_detail=r(16, 395, 768, 22),
            buttons=r(12, 420, 776, 50),
            banner=r(6, 316, 788, 38),
        )


@dataclass(frozen=True)
class GameOverLayout:
    """The game-over screen: title, standings, net-worth chart."""

    header: pygame.Rect
    standings: pygame.Rect
    chart: pygame.Rect
    buttons: pygame.Rect

    @classmethod
    def for_size(cls, size: tuple[int, int]) -> GameOverLayout:
        """The layout for a window of `size` pixels."""
        sx, sy = scales(size)
        return cls(
            header=_rect(sx, sy, 0, 0, 800, 56),
            standings=_rect(sx, sy, 10, 64, 300, 346),
            chart=_rect(sx, sy, 320, 64, 470, 346),
            buttons=_rect(sx, sy, 12, 420, 776, 50),
        )


@dataclass(frozen=True)
class SetupLayout:
    """The setup screen: title, form rows, remote corner, buttons."""

    header: pygame.Rect
    form: pygame.Rect
    remote: pygame.Rect
    hint: pygame.Rect
    buttons: pygame.Rect

    @classmethod
    def for_size(cls, size: tuple[int, int]) -> SetupLayout:
        """The layout for a window of `size` pixels."""
        sx, sy = scales(size)
        return cls(
            header=_rect(sx, sy, 0, 0, 800, 40),
            form=_rect(sx, sy, 10, 46, 590, 346),
            remote=_rect(sx, sy, 610, 46, 184, 346),
            hint=_rect(sx, sy, 10, 396, 780, 22),
            buttons=_rect(sx, sy, 12, 420, 776, 50),
        )
