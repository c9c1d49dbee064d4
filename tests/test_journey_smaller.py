"""The smaller trips of a table played as it will be (issue 24, item 10): bail only in the
jailed player's own next turn, nothing built or lifted by a player in debt, the table
screen's "Sold!" offered only to whom may bring the gavel down, a finished game resumed
without "cannot save the story"."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from rules_helpers import arrange, ok, refused, start
from web_fakes import TABLE, open_real_session

from companion.game.pins import PinGuard, PinStore
from companion.game.session import GameSession
from companion.rules import legal_commands
from companion.rules.state import DebtPending

MEGA = "mega"


def offered(g: Any, do: str, by: str) -> list[dict[str, Any]]:
    return [o.to_json() for o in legal_commands(g)
            if o.to_json().get("do") == do and o.to_json().get("by") == by]


# --- jail: the turn that sends you there ends; bail in your own next turn -----------------


def jailed_ann() -> Any:
    """Ann sent to jail by the Go To Jail square (doubles, then 30), Bo to play next."""
    g = start(("Ann", "Bo"))
    g, _ev = ok(g, {"do": "roll", "dice": [6, 4]}, {"do": "end_turn"},
                {"do": "roll", "dice": [6, 4]}, {"do": "end_turn"},
                {"do": "roll", "dice": [5, 5]}, {"do": "roll", "dice": [4, 6]})
    assert g.players[0].in_jail and g.players[g.current].name == "Ann"
    return g


def test_no_bail_in_the_turn_that_sent_you_to_jail_nor_in_anothers() -> None:
    g = jailed_ann()
    assert offered(g, "pay_fine", "Ann") == [] and offered(g, "use_card", "Ann") == []
    refused(g, {"do": "pay_fine", "by": "Ann"}, "not_now")
    g, _ev = ok(g, {"do": "end_turn"})
    assert g.players[g.current].name == "Bo"
    assert offered(g, "pay_fine", "Ann") == [], "not in Bo's turn"
    refused(g, {"do": "pay_fine", "by": "Ann"}, "not_now")
    g, _ev = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "decline"},
                {"do": "close_auction"}, {"do": "end_turn"})
    assert g.players[g.current].name == "Ann"
    assert offered(g, "pay_fine", "Ann") == [{"do": "pay_fine", "by": "Ann"}]
    g, _ev = ok(g, {"do": "pay_fine", "by": "Ann"})
    assert not g.players[0].in_jail


@pytest.fixture
def dummy_sdl() -> Iterator[None]:
    saved = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    yield
    pygame.display.quit()
    if saved is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = saved


def test_the_screen_says_the_turn_ends_then_offers_bail_in_the_next_turn(
        tmp_path: Path, dummy_sdl: None) -> None:
    from companion.screen.controller import Controller

    session = open_real_session(tmp_path / "g", ("Ann", "Bo"))
    controller = Controller(session, language="en")
    try:
        for command in ({"do": "roll", "by": "Ann", "dice": [6, 4]}, {"do": "end_turn"},
                        {"do": "roll", "by": "Bo", "dice": [6, 4]}, {"do": "end_turn"},
                        {"do": "roll", "by": "Ann", "dice": [5, 5]},
                        {"do": "roll", "by": "Ann", "dice": [4, 6]}):
            assert session.submit(command, TABLE).accepted
        controller.drain_updates(session.version)
        prompt = controller.current_prompt()
        assert prompt.title == "Ann goes to jail: the turn ends"
        sent = [dict(a.command)["do"] for a in prompt.actions if a.command is not None]
        assert "end_turn" in sent and not {"pay_fine", "use_card"} & set(sent), \
            "no bail offered in the turn that sent Ann to jail"
        for command in ({"do": "end_turn"}, {"do": "roll", "by": "Bo", "dice": [1, 2]},
                        {"do": "decline"}, {"do": "close_auction"}, {"do": "end_turn"}):
            assert session.submit(command, TABLE).accepted, command
        controller.drain_updates(session.version)
        prompt = controller.current_prompt()
        assert prompt.title.startswith("Ann is in jail: pay")
        yes = prompt.for_button("yes")
        assert yes is not None and yes.command is not None
        assert dict(yes.command)["do"] == "pay_fine"
    finally:
        controller.close()
        session.close()


# --- a player in debt builds nothing and lifts no mortgage ------------------------------


def test_a_player_in_debt_is_offered_no_depot_no_house_no_lifting() -> None:
    g = arrange(start(edition=MEGA), owners={6: 1, 1: 1, 3: 1, 4: 1, 20: 1}, mortgaged=[20],
                cash={1: 900})
    assert offered(g, "build", "Bo") and offered(g, "unmortgage", "Bo"), "before the debt"
    g.pending.append(DebtPending(1, 1000, 0, "rent"))
    assert offered(g, "build", "Bo") == [], "no depot, no house while Bo owes more than he has"
    assert offered(g, "unmortgage", "Bo") == []
    refused(g, {"do": "build", "by": "Bo", "square": 6, "building": "depot"},
            "decision_pending")
    refused(g, {"do": "build", "by": "Bo", "square": 1}, "decision_pending")
    refused(g, {"do": "unmortgage", "by": "Bo", "square": 20}, "decision_pending")
    assert offered(g, "mortgage", "Bo"), "raising money is still offered"


# --- "Sold!" on the table screen: the banker's gavel ------------------------------------


def auction_with_a_bid(session: Any) -> None:
    """Ann declines the lot she landed on; Bo bids on his phone."""
    from companion.game.api import Source

    for command in ({"do": "roll", "by": "Ann", "dice": [2, 3]}, {"do": "decline"}):
        assert session.submit(command, TABLE).accepted
    assert session.submit({"do": "bid", "by": "Bo", "amount": 20},
                          Source("phone", player="Bo")).accepted


def screen_with_pin(tmp_path: Path, session: Any, pin: str | None) -> Any:
    from companion.screen.controller import Controller

    controller = Controller(session, data_dir=tmp_path, language="en")
    controller.pins = PinGuard(PinStore(tmp_path / "banker.json"))
    if pin:
        controller.pins.store.set(pin)
    controller.drain_updates(session.version)
    controller.tick()
    return controller


def test_sold_is_not_offered_to_the_table_without_the_banker(
        tmp_path: Path, dummy_sdl: None) -> None:
    session = open_real_session(tmp_path / "g", ("Ann", "Bo"))
    auction_with_a_bid(session)
    controller = screen_with_pin(tmp_path, session, "2468")
    try:
        before = session.version
        assert controller.current_prompt().for_button("pass_go") is None
        controller.press("pass_go", "keyboard")
        assert session.version == before and session.state()["pending"]["kind"] == "auction"
        controller.authorize_banker()  # the banker card, or the PIN a moment ago
        sold = controller.current_prompt().for_button("pass_go")
        assert sold is not None and sold.label == "Sold!"
        controller.press("pass_go", "keyboard")
        assert session.state().get("pending") is None, "the gavel came down"
        last = session.history(None, 1)[-1]
        assert last["command"] == {"do": "close_auction"} and last["source"]["banker"]
    finally:
        controller.close()
        session.close()


def test_sold_at_a_table_without_a_banker_pin_closes_the_auction(
        tmp_path: Path, dummy_sdl: None) -> None:
    session = open_real_session(tmp_path / "g", ("Ann", "Bo"))
    auction_with_a_bid(session)
    controller = screen_with_pin(tmp_path, session, None)
    try:
        sold = controller.current_prompt().for_button("pass_go")
        assert sold is not None and sold.label == "Sold!"
        controller.press("pass_go", "keyboard")
        assert session.state().get("pending") is None
        assert next(s for s in session.state()["squares"] if s["index"] == 5)["owner"] == "Bo"
    finally:
        controller.close()
        session.close()


# --- a finished game resumed: its story is told once, saved once -------------------------


def test_a_finished_game_resumed_and_read_at_once_saves_its_story_quietly(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    session = open_real_session(tmp_path, ("Ann", "Bo"))
    assert session.submit({"do": "end_game"}, TABLE).accepted
    session.close()
    caplog.set_level(logging.WARNING)
    for _ in range(3):  # the screen, the phones' hub and a story page, on resume
        resumed = GameSession.open(tmp_path)
        gate = threading.Barrier(8)
        told: list[Any] = []

        def read(s: GameSession = resumed, g: threading.Barrier = gate,
                 out: list[Any] = told) -> None:
            g.wait(30)
            out.append(s.story())

        readers = [threading.Thread(target=read) for _ in range(8)]
        for t in readers:
            t.start()
        for t in readers:
            t.join(60)
        resumed.close()
        assert len(told) == 8 and all(t == told[0] and t is not None for t in told)
    assert "cannot save the story" not in caplog.text
    assert not list(tmp_path.rglob("*.tmp")), "no temporary file left behind"
    assert list(tmp_path.rglob("*.story.json"))
