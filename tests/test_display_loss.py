"""The display going away while `companion run` draws on it (the X server killed, the screen
unplugged; issue 24, item 1): Xlib would end the whole process and the phones with it. Here
the same process carries on without a screen: the phone that was playing keeps its very
connections (its live stream goes on, no reconnect), the commands sent while the window
died are all kept, the log says once why, and when a display answers again on the same
number the companion starts again with its screen.

The real `companion run` in a window on Xvfb (tests/window_watch.py), a real HTTP phone
(tools/bench/probe.py); every wait is on a report, a line or the stream, never a sleep.
"""

from __future__ import annotations

import ctypes.util
import json
import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest
from window_watch import Window

from companion.game.api import Source
from companion.game.session import GameSession
from tools.bench.probe import HttpPhone
from tools.bench.proc import Xvfb, have_xvfb

pytestmark = pytest.mark.skipif(
    not have_xvfb() or ctypes.util.find_library("Xtst") is None,
    reason="needs Xvfb and libXtst")

WAIT_S = 60.0


#: what a phone answers first, of what the table offers its player: the shortest turn
PREFERRED = ("end_turn", "roll", "draw", "decline", "pass", "pay_fine", "bankrupt")


#: every command a phone sent and the table accepted (200), in order: (verb, player)
SENT: list[tuple[str, str]] = []


def play(phones: dict[str, HttpPhone], who: str, version: int) -> int:
    """`who`'s turn from its roll (the table's dice) to its end, each decision sent by the
    phone of the player it is for (an auction asks both), buying nothing; the new version."""
    any_phone = phones[who]
    state = any_phone.state()
    assert state["current"] == who and int(state["version"]) == version, \
        (state["current"], state["version"], version)
    while state["current"] == who:
        offers = {(c["do"], c["by"]): c for c in state["legal"]
                  if isinstance(c.get("by"), str)}
        choice = next((offers[k, name] for k in PREFERRED for name in phones
                       if (k, name) in offers), None)
        assert choice is not None, state["legal"]
        status, body = phones[choice["by"]].command(choice, int(state["version"]))
        assert status == 200, body
        SENT.append((choice["do"], choice["by"]))
        state = any_phone.state()
    return int(state["version"])


def stream_reaches(phone: HttpPhone, version: int) -> None:
    """The phone's open stream (the same connection) brings `version`."""
    assert phone.wait_version(version, WAIT_S), f"the stream never brought version {version}"


