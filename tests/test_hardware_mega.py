"""Mega at the panel and the reader, against the real rules engine: the speed die entered
one face at a time, a triple's square chosen by tapping its deed, a bus ticket taken by
tapping it and ridden by tapping it again and then the destination's deed."""

from __future__ import annotations

from typing import Any

import pytest

from companion.game.authority import as_json
from companion.inputs.actions import Show, Submit
from companion.inputs.controller import InputController, dice_count
from companion.inputs.events import Button, ButtonEvent, EncoderEvent, InputEvent, TagEvent
from companion.inputs.registry import TagKind, TagRegistry, TagRole
from companion.rules.commands import Command

rules = pytest.importorskip("companion.rules")
editions = pytest.importorskip("companion.editions")

OPENING = {"do": "new_game", "edition": "mega", "players": ["Ann", "Bo", "Cy"], "seed": 3,
           "options": {"physical_dice": True}}  # the table's own dice, entered


class MegaTable:
    """The documented Mega opening (docs/table-script.md), partly through the inputs."""

    def __init__(self, registry: TagRegistry) -> None:
        self.game = rules.new_game(editions.load_edition("mega"), OPENING).state
        self.controller = InputController(registry, physical_dice=True)
        self.shown: list[Show] = []

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = rules.public_state(self.game, rules.legal_commands(self.game))
        return state

    def apply(self, command: Command | dict[str, Any]) -> None:
        result = rules.apply(self.game, command)
        assert not isinstance(result, rules.Rejection), (command, result)
        self.game = result.state

    def send(self, *events: InputEvent) -> list[dict[str, Any]]:
        commands = []
        for event in events:
            for action in self.controller.handle(event, self.state()):
                if isinstance(action, Submit):
                    self.apply(action.command)
                    commands.append(dict(as_json(action.command)))
                elif isinstance(action, Show):
                    self.shown.append(action)
        return commands


@pytest.fixture
def registry() -> TagRegistry:
    reg = TagRegistry()
    reg.register("PIGALLE", TagRole(TagKind.DEED, square="place-pigalle"))
    reg.register("REPUBLIQUE", TagRole(TagKind.DEED, square="avenue-de-la-republique"))
    reg.register("TICKET7", TagRole(TagKind.CARD, deck="bus_tickets", card="bus-ticket-7"))
    return reg


YES, NO, ROLL = ButtonEvent(Button.YES), ButtonEvent(Button.NO), ButtonEvent(Button.ROLL)


def test_speed_die_faces_are_entered_after_the_white_dice(registry: TagRegistry) -> None:
    table = MegaTable(registry)
    assert dice_count(table.state()) == 3
    table.send(ROLL, EncoderEvent(1), YES)  # white die 2
    table.send(EncoderEvent(1), YES)  # white die 2
    assert "speed die" in table.shown[-1].message
    table.send(EncoderEvent(-1))  # back from 1 wraps to Mr. Monopoly
    assert table.controller.describe()["current"] == "mr_monopoly"  # type: ignore[index]
    table.send(NO)  # back to the second white die
    assert table.controller.describe() == {"kind": "dice", "values": [2], "current": 2,
                                           "count": 3}
    commands = table.send(YES, EncoderEvent(1), YES)  # 2, then the speed die at 2
    assert commands == [{"do": "roll", "by": "Ann", "dice": [2, 2, 2]}]
    assert table.state()["pending"]["kind"] == "choose_square"
    # a triple: tapping the deed of the square to go to chooses it
    assert table.send(TagEvent("PIGALLE")) == [{"do": "choose_square", "by": "Ann",
                                                "square": 24}]
    assert table.state()["players"][0]["position"] == 24


def test_bus_ticket_taken_by_tap_and_ridden_to_a_tapped_deed(registry: TagRegistry) -> None:
    table = MegaTable(registry)
    for command in [{"do": "roll", "dice": [2, 2, 2]}, {"do": "choose_square", "square": 24},
                    {"do": "buy"}, {"do": "end_turn"},
                    {"do": "roll", "by": "Bo", "dice": [3, 4, "mr_monopoly"]}, {"do": "buy"},
                    {"do": "decline"}, {"do": "close_auction"}, {"do": "end_turn"}]:
        table.apply(command)
    table.send(ROLL)  # Cy: 1, 3 and the bus
    for event in [EncoderEvent(0), YES, EncoderEvent(2), YES, EncoderEvent(3), YES]:
        table.send(event)
    table.apply({"do": "decline"})
    table.apply({"do": "close_auction"})
    assert table.state()["pending"]["deck"] == "bus_tickets"
    assert table.send(TagEvent("TICKET7")) == [{"do": "draw", "by": "Cy",
                                                "card": "bus-ticket-7"}]
    for command in [{"do": "end_turn"}, {"do": "roll", "dice": [1, 2, 3]}, {"do": "decline"},
                    {"do": "close_auction"}, {"do": "end_turn"},
                    {"do": "roll", "by": "Bo", "dice": [1, 2, 2]}, {"do": "end_turn"}]:
        table.apply(command)
    assert table.state()["current"] == "Cy"
    assert table.send(TagEvent("TICKET7")) == []  # a ride: which square?
    assert table.controller.describe()["kind"] == "square"  # type: ignore[index]
    assert table.send(TagEvent("PIGALLE")) == []  # not reachable from here: asked again
    assert table.shown[-2].code == "not_reachable"
    assert table.send(TagEvent("REPUBLIQUE")) == [{"do": "use_bus_ticket", "by": "Cy",
                                                   "square": 12}]
    assert table.state()["pending"]["kind"] == "buy"
