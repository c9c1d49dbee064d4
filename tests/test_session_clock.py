"""The timed game's clock: kept by the session (the engine has none), shown in the state,
and the game ended and counted when the time is up, also after a restart."""

from __future__ import annotations

import threading
from pathlib import Path

from companion.game.api import Source, Update
from companion.game.session import GameSession

TABLE = Source("script", banker=True)


class FakeClock:
    """Wall-clock seconds that only move when the test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def timed_game(session: GameSession, minutes: int = 30) -> None:
    outcome = session.submit({"do": "new_game", "edition": "classic-eur",
                              "players": ["Ann", "Bo"], "seed": 3,
                              "options": {"variant": "timed", "time_limit_minutes": minutes}},
                             TABLE)
    assert outcome.accepted, outcome


def test_state_shows_the_time_left_of_a_timed_game(tmp_path: Path) -> None:
    clock = FakeClock()
    with GameSession.open(tmp_path, clock=clock) as session:
        timed_game(session, 30)
        assert session.state()["clock"] == {"limit_minutes": 30, "ends_at": clock.now + 1800,
                                            "seconds_left": 1800}
        clock.now += 600
        assert session.state()["clock"]["seconds_left"] == 1200


def test_untimed_games_have_no_clock(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as session:
        session.submit({"do": "new_game", "edition": "classic-eur", "players": ["A", "B"]}, TABLE)
        assert "clock" not in session.state()


def test_time_up_ends_the_game_and_counts(tmp_path: Path) -> None:
    clock = FakeClock()
    ended = threading.Event()

    def seen(update: Update) -> None:
        if any(e.get("kind") == "game_ended" for e in update.events):
            ended.set()

    with GameSession.open(tmp_path, clock=clock) as session:
        timed_game(session, 30)
        session.add_listener(seen)
        session.submit({"do": "roll", "dice": [1, 2]}, TABLE)
        assert not ended.is_set() and session.state()["winner"] is None
        clock.now += 30 * 60
        session.submit({"do": "buy"}, TABLE)  # any request wakes the writer
        assert ended.wait(10), "the game did not end when its time was up"
        state = session.state()
        assert state["winner"] is not None and state["standings"] and "clock" not in state
        entry = session.history(limit=1)[-1]
        assert entry["command"] == {"do": "end_game", "reason": "time"}
        assert entry["source"]["kind"] == "session"


def test_the_clock_survives_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    with GameSession.open(tmp_path, clock=clock) as session:
        timed_game(session, 20)
        started = clock.now
    clock.now = started + 5 * 60
    with GameSession.open(tmp_path, clock=clock) as session:
        assert session.state()["clock"]["seconds_left"] == 15 * 60
