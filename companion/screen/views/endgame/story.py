"""The game's story on the table screen at game over: a few lines under the chart (time
played, the property that earned most rent, the square landed on most, the biggest trade,
how many auctions), from the session's story (companion.game.telling.story), and its net worth at
the start of every turn for the chart."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from companion.screen import theme
from companion.screen.money import money
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import UiState
from companion.screen.views.prompt import square_name


def story_series(story: Mapping[str, Any] | None) -> list[dict[str, int]]:
    """Every player's net worth at the start of each turn (and at the end), or [] without
    a story.

    >>> story_series({"players": ["Ann", "Bo"], "worth": [{"turn": 1, "worth": [5, 6]}]})
    [{'Ann': 5, 'Bo': 6}]
    """
    if not story:
        return []
    names = list(story.get("players") or [])
    return [dict(zip(names, point.get("worth") or [], strict=False))
            for point in story.get("worth") or []]


def story_lines(story: Mapping[str, Any] | None, state: Mapping[str, Any],
                ui: UiState) -> list[str]:
    """The story's lines in the screen's language (only those the game has)."""
    if not story:
        return []
    cur = state.get("currency")
    seconds = int(story.get("seconds") or 0)
    lines = [text("story_time", time=f"{seconds // 3600}:{seconds % 3600 // 60:02d}",
                  turns=int(story.get("turns") or 0))]
    rent = story.get("rent_by_square") or []
    if rent:
        top = rent[0]
        lines.append(text("story_rent", square=square_name(state, ui, top["square"]),
                          amount=money(int(top["amount"]), cur), player=top.get("owner")))
    landed = story.get("landed") or []
    if landed:
        lines.append(text("story_landed", square=square_name(state, ui, landed[0]["square"]),
                          count=int(landed[0]["count"])))
    trade = story.get("biggest_trade")
    if trade:
        lines.append(text("story_trade", giver=trade["giver"], receiver=trade["receiver"],
                          amount=money(int(trade["value"]), cur)))
    if story.get("auctions"):
        lines.append(text("story_auctions", count=len(story["auctions"])))
    return lines


def draw_story(p: Painter, rect: pygame.Rect, story: Mapping[str, Any] | None,
               state: Mapping[str, Any], ui: UiState) -> None:
    """The story's lines in a panel."""
    p.fill(rect, theme.PANEL, radius=8)
    inner = rect.inflate(-p.px(16), -p.px(10))
    lines = story_lines(story, state, ui)
    if not lines:
        return
    height = inner.height // max(len(lines), 1)
    for i, line in enumerate(lines):
        slot = pygame.Rect(inner.x, inner.y + i * height, inner.width, height)
        p.text(line, slot, 15, theme.TEXT if i else theme.TEXT_DIM, min_size=9)
