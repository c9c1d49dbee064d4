"""The session's leading listener (GameSession.lead, issue 28: the table's screen): told on
the writer as soon as a change is journaled; its own command answered before its frame,
the followers and the other listeners after that frame and before the next change; anybody
else's command answered only once the followers have it (issue 25), the other listeners
still after the frame. And the snapshot that only shortens a replay, written after the row."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import companion.game.replaying as replaying
from companion.game.api import Hold, Source, Standing, Update
from companion.game.journal import Journal, StorageError
from companion.game.session import GameSession

TABLE = Source("script", banker=True)
NEW_GAME = {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"], "seed": 3}
#: long enough that a missing release fails the test rather than slowing it
NEVER_S = 30.0


def pay(amount: int = 1) -> dict[str, Any]:
    return {"do": "pay", "from": "Ann", "to": "Bo", "amount": amount}


class Screen:
    """A leading listener whose frames the test shows: each update's hold waits for
    `show(version)`; what it saw of the journal when it was told."""

    def __init__(self, session: GameSession, thread: int) -> None:
        self.session = session
        self.thread = thread
        self.told: list[tuple[int, str, int]] = []
        self.frames: dict[int, threading.Event] = {}
        self.lock = threading.Lock()

    def on_update(self, update: Update) -> Hold:
        journaled = int(self.session.history(None, 1)[-1]["version"])
        with self.lock:
            self.told.append((update.version, threading.current_thread().name, journaled))
            frame = self.frames.setdefault(update.version, threading.Event())
        return Hold(lambda: frame.wait(NEVER_S), self.thread)

    def show(self, version: int) -> None:
        with self.lock:
            self.frames.setdefault(version, threading.Event()).set()


@pytest.fixture
def table(tmp_path: Path) -> Any:
    session = GameSession.open(tmp_path / "game")
    assert session.submit(NEW_GAME, TABLE).accepted
    screen = Screen(session, threading.get_ident())
    session.lead(screen.on_update)
    order: list[tuple[str, int]] = []
    followed, heard = threading.Event(), threading.Event()

    def follower(standing: Standing) -> None:
        order.append(("follower", standing.version))
        followed.set()

    def listener(update: Update) -> None:
        order.append(("listener", update.version))
        heard.set()

    session.follow(follower)
    session.add_listener(listener)
    order.clear()
    try:
        yield session, screen, order, followed, heard
    finally:
        for version in range(session.version + 3):
            screen.show(version)
        session.close()


def test_the_screen_s_own_press_is_answered_before_its_frame_and_the_rest_after(
        table: Any) -> None:
    session, screen, order, followed, heard = table
    out = session.submit(pay(), TABLE)  # from the screen's own thread (Hold.thread)
    assert out.accepted
    version, thread, journaled = screen.told[-1]
    assert version == out.version and thread == f"session-{session.game_id}"
    assert journaled == out.version, "told only once the row is in the journal"
    assert order == [], "nobody else is told before the frame shows the press"
    screen.show(out.version)
    assert followed.wait(NEVER_S) and heard.wait(NEVER_S)
    assert order == [("follower", out.version), ("listener", out.version)]
    # the next change waits for the followers of the one before: in order, once each
    followed.clear()
    heard.clear()
    screen.show(out.version + 1)
    second = session.submit(pay(2), TABLE)
    assert second.accepted and heard.wait(NEVER_S)
    assert order[2:] == [("follower", second.version), ("listener", second.version)]


def test_anybody_else_s_move_is_answered_once_followed_and_heard_after_the_frame(
        table: Any) -> None:
    session, screen, order, _followed, heard = table
    answered: list[Any] = []

    def phone() -> None:
        answered.append((session.submit(pay(), Source("phone", player="Ann")), list(order)))

    sender = threading.Thread(target=phone)
    sender.start()
    sender.join(NEVER_S)
    assert not sender.is_alive(), "a phone's move is not held for the screen's frame"
    out, seen = answered[0]
    assert out.accepted
    assert seen == [("follower", out.version)], "the chart's sample before the answer"
    assert not heard.is_set(), "the other listeners wait for the frame"
    screen.show(out.version)
    assert heard.wait(NEVER_S)
    assert order == [("follower", out.version), ("listener", out.version)]


def test_a_frame_that_never_comes_holds_only_as_long_as_the_hold(tmp_path: Path) -> None:
    """The hold is the face's to bound (FirstFrame's bound): a hold that gives up lets the
    followers and the other listeners go on."""
    with GameSession.open(tmp_path / "game") as session:
        assert session.submit(NEW_GAME, TABLE).accepted
        gave_up = threading.Event()

        def never(_update: Update) -> Hold:
            return Hold(lambda: gave_up.wait(0.01), threading.get_ident())

        session.lead(never)
        heard = threading.Event()
        session.add_listener(lambda _u: heard.set())
        assert session.submit(pay(), TABLE).accepted
        assert heard.wait(NEVER_S)


def test_a_failing_lead_does_not_stop_the_game(tmp_path: Path) -> None:
    with GameSession.open(tmp_path / "game") as session:
        def broken(_update: Update) -> Hold | None:
            raise RuntimeError("a face's bug")

        session.lead(broken)
        heard = threading.Event()
        session.add_listener(lambda _u: heard.set())
        assert session.submit(NEW_GAME, TABLE).accepted
        assert heard.wait(NEVER_S)
        assert session.submit(pay(), TABLE).accepted


def test_the_replay_s_snapshots_are_written_after_their_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every SNAPSHOT_EVERY rows a snapshot, in a transaction after its row; one that
    cannot be written costs a longer replay and is tried again at the next row."""
    monkeypatch.setattr(replaying, "SNAPSHOT_EVERY", 4)
    failing = {"on": False}
    real = Journal.add_snapshot

    def add_snapshot(self: Journal, seq: int, snapshot: dict[str, Any]) -> None:
        if failing["on"]:
            raise StorageError("not saved: the data directory is full")
        real(self, seq, snapshot)

    monkeypatch.setattr(Journal, "add_snapshot", add_snapshot)
    data = tmp_path / "game"
    with GameSession.open(data, "g") as session:
        assert session.submit(NEW_GAME, TABLE).accepted  # row 1
        for amount in range(1, 11):  # rows 2-11: snapshots after rows 4 and 8
            assert session.submit(pay(amount), TABLE).accepted
        failing["on"] = True
        assert session.submit(pay(11), TABLE).accepted  # row 12 is due one: not written
        failing["on"] = False
        assert session.submit(pay(12), TABLE).accepted  # row 13: tried again, written
        expected = replaying.snapshot_of(session.game_state())  # type: ignore[arg-type]
        journal = session._journal
        rows = [r[0] for r in journal._conn.execute("SELECT seq FROM snapshots ORDER BY seq")]
        assert rows == [4, 8, 13]
        assert session.undo(TABLE).accepted  # an undo's row keeps its own, in the row
        rows = [r[0] for r in journal._conn.execute("SELECT seq FROM snapshots ORDER BY seq")]
        assert rows == [4, 8, 13, 14]
    with GameSession.open(data, "g") as again:
        at = replaying.state_at(again._journal, 13)
        assert at is not None and replaying.snapshot_of(at) == expected
        assert again.redo(TABLE).accepted  # the undone payment again, from the snapshots
        redone = again.game_state()
        assert redone is not None
        assert replaying.snapshot_of(redone)["players"] == expected["players"]


