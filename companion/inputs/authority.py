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

from companion.game.api import Source
from companion.rules.commands import Command

#: a command as the inputs hold it: a typed record, or its JSON (a legal entry's, a phone's)
AnyCommand = Command | Mapping[str, Any]


def as_json(command: AnyCommand) -> Mapping[str, Any]:
    """The JSON form of a command, typed or not (a record's `to_json`).

    >>> from companion.rules.commands import Bankrupt
    >>> as_json(Bankrupt("Bo")), as_json({"do": "roll"})
    ({'do': 'bankrupt', 'by': 'Bo'}, {'do': 'roll'})
    """
    if isinstance(command, Mapping):
        return command
    return command.to_json()


def decision_owner(command: AnyCommand) -> str | None:
    """The player a command answers for: the receiver accepting a trade, else the player
    who acts (`by`) or pays (`from`); None for the table's own moves.

    >>> decision_owner({"do": "trade", "from": "Ann", "to": "Cleo"})
    'Cleo'
    >>> decision_owner({"do": "bid", "by": "Bo", "amount": 30})
    'Bo'
    >>> decision_owner({"do": "close_auction"}) is None
    True
    """
    command = as_json(command)
    if command.get("do") == "trade":
        return command.get("to")
    return command.get("by") or command.get("from")


def someone_else(state: Mapping[str, Any], command: AnyCommand) -> str | None:
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
    command = as_json(command)
    owner = decision_owner(command)
    if owner is None or owner == state.get("current"):
        return None
    if command.get("do") == "trade":
        return owner
    offered = any(e.get("do") == command.get("do") and e.get("by") == owner
                  for e in state.get("legal") or [])
    return owner if offered else None


#: decisions several players answer at once, each for themselves (their own bid or pass)
AUCTIONS = ("auction", "building_auction")


def waiting_on(state: Mapping[str, Any]) -> str | None:
    """The named player other than the current one whose decision is on the table now
    (a debt to raise money for, mortgages to lift or keep, a building to place), which only
    their own phone or bank card answers; None when it is the current player's, nobody's
    or an auction's (companion.screen.views.waiting names each other bidder).

    >>> waiting_on({"current": "Cy", "pending": {"kind": "debt", "player": "Bo"}})
    'Bo'
    >>> waiting_on({"current": "Bo", "pending": {"kind": "debt", "player": "Bo"}}) is None
    True
    """
    pending = state.get("pending") or {}
    who = pending.get("player")
    if not isinstance(who, str) or who == state.get("current") or \
            pending.get("kind") in AUCTIONS:
        return None
    return who


def table_source(state: Mapping[str, Any], command: AnyCommand, kind: str,
                 card_holder: str | None = None) -> Source | str:
    """The Source a shared input sends `command` with, or the name of the player whose own
    input it needs. The shared inputs act for the current player; a player who tapped
    their own bank card for their decision (`card_holder`, while it stands) answers it
    on the panel as with their card, like a bid after a tap.

    >>> debt = {"current": "Cy", "legal": [{"do": "mortgage", "by": "Bo", "squares": [3]}]}
    >>> table_source(debt, {"do": "mortgage", "by": "Bo", "square": 3}, "button")
    'Bo'
    >>> table_source(debt, {"do": "mortgage", "by": "Bo", "square": 3}, "button", "Bo")
    Source(kind='rfid', player='Bo', banker=False)
    """
    command = as_json(command)
    other = someone_else(state, command)
    if other is None:
        return shared_source(kind, command)
    if other == card_holder and command.get("do") != "trade":
        return Source("rfid", player=other)
    return other


def shared_source(kind: str, command: AnyCommand) -> Source:
    """The Source of a command from a shared input: the player it acts for (the current
    player, once someone_else said nothing against it), never the banker's authority."""
    return Source(kind, player=decision_owner(command))
