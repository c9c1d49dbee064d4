"""`companion run` in a window stops when told to even if its X server ends at the same
moment (a `pkill` of the companion and its Xvfb together; a Pi's shutdown stopping the
display and the service together): the game is closed and the process ends, with 0 for
systemd. SDL's own shutdown at the interpreter's exit waited for an X event on the dead
connection forever, at 90 % CPU (pygame's exit handler in libX11's XIfEvent).

The real `companion run` in a window on Xvfb, its frames reported by tests/screen_watch.py
(tests/window_watch.py), a real HTTP phone (tools/bench/probe.py) making the moves; every
wait is on a report, a line, the systemd socket or the process, never a sleep.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from window_watch import TESTS, Reports

from companion.game.api import Source
from companion.game.session import GameSession
from tools.bench.probe import HttpPhone
from tools.bench.proc import CHECKOUT, Companion, Xvfb, child_env, have_xvfb

pytestmark = pytest.mark.skipif(not have_xvfb(), reason="needs Xvfb")

WAIT_S = 60.0
#: how long the stopped companion may take to end (it ends in well under a second; the
#: defect was a process that never ended)
EXIT_S = 20.0


class Run:
    """`companion run` in a window on its own Xvfb, its frame reports, a phone joined for
    Ann, and the systemd notification socket it reports to."""

    def __init__(self, tmp_path: Path) -> None:
        self.data = tmp_path / "data"
        with GameSession.open(self.data) as session:
            assert session.submit({"do": "new_game", "edition": "classic-eur",
                                   "players": ["Ann", "Bo"], "seed": 5},
                                  Source("script", banker=True)).accepted
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(tmp_path / "notify"))
        self.notify.settimeout(WAIT_S)
        self.xvfb = Xvfb()
        self.phone: HttpPhone | None = None
        read, write = os.pipe()
        self.read = read
        try:
            self.child = Companion(
                self.data, headless=False, extra_args=["--size", "800x480"],
                env={"DISPLAY": self.xvfb.display, "SDL_AUDIODRIVER": "dummy",
                     "NOTIFY_SOCKET": str(tmp_path / "notify"),
                     "PYTHONPATH": os.pathsep.join([str(CHECKOUT), str(TESTS)])},
                pass_fds=(write,), prefix=[sys.executable, "-m", "screen_watch", str(write)])
        except BaseException:
            os.close(read)
            self.xvfb.close()
            self.notify.close()
            raise
        finally:
            os.close(write)
        self.reports = Reports(read, self.child)

    def heard(self, what: str) -> str:
        """The next notification to systemd that starts with `what` (others skipped)."""
        while True:
            said = self.notify.recv(4096).decode()
            if said.startswith(what):
                return said

    def play_a_turn(self) -> int:
        """Ann's phone rolls and ends her turn (paying or declining what the board asks, buying
        nothing); the version the screen then shows."""
        first = self.reports.until("the game with its join link",
                                   lambda r: r["players"] == ["Ann", "Bo"] and r["remote_url"])
        self.heard("READY=1")  # the loop runs and its stop signals are in place
        phone = self.phone = HttpPhone(f"http://127.0.0.1:{self.child.port}")
        assert phone.join(first["remote_url"], "player:Ann") == 302
        state = phone.state()
        while state["current"] == "Ann":
            offers = {c["do"]: c for c in state["legal"] if c.get("by") == "Ann"}
            verb = next(v for v in ("end_turn", "roll", "decline", "pay_fine", "pay", "draw")
                        if v in offers)
            status, body = phone.command(offers[verb], int(state["version"]))
            assert status == 200, body
            state = phone.state()
        version = int(state["version"])
        self.reports.until("Ann's turn on the screen", lambda r: r["version"] == version)
        return version

    def ended(self) -> int:
        """The companion's exit code, once it ended within EXIT_S (a failure if not)."""
        try:
            return self.child.proc.wait(EXIT_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"companion run did not end within {EXIT_S:.0f} s of SIGTERM with its "
                        "X server gone: " + " | ".join(self.child.errors[-5:]))

    def close(self) -> None:
        """Kill what is left (a hung companion), the X server, the phone, the pipes."""
        if self.child.proc.poll() is None:
            self.child.proc.kill()
        self.child.stop()
        self.xvfb.close()
        if self.phone is not None:
            self.phone.close()
        os.close(self.read)
        self.notify.close()


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    started = Run(tmp_path)
    try:
        yield started
    finally:
        started.close()


