"""Tag registry, guided registration, `companion tap`, the input pump and the RFID bench."""

from __future__ import annotations

import json
import os
import queue
import threading
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import companion.inputs.registrar as registrar_mod
import companion.inputs.registration as registration_mod
import companion.inputs.registry as registry_mod
from companion.app import tap_cmd
from companion.game.api import JSON, Outcome, Source, Update
from companion.game.authority import as_json
from companion.game.table.view import TableView, build
from companion.inputs.actions import PassOn, Show
from companion.inputs.controller import InputController
from companion.inputs.events import Button, ButtonEvent, TagEvent
from companion.inputs.pump import InputPump
from companion.inputs.registration import (
    RegistrationFlow,
    bank_card_steps,
    banker_step,
    deck_steps,
    deed_steps,
)
from companion.inputs.registry import TagKind, TagRegistry, TagRole
from companion.rules.commands import Command
from hardware.readers import FakeReader
from hardware.readers.rdm6300 import Rdm6300Parser
from tools.bench.rfid import run_bench

EDITION = json.loads(
    (Path(__file__).parent.parent / "companion/data/editions/classic-eur.json").read_text()
)


def test_doctests() -> None:
    import doctest

    for module in (registry_mod, registration_mod, registrar_mod):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0


# -- registry -------------------------------------------------------------------------


def test_registry_saves_and_loads(tmp_path: Path) -> None:
    reg = TagRegistry.in_data_dir(tmp_path)
    reg.register("AA", TagRole(TagKind.DEED, square="rue-de-paradis"))
    reg.register("BB", TagRole(TagKind.BANK_CARD, number=1))
    reg.bind_player(1, "Ann")
    again = TagRegistry.in_data_dir(tmp_path)
    assert again.lookup("AA") == TagRole(TagKind.DEED, square="rue-de-paradis")
    assert again.lookup("BB") == TagRole(TagKind.BANK_CARD, number=1, player="Ann")
    assert again.lookup("CC") is None


def test_registering_a_role_again_moves_it_to_the_new_tag() -> None:
    reg = TagRegistry()
    reg.register("OLD", TagRole(TagKind.BANKER))
    previous = reg.register("NEW", TagRole(TagKind.BANKER))
    assert previous is None
    assert reg.lookup("OLD") is None and reg.tag_for(TagRole(TagKind.BANKER)) == "NEW"


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        '{"tags": {"AA": {"kind": "spaceship"}}}',
        '{"tags": {"AA": {"kind": "deed"}}}',
        '{"tags": {"AA": {"kind": "bank_card", "number": "one"}}}',
        "[]",
    ],
)
def test_damaged_registry_is_set_aside_not_fatal(tmp_path: Path, content: str) -> None:
    (tmp_path / "tags.json").write_text(content)
    reg = TagRegistry.in_data_dir(tmp_path)
    assert reg.all() == {} and reg.load_error is not None
    assert (tmp_path / "tags.json.damaged").read_text() == content
    reg.register("AA", TagRole(TagKind.BANKER))
    assert TagRegistry.in_data_dir(tmp_path).lookup("AA") == TagRole(TagKind.BANKER)


# -- guided registration --------------------------------------------------------------


def test_register_all_deeds_in_board_order(tmp_path: Path) -> None:
    reg = TagRegistry.in_data_dir(tmp_path)
    steps = deed_steps(EDITION["squares"])
    assert len(steps) == 28
    assert steps[0].label == "Boulevard de Belleville" and steps[-1].label == "Rue de la Paix"
    flow = RegistrationFlow(reg, steps)
    assert flow.prompt() == "Tap the card for Boulevard de Belleville (1 of 28)"
    assert flow.on_tag("T0").registered
    again = flow.on_tag("T0")  # the same card twice by mistake
    assert not again.registered and "already Boulevard de Belleville" in again.message
    assert flow.on_tag("T1").registered
    assert flow.skip().startswith("Tap the card for Rue de Vaugirard")  # skips the station
    for i in range(3, 28):
        result = flow.on_tag(f"T{i}")
    assert result.done and flow.done
    assert reg.lookup("T1") == TagRole(TagKind.DEED, square="rue-lecourbe")
    assert reg.lookup("T27") == TagRole(TagKind.DEED, square="rue-de-la-paix")
    assert len(TagRegistry.in_data_dir(tmp_path).all()) == 27


