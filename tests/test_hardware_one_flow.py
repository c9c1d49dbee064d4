"""One input flow (companion.inputs.entry): the dice, an amount and a square entered at the
screen (keys, knob, touch) and at the hardware (panel, knob, card taps) make the same
command on the same game."""

from __future__ import annotations

from typing import Any

import pytest
from web_fakes import FakeSession

from companion.game.api import Source
from companion.inputs.controller import InputController
from companion.inputs.events import Button, ButtonEvent, EncoderEvent, InputEvent, TagEvent
from companion.inputs.pump import InputPump
from companion.inputs.registry import TagKind, TagRegistry, TagRole
from companion.screen.controller import Controller

BANKER = Source("script", banker=True)
YES, NO, ROLL = ButtonEvent(Button.YES), ButtonEvent(Button.NO), ButtonEvent(Button.ROLL)


def last_command(session: FakeSession) -> dict[str, Any]:
    return dict(session.history(limit=1)[-1]["command"])


def registry() -> TagRegistry:
    reg = TagRegistry()
    for number in (1, 2, 3):
        reg.register(f"BANK{number}", TagRole(TagKind.BANK_CARD, number=number))
    reg.register("TICKET7", TagRole(TagKind.CARD, deck="bus_tickets", card="bus-ticket-7"))
    reg.register("REPUBLIQUE", TagRole(TagKind.DEED, square="avenue-de-la-republique"))
    return reg


def at_the_hardware(session: FakeSession, *events: InputEvent) -> None:
    """Feed events through the readers' pump, as `companion run` wires the panel."""
    pump = InputPump(session, InputController(registry(), physical_dice=True))
    for event in events:
        pump.process(event)


def at_the_screen(session: FakeSession, *inputs: tuple[str, Any]) -> Controller:
    """Knob turns, panel buttons, typed dice and board touches at the screen's controller."""
    controller = Controller(session, language="en")
    for kind, value in inputs:
        if kind == "knob":
            controller.post_encoder(value)
            controller.drain()
        elif kind == "button":
            controller.press(value, "button")
        elif kind == "digit":
            controller.dice_digit(value)
        elif kind == "touch":
            controller.tap_square(value, "screen")
    return controller


def mega(*commands: dict[str, Any]) -> FakeSession:
    session = FakeSession(players=())
    opening = {"do": "new_game", "edition": "mega", "players": ["Ann", "Bo", "Cy"], "seed": 3,
               "options": {"physical_dice": True}}  # the table's own dice, entered
    for command in (opening, *commands):
        assert session.submit(command, BANKER).accepted, command
    return session


# --- the dice ---------------------------------------------------------------------------


def test_dice_dialled_at_the_screen_or_the_panel_make_the_same_roll() -> None:
    screen, panel = FakeSession(), FakeSession()
    at_the_screen(screen, ("knob", 3), ("button", "yes"), ("knob", 4), ("button", "yes"))
    at_the_hardware(panel, ROLL, EncoderEvent(2), YES, EncoderEvent(4), YES)
    assert last_command(screen) == last_command(panel) == {"do": "roll", "by": "Ann",
                                                           "dice": [3, 5]}


def test_no_on_the_dial_takes_the_last_die_back_both_ways() -> None:
    screen, panel = FakeSession(), FakeSession()
    controller = at_the_screen(screen, ("knob", 2), ("button", "yes"), ("button", "no"))
    assert (controller.ui.dice_entry, controller.ui.dial) == ([], 1)  # 2 back on the dial
    at_the_screen(screen, ("knob", 2), ("button", "yes"), ("button", "no"), ("knob", 3),
                  ("button", "yes"), ("button", "yes"))
    at_the_hardware(panel, ROLL, EncoderEvent(1), YES, NO, EncoderEvent(3), YES, YES)
    assert last_command(screen) == last_command(panel) == {"do": "roll", "by": "Ann",
                                                           "dice": [5, 1]}


