"""The input controller: input events + the public state -> actions for the screen program.

Buttons do what the game is waiting for (from `pending` and `legal`): ROLL rolls (or starts
entering physical dice, or ends a finished turn); YES / NO answer the prompt; PASS GO pays
the salary; UNDO asks first; MENU opens the menu, held the banker menu. Taps go through
hardware.taps. The controller keeps a small mode (hardware.modes) between events and is
otherwise pure: it never calls the session, it returns actions for someone else to carry
out (hardware.pump.InputPump, or the screen program itself).
"""

from __future__ import annotations

from companion.session_api import JSON, Source
from hardware.actions import (
    Action,
    OpenMenu,
    Show,
    Submit,
    Undo,
    command_from,
    legal_entry,
    money,
    pending,
)
from hardware.events import (
    Button,
    ButtonEvent,
    EncoderEvent,
    Gesture,
    HardwareWarning,
    InputEvent,
    TagEvent,
)
from hardware.modes import AmountEntry, CardTapped, ConfirmUndo, DiceEntry, Mode, describe_mode
from hardware.registration import RegistrationFlow
from hardware.registry import TagRegistry
from hardware.taps import TapInterpreter

Result = tuple[list[Action], Mode | None]


def _source(state: JSON, command: JSON | None = None) -> Source:
    by = (command or {}).get("by") or state.get("current")
    return Source("button", player=by)


def _submit(state: JSON, command: JSON) -> Submit:
    return Submit(command, _source(state, command))


def _not_now(state: JSON, what: str) -> Show:
    ask = pending(state)
    hint = f" (waiting for {ask.get('player') or 'the table'}: {ask['kind']})" if ask else ""
    return Show("not_now", f"{what} is not possible now{hint}.")


def dice_prompt(mode: DiceEntry) -> Show:
    """The prompt while physical dice are entered."""
    which = "first" if not mode.values else "second"
    msg = f"Enter the {which} die: {mode.current} (knob or ROLL to change, YES to confirm)"
    return Show("enter_dice", msg, "prompt", describe_mode(mode) or {})


def amount_prompt(state: JSON, mode: AmountEntry) -> Show:
    """The prompt while an amount is entered."""
    amount = money(state, mode.amount)
    if mode.purpose == "bid":
        msg = f"{mode.player} bids {amount}: knob to change, YES to bid, NO to pass."
    else:
        msg = f"{mode.player} pays {mode.payee} {amount}: knob to change, YES to pay, NO to cancel."
    return Show("enter_amount", msg, "prompt", describe_mode(mode) or {})


def button_actions(
    button: Button, gesture: Gesture, state: JSON, *, physical_dice: bool = False
) -> Result:
    """What a button does when nothing is being entered: actions and the next mode.

    Pure: the same button in the same state always does the same thing.
    """
    ask = pending(state)
    kind = ask.get("kind")
    version = int(state.get("version", 0))
    if button is Button.MENU:
        if gesture is Gesture.HOLD:
            return [OpenMenu("banker", Source("button"), authorized=False)], None
        return [OpenMenu("main", _source(state))], None
    if button is Button.UNDO:
        show = Show("confirm_undo", "Undo the last action? YES to undo, NO to keep.", "prompt")
        return [show], ConfirmUndo(version)
    if button is Button.PASS_GO:
        entry = legal_entry(state, "pass_go", state.get("current"))
        if entry is None:
            return [_not_now(state, "Paying the salary")], None
        return [_submit(state, command_from(entry))], None
    if button is Button.ROLL or (button is Button.YES and kind == "roll_for_rent"):
        roll = legal_entry(state, "roll")
        if roll is not None:
            if physical_dice:
                mode = DiceEntry(version, command_from(roll))
                return [dice_prompt(mode)], mode
            return [_submit(state, command_from(roll))], None
        end = legal_entry(state, "end_turn")
        if end is not None and not kind:
            return [_submit(state, command_from(end))], None
        return [_not_now(state, "Rolling")], None
    if button is Button.YES:
        return _yes(state, kind), None
    return _no(state, kind), None


def _yes(state: JSON, kind: str | None) -> list[Action]:
    if kind in {"buy", "draw"}:
        entry = legal_entry(state, kind)
        return [_submit(state, command_from(entry))] if entry else [_not_now(state, "That")]
    if kind == "lift_mortgages":
        entry = legal_entry(state, "unmortgage")
        squares = (entry or {}).get("squares") or pending(state).get("squares") or []
        if entry is None or not squares:
            return [_not_now(state, "Lifting the mortgages")]
        return [_submit(state, command_from(entry, square=sq)) for sq in squares]
    if kind in {"auction", "building_auction"}:
        close = legal_entry(state, "close_auction")
        if close is not None:
            return [_submit(state, command_from(close))]
        return [Show("tap_to_bid", "Tap your bank card to bid.")]
    if kind:
        return [_not_now(state, "YES")]
    end = legal_entry(state, "end_turn")
    if end is not None:
        return [_submit(state, command_from(end))]
    return [_not_now(state, "Ending the turn")]


