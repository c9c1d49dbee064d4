"""The game-over screen: the winner, standings by net worth and a net-worth-over-time chart."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from companion.screen import theme
from companion.screen.layout import GameOverLayout, rows
from companion.screen.money import money
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import UiState
from companion.screen.views.endgame.story import draw_story, story_series


def standings(state: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Players best first: the winner, then by net worth; the bankrupt last.

    >>> [p["name"] for p in standings({"winner": "Bo", "players": [
    ...     {"name": "Ann", "net_worth": 900}, {"name": "Bo", "net_worth": 800},
    ...     {"name": "Cy", "net_worth": 0, "bankrupt": True}]})]
    ['Bo', 'Ann', 'Cy']
    """
    winner = state.get("winner")
    return sorted(state.get("players") or [],
                  key=lambda p: (p.get("name") != winner, bool(p.get("bankrupt")),
                                 -int(p.get("net_worth", 0))))


def draw_game_over(p: Painter, state: Mapping[str, Any], ui: UiState,
                   colors: dict[str, theme.Color]) -> GameOverLayout:
    """Everything but the buttons (drawn by the caller with the prompt's actions)."""
    layout = GameOverLayout.for_size(p.surface.get_size())
    p.fill(layout.header, theme.PANEL)
    winner = state.get("winner")
    head = layout.header.inflate(-p.px(20), -p.px(8))
    p.text(f"{text('prompt_game_over')} · {text('prompt_winner', player=winner)}", head, 28,
           colors.get(str(winner), theme.ACCENT), bold=True, align="center")
    _draw_standings(p, layout.standings, state, colors)
    chart = layout.chart
    if ui.story:  # the game's story under the chart, and the chart by turn
        gap = p.px(8)
        told = pygame.Rect(chart.x, chart.y + chart.height * 58 // 100 + gap, chart.width,
                           chart.height * 42 // 100 - gap)
        chart = pygame.Rect(chart.x, chart.y, chart.width, chart.height * 58 // 100)
        draw_story(p, told, ui.story, state, ui)
    _draw_chart(p, chart, state, ui, colors)
    return layout


def _draw_standings(p: Painter, rect: pygame.Rect, state: Mapping[str, Any],
                    colors: dict[str, theme.Color]) -> None:
    p.fill(rect, theme.PANEL, radius=8)
    inner = rect.inflate(-p.px(16), -p.px(12))
    lines = rows(inner, 9, p.px(3))
    p.text(text("standings"), lines[0], 18, theme.TEXT_DIM, bold=True)
    currency = state.get("currency")
    for place, (line, player) in enumerate(zip(lines[1:], standings(state), strict=False), 1):
        name = str(player.get("name"))
        color = colors.get(name, theme.TEXT)
        num = pygame.Rect(line.x, line.y, line.width * 12 // 100, line.height)
        who = pygame.Rect(num.right, line.y, line.width * 43 // 100, line.height)
        worth = pygame.Rect(who.right, line.y, line.right - who.right, line.height)
        p.text(text("place", place=place), num, 18, theme.TEXT_DIM, bold=True)
        p.text(name, who, 18, color, bold=True)
        value = text("bankrupt") if player.get("bankrupt") else money(
            int(player.get("net_worth", 0)), currency)
        p.text(value, worth, 18, theme.TEXT_DIM if player.get("bankrupt") else theme.TEXT,
               align="right")


def _series(state: Mapping[str, Any], ui: UiState) -> list[dict[str, int]]:
    """The samples to chart: those recorded during the game, ending with the final state."""
    final = {str(p.get("name")): int(p.get("net_worth", 0)) for p in state.get("players") or []}
    samples = story_series(ui.story) or list(ui.networth)
    if not samples or samples[-1] != final:
        samples.append(final)
    if len(samples) == 1:
        samples.insert(0, final)
    return samples


def _draw_chart(p: Painter, rect: pygame.Rect, state: Mapping[str, Any], ui: UiState,
                colors: dict[str, theme.Color]) -> None:
    p.fill(rect, theme.PANEL, radius=8)
    inner = rect.inflate(-p.px(16), -p.px(12))
    title = pygame.Rect(inner.x, inner.y, inner.width, p.px(24))
    p.text(text("chart_title"), title, 16, theme.TEXT_DIM, bold=True)
    samples = _series(state, ui)
    top_value = max([v for s in samples for v in s.values()] + [1])
    label_w = inner.width // 5
    plot = pygame.Rect(inner.x + label_w, title.bottom + p.px(8), inner.width - label_w,
                       inner.bottom - title.bottom - p.px(16))
    pygame.draw.line(p.surface, theme.TEXT_DIM, plot.bottomleft, plot.bottomright, 1)
    pygame.draw.line(p.surface, theme.TEXT_DIM, plot.bottomleft, plot.topleft, 1)
    currency = state.get("currency")
    label_h = p.px(16)
    p.text(money(top_value, currency), pygame.Rect(inner.x, plot.y, label_w - p.px(6), label_h),
           11, theme.TEXT_DIM, align="right", min_size=7)
    p.text(money(0, currency),
           pygame.Rect(inner.x, plot.bottom - label_h, label_w - p.px(6), label_h), 11,
           theme.TEXT_DIM, align="right", min_size=7)
    steps = max(1, len(samples) - 1)
    for name, color in colors.items():
        points = [(plot.x + plot.width * i // steps,
                   plot.bottom - plot.height * max(0, s.get(name, 0)) // top_value)
                  for i, s in enumerate(samples)]
        pygame.draw.lines(p.surface, color, False, points, max(2, p.px(2.5)))