def test_typed_dice_and_the_speed_die_at_the_screen_match_the_panels() -> None:
    screen, panel = mega(), mega()
    controller = at_the_screen(screen, ("digit", 2), ("digit", 2))
    assert controller.speed_key("bus")
    at_the_hardware(panel, ROLL, EncoderEvent(1), YES, EncoderEvent(1), YES, EncoderEvent(3),
                    YES)
    assert last_command(screen) == last_command(panel) == {"do": "roll", "by": "Ann",
                                                           "dice": [2, 2, "bus"]}


# --- an amount: the next bid --------------------------------------------------------------


def auction() -> FakeSession:
    session = FakeSession()
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "decline"}):
        assert session.submit(command, BANKER).accepted
    assert session.state()["pending"]["kind"] == "auction"
    return session


def test_a_bid_set_with_the_knob_is_the_same_at_the_screen_and_the_card_reader() -> None:
    screen, panel = auction(), auction()
    at_the_screen(screen, ("knob", 2), ("button", "yes"))
    at_the_hardware(panel, TagEvent("BANK1"), EncoderEvent(3), EncoderEvent(-1), YES)
    # the highest bid (none) + one step (a twentieth of the salary) + two more
    assert last_command(screen) == last_command(panel) == {"do": "bid", "by": "Ann",
                                                           "amount": 30}


def test_the_knob_never_takes_a_bid_below_the_next_step_either_way() -> None:
    screen, panel = auction(), auction()
    at_the_screen(screen, ("knob", -5), ("button", "yes"))
    at_the_hardware(panel, TagEvent("BANK1"), EncoderEvent(-5), YES)
    assert last_command(screen) == last_command(panel) == {"do": "bid", "by": "Ann",
                                                           "amount": 10}


# --- a square: a bus ticket's ride (Mega) -------------------------------------------------

TO_CYS_RIDE = [
    {"do": "roll", "dice": [2, 2, 2]}, {"do": "choose_square", "square": 24}, {"do": "buy"},
    {"do": "end_turn"}, {"do": "roll", "by": "Bo", "dice": [3, 4, "mr_monopoly"]},
    {"do": "buy"}, {"do": "decline"}, {"do": "close_auction"}, {"do": "end_turn"},
    {"do": "roll", "by": "Cy", "dice": [1, 3, "bus"]}, {"do": "decline"},
    {"do": "close_auction"}, {"do": "draw", "by": "Cy", "card": "bus-ticket-7"},
    {"do": "end_turn"}, {"do": "roll", "dice": [1, 2, 3]}, {"do": "decline"},
    {"do": "close_auction"}, {"do": "end_turn"}, {"do": "roll", "by": "Bo", "dice": [1, 2, 2]},
    {"do": "end_turn"},
]


@pytest.mark.parametrize("steps", [0, 1, 4])
def test_a_ride_picked_with_the_knob_is_the_same_at_the_screen_and_the_panel(
    steps: int,
) -> None:
    screen, panel = mega(*TO_CYS_RIDE), mega(*TO_CYS_RIDE)
    assert screen.state()["current"] == "Cy"
    at_the_screen(screen, ("button", "yes"), ("knob", steps), ("button", "yes"))  # YES: ride
    at_the_hardware(panel, TagEvent("TICKET7"), EncoderEvent(steps), YES)
    ride = last_command(screen)
    assert ride["do"] == "use_bus_ticket" and ride["by"] == "Cy"
    assert last_command(panel) == ride


def test_a_ride_touched_on_the_board_or_tapped_as_a_deed_goes_there() -> None:
    screen, panel = mega(*TO_CYS_RIDE), mega(*TO_CYS_RIDE)
    at_the_screen(screen, ("button", "yes"), ("touch", 12), ("touch", 12))  # focus, choose
    at_the_hardware(panel, TagEvent("TICKET7"), TagEvent("REPUBLIQUE"))
    assert last_command(screen) == last_command(panel) == {"do": "use_bus_ticket",
                                                           "by": "Cy", "square": 12}
