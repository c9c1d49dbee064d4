"""Consent answers one question (issue 26, item 2): a bank card's tap (or YES) accepts only
the offer put to that person at that moment, with what each side gives; a tap meant to start
a payment never accepts a waiting trade; offers lapse at the end of their turn and at a new
game, on a headless table too. And a card tapped outside any decision asks a clear question
in the table's language that NO cancels (issue 24)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from companion.game.table.offers import OfferStore
from companion.inputs.actions import Action, Show
from companion.inputs.controller import InputController
from companion.inputs.events import Button, ButtonEvent, TagEvent
from companion.inputs.pump import InputPump
from companion.inputs.registry import TagKind, TagRegistry, TagRole
from companion.screen.headless import HeadlessTable
from companion.words.input_texts import input_text

BANKER = Source("script", banker=True)
ANN, BO, CY = "A1", "B2", "C3"


class Table:
    """A table without a screen as `companion run --headless` wires it: the real session,
    the one offer store, the readers' pump and the headless table's log."""

    def __init__(self, data_dir: Path) -> None:
        self.session = GameSession.open(data_dir)
        assert self.session.submit({"do": "new_game", "edition": "classic-eur",
                                    "players": ["Ann", "Bo", "Cy"], "seed": 3},
                                   BANKER).accepted
        self.offers = OfferStore(data_dir / "web" / "proposals.json")
        self.session.keep_offers(self.offers)
        registry = TagRegistry()
        for tag, number in ((ANN, 1), (BO, 2), (CY, 3)):
            registry.register(tag, TagRole(TagKind.BANK_CARD, number=number))
        self.said: list[str] = []
        self.headless = HeadlessTable(self.session, say=self.said.append)
        self.shown: list[Action] = []
        self.controller = InputController(registry, offers=self.offers)
        self.pump = InputPump(self.session, self.controller, self.ui)

    def ui(self, action: Action) -> None:
        self.shown.append(action)
        self.headless.reader_action(action)

    def close(self) -> None:
        self.headless.close()
        self.session.close()

    def tap(self, tag: str) -> Show | None:
        """Tap a card; the question or notice it shows, if any."""
        self.shown.clear()
        self.pump.process(TagEvent(tag))
        return next((a for a in self.shown if isinstance(a, Show)), None)

    def press(self, button: Button) -> list[Action]:
        self.shown.clear()
        self.pump.process(ButtonEvent(button))
        return list(self.shown)

    def offer(self, sender: str, receiver: str, give: dict[str, Any],
              take: dict[str, Any] | None = None) -> str:
        made = self.offers.add(sender, receiver, give, take or {},
                               self.session.state()["version"])
        assert made is not None
        return str(made["id"])

    def cash(self) -> dict[str, int]:
        return {p["name"]: p["cash"] for p in self.session.state()["players"]}

    def trades(self) -> int:
        return sum(e["command"].get("do") == "trade" for e in self.session.history())


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()


def test_a_tap_puts_the_offer_and_only_the_answer_to_it_accepts(table: Table) -> None:
    table.offer("Ann", "Cy", {"cash": 50})
    asked = table.tap(CY)
    assert asked is not None and asked.code == "offer_asked"
    assert asked.data["give"].replace("\xa0", " ") == "€ 50" and \
        asked.data["take"] == "Nothing"
    assert table.trades() == 0, "a first tap asks, it does not accept"
    table.tap(CY)  # the same card again: yes to exactly that offer
    assert table.trades() == 1
    assert table.cash()["Cy"] == 1550 and table.offers.open() == []


def test_yes_accepts_the_offer_shown_not_the_one_made_after_it(table: Table) -> None:
    """The question names one offer (the newest to Cy when she tapped); Bo swapping it for
    a worse one meanwhile makes her YES accept nothing."""
    table.offer("Ann", "Cy", {"cash": 50})
    shown = table.offer("Bo", "Cy", {"cash": 80})
    asked = table.tap(CY)
    assert asked is not None and asked.data["offer"] == shown and asked.data["sender"] == "Bo"
    table.offers.remove(shown)  # Bo withdraws it on his phone...
    table.offer("Bo", "Cy", {"cash": 1}, {"cash": 400})  # ...and offers something else
    [gone] = table.press(Button.YES)
    assert isinstance(gone, Show) and gone.code == "offer_gone"
    assert table.trades() == 0 and table.cash()["Cy"] == 1500
    table.tap(CY)  # asked again: now the offer on the table, by its own question
    table.press(Button.YES)
    assert table.trades() == 1 and table.cash()["Cy"] == 1500 - 400 + 1


def test_a_tap_meant_to_start_a_payment_never_accepts_a_trade(table: Table) -> None:
    table.offer("Ann", "Cy", {"cash": 50})
    table.offer("Ann", "Bo", {"cash": 60})
    first = table.tap(BO)  # Bo's card: his offer is put to him...
    assert first is not None and first.code == "offer_asked"
    paying = table.tap(CY)  # ...but a second card means "Bo pays Cy", whatever waits for Cy
    assert paying is not None and paying.code == "enter_amount"
    assert paying.data["player"] == "Bo" and paying.data["payee"] == "Cy"
    table.press(Button.NO)
    assert table.trades() == 0 and len(table.offers.open()) == 2
    table.tap(CY)
    table.tap(ANN)  # Cy pays Ann: not Cy's acceptance either
    table.press(Button.ROLL)  # a table without a knob: ROLL sets more...
    table.press(Button.ROLL)
    table.press(Button.PASS_GO)  # ...PASS GO less
    table.press(Button.YES)
    last = table.session.history(None, 1)[-1]["command"]
    assert last["do"] == "pay" and (last["from"], last["to"]) == ("Cy", "Ann")
    assert table.trades() == 0


def test_an_answer_is_bound_to_the_table_it_was_asked_at(table: Table) -> None:
    table.offer("Ann", "Cy", {"cash": 50})
    table.tap(CY)
    assert table.session.submit({"do": "roll", "dice": [1, 2]}, BANKER).accepted
    table.press(Button.YES)  # the table moved on: the question went with it
    assert table.trades() == 0


def test_offers_lapse_at_the_end_of_their_turn(table: Table) -> None:
    table.offer("Ann", "Cy", {"cash": 50})
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "decline"},
                    {"do": "close_auction"}):
        assert table.session.submit(command, BANKER).accepted
    assert table.offers.open(), "the same turn keeps the offer"
    assert table.session.submit({"do": "end_turn"}, BANKER).accepted
    assert table.offers.open() == []
    asked = table.tap(CY)
    assert asked is not None and asked.code == "card_tapped_pay"
    table.tap(CY)
    assert table.trades() == 0


def test_a_headless_table_forgets_the_offers_of_the_last_game(table: Table) -> None:
    table.offer("Ann", "Cy", {"cash": 50})
    assert table.session.submit({"do": "new_game", "edition": "classic-eur",
                                 "players": ["Ann", "Bo", "Cy"]}, BANKER).accepted
    for _ in range(2):
        table.tap(CY)
        table.press(Button.YES)
    assert table.trades() == 0 and table.offers.open() == []
    out = table.session.submit({"do": "trade", "from": "Ann", "to": "Cy",
                                "give": {"cash": 50}, "take": {}}, Source("rfid", player="Cy"))
    assert not out.accepted and out.code == "no_offer"  # the session says so too


def test_offers_saved_for_a_restart_lapse_with_their_turn(tmp_path: Path) -> None:
    t = Table(tmp_path)
    pid = t.offer("Ann", "Cy", {"cash": 50})
    t.close()
    again = Table.__new__(Table)
    again.session = GameSession.open(tmp_path)
    again.offers = OfferStore(tmp_path / "web" / "proposals.json")
    again.session.keep_offers(again.offers)
    assert [o["id"] for o in again.offers.open()] == [pid]  # the same turn: kept
    assert again.session.submit({"do": "roll", "dice": [1, 2]}, BANKER).accepted
    assert again.session.submit({"do": "decline"}, BANKER).accepted
    assert again.session.submit({"do": "close_auction"}, BANKER).accepted
    assert again.session.submit({"do": "end_turn"}, BANKER).accepted
    again.session.close()
    third = OfferStore(tmp_path / "web" / "proposals.json")
    assert third.open() == []


def test_a_card_outside_any_decision_asks_in_the_tables_language(table: Table) -> None:
    asked = table.tap(BO)
    assert asked is not None and asked.code == "card_tapped_pay" and asked.level == "prompt"
    assert asked.message == "Bo's card: tap another player's card to pay them. NO cancels."
    said = table.said[-1]
    assert "Bo's card" in said
    for lang in ("sv", "fr", "de", "nl", "pl", "ru"):
        text = input_text(asked.code, lang, **asked.data)
        assert "Bo" in text and text != asked.message, lang
    [cancelled] = table.press(Button.NO)
    assert isinstance(cancelled, Show) and cancelled.code == "tap_cancelled"
    assert table.controller.mode is None


def test_offers_of_a_saved_game_left_for_another_are_gone(tmp_path: Path) -> None:
    from companion.game.switch import SessionHolder

    holder = SessionHolder.open(tmp_path)
    try:
        assert holder.submit({"do": "new_game", "edition": "classic-eur",
                              "players": ["Ann", "Cy"]}, BANKER).accepted
        offers = OfferStore()
        holder.keep_offers(offers)
        assert offers.add("Ann", "Cy", {"cash": 5}, {}, holder.version) is not None
        holder.new_game_file()
        assert offers.open() == []
        assert holder.submit({"do": "new_game", "edition": "classic-eur",
                              "players": ["Ann", "Cy"]}, BANKER).accepted
        out = holder.submit({"do": "trade", "from": "Ann", "to": "Cy", "give": {"cash": 5},
                             "take": {}}, Source("phone", player="Cy"))
        assert out.code == "no_offer"
        assert offers.add("Ann", "Cy", {"cash": 5}, {}, holder.version) is not None
        assert holder.submit({"do": "trade", "from": "Ann", "to": "Cy", "give": {"cash": 5},
                              "take": {}}, Source("phone", player="Cy")).accepted
    finally:
        holder.close()


def test_the_inputs_say_the_screens_sentences_under_their_own_ids() -> None:
    """One translation per sentence: what the inputs share with the screen is the screen's."""
    from companion.screen.texts import MESSAGES
    from companion.words.input_texts import SHARED

    for message in SHARED:
        assert MESSAGES[message.id] == message
