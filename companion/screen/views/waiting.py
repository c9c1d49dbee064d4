"""Decisions that belong to a named player other than the one whose turn it is: a trade
offered to them, their bid or pass in an auction, their debt.

The table's shared YES / NO never takes these (companion.screen.views.prompt acts only for
the current player): the player answers on their phone or with a tap of their bank card,
and the screen says whom it waits for, in the board's centre, while the current player
plays on. Who is asked what, and the open offers, are the session's view of the table
(companion.game.table.view, in `ui.table`): the offers lapse with the session's writer (at
the turn's end, at a new game, when overtaken); the screen shows the newest per receiver.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pygame

from companion.screen import theme
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import UiState
from companion.screen.views.prompt import offer_text

JSON = dict[str, Any]
AUCTIONS = ("auction", "building_auction")


@dataclass(frozen=True)
class Waiting:
    """One decision the table waits for from someone else: what it is and how to answer."""

    line: str  # "Waiting for Cleo: accept on your phone or tap your card"
    title: str = ""  # "Ann offers Cleo a trade"
    detail: str = ""  # "Ann gives € 200 · Cleo gives Rue Lecourbe"
    player: str | None = None  # whose decision it is (their colour), None: several


def waiting_for(state: Mapping[str, Any], ui: UiState) -> list[Waiting]:
    """What the table waits for from players other than the current one, as the session's
    view of the table says (`ui.table`), in the screen's language: a decision of theirs on
    the table (a debt), the auction's other bidders, then each receiver of a trade offer
    (the newest offer to them)."""
    view = ui.table
    if view is None:
        return []
    out: list[Waiting] = []
    decider = view.waiting_on
    if decider is not None and decider != ui.card_holder:
        debt = any(a.what == "debt" for a in view.asked_of(decider))
        out.append(Waiting(text("waiting_debt" if debt else "own_input", player=decider),
                           player=decider))
    bidders = [a.player for a in view.asked if a.what in AUCTIONS and a.player != view.current]
    if bidders:
        out.append(Waiting(text("waiting_bid", players=", ".join(bidders)),
                           player=bidders[0] if len(bidders) == 1 else None))
    put = [o for a in view.asked if a.what == "offer" and (o := view.offer(a.offer)) is not None]
    for trade in sorted(put, key=lambda o: o.created, reverse=True):
        # one line per receiver, the offer put to them: "Waiting for Cleo"
        sender, receiver = trade.sender, trade.receiver
        detail = " · ".join(
            text("prompt_trade_gives", player=who, items=offer_text(state, ui, goods))
            for who, goods in ((sender, trade.give), (receiver, trade.take)))
        out.append(Waiting(text("waiting_trade", player=receiver),
                           text("prompt_trade", sender=sender, receiver=receiver), detail,
                           receiver))
    return out


def draw_waiting(p: Painter, rect: pygame.Rect, waiting: list[Waiting],
                 colors: Mapping[str, theme.Color]) -> None:
    """The waiting notes stacked in `rect` (the board's centre): the offer (and its title
    when there is room) over the line saying whom the table waits for in bold, all at
    theme.READABLE or larger."""
    if not waiting or rect.height <= 0:
        return
    shown = waiting[:2]
    gap = p.px(4)
    height = (rect.height - gap * (len(shown) - 1)) // len(shown)
    for i, item in enumerate(shown):
        box = pygame.Rect(rect.x, rect.y + i * (height + gap), rect.width, height)
        color = colors.get(str(item.player), theme.ACCENT)
        p.fill(box, theme.PANEL_LIGHT, radius=6)
        p.fill(pygame.Rect(box.x, box.y, p.px(4), box.height), color, radius=2)
        inner = box.inflate(-p.px(12), -p.px(6))
        inner.x += p.px(2)
        roomy = len(shown) == 1 and item.title and inner.height >= p.px(120)
        if roomy:
            inner = _trade_notes(p, inner, item)
        p.paragraph(item.line, inner, theme.SIZES["waiting_line"], color, bold=True,
                    align="center", max_lines=4, min_size=theme.readable(p.scale))


def _trade_notes(p: Painter, inner: pygame.Rect, item: Waiting) -> pygame.Rect:
    """A lone trade's title and details above its waiting line, as much as `inner` holds
    without cutting the details short: the line whom the table waits for keeps its room,
    the details come whole, the title only when it fits too (the details name both
    players already). Returns the room left for the line."""
    size_title, size_detail = theme.SIZES["waiting_title"], theme.SIZES["waiting_detail"]
    count, line_h = p.wrapped(item.line, inner.width, theme.SIZES["waiting_line"], bold=True)
    needs_line = min(4, count) * line_h
    count, title_h = p.wrapped(item.title, inner.width, size_title, bold=True)
    title_needs = min(3, count) * title_h
    count, detail_h = p.wrapped(item.detail, inner.width, size_detail) if item.detail \
        else (0, 1)
    detail_needs = count * detail_h
    if title_needs + detail_needs + needs_line > inner.height:
        title_needs = 0  # the details and whom the table waits for come first
    title = pygame.Rect(inner.x, inner.y, inner.width, title_needs)
    if title_needs:
        p.paragraph(item.title, title, size_title, theme.TEXT, bold=True, align="center",
                    max_lines=3, min_size=theme.readable(p.scale))
    room = max(0, inner.bottom - title.bottom - needs_line)
    lines = min(count, room // detail_h)
    detail = pygame.Rect(inner.x, title.bottom, inner.width, lines * detail_h)
    if lines:
        p.paragraph(item.detail, detail, size_detail, theme.TEXT_DIM, align="center",
                    max_lines=lines, min_size=theme.readable(p.scale))
    return pygame.Rect(inner.x, detail.bottom, inner.width, inner.bottom - detail.bottom)
