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
    return out
