"""The input controller: input events + the session's view of the table (GameSession.table():
what each person may send, the players and deeds as typed records) -> actions for the
screen program.

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
(the screen's own dial enters dice, chooses squares and sets bids). Dice, amounts and
squares are entered by the one flow (companion.inputs.entry), on the controller's own
`Entry`; between events it keeps that and a small mode (companion.inputs.modes) and is
otherwise pure: it never calls the session, it returns actions for someone else to carry
out (companion.inputs.pump.InputPump).
"""

from __future__ import annotations

from companion.game.api import JSON, Source
from companion.game.authority import actor_of
from companion.game.table.buttons import bid_amount
from companion.game.table.offers import OfferStore
from companion.game.table.view import TableView, build
from companion.inputs import entry as flow
from companion.inputs.actions import (
    Action,
    PassOn,
    Show,
    Submit,
    money,
    offered,
    say,
)
from companion.inputs.entry import Entry, Refusal, dial_face, dice_needed
from companion.inputs.events import (
    Button,
    ButtonEvent,
    EncoderEvent,
    Gesture,
    HardwareWarning,
    InputEvent,
    TagEvent,
)
from companion.inputs.modes import AmountEntry, CardTapped, Mode, OfferAsked, RidePick
from companion.inputs.picking import Pick
from companion.inputs.registrar import Registrar
from companion.inputs.registry import TagRegistry
from companion.inputs.taps import TapInterpreter, amount_question
from companion.rules.commands import Bid, Pay

KNOB = "knob"


def dice_count(table: TableView) -> int:
    """How many dice the roll due now takes (companion.inputs.entry.dice_needed)."""
    return dice_needed(table, flow.acting_player(table))


def describe_dice(table: TableView, e: Entry) -> JSON:
    """The dice being entered, for the screen and phones."""
    values: list[int | str] = list(e.dice_entry)
    if e.speed_entry is not None:
        values.append(e.speed_entry)
    return {"kind": "dice", "values": values, "current": dial_face(e),
            "count": dice_count(table)}


def describe_amount(mode: AmountEntry) -> JSON:
    """The amount being entered, for the screen and phones."""
    return {"kind": "amount", "purpose": mode.purpose, "player": mode.player,
            "payee": mode.payee, "amount": mode.amount}


def describe_pick(pick: Pick) -> JSON:
    """The square being picked, for the screen and phones."""
    return {"kind": "square", "do": pick.verb, "square": pick.focus,
            "squares": list(pick.squares)}


def dice_prompt(table: TableView, e: Entry) -> Show:
    """The prompt while physical dice are entered."""
    info = describe_dice(table, e)
    which = len(info["values"]) + 1
    face = str(dial_face(e))
    if which == 3:
        return say("enter_dice", "enter_speed_die", "prompt", info, face=face)
    return say("enter_dice", "enter_die", "prompt", info, number=which, count=info["count"],
               face=face)


def amount_prompt(state: JSON, mode: AmountEntry) -> Show:
    """The prompt while an amount is entered (companion.inputs.taps.amount_question)."""
    return amount_question(state, mode)


def square_label(table: TableView, index: int) -> str:
    """A square's name: the deed's (ownable squares), else from the edition's board."""
    deed = table.deed(index)
    if deed is not None:
        return deed.name
    printed = table.setup.printed_name(index)
    return printed if printed is not None else f"#{index}"


def square_prompt(table: TableView, pick: Pick) -> Show:
    """The prompt while a square is picked with the knob."""
    sentence = "pick_ride" if pick.verb == "use_bus_ticket" else "pick_go"
    return say("pick_square", sentence, "prompt", describe_pick(pick),
               square=square_label(table, pick.focus))


