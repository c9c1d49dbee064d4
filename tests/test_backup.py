"""`companion backup` / `companion restore` (issue: the appliance): a consistent copy of a game
being played, readable by its owner only, without the phones' cookie secret; a restore that
checks the archive first, refuses while the companion runs and keeps what it replaces."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import tarfile
import threading
from pathlib import Path

import pytest

from companion.game.api import Source
from companion.game.backup import TOP, BackupError, restore_backup, save_backup
from companion.game.saved_games import current_game
from companion.game.session import GameSession

BANKER = Source("script", banker=True)
#: this checkout, for a command started in another folder
ROOT = Path(__file__).resolve().parent.parent


def play(session: GameSession, moves: int) -> None:
    """Moves that are always legal: the bank is paid 1 by a player, in turn."""
    for i in range(moves):
        payer = ("Anna", "Bram", "Cleo")[i % 3]
        command = {"do": "pay", "from": payer, "to": "bank", "amount": 1}
        outcome = session.submit(command, BANKER)
        assert outcome.accepted, outcome.message


def new_game(data: Path) -> GameSession:
    session = GameSession.open(data)
    assert session.submit({"do": "new_game", "edition": "classic-eur",
                           "players": ["Anna", "Bram", "Cleo"], "seed": 7}, BANKER).accepted
    return session


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, timeout=120)


def test_a_backup_taken_while_moves_are_committed_restores_a_consistent_game(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    session = new_game(data)
    (data / "web").mkdir(exist_ok=True)
    (data / "web" / "secret_key").write_bytes(b"s" * 32)
    play(session, 10)
    before = session.state()["version"]
    done = threading.Event()
    stop = threading.Event()

    def writer() -> None:  # the table keeps playing while the backup is taken
        while not stop.is_set():
            play(session, 1)
        done.set()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        summary = save_backup(data, tmp_path / "b.tar.gz")
    finally:
        stop.set()
        assert done.wait(30)
        thread.join()
    final = session.state()
    session.close()
    archive = tmp_path / "b.tar.gz"
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert not any(n.endswith(("secret_key", "-wal", "-shm", "/lock")) for n in names), names
    again = save_backup(data, data / "companion-backup-kept-here.tar.gz")
    assert not any("companion-backup" in f for f in again.files)  # not a backup of a backup
    assert len(summary.games) == 1
    restored = tmp_path / "restored"
    restore_backup(archive, restored)
    assert current_game(restored) == current_game(data)
    with GameSession.open(restored) as again:
        state = again.state()
        # a prefix of the game: at least what was there when the backup began, at most all
        assert before <= state["version"] <= final["version"]
        assert [p["name"] for p in state["players"]] == ["Anna", "Bram", "Cleo"]
        play(again, 3)  # and the restored game goes on


def test_the_command_backs_up_a_running_companion_and_restore_waits_for_it_to_stop(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    with new_game(data) as session:
        play(session, 5)
        version = session.state()["version"]
        # the companion (this session) holds the data directory's lock and its WAL is live
        made = companion("backup", "--data-dir", str(data), "--out", str(tmp_path))
        assert made.returncode == 0, made.stderr
        archive = next(tmp_path.glob("companion-backup-*.tar.gz"))
        refused = companion("restore", str(archive), "--data-dir", str(data))
        assert refused.returncode == 2
        assert refused.stderr.count("\n") == 1 and "in use" in refused.stderr
        assert "Traceback" not in refused.stderr
        play(session, 4)  # moves after the backup: a restore must not lose them silently
        later = session.state()["version"]
    restored = companion("restore", str(archive), "--data-dir", str(data))
    assert restored.returncode == 0, restored.stderr
    assert "kept in" in restored.stdout
    aside = next(data.glob("replaced-*"))
    with GameSession.open(data) as back:
        assert back.state()["version"] == version
    with GameSession.open(aside) as kept:  # the later moves are still there, set aside
        assert kept.state()["version"] == later


def damaged(tmp_path: Path, name: str, data: bytes) -> Path:
    archive = tmp_path / "bad.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return archive


@pytest.mark.parametrize("name, data", [
    (f"{TOP}/games/x.journal", b"SQLite format 3\x00" + b"\xff" * 4000),
    (f"{TOP}/../../etc/evil", b"x"),
    ("/etc/evil", b"x"),
    ("other/file", b"x"),
])
def test_a_damaged_or_foreign_archive_is_refused_and_changes_nothing(
        tmp_path: Path, name: str, data: bytes) -> None:
    target = tmp_path / "data"
    with new_game(target) as session:
        play(session, 2)
    before = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    with pytest.raises(BackupError):
        restore_backup(damaged(tmp_path, name, data), target)
    after = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    assert after == before
    result = companion("restore", str(damaged(tmp_path, name, data)), "--data-dir",
                       str(target))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("companion restore: ")


def test_not_a_gzip_file_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(os.urandom(300))
    result = companion("restore", str(junk), "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr


def test_without_out_the_backup_goes_into_the_data_directorys_backups_folder(
        tmp_path: Path) -> None:
    """The default is a folder that is writable wherever the table runs (the card image's
    root, and with it the folder a command is started in, may be read-only): the data
    directory's backups/, made for its owner only; a backup there is not backed up again."""
    data = tmp_path / "data"
    with new_game(data) as session:
        play(session, 3)
        version = session.state()["version"]
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    made = subprocess.run([sys.executable, "-m", "companion", "backup", "--data-dir",
                           str(data)], capture_output=True, text=True, timeout=120,
                          cwd=elsewhere, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert made.returncode == 0, made.stderr
    assert list(elsewhere.iterdir()) == []  # nothing where the command was started
    folder = data / "backups"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    archive, = folder.glob("companion-backup-*.tar.gz")
    assert made.stdout.startswith(f"{archive}: 1 game(s)"), made.stdout
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    second = companion("backup", "--data-dir", str(data))
    assert second.returncode == 0, second.stderr
    for made_archive in folder.glob("companion-backup-*.tar.gz"):
        with tarfile.open(made_archive) as tar:
            assert not any("backups/" in n for n in tar.getnames()), tar.getnames()
    restored = tmp_path / "restored"
    restore_backup(archive, restored)
    with GameSession.open(restored) as back:
        assert back.state()["version"] == version


def test_a_default_folder_that_cannot_be_made_is_one_clear_line_and_writes_nothing(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    with new_game(data) as session:
        play(session, 1)
    (data / "backups").write_text("a file where the folder would be")
    before = sorted(p.name for p in data.rglob("*"))
    result = companion("backup", "--data-dir", str(data))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"companion backup: cannot make the folder "
                                    f"{data / 'backups'} for the backup (")
    assert "--out DIR" in result.stderr and "Traceback" not in result.stderr
    assert sorted(p.name for p in data.rglob("*")) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a folder without write "
                    "permission (the read-only file system case is tested in the image)")
def test_an_unwritable_folder_is_one_clear_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with new_game(data) as session:
        play(session, 1)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    result = companion("backup", "--data-dir", str(data), "--out", str(locked))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert f"cannot write {locked}/companion-backup-" in result.stderr
    assert "nothing was written" in result.stderr and list(locked.iterdir()) == []