def test_a_card_registered_to_something_else_is_asked_about_first() -> None:
    reg = TagRegistry()
    reg.register("X", TagRole(TagKind.BANKER))
    flow = RegistrationFlow(reg, bank_card_steps(2))
    asked = flow.on_tag("X")
    assert asked.outcome == "asking" and not asked.registered
    assert "the banker card" in asked.message and reg.lookup("X") == TagRole(TagKind.BANKER)
    kept = flow.confirm(False)  # NO keeps it: still the banker card, still card 1 to tap
    assert kept.outcome == "kept" and reg.lookup("X") == TagRole(TagKind.BANKER)
    flow.on_tag("X")
    moved = flow.confirm(True)
    assert moved.registered and "it was the banker card" in moved.message
    assert reg.lookup("X") == TagRole(TagKind.BANK_CARD, number=1)


def test_back_reregisters_the_card_before() -> None:
    reg = TagRegistry()
    flow = RegistrationFlow(reg, bank_card_steps(2))
    flow.on_tag("X")
    assert flow.back().startswith("Tap the card for bank card 1")
    assert flow.on_tag("X").registered  # the same card again: no question, same role
    flow.back()
    flow.on_tag("Y")
    assert reg.lookup("Y") == TagRole(TagKind.BANK_CARD, number=1) and reg.lookup("X") is None


def test_deck_and_banker_steps_cover_every_card() -> None:
    chance = deck_steps(EDITION["decks"], "chance")
    assert len(chance) == len(EDITION["decks"]["chance"]["cards"])
    assert all(s.role.deck == "chance" for s in chance)
    assert len(deck_steps(EDITION["decks"])) == sum(
        len(d["cards"]) for d in EDITION["decks"].values()
    )
    assert banker_step()[0].role == TagRole(TagKind.BANKER)


def test_controller_routes_taps_and_buttons_to_registration() -> None:
    reg = TagRegistry()
    ctl = InputController(reg)
    state: JSON = {"version": 1, "players": [], "legal": []}
    ctl.registrar.start("bank_cards")  # no game: the edition's most players (8)
    [show] = ctl.handle(TagEvent("C1"), state)
    assert isinstance(show, Show) and "bank card 2" in show.message
    ctl.handle(ButtonEvent(Button.NO), state)  # skip card 2
    ctl.handle(TagEvent("C3"), state)
    assert reg.lookup("C3") == TagRole(TagKind.BANK_CARD, number=3)
    actions = ctl.handle(ButtonEvent(Button.MENU), state)  # MENU stops
    assert [a.code for a in actions if isinstance(a, Show)] == ["registration_done"]
    assert not ctl.registrar.active
    assert [a.code for a in ctl.handle(TagEvent("C9"), state) if isinstance(a, Show)] == [
        "unknown_tag"
    ]


# -- companion tap --------------------------------------------------------------------


def test_companion_tap_reaches_a_running_fake_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events: queue.Queue[object] = queue.Queue()
    reader = FakeReader(events.put, tmp_path)
    reader.start()
    try:
        assert reader.listening.wait(5)
        assert tap_cmd.main(["0a1b2c3d4e", "--data-dir", str(tmp_path)]) == 0
        event = events.get(timeout=5)
        assert isinstance(event, TagEvent) and event.tag == "0A1B2C3D4E"
    finally:
        reader.close()
    assert "tapped 0A1B2C3D4E" in capsys.readouterr().out


