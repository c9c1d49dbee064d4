"""Who the table's inputs act for (issue 13), wired as `companion run` wires them: the
screen's controller, the readers' pump and the simulated card reader (`companion tap`).

The shared buttons act for the current player; another player's bid or a trade offered to
them is not taken for them (the screen says to use their phone or bank card), and a tap of
their own bank card answers it as theirs."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.tap_cmd import send_tap
from companion.app.wiring import Readers
from companion.game.api import JSON, Source, Update
from companion.game.session import GameSession
from companion.inputs.events import Button, ButtonEvent
from companion.screen.controller import Controller
from companion.screen.views.registration import CardRegistration
from companion.screen.views.waiting import waiting_for

CARDS = {"0A00000001": 1, "0B00000002": 2, "0C00000003": 3}  # Ann, Bo, Cy
ANN, BO, CY = CARDS
WAIT_S = 10


class Table:
    """A real session, the screen's controller and the readers with the simulated reader."""

    def __init__(self, data_dir: Path) -> None:
        tags = {tag: {"kind": "bank_card", "number": n} for tag, n in CARDS.items()}
        (data_dir / "tags.json").write_text(json.dumps({"version": 1, "tags": tags}))
        self.data_dir = data_dir
        self.session = GameSession.open(data_dir)
        self.session.submit({"do": "new_game", "edition": "classic-eur",
                             "players": ["Ann", "Bo", "Cy"], "seed": 1},
                            Source("script", banker=True))
        self.controller = Controller(self.session, language="en")
        self.woken = threading.Event()
        self.controller.wake = self.woken.set
        self.readers = Readers(self.session, data_dir, ["fake"], self.controller.post_message)
        self.cards = CardRegistration(self.controller, self.readers.registrar)
        self.controller.cards = self.cards
        self.readers.set_ui(self.cards.ui)

    def close(self) -> None:
        self.cards.close()
        self.readers.close()
        self.controller.close()
        self.session.close()

    def script(self, *commands: JSON) -> None:
        for command in commands:
            assert self.session.submit(command, Source("script", banker=True)).accepted
        version = self.session.version  # the screen hears of it on the listeners' thread
        assert self.until(lambda: (self.controller.state or {}).get("version") == version)

    def state(self) -> JSON:
        return self.session.state()

    def last(self) -> JSON:
        return dict(self.session.history(limit=1)[-1])

    def banner(self) -> str:
        message = self.controller.ui.message
        return message.text if message is not None else ""

    def until(self, check: Callable[[], bool]) -> bool:
        """Drain the screen's inbox as the loop would, until `check()` (no sleeping)."""
        done = threading.Event()

        def seen(_update: Update) -> None:
            self.woken.set()

        remove = self.session.add_listener(seen)
        deadline = time.monotonic() + WAIT_S
        try:
            while time.monotonic() < deadline:
                self.controller.drain()
                if check():
                    done.set()
                    break
                self.woken.wait(max(0.0, deadline - time.monotonic()))
                self.woken.clear()
        finally:
            remove()
        return done.is_set()

    def tap(self, tag: str) -> None:
        assert send_tap(self.data_dir, tag) == "ok"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()


def test_the_tables_buttons_act_for_the_current_player(table: Table) -> None:
    table.controller.press("roll", "button")
    entry = table.last()
    assert entry["command"]["do"] == "roll"
    assert entry["source"] == {"kind": "button", "player": "Ann", "banker": False}


def auction(table: Table) -> None:
    table.script({"do": "roll", "dice": [1, 2]}, {"do": "decline"})
    assert table.state()["pending"]["kind"] == "auction"


def test_yes_does_not_bid_for_another_player_who_then_bids_with_their_card(
    table: Table,
) -> None:
    auction(table)
    version = table.state()["version"]
    bid = {"do": "bid", "by": "Bo", "amount": 20}
    assert table.controller.submit(bid, "button") is None  # the shared panel never bids for Bo
    assert "Waiting for Bo: answer on your phone or tap your bank card" in table.banner()
    assert table.state()["version"] == version
    table.tap(BO)  # Bo's own card: his bid, on the knob and the panel's YES
    assert table.until(lambda: "Bo bids" in table.banner()), table.banner()
    table.readers.pump.emit(ButtonEvent(Button.YES))
    assert table.until(lambda: table.state()["version"] > version)
    entry = table.last()
    assert (entry["command"]["do"], entry["command"]["by"]) == ("bid", "Bo")
    assert entry["source"] == {"kind": "rfid", "player": "Bo", "banker": False}


def test_yes_bids_for_the_current_player_in_an_auction(table: Table) -> None:
    auction(table)
    table.controller.press("yes", "button")
    entry = table.last()
    assert (entry["command"]["do"], entry["command"]["by"]) == ("bid", "Ann")
    assert entry["source"]["player"] == "Ann"


OFFER: dict[str, Any] = {"from": "Ann", "to": "Cy", "give": {"cash": 50}, "take": {}}


def test_a_trade_offered_to_another_player_never_stops_the_game_and_is_theirs(
    table: Table,
) -> None:
    table.controller.post_trade(OFFER)
    table.controller.drain()
    waiting = waiting_for(table.state(), table.controller.ui)
    assert any("Waiting for Cy" in w.line for w in waiting), waiting
    version = table.state()["version"]
    table.controller.press("yes", "button")  # not Cy's acceptance
    assert table.state()["version"] == version
    table.controller.press("roll", "button")  # Ann plays on meanwhile
    assert table.last()["command"]["do"] == "roll"
    assert table.state()["pending"]["kind"] == "buy"  # the device's dice (seed 1): a lot
    table.script({"do": "decline"}, {"do": "close_auction"})  # nobody bids
    cash = {p["name"]: p["cash"] for p in table.state()["players"]}
    table.tap(BO)  # not Bo's trade: his card accepts nothing (it starts his own gesture)
    assert table.until(lambda: "Bo: tap a deed" in table.banner()), table.banner()
    assert table.controller.ui.trades and table.last()["command"]["do"] != "trade"
    table.readers.pump.emit(ButtonEvent(Button.NO))  # which the panel's NO ends
    assert table.until(lambda: table.banner() == "Cancelled."), table.banner()
    table.tap(CY)  # Cy's own card: her acceptance
    assert table.until(lambda: table.last()["command"]["do"] == "trade"), table.banner()
    entry = table.last()
    assert entry["source"] == {"kind": "rfid", "player": "Cy", "banker": False}
    after = {p["name"]: p["cash"] for p in table.state()["players"]}
    assert (after["Ann"], after["Cy"], after["Bo"]) == (cash["Ann"] - 50, cash["Cy"] + 50,
                                                       cash["Bo"])
    assert table.controller.ui.trades == []


def test_a_trade_offered_to_the_current_player_is_answered_with_their_own_card(
        table: Table) -> None:
    table.controller.post_trade({**OFFER, "from": "Cy", "to": "Ann"})
    table.controller.drain()
    version = table.state()["version"]
    table.controller.press("yes", "button")  # the shared YES answers no trade, not even Ann's
    assert table.state()["version"] == version
    table.tap(ANN)
    assert table.until(lambda: table.last()["command"]["do"] == "trade"), table.banner()
    assert table.last()["source"] == {"kind": "rfid", "player": "Ann", "banker": False}
