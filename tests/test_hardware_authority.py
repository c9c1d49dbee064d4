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
from companion.app.wiring import Readers, table_pin
from companion.game.api import JSON, Source, Update
from companion.game.pins import PinGuard, PinWarning
from companion.game.session import GameSession
from companion.game.table.offers import OfferStore
from companion.inputs.events import Button, ButtonEvent, EncoderEvent, Gesture
from companion.inputs.registry import TagKind, TagRole
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
        self.offers = OfferStore(data_dir / "offers.json")  # as `companion run` wires it
        self.session.keep_offers(self.offers)
        self.controller = Controller(self.session, language="en")
        self.controller.follow_offers(self.offers)
        self.woken = threading.Event()
        self.controller.wake = self.woken.set
        self.readers = Readers(self.session, data_dir, ["fake"], self.controller.post_message,
                               offers=self.offers)
        self.cards = CardRegistration(self.controller, self.readers.registrar)
        self.controller.cards = self.cards
        self.controller.gestures = self.readers.pump.take_press  # as `companion run` does
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
        return message.text.replace("\xa0", " ") if message is not None else ""

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

    def offer(self, offer: JSON) -> JSON:
        """A trade offered on a phone, into the table's one store."""
        made = self.offers.add(offer["from"], offer["to"], offer.get("give") or {},
                               offer.get("take") or {}, self.state()["version"])
        assert made is not None
        return made


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
    table.offer(OFFER)
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
    table.tap(BO)  # not Bo's trade: his card accepts nothing, it asks its own question
    question = "Bo's card: tap another player's card to pay them. NO cancels."
    assert table.until(lambda: table.banner() == question), table.banner()
    assert table.controller.ui.table.offers and table.last()["command"]["do"] != "trade"
    table.readers.pump.emit(ButtonEvent(Button.NO))  # which the panel's NO ends
    assert table.until(lambda: table.banner() == "Cancelled."), table.banner()
    table.tap(CY)  # Cy's own card: the offer is put to her, with what each side gives
    asked = "Ann offers Cy a trade: Ann gives € 50, Cy gives Nothing."
    assert table.until(lambda: table.banner().startswith(asked)), table.banner()
    assert table.last()["command"]["do"] != "trade"  # asked, not yet answered
    version = table.state()["version"]
    table.tap(CY)  # her card again: yes to that offer
    assert table.until(lambda: table.state()["version"] > version), table.banner()
    assert table.last()["command"]["do"] == "trade"
    entry = table.last()
    assert entry["source"] == {"kind": "rfid", "player": "Cy", "banker": False}
    after = {p["name"]: p["cash"] for p in table.state()["players"]}
    assert (after["Ann"], after["Cy"], after["Bo"]) == (cash["Ann"] - 50, cash["Cy"] + 50,
                                                       cash["Bo"])
    assert table.until(lambda: table.controller.ui.table.offers == ())


def test_a_trade_offered_to_the_current_player_is_answered_with_their_own_card(
        table: Table) -> None:
    table.offer({**OFFER, "from": "Cy", "to": "Ann"})
    table.controller.drain()
    version = table.state()["version"]
    table.controller.press("yes", "button")  # the shared YES answers no trade, not even Ann's
    assert table.state()["version"] == version
    table.tap(ANN)  # the offer put to Ann; the panel's YES now answers that question
    assert table.until(lambda: table.banner().startswith("Cy offers Ann")), table.banner()
    table.readers.pump.emit(ButtonEvent(Button.YES))
    assert table.until(lambda: table.last()["command"]["do"] == "trade"), table.banner()
    assert table.last()["source"] == {"kind": "rfid", "player": "Ann", "banker": False}


