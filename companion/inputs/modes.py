"""What the input controller is in the middle of: entering physical dice or an amount with
the knob, picking a square, or waiting for the second half of a two-tap gesture.

Every mode remembers the state version it started at; when the game moves on (another
input changed the state) the mode is dropped rather than acting on a table that changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.game.api import JSON

WHITE_FACES: tuple[int | str, ...] = (1, 2, 3, 4, 5, 6)
#: the speed die's faces (Mega), as the table script names them; Mr. Monopoly is on two
#: faces of the real die but one choice is enough to enter it
SPEED_FACES: tuple[int | str, ...] = (1, 2, 3, "bus", "mr_monopoly")


@dataclass
class DiceEntry:
    """Entering physical dice one die at a time: knob or ROLL changes, YES confirms, NO
    goes back. `count` is 2, or 3 with the speed die (its faces: SPEED_FACES)."""

    version: int
    entry: JSON  # the legal roll command
    count: int = 2
    values: list[int | str] = field(default_factory=list)
    current: int | str = 1

    def faces(self) -> tuple[int | str, ...]:
        """The faces of the die being entered."""
        return SPEED_FACES if len(self.values) == 2 else WHITE_FACES

    def turn(self, steps: int) -> None:
        """Move the die being entered by `steps` faces (wrapping)."""
        faces = self.faces()
        at = faces.index(self.current) if self.current in faces else 0
        self.current = faces[(at + steps) % len(faces)]


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


@dataclass
class SquarePick:
    """Picking a square for a legal command (Mega: a bus ticket ride, a triple's or the
    Auction square's choice): knob moves through `squares`, YES chooses; tapping one of
    their deeds chooses it at once."""

    version: int
    entry: JSON  # the legal command (use_bus_ticket or choose_square), choice list dropped
    squares: list[int]
    at: int = 0

    @property
    def square(self) -> int:
        """The square the knob points at."""
        return self.squares[self.at % len(self.squares)]


Mode = DiceEntry | AmountEntry | CardTapped | SquarePick


def describe_mode(mode: Mode | None) -> JSON | None:
    """The mode as JSON for the screen and phones (None when idle)."""
    if mode is None:
        return None
    if isinstance(mode, DiceEntry):
        return {"kind": "dice", "values": list(mode.values), "current": mode.current,
                "count": mode.count}
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
    if isinstance(mode, SquarePick):
        return {"kind": "square", "do": mode.entry.get("do"), "square": mode.square,
                "squares": list(mode.squares)}
    return {"kind": "card_tapped", "player": mode.player}
