"""The journal made ready for rows before the first one (issue 28, `Journal.ready_for_rows`):
SQLite begins an empty WAL with the first commit after it (at a start, and after a
checkpoint that copied every page), writing and syncing the WAL's header first; that commit
was a press's row, about 0.1-0.25 ms of CPU more in its window. The WAL is now begun (and
given its room) when the session's writer starts and right after such a checkpoint, with
no row written, nothing lost in a power cut, and the game the same."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from companion.game import journal as journal_mod
from companion.game.journal import WAL_BEGUN, WAL_ROOM, Journal, read_ack
from companion.game.session import GameSession
from tests.test_journal_acknowledged import BANKER, NEW, journal_of, play, power_cut_copy

#: SQLite's WAL header magic numbers (big- and little-endian checksums)
WAL_MAGIC = (0x377F0682, 0x377F0683)


def wal_header(journal: Path) -> tuple[int, int, int, int] | None:
    """(magic, checkpoint sequence, salt-1, salt-2) of the journal's WAL, None when the WAL
    has no valid header (absent, empty, or zeros): SQLite writes one when it begins a WAL,
    with a new salt each time."""
    try:
        head = Path(f"{journal}-wal").read_bytes()[:32]
    except FileNotFoundError:
        return None
    if len(head) < 32:
        return None
    magic, _version, _page, seq, salt1, salt2 = struct.unpack(">6I", head[:24])
    return (magic, seq, salt1, salt2) if magic in WAL_MAGIC else None


def saved_game(data: Path, turns: int = 6) -> int:
    with GameSession.open(data) as s:
        s.submit(NEW, BANKER)
        return play(s, turns)


def test_a_journal_made_ready_has_its_wal_begun_and_the_first_row_goes_on_in_it(
        tmp_path: Path) -> None:
    saved_game(tmp_path)
    path = journal_of(tmp_path)
    journal = Journal.open(path)
    try:
        rows = journal.last_seq()
        assert wal_header(path) is None  # the clean close removed it: nothing begun yet
        journal.ready_for_rows()
        begun = wal_header(path)
        assert begun is not None  # begun by the ready, not by a row
        assert Path(f"{path}-wal").stat().st_size == WAL_ROOM  # and given its room
        assert journal.last_seq() == rows  # the statement warmed, no row written
        assert journal.meta(WAL_BEGUN) is not None
    finally:
        journal.close()
    with GameSession.open(tmp_path) as s:  # the game is the same, rows go on
        version = s.version
        assert play(s, 2) == version + 2


def test_the_session_makes_its_journal_ready_before_the_first_request(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved_game(tmp_path)
    path = journal_of(tmp_path)
    seen: list[tuple[int, int, int, int] | None] = []
    real = Journal.append

    def append(self: Journal, *args: object, **kwargs: object) -> None:
        seen.append(wal_header(path))  # the WAL as the row's commit finds it
        real(self, *args, **kwargs)  # type: ignore[arg-type]
        seen.append(wal_header(path))

    monkeypatch.setattr(Journal, "append", append)
    with GameSession.open(tmp_path) as s:
        play(s, 3)
    assert seen[0] is not None  # the first row found the WAL begun
    assert len(set(seen)) == 1  # and no row began it again


def test_a_checkpoint_that_copied_every_page_begins_the_wal_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_mod, "CHECKPOINT_ROWS", 5)
    data = tmp_path / "data"
    with GameSession.open(data) as s:
        s.submit(NEW, BANKER)
        path = journal_of(data)
        first = wal_header(path)
        assert first is not None
        before = s.version
        play(s, 12)  # two checkpoints, after the 5th and 10th rows since the start
        after = wal_header(path)
        assert after is not None and after[1] > first[1]  # restarted (its sequence moved on)
        cut = power_cut_copy(data, tmp_path / "cut")
    with GameSession.open(cut) as resumed:  # a power cut loses nothing of it
        assert resumed.version == before + 12
        mark = read_ack(journal_of(cut))
        assert mark is not None and mark[0] == resumed._seq


def test_after_a_complete_checkpoint_the_next_row_finds_the_wal_begun(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_mod, "CHECKPOINT_ROWS", 5)
    began_in_a_row: list[bool] = []
    real = Journal.append

    def append(self: Journal, *args: object, **kwargs: object) -> None:
        before = wal_header(self.path)
        real(self, *args, **kwargs)  # type: ignore[arg-type]
        began_in_a_row.append(wal_header(self.path) != before)

    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        monkeypatch.setattr(Journal, "append", append)
        play(s, 12)
    assert began_in_a_row and not any(began_in_a_row)


def test_a_read_only_journal_is_not_touched(tmp_path: Path) -> None:
    saved_game(tmp_path)
    path = journal_of(tmp_path)
    before = path.read_bytes()
    journal = Journal.open(path, readonly=True)
    try:
        journal.ready_for_rows()
    finally:
        journal.close()
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


def test_a_journal_that_cannot_be_made_ready_still_takes_rows(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    saved_game(tmp_path)
    path = journal_of(tmp_path)
    journal = Journal.open(path)
    try:
        journal._conn.execute("PRAGMA query_only=ON")
        journal.ready_for_rows()  # refused by SQLite: said, and left to the first row
        assert "not made ready" in caplog.text
        journal._conn.execute("PRAGMA query_only=OFF")
        assert not journal._conn.in_transaction
    finally:
        journal.close()
    with GameSession.open(tmp_path) as s:
        version = s.version
        assert play(s, 1) == version + 1


def test_a_wal_that_cannot_be_begun_after_a_checkpoint_leaves_it_to_the_next_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checkpoint copied every page: that is what it reports, even when the write that
    begins the WAL again fails (a full disk); the next row begins it, as before."""
    import sqlite3

    saved_game(tmp_path)
    path = journal_of(tmp_path)
    journal = Journal.open(path)

    def full(self: Journal) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    try:
        journal.ready_for_rows()
        monkeypatch.setattr(Journal, "_begin_wal", full)
        journal._unchecked = journal_mod.CHECKPOINT_ROWS
        assert journal.checkpoint() is True
        assert journal._unchecked == 0
    finally:
        journal.close()
    with GameSession.open(tmp_path) as s:
        version = s.version
        assert play(s, 1) == version + 1
