"""The input controller: input events + the public state -> actions for the screen program.

The table screen maps the panel's buttons to the game (companion.screen.views.prompt: one
mapping for the panel, the keyboard and the touchscreen). This controller handles only
what the hardware starts itself, and the buttons while one of those is under way:

- taps (companion.inputs.taps): a card when asked to buy, a drawn card, bank card then deed or
  bank card, the banker card; while a registration run is active (companion.inputs.registrar),
  every tap and button goes to the run instead;
- the knob during those: the amount after two bank cards or a bank card in an auction,
  the square of a bus ticket ride (a bus ticket tapped);
- the buttons during those: YES confirms, NO goes back or cancels, PASS GO after a bank
  card pays that player's salary;
- with `physical_dice` (a table without the screen's dial), ROLL starts entering the dice
  one at a time, the speed die's faces too (1, 2, 3, bus, Mr. Monopoly).

Any other button, and the knob otherwise, comes back as PassOn for the screen's mapping
(the screen's own dial enters dice, chooses squares and sets bids). The controller keeps a
small mode (companion.inputs.modes) between events and is otherwise pure: it never calls the
session, it returns actions for someone else to carry out (companion.inputs.pump.InputPump).
"""

from __future__ import annotations

from companion.game.api import JSON, Source
from companion.inputs.actions import (
    Action,
    PassOn,
    Show,
    Submit,
    command_from,
    legal_entry,
    money,
    pending,
)
from companion.inputs.events import (
    Button,
    ButtonEvent,
    EncoderEvent,
    Gesture,
    HardwareWarning,
    InputEvent,
    TagEvent,
)
from companion.inputs.modes import (
    AmountEntry,
    CardTapped,
    DiceEntry,
    Mode,
    SquarePick,
    describe_mode,
)
from companion.inputs.registrar import Registrar
from companion.inputs.registry import TagRegistry
from companion.inputs.taps import TapInterpreter
from companion.words import catalog as i18n

KNOB = "knob"


def _not_now(state: JSON, what: str) -> Show:
    ask = pending(state)
    hint = f" (waiting for {ask.get('player') or 'the table'}: {ask['kind']})" if ask else ""
    return Show("not_now", f"{what} is not possible now{hint}.")


def dice_count(state: JSON) -> int:
    """How many dice the roll due now takes: 3 with the speed die, except in jail and for
    a roll for the rent (the white dice only)."""
    if not (state.get("options") or {}).get("speed_die"):
        return 2
    if pending(state).get("kind") == "roll_for_rent":
        return 2
    roller = pending(state).get("player") or state.get("current")
    jailed = any(p.get("name") == roller and p.get("in_jail") for p in state.get("players") or [])
    return 2 if jailed else 3


def dice_prompt(mode: DiceEntry) -> Show:
    """The prompt while physical dice are entered."""
    which = len(mode.values) + 1
    name = "the speed die" if which == 3 else f"die {which} of {mode.count}"
    face = str(mode.current).replace("_", " ")
    msg = f"Enter {name}: {face} (knob or ROLL to change, YES to confirm, NO back)"
    return Show("enter_dice", msg, "prompt", describe_mode(mode) or {})


def amount_prompt(state: JSON, mode: AmountEntry) -> Show:
    """The prompt while an amount is entered."""
    amount = money(state, mode.amount)
    if mode.purpose == "bid":
        msg = f"{mode.player} bids {amount}: knob to change, YES to bid, NO to pass."
    else:
        msg = f"{mode.player} pays {mode.payee} {amount}: knob to change, YES to pay, NO to cancel."
    return Show("enter_amount", msg, "prompt", describe_mode(mode) or {})


def square_label(state: JSON, index: int) -> str:
    """A square's name: from the state (ownable squares), else from the edition's board."""
    for square in state.get("squares") or []:
        if square.get("index") == index:
            return str(square.get("name"))
    board = i18n.edition_data(str(state.get("edition") or "")).get("squares") or []
    if 0 <= index < len(board):
        return str(board[index].get("name", index))
    return f"#{index}"


