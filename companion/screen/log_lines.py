"""Engine events as short lines for the recent-moves panel."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.screen.board_map import player_colors
from companion.screen.money import money
from companion.screen.prompt import square_name
from companion.screen.texts import text
from companion.screen.ui_state import LogLine, UiState


def log_lines(events: Iterable[Mapping[str, Any]], state: Mapping[str, Any],
              ui: UiState) -> list[LogLine]:
    """One line per event worth showing (money moves, purchases, jail, bankruptcy).

    >>> from companion.screen.texts import use_language
    >>> from companion.screen.ui_state import UiState
    >>> use_language("en")
    'en'
    >>> state = {"players": [{"name": "Ann"}], "currency": {"pattern": "€ {amount}"}}
    >>> [l.text for l in log_lines([{"kind": "transfer", "from": "Ann", "to": None,
    ...                              "amount": 200, "reason": "tax"}], state, UiState())]
    ['Ann → Bank €\xa0200']
    """
    colors = player_colors(state, ui)
    currency = state.get("currency")
    out: list[LogLine] = []
    for event in events:
        kind = event.get("kind")
        who = event.get("player")
        color = colors.get(str(who)) if who else None
        if kind == "transfer":
            payer = event.get("from") or text("bank")
            payee = event.get("to") or text("bank")
            line = text("log_transfer", payer=payer, payee=payee,
                        amount=money(int(event.get("amount", 0)), currency))
            out.append(LogLine(line, colors.get(str(event.get("from")))))
        elif kind == "bought":
            out.append(LogLine(text("log_bought", player=who,
                                    square=square_name(state, ui, event.get("square"))), color))
        elif kind == "jailed":
            out.append(LogLine(text("log_jailed", player=who), color))
        elif kind == "bankrupt":
            out.append(LogLine(text("log_bankrupt", player=who), color))
        elif kind == "auction_closed" and event.get("winner") and event.get("square") is not None:
            out.append(LogLine(text("log_auction_won", player=event["winner"],
                                    square=square_name(state, ui, event.get("square")),
                                    amount=money(int(event.get("amount", 0)), currency)),
                               colors.get(str(event["winner"]))))
        else:
            mega = _mega_line(event, state, ui)
            if mega:
                out.append(LogLine(mega, color))
    return out


#: Mega events told by the player's name alone
_PLAYER_LINES = {"triple": "log_triple", "mr_monopoly": "log_mr_monopoly",
                 "mr_monopoly_stays": "log_mr_monopoly_stays", "bus_ticket": "log_bus_ticket",
                 "no_bus_ticket": "log_no_bus_ticket", "rebalanced": "log_rebalanced",
                 "auction_square_stays": "log_auction_square_stays"}


def _mega_line(event: Mapping[str, Any], state: Mapping[str, Any], ui: UiState) -> str | None:
    """The line for a speed die, bus ticket, square choice or building event, or None."""
    kind = str(event.get("kind"))
    who = event.get("player")
    if kind in _PLAYER_LINES:
        return text(_PLAYER_LINES[kind], player=who)
    if kind == "bus_tickets_expired":
        return text("log_tickets_expired")
    square = square_name(state, ui, event.get("square"))
    if kind == "bus_ticket_used":
        return text("log_bus_ticket_used", player=who, square=square)
    if kind == "chose_square":
        key = "log_chose_auction" if event.get("for") == "auction" else "log_chose_square"
        return text(key, player=who, square=square)
    if kind in ("built", "sold_building"):
        building = text("building_" + building_of(event, state))
        key = "log_built" if kind == "built" else "log_sold_building"
        return text(key, player=who, building=building, square=square)
    return None


def building_of(event: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """Which building a `built` or `sold_building` event is about, from its level (houses
    up to the rule's count, then a hotel, then a skyscraper) or its "building" (depot).

    >>> building_of({"kind": "built", "level": 5}, {"options": {"houses_before_hotel": 4}})
    'hotel'
    >>> building_of({"kind": "sold_building", "level": 5}, {"options": {}})
    'skyscraper'
    >>> building_of({"kind": "built", "building": "depot"}, {})
    'depot'
    """
    if event.get("building") == "depot":
        return "depot"
    hotel = int((state.get("options") or {}).get("houses_before_hotel", 4)) + 1
    level = int(event.get("level") or 0)
    if event.get("kind") == "sold_building":
        level += 1  # the level after the sale: what was sold stood one above it
    if level > hotel:
        return "skyscraper"
    return "hotel" if level == hotel else "house"
