"""Who may act for whom: one table, checked by the session for every source.

`RIGHTS` has one row per command verb: which field names who acts, whether a player may
send it for themselves (their phone's seat, their bank card), whether the table's shared
inputs (buttons, keys, the touch screen) may send it for the current player, whether a
player's sending it must answer an open offer (a trade: the receiver accepts what the other
offered, never terms of their own), and whether the table's clock may send it. The banker
(the PIN, a banker card, a script) may send anything.

Every input says who it acts for in its Source. A phone's seat or a tapped bank card names a
player, who acts only for themselves. The shared inputs name nobody: they act for the
current player in their turn, so a decision that belongs to another named player (a bid,
a trade offered to them) needs that player's own phone or bank card. The phones' form
check (web_remote/guard.py), the inputs' choice of a Source (`table_source`) and the
session (`check`) all read this one table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.game.api import Source
from companion.game.journal import Entry
from companion.game.table.view import waiting_on
from companion.rules import GameState
from companion.rules.commands import Command
from companion.rules.events import Transfer

JSON = dict[str, Any]
#: a command as the inputs hold it: a typed record, or its JSON (a legal entry's, a phone's)
AnyCommand = Command | Mapping[str, Any]


@dataclass(frozen=True)
class Right:
    """Who may send one verb: see the module doc."""

    #: the command field naming who acts ("" for the bank's and the table's own verbs)
    actor: str = "by"
    #: a player may send it for themselves (their phone, their bank card)
    players: bool = True
    #: the shared inputs may send it for the current player (or the decision's owner)
    shared: bool = True
    #: a player's sending it must answer an open offer (companion.game.table.offers)
    offer: bool = False
    #: the table's own clock may send it (the auction's gavel, the timed game's end)
    clock: bool = False


_PLAYERS = Right()
_BANKERS = Right(actor="", players=False, shared=False)

#: who may send what: one row per verb of the engine's vocabulary
RIGHTS: dict[str, Right] = {
    **{verb: _PLAYERS for verb in (
        "roll", "buy", "decline", "bid", "pass", "draw", "end_turn", "land", "pass_go",
        "build", "sell_building", "mortgage", "unmortgage", "pay_fine", "use_card",
        "bankrupt", "claim_rent", "use_bus_ticket", "choose_square", "choose_gift")},
    "pay": Right(actor="from"),
    # the receiver accepts what the sender offered: on their phone or with their bank card
    "trade": Right(actor="to", shared=False, offer=True),
    "new_game": _BANKERS,
    "auction_building": _BANKERS,
    "close_auction": Right(actor="", players=False, shared=False, clock=True),
    "end_game": Right(actor="", players=False, shared=False, clock=True),
}
#: verbs only the banker (or the table's clock) sends
BANKER_VERBS = frozenset(v for v, r in RIGHTS.items() if not r.players)
#: source kinds of the table's shared inputs, which name no player
SHARED_KINDS = frozenset({"button", "keyboard", "screen", "touch"})
#: source kinds of the table's own clocks: the session's writer (not the touch screen, a
#: shared input like any other)
CLOCK_KINDS = frozenset({"session"})

#: who may take back a move, by what the move was (`undo_kind`): a result seen is a result
#: kept. The banker may take back anything; "banker": the banker alone, "payee": the
#: banker or the one player the move paid (their consent, by giving it back themselves),
#: "sender": the banker or the player who sent it. The session asks `undo_refused` for
#: every undo, from any input, and for whether a phone's Me page offers its undo button.
UNDO_RIGHTS: dict[str, str] = {
    "jump": "banker",  # the banker's going back to an earlier move
    "new_game": "banker",  # dealing a game
    "result": "banker",  # the companion's own dice, or a card drawn
    "paid": "payee",  # a move that paid money to another player
    "move": "sender",  # any other move
}

#: what a face may use; the rest is the session's
__all__ = ["RIGHTS", "BANKER_VERBS", "UNDO_RIGHTS", "Refused", "Right", "actor_field",
           "actor_of", "as_json", "check", "table_source", "waiting_on"]


@dataclass(frozen=True)
class Refused:
    """Why a source may not send a command: a refusal code and its facts."""

    code: str
    message: str
    params: JSON


def actor_field(verb: str) -> str:
    """The command field naming who acts: the payer of `pay`, whoever accepts a `trade`.

    >>> actor_field("pay"), actor_field("trade"), actor_field("roll"), actor_field("x")
    ('from', 'to', 'by', 'by')
    """
    right = RIGHTS.get(verb)
    return right.actor if right is not None and right.actor else "by"


def as_json(command: AnyCommand) -> Mapping[str, Any]:
    """The JSON form of a command, typed or not (a record's `to_json`).

    >>> from companion.rules.commands import Bankrupt
    >>> as_json(Bankrupt("Bo")), as_json({"do": "roll"})
    ({'do': 'bankrupt', 'by': 'Bo'}, {'do': 'roll'})
    """
    if isinstance(command, Mapping):
        return command
    return command.to_json()


def actor_of(command: AnyCommand) -> str | None:
    """The player a command acts for: the receiver accepting a trade, the payer of a
    payment, else `by`; None for the table's own moves.

    >>> actor_of({"do": "trade", "from": "Ann", "to": "Cleo"})
    'Cleo'
    >>> actor_of({"do": "bid", "by": "Bo", "amount": 30})
    'Bo'
    >>> actor_of({"do": "close_auction"}) is None
    True
    """
    command = as_json(command)
    right = RIGHTS.get(str(command.get("do")))
    if right is not None and not right.actor:
        return None
    who = command.get(actor_field(str(command.get("do"))))
    return who if isinstance(who, str) else None


def _by_the_tables_clock(source: Source, command: Mapping[str, Any]) -> bool:
    """The gavel and the timed game's end are the table's clock's, not a person's."""
    verb = str(command.get("do"))
    return source.kind in CLOCK_KINDS and RIGHTS[verb].clock and (
        verb != "end_game" or command.get("reason") == "time")


def check(source: Source, command: JSON, state: GameState | None,
          offered: Callable[[Mapping[str, Any]], bool] | None = None) -> JSON | Refused:
    """The command to submit (a shared input's actor filled in), or why this source may not.
    `offered`: whether an open offer matches a trade (companion.game.table.offers); without
    it no player's trade is taken.

    >>> from companion.game.api import Source
    >>> check(Source("phone", player="Bo"), {"do": "end_game"}, None).code
    'banker_only'
    """
    if source.banker:
        return command
    verb = str(command.get("do"))
    right = RIGHTS.get(verb)
    if right is None:  # the engine's parser says what is wrong with it
        return command if state is not None else \
            Refused("banker_only", "only the banker can start a game", {})
    if not right.players:
        if _by_the_tables_clock(source, command):
            return command
        return Refused("banker_only", "only the banker can do that", {})
    if state is None:
        return Refused("banker_only", "only the banker can start a game", {})
    current = state.players[state.current].name
    field = right.actor
    me = source.player
    if me is None:
        if source.kind not in SHARED_KINDS:
            return Refused("not_allowed", f"a {source.kind} input must say who it acts for", {})
        if not right.shared:  # another's consent: never the shared buttons'
            return _not_yours(str(command.get(field)), current)
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
    if right.offer and (offered is None or not offered(command)):
        sender = str(command.get("from"))
        return Refused("no_offer", f"{sender} has not offered this trade: only an open offer "
                       "can be accepted", {"player": sender})
    return command


def _not_yours(decider: str, current: str) -> Refused:
    return Refused("not_your_turn", f"{decider} must do this: on their own phone or with "
                   "their bank card", {"player": decider, "current": current})


def _paid(entry: Entry) -> list[str]:
    """The players (not the mover, not the pot) a move paid money to."""
    command = entry.command
    actor = command.get("by") or command.get("from") or entry.source.player
    return sorted({e.to for e in entry.events if isinstance(e, Transfer)
                   and e.to is not None and e.to not in ("pot", actor)})


def undo_kind(entry: Entry, jump: bool = False) -> str:
    """The row of UNDO_RIGHTS a move taken back falls in (`jump`: it is the banker's going
    back to an earlier move)."""
    if jump:
        return "jump"
    command = entry.command
    if command.get("do") == "new_game":
        return "new_game"
    if entry.rng is not None or command.get("do") == "draw":
        return "result"
    return "paid" if _paid(entry) else "move"


def undoers(entry: Entry, jump: bool = False) -> frozenset[str]:
    """The players who may take back the move of journal row `entry` with their own
    authority, besides the banker, as UNDO_RIGHTS says: the one player it paid, or its
    sender; nobody for the banker's kinds. `undo_refused` answers by it, and the session
    asks it once for every player's Me page (issue 28)."""
    who = UNDO_RIGHTS[undo_kind(entry, jump)]
    if who == "banker":
        return frozenset()
    if who == "payee":
        paid = _paid(entry)
        return frozenset(paid) if len(paid) == 1 else frozenset()
    return frozenset((entry.source.player,)) if entry.source.player else frozenset()


def undo_refused(source: Source, entry: Entry, jump: bool = False) -> Refused | None:
    """Why `source` may not take back the move of journal row `entry` (None: it may), as
    UNDO_RIGHTS says (`undoers`): the one place that decides it, for the session's undo
    from every input and for the phones' question whether to offer it."""
    if source.banker or (source.player is not None
                         and source.player in undoers(entry, jump)):
        return None
    kind = undo_kind(entry, jump)
    who = UNDO_RIGHTS[kind]
    if who == "banker":
        if kind == "jump":
            return Refused("banker_only", "only the banker can undo going back to an "
                           "earlier move", {})
        if kind == "new_game":
            return Refused("not_allowed", "only the banker can undo dealing a game", {})
        return Refused("result_kept", "a result seen is kept: only the banker can undo the "
                       "companion's dice or a card drawn", {})
    if who == "payee":
        paid = _paid(entry)
        return Refused("result_kept", f"{paid[0]} received money in that move: only the "
                       f"banker or {paid[0]} can undo it", {"player": paid[0]})
    sender = f"{entry.source.player}, who sent it," if entry.source.player else "nobody"
    return Refused("not_allowed", f"only the banker or {sender} can undo that command", {})


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
# --- the shared inputs' side, over the public state JSON ---------------------------------


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
    owner = actor_of(command)
    if owner is None:
        return None
    right = RIGHTS.get(str(command.get("do")))
    if right is not None and not right.shared:
        return owner  # consent is never the shared inputs', not even the current player's
    if owner == state.get("current"):
        return None
    offered = any(e.get("do") == command.get("do") and e.get("by") == owner
                  for e in state.get("legal") or [])
    return owner if offered else None


def table_source(state: Mapping[str, Any], command: AnyCommand, kind: str,
                 card_holder: str | None = None) -> Source | str:
    """The Source a shared input sends `command` with, or the name of the player whose own
    input it needs. The shared inputs act for the current player; a player who tapped
    their own bank card for their decision (`card_holder`, while it stands) answers it
    on the panel as with their card, like a bid after a tap (never a trade: that is
    answered by the card's own question).

    >>> debt = {"current": "Cy", "legal": [{"do": "mortgage", "by": "Bo", "squares": [3]}]}
    >>> table_source(debt, {"do": "mortgage", "by": "Bo", "square": 3}, "button")
    'Bo'
    >>> table_source(debt, {"do": "mortgage", "by": "Bo", "square": 3}, "button", "Bo")
    Source(kind='rfid', player='Bo', banker=False)
    """
    command = as_json(command)
    other = someone_else(state, command)
    if other is None:
        return Source(kind, player=actor_of(command))
    right = RIGHTS.get(str(command.get("do")))
    if other == card_holder and (right is None or right.shared):
        return Source("rfid", player=other)
    return other
