"""Decisions that belong to someone other than the current player never go to the table's
shared YES / NO: a trade offered on a phone, another player's bid or pass in an auction.
The screen says whom it waits for, and the current player plays on.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest
from web_fakes import FakeSession

from companion.game.api import Source
from companion.game.table.offers import OfferStore
from companion.screen import texts
from companion.screen.controller import Controller
from companion.screen.render import render
from companion.words import catalog as i18n

PLAYERS = ("Ann", "Bo", "Cleo")
WAIT_CLEO = "Waiting for Cleo: accept on your phone or tap your card"
WAIT_TEXT = texts.MESSAGES["waiting_trade"].text


pytestmark = pytest.mark.usefixtures("screen_in_english")


def table(language: str = "en") -> tuple[FakeSession, Controller]:
    """A session keeping the table's one store of offers, and the screen showing it."""
    session = FakeSession(players=PLAYERS)
    session.keep_offers(OfferStore())
    controller = Controller(session, language=language)
    assert session._offers is not None
    controller.follow_offers(session._offers)
    return session, controller


def drawn(controller: Controller, size: tuple[int, int] = (800, 480),
          png: Path | None = None) -> str:
    """The texts of a frame drawn now, one after another (a paragraph's lines joined
    again); the frame is kept as a PNG when `png` is given."""
    surface = pygame.Surface(size)
    frame = render(controller.state, controller.ui, surface)
    if png is not None:
        pygame.image.save(surface, str(png))
    assert [t.text for t in frame.texts if not t.fits] == []
    return " ".join(t.text for t in frame.texts)


def cash(controller: Controller) -> dict[str, int]:
    assert controller.state is not None
    return {p["name"]: int(p["cash"]) for p in controller.state["players"]}


def offer(controller: Controller, sender: str = "Ann", receiver: str = "Cleo",
          **goods: Any) -> str:
    """A trade offered on a phone, into the table's store (companion.game.table.offers)."""
    assert controller.offers is not None
    made = controller.offers.add(sender, receiver, goods.get("give", {"cash": 200}),
                                 goods.get("take", {}), 1)
    assert made is not None
    return str(made["id"])


def last_command(session: FakeSession) -> dict[str, Any]:
    return dict(session.history(limit=1)[-1]["command"])


# --- a trade offered on a phone -----------------------------------------------------------------


@pytest.mark.parametrize("sender", ["Ann", "Bo"])
def test_a_trade_offer_waits_for_the_receiver_and_the_current_player_plays_on(
        sender: str) -> None:
    session, controller = table()
    offer(controller, sender)
    controller.drain()
    assert controller.ui.table.offers and controller.ui.table.offers[0]["to"] == "Cleo"
    shown = drawn(controller)
    assert WAIT_CLEO in shown
    assert f"{sender} offers Cleo a trade" in shown
    before, version = cash(controller), session.version
    prompt = controller.current_prompt()
    assert prompt.for_button("yes") is None and prompt.for_button("no") is None
    for button in ("yes", "no"):  # anybody's press at the table: nothing for Cleo
        controller.press(button)
        assert controller.ui.message is not None and controller.ui.message.kind == "refused"
    assert session.version == version and cash(controller) == before
    assert controller.ui.table.offers, "the offer still waits for Cleo"
    controller.press("roll")  # Ann's turn goes on
    assert last_command(session)["do"] == "roll" and last_command(session)["by"] == "Ann"
    assert session.version > version
    assert controller.state is not None and controller.state["current"] == "Ann"


def test_the_line_goes_when_cleo_accepts_on_her_phone() -> None:
    session, controller = table()
    offer(controller)
    controller.drain()
    command = {"do": "trade", "from": "Ann", "to": "Cleo", "give": {"cash": 200},
               "take": {}}
    assert session.submit(command, Source("phone", "Cleo")).accepted
    controller.drain()
    assert cash(controller)["Cleo"] == 1700
    assert controller.ui.table.offers == ()
    assert WAIT_CLEO not in drawn(controller)


def test_the_screen_stops_waiting_when_the_turn_ends() -> None:
    session, controller = table()
    offer(controller)
    controller.drain()
    controller.dice_digit(4)
    controller.dice_digit(6)  # just visiting the jail: nothing to decide
    assert last_command(session) == {"do": "roll", "by": "Ann", "dice": [4, 6]}
    assert controller.ui.table.offers, "a roll in the same turn keeps the offer"
    controller.press("roll")
    assert last_command(session) == {"do": "end_turn", "by": "Ann"}
    assert controller.state is not None and controller.state["current"] == "Bo"
    assert controller.ui.table.offers == ()
    assert WAIT_CLEO not in drawn(controller)


def test_offers_the_table_has_overtaken_are_dropped() -> None:
    """The store's lapse rules, as the screen sees them after each update."""
    session, controller = table()
    banker = Source("script", banker=True)
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"}):  # Ann: Rue Lecourbe (3)
        assert session.submit(command, banker).accepted
    offer(controller, "Ann", "Cleo", give={"squares": [3]}, take={"cash": 5})
    offer(controller, "Bo", "Cleo", give={"cash": 5})
    controller.drain()
    assert len(controller.ui.table.offers) == 2
    assert session.submit({"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [3]},
                           "take": {}}, banker).accepted  # the deed changed hands
    controller.drain()
    assert [t["from"] for t in controller.ui.table.offers] == ["Bo"]
    assert session.submit({"do": "trade", "from": "Bo", "to": "Cleo", "give": {"cash": 5},
                           "take": {}}, banker).accepted  # the same deal, done
    controller.drain()
    assert controller.ui.table.offers == ()
    offer(controller, "Bo", "Cleo")
    assert session.submit({"do": "new_game", "edition": "classic-eur",
                           "players": list(PLAYERS)}, banker).accepted
    controller.drain()
    assert controller.ui.table.offers == ()


