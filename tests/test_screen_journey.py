"""The real window under Xvfb, keys sent through XTEST in bursts as fast as the X server
takes them: a table set up on the screen (names and the banker PIN typed at any speed, the
speed die switched on), dealt, three rolls of typed dice (a wrong die taken back with N),
then the banker menu from the keyboard (M held, Shift+M) and "End now and count".

The companion is the real `companion run` in a window (tests/screen_watch.py reports what
each drawn frame shows); the test waits on those reports with deadlines, never sleeps.
"""

from __future__ import annotations

import ctypes.util
from collections.abc import Iterator
from pathlib import Path

import pytest
from window_watch import Reports, Window

from tools.bench.proc import Companion, Xvfb, have_xvfb
from tools.bench.xkeys import XKeys

pytestmark = pytest.mark.skipif(
    not have_xvfb() or ctypes.util.find_library("Xtst") is None,
    reason="needs Xvfb and libXtst")

PIN = "1357"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Reports, XKeys, Companion]]:
    """`companion run` in an 800x480 window on a fresh Xvfb, a fresh data directory."""
    xvfb = Xvfb()
    try:
        with Window(xvfb, tmp_path / "data") as window:
            window.reports.until("the setup form", lambda r: r["setup"] is not None)
            yield window.reports, window.keyboard, window.companion
    finally:
        xvfb.close()


def moves(lines: list[str], start: str, to: str) -> list[str]:
    """Down presses from line `start` to line `to` of the setup form."""
    return ["Down"] * (lines.index(to) - lines.index(start))


def typed(word: str) -> list[str]:
    return list(word)


def test_bursts_of_keys_set_up_deal_roll_and_end_the_game(
        table: tuple[Reports, XKeys, Companion]) -> None:
    reports, keys, child = table
    form = reports.last["setup"]
    lines = form["lines"]
    assert form["focus"] == lines[0]
    # one burst: two names (one with a capital after Tab), the speed die and the table's
    # own dice on, the banker PIN, deal; then three turns of typed dice, a wrong one
    # cleared with N
    burst = (moves(lines, lines[0], "player:0") + typed("Wilhelmina") + ["Tab"] + typed("Bea")
             + moves(lines, "player:1", "rule:speed_die") + ["Right"]
             # the table rolls its own dice: typed dice are taken only then (issue 26)
             + moves(lines, "rule:speed_die", "rule:physical_dice") + ["Right"]
             + moves(lines, "rule:physical_dice", "pin") + typed(PIN) + ["Down", "Return"]
             + ["3", "4", "3", "r"]  # Wilhelmina: 3 + 4 + speed 3 = just visiting; end turn
             + ["6", "n", "4", "3", "3", "r"]  # Bea: 6 typed wrong, N clears it
             + ["5", "6", "3"])  # Wilhelmina again: the 5, 6, 3
    keys.burst(burst)
    last = reports.until("the third roll", lambda r: r["dice"] == [5, 6, 3]
                         and r["current"] == "Wilhelmina")
    assert last["players"] == ["Wilhelmina", "Bea"], "every letter of both names"
    assert last["speed_die"], "the speed die line was switched on"
    assert last["keys"] == keys.sent, "every key down of the burst was taken"
    assert last["batch"] >= 2, "keys reached the loop several in one batch"
    assert last["dice_entry"] == [] and last["speed_entry"] is None

    # M held: the banker PIN (the one typed on the form) once held for the hold time
    keys.down("m")
    asked = reports.until("the banker PIN after M held", lambda r: r["pin"] is not None)
    keys.up("m")
    assert asked["pin"] == ""
    keys.burst(["Escape"])
    reports.until("the PIN question closed", lambda r: r["pin"] is None)

    # Shift+M, the PIN typed fast, Enter: the banker menu; End now and count, confirmed
    keys.burst(["M"] + typed(PIN) + ["Return"])
    menu = reports.until("the banker menu", lambda r: r["chooser"] is not None
                         and "end_now" in r["chooser"]["actions"])
    assert menu["pin"] is None, "the PIN typed at burst speed was right"
    down = menu["chooser"]["actions"].index("end_now") - menu["chooser"]["focus"]
    keys.burst(["Down"] * down + ["Return", "Return"])
    over = reports.until("the game over", lambda r: r["winner"] is not None)
    assert over["keys"] == keys.sent, "every key, M held too (one key down)"
    assert not any("Traceback" in line for line in child.errors), child.errors[-10:]
