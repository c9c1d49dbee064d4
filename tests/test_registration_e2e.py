"""End to end, as `companion run` wires it: a real GameSession, the readers' pump with the
simulated reader, taps sent through its socket (`companion tap`). Registering two deeds in
board order registers them and plays nothing; afterwards the same deed, tapped after a bank
card in bank-only play, lands the player there."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.app.tap_cmd import send_tap
from companion.app.wiring import Readers
from companion.game.api import Source, Update
from companion.game.session import GameSession
from companion.inputs.registry import TagKind, TagRegistry, TagRole

ANN_CARD = "0A1B2C3D4E"
BELLEVILLE, LECOURBE = "1111111111", "3333333333"
WAIT_S = 10


class Waiter:
    """Wakes a test when `check()` becomes true after a change (no sleeping)."""

    def __init__(self, check: Callable[[], bool]) -> None:
        self.check = check
        self.done = threading.Event()

    def changed(self, *_args: Any) -> None:
        if self.check():
            self.done.set()

    def wait(self) -> bool:
        self.changed()
        return self.done.wait(WAIT_S)


def test_register_two_deeds_then_tap_one_in_bank_only_play(tmp_path: Path) -> None:
    (tmp_path / "tags.json").write_text(json.dumps(
        {"version": 1, "tags": {ANN_CARD: {"kind": "bank_card", "number": 1}}}))
    messages: list[tuple[str, str]] = []
    with GameSession.open(tmp_path) as session:
        session.submit({"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                        "seed": 1, "options": {"bank_only": True}},
                       Source("script", banker=True))
        version = session.state()["version"]
        readers = Readers(session, tmp_path, ["fake"], lambda m, k: messages.append((m, k)))
        registrar = readers.registrar
        try:
            status = registrar.start("deeds")
            assert (status["position"], status["step"]["square"]) == (
                1, "boulevard-de-belleville")
            for tag, position in [(BELLEVILLE, 2), (LECOURBE, 3)]:
                waiter = Waiter(lambda p=position: registrar.status().get("position") == p)
                remove = registrar.add_listener(waiter.changed)
                assert send_tap(tmp_path, tag) == "ok"
                assert waiter.wait(), f"tap {tag} not registered; screen: {messages}"
                remove()
            registrar.cancel()
            assert session.state()["version"] == version, "a registration tap played"
            saved = TagRegistry.in_data_dir(tmp_path)  # what the next start-up will read
            assert saved.lookup(BELLEVILLE) == TagRole(TagKind.DEED,
                                                       square="boulevard-de-belleville")
            assert saved.lookup(LECOURBE) == TagRole(TagKind.DEED, square="rue-lecourbe")

            landed = Waiter(lambda: session.state()["version"] > version)
            session.add_listener(lambda _u: landed.changed())
            assert send_tap(tmp_path, ANN_CARD) == "ok"
            assert send_tap(tmp_path, LECOURBE) == "ok"
            assert landed.wait(), f"the deed tap played nothing; screen: {messages}"
        finally:
            readers.close()
        entry = session.history(limit=1)[-1]
        assert entry["command"] == {"do": "land", "by": "Ann", "square": 3}, entry
        assert (entry["source"]["kind"], entry["source"]["player"]) == ("rfid", "Ann")
        assert session.state()["pending"]["kind"] == "buy"


def test_an_unknown_tag_says_so_on_the_screen(tmp_path: Path) -> None:
    shown = threading.Event()
    messages: list[tuple[str, str]] = []

    def message(text: str, kind: str) -> None:
        messages.append((text, kind))
        if "0FEDCBA987" in text:
            shown.set()

    with GameSession.open(tmp_path) as session:
        readers = Readers(session, tmp_path, ["fake"], message)
        try:
            assert send_tap(tmp_path, "0FEDCBA987") == "ok"
            assert shown.wait(WAIT_S), messages
        finally:
            readers.close()
    assert any("Unknown card" in text for text, _kind in messages)


def test_registration_listener_sees_updates_from_any_thread(tmp_path: Path) -> None:
    """Sanity of the hook the screen and phones rely on: every change is announced."""
    with GameSession.open(tmp_path) as session:
        readers = Readers(session, tmp_path, [], lambda m, k: None)
        seen: list[Update | None] = []
        remove = readers.registrar.add_listener(lambda: seen.append(None))
        try:
            readers.registrar.start("banker")
            worker = threading.Thread(target=readers.registrar.tap, args=("ABCDEF0123",))
            worker.start()
            worker.join(WAIT_S)
        finally:
            remove()
            readers.close()
        assert len(seen) == 2
        assert readers.registry.lookup("ABCDEF0123") == TagRole(TagKind.BANKER)
