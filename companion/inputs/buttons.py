"""What each of the six buttons answers now: one table for the panel, the keys and the
screen's buttons, with or without a screen.

`PRESSES` says, for each situation of the table (the pending decision's kind, or the turn
itself, in jail or not), which verb each button sends; `command_for(state, button)` is that
command, built from the engine's `legal` offer for whoever decides (the current player, or
the named player the decision waits on). The table screen's decision panel
(companion.screen.views.prompt) labels these same commands; a headless table
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

from companion.inputs.entry import bid_amount
from companion.inputs.events import Button

JSON = dict[str, Any]
#: the six buttons, in the panel's order: the one list (the pins, the keys, the screen)
BUTTONS: tuple[str, ...] = tuple(b.value for b in Button)
#: the keyboard's stand-ins for them (the table screen's keys, the simulated panel's)
KEYS: dict[str, str] = {"r": "roll", "y": "yes", "n": "no", "g": "pass_go", "u": "undo",
                        "m": "menu"}
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
    for verb, fields in PRESSES.get(situation(state), {}).get(button, ()):
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