def _no(state: JSON, kind: str | None) -> list[Action]:
    if kind in {"buy", "lift_mortgages"}:
        entry = legal_entry(state, "decline")
        return [_submit(state, command_from(entry))] if entry else [_not_now(state, "NO")]
    if kind == "auction":
        return [Show("tap_to_pass", "Tap your bank card, then NO, to pass.")]
    return [_not_now(state, "NO")]


class InputController:
    """Routes input events through the current mode; returns actions to carry out.

    registry: the tag registry; physical_dice: ROLL starts entering the table's dice
    instead of rolling the device's; amount_step: how much one knob detent changes an
    amount. Not thread-safe: feed it from one thread (InputPump does).
    """

    def __init__(
        self, registry: TagRegistry, *, physical_dice: bool = False, amount_step: int = 10
    ) -> None:
        self.taps = TapInterpreter(registry)
        self.physical_dice = physical_dice
        self.amount_step = amount_step
        self.mode: Mode | None = None
        self.registration: RegistrationFlow | None = None

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
            if self.registration is not None:
                return self._register(event.tag)
            actions, self.mode = self.taps.interpret(event.tag, state, self.mode)
            return actions
        if isinstance(event, EncoderEvent):
            return self._turn(event.steps, state)
        return self._button(event, state)

    # -- registration -------------------------------------------------------------------

    def start_registration(self, flow: RegistrationFlow) -> list[Action]:
        """Send taps to `flow` until it is done or stopped."""
        self.registration, self.mode = flow, None
        return [Show("registration", flow.prompt(), "prompt", {"title": flow.title})]

    def stop_registration(self) -> list[Action]:
        """Leave registration; taps mean game actions again."""
        self.registration = None
        return [Show("registration_done", "Card registration finished.")]

    def _register(self, tag: str) -> list[Action]:
        flow = self.registration
        assert flow is not None
        result = flow.on_tag(tag)
        actions: list[Action] = [Show("registration", result.message, "prompt", {"tag": tag})]
        if result.done:
            actions += self.stop_registration()
        return actions

    def _registration_button(self, event: ButtonEvent) -> list[Action]:
        flow = self.registration
        assert flow is not None
        if event.button is Button.NO:
            return [Show("registration", flow.skip(), "prompt")]
        if event.button is Button.UNDO:
            return [Show("registration", flow.back(), "prompt")]
        if event.button is Button.MENU:
            return self.stop_registration()
        return [Show("registration", flow.prompt(), "prompt")]

    # -- buttons and knob ---------------------------------------------------------------

    def _button(self, event: ButtonEvent, state: JSON) -> list[Action]:
        if self.registration is not None:
            return self._registration_button(event)
        button, mode = event.button, self.mode
        if isinstance(mode, ConfirmUndo):
            self.mode = None
            if button in {Button.YES, Button.UNDO}:
                # confirmed at the table: the panel acts for the table, like the banker
                return [Undo(Source("button", banker=True))]
            return [Show("undo_cancelled", "Nothing was undone.")]
        if isinstance(mode, DiceEntry):
            return self._dice_button(mode, button, state)
        if isinstance(mode, AmountEntry):
            return self._amount_button(mode, button, state)
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
        actions, self.mode = button_actions(
            button, event.gesture, state, physical_dice=self.physical_dice
        )
        return actions

    def _dice_button(self, mode: DiceEntry, button: Button, state: JSON) -> list[Action]:
        if button is Button.ROLL:
            mode.current = mode.current % 6 + 1
            return [dice_prompt(mode)]
        if button is Button.YES:
            mode.values.append(mode.current)
            if len(mode.values) == 2:
                self.mode = None
                return [_submit(state, {**mode.entry, "dice": list(mode.values)})]
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

    def _turn(self, steps: int, state: JSON) -> list[Action]:
        mode = self.mode
        if isinstance(mode, DiceEntry):
            mode.current = (mode.current - 1 + steps) % 6 + 1
            return [dice_prompt(mode)]
        if isinstance(mode, AmountEntry):
            amount = max(mode.minimum, mode.amount + steps * self.amount_step)
            if mode.maximum is not None:
                amount = min(amount, int(mode.maximum))
            mode.amount = amount
            return [amount_prompt(state, mode)]
        return []

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
