"""No silent loss: the acknowledgement mark beside each journal (issue: keep every
acknowledged move). A lost or damaged WAL is found and said, never replayed silently."""

from __future__ import annotations

import errno
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Hold, Source, Update
from companion.game.journal import WAL_ROOM, JournalIncomplete, ack_path, read_ack
from companion.game.session import GameSession

BANKER = Source("script", banker=True)
NEW = {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"], "seed": 5}


def play(session: GameSession, turns: int) -> int:
    """Roll and end turns (buying nothing) until `turns` commands were acknowledged."""
    done = 0
    while done < turns:
        legal = {c["do"] for c in session.state()["legal"]}
        verb = next(v for v in ("roll", "decline", "pass", "end_turn") if v in legal)
        command: dict[str, Any] = {"do": verb}
        if verb == "pass":
            command["by"] = next(c["by"] for c in session.state()["legal"] if c["do"] == "pass")
        if verb == "roll":
            command["dice"] = [1, 2]
        out = session.submit(command, BANKER)
        if not out.accepted and verb == "decline":
            out = session.submit({"do": "close_auction"}, BANKER)
        assert out.accepted, out
        done += 1
    return session.version


def power_cut_copy(data: Path, target: Path) -> Path:
    """The files as a power cut would leave them now (the session still running)."""
    shutil.copytree(data, target)
    return target


def journal_of(data: Path) -> Path:
    return next((data / "games").glob("*.journal"))


def test_every_acknowledged_move_is_marked(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        play(s, 5)
        mark = read_ack(journal_of(tmp_path))
        assert mark is not None and mark[0] == s._seq  # the last acknowledged entry


def test_a_flipped_bit_in_the_live_wal_is_said_not_replayed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with GameSession.open(data) as s:
        s.submit(NEW, BANKER)
        play(s, 40)
        cut = power_cut_copy(data, tmp_path / "cut")
    wal = Path(f"{journal_of(cut)}-wal")
    raw = bytearray(wal.read_bytes())
    frames = len(bytes(raw).rstrip(b"\0"))  # SQLite's frames; zeros past them (WAL_ROOM)
    assert frames > 8192
    raw[frames // 2] ^= 0x10
    wal.write_bytes(bytes(raw))
    files = {p.name: p.read_bytes() for p in (cut / "games").iterdir()}
    with pytest.raises(JournalIncomplete, match="acknowledged moves are missing"):
        GameSession.open(cut)
    # the damaged journal is left exactly as it was: opened read-only first
    assert {p.name: p.read_bytes() for p in (cut / "games").iterdir()
            if not p.name.endswith("-shm")} == {k: v for k, v in files.items()
                                                 if not k.endswith("-shm")}


def test_a_vanished_wal_stops_acknowledging_and_keeps_what_was(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with GameSession.open(data) as s:
        s.submit(NEW, BANKER)
        version = play(s, 20)
        acked = read_ack(journal_of(data))
        os.unlink(f"{journal_of(data)}-wal")
        out = s.submit({"do": "roll", "dice": [1, 2]}, BANKER)
        assert not out.accepted and out.code == "storage_error"
        assert "vanished" in (out.message or "") and s.fault
        again = s.submit({"do": "roll", "dice": [2, 3]}, BANKER)
        assert not again.accepted and again.code == "storage_error"
        assert s.version == version
        cut = power_cut_copy(data, tmp_path / "cut")  # then the power goes
    for stale in cut.glob("games/*-wal"):
        stale.unlink()  # whatever was written after the WAL vanished is gone
    with GameSession.open(cut) as resumed:  # every acknowledged move is there
        assert resumed.version == version
        assert read_ack(journal_of(cut)) == acked


def test_a_journal_that_lost_its_wal_in_a_power_cut_says_so(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with GameSession.open(data) as s:
        s.submit(NEW, BANKER)
        play(s, 30)
        cut = power_cut_copy(data, tmp_path / "cut")
    Path(f"{journal_of(cut)}-wal").unlink()
    with pytest.raises(JournalIncomplete) as caught:
        GameSession.open(cut)
    assert "companion games --rescue" in str(caught.value)


def test_a_game_created_again_does_not_inherit_an_old_mark(tmp_path: Path) -> None:
    with GameSession.open(tmp_path, "g1") as s:
        s.submit(NEW, BANKER)
        play(s, 10)
    path = journal_of(tmp_path)
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)  # the journal gone by hand, the mark left behind
    assert ack_path(path).exists()
    with GameSession.open(tmp_path, "g1") as s:
        assert s.submit(NEW, BANKER).accepted


def test_the_wal_is_given_room_and_rows_overwrite_it(tmp_path: Path) -> None:
    """After the first answered change the WAL is WAL_ROOM bytes (zeros past its frames);
    later rows land inside it without growing the file, and a power cut then loses none."""
    data = tmp_path / "data"
    with GameSession.open(data) as s:
        s.submit(NEW, BANKER)
        play(s, 1)  # the writer is serial: the room made after the first change is there
        wal = Path(f"{journal_of(data)}-wal")
        assert wal.stat().st_size == WAL_ROOM
        framed = len(wal.read_bytes().rstrip(b"\0"))
        inode = wal.stat().st_ino
        version = play(s, 60)
        assert wal.stat().st_size == WAL_ROOM and wal.stat().st_ino == inode
        assert len(wal.read_bytes().rstrip(b"\0")) > framed + 60 * 1024  # written in place
        cut = power_cut_copy(data, tmp_path / "cut")
    with GameSession.open(cut) as resumed:  # every acknowledged move read back
        assert resumed.version == version
        mark = read_ack(journal_of(cut))
        assert mark is not None and mark[0] == resumed._seq
    with GameSession.open(data) as again:  # the closed journal too
        assert again.version == version


# --- the screen's own press: the mark after its first frame (issue 28) ----------------

#: long enough that a missing release fails the test rather than slowing it
NEVER_S = 30.0
PAY = {"do": "pay", "from": "Ann", "to": "Bo", "amount": 1}


def test_a_power_cut_between_the_press_s_frame_and_its_mark_resumes_at_the_row(
        tmp_path: Path) -> None:
    """The row is durable before the screen is told; its mark follows the frame. A power
    cut between the two leaves the mark one row behind: the game resumes at the row (the
    journal may be ahead of its mark), and a WAL lost with it is still found for every
    row before."""
    data = tmp_path / "data"
    taken: dict[int, tuple[int, int] | None] = {}
    with GameSession.open(data) as s:
        s.submit(NEW, BANKER)
        play(s, 12)
        me = threading.get_ident()  # this thread is the screen's: its presses are its own

        def screen(update: Update) -> Hold:
            def frame_shown_then_the_power_goes() -> None:
                taken[update.version] = read_ack(journal_of(data))
                power_cut_copy(data, tmp_path / "cut")
            return Hold(frame_shown_then_the_power_goes, me)

        s.lead(screen)
        out = s.submit(PAY, BANKER)
        assert out.accepted
        seq, version = s._seq, out.version
    assert set(taken) == {version}
    mark = taken[version]
    assert mark is not None and mark[0] == seq - 1, "the mark is written after the frame"
    cut = tmp_path / "cut"
    lost = shutil.copytree(cut, tmp_path / "lost")
    with GameSession.open(cut) as resumed:  # not refused: the journal is ahead of its mark
        assert resumed.version == version and resumed._seq == seq
    Path(f"{journal_of(lost)}-wal").unlink()  # the same cut, and the WAL lost with it
    with pytest.raises(JournalIncomplete, match=f"entry {seq - 1}"):
        GameSession.open(lost)


def test_the_mark_follows_the_frame_and_precedes_everything_else(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the screen's frame of its own press is still to come the mark names the row
    before; once it is shown the mark names the press's row before the followers, the
    other listeners or the next command (queued during the frame) hear of anything."""
    data = tmp_path / "data"
    with GameSession.open(data) as s:
        s.submit(NEW, BANKER)
        play(s, 3)
        path = journal_of(data)

        def marked() -> int:
            mark = read_ack(path)
            assert mark is not None
            return mark[0]

        me = threading.get_ident()
        in_frame, shown = threading.Event(), threading.Event()
        during: list[int] = []

        def screen(update: Update) -> Hold:
            def frame() -> None:
                during.append(marked())
                in_frame.set()
                assert shown.wait(NEVER_S)
            return Hold(frame, me)

        followed: list[tuple[int, int]] = []
        heard: list[tuple[int, int]] = []
        applied: list[tuple[int, int]] = []  # (row, the mark then) as each row commits
        s.follow(lambda standing: followed.append((standing.version, marked())))
        listened = threading.Event()

        def listener(update: Update) -> None:
            heard.append((update.version, marked()))
            listened.set()

        s.add_listener(listener)
        s.lead(screen)
        followed.clear()
        s._journal.before_commit = lambda entry: applied.append((entry.seq, marked()))
        queued = threading.Event()

        class Requests:
            """The writer's queue, saying when a request is put on it."""

            def __init__(self, real: Any) -> None:
                self.real = real

            def put(self, item: Any) -> None:
                self.real.put(item)
                queued.set()

            def get(self, timeout: float | None = None) -> Any:
                return self.real.get(timeout=timeout)

            def empty(self) -> bool:
                return bool(self.real.empty())

        press = s.submit(PAY, BANKER)  # the screen's own: answered before its frame
        assert press.accepted and in_frame.wait(NEVER_S)
        row = s._seq
        assert during == [row - 1]
        # the writer waits for the frame, not on its queue: the queue can be watched now
        monkeypatch.setattr(s, "_queue", Requests(s._queue))
        answers: list[tuple[bool, int]] = []

        def phone() -> None:
            out = s.submit(PAY, BANKER)  # anybody else's: another thread
            answers.append((out.accepted, marked()))

        sender = threading.Thread(target=phone)
        sender.start()
        assert queued.wait(NEVER_S)  # the next command waits for the frame
        assert applied == [(row, row - 1)] and followed == [] and heard == []
        shown.set()
        sender.join(NEVER_S)
        assert not sender.is_alive()
        assert answers == [(True, row + 1)], "a phone is answered once its row is marked"
        assert applied == [(row, row - 1), (row + 1, row)], "the mark before the next row"
        assert followed[0] == (press.version, row), "the followers after the mark"
        assert listened.wait(NEVER_S) and heard[0][0] == press.version
        assert heard[0][1] >= row


@pytest.mark.parametrize("own", [True, False], ids=["the screen's press", "anybody else's"])
def test_a_mark_that_cannot_be_written_is_said_and_stops_the_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own: bool) -> None:
    """A full disk under the mark: the table shows the fault and every later change is
    refused with it (JournalBroken), as before the mark followed the frame; the change
    whose mark failed stands (its row was durable before anybody was told) and is there
    at the next start, which accepts a journal ahead of its mark."""
    data = tmp_path / "data"
    with GameSession.open(data) as s:
        s.submit(NEW, BANKER)
        version = play(s, 3)
        if own:
            me = threading.get_ident()
            s.lead(lambda _update: Hold(lambda: None, me))

        def full(_seq: int, _crc: int) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(s._journal, "_write_ack", full)
        out = s.submit(PAY, BANKER)
        assert out.accepted and out.version == version + 1
        row = s._seq
        if not own:  # marked before the answer: the fault is there with it
            assert s.fault is not None and "cannot write" in s.fault
        refused = s.submit(PAY, BANKER)  # after the writer finished the one before
        assert not refused.accepted and refused.code == "storage_error"
        assert "cannot write" in (refused.message or "") and "full" in (refused.message or "")
        assert s.fault is not None and "full" in s.fault
        assert s.version == version + 1
    mark = read_ack(journal_of(data))  # the failed mark was not written at the close either
    assert mark is not None and mark[0] == row - 1
    with GameSession.open(data) as resumed:
        assert resumed.version == version + 1
