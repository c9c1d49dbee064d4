"""What is news on the table: the last card drawn is shown while its effect plays out, not
for the rest of the game.

A card becomes news when it is drawn. It stays news while the commands that follow answer
the decisions it led to (buy the square it sent the token to, the auction, the debt, the
next card); the next command that answers nothing (end the turn, roll, build...) or a new
turn ends it. The screen shows the card's text only while `ui.card_news` names the state's
`last_card`, so an undo that takes the card back also takes the text away.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def card_news(news: str | None, before: Mapping[str, Any] | None, events: Iterable[Mapping[str,
              Any]], after: Mapping[str, Any]) -> str | None:
    """The card that is news after one update (`before`: the state it was applied to).

    >>> drawn = [{"kind": "card", "card": "chance-go"}]
    >>> card_news(None, {"pending": {"kind": "draw"}}, drawn, {"last_card": {"id": "chance-go"}})
    'chance-go'
    >>> card_news("chance-go", {"pending": {"kind": "buy"}}, [{"kind": "bought"}], {})
    'chance-go'
    >>> card_news("chance-go", {"pending": None}, [{"kind": "turn"}], {})
    """
    kinds = [str(e.get("kind")) for e in events]
    if "card" in kinds:
        card = after.get("last_card") or {}
        return str(card.get("id")) if card.get("id") else None
    if news is None or "turn" in kinds or "game_started" in kinds:
        return None
    if kinds and kinds[0] in ("undone", "redone"):
        return news  # shown only while the state's last card is still this one
    if before is None or not before.get("pending"):
        return None  # a command that answered nothing: the card's effect is over
    return news


def shown_card_id(state: Mapping[str, Any], news: str | None) -> str | None:
    """The id of the card to show now: the state's last card while it is news."""
    card = state.get("last_card") or {}
    card_id = card.get("id")
    return str(card_id) if card_id and news is not None and str(card_id) == news else None
