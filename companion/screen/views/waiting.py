"""Decisions that belong to a named player other than the one whose turn it is: a trade
offered to them, their bid or pass in an auction, their debt.

The table's shared YES / NO never takes these (companion.screen.views.prompt acts only for
the current player): the player answers on their phone or with a tap of their bank card,
and the screen says whom it waits for, in the board's centre, while the current player
plays on. A trade offer reaches the screen from the phone remote (Controller.post_trade);
the screen keeps it in `ui.trades` until the trade is done, overtaken (a deed changed
hands, a player went out) or the turn ends. The phones keep their own list of offers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pygame

from companion.game.authority import waiting_on
from companion.screen import theme
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import UiState
from companion.screen.views.prompt import offer_text

JSON = dict[str, Any]
AUCTIONS = ("auction", "building_auction")
#: trade offers the screen keeps in mind at once (the newest)
MAX_TRADES = 4


@dataclass(frozen=True)
class Waiting:
    """One decision the table waits for from someone else: what it is and how to answer."""

    line: str  # "Waiting for Cleo: accept on your phone or tap your card"
    title: str = ""  # "Ann offers Cleo a trade"
    detail: str = ""  # "Ann gives € 200 · Cleo gives Rue Lecourbe"
    player: str | None = None  # whose decision it is (their colour), None: several


def add_trade(trades: list[JSON], proposal: Mapping[str, Any]) -> list[JSON]:
    """The offers after a new one from the phones (the same id replaces the old one); an
    offer without both names changes nothing.

    >>> add_trade([], {"id": "a", "from": "Ann", "to": "Cleo", "give": {"cash": 50}})[0]["to"]
    'Cleo'
    >>> add_trade([], {"id": "b", "from": "Ann"})
    []
    """
    sender, receiver = proposal.get("from"), proposal.get("to")
    if not isinstance(sender, str) or not isinstance(receiver, str) or sender == receiver:
        return list(trades)
    offer = {"id": proposal.get("id"), "from": sender, "to": receiver,
             "give": dict(proposal.get("give") or {}), "take": dict(proposal.get("take") or {})}
    kept = [t for t in trades if offer["id"] is None or t.get("id") != offer["id"]]
    return (kept + [offer])[-MAX_TRADES:]


def _turn_number(state: Mapping[str, Any] | None) -> Any:
    return ((state or {}).get("turn") or {}).get("number")


def keep_trades(trades: list[JSON], old: Mapping[str, Any] | None, state: Mapping[str, Any],
                events: Iterable[Mapping[str, Any]]) -> list[JSON]:
    """The offers still open after an update: not done (a "traded" event between the two),
    not overtaken (both players still in, every deed still with whoever offered it), and
    the same game and turn as before (the screen stops waiting when the turn ends)."""
    events = list(events)
    if not trades or old is None or _turn_number(old) != _turn_number(state) \
            or old.get("edition") != state.get("edition") \
            or any(e.get("kind") == "game_started" for e in events):
        return []
    done = {(e.get("from"), e.get("to")) for e in events if e.get("kind") == "traded"}
    active = {p.get("name") for p in state.get("players") or [] if not p.get("bankrupt")}
    owner = {sq.get("index"): sq.get("owner") for sq in state.get("squares") or []}

    def still_open(t: Mapping[str, Any]) -> bool:
        sender, receiver = t.get("from"), t.get("to")
        return (sender in active and receiver in active and (sender, receiver) not in done
                and all(owner.get(s) == sender for s in (t.get("give") or {}).get("squares")
                        or [])
                and all(owner.get(s) == receiver for s in (t.get("take") or {}).get("squares")
                        or []))

    return [t for t in trades if still_open(t)]


def other_bidders(state: Mapping[str, Any]) -> list[str]:
    """Who besides the current player may still bid or pass in the auction on the table
    (the highest bidder is not waited for), in seat order.

    >>> other_bidders({"current": "Ann", "pending": {"kind": "auction", "bidder": "Bo"},
    ...                "legal": [{"do": "bid", "by": "Ann"}, {"do": "bid", "by": "Bo"},
    ...                          {"do": "pass", "by": "Cy"}, {"do": "close_auction"}]})
    ['Cy']
    """
    pending = state.get("pending") or {}
    if pending.get("kind") not in AUCTIONS:
        return []
    skip = {state.get("current"), pending.get("bidder")}
    names: list[str] = []
    for entry in state.get("legal") or []:
        by = entry.get("by")
        if entry.get("do") in ("bid", "pass") and by not in skip and by not in names:
            names.append(str(by))
    return names


def waiting_for(state: Mapping[str, Any], ui: UiState) -> list[Waiting]:
    """What the table waits for from players other than the current one, in the screen's
    language: a decision of theirs on the table (a debt), the auction's other bidders, then
    each receiver of a trade offer (the newest offer to them)."""
    out: list[Waiting] = []
    decider = waiting_on(state)
    if decider is not None and decider != ui.card_holder:
        debt = (state.get("pending") or {}).get("kind") == "debt"
        out.append(Waiting(text("waiting_debt" if debt else "own_input", player=decider),
                           player=decider))
    bidders = other_bidders(state)
    if bidders:
        out.append(Waiting(text("waiting_bid", players=", ".join(bidders)),
                           player=bidders[0] if len(bidders) == 1 else None))
    for trade in reversed(ui.trades):
        sender, receiver = trade["from"], trade["to"]
        if any(w.player == receiver and w.title for w in out):
            continue  # one line per receiver: "Waiting for Cleo" says it for every offer
        detail = " · ".join(
            text("prompt_trade_gives", player=who, items=offer_text(state, ui, offer or {}))
            for who, offer in ((sender, trade.get("give")), (receiver, trade.get("take"))))
        out.append(Waiting(text("waiting_trade", player=receiver),
                           text("prompt_trade", sender=sender, receiver=receiver), detail,
                           receiver))
    return out


def draw_waiting(p: Painter, rect: pygame.Rect, waiting: list[Waiting],
                 colors: Mapping[str, theme.Color]) -> None:
    """The waiting notes stacked in `rect` (the board's centre): a title and the offer in
    small type when there is room, the line saying whom the table waits for in bold."""
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
            count, line_h = p.wrapped(item.title, inner.width, theme.SIZES["waiting_title"],
                                      bold=True)
            title = pygame.Rect(inner.x, inner.y, inner.width, min(3, count) * line_h)
            p.paragraph(item.title, title, theme.SIZES["waiting_title"], theme.TEXT, bold=True,
                        align="center", max_lines=3, min_size=theme.readable(p.scale))
            count, line_h = p.wrapped(item.detail, inner.width, theme.SIZES["waiting_detail"])
            detail = pygame.Rect(inner.x, title.bottom, inner.width,
                                 min(4, count) * line_h if item.detail else 0)
            p.paragraph(item.detail, detail, theme.SIZES["waiting_detail"], theme.TEXT_DIM,
                        align="center", max_lines=4,
                        min_size=theme.readable(p.scale, secondary=True))
            inner = pygame.Rect(inner.x, detail.bottom, inner.width, inner.bottom - detail.bottom)
        p.paragraph(item.line, inner, theme.SIZES["waiting_line"], color, bold=True,
                    align="center", max_lines=4, min_size=theme.readable(p.scale))