# --- an auction ----------------------------------------------------------------------------------


def auction(controller: Controller, session: FakeSession) -> None:
    """Ann lands on King's Cross Station and declines it; the bank auctions it."""
    for command in ({"do": "roll", "dice": [2, 3]}, {"do": "decline"}):
        assert session.submit(command, Source("script", banker=True)).accepted
    controller.drain()
    assert controller.state is not None and controller.state["pending"]["kind"] == "auction"


def test_the_shared_buttons_bid_and_pass_only_for_the_current_player() -> None:
    session, controller = table()
    auction(controller, session)
    assert session.submit({"do": "bid", "by": "Bo", "amount": 120},
                          Source("phone", "Bo")).accepted
    controller.drain()
    assert "Waiting for Cleo: bid or pass on your phone or tap your card" in drawn(controller)
    prompt = controller.current_prompt()
    yes, no = prompt.for_button("yes"), prompt.for_button("no")
    assert yes is not None and yes.command is not None and yes.command["by"] == "Ann"
    assert no is not None and no.command == {"do": "pass", "by": "Ann"}
    assert prompt.for_button("roll") is None, "no 'next bidder': ROLL never hands YES on"
    version = session.version
    controller.press("roll")
    assert session.version == version
    controller.press("yes")
    assert last_command(session) == {"do": "bid", "by": "Ann", "amount": 130}
    # Ann holds the highest bid: no YES to outbid herself, no NO (she may not pass)
    prompt = controller.current_prompt()
    assert prompt.for_button("yes") is None and prompt.for_button("no") is None
    assert "Waiting for Bo, Cleo: bid or pass on your phone or tap your card" in \
        drawn(controller)
    version = session.version
    for button in ("yes", "no"):
        controller.press(button)
    assert session.version == version
    assert controller.state is not None and controller.state["pending"]["highest"] == 130


def test_after_the_current_player_passes_the_others_bid_on_their_phones() -> None:
    session, controller = table()
    auction(controller, session)
    controller.press("no")
    assert last_command(session) == {"do": "pass", "by": "Ann"}
    version = session.version
    for button in ("yes", "no", "roll"):
        controller.press(button)
    assert session.version == version, "nobody's bid or pass taken by the shared buttons"
    assert "Waiting for Bo, Cleo: bid or pass on your phone or tap your card" in \
        drawn(controller)
    surface = pygame.Surface((800, 480))
    frame = render(controller.state, controller.ui, surface)
    assert not [h for h in frame.hotspots if h.action == "player"], \
        "a tap on a player's card does not make the screen bid for them"


# --- the picture ---------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_the_waiting_line_is_drawn_in_the_screens_language(language: str,
                                                          tmp_path: Path) -> None:
    session, controller = table(language)
    offer(controller)
    controller.drain()
    controller.sync_language()
    line = i18n.translator(language).pgettext("waiting_trade", WAIT_TEXT) \
        .format(player="Cleo")
    assert line and "Cleo" in line
    if language != "en":
        assert line != WAIT_CLEO
    out = Path(os.environ.get("SCREEN_PNG_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    for size in ((800, 480), (1920, 1080)):
        shown = drawn(controller, size, out / f"waiting-trade-{size[0]}x{size[1]}-{language}.png")
        assert line in shown


def test_two_offers_to_one_player_make_one_line() -> None:
    session, controller = table()
    offer(controller, "Ann", "Cleo")
    offer(controller, "Bo", "Cleo")
    controller.drain()
    shown = drawn(controller)
    assert shown.count(WAIT_CLEO) == 1 and "Bo offers Cleo a trade" in shown


def test_a_proposal_settled_on_a_phone_is_no_longer_waited_for() -> None:
    from companion.screen.views.waiting import waiting_for

    session, controller = table()
    first = offer(controller, "Ann", "Bo")
    second = offer(controller, "Ann", "Cleo")
    controller.drain()
    assert {t["id"] for t in controller.ui.table.offers} == {first, second}
    assert controller.offers is not None
    controller.offers.remove(first)  # declined on Bo's phone
    controller.drain()
    assert [t["id"] for t in controller.ui.table.offers] == [second]
    assert not any("Bo" in w.line for w in waiting_for(controller.state or {}, controller.ui))


def test_wrong_banker_pins_on_phones_are_shown_on_the_table() -> None:
    from web_fakes import FakeSession

    from companion.screen.controller import Controller

    controller = Controller(FakeSession())
    controller.post_pin_warning(3)
    controller.drain()
    message = controller.ui.message
    assert message is not None and message.kind == "warning"
    from companion.screen.texts import text

    assert message.text == text("pin_warning", count=3) and "3" in message.text
    assert "PIN" in message.text  # said in the screen's language, not as its id
