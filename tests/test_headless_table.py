"""`companion run --headless` (companion.screen.headless): the table's sounds and clocks
without the screen's drawing modules, so that a headless companion never loads pygame/SDL."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from companion.screen.headless import HeadlessTable
from companion.screen.views import settings as screen_settings
from tools.bench.proc import free_port

TABLE = Source("script", banker=True)


class Sounds:
    """A SoundPlayer stand-in that remembers what it was asked to play."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, name: str) -> bool:
        self.played.append(name)
        return True

    def play_events(self, events: Any) -> list[str]:
        from companion.screen.audio import sounds_for

        names = sounds_for(events)
        self.played.extend(names)
        return names


def caught_up(table: HeadlessTable, game: GameSession) -> None:
    """Drain `table` once the session's listener thread has handed it the latest update
    (listeners are told off the writer's thread)."""
    want = game.state()["version"]
    while table.state.get("version") != want:
        table.apply_update(table.updates.get(timeout=10))
    table.drain()


@pytest.fixture
def game(tmp_path: Path) -> Iterator[GameSession]:
    session = GameSession.open(tmp_path / "game")
    assert session.submit({"do": "new_game", "edition": "classic-eur",
                           "players": ["Ann", "Bo", "Cy"], "seed": 3}, TABLE).accepted
    yield session
    session.close()


def test_a_headless_table_keeps_no_clock_of_its_own(game: GameSession,
                                                    tmp_path: Path) -> None:
    """The gavel and the timed game's end are the session writer's (tests/test_table_clocks.py):
    the headless table only rings the gavel's sound when the session's update comes."""
    data = tmp_path / "data"
    data.mkdir()
    screen_settings.save(data, screen_settings.ScreenSettings(clock_end=time.time() + 60))
    sounds = Sounds()
    table = HeadlessTable(game, sound=sounds, data_dir=data)  # type: ignore[arg-type]
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "decline"},
                    {"do": "bid", "by": "Bo", "amount": 20}):
        assert game.submit(command, TABLE).accepted
    caught_up(table, game)
    assert table.next_wake() is None and "dice" in sounds.played
    version = game.version
    table.drain()
    assert game.version == version
    assert game.submit({"do": "close_auction"}, Source("session")).accepted  # the writer's
    caught_up(table, game)
    assert sounds.played[-1] == "gavel"
    table.close()


def test_a_headless_companion_loads_no_pygame_and_no_sdl(tmp_path: Path) -> None:
    """Read from outside, in /proc/PID/maps: no pygame extension and no SDL library is
    mapped into a running headless companion (they cost about 10 MB of its memory), on a
    game in progress (the resumed path) and once a phone's command has come in."""
    with GameSession.open(tmp_path / "data") as session:
        session.submit({"do": "new_game", "edition": "classic-eur",
                        "players": ["Ann", "Bo"], "seed": 1}, TABLE)
        session.submit({"do": "roll", "dice": [1, 2]}, TABLE)
    env = {**os.environ, "COMPANION_CONFIG": str(tmp_path / "none")}
    log = tmp_path / "stderr.log"
    for _attempt in range(3):  # a port found free may be taken again before the run binds it
        port = free_port()
        with log.open("w") as errors:  # the child keeps its own copy of the descriptor
            proc = subprocess.Popen(
                [sys.executable, "-m", "companion", "run", "--headless", "--port", str(port),
                 "--data-dir", str(tmp_path / "data")],
                stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once everything is up
        if line or proc.wait(timeout=20) != 2:  # 2: the port was busy (said on stderr)
            break
        proc.stdout.close()
    with proc:
        try:
            assert proc.stdout is not None
            assert "without a screen" in line, (line, log.read_text())
            maps = Path(f"/proc/{proc.pid}/maps").read_text()
            assert "/site-packages/" in maps  # the reading sees extension modules at all
            mapped = {m.rsplit("/", 1)[-1] for m in maps.split() if "/" in m}
            assert not [m for m in mapped if "pygame" in m or "SDL" in m], sorted(mapped)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
