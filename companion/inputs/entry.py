"""The one input flow for the dice, the amounts, the squares and the banker PIN, for the
screen and the hardware.

Entering the physical dice (typed one at a time, or dialled with the knob: two white dice
and, with the speed die, its 1, 2, 3, bus or Mr. Monopoly), setting the next bid or an
amount with the knob, picking a square (a triple's, the Auction square's, a bus ticket's
ride) and typing or dialling the banker PIN (a `PinEntry`) all happen here, once. Where
the entry stands is kept in an `EntryFields` object: the screen's UiState
(companion.screen.ui_state) or the hardware controller's own `Entry`. Each step reads the
session's view of the table (companion.game.table.view: the pending decision's record,
the moves, the players; a bare public state JSON is read into one) and returns what to do:
a command to submit, a `Refusal` saying why not, or None (nothing to send yet). Pure: no
I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from companion.game.pins import MAX_PIN, valid_pin
from companion.game.table.buttons import bid_step
from companion.game.table.records import Setup
from companion.game.table.view import Move, TableView
from companion.inputs.picking import Pick, Table, current_pick, view_of
from companion.rules.commands import Command, Roll

WHITE_FACES: tuple[int | str, ...] = (1, 2, 3, 4, 5, 6)
#: the speed die's faces as the table script writes them, in dial order; Mr. Monopoly is on
#: two faces of the real die but one choice is enough to enter it
SPEED_FACES: tuple[int | str, ...] = (1, 2, 3, "bus", "mr_monopoly")


class EntryFields(Protocol):
    """Where an entry stands: the white dice so far, the speed die, the dial's face, the
    knob's steps on the next bid or amount, a bus ride being chosen, the square in focus."""

    dice_entry: list[int]
    speed_entry: int | str | None
    dial: int | None
    bid_steps: int
    bus_ride: bool
    square_focus: int | None


@dataclass
class Entry:
    """The hardware controller's EntryFields (the screen keeps its own in its UiState)."""

    dice_entry: list[int] = field(default_factory=list)
    speed_entry: int | str | None = None
    dial: int | None = None
    bid_steps: int = 0
    bus_ride: bool = False
    square_focus: int | None = None


@dataclass(frozen=True)
class Refusal:
    """Why an input did nothing: no_roll (no roll is asked for), speed_next (the white dice
    are in; the speed die's face comes next), not_mine (the input means something else)."""

    code: str


Step = Command | Refusal | None
"""A command to submit, why the input did nothing, or None: taken, nothing to send yet."""


def acting_player(table: Table) -> str | None:
    """Who acts now: the player the pending decision waits on, else the current player."""
    view = view_of(table)
    decision = view.decision
    return decision.player if decision is not None and decision.player else view.current


def dice_needed(table: Table, who: str | None) -> int:
    """How many dice the roll of `who` takes now: 3 with the speed die, except in jail and
    for a utility's rent (the white dice only); else 2.

    >>> dice_needed({"options": {"speed_die": True}, "players": [{"name": "A"}]}, "A")
    3
    >>> dice_needed({"options": {"speed_die": True}, "pending": {"kind": "roll_for_rent"},
    ...              "players": [{"name": "A"}]}, "A")
    2
    >>> dice_needed({"options": {}, "players": [{"name": "A"}]}, "A")
    2
    """
    view = view_of(table)
    if not view.setup.options.get("speed_die"):
        return 2
    decision = view.decision
    if decision is not None and decision.kind == "roll_for_rent":
        return 2
    player = view.player(who)
    return 2 if player is not None and player.jailed else 3


def dial_faces(slot: int) -> tuple[int | str, ...]:
    """The faces the dial runs through for entry slot `slot` (2: the speed die)."""
    return SPEED_FACES if slot >= 2 else WHITE_FACES


def roller(table: Table) -> tuple[str | None, Move | None]:
    """Who rolls now and the roll the table offers them (None: no roll is asked for)."""
    view = view_of(table)
    if not view.players:
        return None, None
    who = acting_player(view)
    return who, view.move("roll", who)


# --- the dice ---------------------------------------------------------------------------


def dice_entered(table: Table) -> bool:
    """Whether this table enters its own dice: chosen at setup (the rule option
    physical_dice), and always in bank-only play; elsewhere the companion rolls, and a
    result seen is kept (typed dice would be refused)."""
    setup = table.setup if isinstance(table, TableView) else Setup.of(table)
    options = setup.options
    return bool(options.get("physical_dice") or options.get("bank_only"))


