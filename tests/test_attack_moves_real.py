"""Issue 26's self-pay, teleport and take-back attacks played through the real `companion run`
and real sockets, as the current player's own phone would (tests/test_moves_kept.py plays
the same through the session and the Flask test client): where the device rolls and moves
the tokens, a phone's PASS GO and `land` are refused however often they are sent, and a
device roll that paid rent is not the roller's to take back."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from tools.bench.probe import HttpPhone
from tools.bench.proc import free_port

ENV = {**os.environ, "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "dummy"}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[int, str]]:
    """A headless companion with a saved game (the device rolls); its port and join link."""
    data = tmp_path / "data"
    with GameSession.open(data) as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "seed": 3},
                              Source("script", banker=True)).accepted
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--headless", "--port", str(port),
         "--data-dir", str(data)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, env={**ENV, "COMPANION_CONFIG": str(tmp_path / "none")})
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put("")

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        while True:
            line = lines.get(timeout=60)
            assert line, "the companion ended before serving the phones"
            if "Phones join at:" in line:
                break
        yield port, line.rsplit(" ", 1)[1].strip()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        reader.join(timeout=20)
        assert proc.stdout is not None
        proc.stdout.close()
    output = []
    while (rest := lines.get(timeout=5)):
        output.append(rest)
    assert "Traceback" not in "".join(output)


def cash(state: Any) -> dict[str, int]:
    return {p["name"]: int(p["cash"]) for p in state["players"]}


def test_a_phone_cannot_pay_itself_teleport_or_take_back_a_seen_roll(
        table: tuple[int, str]) -> None:
    port, link = table
    ann = HttpPhone(f"http://127.0.0.1:{port}")
    try:
        assert ann.join(link, "player:Ann") == 302
        state = ann.state()
        before, version = cash(state), int(state["version"])
        for attempt in range(40):  # was 258 salaries in 10 s (the rate limit allows 60 at once)
            status, body = ann.command({"do": "pass_go", "by": "Ann"}, version)
            assert status in (403, 409, 422) and body["code"] == "device_moves", \
                (attempt, status, body)
        status, body = ann.command({"do": "land", "by": "Ann", "square": 39, "via_go": True},
                                   version)
        assert status in (403, 409, 422) and body["code"] == "device_moves", body
        status, body = ann.command({"do": "roll", "by": "Ann", "dice": [6, 6]}, version)
        assert status in (403, 409, 422) and body["code"] == "device_dice", body
        after = ann.state()
        assert cash(after) == before and int(after["version"]) == version  # nothing moved
        status, body = ann.command({"do": "roll", "by": "Ann"}, version)
        assert status == 200, body
        rolled = ann.state()
        status, body = ann.post_json("/api/undo", {"version": int(rolled["version"])})
        assert status in (403, 409, 422) and body["code"] == "result_kept", body
        assert ann.state()["version"] == rolled["version"]  # the roll stands
    finally:
        ann.close()
