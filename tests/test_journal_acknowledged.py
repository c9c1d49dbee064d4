"""No silent loss: the acknowledgement mark beside each journal (issue: keep every
acknowledged move). A lost or damaged WAL is found and said, never replayed silently."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from companion.game.api import Source
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
        command = {"do": verb}
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
