"""The real window under Xvfb, keys sent through XTEST in bursts as fast as the X server
takes them: a table set up on the screen (names and the banker PIN typed at any speed, the
speed die switched on), dealt, three rolls of typed dice (a wrong die taken back with N),
then the banker menu from the keyboard (M held, Shift+M) and "End now and count".

The companion is the real `companion run` in a window (tests/screen_watch.py reports what
each drawn frame shows); the test waits on those reports with deadlines, never sleeps.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import select
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tools.bench.proc import CHECKOUT, Companion, Xvfb, have_xvfb

pytestmark = pytest.mark.skipif(
    not have_xvfb() or ctypes.util.find_library("Xtst") is None,
    reason="needs Xvfb and libXtst")

TESTS = Path(__file__).resolve().parent
PIN = "1357"
WAIT_S = 60.0
#: the X server's gap between two key events of a burst: a key pressed and released every
#: 6 ms, over 150 keys a second, far beyond any typist. SDL takes a key pressed again less
#: than 2 ms after its release for the keyboard's auto-repeat (X11_KeyRepeat), and pygame
#: drops repeats: with no gap the X server stamps the whole burst with one time and every
#: key typed twice in a row (Down, Down) would count once; no hand types that fast
GAP_MS = 3
Report = dict[str, Any]


class Reports:
    """The frame reports of tests/screen_watch.py, read from a pipe against deadlines."""

    def __init__(self, fd: int, child: Companion) -> None:
        self.fd, self.child = fd, child
        self.buffer = b""
        self.last: Report = {}

    def until(self, what: str, ok: Callable[[Report], bool], timeout: float = WAIT_S) -> Report:
        """The first report (from the next one on, or the last one read) for which `ok`
        holds; fails, saying `what` and the last report, when none comes in `timeout`."""
        if self.last and ok(self.last):
            return self.last
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                    pytest.fail(f"the screen never showed {what}; last frame: "
                                f"{json.dumps(self.last, ensure_ascii=False)}; "
                                f"log: {' | '.join(self.child.errors[-5:])}")
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    pytest.fail(f"companion run ended before {what}: "
                                + " | ".join(self.child.errors[-5:]))
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            self.last = json.loads(line)
            if ok(self.last):
                return self.last


class Keyboard:
    """Key presses into the X display through XTEST (libX11 and libXtst by ctypes)."""

    def __init__(self, display: str) -> None:
        x = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        t = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XStringToKeysym.restype = ctypes.c_ulong
        x.XStringToKeysym.argtypes = [ctypes.c_char_p]
        x.XKeysymToKeycode.restype = ctypes.c_ubyte
        x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x.XFlush.argtypes = [ctypes.c_void_p]
        x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        t.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                        ctypes.c_ulong]
        t.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                           ctypes.c_int, ctypes.c_ulong]
        self.x, self.t = x, t
        self.dpy = x.XOpenDisplay(display.encode())
        if not self.dpy:
            raise RuntimeError(f"cannot open X display {display}")
        self.sent = 0  # key presses sent (each one key down the screen should take)

    def point(self, px: int, py: int) -> None:
        """The pointer over the window (with no window manager the keyboard follows it)."""
        self.t.XTestFakeMotionEvent(self.dpy, -1, px, py, 0)
        self.x.XSync(self.dpy, 0)

    def _code(self, keysym: str) -> int:
        code = int(self.x.XKeysymToKeycode(self.dpy, self.x.XStringToKeysym(keysym.encode())))
        assert code, keysym
        return code

    def down(self, keysym: str) -> None:
        self.t.XTestFakeKeyEvent(self.dpy, self._code(keysym), 1, 0)
        self.x.XFlush(self.dpy)

    def up(self, keysym: str) -> None:
        self.t.XTestFakeKeyEvent(self.dpy, self._code(keysym), 0, 0)
        self.x.XFlush(self.dpy)

    def burst(self, keys: list[str], gap_ms: int = GAP_MS) -> None:
        """Press and release every key in order (a capital letter with Shift), all sent at
        once in one XFlush; the X server plays them `gap_ms` apart."""
        shift = self._code("Shift_L")
        for key in keys:
            upper = len(key) == 1 and key.isupper()
            code = self._code(key.lower() if upper else key)
            events = [(shift, 1), (code, 1), (code, 0), (shift, 0)] if upper else \
                [(code, 1), (code, 0)]
            for keycode, down in events:
                self.t.XTestFakeKeyEvent(self.dpy, keycode, down, gap_ms)
            self.sent += 2 if upper else 1
        self.x.XFlush(self.dpy)

    def close(self) -> None:
        if self.dpy:
            self.x.XCloseDisplay(self.dpy)
            self.dpy = None


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Reports, Keyboard, Companion]]:
    """`companion run` in an 800x480 window on a fresh Xvfb, a fresh data directory."""
    xvfb = Xvfb()
    read, write = os.pipe()
    child: Companion | None = None
    keys: Keyboard | None = None
    try:
        try:
            child = Companion(
                tmp_path / "data", headless=False, extra_args=["--size", "800x480"],
                env={"DISPLAY": xvfb.display, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                     "PYTHONPATH": os.pathsep.join([str(CHECKOUT), str(TESTS)])},
                pass_fds=(write,), prefix=[sys.executable, "-m", "screen_watch", str(write)])
        finally:
            os.close(write)
        keys = Keyboard(xvfb.display)
        reports = Reports(read, child)
        reports.until("the setup form", lambda r: r["setup"] is not None)
        keys.point(400, 240)
        yield reports, keys, child
    finally:
        if keys is not None:
            keys.close()
        if child is not None:
            child.stop()
        os.close(read)
        xvfb.close()


def moves(lines: list[str], start: str, to: str) -> list[str]:
    """Down presses from line `start` to line `to` of the setup form."""
    return ["Down"] * (lines.index(to) - lines.index(start))


def typed(word: str) -> list[str]:
    return list(word)


def test_bursts_of_keys_set_up_deal_roll_and_end_the_game(
        table: tuple[Reports, Keyboard, Companion]) -> None:
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
    assert over["keys"] == keys.sent + 1, "every key, and M held (one key down)"
    assert not any("Traceback" in line for line in child.errors), child.errors[-10:]