def test_a_trade_accepted_with_a_bank_card_leaves_every_phones_open_proposals(
        table: Table) -> None:
    """Offered on Ann's phone through the real remote, accepted by Cy's card: the offer
    goes from every phone's list at once (a live "trades" update), as it would when
    accepted on Cy's phone: the phones, the screen and the readers hold one store."""
    from web_fakes import joined

    from web_remote import TableHooks, create_app

    c = table.controller
    app = create_app(table.session, table.data_dir, {"banker_pin": "2468"},
                     TableHooks(offers=table.offers))
    try:
        ann, cy = joined(app, "Ann"), joined(app, "Cy")
        stream = app.extensions["web_remote"].hub.subscribe("a phone")
        assert stream is not None
        offer = ann.post("/api/trades", {"version": table.state()["version"], "to": "Cy",
                                         "give": {"cash": 50}, "take": {}})
        assert offer.status_code == 200, offer.get_json()
        assert [t["to"] for t in cy.client.get("/api/trades").get_json()] == ["Cy"]
        stream.take()
        c.drain()
        assert [t["to"] for t in c.ui.table.offers] == ["Cy"]  # the screen shows the same offer
        table.tap(CY)
        assert table.until(lambda: table.banner().startswith("Ann offers Cy")), table.banner()
        table.tap(CY)
        assert table.until(lambda: table.last()["command"]["do"] == "trade"), table.banner()
        assert table.last()["source"] == {"kind": "rfid", "player": "Cy", "banker": False}
        assert table.until(lambda: "trades" in [m.event for m in stream.take()[0]])
        for phone in (ann, cy, joined(app, "banker")):
            assert phone.client.get("/api/trades").get_json() == []
    finally:
        app.extensions["web_remote"].close()


def bo_in_debt(table: Table) -> None:
    """Cy's turn; Bo (owning Rue Lecourbe, € 5 in cash) owes Cy € 10 for her birthday."""
    table.script({"do": "roll", "dice": [1, 2]}, {"do": "decline"}, {"do": "pass", "by": "Ann"},
                 {"do": "pass", "by": "Cy"}, {"do": "bid", "by": "Bo", "amount": 60},
                 {"do": "end_turn"}, {"do": "roll", "dice": [2, 3]}, {"do": "decline"},
                 {"do": "pass", "by": "Ann"}, {"do": "pass", "by": "Cy"},
                 {"do": "pass", "by": "Bo"}, {"do": "end_turn"},
                 {"do": "pay", "from": "Bo", "to": "bank", "amount": 1435},
                 {"do": "roll", "dice": [1, 1]}, {"do": "draw", "card": "chest-birthday"})
    state = table.state()
    assert (state["current"], state["pending"]["kind"], state["pending"]["player"]) == \
        ("Cy", "debt", "Bo")


def test_the_tables_buttons_never_answer_another_players_debt(table: Table) -> None:
    bo_in_debt(table)
    c = table.controller
    before = table.state()
    waiting = waiting_for(before, c.ui)
    assert waiting[0].line == "Waiting for Bo: raise the money on your phone or tap your card"
    assert [a.button for a in c.current_prompt().actions] == ["undo", "menu"]
    for button in ("yes", "no", "roll", "pass_go"):
        c.press(button, "button")
        assert table.banner() == ("Refused: Waiting for Bo: answer on your phone or tap "
                                  "your bank card"), button
    # nor through the menu's square picker, nor a command made up for him
    c.open_squares("mortgage")
    c.choose(0, "button")
    assert c.submit({"do": "mortgage", "by": "Bo", "square": 3}, "touch") is None
    assert table.state() == before


def test_a_debtor_answers_their_debt_with_their_own_card(table: Table) -> None:
    bo_in_debt(table)
    c = table.controller
    table.tap(ANN)  # not Ann's debt: her card holds nothing, the screen says whose it is
    said = "Waiting for Bo: raise the money on your phone or tap your card"
    assert table.until(lambda: table.banner() == said), table.banner()
    assert c.ui.card_holder is None
    table.tap(BO)
    assert table.until(lambda: c.ui.card_holder == "Bo"), table.banner()
    assert table.banner() == "Bo's card: the buttons answer for Bo now"
    assert waiting_for(table.state(), c.ui) == []
    c.press("yes", "button")  # YES: mortgage; the square picker lists his deed
    chooser = c.ui.chooser
    assert chooser is not None and "Bo" in chooser.choices[0].label
    c.choose(0, "button")
    entry = table.last()
    assert entry["command"]["do"] == "mortgage"
    assert entry["source"] == {"kind": "rfid", "player": "Bo", "banker": False}
    state = table.state()
    assert state["pending"] is None or state["pending"].get("player") != "Bo"
    assert c.ui.card_holder is None  # the hold ended with his debt


# --- the banker menu, behind the banker PIN ------------------------------------------------

PIN = "2468"


