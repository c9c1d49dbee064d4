"""The game's story on the table screen at game over: a few lines under the chart (time
played, the property that earned most rent, the square landed on most, the biggest trade,
how many auctions), from the session's story read as its typed record
(companion.game.telling.story.Story, whose `series()` the game-over chart draws by turn)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from companion.game.telling.story import Story
from companion.screen import theme
from companion.screen.money import money
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import UiState
from companion.screen.views.prompt import square_name, table_of


def story_lines(story: Story | None, state: Mapping[str, Any], ui: UiState) -> list[str]:
    """The story's lines in the screen's language (only those the game has)."""
    if story is None:
        return []
    cur = table_of(state, ui).setup.currency
    lines = [text("story_time", time=story.clock, turns=story.turns)]
    if story.rent_by_square:
        top = story.rent_by_square[0]
        lines.append(text("story_rent", square=square_name(state, ui, top.square),
                          amount=money(top.amount, cur), player=top.owner))
    if story.landed:
        lines.append(text("story_landed", square=square_name(state, ui, story.landed[0].square),
                          count=story.landed[0].count))
    trade = story.biggest_trade
    if trade:
        lines.append(text("story_trade", giver=trade.giver, receiver=trade.receiver,
                          amount=money(trade.value, cur)))
    if story.auctions:
        lines.append(text("story_auctions", count=len(story.auctions)))
    return lines


def draw_story(p: Painter, rect: pygame.Rect, story: Story | None,
               state: Mapping[str, Any], ui: UiState) -> None:
    """The story's lines in a panel, at the readable size or larger: a long fact wraps onto
    a second line, and the facts that no longer fit (the last, least telling) are left out
    rather than shrunk (the phones' story page has them all)."""
    p.fill(rect, theme.PANEL, radius=8)
    inner = rect.inflate(-p.px(16), -p.px(10))
    floor = theme.readable(p.scale)
    size = max(floor, 15)
    told = []
    used = 0
    for line in story_lines(story, state, ui):
        count, line_h = p.wrapped(line, inner.width, size)
        if count > 2 or used + count * line_h > inner.height:
            break
        told.append((line, count * line_h))
        used += count * line_h
    if not told:
        return
    # the room left over between the facts (up to half a line each), the rest above and below
    gap = min((inner.height - used) // (len(told) + 1), told[0][1] // 2)
    y = inner.y + (inner.height - used - gap * (len(told) - 1)) // 2
    for i, (line, high) in enumerate(told):
        p.paragraph(line, pygame.Rect(inner.x, y, inner.width, high), size,
                    theme.TEXT if i else theme.TEXT_DIM, max_lines=2, min_size=size)
        y += high + gap
