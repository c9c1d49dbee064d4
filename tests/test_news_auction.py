"""One auction (companion.game.telling.news): the session keeps the one clock, restarted by every
new highest bid, and the screen and every phone show the same seconds; the highest bidder
is not offered to outbid themselves; the winner's phone says what they won and for how
much; the table closes the auction when the clock runs out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import TABLE, joined

from companion.game.api import Source
from companion.game.session import GameSession
from companion.screen.controller import Controller

pytestmark = pytest.mark.usefixtures("screen_in_english")


class Clock:
    """Wall-clock seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def game(tmp_path: Path, clock: Clock) -> Iterator[Any]:
    session = GameSession.open(tmp_path / "game", clock=clock)
    assert session.submit({"do": "new_game", "edition": "classic-eur", "players":
                           ["Ann", "Bo", "Cy"], "seed": 3}, TABLE).accepted
    yield session
    session.close()


def auction(game: Any) -> None:
    """Ann lands on Rue Lecourbe and declines it: the bank auctions it."""
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "decline"}):
        assert game.submit(command, TABLE).accepted
    assert game.state()["pending"]["kind"] == "auction"


def countdown(phone: Any) -> int | None:
    html = phone.client.get("/me?partial=1").get_data(as_text=True)
    found = re.search(r'data-countdown="(\d+)"', html)
    return int(found.group(1)) if found else None


def bid(game: Any, player: str, amount: int) -> None:
    out = game.submit({"do": "bid", "by": player, "amount": amount},
                      Source("phone", player=player))
    assert out.accepted, out


def test_one_clock_for_the_screen_and_every_phone(app: Flask, game: Any,
                                                   clock: Clock) -> None:
    auction(game)
    bo, cy = joined(app, "Bo"), joined(app, "Cy")
    assert game.state()["auction_clock"]["seconds_left"] == 30
    assert countdown(bo) is None  # no bid yet: nothing to count down to
    early = Controller(game, language="en", clock=lambda: 40.0)
    assert early.ui.auction_deadline is None  # nor on the table's screen, which never
    assert early.ui.next_change() is None  # ticks for an auction nobody bid in
    bid(game, "Bo", 20)
    clock.now += 12
    assert game.state()["auction_clock"]["seconds_left"] == 18
    assert countdown(bo) == countdown(cy) == 18
    screen = Controller(game, language="en", clock=lambda: 50.0)
    assert screen.ui.auction_deadline == 50.0 + 18
    bid(game, "Cy", 30)  # a new highest bid starts the clock again
    assert countdown(bo) == countdown(cy) == 30


def test_the_highest_bidder_is_not_offered_to_outbid_themselves(app: Flask,
                                                                  game: Any) -> None:
    auction(game)
    bid(game, "Bo", 20)
    bo, cy = joined(app, "Bo"), joined(app, "Cy")
    mine = bo.client.get("/me?partial=1").get_data(as_text=True)
    theirs = cy.client.get("/me?partial=1").get_data(as_text=True)
    assert 'class="bid"' not in mine and 'data-cmd-form="bid"' not in mine
    assert "Your bid is the highest." in mine
    assert 'class="bid"' in theirs and 'data-cmd-form="bid"' in theirs


def test_the_table_closes_at_the_clock_and_the_winner_is_told(app: Flask, game: Any,
                                                               clock: Clock) -> None:
    auction(game)
    bid(game, "Bo", 20)
    screen = Controller(game, language="en", clock=lambda: 0.0)
    screen.ui.now = 30.5
    screen.tick()  # the screen's countdown ends; the gavel is the session writer's
    assert game.state()["pending"] is not None
    clock.now += 30
    game.set_teaching(False, TABLE)  # any request wakes the writer, which rings the gavel
    game.set_teaching(False, TABLE)
    closed = game.history(None, 1)[-1]
    assert closed["command"]["do"] == "close_auction"
    assert game.state()["pending"] is None and "auction_clock" not in game.state()
    said = joined(app, "Bo").client.get("/me").get_data(as_text=True)
    assert "You won Rue Lecourbe at auction for €\u00a020" in said
