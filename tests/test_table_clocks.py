"""The table's clocks are the session writer's (issue 25): the auction's gavel falls and a
timed game ends when their time comes, with no screen, no headless table, no phone
attached; a refused ring is not rung again until the table moves on."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.game.api import Source, Update
from companion.game.session import GameSession

BANKER = Source("script", banker=True)


class Clock:
    """Wall-clock seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def auction(session: GameSession) -> None:
    """Ann declines Rue Lecourbe; Bo bids 20: the clock runs for him."""
    for command in ({"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo", "Cy"],
                     "seed": 3}, {"do": "roll", "dice": [1, 2]}, {"do": "decline"},
                    {"do": "bid", "by": "Bo", "amount": 20}):
        assert session.submit(command, BANKER).accepted, command


def closed_when(session: GameSession) -> threading.Event:
    closed = threading.Event()

    def seen(update: Update) -> None:
        if any(e.get("kind") == "auction_won" or e.get("kind") == "bought"
               for e in update.events) or update.state.get("pending") is None:
            closed.set()

    session.add_listener(seen)
    return closed


def test_the_gavel_falls_with_no_face_attached(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as session:
        session.auction_seconds = 0.3  # a short clock on the real one: waited on, not slept
        auction(session)
        closed = closed_when(session)
        assert closed.wait(10), "the writer did not close the auction"
        entry = session.history(None, 1)[-1]
        assert entry["command"] == {"do": "close_auction"}
        assert entry["source"] == {"kind": "session", "player": None, "banker": False}
        owner = {s["index"]: s["owner"] for s in session.state()["squares"]}
        assert owner[3] == "Bo" and "auction_clock" not in session.state()


def test_a_new_highest_bid_starts_the_clock_again(tmp_path: Path) -> None:
    clock = Clock()
    with GameSession.open(tmp_path, clock=clock) as session:
        auction(session)
        closed = closed_when(session)
        clock.now += 20
        assert session.submit({"do": "bid", "by": "Cy", "amount": 30}, BANKER).accepted
        clock.now += 20  # 40 s after Bo's bid, 20 s after Cy's: still open
        session.set_teaching(False, BANKER)  # any request wakes the writer
        assert not closed.is_set() and session.state()["pending"]["kind"] == "auction"
        assert session.state()["auction_clock"]["seconds_left"] == 10
        clock.now += 10
        session.set_teaching(False, BANKER)
        assert closed.wait(10)
        assert {s["index"]: s["owner"] for s in session.state()["squares"]}[3] == "Cy"


def test_an_auction_nobody_bid_in_waits_for_its_bidders(tmp_path: Path) -> None:
    clock = Clock()
    with GameSession.open(tmp_path, clock=clock) as session:
        for command in ({"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                         "seed": 3}, {"do": "roll", "dice": [1, 2]}, {"do": "decline"}):
            assert session.submit(command, BANKER).accepted
        clock.now += 600
        version = session.version
        session.set_teaching(False, BANKER)
        session.set_teaching(False, BANKER)  # the second is answered after any ring
        assert session.version == version and session.state()["pending"]["kind"] == "auction"


def test_a_refused_ring_is_not_rung_again_until_the_table_moves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.game import session as session_module

    clock = Clock()
    tried: list[str] = []
    real = session_module.authority.check

    def counted(source: Source, command: dict[str, object], *args: object) -> object:
        if command.get("do") == "close_auction":
            tried.append(source.kind)
            return session_module.authority.Refused("banker_only", "no", {})
        return real(source, command, *args)  # type: ignore[arg-type]

    with GameSession.open(tmp_path, clock=clock) as session:
        auction(session)
        monkeypatch.setattr(session_module.authority, "check", counted)
        clock.now += 31
        for _ in range(5):
            session.set_teaching(False, BANKER)
        assert tried == ["session"], tried  # once, not a busy loop
        monkeypatch.setattr(session_module.authority, "check", real)
        assert session.submit({"do": "bid", "by": "Cy", "amount": 30}, BANKER).accepted
        clock.now += 31
        closed = closed_when(session)
        session.set_teaching(False, BANKER)
        assert closed.wait(10)


@pytest.fixture
def timed(tmp_path: Path) -> Iterator[tuple[GameSession, Clock]]:
    clock = Clock()
    with GameSession.open(tmp_path, clock=clock) as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "options": {"variant": "timed",
                               "time_limit_minutes": 30}}, BANKER).accepted
        yield session, clock


def test_a_timed_game_ends_from_the_writer(timed: tuple[GameSession, Clock]) -> None:
    session, clock = timed
    ended = threading.Event()
    session.add_listener(lambda u: ended.set() if any(
        e.get("kind") == "game_ended" for e in u.events) else None)
    clock.now += 30 * 60
    session.set_teaching(False, BANKER)
    assert ended.wait(10)
    assert session.history(None, 1)[-1]["command"] == {"do": "end_game", "reason": "time"}


@pytest.mark.usefixtures("screen_in_english")
def test_the_screen_counts_down_the_sessions_clock(tmp_path: Path) -> None:
    """One clock: the screen's countdown is the session's end of the game, not a second end
    of its own kept in the screen's settings."""
    import time

    from companion.screen.controller import Controller

    with GameSession.open(tmp_path) as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "options": {"variant": "timed",
                               "time_limit_minutes": 30}}, BANKER).accepted
        screen = Controller(session, language="en", clock=lambda: 500.0)
        left = session.state()["clock"]["ends_at"] - time.time()
        assert 29 * 60 < left <= 30 * 60
        assert screen.ui.clock_deadline is not None
        assert abs(screen.ui.clock_deadline - (500.0 + left)) < 5
        screen.close()


