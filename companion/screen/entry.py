"""The screen's side of the one input flow (companion.inputs.entry): typed and dialled dice,
the knob, the square being chosen on the board; and the hardware's warnings.

`EntryMixin` is part of the `Controller` (companion.screen.controller): the flow's state is
the UiState's, each step is companion.inputs.entry's, and this only submits the command a
step returns (through the controller's `submit`) or says why it did nothing, on the screen
loop's thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.game.api import Outcome
from companion.game.table.view import TableView
from companion.inputs import entry
from companion.screen.texts import language, text
from companion.screen.views.prompt import table_of
from companion.words import input_texts

if TYPE_CHECKING:
    from companion.game.api import JSON
    from companion.rules.commands import Command
    from companion.screen.ui_state import UiState


def warning_text(code: str, source: str, message: str) -> str:
    """A hardware warning in the screen's language, by its code (the inputs' sentence,
    companion.words.input_texts, which the voice says too); unknown codes keep the
    hardware's own message.

    >>> from companion.screen.texts import use_language
    >>> use_language("en")
    'en'
    >>> warning_text("button_stuck", "roll", "ROLL stuck")
    'ROLL button stuck: check it'
    >>> warning_text("fan_on_fire", "fan", "The fan is on fire")
    'The fan is on fire'
    """
    return input_texts.warning_text(code, language(), source, message)


class EntryMixin:
    """Dice entry, dial, square choice, bid dial and warnings for the Controller."""

    if TYPE_CHECKING:
        ui: UiState
        state: JSON | None

        def submit(self, command: Command | JSON, source: str) -> Outcome | None: ...

        def refuse(self, refusal: str | Outcome) -> None: ...

        def wake(self) -> None: ...

        def say_warning(self, sentences: Callable[[str], list[str]]) -> None: ...

        inbox: Any

    # --- thread-safe entry points (hardware threads) ------------------------------------

    def post_encoder(self, steps: int) -> None:
        """The panel's encoder turned by `steps` detents: handled on the loop's thread."""
        self.inbox.put(("encoder", int(steps)))
        self.wake()

    def post_warning(self, code: str, source: str, message: str, active: bool = True) -> None:
        """A hardware warning (a stuck or chattering button, a silent reader); active=False
        clears it."""
        self.inbox.put(("warning", (code, source, message, active)))
        self.wake()

    # --- the loop's side ------------------------------------------------------------------

    def warn(self, code: str, source: str, message: str, active: bool = True) -> None:
        """Show a hardware warning until the hardware clears it; said aloud when it comes
        (in the table's language, as the voice speaks it)."""
        key = f"{code}:{source}"
        if active:
            new = key not in self.ui.warnings
            self.ui.warnings[key] = warning_text(code, source, message)
            if new:
                self.say_warning(
                    lambda lang: [input_texts.warning_text(code, lang, source, message)])
        else:
            self.ui.warnings.pop(key, None)

    def _table(self) -> TableView | None:
        """The session's view of the table for the screen's state (None: no state yet)."""
        return table_of(self.state, self.ui) if self.state is not None else None

    def _step(self, step: entry.Step, source: str) -> None:
        """Carry out what a step of the flow returned: submit its command, or say why not."""
        if isinstance(step, entry.Refusal):
            if step.code == "no_roll":
                self.refuse(text("nothing_for_button", button=text("btn_roll")))
            elif step.code == "speed_next":
                self.refuse(text("prompt_speed_next"))
            elif step.code == "device_dice":  # the companion rolls at this table
                self.refuse(Outcome(False, 0, code="device_dice",
                                    message="this table rolls with the companion"))
        elif step is not None:
            self.submit(step, source)

    def dice_digit(self, value: int, source: str = "keyboard") -> None:
        """One physical die typed: a white die (1-6) until both are in, then, with the speed
        die, its number (1-3); the roll is sent when all dice are in."""
        table = self._table()
        if table is not None:
            self._step(entry.type_die(table, self.ui, value), source)

    def speed_key(self, face: str, source: str = "keyboard") -> bool:
        """B (bus) or M (Mr. Monopoly) typed: the speed die's face, when the roll takes the
        speed die and it is not in yet; False when the key means something else."""
        table = self._table()
        if table is None:
            return False
        step = entry.type_speed(table, self.ui, face)
        if isinstance(step, entry.Refusal):
            return False
        self._step(step, source)
        return True

    def untype_die(self) -> None:
        """NO while dice are being typed: the last die typed goes (a wrong key)."""
        entry.untype_die(self.ui)

    def clear_dice(self) -> None:
        """Forget the dice typed or dialled so far."""
        entry.clear_dice(self.ui)

    # --- the encoder ----------------------------------------------------------------------

    def turn(self, steps: int) -> bool:
        """Encoder detents: move the banker PIN's dial, a list's focus, the square being
        chosen, the dice dial or the next bid; True when something changed."""
        if self.ui.pin is not None:  # the banker PIN's dial
            entry.turn_pin(self.ui.pin, steps)
            return True
        chooser = self.ui.chooser
        if self.ui.overlay == "chooser" and chooser is not None and chooser.choices:
            chooser.focus = (chooser.focus + steps) % len(chooser.choices)
            return True
        table = self._table()
        if table is None or not table.players or self.ui.setup is not None:
            return False
        return entry.turn(table, self.ui, steps, self.ui.board.size)

    def dial_take(self, source: str) -> None:
        """YES in dial mode: the dialled face is the next die."""
        table = self._table()
        if table is not None:
            self._step(entry.take_dial(table, self.ui), source)

    def dial_back(self) -> None:
        """NO in dial mode: the last die entered goes back on the dial; none: the dial ends."""
        entry.back_dial(self.ui)

    def pick_step(self, steps: int) -> None:
        """NO / PASS GO while choosing a square: the next (previous) candidate."""
        table = self._table()
        if table is not None:
            entry.step_pick(table, self.ui, steps, self.ui.board.size)

    def tap_square(self, square: int, source: str) -> None:
        """A candidate square touched on the board: focus it; touched again, choose it."""
        table = self._table()
        if table is not None:
            self._step(entry.tap_square(table, self.ui, square, self.ui.board.size), source)
