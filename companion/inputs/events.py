"""Input events the hardware puts on the stream, and the warnings it shows on screen.

Hardware callbacks build one of these and hand it to an `emit` callable (often
`queue.Queue.put`); they never touch the game state or draw. A controller later turns the
events into commands (see companion.inputs.controller).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class Button(Enum):
    """The big buttons on the panel; values are the names used in pin maps and configs."""

    ROLL = "roll"
    """Roll the device's dice, or start entering the physical dice."""
    YES = "yes"
    """Answer yes to the prompt (buy, draw, confirm)."""
    NO = "no"
    """Answer no to the prompt (decline, cancel)."""
    PASS_GO = "pass_go"
    """Pay the current player's salary (bank-only tables, corrections)."""
    UNDO = "undo"
    """Undo the last command, after a confirmation."""
    MENU = "menu"
    """Open the menu; held, the banker menu."""


class Gesture(Enum):
    """How a button was used."""

    PRESS = "press"
    """A short press (reported on release for buttons with a hold gesture)."""
    HOLD = "hold"
    """Held down for the button's hold time (reported while still held)."""


@dataclass(frozen=True)
class ButtonEvent:
    """A debounced button gesture."""

    button: Button
    gesture: Gesture = Gesture.PRESS


@dataclass(frozen=True)
class EncoderEvent:
    """The rotary encoder turned by `steps` detents (positive: clockwise)."""

    steps: int


@dataclass(frozen=True)
class TagEvent:
    """A card was placed on a reader (one placement is one tap).

    read_at: time.perf_counter() when the read that completed the frame returned; used to
    measure frame-to-command latency.
    """

    tag: str
    reader: str = ""
    read_at: float = 0.0


@dataclass(frozen=True)
class HardwareWarning:
    """Something the table should know about the hardware; active=False clears it.

    code: a stable identifier for translations (button_stuck, button_chatter,
    reader_unplugged, reader_silent); source: which button or reader.
    """

    code: str
    source: str
    message: str
    active: bool = True


InputEvent = ButtonEvent | EncoderEvent | TagEvent | HardwareWarning
Emit = Callable[[InputEvent], None]