class Clock:
    """The PIN guard's and the screen's clock, moved by hand: no sleeping."""

    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def guarded(table: Table) -> Iterator[tuple[Table, Clock, list[PinWarning]]]:
    """The table with the table's one PIN guard (PIN 2468) as `companion run` wires it."""
    clock, warnings = Clock(), []
    guard = table_pin(table.data_dir, warnings.append)
    guard.store.set(PIN)
    table.controller.pins = PinGuard(guard.store, clock=clock, on_warning=warnings.append)
    table.controller.clock = clock
    yield table, clock, warnings


def hold_menu(table: Table) -> None:
    table.readers.pump.emit(ButtonEvent(Button.MENU, Gesture.HOLD))
    assert table.until(lambda: table.controller.ui.pin is not None), table.banner()


def type_pin(table: Table, pin: str) -> None:
    for digit in pin:
        table.controller.pin_key(digit)
    table.controller.press("roll", "button")  # ROLL checks it (Enter on the keyboard)


def banker_menu_open(table: Table) -> bool:
    chooser = table.controller.ui.chooser
    return chooser is not None and chooser.title == "Banker menu"


def test_holding_menu_asks_the_banker_pin_dialled_on_the_knob(
        guarded: tuple[Table, Clock, list[PinWarning]]) -> None:
    table, _clock, warnings = guarded
    hold_menu(table)
    assert not banker_menu_open(table) and table.controller.ui.overlay is None
    pump = table.readers.pump
    pump.emit(EncoderEvent(2))  # the knob dials 2, YES takes it
    pump.emit(ButtonEvent(Button.YES))
    assert table.until(lambda: table.controller.ui.pin.digits == "2")  # type: ignore[union-attr]
    type_pin(table, "468")
    assert banker_menu_open(table)
    assert table.controller.ui.pin is None and warnings == []
    table.controller.choose(0, "button")  # "Register cards": the banker's, now allowed
    chooser = table.controller.ui.chooser
    assert chooser is not None and chooser.title == "Register cards"


def test_a_wrong_pin_opens_nothing_and_says_so(
        guarded: tuple[Table, Clock, list[PinWarning]]) -> None:
    table, _clock, warnings = guarded
    before = table.state()
    hold_menu(table)
    type_pin(table, "1357")
    assert table.banner() == "Refused: Wrong banker PIN, nothing changed (1 wrong so far)"
    assert not banker_menu_open(table) and table.controller.ui.pin is not None
    assert [(w.wrong, w.where) for w in warnings] == [(1, "screen")]
    table.controller.post_pin_warning(1, "screen")  # the screen said it: no "on a phone"
    table.controller.drain()
    assert "phone" not in table.banner()
    table.controller.press("no", "button")  # nothing typed: NO closes the question
    assert table.controller.ui.pin is None and not banker_menu_open(table)
    assert table.state() == before


def test_the_pin_question_closes_by_itself(
        guarded: tuple[Table, Clock, list[PinWarning]]) -> None:
    table, clock, _warnings = guarded
    hold_menu(table)
    table.controller.pin_key("2")
    clock.now += 31
    table.controller.drain()
    assert table.controller.ui.pin is None
    table.controller.press("yes", "button")  # the panel is the game's again
    assert table.controller.ui.pin is None and not banker_menu_open(table)


