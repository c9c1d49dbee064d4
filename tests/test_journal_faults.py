"""Faults: damaged and truncated journals, a full disk, a read-only directory, two processes.

Full disk and read-only are tested twice: simulated inside SQLite (max_page_count,
query_only: always available), and for real on a small tmpfs when this process may mount
one (root in a container that allows it; skipped otherwise).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.journal import JournalCorrupt, JournalLocked
from companion.game.saved_games import current_game, game_ids, journal_path
from companion.game.session import GameSession
from companion.rules import snapshot
from tools.bench.journal import bot_script

ROOT = Path(__file__).resolve().parent.parent
BANKER = Source("script", banker=True)
PAY = {"do": "pay", "from": "P1", "to": "P2", "amount": 1}


def saved_game(data_dir: Path, count: int = 300) -> tuple[Path, dict[str, Any]]:
    """A closed saved game of `count` bot commands: its journal and its final snapshot."""
    with GameSession.open(data_dir, "g1") as s:
        for c in bot_script(seed=4, count=count):
            assert s.submit(c, BANKER).accepted
        g = s.game_state()
        assert g is not None
        return journal_path(data_dir, "g1"), snapshot(g)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- damaged files -------------------------------------------------------------------


def test_a_flipped_byte_in_a_command_is_reported_and_the_file_kept(tmp_path: Path) -> None:
    path, _ = saved_game(tmp_path)
    data = bytearray(path.read_bytes())
    at = data.find(b'"do":"end_turn"', len(data) // 3)
    assert at > 0
    data[at + 6:at + 9] = b"buy"  # still valid JSON, still a command: only the CRC knows
    path.write_bytes(bytes(data))
    before = digest(path)
    with pytest.raises(JournalCorrupt, match=r"damaged at entry \d+: checksum"):
        GameSession.open(tmp_path)
    assert digest(path) == before  # the damaged file is left for rescue
    assert game_ids(tmp_path) == ["g1"]  # and no fresh game was slipped in instead


@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.6, 0.9])
def test_a_truncated_journal_is_reported_never_a_silent_new_game(tmp_path: Path,
                                                                 fraction: float) -> None:
    path, _ = saved_game(tmp_path)
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(int(size * fraction))
    with pytest.raises(JournalCorrupt, match="damaged|truncated"):
        GameSession.open(tmp_path)
    assert current_game(tmp_path) == "g1"
    result = subprocess.run([sys.executable, "-m", "companion", "state", "--data-dir",
                             str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 1 and "g1.journal" in result.stderr
    listing = subprocess.run([sys.executable, "-m", "companion", "games", "--data-dir",
                              str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert "DAMAGED" in listing.stdout


def test_garbage_over_a_page_is_reported(tmp_path: Path) -> None:
    path, _ = saved_game(tmp_path)
    with open(path, "r+b") as f:
        f.seek(4096 * 3)
        f.write(os.urandom(4096))
    with pytest.raises(JournalCorrupt):
        GameSession.open(tmp_path)


def test_a_damaged_snapshot_is_reported(tmp_path: Path) -> None:
    path, _ = saved_game(tmp_path)
    import sqlite3

    conn = sqlite3.connect(path)
    conn.execute("UPDATE snapshots SET state = X'00' WHERE seq = (SELECT max(seq) FROM "
                 "snapshots)")
    conn.commit()
    conn.close()
    with pytest.raises(JournalCorrupt, match="snapshot"):
        GameSession.open(tmp_path)


# --- full disk and read-only, simulated inside SQLite --------------------------------


def test_full_disk_refuses_visibly_and_loses_nothing(tmp_path: Path) -> None:
    with GameSession.open(tmp_path, "g1") as s:
        for c in bot_script(seed=6, count=50):
            s.submit(c, BANKER)
        conn = s._journal._conn
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count={pages}")
        refused = [s.submit(PAY, BANKER) for _ in range(40)]
        # the free pages run out quickly, and from then on every command is refused
        assert not refused[-1].accepted and refused[-1].code == "storage_error"
        assert "full" in (refused[-1].message or "") and s.fault
        first_refusal = next(i for i, o in enumerate(refused) if not o.accepted)
        assert all(not o.accepted for o in refused[first_refusal:])
        acknowledged_cash = s.state()["players"][1]["cash"]
        acknowledged = snapshot(s.game_state())  # type: ignore[arg-type]
        conn.execute("PRAGMA max_page_count=1073741823")
        assert s.submit(PAY, BANKER).accepted and s.fault is None
        undo = s.undo(BANKER)
        assert undo.accepted
    with GameSession.open(tmp_path, "g1") as s:
        assert s.state()["players"][1]["cash"] == acknowledged_cash
        resumed = s.game_state()
        assert resumed is not None
        got = snapshot(resumed)
        got["version"] = acknowledged["version"]
        assert got == acknowledged


def test_read_only_storage_refuses_visibly(tmp_path: Path) -> None:
    with GameSession.open(tmp_path, "g1") as s:
        s.submit(bot_script(seed=6, count=1)[0], BANKER)
        s._journal._conn.execute("PRAGMA query_only=ON")
        out = s.submit(PAY, BANKER)
        assert not out.accepted and out.code == "storage_error"
        assert "read-only" in (out.message or "")
        assert s.undo(BANKER).code in ("storage_error", "nothing_to_undo")
        assert s.version == 1


# --- the real thing on a small tmpfs -------------------------------------------------


@contextlib.contextmanager
def small_tmpfs(tmp_path: Path, size: str) -> Iterator[Path]:
    mnt = tmp_path / f"mnt-{uuid.uuid4().hex[:6]}"
    mnt.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                               str(mnt)], capture_output=True)
    except OSError:
        pytest.skip("cannot run mount")
    if done.returncode != 0:
        pytest.skip("this process may not mount a tmpfs")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_really_full_disk(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path, "512k") as mnt:
        data_dir = mnt / "data"
        with GameSession.open(data_dir, "g1") as s:
            s.submit(bot_script(seed=6, count=1)[0], BANKER)
            filler = mnt / "filler"
            with open(filler, "wb", buffering=0) as f, contextlib.suppress(OSError):
                while True:
                    f.write(b"x" * 4096)
            outcomes = [s.submit(PAY, BANKER) for _ in range(300)]
            refused = [o for o in outcomes if not o.accepted]
            assert refused and refused[-1].code == "storage_error"
            assert "full" in (refused[-1].message or "")
            accepted = sum(o.accepted for o in outcomes)
            filler.unlink()
            assert s.submit(PAY, BANKER).accepted
        with GameSession.open(data_dir, "g1") as s:
            assert s.state()["players"][1]["cash"] == 1500 + accepted + 1


def _wal_after_a_few_moves(tmp_path: Path, size_k: int) -> int:
    """The size of a new game's WAL after its first answered changes, on a disk of size_k KB."""
    with small_tmpfs(tmp_path, f"{size_k}k") as mnt:
        data_dir = mnt / "data"
        with GameSession.open(data_dir, "g1") as s:
            s.submit(bot_script(seed=6, count=1)[0], BANKER)
            for _ in range(3):
                assert s.submit(PAY, BANKER).accepted
            return next((data_dir / "games").glob("*-wal")).stat().st_size