def test_a_burst_of_presses_before_any_frame_holds_the_writer_for_none(tmp_path: Path) -> None:
    """The screen's presses sent one after another before a frame is drawn (a key burst):
    the loop's thread lets its earlier updates go before it waits on the session again,
    so the writer, holding the first press's after-work for its frame, does not wait out
    the bound before the next press."""
    from companion.screen.controller import Controller
    from companion.screen.wakeups import FirstFrame
    from tools.bench.journal import bot_script

    with GameSession.open(tmp_path / "game") as session:
        assert session.submit(bot_script(seed=5, count=1)[0], TABLE).accepted
        controller = Controller(session, language="en")
        gate = FirstFrame(wait_s=5.0, most_s=5.0)  # a hold waited out fails the test
        gate.loop_thread = threading.get_ident()  # this thread is the loop's
        controller.first_frame = gate
        heard = threading.Event()
        session.add_listener(lambda _u: heard.set())
        versions: list[int] = []
        for _ in range(3):  # each press sent before any frame is drawn
            prompt = controller.current_prompt()
            button = next(a.button for a in prompt.actions if a.command is not None)
            controller.press(button or "roll", "keyboard")
            versions.append(int((controller.state or {}).get("version") or 0))
        assert versions == sorted(set(versions)), "each press had its own result"
        gate.shown(controller.applied)  # the frame of the last one
        assert heard.wait(NEVER_S)
        assert gate.late == 0, "no hold ran out: none outlived the presses after it"
        controller.close()