def clear_dice(e: EntryFields) -> None:
    """Forget the dice typed or dialled so far, and the dial."""
    e.dice_entry = []
    e.speed_entry = None
    e.dial = None


def _complete(view: TableView, e: EntryFields, who: str) -> Roll | None:
    """The roll command once every die is in (the entry is cleared then), else None."""
    needed = dice_needed(view, who)
    whites, speed = e.dice_entry, e.speed_entry
    if len(whites) < 2 or (needed > 2 and speed is None):
        return None
    dice: list[int | str] = list(whites[:2])
    if needed > 2 and speed is not None:
        dice.append(speed)
    clear_dice(e)
    return Roll(who, tuple(dice))


def type_die(table: Table, e: EntryFields, value: int) -> Step:
    """One physical die typed (1-6): a white die until both are in, then, with the speed
    die, its number (1-3); the roll once all dice are in."""
    view = view_of(table)
    who, roll = roller(view)
    if who is None or not 1 <= value <= 6:
        return Refusal("not_mine")
    if roll is None:
        return Refusal("no_roll")
    if not dice_entered(view):
        return Refusal("device_dice")
    if len(e.dice_entry) < 2:
        e.dice_entry.append(value)
    elif dice_needed(view, who) > 2 and e.speed_entry is None and value <= 3:
        e.speed_entry = value
    else:
        return Refusal("speed_next")
    return _complete(view, e, who)


def untype_die(e: EntryFields) -> int | str | None:
    """NO while dice are being typed: the last die typed goes (the speed die first), to be
    typed again; the face taken back, or None when none was typed.

    >>> e = Entry(dice_entry=[5, 2])
    >>> untype_die(e), e.dice_entry
    (2, [5])
    """
    if e.speed_entry is not None:
        face, e.speed_entry = e.speed_entry, None
        return face
    if e.dice_entry:
        return e.dice_entry.pop()
    return None


def type_speed(table: Table, e: EntryFields, face: str) -> Step:
    """The speed die's bus or Mr. Monopoly typed, when the roll takes the speed die and it
    is not in yet; Refusal("not_mine") when the key means something else (M alone is
    MENU: after a white die it is Mr. Monopoly)."""
    view = view_of(table)
    who, roll = roller(view)
    if who is None or roll is None or e.speed_entry is not None or not dice_entered(view):
        return Refusal("not_mine")
    if dice_needed(view, who) < 3 or (face == "mr_monopoly" and not e.dice_entry):
        return Refusal("not_mine")
    e.speed_entry = face
    return _complete(view, e, who)


def turn_dial(table: Table, e: EntryFields, steps: int) -> bool:
    """The knob on the dice: the dial's face moves (the first clockwise detent shows 1);
    False when no roll is asked for."""
    view = view_of(table)
    _who, roll = roller(view)
    if roll is None or not dice_entered(view):
        return False
    faces = dial_faces(min(2, len(e.dice_entry)))
    start = 0 if e.dial is None else e.dial
    e.dial = (start + steps - (1 if e.dial is None and steps > 0 else 0)) % len(faces)
    return True


def dial_face(e: EntryFields) -> int | str:
    """The face the dial shows now."""
    faces = dial_faces(min(2, len(e.dice_entry)))
    return faces[(e.dial or 0) % len(faces)]


def back_dial(e: EntryFields) -> bool:
    """NO on the dial: the last die entered goes back on the dial (the speed die first);
    with none entered the dice entry ends. False when it ended."""
    if e.speed_entry is not None:
        face: int | str = e.speed_entry
        e.speed_entry = None
        e.dial = SPEED_FACES.index(face) if face in SPEED_FACES else 0
        return True
    if e.dice_entry:
        face = e.dice_entry.pop()
        e.dial = WHITE_FACES.index(face) if face in WHITE_FACES else 0
        return True
    clear_dice(e)
    return False


def take_dial(table: Table, e: EntryFields) -> Step:
    """YES on the dial: its face is the next die; the roll once all dice are in."""
    view = view_of(table)
    who, roll = roller(view)
    if who is None or roll is None or e.dial is None:
        e.dial = None  # the roll went meanwhile: the dial ends quietly
        return Refusal("not_mine")
    slot = min(2, len(e.dice_entry))
    face = dial_face(e)
    if slot < 2 and isinstance(face, int):
        e.dice_entry.append(face)
    elif face in SPEED_FACES:
        e.speed_entry = face
    e.dial = 0
    return _complete(view, e, who)