@pytest.mark.parametrize("order", ["together", "display first", "sigterm first",
                                   "display stays"])
def test_a_stop_with_the_display_going_away_ends_the_process_with_its_game_closed(
        run: Run, order: str) -> None:
    version = run.play_a_turn()
    companion, display = run.child.proc, run.xvfb.proc
    if order == "together":
        companion.send_signal(signal.SIGTERM)
        display.send_signal(signal.SIGKILL)
    elif order == "display first":
        display.send_signal(signal.SIGKILL)
        companion.send_signal(signal.SIGTERM)
    elif order == "sigterm first":  # the display goes while the companion closes its parts
        companion.send_signal(signal.SIGTERM)
        run.heard("STOPPING=1")
        display.send_signal(signal.SIGKILL)
    else:  # the ordinary stop: SDL shut down on a display that answers
        companion.send_signal(signal.SIGTERM)
    assert run.ended() == 0, run.child.errors[-10:]
    assert not any("Traceback" in line or "XIO" in line for line in run.child.errors), \
        run.child.errors[-10:]
    # the game was closed, not left open: SQLite checkpointed and removed its WAL file on
    # the clean close, and the journal holds every move the phone was answered for
    journal = next((run.data / "games").glob("*.journal"))
    assert not Path(f"{journal}-wal").exists(), "the journal was not closed"
    with GameSession.open(run.data) as session:
        assert int(session.state()["version"]) == version
        moves = [entry for entry in session.history(limit=100) if entry["kind"] == "command"]
    assert [m["command"]["do"] for m in moves][0] == "new_game"
    assert any(m["command"]["do"] == "roll" for m in moves), moves


#: a window on DISPLAY, watched as the screen loop watches it; once the parent says the X
#: server is gone, optionally (argv[1] "flagged") read from it until Xlib has marked the
#: connection dead, then close_display, whose `leave` ends the process with 7
CLOSING = """
import os, sys
import pygame
from companion.screen.app import DisplaySpec, close_display, open_display
from companion.screen.wakeups import DisplayLoss
assert open_display(DisplaySpec((200, 100))) is not None
loss = DisplayLoss.watch(pygame.display.get_driver(), pygame.display.get_wm_info())
assert loss is not None
print("open", flush=True)
sys.stdin.readline()
if sys.argv[1] == "flagged":
    for _ in range(100_000):
        pygame.event.pump()
        if loss.lost.is_set():
            break
    else:
        os._exit(4)
print("closing", flush=True)
close_display(lambda: os._exit(7))
print("closed", flush=True)
os._exit(3)
"""


@pytest.mark.parametrize("xlib", ["flagged", "not yet"])
def test_closing_the_display_on_a_dead_x_server_leaves_instead(xlib: str) -> None:
    """close_display on a connection whose X server is gone calls `leave` (here: the exit
    code 7), whether Xlib marked it dead already ("flagged": then it calls no handler
    again, and SDL must not be asked at all) or finds it broken during SDL's shutdown."""
    xvfb = Xvfb()
    child = subprocess.Popen(
        [sys.executable, "-c", CLOSING, xlib], cwd=CHECKOUT, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=child_env({"DISPLAY": xvfb.display, "SDL_AUDIODRIVER": "dummy"}))
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline() == "open\n"
        xvfb.proc.send_signal(signal.SIGKILL)
        xvfb.proc.wait(WAIT_S)  # its connections closed by the kernel
        child.stdin.write("gone\n")
        child.stdin.flush()
        out, err = child.communicate(timeout=EXIT_S)
        assert child.returncode == 7, (child.returncode, out, err)
        assert out == "closing\n", out
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
        xvfb.close()
