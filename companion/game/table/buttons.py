"""What each button answers now: one table for the panel, the keys and the screen's
buttons, with or without a screen; and the bid a press makes.

`PRESSES` says, for each situation of the table (the pending decision's kind, or the turn
itself, in jail or not), which verb each button sends; `command_for(state, button)` is that
command, built from the engine's `legal` offer for whoever decides (the current player, or
the named player the decision waits on). The session's typed view of the table
(companion.game.table.view) carries it for every face: the table screen's decision panel
(companion.screen.views.prompt) labels these same commands, a headless table
(companion.screen.headless) sends them as they are. The gestures the hardware starts itself
(a bank card, an amount dialled, dice entered) keep the buttons they need first
(companion.inputs.controller). UNDO and MENU are the face's: a question and a list.

>>> state = {"current": "Ann", "pending": {"kind": "buy", "player": "Ann"},
...          "legal": [{"do": "buy", "by": "Ann"}, {"do": "decline", "by": "Ann"}]}
>>> command_for(state, "yes"), command_for(state, "no"), command_for(state, "roll")
({'do': 'buy', 'by': 'Ann'}, {'do': 'decline', 'by': 'Ann'}, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

JSON = dict[str, Any]
#: the buttons that answer the game (UNDO and MENU are the face's own)
GAME_BUTTONS: tuple[str, ...] = ("roll", "yes", "no", "pass_go")


def _legal(state: Mapping[str, Any], do: str, by: str | None) -> JSON | None:
    for entry in state.get("legal") or []:
        if entry.get("do") == do and entry.get("by") == by:
            return dict(entry)
    return None


def bid_step(state: Mapping[str, Any]) -> int:
    """How much one step (a YES press, a knob detent) changes an amount: a twentieth of the
    salary (10 on the € boards)."""
    salary = int((state.get("options") or {}).get("salary", 200))
    return max(1, salary // 20)


def bid_amount(state: Mapping[str, Any], by: str | None, steps: int) -> int | None:
    """The bid `by` makes now: the highest bid plus one step, plus `steps` more (the knob),
    within what the legal bid allows; None when `by` cannot bid."""
    bid = _legal(state, "bid", by)
    if bid is None:
        return None
    highest = int((state.get("pending") or {}).get("highest", 0))
    wanted = highest + bid_step(state) * (1 + steps)
    low = int(bid.get("min", highest + 1))
    high = bid.get("max")
    amount = max(low, wanted)
    return amount if high is None else min(int(high), amount)


#: fields of a legal entry that list choices rather than being part of the command
_CHOICES = ("squares", "min", "max", "choices", "amounts", "cards")

#: (verb, the fields the legal entry must have) a button sends, by situation
Meaning = tuple[str, Mapping[str, Any]]
PRESSES: dict[str, dict[str, tuple[Meaning, ...]]] = {
    # the turn: roll (or end the turn once rolled), the salary in bank-only play
    "turn": {"roll": (("roll", {}), ("end_turn", {})), "pass_go": (("pass_go", {}),)},
    "jail": {"roll": (("roll", {}), ("end_turn", {})), "yes": (("pay_fine", {}),),
             "no": (("use_card", {}),), "pass_go": (("pass_go", {}),)},
    "buy": {"yes": (("buy", {}),), "no": (("decline", {}),)},
    "auction": {"yes": (("bid", {}),), "no": (("pass", {}),)},
    "building_auction": {"yes": (("bid", {}),), "no": (("pass", {}),)},
    "draw": {"yes": (("draw", {}),)},
    "roll_for_rent": {"roll": (("roll", {}),)},
    "lift_mortgages": {"no": (("decline", {}),)},
    "birthday_gift": {"yes": (("choose_gift", {"gift": "money"}),),
                      "no": (("choose_gift", {"gift": "bus_ticket"}),)},
}


def situation(state: Mapping[str, Any]) -> str:
    """The row of PRESSES the table is in now.

    >>> situation({"pending": {"kind": "draw"}}), situation({"current": "Ann", "players":
    ...     [{"name": "Ann", "in_jail": True}]}), situation({"current": "Bo"})
    ('draw', 'jail', 'turn')
    """
    pending = state.get("pending") or {}
    if pending.get("kind"):
        return str(pending["kind"])
    me: Mapping[str, Any] = next((p for p in state.get("players") or []
                                  if p.get("name") == state.get("current")), {})
    return "jail" if me.get("in_jail") else "turn"


def decider(state: Mapping[str, Any]) -> str | None:
    """Whom the shared buttons answer for now: the player the decision waits on, else the
    current player; in an auction the current player while they may still bid or pass."""
    pending = state.get("pending") or {}
    if pending.get("kind") in ("auction", "building_auction"):
        cur = state.get("current")
        return cur if isinstance(cur, str) and any(
            e.get("do") in ("bid", "pass") and e.get("by") == cur
            for e in state.get("legal") or []) else None
    who = pending.get("player") or state.get("current")
    return who if isinstance(who, str) else None


def command_for(state: Mapping[str, Any], button: str, bid_steps: int = 0) -> JSON | None:
    """The command `button` sends now (None: nothing of the game's); a bid is the next
    step up (`bid_steps` more, the screen's dial). The highest bidder is not offered to
    outbid themselves."""
    by = decider(state)
    if by is None:
        return None
    return _command(state, by, PRESSES.get(situation(state), {}).get(button, ()), bid_steps)


def buttons_of(state: Mapping[str, Any], by: str | None) -> dict[str, JSON | None]:
    """What each of GAME_BUTTONS sends now, `command_for` of each, with the decider `by`
    (`decider(state)`) and the table's situation read once for the four (issue 28: the
    view of every version is built on the screen's first frame's path).

    >>> state = {"current": "Ann", "legal": [{"do": "roll", "by": "Ann"}]}
    >>> buttons_of(state, decider(state))
    {'roll': {'do': 'roll', 'by': 'Ann'}, 'yes': None, 'no': None, 'pass_go': None}
    """
    if by is None:
        return dict.fromkeys(GAME_BUTTONS)
    row = PRESSES.get(situation(state), {})
    return {button: _command(state, by, row[button], 0) if button in row else None
            for button in GAME_BUTTONS}


def _command(state: Mapping[str, Any], by: str, meanings: tuple[Meaning, ...],
             bid_steps: int) -> JSON | None:
    """The command of the first of `meanings` that `by` may send now (`command_for`)."""
    for verb, fields in meanings:
        entry = next((e for e in state.get("legal") or [] if e.get("do") == verb
                      and e.get("by") == by and all(e.get(k) == v for k, v in fields.items())),
                     None)
        if entry is None:
            continue
        command = {k: v for k, v in entry.items() if k not in _CHOICES}
        if verb == "bid":
            if (state.get("pending") or {}).get("bidder") == by:
                continue
            amount = bid_amount(state, by, bid_steps)
            if amount is None:
                continue
            command["amount"] = amount
        return command
    return None
