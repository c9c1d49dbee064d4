"""The typed view of the table (companion.game.table.view), built once per version and
change of the offers by the session, which every face renders: whose turn, what each person
is asked, the offers, the clocks, what each button sends now (issue 25)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from companion.game.table.buttons import command_for
from companion.game.table.offers import OfferStore
from companion.game.table.view import Asked, TableView

BANKER = Source("script", banker=True)


@pytest.fixture
def game(tmp_path: Path) -> Iterator[tuple[GameSession, OfferStore]]:
    with GameSession.open(tmp_path) as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo", "Cy"], "seed": 3}, BANKER).accepted
        offers = OfferStore()
        session.keep_offers(offers)
        yield session, offers


def test_built_once_per_version_and_change_of_the_offers(
        game: tuple[GameSession, OfferStore]) -> None:
    session, offers = game
    first = session.table()
    assert isinstance(first, TableView) and session.table() is first
    assert offers.add("Ann", "Cy", {"cash": 5}, {}, session.version) is not None
    second = session.table()
    assert second is not first and [o["to"] for o in second.offers] == ["Cy"]
    assert session.submit({"do": "roll", "dice": [1, 2]}, BANKER).accepted
    third = session.table()
    assert third is not second and third.version == session.version


def test_what_each_person_is_asked_and_what_each_button_sends(
        game: tuple[GameSession, OfferStore]) -> None:
    session, offers = game
    view = session.table()
    assert view.current == "Ann" and view.asked == ()
    assert view.buttons["roll"] == {"do": "roll", "by": "Ann"} and view.press("yes") is None
    assert session.submit({"do": "roll", "dice": [1, 2]}, BANKER).accepted
    view = session.table()
    assert view.asked == (Asked("Ann", "buy"),)
    assert view.press("yes") == {"do": "buy", "by": "Ann"}
    assert view.press("no") == {"do": "decline", "by": "Ann"}
    assert session.submit({"do": "decline"}, BANKER).accepted
    assert session.submit({"do": "bid", "by": "Bo", "amount": 20}, BANKER).accepted
    old = offers.add("Ann", "Cy", {"cash": 5}, {}, session.version)
    new = offers.add("Bo", "Cy", {"cash": 7}, {}, session.version)
    assert old is not None and new is not None
    view = session.table()
    assert [a.player for a in view.asked if a.what == "auction"] == ["Ann", "Cy"]  # not Bo
    assert view.asked_of("Cy") == (Asked("Cy", "auction"), Asked("Cy", "offer", new["id"]))
    assert view.auction_clock is not None and 0 < view.auction_clock.seconds_left <= 30
    state = session.state()
    for button in ("roll", "yes", "no", "pass_go"):
        assert view.buttons[button] == command_for(state, button)
    assert view.press("yes", steps=2) == {"do": "bid", "by": "Ann", "amount": 50}


def test_a_debt_of_another_player_is_waited_for(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as session:
        for command in ({"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                         "seed": 1}, {"do": "pay", "from": "Bo", "to": "bank", "amount": 1495},
                        {"do": "roll", "dice": [1, 1]},
                        {"do": "draw", "card": "chest-birthday"}):
            assert session.submit(command, BANKER).accepted, command
        view = session.table()
        assert view.waiting_on == "Bo" and view.asked == (Asked("Bo", "debt"),)
        assert view.buttons["yes"] is None  # a debt is answered from a list, on its own input
