"""The game session: one writer, journal before listeners, resume, versions, the lock."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source, Update
from companion.game.applying import apply_command
from companion.game.journal import JournalLocked
from companion.game.session import GameSession
from companion.rules import Accepted, snapshot

BANKER = Source("script", banker=True)
NEW: dict[str, Any] = {"do": "new_game", "edition": "classic-eur",
                       "players": ["Ann", "Bo", "Cy"], "seed": 11}


def replay(commands: list[dict[str, Any]]) -> Any:
    """The in-memory engine state after the commands (refusals skipped)."""
    state = None
    for c in commands:
        r = apply_command(state, c)
        if isinstance(r, Accepted):
            state = r.state
    return state


def test_submit_applies_and_resume_gives_the_same_table(tmp_path: Path) -> None:
    commands: list[dict[str, Any]] = [NEW, {"do": "roll", "dice": [1, 2]}, {"do": "buy"},
                                      {"do": "decline"}, {"do": "end_turn"}, {"do": "roll"}]
    with GameSession.open(tmp_path) as s:
        outcomes = [s.submit(c, BANKER) for c in commands]
        live = s.game_state()
        public = s.state()
    assert outcomes[0].accepted and outcomes[0].version == 1
    assert [o.accepted for o in outcomes] == [True, True, True, False, True, True]
    expected = replay(commands)
    assert live is not None and snapshot(live) == snapshot(expected)
    with GameSession.open(tmp_path) as s2:
        again = s2.game_state()
        assert again is not None and snapshot(again) == snapshot(expected)
        assert s2.state() == public


def test_refusal_changes_nothing_and_is_not_journaled(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        before = s.state()
        out = s.submit({"do": "buy"}, BANKER)
        assert not out.accepted and out.code == "not_now" and out.message
        assert s.state() == before
        assert len(s.history()) == 1


def test_stale_version_is_refused(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        out = s.submit({"do": "roll"}, BANKER, expect_version=0)
        assert not out.accepted and out.code == "stale_version"
        out = s.submit({"do": "roll"}, BANKER, expect_version=1)
        assert out.accepted and out.version == 2


def test_listeners_run_after_commit_and_can_be_removed(tmp_path: Path) -> None:
    seen: list[Update] = []
    with GameSession.open(tmp_path) as s:
        path = s._journal.path

        def listener(update: Update) -> None:
            # the change is in the journal before anyone hears of it
            from companion.game.journal import Journal
            j = Journal.open(path, readonly=True)
            try:
                assert j.last_seq() >= 1
            finally:
                j.close()
            seen.append(update)
            heard.set()

        heard = threading.Event()
        remove = s.add_listener(listener)
        s.submit(NEW, Source("phone", player="Ann", banker=True))  # Ann holds the PIN
        assert heard.wait(30), "told on the listeners' thread, after the answer"
        remove()
        s.submit({"do": "roll"}, BANKER)
    assert len(seen) == 1
    assert seen[0].version == 1 and seen[0].source.player == "Ann"
    assert seen[0].state["players"][0]["name"] == "Ann"
    assert seen[0].events[0]["kind"] == "game_started"


def test_the_public_state_is_built_once_per_version_and_never_by_the_writer(
        tmp_path: Path) -> None:
    """The writer journals and answers; the state JSON is built on the listeners' thread
    (while the writer waits for the disk), once per version, and every listener and every
    reader of `state()` share that one build."""
    from companion.game.applying import StateJsonMemory

    builds: list[tuple[int, str]] = []
    real = StateJsonMemory.state_json  # the session's views build through its memory

    def counting(self: StateJsonMemory, state: Any, with_legal: bool = True) -> dict[str, Any]:
        builds.append((state.version, threading.current_thread().name))
        return real(self, state, with_legal)

    updates: list[Update] = []
    told = threading.Semaphore(0)
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        s.add_listener(lambda u: (updates.append(u), told.release()))
        s.add_listener(lambda u: (u.state, told.release()))
        StateJsonMemory.state_json = counting  # type: ignore[method-assign]
        try:
            for command in ({"do": "roll", "dice": [1, 2]}, {"do": "decline"}):
                out = s.submit(command, BANKER)
                assert out.accepted
                assert told.acquire(timeout=30) and told.acquire(timeout=30)
                shown, read = updates[-1].state, s.state()
                if "auction_clock" in read:  # a clock is added as it stands when read
                    assert {**shown, "auction_clock": None} == {**read, "auction_clock": None}
                else:
                    assert shown is read is updates[-1].state  # the one build, shared
                assert updates[-1].state["version"] == out.version
        finally:
            StateJsonMemory.state_json = real  # type: ignore[method-assign]
    assert [v for v, _t in builds] == [2, 3], "one build per version, shared"
    assert all(not thread.startswith("session-") for _v, thread in builds), builds


def test_many_threads_one_writer(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        results: list[int] = []
        lock = threading.Lock()

        def pay() -> None:
            for _ in range(5):
                out = s.submit({"do": "pay", "from": "Ann", "to": "Bo", "amount": 1}, BANKER)
                with lock:
                    results.append(out.version)

        threads = [threading.Thread(target=pay) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == list(range(2, 22))
        assert s.state()["players"][1]["cash"] == 1500 + 20


def test_a_listener_cannot_deadlock_the_writer(tmp_path: Path) -> None:
    errors: list[BaseException] = []
    with GameSession.open(tmp_path) as s:

        def listener(update: Update) -> None:
            try:
                s.submit({"do": "roll"}, BANKER)
            except RuntimeError as exc:
                errors.append(exc)

        s.add_listener(listener)
        assert s.submit(NEW, BANKER).accepted
    assert len(errors) == 1


def test_second_opener_is_refused_clearly(tmp_path: Path) -> None:
    with GameSession.open(tmp_path):
        with pytest.raises(JournalLocked, match="in use by another companion"):
            GameSession.open(tmp_path)
    with GameSession.open(tmp_path):
        pass  # released on close


def test_closed_session_refuses(tmp_path: Path) -> None:
    s = GameSession.open(tmp_path)
    s.close()
    out = s.submit(NEW, BANKER)
    assert not out.accepted and out.code == "session_closed"
