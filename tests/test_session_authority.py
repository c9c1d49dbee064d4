"""The session checks who a command acts for before the engine sees it (issue: who may act).

Through the real journaled session: a phone or a bank card acts only for its player, the
shared buttons only for the current player, the banker for anyone; every refusal changes
nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from companion.game.table.offers import OfferStore

BANKER = Source("script", banker=True)
BUTTON = Source("button")


def phone(name: str) -> Source:
    return Source("phone", player=name)


def card(name: str) -> Source:
    return Source("rfid", player=name)


@pytest.fixture
def game(tmp_path: Path) -> Iterator[GameSession]:
    with GameSession.open(tmp_path) as s:
        out = s.submit({"do": "new_game", "edition": "classic-eur",  # its own dice
                        "players": ["Ann", "Bo", "Cleo"], "seed": 3,
                        "options": {"physical_dice": True}}, BANKER)
        assert out.accepted
        yield s


def refused(game: GameSession, command: dict[str, Any], source: Source, code: str) -> None:
    before = game.state()
    out = game.submit(command, source)
    assert not out.accepted and out.code == code, out
    assert game.state() == before  # nothing changed, not even the version


def test_a_phone_acts_only_for_its_own_seat(game: GameSession) -> None:
    refused(game, {"do": "roll", "by": "Ann"}, phone("Bo"), "not_your_turn")
    refused(game, {"do": "pay", "from": "Ann", "to": "Bo", "amount": 100}, phone("Bo"),
            "not_your_turn")
    assert game.submit({"do": "roll", "by": "Ann", "dice": [1, 2]}, phone("Ann")).accepted


def test_a_phone_without_by_is_taken_for_its_player_not_for_the_decider(
        game: GameSession) -> None:
    refused(game, {"do": "roll"}, phone("Bo"), "not_your_turn")
    out = game.submit({"do": "roll", "dice": [1, 2]}, phone("Ann"))
    assert out.accepted


@pytest.mark.parametrize("command", [
    {"do": "end_game"}, {"do": "close_auction"}, {"do": "auction_building", "building": "house"},
    {"do": "new_game", "edition": "classic-eur", "players": ["X", "Y"]},
])
def test_the_banks_verbs_need_the_banker(game: GameSession, command: dict[str, Any]) -> None:
    for source in (phone("Ann"), BUTTON, card("Bo")):
        refused(game, command, source, "banker_only")


def test_shared_buttons_act_for_the_current_player_only(game: GameSession) -> None:
    refused(game, {"do": "pass_go", "by": "Bo"}, BUTTON, "not_your_turn")
    assert game.submit({"do": "roll", "dice": [1, 2]}, BUTTON).accepted  # Ann on a lot
    assert game.submit({"do": "decline"}, BUTTON).accepted  # the auction starts
    state = game.state()
    assert state["pending"]["kind"] == "auction"
    # Bo's bid is Bo's: not the shared YES, but his phone or his bank card
    refused(game, {"do": "bid", "by": "Bo", "amount": 10}, BUTTON, "not_your_turn")
    refused(game, {"do": "bid", "by": "Bo", "amount": 10}, card("Cleo"), "not_your_turn")
    assert game.submit({"do": "bid", "by": "Bo", "amount": 10}, card("Bo")).accepted
    assert game.submit({"do": "bid", "by": "Cleo", "amount": 20}, phone("Cleo")).accepted
    assert game.submit({"do": "bid", "by": "Ann", "amount": 30}, BUTTON).accepted


def test_a_trade_is_accepted_only_by_whom_it_is_offered_to(game: GameSession) -> None:
    trade = {"do": "trade", "from": "Ann", "to": "Cleo", "give": {"cash": 10},
             "take": {"cash": 0}}
    refused(game, trade, phone("Ann"), "not_your_turn")  # the proposer cannot accept for Cleo
    refused(game, trade, BUTTON, "not_your_turn")  # nor whoever presses YES (Ann's turn)
    refused(game, trade, card("Bo"), "not_your_turn")
    refused(game, trade, card("Cleo"), "no_offer")  # nobody offered it: not even Cleo's
    offers = OfferStore()
    game.keep_offers(offers)
    assert offers.add("Ann", "Cleo", {"cash": 10}, {}, game.version) is not None
    refused(game, {**trade, "give": {"cash": 1}}, card("Cleo"), "no_offer")  # other terms
    assert game.submit(trade, card("Cleo")).accepted  # Cleo's answer to Ann's offer
    assert offers.open() == []  # done: no longer open
    refused(game, trade, card("Cleo"), "no_offer")  # and not accepted twice


def test_the_tables_clocks_may_close_an_auction_but_no_person_without_the_pin(
        game: GameSession) -> None:
    game.submit({"do": "roll", "dice": [1, 2]}, BUTTON)
    game.submit({"do": "decline"}, BUTTON)
    game.submit({"do": "bid", "by": "Bo", "amount": 10}, card("Bo"))
    refused(game, {"do": "close_auction"}, BUTTON, "banker_only")
    refused(game, {"do": "end_game", "reason": "agreement"}, Source("session"), "banker_only")
    # the touch screen is a shared input like the panel: the gavel is the session's clock
    refused(game, {"do": "close_auction"}, Source("screen"), "banker_only")
    assert game.submit({"do": "close_auction"}, Source("session")).accepted


def test_an_input_that_names_nobody_and_is_not_shared_is_refused(game: GameSession) -> None:
    refused(game, {"do": "roll"}, Source("rfid"), "not_allowed")
    refused(game, {"do": "roll"}, Source("phone"), "not_allowed")


@pytest.mark.parametrize(("note", "why"), [
    ("x" * 201, "at most 200"), ("bad\nline", "control"), (12, "text"),
])
def test_a_note_is_short_plain_text(game: GameSession, note: Any, why: str) -> None:
    before = game.state()
    out = game.submit({"do": "roll", "dice": [1, 2], "note": note}, BANKER)
    assert not out.accepted and out.code == "bad_command" and why in (out.message or "")
    assert game.state() == before
    assert game.submit({"do": "roll", "dice": [1, 2], "note": "x" * 200}, BANKER).accepted
