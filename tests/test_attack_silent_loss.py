"""Nothing acknowledged disappears without a word (issue 26, point 6), on real files: a
real `companion run` takes 32 moves from the banker's phone over real HTTP and is killed
with SIGKILL; then the files are damaged as a careless hand or a power cut would, and the
next `companion run` refuses with one line saying what to do, leaving every file as it
was. Also a damaged banker PIN file (never an open banker seat) and a --data-dir that
names a file (one line, no traceback)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from web_fakes import ORIGIN, Phone

from companion.game.journal import _row_crc, read_ack
from companion.game.pins import PIN_FILE, PinStore
from tools.bench.probe import HttpPhone
from tools.bench.proc import free_port
from web_remote import create_app
from web_remote.security import SEATS_FILE, Seats

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "dummy"}
MOVES = 32
START_S = 60.0




def run(data: Path, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--headless", "--port", str(port),
         "--data-dir", str(data)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**ENV, "COMPANION_CONFIG": str(data.parent / "none.toml")})


def refusal(data: Path, port: int | None = None) -> str:
    """Start `companion run` on `data`: it must stop at once with exit 2 and one line."""
    proc = run(data, port or free_port())
    try:
        out, err = proc.communicate(timeout=START_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 2, (out, err)
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("companion run: "), err
    assert "Phones join at" not in out
    return lines[0]


def files(data: Path) -> dict[str, bytes]:
    """Every file under `data` with its bytes (SQLite's shared-memory index and the data
    directory's lock, which names the last process to start, aside)."""
    return {str(p.relative_to(data)): p.read_bytes() for p in sorted(data.rglob("*"))
            if p.is_file() and not p.name.endswith("-shm") and p.name != "lock"}


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory as SIGKILL left it, 32 acknowledged moves after the new game."""
    data = tmp_path_factory.mktemp("killed") / "data"
    port = free_port()
    proc = run(data, port)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "... Phones join at: http://<lan>:<port>/join/<code>"
        code = re.search(r"/join/(\S+)", line)
        assert code is not None, line
        banker = HttpPhone(f"http://127.0.0.1:{port}", timeout=10)
        assert banker.join(f"http://127.0.0.1:{port}/join/{code.group(1)}", "banker",
                           "2468") == 302
        status, body = banker.command({"do": "new_game", "edition": "classic-eur",
                                       "players": ["Ann", "Bo"], "seed": 5}, 0)
        assert status == 200, body
        version = body["version"]
        for _ in range(MOVES):
            status, body = banker.command({"do": "pay", "from": "Ann", "to": "Bo",
                                           "amount": 1}, version)
            assert status == 200, body
            version = body["version"]
        banker.close()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    journal = next((data / "games").glob("*.journal"))
    mark = read_ack(journal)
    assert mark is not None and mark[0] == MOVES + 1  # the new game and every payment
    assert Path(f"{journal}-wal").exists()  # the moves are in the WAL, not yet checkpointed
    return data


@pytest.fixture
def data(killed: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(killed, copy, ignore=shutil.ignore_patterns("*.sock"))  # a dead socket
    return copy


def journal_of(data: Path) -> Path:
    return next((data / "games").glob("*.journal"))


def test_the_killed_game_resumes_with_every_move(data: Path) -> None:
    """The control: the files SIGKILL left start and show all 32 payments (Bo 1532)."""
    port = free_port()
    proc = run(data, port)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "Phones join at" in line, proc.stderr.read() if proc.stderr else line
        code = re.search(r"/join/(\S+)", line)
        assert code is not None
        banker = HttpPhone(f"http://127.0.0.1:{port}", timeout=10)
        assert banker.join(f"http://127.0.0.1:{port}/join/{code.group(1)}", "banker",
                           "2468") == 302
        state = banker.state()
        assert state["version"] == MOVES + 1
        assert {p["name"]: p["cash"] for p in state["players"]} == {"Ann": 1468, "Bo": 1532}
        banker.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)


def test_a_deleted_wal_with_the_mark_kept_is_refused(data: Path) -> None:
    journal = journal_of(data)
    Path(f"{journal}-wal").unlink()
    before = files(data)
    line = refusal(data)
    assert f"{MOVES + 1} acknowledged moves are missing" in line
    assert f"companion games --rescue {journal.stem}" in line
    assert files(data) == before


def test_a_deleted_journal_with_the_mark_kept_is_refused(data: Path) -> None:
    journal = journal_of(data)
    for part in (journal, Path(f"{journal}-wal"), Path(f"{journal}-shm")):
        part.unlink()
    before = files(data)
    line = refusal(data)
    assert f"{MOVES + 1} acknowledged moves" in line and "is gone" in line
    assert str(journal) in line and "back" in line  # what to do: put it back, or give up
    assert files(data) == before
    assert not list((data / "games").glob("*.journal"))  # no new game made in its place


def test_a_journal_swapped_for_one_as_long_but_different_is_refused(data: Path) -> None:
    """Count and identity: the last row is there, but it is not the acknowledged one."""
    journal = journal_of(data)
    conn = sqlite3.connect(journal, isolation_level=None)
    try:  # a consistent journal whose last row differs
        row = list(conn.execute("SELECT * FROM entries ORDER BY seq DESC LIMIT 1").fetchone())
        command = json.loads(row[5])
        command["amount"] = 2
        row[5] = json.dumps(command, ensure_ascii=False, separators=(",", ":"))
        row[9] = _row_crc(*row[:9])
        conn.execute("UPDATE entries SET command=?, crc=? WHERE seq=?",
                     (row[5], row[9], row[0]))
    finally:
        conn.close()  # the last connection checkpoints the WAL into the journal
    before = files(data)
    line = refusal(data)
    assert "acknowledged moves are missing" in line and "--rescue" in line
    assert files(data) == before


@pytest.mark.parametrize("damage", [b"{garbage", b"", b"[]", b'{"salt":"zz","hash":1}'])
def test_a_damaged_banker_file_stops_the_start(data: Path, damage: bytes) -> None:
    (data / PIN_FILE).write_bytes(damage)
    before = files(data)
    line = refusal(data)
    assert str(data / PIN_FILE) in line and "damaged" in line
    assert files(data) == before


def test_a_damaged_banker_file_never_opens_the_banker_seat(game: Any, tmp_path: Path) -> None:
    """Wherever the file is read past the start: PIN-locked, no PIN right, no new PIN set
    by a phone, until the banker sets one at the table."""
    pin_file = tmp_path / "game" / PIN_FILE
    pin_file.parent.mkdir(parents=True, exist_ok=True)
    pin_file.write_bytes(b"{garbage")
    app = create_app(game, tmp_path / "game")
    try:
        store = app.extensions["web_remote"].pin.store
        assert isinstance(store, PinStore) and store.damaged and store.is_set
        assert not store.check("2468")
        resp = Phone(app).join("banker", pin="1234")  # the first banker sets the PIN...
        assert resp.status_code == 403, resp.data  # ...not here: a PIN is set, this is wrong
        phone = Phone(app)
        phone.join("spectator")
        resp = phone.client.post("/unlock", data={"pin": "1234", "csrf_token": phone.csrf},
                                 headers={"Origin": ORIGIN, "Accept": "application/json"})
        assert resp.status_code in (403, 429), resp.get_json()
        assert phone.client.get("/banker").status_code in (401, 403)
        assert pin_file.read_bytes() == b"{garbage"  # nobody set their own PIN
        store.end_sessions()  # a lock leaves it locked
        assert pin_file.read_bytes() == b"{garbage"
        store.set("97531")  # the banker answers at the table
        assert not store.damaged and store.check("97531")
    finally:
        app.extensions["web_remote"].close()


@pytest.mark.parametrize("damage", [b'{"Ann": "dev-1", "Bo', b"", b"[]", b'{"Ann": 7}'])
def test_a_damaged_seats_file_stops_the_start(data: Path, damage: bytes) -> None:
    seats = data / SEATS_FILE
    seats.parent.mkdir(parents=True, exist_ok=True)
    seats.write_bytes(damage)
    before = files(data)
    line = refusal(data)
    assert str(seats) in line and "damaged" in line
    assert files(data) == before


def test_a_damaged_seats_file_never_frees_a_held_seat(game: Any, tmp_path: Path) -> None:
    """Wherever the file is read past the start: every seat stays held (by no phone) until
    the banker releases it; the damaged file is left as it was, so a restart holds them
    again."""
    seats = tmp_path / "game" / SEATS_FILE
    seats.parent.mkdir(parents=True, exist_ok=True)
    damage = b'{"Ann": "phone-of-ann", "Bo": "pho'  # cut off by a power cut mid-write
    seats.write_bytes(damage)
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})
    try:
        thief = Phone(app)
        resp = thief.join("player:Ann")
        assert resp.status_code == 409, resp.data  # not "free": someone may hold it
        assert thief.client.get("/api/state").status_code == 401
        banker = Phone(app)
        assert banker.join("banker", pin="2468").status_code == 302
        page = banker.client.get("/banker?partial=1").get_data(as_text=True)
        assert "Release this seat" in page
        released = banker.client.post(
            "/banker/seat", data={"player": "Ann", "csrf_token": banker.csrf},
            headers={"Origin": ORIGIN, "Accept": "application/json"})
        assert released.get_json() == {"ok": True}
        ann = Phone(app)
        assert ann.join("player:Ann").status_code == 302  # the banker's release frees it
        assert ann.command({"do": "roll", "dice": [1, 2]}).status_code == 200
        assert Phone(app).join("player:Bo").status_code == 409  # Bo's seat is still held
        assert Phone(app).join("player:Ann").status_code == 409  # and Ann's is now taken
        assert seats.read_bytes() == damage
    finally:
        app.extensions["web_remote"].close()
    again = Seats(seats)  # restarted: every seat held again, none free
    assert again.damaged and again.holder("Ann") is not None and again.holder("Cy") is not None


def test_a_data_dir_naming_a_file_is_one_line(tmp_path: Path) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("not a directory\n")
    line = refusal(afile)
    assert str(afile) in line and "not a directory" in line
    assert afile.read_text() == "not a directory\n"


@pytest.mark.parametrize("port", [99999, 65536, -5])
def test_a_port_out_of_range_is_one_line(tmp_path: Path, port: int) -> None:
    line = refusal(tmp_path / "data", port)  # 99999 was served on 34463 without a word
    assert f"--port {port}" in line and "1 to 65535" in line
