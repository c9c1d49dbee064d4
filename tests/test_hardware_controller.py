"""Buttons and taps turned into commands, by game situation (pure controller, no hardware)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.authority import as_json
from companion.inputs.actions import CardHolds, OpenMenu, PassOn, Show, Submit, money
from companion.inputs.controller import InputController
from companion.inputs.events import (
    Button,
    ButtonEvent,
    EncoderEvent,
    Gesture,
    HardwareWarning,
    TagEvent,
)
from companion.inputs.registry import TagKind, TagRegistry, TagRole
from companion.rules.commands import Pay

EDITION = json.loads(
    (Path(__file__).parent.parent / "companion/data/editions/classic-eur.json").read_text()
)
SQUARES = [
    {**sq, "index": i, "owner": None, "houses": 0, "hotel": False, "mortgaged": False}
    for i, sq in enumerate(EDITION["squares"])
    if sq["kind"] in {"lot", "station", "utility"}
]
INDEX = {sq["id"]: sq["index"] for sq in SQUARES}


def make_state(
    legal: list[dict[str, Any]] | None = None,
    pending: dict[str, Any] | None = None,
    *,
    version: int = 7,
    current: str = "Ann",
    players: tuple[str, ...] = ("Ann", "Bo", "Cy"),
    owners: dict[str, str] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    squares = [dict(sq) for sq in SQUARES]
    for sq in squares:
        sq["owner"] = (owners or {}).get(sq["id"])
        sq["rent"] = sq["rent"][0] if isinstance(sq.get("rent"), list) else 0
    return {
        "version": version,
        "currency": {"code": "EUR", "symbol": "€", "pattern": "€ {amount}", "group_separator": "."},
        "players": [{"name": n, "cash": 1500, "bankrupt": False} for n in players],
        "squares": squares,
        "current": current,
        "pending": pending,
        "legal": legal or [],
        # a table that rolls its own dice (set up so): the knob and the keys enter them
        "options": {"physical_dice": True} if options is None else options,
    }


TAGS = {
    "A1": TagRole(TagKind.BANK_CARD, number=1),  # Ann (seat 1)
    "B2": TagRole(TagKind.BANK_CARD, number=2),  # Bo (seat 2)
    "C3": TagRole(TagKind.BANK_CARD, number=3, player="Cy"),
    "D9": TagRole(TagKind.BANK_CARD, number=9),
    "DEED13": TagRole(TagKind.DEED, square="avenue-de-neuilly"),
    "CH-DIV": TagRole(TagKind.CARD, deck="chance", card="chance-dividend"),
    "CH-FREE": TagRole(TagKind.CARD, deck="chance", card="chance-jail-free"),
    "CC-1": TagRole(TagKind.CARD, deck="community_chest", card="chest-bank-error"),
    "BANKER": TagRole(TagKind.BANKER),
}


@pytest.fixture
def registry() -> TagRegistry:
    reg = TagRegistry()
    for tag, role in TAGS.items():
        reg.register(tag, role)
    return reg


@pytest.fixture
def ctl(registry: TagRegistry) -> InputController:
    return InputController(registry)


def press(button: Button, gesture: Gesture = Gesture.PRESS) -> ButtonEvent:
    return ButtonEvent(button, gesture)


def submitted(actions: list[Any]) -> list[dict[str, Any]]:
    return [dict(as_json(a.command)) for a in actions if isinstance(a, Submit)]


def codes(actions: list[Any]) -> list[str]:
    return [a.code for a in actions if isinstance(a, Show)]


# -- buttons: the screen maps them, hardware/ only while its own gestures run ----------

BUY = {"kind": "buy", "player": "Ann", "square": 5, "price": 200}
DRAW = {"kind": "draw", "player": "Ann", "deck": "chance"}
AUCTION = {"kind": "auction", "player": None, "square": 5, "highest": 120, "bidder": "Bo"}
RENT_ROLL = {"kind": "roll_for_rent", "player": "Ann", "square": 12, "multiplier": 10}


@pytest.mark.parametrize("button", list(Button))
@pytest.mark.parametrize("pending", [None, BUY, DRAW, AUCTION])
def test_idle_buttons_go_to_the_screens_mapping(
    ctl: InputController, button: Button, pending: dict[str, Any] | None
) -> None:
    state = make_state([{"do": "roll", "by": "Ann"}, {"do": "buy", "by": "Ann"}], pending)
    assert ctl.handle(press(button), state) == [PassOn(button.value)]
    held = ctl.handle(press(button, Gesture.HOLD), state)
    assert held == [PassOn(button.value, held=True)]
    assert ctl.mode is None


def test_the_screen_gives_each_passed_on_button_its_meaning(ctl: InputController) -> None:
    """PassOn reaches the screen's one mapping: the same state, the screen's command."""
    from companion.screen.ui_state import UiState
    from companion.screen.views.prompt import build_prompt

    state = make_state([{"do": "buy", "by": "Ann"}, {"do": "decline", "by": "Ann"}], BUY)
    prompt = build_prompt(state, UiState())
    for button, expected in [(Button.YES, "buy"), (Button.NO, "decline")]:
        [passed] = ctl.handle(press(button), state)
        assert isinstance(passed, PassOn)
        action = prompt.for_button(passed.button)
        assert action is not None and action.command is not None
        assert action.command["do"] == expected


def test_a_tap_gesture_keeps_the_buttons_it_needs(ctl: InputController) -> None:
    state = make_state([{"do": "end_turn", "by": "Ann"}])
    tap(ctl, "A1", state)  # a bank card: NO cancels it, not the screen's NO
    assert codes(ctl.handle(press(Button.NO), state)) == ["tap_cancelled"]
    tap(ctl, "A1", state)  # any other button ends the gesture and goes on to the screen
    assert ctl.handle(press(Button.ROLL), state) == [PassOn("roll")]
    assert ctl.mode is None


def test_physical_dice_entered_with_knob_and_roll(registry: TagRegistry) -> None:
    ctl = InputController(registry, physical_dice=True)
    state = make_state([{"do": "roll", "by": "Ann"}])
    assert codes(ctl.handle(press(Button.ROLL), state)) == ["enter_dice"]
    ctl.handle(EncoderEvent(2), state)  # 1 -> 3
    assert ctl.handle(press(Button.YES), state)[0].data["values"] == [3]  # type: ignore[union-attr]
    for _ in range(4):
        ctl.handle(press(Button.ROLL), state)  # 1 -> 5
    ctl.handle(EncoderEvent(-6), state)  # a full turn back: still 5
    actions = ctl.handle(press(Button.YES), state)
    assert submitted(actions) == [{"do": "roll", "by": "Ann", "dice": [3, 5]}]
    assert ctl.mode is None


def test_where_the_companion_rolls_roll_is_its_roll_not_an_entry(
        registry: TagRegistry) -> None:
    ctl = InputController(registry, physical_dice=True)  # the panel has a knob for dice...
    state = make_state([{"do": "roll", "by": "Ann"}], options={})  # ...the game does not
    assert ctl.handle(press(Button.ROLL), state) == [PassOn("roll")]  # the device's roll
    assert ctl.describe() is None


def test_the_knob_goes_to_the_screens_dial_unless_an_amount_is_entered(
    ctl: InputController,
) -> None:
    state = make_state([{"do": "roll", "by": "Ann"}])
    assert ctl.handle(EncoderEvent(2), state) == [PassOn("knob", steps=2)]
    tap(ctl, "A1", state)
    tap(ctl, "B2", state)  # Ann pays Bo: now the knob is the amount's
    assert codes(ctl.handle(EncoderEvent(2), state)) == ["enter_amount"]
    assert ctl.describe()["amount"] == 20  # type: ignore[index]


def test_dice_entry_no_goes_back_then_cancels(registry: TagRegistry) -> None:
    ctl = InputController(registry, physical_dice=True)
    state = make_state([{"do": "roll", "by": "Ann"}])
    ctl.handle(press(Button.ROLL), state)
    ctl.handle(EncoderEvent(3), state)
    ctl.handle(press(Button.YES), state)
    ctl.handle(press(Button.NO), state)  # back to the first die, which was 4
    assert ctl.describe() == {"kind": "dice", "values": [], "current": 4, "count": 2}
    assert codes(ctl.handle(press(Button.NO), state)) == ["dice_cancelled"]
    assert ctl.mode is None


def test_hardware_warnings_become_screen_warnings(ctl: InputController) -> None:
    warning = HardwareWarning("reader_unplugged", "rdm6300:/dev/serial0", "unplugged")
    [show] = ctl.handle(warning, make_state())
    assert isinstance(show, Show) and show.level == "warning" and show.active


# -- taps -----------------------------------------------------------------------------


def tap(ctl: InputController, tag: str, state: dict[str, Any]) -> list[Any]:
    return ctl.handle(TagEvent(tag), state)


def test_unknown_tag_says_so(ctl: InputController) -> None:
    [show] = tap(ctl, "FFFF", make_state())
    assert isinstance(show, Show) and show.code == "unknown_tag" and "FFFF" in show.message


def test_tapping_your_card_when_asked_to_buy_buys(ctl: InputController) -> None:
    state = make_state([{"do": "buy", "by": "Ann"}, {"do": "decline", "by": "Ann"}], BUY)
    assert tap(ctl, "A1", state) == [Submit({"do": "buy", "by": "Ann"}, Source("rfid", "Ann"))]
    assert codes(tap(ctl, "B2", state)) == ["not_your_turn"]


def test_tapping_the_drawn_card_applies_it(ctl: InputController) -> None:
    state = make_state([{"do": "draw", "by": "Ann"}], DRAW)
    actions = tap(ctl, "CH-DIV", state)
    assert actions == [
        Submit({"do": "draw", "by": "Ann", "card": "chance-dividend"}, Source("rfid", "Ann"))
    ]
    assert codes(tap(ctl, "CC-1", state)) == ["wrong_deck"]
    assert codes(tap(ctl, "CH-DIV", make_state([{"do": "roll", "by": "Ann"}]))) == ["card_not_now"]


def test_jail_free_card_is_used_when_it_may_be(ctl: InputController) -> None:
    state = make_state([{"do": "use_card", "by": "Ann"}, {"do": "roll", "by": "Ann"}])
    assert submitted(tap(ctl, "CH-FREE", state)) == [{"do": "use_card", "by": "Ann"}]


def test_bank_only_card_then_deed_lands_there(ctl: InputController) -> None:
    state = make_state([{"do": "land", "by": "Bo"}], current="Bo")
    [asked] = tap(ctl, "B2", state)  # a question, in the catalog, that NO cancels
    assert isinstance(asked, Show) and asked.code == "card_tapped_land"
    assert asked.message == ("Bo's card: tap a deed to land there, or another player's card "
                             "to pay them. NO cancels.")
    actions = tap(ctl, "DEED13", state)
    assert actions == [
        Submit(
            {"do": "land", "by": "Bo", "square": INDEX["avenue-de-neuilly"]}, Source("rfid", "Bo")
        )
    ]
    assert ctl.mode is None


def test_card_then_deed_without_bank_only_play_is_refused(ctl: InputController) -> None:
    state = make_state([{"do": "roll", "by": "Ann"}])
    tap(ctl, "A1", state)
    assert codes(tap(ctl, "DEED13", state)) == ["not_now"]


def test_deed_alone_shows_owner_and_rent(ctl: InputController) -> None:
    state = make_state(owners={"avenue-de-neuilly": "Cy"})
    [show] = tap(ctl, "DEED13", state)
    assert isinstance(show, Show) and show.code == "deed_info"
    assert "Cy" in show.message and money(state, 10) in show.message


def test_two_bank_cards_and_the_knob_transfer_money(ctl: InputController) -> None:
    state = make_state([{"do": "end_turn", "by": "Ann"}])
    tap(ctl, "A1", state)
    assert codes(tap(ctl, "C3", state)) == ["enter_amount"]
    ctl.handle(EncoderEvent(5), state)
    ctl.handle(EncoderEvent(-1), state)
    actions = ctl.handle(press(Button.YES), state)
    assert actions == [
        Submit(Pay("Ann", "Cy", 40), Source("rfid", "Ann"))  # built as a typed record
    ]


def test_transfer_amount_from_the_keypad_and_cancel(ctl: InputController) -> None:
    state = make_state([{"do": "end_turn", "by": "Ann"}])
    tap(ctl, "B2", state)
    tap(ctl, "A1", state)
    assert submitted(ctl.enter_amount(75, state)) == [
        {"do": "pay", "from": "Bo", "to": "Ann", "amount": 75}
    ]
    tap(ctl, "B2", state)
    tap(ctl, "A1", state)
    assert codes(ctl.handle(press(Button.NO), state)) == ["tap_cancelled"]
    assert codes(ctl.enter_amount(75, state)) == ["not_now"]


def test_zero_transfer_is_refused_and_entry_continues(ctl: InputController) -> None:
    state = make_state([{"do": "end_turn", "by": "Ann"}])
    tap(ctl, "A1", state)
    tap(ctl, "B2", state)
    assert "bad_amount" in codes(ctl.handle(press(Button.YES), state))
    assert ctl.describe() is not None


def test_same_card_twice_cancels(ctl: InputController) -> None:
    state = make_state([{"do": "end_turn", "by": "Ann"}])
    tap(ctl, "A1", state)
    assert codes(tap(ctl, "A1", state)) == ["tap_cancelled"]
    assert ctl.mode is None


def test_card_then_pass_go_pays_that_players_salary(ctl: InputController) -> None:
    state = make_state([{"do": "pass_go", "by": "Ann"}, {"do": "pass_go", "by": "Cy"}])
    tap(ctl, "C3", state)
    assert ctl.handle(press(Button.PASS_GO), state) == [
        Submit({"do": "pass_go", "by": "Cy"}, Source("rfid", "Cy"))
    ]


def test_auction_bid_with_card_knob_and_yes(ctl: InputController) -> None:
    legal = [
        {"do": "bid", "by": "Bo", "min": 121, "max": 1500},
        {"do": "pass", "by": "Bo"},
        {"do": "bid", "by": "Cy", "min": 121, "max": 1500},
    ]
    state = make_state(legal, AUCTION)
    assert codes(tap(ctl, "B2", state)) == ["enter_bid"]
    ctl.handle(EncoderEvent(3), state)
    assert submitted(ctl.handle(press(Button.YES), state)) == [
        {"do": "bid", "by": "Bo", "amount": 160}  # highest 120 + one step of 10, + 3
    ]
    tap(ctl, "B2", state)
    assert submitted(ctl.handle(press(Button.NO), state)) == [{"do": "pass", "by": "Bo"}]
    tap(ctl, "C3", state)
    ctl.handle(EncoderEvent(-4), state)  # never below the next step
    assert submitted(ctl.handle(press(Button.YES), state)) == [
        {"do": "bid", "by": "Cy", "amount": 130}
    ]


def test_banker_card_opens_the_banker_menu(ctl: InputController) -> None:
    assert tap(ctl, "BANKER", make_state()) == [
        OpenMenu("banker", Source("rfid", banker=True), authorized=True)
    ]


def test_card_of_an_empty_seat_belongs_to_nobody(ctl: InputController) -> None:
    assert codes(tap(ctl, "D9", make_state())) == ["card_unassigned"]


def test_waiting_decisions_are_explained_on_tap(ctl: InputController) -> None:
    debt = {"kind": "debt", "player": "Ann", "creditor": "Bo", "amount": 250}
    [show, holds] = tap(ctl, "A1", make_state([{"do": "bankrupt", "by": "Ann"}], debt))
    assert isinstance(show, Show) and "Ann" in show.message
    assert holds == CardHolds("Ann")  # her debt: the panel answers it for her now
    assert tap(ctl, "B2", make_state([], debt)) == [show]  # not Bo's: nothing held
    assert ctl.mode is None


def test_bad_events_never_make_commands(ctl: InputController) -> None:
    state = make_state([{"do": "roll", "by": "Ann"}])
    assert submitted(ctl.handle(EncoderEvent(3), state)) == []
    assert submitted(tap(ctl, "", state)) == []
    assert submitted(tap(ctl, "DEED13", {"version": 1})) == []
