"""What the input controller is in the middle of: confirming an undo, entering dice or an
amount, or waiting for the second half of a two-tap gesture.

Every mode remembers the state version it started at; when the game moves on (another
input changed the state) the mode is dropped rather than acting on a table that changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.session_api import JSON


@dataclass
class ConfirmUndo:
    """UNDO was pressed; YES (or UNDO again) undoes, anything else cancels."""

    version: int


@dataclass
class DiceEntry:
    """Entering physical dice one die at a time: knob or ROLL changes, YES confirms."""

    version: int
    entry: JSON  # the legal roll command
    values: list[int] = field(default_factory=list)
    current: int = 1


@dataclass
class AmountEntry:
    """Entering an amount with the knob (or the phone's keypad): a transfer or a bid."""

    version: int
    purpose: str  # "transfer" or "bid"
    player: str  # who pays or bids
    payee: str | None = None  # transfer: who receives
    amount: int = 0
    minimum: int = 1
    maximum: int | None = None


@dataclass
class CardTapped:
    """A bank card was tapped; a deed (rent / buy) or another bank card (transfer) follows."""

    version: int
    player: str


Mode = ConfirmUndo | DiceEntry | AmountEntry | CardTapped


def describe_mode(mode: Mode | None) -> JSON | None:
    """The mode as JSON for the screen and phones (None when idle)."""
    if mode is None:
        return None
    if isinstance(mode, ConfirmUndo):
        return {"kind": "confirm_undo"}
    if isinstance(mode, DiceEntry):
        return {"kind": "dice", "values": list(mode.values), "current": mode.current}
    if isinstance(mode, AmountEntry):
        return {
            "kind": "amount",
            "purpose": mode.purpose,
            "player": mode.player,
            "payee": mode.payee,
            "amount": mode.amount,
            "min": mode.minimum,
            "max": mode.maximum,
        }
    return {"kind": "card_tapped", "player": mode.player}
