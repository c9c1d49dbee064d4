"""Who may act for whom: checked by the session before the engine sees a command.

Every input says who it acts for in its Source. The banker (the PIN, a banker card, a
script) may send anything. A phone's seat or a tapped bank card names a player, who acts
only for themselves. The table's shared inputs (buttons, keys, the touch screen) name
nobody: they act for the current player in their turn, so a decision that belongs to
another named player (a bid, accepting a trade offered to them) needs that player's own
phone or bank card. The screen's own clocks may close an auction and end a timed game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.game.api import Source
from companion.rules import GameState

JSON = dict[str, Any]

#: verbs nobody sends for a player: the bank's and the table's own business
BANKER_VERBS = frozenset({"new_game", "close_auction", "end_game", "auction_building"})
#: source kinds of the table's shared inputs, which name no player
SHARED_KINDS = frozenset({"button", "keyboard", "screen", "touch"})


@dataclass(frozen=True)
class Refused:
    """Why a source may not send a command: a refusal code and its facts."""

    code: str
    message: str
    params: JSON


def actor_field(verb: str) -> str:
    """The command field naming who acts: the payer of `pay`, whoever accepts a `trade`."""
    return {"pay": "from", "trade": "to"}.get(verb, "by")


def _by_the_tables_clock(source: Source, command: JSON) -> bool:
    """The screen's gavel and the timed game's end are the table's, not a person's."""
    verb = command.get("do")
    return source.kind == "screen" and (
        verb == "close_auction" or (verb == "end_game" and command.get("reason") == "time"))


def check(source: Source, command: JSON, state: GameState | None) -> JSON | Refused:
    """The command to submit (a shared input's actor filled in), or why this source may not.

    >>> from companion.game.api import Source
    >>> check(Source("phone", player="Bo"), {"do": "end_game"}, None).code
    'banker_only'
    """
    if source.banker:
        return command
    verb = str(command.get("do"))
    if verb in BANKER_VERBS:
        if _by_the_tables_clock(source, command):
            return command
        return Refused("banker_only", "only the banker can do that", {})
    if state is None:
        return Refused("banker_only", "only the banker can start a game", {})
    current = state.players[state.current].name
    field = actor_field(verb)
    me = source.player
    if me is None:
        if source.kind not in SHARED_KINDS:
            return Refused("not_allowed", f"a {source.kind} input must say who it acts for", {})
        me = current  # the shared buttons act for the current player in their turn
    actor = command.get(field)
    if actor is None and field == "by":
        top = state.top
        decider = state.players[top.player].name if top is not None and top.player >= 0 \
            else current
        if decider != me:
            return _not_yours(decider, current)
        return {**command, "by": me}
    if actor != me:
        return _not_yours(str(actor), current)
    return command


def _not_yours(decider: str, current: str) -> Refused:
    return Refused("not_your_turn", f"{decider} must do this: on their own phone or with "
                   "their bank card", {"player": decider, "current": current})


#: the verbs of a move told by hand, which the banker may send as a correction
MOVE_VERBS = frozenset({"land", "pass_go"})


def correction(source: Source, command: JSON, state: GameState | None) -> JSON | Refused:
    """A move correction is the banker's alone: a banker's land or pass_go where the
    device moves the tokens is journaled as one ("correction": true), anyone else's
    correction is refused."""
    if command.get("do") not in MOVE_VERBS or state is None:
        return command
    if not source.banker:
        if command.get("correction"):
            return Refused("banker_only", "only the banker can correct a move", {})
        return command
    if "correction" not in command and not state.options.bank_only:
        return {**command, "correction": True}
    return command


def entered_refusal(source: Source, command: JSON, state: GameState | None) -> Refused | None:
    """Typed dice and named cards only at a table that chose its own dice or deck at setup
    (bank-only play enters its own dice): where the companion rolls and draws, a result
    seen is kept, not typed again. The banker may enter them (corrections)."""
    if source.banker or state is None:
        return None
    verb = command.get("do")
    options = state.options
    if verb in ("roll", "land") and command.get("dice") is not None \
            and not (options.physical_dice or options.bank_only):
        return Refused("device_dice", "this table rolls with the companion: dice are entered "
                       "only at a table that chose its own dice at setup", {})
    if verb == "draw" and command.get("card") is not None and not options.physical_deck:
        return Refused("device_cards", "this table draws the cards on the companion: a card is "
                       "named only at a table that chose its own deck at setup", {})
    return None