def _rows_in_file(path: Path) -> int:
    """The rows the journal's own file holds, its WAL left aside (an immutable read sees
    the file alone): what the checkpoints copied there."""
    import sqlite3

    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM entries").fetchone()[0])
    finally:
        conn.close()


def test_the_wal_is_checkpointed_after_the_frame_not_inside_a_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's automatic checkpoint ran inside the committing row, between a press and
    its first frame (issue 28); the writer checkpoints once every CHECKPOINT_ROWS rows
    after the change is answered and, for the screen's press, shown."""
    import companion.game.journal as journal_module

    monkeypatch.setattr(journal_module, "CHECKPOINT_ROWS", 5)
    checkpoints: list[tuple[int, bool]] = []  # (the version then, inside append?)
    appending = {"on": False}
    real_append, real_checkpoint = Journal.append, Journal._checkpoint

    def append(self: Journal, entry: Any, snapshot: Any = None, **kw: Any) -> None:
        appending["on"] = True
        try:
            real_append(self, entry, snapshot, **kw)
        finally:
            appending["on"] = False

    def checkpoint(self: Journal) -> bool:
        checkpoints.append((session.version, appending["on"]))
        return real_checkpoint(self)

    monkeypatch.setattr(Journal, "append", append)
    monkeypatch.setattr(Journal, "_checkpoint", checkpoint)
    session = GameSession.open(tmp_path / "game")
    try:
        path = session._journal.path
        assert session._journal._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        screen = Screen(session, threading.get_ident())
        session.lead(screen.on_update)
        for version in range(1, 12):
            screen.show(version)
        assert session.submit(NEW_GAME, TABLE).accepted  # row 1
        for amount in range(1, 4):  # rows 2-4: under CHECKPOINT_ROWS, the file has none
            assert session.submit(pay(amount), TABLE).accepted
        assert checkpoints == [] and _rows_in_file(path) == 0
        for amount in range(4, 11):  # rows 5-11: one checkpoint after row 5, one after 10
            assert session.submit(pay(amount), TABLE).accepted
        assert [inside for _v, inside in checkpoints] == [False, False]
        assert _rows_in_file(path) == 10
        # a press on the screen whose frame is not shown yet: no checkpoint before it
        for amount in range(11, 14):  # rows 12-14
            screen.show(session.version + 1)
            assert session.submit(pay(amount), TABLE).accepted
        assert len(checkpoints) == 2
        held = session.submit(pay(14), TABLE)  # row 15, due one; its frame still to come
        assert held.accepted and len(checkpoints) == 2 and _rows_in_file(path) == 10
        screen.show(held.version)
        assert session.submit(pay(15), TABLE).accepted  # after the one before's frame
        assert len(checkpoints) == 3 and _rows_in_file(path) >= 15
    finally:
        for version in range(session.version + 3):
            screen.show(version)
        session.close()