# --- amounts ----------------------------------------------------------------------------


def turn_bid(table: Table, e: EntryFields, steps: int) -> bool:
    """The knob during an auction: the next bid goes up or down by steps (never below the
    lowest bid); False when no auction runs."""
    decision = view_of(table).decision
    if decision is None or not decision.auction:
        return False
    turn_amount(e, steps)
    return True


def transfer_amount(table: Table, steps: int) -> int:
    """A payment set with the knob: `steps` steps of bid_step (0 until it is turned)."""
    return bid_step(table.state if isinstance(table, TableView) else table) * max(0, steps)


def turn_amount(e: EntryFields, steps: int) -> None:
    """The knob on an amount being entered (a bid or a payment): never below none."""
    e.bid_steps = max(0, e.bid_steps + steps)


# --- squares ----------------------------------------------------------------------------


def pick(table: Table, e: EntryFields, size: int | None = None) -> Pick | None:
    """The square choice on offer now (companion.inputs.picking.current_pick)."""
    view = view_of(table)
    return current_pick(view, e.bus_ride, e.square_focus, size)


def step_pick(table: Table, e: EntryFields, steps: int,
              size: int | None = None) -> bool:
    """Move the square in focus `steps` candidates on (negative: back); False when no
    square is being chosen."""
    view = view_of(table)
    choice = pick(view, e, size)
    if choice is None:
        return False
    e.square_focus = choice.step(steps)
    return True


def choose_square(table: Table, e: EntryFields, square: int | None = None,
                  size: int | None = None) -> Step:
    """Choose `square` (default: the one in focus) when it is on offer."""
    view = view_of(table)
    choice = pick(view, e, size)
    if choice is None or (square is not None and square not in choice.squares):
        return Refusal("not_on_offer")
    e.square_focus = None
    return choice.command(square)


def tap_square(table: Table, e: EntryFields, square: int,
               size: int | None = None) -> Step:
    """A candidate touched on the board: the first touch focuses it, the second chooses."""
    view = view_of(table)
    choice = pick(view, e, size)
    if choice is None or square not in choice.squares:
        return Refusal("not_on_offer")
    if choice.focus == square and e.square_focus == square:
        return choose_square(view, e, square, size)
    e.square_focus = square
    return None


def turn(table: Table, e: EntryFields, steps: int, size: int | None = None) -> bool:
    """The knob: the square in focus, else the next bid, else the dice dial; True when
    something changed."""
    view = view_of(table)
    return step_pick(view, e, steps, size) or turn_bid(view, e, steps) \
        or turn_dial(view, e, steps)


# --- the banker PIN ---------------------------------------------------------------------

PIN_DIGITS = "0123456789"


@dataclass
class PinEntry:
    """A banker PIN being entered before a banker action (`then`): the digits typed or
    dialled so far and the digit the knob's dial shows."""

    then: str
    digits: str = ""
    dial: int = 0


def type_pin(p: PinEntry, digit: str) -> bool:
    """One digit typed (a key); False when it is not a digit or the PIN is full.

    >>> p = PinEntry("banker_menu")
    >>> type_pin(p, "4"), type_pin(p, "x"), p.digits
    (True, False, '4')
    """
    if len(digit) != 1 or digit not in PIN_DIGITS or len(p.digits) >= MAX_PIN:
        return False
    p.digits += digit
    return True


def turn_pin(p: PinEntry, steps: int) -> None:
    """The knob (or the next-digit button): the dial's digit moves by `steps`, round."""
    p.dial = (p.dial + steps) % len(PIN_DIGITS)


def take_pin_dial(p: PinEntry) -> bool:
    """YES on the dial: its digit is the next one of the PIN."""
    return type_pin(p, PIN_DIGITS[p.dial])


def back_pin(p: PinEntry) -> bool:
    """NO: the last digit goes; False when there was none (the entry ends)."""
    if not p.digits:
        return False
    p.digits = p.digits[:-1]
    return True


def pin_to_check(p: PinEntry) -> str | Refusal:
    """The PIN to check when it is complete enough (4 to 12 digits), else
    Refusal("pin_short"); the digits are cleared either way (a PIN is checked once)."""
    digits, p.digits = p.digits, ""
    return digits if valid_pin(digits) else Refusal("pin_short")
