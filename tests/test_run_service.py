"""`companion run` starts and stops like a service (issues: faults, the Pi): a busy port is
an error naming it, SIGTERM / SIGINT are honoured at any moment of the start, systemd hears
READY=1 and is fed WATCHDOG=1 while the writer works, and a damaged or locked journal is one
clear line."""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from tools.bench.proc import free_port

ENV = {**os.environ, "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "dummy"}




def run(tmp_path: Path, *extra: str, env: dict[str, str] | None = None,
        port: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--headless", "--port",
         str(port or free_port()), "--data-dir", str(tmp_path / "data"), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**ENV, "COMPANION_CONFIG": str(tmp_path / "none"), **(env or {})})


@pytest.fixture
def reaped() -> Iterator[list[subprocess.Popen[str]]]:
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=20)  # reaps it and closes its pipes


def test_a_busy_port_is_an_error_that_names_it(
        tmp_path: Path, reaped: list[subprocess.Popen[str]]) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = run(tmp_path, port=port)
        reaped.append(proc)
        _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert f"port {port}" in err and "--port" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("seed", range(8))
def test_sigterm_at_a_random_moment_of_the_start_is_honoured(
        tmp_path: Path, seed: int, reaped: list[subprocess.Popen[str]]) -> None:
    proc = run(tmp_path)
    reaped.append(proc)
    stopped = threading.Event()
    # a random moment within the first second and a half of the start (or after it)
    delay = random.Random(seed).uniform(0.0, 2.0)
    stopped.wait(delay)  # not a sleep in a loop: one bounded pause to pick the moment
    proc.send_signal(random.Random(seed).choice([signal.SIGTERM, signal.SIGINT]))
    _out, err = proc.communicate(timeout=20)  # honoured: no waiting for a time-out
    # -SIG: the signal came while Python itself was still starting (a loaded machine),
    # before any handler or any part was there: ended by it, with nothing to close
    assert proc.returncode in (0, 128 + signal.SIGTERM, 128 + signal.SIGINT,
                               -signal.SIGTERM, -signal.SIGINT), err
    assert "Traceback" not in err


def test_systemd_hears_ready_and_the_watchdog_is_fed(
        tmp_path: Path, reaped: list[subprocess.Popen[str]]) -> None:
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as manager:
        manager.bind(address)
        manager.settimeout(30)
        proc = run(tmp_path, env={"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "300000"})
        reaped.append(proc)
        heard: list[str] = []
        while not any("WATCHDOG=1" in h for h in heard):
            heard.append(manager.recv(4096).decode())
        proc.send_signal(signal.SIGTERM)
        while not any("STOPPING=1" in h for h in heard):
            heard.append(manager.recv(4096).decode())
    assert heard[0].startswith("READY=1")
    proc.communicate(timeout=20)
    assert proc.returncode == 0


def test_a_frozen_writer_is_not_healthy(tmp_path: Path) -> None:
    release = threading.Event()
    inside = threading.Event()
    with GameSession.open(tmp_path) as session:
        banker = Source("script", banker=True)
        session.submit({"do": "new_game", "edition": "classic-eur", "players": ["A", "B"]},
                       banker)
        assert session.healthy()

        def freeze(_entry: object) -> None:
            inside.set()
            release.wait(30)

        session._journal.before_commit = freeze
        worker = threading.Thread(target=session.submit, args=({"do": "roll"}, banker))
        worker.start()
        assert inside.wait(10)
        assert not session.healthy(stuck_after=0.0)  # the watchdog would go hungry
        release.set()
        worker.join(10)
        assert session.healthy()


def test_a_writer_stuck_in_a_listener_is_not_healthy(tmp_path: Path) -> None:
    """Listeners (the screen's, the remote's) run on the writer thread after the commit: one
    that never returns holds every later move, so the watchdog must go hungry then too."""
    release = threading.Event()
    inside = threading.Event()
    with GameSession.open(tmp_path) as session:
        banker = Source("script", banker=True)

        def stuck(_update: object) -> None:
            inside.set()
            release.wait(30)

        session.add_listener(stuck)
        outcome = session.submit({"do": "new_game", "edition": "classic-eur",
                                  "players": ["A", "B"]}, banker)
        assert outcome.accepted  # acknowledged before the listeners run
        assert inside.wait(10)
        assert not session.healthy(stuck_after=0.0)
        release.set()
        assert session.submit({"do": "roll"}, banker).accepted  # the writer is back
        assert session.healthy()


@pytest.mark.parametrize("damage", ["corrupt", "locked"])
def test_a_damaged_or_locked_journal_is_one_clear_line_and_left_as_it_was(
        tmp_path: Path, damage: str, reaped: list[subprocess.Popen[str]]) -> None:
    data = tmp_path / "data"
    with GameSession.open(data) as session:
        session.submit({"do": "new_game", "edition": "classic-eur", "players": ["A", "B"]},
                       Source("script", banker=True))
    journal = next((data / "games").glob("*.journal"))
    holder = None
    if damage == "corrupt":
        raw = bytearray(journal.read_bytes())
        raw[100:140] = b"\xff" * 40  # the file header's page sizes and counters
        journal.write_bytes(bytes(raw))
    else:
        holder = GameSession.open(data)
    before = {p.name: p.read_bytes() for p in journal.parent.iterdir()}
    try:
        proc = run(tmp_path)
        reaped.append(proc)
        _out, err = proc.communicate(timeout=60)
    finally:
        if holder is not None:
            holder.close()
    assert proc.returncode == 2
    lines = [line for line in err.splitlines() if line.startswith("companion run:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    if damage == "corrupt":
        after = {p.name: p.read_bytes() for p in journal.parent.iterdir()}
        assert after[journal.name] == before[journal.name]
    shutil.rmtree(data)
