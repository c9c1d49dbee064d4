"""What is news on the table, kept by the session so the screen and every phone agree: the
card drawn (with its drawer) while it is news, and the one auction clock.

A drawn card is news from its draw until the drawer's token moves on by a roll, the turn
passes, or the game ends; a later card replaces it. The rule reads only the typed events of
the journal's entries in force, so the session folds it over each new command and derives
it again from the journal after an undo, a redo or a restart (`card_from_entries`).

The auction clock restarts on a new auction and on every new highest bid; when it runs
out the table closes the auction (the screen's controller, headless or not), and the
phones count down to the same moment.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.rules import GameState
from companion.rules.events import (
    CardDrawn,
    Event,
    GameEnded,
    GameStarted,
    Rolled,
    Turn,
    Winner,
    event_from_json,
)
from companion.rules.state import AuctionPending, BuildingAuctionPending

JSON = dict[str, Any]

#: seconds an auction waits after its start or its last new highest bid
AUCTION_SECONDS = 30.0
#: how far back in the journal an undo, redo or restart looks for the card that is news
LOOK_BACK = 60
#: the deck of Mega's bus tickets: taking a ticket is not a card to read out
BUS_DECK = "bus_tickets"


def card_after(card: JSON | None, events: Iterable[Event]) -> JSON | None:
    """The card that is news after one command's events (`card`: the news before them).

    >>> drawn = CardDrawn("Cleo", "chance", "chance-go", "Advance to GO")
    >>> card_after(None, [drawn])["player"]
    'Cleo'
    >>> card_after({"player": "Cleo"}, [Rolled("Cleo", (1, 3))])
    >>> card_after({"player": "Cleo"}, [Rolled("Cleo", (2, 3), for_rent=True)])
    {'player': 'Cleo'}
    """
    for event in events:
        if isinstance(event, CardDrawn):
            if event.deck != BUS_DECK:
                card = {"player": event.player, "deck": event.deck, "id": event.card,
                        "text": event.text}
        elif isinstance(event, Rolled) and not event.for_rent:
            card = None  # the token moves on: what the card did is over
        elif isinstance(event, (Turn, GameStarted, GameEnded, Winner)):
            card = None
    return card


def card_from_entries(entries: Sequence[Mapping[str, Any]]) -> JSON | None:
    """The card that is news after these journal entries (the session's history, oldest
    first, with "undone" marks): folded over the entries in force, from the last new turn
    on."""
    in_force = [e for e in entries if e.get("kind", "command") in ("command", "redo")
                and not e.get("undone")]
    start = 0
    for i, entry in enumerate(in_force):
        if any(ev.get("kind") in ("turn", "game_started") for ev in entry.get("events") or []):
            start = i
    card: JSON | None = None
    for entry in in_force[start:]:
        events = [event_from_json(ev) for ev in entry.get("events") or []
                  if ev.get("kind") not in ("undone", "redone")]
        card = card_after(card, events)
    return card


def auction_key(state: GameState | None) -> tuple[Any, ...] | None:
    """What restarts the auction clock when it changes: the auction itself and its highest
    bid (None when no auction is open)."""
    if state is None or not state.pending:
        return None
    p = state.pending[-1]
    if isinstance(p, AuctionPending):
        return (p.kind.value, p.square, "", p.highest, p.bidder, len(state.pending))
    if isinstance(p, BuildingAuctionPending):
        return (p.kind.value, -1, p.building, p.highest, p.bidder, len(state.pending))
    return None


def auction_clock(since: float, now: float, seconds: float = AUCTION_SECONDS) -> JSON:
    """The auction clock's part of the state JSON: when it runs out (epoch seconds) and the
    whole seconds left.

    >>> auction_clock(100.0, 110.2)
    {'ends_at': 130.0, 'seconds': 30, 'seconds_left': 20}
    """
    ends = since + seconds
    return {"ends_at": ends, "seconds": int(seconds),
            "seconds_left": max(0, int(ends - now + 0.999))}
