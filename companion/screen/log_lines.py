"""Engine events as short lines for the recent-moves panel.

The words are companion.words.move_words' (`event_line`), shared with the phone remote's list of
the latest moves; the screen says them in its own language, names squares as its board
does and colours each line by the player it is about.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.screen import texts
from companion.screen.ui_state import LogLine, UiState
from companion.screen.views.board_map import player_colors
from companion.screen.views.prompt import square_name
from companion.words import catalog as i18n
from companion.words.move_words import Words, event_line

#: the events the panel shows (money moves, purchases, jail, bankruptcy, Mega's moves)
SHOWN = frozenset({
    "transfer", "bought", "jailed", "bankrupt", "auction_closed", "triple", "mr_monopoly",
    "mr_monopoly_stays", "bus_ticket", "no_bus_ticket", "rebalanced", "auction_square_stays",
    "bus_tickets_expired", "bus_ticket_used", "chose_square", "built", "sold_building",
})


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
    lang = texts.language()
    words = Words(state, lang, i18n.translator(lang),
                  square_name=lambda index: square_name(state, ui, index))
    out: list[LogLine] = []
    for event in events:
        kind = event.get("kind")
        if kind not in SHOWN or (kind == "auction_closed" and event.get("square") is None):
            continue
        line = event_line(event, words)
        if not line:
            continue
        who = event.get("player")
        if kind == "transfer":
            who = event.get("from")
        elif kind == "auction_closed":
            who = event.get("winner")
        out.append(LogLine(line, colors.get(str(who)) if who else None))
    return out