def test_the_table_goes_on_without_its_display_and_takes_it_back(tmp_path: Path) -> None:
    data = tmp_path / "data"
    SENT.clear()
    with GameSession.open(data) as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "seed": 11},
                              Source("script", banker=True)).accepted
    xvfb = Xvfb()
    number = xvfb.number
    again: Xvfb | None = None
    window = Window(xvfb, data)
    phones: list[HttpPhone] = []
    try:
        first = window.reports.until("the game", lambda r: r["players"] == ["Ann", "Bo"]
                                     and r["remote_url"])
        child = window.companion
        base = f"http://127.0.0.1:{child.port}"
        ann, bo = HttpPhone(base), HttpPhone(base)
        phones += [ann, bo]
        assert ann.join(first["remote_url"], "player:Ann") == 302
        bo_link = window.reports.until("the next join link",
                                       lambda r: r["remote_url"] != first["remote_url"])
        assert bo.join(bo_link["remote_url"], "player:Bo") == 302
        ann.open_stream()
        seats = {"Ann": ann, "Bo": bo}
        version = play(seats, "Ann", int(ann.state()["version"]))
        window.reports.until("Ann's turn on the screen", lambda r: r["version"] == version)
        stream_reaches(ann, version)

        # the display dies while Bo's phone plays his turn: every command answered is kept
        window.keyboard.close()  # the test's own X connection goes first
        window.keys = None
        played: dict[str, Any] = {}

        def bo_plays() -> None:
            try:
                played["version"] = play(seats, "Bo", version)
            except BaseException as exc:  # noqa: BLE001 - reported by the test below
                played["error"] = exc

        turn = threading.Thread(target=bo_plays)
        turn.start()
        xvfb.proc.send_signal(signal.SIGKILL)
        xvfb.close()
        said = child.next_line("Table Companion running without a screen", WAIT_S)
        assert "the display went away" in said, said
        turn.join(WAIT_S)
        assert "error" not in played, played.get("error")
        after_bo = played["version"]
        assert child.proc.poll() is None, "the process went on"

        # the same live stream of Ann's phone brings every move since, and she plays on
        stream_reaches(ann, after_bo)
        final = play(seats, "Ann", after_bo)
        stream_reaches(ann, final)
        state = bo.state()
        assert int(state["version"]) == final
        assert [p["name"] for p in state["players"]] == ["Ann", "Bo"]
        # every command answered went through the one writer into the journal, in order,
        # none lost, none twice
        status, _h, raw = bo.request("GET", "/api/history?limit=2000")
        assert status == 200
        journaled = [(e["command"]["do"], e["command"].get("by")) for e in json.loads(raw)
                     if e["kind"] == "command" and e["command"]["do"] != "new_game"]
        assert journaled == SENT

        # a display answers again on the same number: the companion starts again with its
        # screen and the game where it was (the phones' pages reconnect)
        again = Xvfb(number=number)
        child.next_line("The display is back", WAIT_S)
        back = window.reports.until("the screen again", lambda r: r["version"] == final
                                    and r["players"] == ["Ann", "Bo"])
        assert back["current"] == state["current"]
        # the phones keep their seats across the restart: the next turn from the same ones
        again_version = play(seats, str(state["current"]), final)
        window.reports.until("the next turn on the screen again",
                             lambda r: r["version"] == again_version)
        child.proc.send_signal(signal.SIGTERM)
        assert child.proc.wait(WAIT_S) == 0
        assert not any("Traceback" in line for line in child.errors), child.errors[-10:]
    finally:
        for phone in phones:
            phone.close()
        window.close()
        if again is not None:
            again.close()
        xvfb.close()


def test_a_table_whose_display_went_away_stops_cleanly(tmp_path: Path) -> None:
    """SIGTERM after the switch: the parts close and the process ends with 0 (SDL's own
    shutdown on the dead connection would hang or exit 1)."""
    xvfb = Xvfb()
    window = Window(xvfb, tmp_path / "data")
    try:
        window.reports.until("the setup form", lambda r: r["setup"] is not None)
        window.keyboard.close()
        window.keys = None
        xvfb.proc.send_signal(signal.SIGKILL)
        xvfb.close()
        child = window.companion
        child.next_line("Table Companion running without a screen", WAIT_S)
        assert child.first_answer_s() > 0  # the phones' server still answers
        child.proc.send_signal(signal.SIGTERM)
        assert child.proc.wait(WAIT_S) == 0
        assert not any("Traceback" in line for line in child.errors), child.errors[-10:]
    finally:
        window.close()
        xvfb.close()


def test_a_start_again_leaves_the_environment_as_the_user_gave_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What this process put into the environment for SDL goes before it starts itself
    again with the screen (the user's own settings stay)."""
    from companion.screen import app

    monkeypatch.delenv(app.FRAMEBUFFER_HINT, raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setenv("DISPLAY", ":9")
    assert app.prefer_plain_framebuffer()
    monkeypatch.setattr(app, "_driver_set_here", "kmsdrm")
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    app.drop_our_hints()
    assert app.FRAMEBUFFER_HINT not in os.environ and "SDL_VIDEODRIVER" not in os.environ
    monkeypatch.setenv(app.FRAMEBUFFER_HINT, "1")
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    app.drop_our_hints()
    assert os.environ[app.FRAMEBUFFER_HINT] == "1" and os.environ["SDL_VIDEODRIVER"] == "x11"