def test_companion_tap_without_a_companion_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tap_cmd.main(["ABCD", "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no companion" in err and str(tmp_path / "tap.sock") in err


def test_companion_tap_uses_the_default_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    assert tap_cmd.main(["ABCD"]) == 1
    assert str(tmp_path) in capsys.readouterr().err


def test_companion_tap_usage_errors() -> None:
    assert tap_cmd.main([]) == 2
    assert tap_cmd.main(["bad tag!"]) == 2
    assert tap_cmd.main(["ABCD", "--serial", "/dev/null"]) == 2  # not an RDM6300 tag


def test_companion_tap_serial_writes_a_frame_to_a_pty() -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        assert tap_cmd.main(["0A1B2C3D4E", "--serial", os.ttyname(slave)]) == 0
        assert "0A1B2C3D4E" in Rdm6300Parser().feed(os.read(master, 64))
    finally:
        os.close(master)
        os.close(slave)


# -- input pump -----------------------------------------------------------------------


class FakeSession:
    """Records what the pump submits; refuses commands named in `refuse`."""

    def __init__(self, state: JSON, refuse: set[str] | None = None) -> None:
        self._state = state
        self.refuse = refuse or set()
        self.calls: list[tuple[str, Any, Source]] = []
        self.done = threading.Event()

    def submit(self, command: Command | JSON, source: Source,
               expect_version: int | None = None) -> Outcome:
        command = dict(as_json(command))
        self.calls.append(("submit", command, source))
        self.done.set()
        if command["do"] in self.refuse:
            return Outcome(False, 1, code="illegal", message="Not now.")
        return Outcome(True, 2)

    def state(self) -> JSON:
        return self._state

    def now(self) -> float:
        return 0.0

    def table(self) -> TableView:
        return build(self._state)

    def undo(self, source: Source) -> Outcome:
        self.calls.append(("undo", None, source))
        self.done.set()
        return Outcome(True, 3)

    def redo(self, source: Source) -> Outcome:
        return Outcome(False, 3)

    def history(self, player: str | None = None, limit: int = 200,
                before: int | None = None) -> list[JSON]:
        return []

    def add_listener(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        return lambda: None


BUY_STATE: JSON = {
    "version": 1, "current": "Ann", "players": [{"name": "Ann"}, {"name": "Bo"}],
    "pending": {"kind": "buy", "player": "Ann", "square": 3, "price": 60},
    "legal": [{"do": "buy", "by": "Ann"}, {"do": "decline", "by": "Ann"}],
}


def card_registry() -> TagRegistry:
    reg = TagRegistry()
    reg.register("A", TagRole(TagKind.BANK_CARD, number=1))
    return reg


def test_pump_carries_tap_commands_to_the_session_on_its_thread() -> None:
    session = FakeSession(BUY_STATE)
    pump = InputPump(session, InputController(card_registry()))
    pump.start()
    try:
        pump.emit(TagEvent("A"))
        assert session.done.wait(5)
    finally:
        pump.stop()
    assert session.calls == [("submit", {"do": "buy", "by": "Ann"}, Source("rfid", "Ann"))]


def test_pump_reports_refusals_and_passes_buttons_on_to_the_ui() -> None:
    session = FakeSession(BUY_STATE, refuse={"buy"})
    shown: list[object] = []
    pump = InputPump(session, InputController(card_registry()), ui=shown.append)
    pump.process(TagEvent("A"))
    pump.process(ButtonEvent(Button.YES))
    assert [c[0] for c in session.calls] == ["submit"]
    assert [s.code for s in shown if isinstance(s, Show)] == ["refused"]
    assert shown[-1] == PassOn("yes")


def test_pump_keypad_amount_runs_on_the_pump() -> None:
    state: JSON = {
        "version": 1,
        "players": [{"name": "Ann"}, {"name": "Bo"}],
        "legal": [],
    }
    reg = TagRegistry()
    reg.register("A", TagRole(TagKind.BANK_CARD, number=1))
    reg.register("B", TagRole(TagKind.BANK_CARD, number=2))
    session = FakeSession(state)
    pump = InputPump(session, InputController(reg))
    for item in [TagEvent("A"), TagEvent("B")]:
        pump.process(item)
    pump.enter_amount(30)
    pump.process(pump.events.get_nowait())
    assert session.calls[0][1] == {"do": "pay", "from": "Ann", "to": "Bo", "amount": 30}


def test_rfid_bench_measures_a_real_pty() -> None:
    result = run_bench(taps=50)
    assert set(result) == {"rfid.frame_to_command_ms_p99"}
    assert 0 < result["rfid.frame_to_command_ms_p99"] < 1000