def test_a_phone_reads_the_auction_clock_as_it_stands_not_as_the_view_was_built(
        tmp_path: Path) -> None:
    """The typed view is built once per version, but a phone asking later is told the
    seconds left at its request, on the session's clock: no frozen countdown."""
    from web_fakes import Phone

    from web_remote import create_app

    clock = Clock()
    with GameSession.open(tmp_path / "game", clock=clock) as session:
        auction(session)
        built = session.table().auction_clock  # the version's view, read now
        assert built is not None and built.seconds_left == 30
        app = create_app(session, tmp_path, {"banker_pin": "2468"})
        try:
            ann = Phone(app)
            assert ann.join("player:Ann").status_code == 302
            clock.now += 12
            seen = ann.client.get("/api/table").get_json()
            assert seen["version"] == session.version  # the same version, the same view
            assert session.table().auction_clock == built  # frozen at 30 in the view
            assert seen["auction_clock"]["seconds_left"] == 18
            assert seen["auction_clock"]["ends_at"] == built.ends_at
            clock.now += 40
            assert ann.client.get("/api/table").get_json()["auction_clock"][
                "seconds_left"] == 0
        finally:
            app.extensions["web_remote"].close()


def test_one_view_tells_the_auction_clock_as_it_stands(tmp_path: Path) -> None:
    """The view is built once per version; the seconds a page draws are told at its own
    time (TableView.auction_left), so a countdown read from one view does not freeze."""
    clock = Clock()
    with GameSession.open(tmp_path, clock=clock) as session:
        auction(session)
        view = session.table()
        assert view.auction_left(session.now()) == 30
        clock.now += 12.5
        assert session.table() is view  # the same version: the same view
        assert view.auction_left(session.now()) == 18
        assert session.state()["auction_clock"]["seconds_left"] == 18  # what the state says
        clock.now += 60
        assert view.auction_left(session.now()) == 0


def test_switching_teaching_shows_in_the_view_of_the_same_version(tmp_path: Path) -> None:
    """Switching the teaching table is no move (the version stays), yet the view the
    banker's page draws says the switch at once, and again when switched back."""
    with GameSession.open(tmp_path) as session:
        assert session.table().teaching_on is None  # no game: nothing to switch
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "seed": 3, "teaching": True},
                              BANKER).accepted
        version = session.version
        assert session.table().teaching_on is True
        assert session.set_teaching(False, BANKER).accepted
        assert session.version == version and session.table().teaching_on is False
        assert session.set_teaching(True, BANKER).accepted
        assert session.table().teaching_on is True
