"""The teaching table on the screen: the first time a rule applies in this game, its lesson
in the board's centre ("New rule", two sentences, "Rules: Jail"), for as long as the table
stays at that move (companion.game.telling.teaching gives the lessons in the state JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from companion.game.table.records import Setup
from companion.screen import texts, theme
from companion.screen.painter import Painter
from companion.words import catalog as i18n
from companion.words.explaining.lessons import LessonSaid, say_lesson


def lesson_now(state: Mapping[str, Any]) -> tuple[LessonSaid, str | None] | None:
    """The lesson of the state's move in the screen's language, and whom it concerns."""
    teaching = state.get("teaching")
    if not isinstance(teaching, Mapping):
        return None
    for lesson in teaching.get("lessons") or []:
        lang = texts.language()
        said = say_lesson(lesson, Setup.of(state), lang, i18n.translator(lang))
        if said is not None:
            return said, lesson.get("player")
    return None


def draw_lesson(p: Painter, rect: pygame.Rect, said: LessonSaid, color: theme.Color) -> None:
    """The lesson in `rect`: the badge, the two sentences, where the rule stands."""
    if rect.height <= 0:
        return
    p.fill(rect, theme.PANEL_LIGHT, radius=6)
    p.fill(pygame.Rect(rect.x, rect.y, p.px(4), rect.height), color, radius=2)
    inner = rect.inflate(-p.px(14), -p.px(8))
    sizes = theme.SIZES
    head = pygame.Rect(inner.x, inner.y, inner.width, p.px(sizes["lesson_badge"] + 6))
    p.text(said.badge, head, sizes["lesson_badge"], color, bold=True, align="center")
    foot = pygame.Rect(inner.x, inner.bottom - p.px(sizes["lesson_where"] + 5), inner.width,
                       p.px(sizes["lesson_where"] + 5))
    p.text(said.where, foot, sizes["lesson_where"], theme.TEXT_DIM, align="center",
           min_size=theme.readable(p.scale))
    body = pygame.Rect(inner.x, head.bottom, inner.width, foot.y - head.bottom)
    p.paragraph(said.text, body, sizes["lesson"], theme.TEXT, align="center", max_lines=6,
                min_size=theme.readable(p.scale))
