"""Who the table's shared inputs may act for: the current player, in their turn.

The panel's buttons, the keyboard and the touchscreen are everybody's, so they act for the
player whose turn it is (roll, buy, decline, end turn, pass GO) and for the bank's own
table moves (the auction's "Sold!"); a decision that belongs to another named player
(their bid or pass in an auction, a trade offered to them, a debt of theirs) needs that
player's own input: their phone, or a tap of their bank card (a tap acts for the card's
owner). Pure: from the public state and a command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.game.api import JSON, Source


def decision_owner(command: Mapping[str, Any]) -> str | None:
    """The player a command answers for: the receiver accepting a trade, else the player
    who acts (`by`) or pays (`from`); None for the table's own moves.

    >>> decision_owner({"do": "trade", "from": "Ann", "to": "Cleo"})
    'Cleo'
    >>> decision_owner({"do": "bid", "by": "Bo", "amount": 30})
    'Bo'
    >>> decision_owner({"do": "close_auction"}) is None
    True
    """
    if command.get("do") == "trade":
        return command.get("to")
    return command.get("by") or command.get("from")


def someone_else(state: Mapping[str, Any], command: Mapping[str, Any]) -> str | None:
    """The named player other than the current one whose decision `command` answers (the
    shared inputs may not take it for them), or None when the table may send it: a trade
    offered to them, or a move the state offers them now (their bid or pass, their debt's
    mortgage). A command nobody is offered goes on, for the rules to say why not.

    >>> auction = {"current": "Ann", "legal": [{"do": "bid", "by": "Bo", "min": 1}]}
    >>> someone_else(auction, {"do": "bid", "by": "Bo", "amount": 30})
    'Bo'
    >>> someone_else(auction, {"do": "roll", "by": "Ann"}) is None
    True
    >>> someone_else(auction, {"do": "trade", "from": "Ann", "to": "Cleo"})
    'Cleo'
    """
    owner = decision_owner(command)
    if owner is None or owner == state.get("current"):
        return None
    if command.get("do") == "trade":
        return owner
    offered = any(e.get("do") == command.get("do") and e.get("by") == owner
                  for e in state.get("legal") or [])
    return owner if offered else None


def shared_source(kind: str, command: JSON) -> Source:
    """The Source of a command from a shared input: the player it acts for (the current
    player, once someone_else said nothing against it), never the banker's authority."""
    return Source(kind, player=decision_owner(command))