def test_a_nearly_full_disk_keeps_its_space_for_the_rows(tmp_path: Path) -> None:
    """The WAL's room (journal.WAL_ROOM, zeros written once after the first answered change)
    is given only where the disk has WAL_ROOM_FREE to spare: on a fuller one it would take
    the last space the rows and the checkpoint need."""
    from companion.game.journal import WAL_ROOM, WAL_ROOM_FREE

    assert 0 < _wal_after_a_few_moves(tmp_path, WAL_ROOM_FREE // 2 >> 10) < WAL_ROOM
    assert _wal_after_a_few_moves(tmp_path, WAL_ROOM_FREE * 2 >> 10) == WAL_ROOM  # to spare


def test_a_really_read_only_directory(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path, "1m") as mnt:
        data_dir = mnt / "data"
        with GameSession.open(data_dir, "g1") as s:
            s.submit(bot_script(seed=6, count=1)[0], BANKER)
            s.submit(PAY, BANKER)
            shown = s.state()
        if subprocess.run(["mount", "-o", "remount,ro", str(mnt)]).returncode != 0:
            pytest.skip("cannot remount read-only")
        with GameSession.open(data_dir, "g1") as s:
            assert s.state() == shown  # the table is still shown
            assert s.fault is not None and "read-only" in s.fault
            out = s.submit(PAY, BANKER)
            assert not out.accepted and out.code == "storage_error"
            assert "read-only" in (out.message or "")


# --- two processes -------------------------------------------------------------------


def test_a_second_process_is_refused_clearly(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from pathlib import Path; from companion.game.session import GameSession\n"
         "s = GameSession.open(Path(sys.argv[1]))\nprint('ready', flush=True)\n"
         "sys.stdin.read()\ns.close()", str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        with pytest.raises(JournalLocked, match=f"process {holder.pid}"):
            GameSession.open(tmp_path)
        script = tmp_path / "s.jsonl"
        script.write_text('{"do": "roll"}\n', "utf-8")
        second = subprocess.run([sys.executable, "-m", "companion", "replay", str(script),
                                 "--data-dir", str(tmp_path)], capture_output=True,
                                text=True, cwd=ROOT)
        assert second.returncode == 1 and second.stdout == ""
        assert "in use by another companion" in second.stderr
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    with GameSession.open(tmp_path):
        pass


def test_rescue_keeps_the_last_good_state(tmp_path: Path) -> None:
    from companion.game.rescue import rescue

    with GameSession.open(tmp_path, "g1") as s:
        states = []
        for c in bot_script(seed=4, count=300):
            assert s.submit(c, BANKER).accepted
            states.append(snapshot(s.game_state()))  # type: ignore[arg-type]
        s.undo(BANKER)
    path = journal_path(tmp_path, "g1")
    data = bytearray(path.read_bytes())
    at = data.find(b'"do":"end_turn"', len(data) // 2)
    data[at + 6:at + 9] = b"buy"
    path.write_bytes(bytes(data))
    before = digest(path)
    done = rescue(tmp_path, "g1", "g1-rescued")
    assert digest(path) == before
    assert 0 < done.kept < 300 and "checksum" in done.stopped
    with GameSession.open(tmp_path, "g1-rescued") as s:
        assert snapshot(s.game_state()) == states[done.kept - 1]  # type: ignore[arg-type]
        assert s.version == done.version
