"""Buttons and taps against the real rules engine: the commands they make are accepted."""

from __future__ import annotations

from typing import Any

import pytest

from companion.game.authority import as_json
from companion.inputs.actions import PassOn, Submit
from companion.inputs.controller import InputController
from companion.inputs.events import Button, ButtonEvent, EncoderEvent, InputEvent, TagEvent
from companion.inputs.registry import TagKind, TagRegistry, TagRole

rules = pytest.importorskip("companion.rules")
editions = pytest.importorskip("companion.editions")


class Table:
    """A real game driven only through the input controller."""

    def __init__(self, registry: TagRegistry, physical_dice: bool = False,
                 **options: Any) -> None:
        start = {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"], "seed": 7,
                 "options": {"physical_dice": physical_dice, **options}}
        self.game = rules.new_game(editions.load_edition("classic-eur"), start).state
        self.controller = InputController(registry, physical_dice=physical_dice)

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = rules.public_state(self.game, rules.legal_commands(self.game))
        return state

    def send(self, event: InputEvent) -> list[dict[str, Any]]:
        """Feed one event; apply every command it makes (each must be accepted)."""
        commands = []
        for action in self.controller.handle(event, self.state()):
            if isinstance(action, Submit):
                result = rules.apply(self.game, action.command)
                assert not isinstance(result, rules.Rejection), (action.command, result)
                self.game = result.state
                commands.append(dict(as_json(action.command)))
        return commands

    def refused(self, event: InputEvent) -> str:
        """Feed one event whose one command the engine refuses: the refusal's code."""
        submits = [a for a in self.controller.handle(event, self.state())
                   if isinstance(a, Submit)]
        assert len(submits) == 1, submits
        result = rules.apply(self.game, submits[0].command)
        assert isinstance(result, rules.Rejection), result
        return str(result.code.value)

    def cash(self, name: str) -> int:
        return int(next(p["cash"] for p in self.state()["players"] if p["name"] == name))

    def owner(self, square: int) -> str | None:
        return next(s["owner"] for s in self.state()["squares"] if s["index"] == square)


@pytest.fixture
def registry() -> TagRegistry:
    reg = TagRegistry()
    reg.register("ANN", TagRole(TagKind.BANK_CARD, number=1))
    reg.register("BO", TagRole(TagKind.BANK_CARD, number=2))
    reg.register("BELLEVILLE", TagRole(TagKind.DEED, square="boulevard-de-belleville"))
    reg.register("DIVIDEND", TagRole(TagKind.CARD, deck="chance", card="chance-dividend"))
    return reg


def test_physical_dice_then_the_drawn_chance_card(registry: TagRegistry) -> None:
    table = Table(registry, physical_dice=True)
    table.send(ButtonEvent(Button.ROLL))
    table.send(EncoderEvent(2))  # first die 3
    table.send(ButtonEvent(Button.YES))
    table.send(EncoderEvent(3))  # second die 4
    assert table.send(ButtonEvent(Button.YES)) == [{"do": "roll", "by": "Ann", "dice": [3, 4]}]
    assert table.state()["pending"]["kind"] == "draw"  # square 7 is Chance
    before = table.cash("Ann")
    assert table.send(TagEvent("DIVIDEND"))[0]["card"] == "chance-dividend"
    assert table.cash("Ann") == before + 50


def test_bank_only_card_deed_then_card_buys(registry: TagRegistry) -> None:
    table = Table(registry, bank_only=True)
    table.send(TagEvent("ANN"))
    assert table.send(TagEvent("BELLEVILLE")) == [{"do": "land", "by": "Ann", "square": 1}]
    assert table.state()["pending"]["kind"] == "buy"
    assert table.send(TagEvent("ANN")) == [{"do": "buy", "by": "Ann"}]
    assert table.owner(1) == "Ann"


def test_two_cards_and_an_amount_move_money(registry: TagRegistry) -> None:
    table = Table(registry)
    ann, bo = table.cash("Ann"), table.cash("Bo")
    table.send(TagEvent("BO"))
    table.send(TagEvent("ANN"))
    table.send(EncoderEvent(4))
    table.send(ButtonEvent(Button.YES))
    assert (table.cash("Ann"), table.cash("Bo")) == (ann + 40, bo - 40)


def test_card_then_pass_go_pays_in_bank_only_play(registry: TagRegistry) -> None:
    table = Table(registry, bank_only=True)
    before = table.cash("Ann")
    table.send(TagEvent("ANN"))
    assert table.send(ButtonEvent(Button.PASS_GO)) == [{"do": "pass_go", "by": "Ann"}]
    assert table.cash("Ann") == before + table.state()["options"].get("salary", 200)
    table.send(TagEvent("ANN"))  # once per move: the second press is refused, and says why
    assert table.refused(ButtonEvent(Button.PASS_GO)) == "salary_paid"
    assert table.cash("Ann") == before + table.state()["options"].get("salary", 200)


def test_card_then_pass_go_pays_nothing_where_the_device_moves(registry: TagRegistry) -> None:
    table = Table(registry, physical_dice=True)
    before = table.cash("Ann")
    table.send(TagEvent("ANN"))
    assert table.refused(ButtonEvent(Button.PASS_GO)) == "device_moves"  # the roll pays GO
    assert table.cash("Ann") == before
    for event in [ButtonEvent(Button.ROLL), EncoderEvent(3), ButtonEvent(Button.YES)]:
        table.send(event)  # first die 4
    table.send(EncoderEvent(5))  # second die 6: square 10, just visiting
    assert table.send(ButtonEvent(Button.YES)) == [{"do": "roll", "by": "Ann", "dice": [4, 6]}]
    assert table.state()["pending"] is None


def test_idle_buttons_are_left_to_the_screen(registry: TagRegistry) -> None:
    table = Table(registry)
    version = table.state()["version"]
    for button in Button:
        actions = table.controller.handle(ButtonEvent(button), table.state())
        assert actions == [PassOn(button.value)]
    assert table.state()["version"] == version