def test_phones_guessing_the_pin_never_lock_the_banker_out_of_the_screen(
        guarded: tuple[Table, Clock, list[PinWarning]], tmp_path: Path) -> None:
    """Issue 26, point 5: spectators' phones guess until the phones' door waits; the
    screen's banker menu still checks the right PIN at once, the banker card still opens it,
    and every wrong guess warned the banker. The screen's own wrong PINs hold the screen back
    (three in a row, then a wait that doubles)."""
    from web_fakes import ORIGIN, Phone, page_csrf

    from companion.game.pins import FREE_WRONG, PIN_CHECKS_PER_MINUTE
    from web_remote import TableHooks, create_app, join_url

    table, clock, warnings = guarded
    guard = table.controller.pins
    assert guard is not None
    app = create_app(table.session, table.data_dir, hooks=TableHooks(pin_guard=guard))
    try:
        codes = []
        for guess in range(PIN_CHECKS_PER_MINUTE + 2):  # one guess from each new phone,
            clock.now += guard.wait("phone")  # each as soon as the phones' door checks one
            phone = Phone(app)
            url = join_url(app, ORIGIN, fresh=True).removeprefix(ORIGIN)
            token = page_csrf(phone.client.get(url).get_data(as_text=True))
            resp = phone.client.post(url, data={"who": "banker", "pin": f"{guess:04d}",
                                                "csrf_token": token},
                                     headers={"Origin": ORIGIN, "Accept": "application/json"})
            codes.append(resp.get_json()["code"])
        assert codes == ["bad_pin"] * len(codes) and guard.wait("phone") >= 60  # they wait
        wrong = len(codes)
        assert [w.where for w in warnings] == ["phone"] * wrong  # each one warned the banker
        hold_menu(table)
        type_pin(table, PIN)  # the screen is not kept waiting by the phones
        assert banker_menu_open(table), table.banner()
        table.readers.registry.register("0D00000009", TagRole(TagKind.BANKER))
        table.controller.ui.chooser, table.controller.ui.banker_until = None, 0.0
        table.tap("0D00000009")  # nor is the banker card
        assert table.until(lambda: banker_menu_open(table)), table.banner()
        table.controller.ui.chooser = None
        table.controller.ui.banker_until = 0.0
        for _ in range(FREE_WRONG):  # the screen's own wrong PINs hold the screen back
            hold_menu(table)
            type_pin(table, "2222")
        assert table.banner().endswith(f"({wrong + FREE_WRONG} wrong so far) · The table "
                                       "checks no PIN for 1 s")
        type_pin(table, PIN)  # right, but too soon: not even checked
        assert table.banner() == "Refused: The table checks no PIN for 1 s"
        assert [w.where for w in warnings] == ["phone"] * wrong + ["screen"] * FREE_WRONG
        clock.now += 1
        type_pin(table, PIN)
        assert banker_menu_open(table)
    finally:
        app.extensions["web_remote"].close()


def test_the_banker_card_opens_the_banker_menu_without_the_pin(
        guarded: tuple[Table, Clock, list[PinWarning]]) -> None:
    table, _clock, _warnings = guarded
    table.readers.registry.register("0D00000009", TagRole(TagKind.BANKER))
    table.tap("0D00000009")
    assert table.until(lambda: banker_menu_open(table)), table.banner()
    assert table.controller.ui.pin is None


def test_a_new_game_on_the_screen_is_dealt_as_the_banker_after_the_pin(
        guarded: tuple[Table, Clock, list[PinWarning]]) -> None:
    table, _clock, _warnings = guarded
    c = table.controller
    c.open_setup()
    c.start_game()  # the form's START: a new game is the banker's
    assert c.ui.pin is not None and c.ui.setup is not None
    version = table.state()["version"]
    type_pin(table, "9999")
    assert c.ui.setup is not None and table.state()["version"] == version
    type_pin(table, PIN)
    entry = table.last()
    assert entry["command"]["do"] == "new_game" and c.ui.setup is None
    assert entry["source"] == {"kind": "screen", "player": None, "banker": True}


def test_a_keyboard_answers_a_bank_cards_question_as_the_panel_does(table: Table) -> None:
    """A table with only a keyboard (or the touch screen): N cancels a bank card's question,
    and after two cards R, G and Y set and pay the amount, as ROLL, PASS GO and YES do."""
    question = "Bo's card: tap another player's card to pay them. NO cancels."
    table.tap(BO)
    assert table.until(lambda: table.banner() == question), table.banner()
    version = table.state()["version"]
    table.controller.press("no", "keyboard")
    assert table.until(lambda: table.banner() == "Cancelled."), table.banner()
    table.tap(BO)
    assert table.until(lambda: table.banner() == question), table.banner()
    table.tap(CY)
    assert table.until(lambda: table.banner().startswith("Bo pays Cy")), table.banner()
    for key in ("roll", "roll", "roll", "pass_go"):  # two steps of 10
        table.controller.press(key, "keyboard")
    assert table.until(lambda: table.banner().startswith("Bo pays Cy € 20")), table.banner()
    table.controller.press("yes", "screen")  # the touch screen's YES
    assert table.until(lambda: table.state()["version"] > version), table.banner()
    assert table.last()["command"] == {"do": "pay", "from": "Bo", "to": "Cy", "amount": 20}
    table.controller.press("roll", "keyboard")  # no gesture waits: the screen's ROLL rolls
    assert table.last()["command"]["do"] == "roll"
