"""The game-over screen: the winner, standings by net worth and a net-worth-over-time chart."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from companion.game.table.records import Seat
from companion.game.table.view import TableView
from companion.screen import theme
from companion.screen.layout import GameOverLayout, rows
from companion.screen.money import money
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import UiState
from companion.screen.views.endgame.story import draw_story
from companion.screen.views.prompt import table_of


def standings(table: TableView) -> list[Seat]:
    """Players best first: the winner, then by net worth; the bankrupt last.

    >>> from companion.game.table.view import build
    >>> [p.name for p in standings(build({"winner": "Bo", "players": [
    ...     {"name": "Ann", "net_worth": 900}, {"name": "Bo", "net_worth": 800},
    ...     {"name": "Cy", "net_worth": 0, "bankrupt": True}]}))]
    ['Bo', 'Ann', 'Cy']
    """
    winner = table.winner
    return sorted(table.players, key=lambda p: (p.name != winner, p.bankrupt, -p.net_worth))


def draw_game_over(p: Painter, state: Mapping[str, Any], ui: UiState,
                   colors: dict[str, theme.Color]) -> GameOverLayout:
    """Everything but the buttons (drawn by the caller with the prompt's actions)."""
    layout = GameOverLayout.for_size(p.surface.get_size())
    p.fill(layout.header, theme.PANEL)
    table = table_of(state, ui)
    winner = table.winner
    head = layout.header.inflate(-p.px(20), -p.px(8))
    p.text(f"{text('prompt_game_over')} · {text('prompt_winner', player=winner)}", head, 28,
           colors.get(str(winner), theme.ACCENT), bold=True, align="center")
    _draw_standings(p, layout.standings, table, colors)
    chart = layout.chart
    if ui.story:  # the game's story under the chart, and the chart by turn
        gap = p.px(8)
        told = pygame.Rect(chart.x, chart.y + chart.height * 58 // 100 + gap, chart.width,
                           chart.height * 42 // 100 - gap)
        chart = pygame.Rect(chart.x, chart.y, chart.width, chart.height * 58 // 100)
        draw_story(p, told, ui.story, state, ui)
    _draw_chart(p, chart, table, ui, colors)
    return layout


def _draw_standings(p: Painter, rect: pygame.Rect, table: TableView,
                    colors: dict[str, theme.Color]) -> None:
    p.fill(rect, theme.PANEL, radius=8)
    inner = rect.inflate(-p.px(16), -p.px(12))
    lines = rows(inner, 9, p.px(3))
    floor = theme.readable(p.scale)
    p.text(text("standings"), lines[0], 18, theme.TEXT_DIM, bold=True, min_size=floor)
    currency = table.setup.currency
    for place, (line, player) in enumerate(zip(lines[1:], standings(table), strict=False), 1):
        name = player.name
        color = colors.get(name, theme.TEXT)
        value = text("bankrupt") if player.bankrupt else money(player.net_worth, currency)
        # the worth whole on the right, the name in what is left (a long one ellipsised)
        width = min(p.measure(value, round(18 * p.scale))[0], line.width // 2)
        num = pygame.Rect(line.x, line.y, line.width * 11 // 100, line.height)
        worth = pygame.Rect(line.right - width, line.y, width, line.height)
        who = pygame.Rect(num.right, line.y, worth.x - p.px(8) - num.right, line.height)
        p.text(text("place", place=place), num, 18, theme.TEXT_DIM, bold=True, min_size=floor)
        p.text(name, who, 18, color, bold=True, min_size=floor)
        p.text(value, worth, 18, theme.TEXT_DIM if player.bankrupt else theme.TEXT,
               align="right", min_size=floor)


def _series(table: TableView, ui: UiState) -> list[dict[str, int]]:
    """The samples to chart: those recorded during the game, ending with the final state."""
    final = {p.name: p.net_worth for p in table.players}
    samples = (ui.story.series() if ui.story is not None else []) or list(ui.networth)
    if not samples or samples[-1] != final:
        samples.append(final)
    if len(samples) == 1:
        samples.insert(0, final)
    return samples


def _draw_chart(p: Painter, rect: pygame.Rect, table: TableView, ui: UiState,
                colors: dict[str, theme.Color]) -> None:
    p.fill(rect, theme.PANEL, radius=8)
    inner = rect.inflate(-p.px(16), -p.px(12))
    title = pygame.Rect(inner.x, inner.y, inner.width, p.px(24))
    floor = theme.readable(p.scale)
    p.text(text("chart_title"), title, 16, theme.TEXT_DIM, bold=True, min_size=floor)
    samples = _series(table, ui)
    top_value = max([v for s in samples for v in s.values()] + [1])
    currency = table.setup.currency
    label_w = min(p.measure(money(top_value, currency), round(16 * p.scale))[0] + p.px(8),
                  inner.width * 2 // 5)
    plot = pygame.Rect(inner.x + label_w, title.bottom + p.px(8), inner.width - label_w,
                       inner.bottom - title.bottom - p.px(16))
    pygame.draw.line(p.surface, theme.TEXT_DIM, plot.bottomleft, plot.bottomright, 1)
    pygame.draw.line(p.surface, theme.TEXT_DIM, plot.bottomleft, plot.topleft, 1)
    label_h = p.px(20)
    p.text(money(top_value, currency), pygame.Rect(inner.x, plot.y, label_w - p.px(6), label_h),
           16, theme.TEXT_DIM, align="right", min_size=floor)
    p.text(money(0, currency),
           pygame.Rect(inner.x, plot.bottom - label_h, label_w - p.px(6), label_h), 16,
           theme.TEXT_DIM, align="right", min_size=floor)
    steps = max(1, len(samples) - 1)
    for name, color in colors.items():
        points = [(plot.x + plot.width * i // steps,
                   plot.bottom - plot.height * max(0, s.get(name, 0)) // top_value)
                  for i, s in enumerate(samples)]
        pygame.draw.lines(p.surface, color, False, points, max(2, p.px(2.5)))