def square_prompt(state: JSON, mode: SquarePick) -> Show:
    """The prompt while a square is picked with the knob."""
    what = "Ride to" if mode.entry.get("do") == "use_bus_ticket" else "Go to"
    msg = (f"{what} {square_label(state, mode.square)}? Knob to change, YES to choose, "
           f"NO to cancel; or tap the deed.")
    return Show("pick_square", msg, "prompt", describe_mode(mode) or {})


class InputController:
    """Routes input events through the current mode; returns actions to carry out.

    registry: the tag registry; registrar: the registration hook (one is made around the
    registry when not given); physical_dice: ROLL starts entering the table's dice here
    instead of going to the screen; amount_step: how much one knob detent changes an
    amount. Not thread-safe: feed it from one thread (InputPump does).
    """

    def __init__(
        self,
        registry: TagRegistry,
        *,
        registrar: Registrar | None = None,
        physical_dice: bool = False,
        amount_step: int = 10,
    ) -> None:
        self.registrar = registrar or Registrar(registry)
        self.taps = TapInterpreter(registry)
        self.physical_dice = physical_dice
        self.amount_step = amount_step
        self.mode: Mode | None = None

    def describe(self) -> JSON | None:
        """The current mode for the screen and phones (None when idle)."""
        return describe_mode(self.mode)

    def handle(self, event: InputEvent, state: JSON) -> list[Action]:
        """The actions for one input event given the current public state."""
        if self.mode is not None and self.mode.version != int(state.get("version", 0)):
            self.mode = None  # the game moved on meanwhile
        if isinstance(event, HardwareWarning):
            data = {"source": event.source}
            return [Show(event.code, event.message, "warning", data, event.active)]
        if isinstance(event, TagEvent):
            return self._tap(event.tag, state)
        if isinstance(event, EncoderEvent):
            return self._turn(event.steps, state)
        return self._button(event, state)

    # -- taps ---------------------------------------------------------------------------

    def _tap(self, tag: str, state: JSON) -> list[Action]:
        result = self.registrar.tap(tag)
        if result is not None:  # registering: the tap is the run's, not the game's
            self.mode = None
            data = {"tag": tag, "outcome": result.outcome}
            actions: list[Action] = [Show("registration", result.message, "prompt", data)]
            if result.done:
                actions.append(Show("registration_done", "Card registration finished."))
            return actions
        mode = self.mode
        if isinstance(mode, SquarePick):
            return self._square_tap(mode, tag, state)
        actions, self.mode = self.taps.interpret(tag, state, mode)
        if isinstance(self.mode, SquarePick):
            actions.append(square_prompt(state, self.mode))
        return actions

    def _square_tap(self, mode: SquarePick, tag: str, state: JSON) -> list[Action]:
        role = self.taps.registry.lookup(tag)
        square = next((s for s in state.get("squares") or []
                       if role is not None and s.get("id") == role.square), None)
        if square is None or int(square["index"]) not in mode.squares:
            return [Show("not_reachable", "Tap the deed of a square on offer, or use the knob."),
                    square_prompt(state, mode)]
        self.mode = None
        return [self._submit_square(mode, int(square["index"]))]

    def _submit_square(self, mode: SquarePick, square: int) -> Submit:
        command = {**mode.entry, "square": square}
        return Submit(command, Source("rfid", player=command.get("by")))

    # -- buttons and knob ---------------------------------------------------------------

    def _button(self, event: ButtonEvent, state: JSON) -> list[Action]:
        button, mode = event.button, self.mode
        result = self.registrar.press(button.value)
        if result is not None:
            self.mode = None
            code = "registration_done" if result.done else "registration"
            return [Show(code, result.message, "prompt" if not result.done else "notice")]
        if isinstance(mode, DiceEntry):
            return self._dice_button(mode, button, state)
        if isinstance(mode, AmountEntry):
            return self._amount_button(mode, button, state)
        if isinstance(mode, SquarePick):
            return self._square_button(mode, button, state)
        if isinstance(mode, CardTapped):
            self.mode = None
            if button is Button.NO:
                return [Show("tap_cancelled", "Cancelled.")]
            if button is Button.PASS_GO:  # your card then PASS GO: your salary
                entry = legal_entry(state, "pass_go", mode.player)
                if entry is None:
                    return [_not_now(state, "Paying the salary")]
                command = command_from(entry, by=mode.player)
                return [Submit(command, Source("rfid", player=mode.player))]
        if button is Button.ROLL and self.physical_dice:
            started = self._start_dice(state)
            if started:
                return started
        return [PassOn(button.value, event.gesture is Gesture.HOLD)]

    def _start_dice(self, state: JSON) -> list[Action]:
        roll = legal_entry(state, "roll", pending(state).get("player") or None)
        if roll is None:
            return []
        self.mode = DiceEntry(int(state.get("version", 0)), command_from(roll),
                              count=dice_count(state))
        return [dice_prompt(self.mode)]

    def _dice_button(self, mode: DiceEntry, button: Button, state: JSON) -> list[Action]:
        if button is Button.ROLL:
            mode.turn(1)
            return [dice_prompt(mode)]
        if button is Button.YES:
            mode.values.append(mode.current)
            if len(mode.values) == mode.count:
                self.mode = None
                command = {**mode.entry, "dice": list(mode.values)}
                return [Submit(command, Source("button", player=command.get("by")))]
            mode.current = 1
            return [dice_prompt(mode)]
        if button is Button.NO and mode.values:
            mode.current = mode.values.pop()
            return [dice_prompt(mode)]
        self.mode = None
        return [Show("dice_cancelled", "Dice entry cancelled.")]

    def _amount_button(self, mode: AmountEntry, button: Button, state: JSON) -> list[Action]:
        if button is Button.YES:
            return self._finish_amount(mode, state)
        if button is Button.NO and mode.purpose == "bid":
            self.mode = None
            entry = legal_entry(state, "pass", mode.player)
            if entry is None:
                return [_not_now(state, "Passing")]
            return [Submit(command_from(entry, by=mode.player), Source("rfid", mode.player))]
        if button in {Button.NO, Button.UNDO, Button.MENU}:
            self.mode = None
            return [Show("amount_cancelled", "Cancelled.")]
        return [amount_prompt(state, mode)]

    def _square_button(self, mode: SquarePick, button: Button, state: JSON) -> list[Action]:
        if button is Button.YES:
            self.mode = None
            return [self._submit_square(mode, mode.square)]
        if button is Button.ROLL:
            mode.at = (mode.at + 1) % len(mode.squares)
            return [square_prompt(state, mode)]
        self.mode = None
        return [Show("pick_cancelled", "Cancelled.")]

    def _turn(self, steps: int, state: JSON) -> list[Action]:
        mode = self.mode
        if isinstance(mode, DiceEntry):
            mode.turn(steps)
            return [dice_prompt(mode)]
        if isinstance(mode, SquarePick):
            mode.at = (mode.at + steps) % len(mode.squares)
            return [square_prompt(state, mode)]
        if isinstance(mode, AmountEntry):
            amount = max(mode.minimum, mode.amount + steps * self.amount_step)
            if mode.maximum is not None:
                amount = min(amount, int(mode.maximum))
            mode.amount = amount
            return [amount_prompt(state, mode)]
        if self.registrar.active:
            return []
        # the screen's dial: physical dice, the square to choose, the next bid, lists
        return [PassOn(KNOB, steps=steps)]

    def enter_amount(self, amount: int, state: JSON) -> list[Action]:
        """An amount typed on the screen or phone keypad finishes the amount being entered."""
        mode = self.mode
        if mode is not None and mode.version != int(state.get("version", 0)):
            self.mode = mode = None
        if not isinstance(mode, AmountEntry):
            return [Show("not_now", "No amount is being entered.")]
        mode.amount = amount
        return self._finish_amount(mode, state)

    def _finish_amount(self, mode: AmountEntry, state: JSON) -> list[Action]:
        if mode.amount < mode.minimum or (
            mode.maximum is not None and mode.amount > int(mode.maximum)
        ):
            return [
                Show("bad_amount", f"{money(state, mode.amount)} is not possible."),
                amount_prompt(state, mode),
            ]
        self.mode = None
        source = Source("rfid", player=mode.player)
        if mode.purpose == "bid":
            entry = legal_entry(state, "bid", mode.player)
            if entry is None:
                return [_not_now(state, "Bidding")]
            return [Submit(command_from(entry, by=mode.player, amount=mode.amount), source)]
        command = {"do": "pay", "from": mode.player, "to": mode.payee, "amount": mode.amount}
        return [Submit(command, source)]