class InputController:
    """Routes input events through the current mode; returns actions to carry out.

    registry: the tag registry; registrar: the registration hook (one is made around the
    registry when not given); physical_dice: ROLL starts entering the table's dice here
    instead of going to the screen; offers: the table's open offers (a bank card's owner
    is asked about the one waiting for them). Not thread-safe: feed it from one thread (InputPump
    does).
    """

    def __init__(
        self,
        registry: TagRegistry,
        *,
        registrar: Registrar | None = None,
        physical_dice: bool = False,
        offers: OfferStore | None = None,
    ) -> None:
        self.registrar = registrar or Registrar(registry)
        self.taps = TapInterpreter(registry, offers)
        self.physical_dice = physical_dice
        self.mode: Mode | None = None
        self.entry = Entry()  # the one flow's state: dice dialled, amount steps, ride square
        self._version: int | None = None
        self._state: JSON = {}
        self._table: TableView = build({})

    def describe(self) -> JSON | None:
        """What is being entered now, for the screen and phones (None when idle)."""
        state, mode = self._state, self.mode
        if self.entry.dial is not None:
            return describe_dice(self._table, self.entry)
        if isinstance(mode, AmountEntry):
            return describe_amount(mode)
        pick = self._pick(state)
        if pick is not None:
            return describe_pick(pick)
        if isinstance(mode, CardTapped):
            return {"kind": "card_tapped", "player": mode.player}
        if isinstance(mode, OfferAsked):
            return {"kind": "offer_asked", "player": mode.player, "offer": mode.offer}
        return None

    def busy(self) -> bool:
        """Whether a gesture the hardware started waits for a button (a bank card's question,
        an offer put to its owner, an amount, dice, a ride): the keys and the touch screen
        answer it too, as the panel does."""
        return self.mode is not None or self.entry.dial is not None

    def _pick(self, state: JSON) -> Pick | None:
        """The ride being picked, when a tapped bus ticket started one."""
        if not isinstance(self.mode, RidePick):
            return None
        return flow.pick(self._table, self.entry)

    def _reset(self) -> None:
        self.mode = None
        self.entry = Entry()

    def _sync(self, table: TableView | JSON) -> JSON:
        """Take the table as it is now (the session's view; a bare state JSON, as a test
        holds it, is read into one) and drop what was under way when the game moved on
        meanwhile; the public state JSON the view was built from."""
        if not isinstance(table, TableView):
            table = build(table)
        if table.version != self._version:
            self._reset()
            self._version = table.version
        self._table = table
        raw = table.state
        self._state = state = raw if isinstance(raw, dict) else dict(raw)
        return state

    def handle(self, event: InputEvent, table: TableView | JSON) -> list[Action]:
        """The actions for one input event given the table now (the session's typed view,
        GameSession.table(); or the public state JSON it is built from)."""
        state = self._sync(table)
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
            self._reset()
            data = {"tag": tag, "outcome": result.outcome}
            actions: list[Action] = [Show("registration", result.message, "prompt", data)]
            if result.done:
                actions.append(say("registration_done", "reg_finished"))
            return actions
        pick = self._pick(state)
        if pick is not None:
            return self._square_tap(pick, tag, state)
        actions, self.mode = self.taps.interpret(tag, self._table, self.mode)
        if isinstance(self.mode, AmountEntry):
            self.entry.bid_steps = 0
            self._set_amount(self.mode, state)
        if isinstance(self.mode, RidePick):
            self.entry.bus_ride, self.entry.square_focus = True, None
            pick = self._pick(state)
            if pick is None:
                self._reset()
            else:
                actions.append(square_prompt(self._table, pick))
        return actions

    def _square_tap(self, pick: Pick, tag: str, state: JSON) -> list[Action]:
        role = self.taps.registry.lookup(tag)
        square = self._table.deed_by_id(role.square or "") if role is not None else None
        if square is None or square.index not in pick.squares:
            return [say("not_reachable"), square_prompt(self._table, pick)]
        return self._choose(state, square.index)

    def _choose(self, state: JSON, square: int | None = None) -> list[Action]:
        step = flow.choose_square(self._table, self.entry, square)
        self._reset()
        if step is None or isinstance(step, Refusal):
            return [say("pick_cancelled", "tap_cancelled")]
        return [Submit(step, Source("rfid", player=actor_of(step)))]

    # -- buttons and knob ---------------------------------------------------------------

    def _button(self, event: ButtonEvent, state: JSON) -> list[Action]:
        button, mode = event.button, self.mode
        result = self.registrar.press(button.value)
        if result is not None:
            self._reset()
            code = "registration_done" if result.done else "registration"
            return [Show(code, result.message, "prompt" if not result.done else "notice")]
        if self.entry.dial is not None:
            return self._dice_button(button, state)
        if isinstance(mode, AmountEntry):
            return self._amount_button(mode, button, state)
        pick = self._pick(state)
        if pick is not None:
            return self._square_button(pick, button, state)
        if isinstance(mode, OfferAsked) and button is Button.YES:
            self._reset()  # yes to exactly the offer that was put to them
            return self.taps.accept(mode)
        if isinstance(mode, CardTapped | OfferAsked):
            self._reset()
            if button is Button.NO:
                return [say("tap_cancelled")]
            if button is Button.PASS_GO:  # your card then PASS GO: your salary
                # sent even when not offered: the session says why not (the companion pays
                # GO itself, the salary of this move was paid, jail...)
                move = offered(self._table, "pass_go", mode.player)
                command = move.command(by=mode.player) if move is not None else \
                    {"do": "pass_go", "by": mode.player}
                return [Submit(command, Source("rfid", player=mode.player))]
        table = self._table
        if button is Button.ROLL and self.physical_dice and flow.roller(table)[1] is not None \
                and flow.dice_entered(table):
            self.entry.dial = 0  # the dial shows 1
            return [dice_prompt(self._table, self.entry)]
        return [PassOn(button.value, event.gesture is Gesture.HOLD)]

    def _dice_button(self, button: Button, state: JSON) -> list[Action]:
        e = self.entry
        if button is Button.ROLL:
            flow.turn_dial(self._table, e, 1)
            return [dice_prompt(self._table, e)]
        if button is Button.YES:
            step = flow.take_dial(self._table, e)
            if step is not None and not isinstance(step, Refusal):
                self._reset()
                return [Submit(step, Source("button", player=actor_of(step)))]
            if step is None:
                return [dice_prompt(self._table, e)]
        elif button is Button.NO and flow.back_dial(e):
            return [dice_prompt(self._table, e)]
        self._reset()
        return [say("dice_cancelled")]

    def _amount_button(self, mode: AmountEntry, button: Button, state: JSON) -> list[Action]:
        if button is Button.YES:
            return self._finish_amount(mode, state)
        if button is Button.NO and mode.purpose == "bid":
            self._reset()
            move = offered(self._table, "pass", mode.player)
            if move is None:
                return [say("not_now", "cannot_pass", player=mode.player)]
            return [Submit(move.command(by=mode.player), Source("rfid", mode.player))]
        if button in {Button.NO, Button.UNDO, Button.MENU}:
            self._reset()
            return [say("tap_cancelled")]
        if button in (Button.ROLL, Button.PASS_GO):  # a table without a knob: more, less
            flow.turn_amount(self.entry, 1 if button is Button.ROLL else -1)
            self._set_amount(mode, state)
        return [amount_prompt(state, mode)]

    def _square_button(self, pick: Pick, button: Button, state: JSON) -> list[Action]:
        if button is Button.YES:
            return self._choose(state)
        if button is Button.ROLL:
            flow.step_pick(self._table, self.entry, 1)
            return [square_prompt(self._table, flow.pick(self._table, self.entry) or pick)]
        self._reset()
        return [say("pick_cancelled", "tap_cancelled")]

    def _turn(self, steps: int, state: JSON) -> list[Action]:
        mode, e = self.mode, self.entry
        if e.dial is not None:
            flow.turn_dial(self._table, e, steps)
            return [dice_prompt(self._table, e)]
        pick = self._pick(state)
        if pick is not None:
            flow.step_pick(self._table, e, steps)
            return [square_prompt(self._table, flow.pick(self._table, e) or pick)]
        if isinstance(mode, AmountEntry):
            flow.turn_amount(e, steps)
            self._set_amount(mode, state)
            return [amount_prompt(state, mode)]
        if self.registrar.active:
            return []
        # the screen's dial: physical dice, the square to choose, the next bid, lists
        return [PassOn(KNOB, steps=steps)]

    def _set_amount(self, mode: AmountEntry, state: JSON) -> None:
        """The amount the knob's steps make (the one flow's bid or payment)."""
        if mode.purpose == "bid":
            mode.amount = bid_amount(state, mode.player, self.entry.bid_steps) or 0
        else:
            mode.amount = flow.transfer_amount(self._table, self.entry.bid_steps)

    def enter_amount(self, amount: int, table: TableView | JSON) -> list[Action]:
        """An amount typed on the screen or phone keypad finishes the amount being entered."""
        state = self._sync(table)
        mode = self.mode
        if not isinstance(mode, AmountEntry):
            return [say("not_now", "amount_not_now")]
        mode.amount = amount
        return self._finish_amount(mode, state)

    def _finish_amount(self, mode: AmountEntry, state: JSON) -> list[Action]:
        source = Source("rfid", player=mode.player)
        if mode.purpose == "bid":
            bid = offered(self._table, "bid", mode.player)
            if bid is None:
                self._reset()
                return [say("not_now", "cannot_bid", player=mode.player)]
            low, high = bid.low or 1, bid.high
        else:
            bid, low, high = None, 1, None
        if mode.amount < low or (high is not None and mode.amount > high):
            return [
                say("bad_amount", amount=money(state, mode.amount)),
                amount_prompt(state, mode),
            ]
        self._reset()
        if bid is not None:
            return [Submit(Bid(mode.player, mode.amount), source)]
        assert mode.payee is not None  # a transfer names its payee (taps._start_transfer)
        return [Submit(Pay(mode.player, mode.payee, mode.amount), source)]
