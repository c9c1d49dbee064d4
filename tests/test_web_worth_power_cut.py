"""The net-worth chart after a power cut and after a restart on another saved game (issue
28): its lines are appended without an fdatasync each, so a power cut may take the last
ones; the chart is made whole again from the journal at the next start, and a restart on
another saved game starts that game's chart instead of adding to the old one's."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from companion.game.api import Source
from companion.game.replaying import state_at
from companion.game.saved_games import new_game_id
from companion.game.session import GameSession
from companion.rules import net_worths
from web_remote.app import create_app
from web_remote.context import Remote

ROOT = Path(__file__).resolve().parent.parent
BANKER = Source("script", banker=True)
PLAYERS = ["Ann", "Bo", "Cy"]

#: a table playing until it is killed: payments, an undo now and then, each acknowledged
#: move's version printed once the session answered it (and so once the chart has it)
CHILD = """
import sys
from pathlib import Path
from companion.game.api import Source
from companion.game.session import GameSession
from web_remote.app import create_app
banker = Source("script", banker=True)
session = GameSession.open(Path(sys.argv[1]))
app = create_app(session, Path(sys.argv[1]), {})
names = ["Ann", "Bo", "Cy"]
out = session.submit({"do": "new_game", "edition": "classic-eur", "players": names,
                      "seed": 3}, banker)
assert out.accepted, out
i = 0
while True:
    i += 1
    if i % 7 == 0:
        out = session.undo(banker)
    else:
        out = session.submit({"do": "pay", "from": names[i % 3], "to": names[(i + 1) % 3],
                              "amount": 1 + i % 5}, banker)
    assert out.accepted, out
    print(out.version, flush=True)
"""


def _read_versions(proc: subprocess.Popen[bytes], count: int) -> int:
    """The last version the child acknowledged once it acknowledged `count` moves."""
    assert proc.stdout is not None
    fd, buffer, seen, last = proc.stdout.fileno(), b"", 0, 0
    while seen < count:
        ready, _, _ = select.select([fd], [], [], 60)
        assert ready, "the child stopped playing"
        chunk = os.read(fd, 4096)
        assert chunk, "the child ended: " + (proc.stderr.read().decode()
                                             if proc.stderr is not None else "")
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            seen, last = seen + 1, int(line)
    return last


def _expected(data_dir: Path, session: GameSession) -> list[tuple[int, list[int]]]:
    """Every version of the game from its deal to now, with every player's net worth,
    replayed from the journal row by row (its own replay, not the session's)."""
    journal = session._journal  # noqa: SLF001 (the test reads the journal as replay does)
    out = []
    for version in range(1, session.version + 1):
        state = state_at(journal, version)
        if state is not None and state.players:
            out.append((state.version, list(net_worths(state))))
    return out


def _chart(session: GameSession, data_dir: Path) -> tuple[list[str], list[dict[str, Any]]]:
    app = create_app(session, data_dir, {})
    remote: Remote = app.extensions["web_remote"]
    assert remote.persister.flush()
    try:
        return remote.worth.series()
    finally:
        remote.close()


def _kill_after(data_dir: Path, moves: int) -> int:
    """Play `moves` acknowledged moves in a child, then SIGKILL it while it plays on."""
    with subprocess.Popen([sys.executable, "-c", CHILD, str(data_dir)], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        try:
            acknowledged = _read_versions(proc, moves)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)
    return acknowledged


def test_a_kill_between_moves_loses_no_sample(tmp_path: Path) -> None:
    data_dir = tmp_path / "table"
    acknowledged = _kill_after(data_dir, 40)
    with GameSession.open(data_dir) as session:
        assert session.version >= acknowledged
        players, samples = _chart(session, data_dir)
        assert players == PLAYERS
        assert [(s["v"], s["w"]) for s in samples] == _expected(data_dir, session)


def test_a_power_cut_that_took_the_last_lines_is_made_whole_from_the_journal(
        tmp_path: Path) -> None:
    """The lines not synced yet are gone after a power cut (the page cache with them):
    the file cut back to a few samples and half a line, as the card may hold it."""
    data_dir = tmp_path / "table"
    _kill_after(data_dir, 60)
    path = data_dir / "web" / "networth.jsonl"
    lines = path.read_bytes().split(b"\n")
    assert len(lines) > 40
    torn = lines[12][: len(lines[12]) // 2]
    path.write_bytes(b"\n".join(lines[:12]) + b"\n" + torn)
    with GameSession.open(data_dir) as session:
        players, samples = _chart(session, data_dir)
        expected = _expected(data_dir, session)
        assert players == PLAYERS and len(expected) > 50
        assert [(s["v"], s["w"]) for s in samples] == expected
        # and written so: the next start reads the same series from the file alone
        players_again, samples_again = _chart(session, data_dir)
        assert (players_again, samples_again) == (players, samples)
    lines = path.read_bytes().splitlines()
    assert json.loads(lines[0])["game"] == session.game_id
    versions = []
    for line in lines[1:]:
        try:
            versions.append(json.loads(line)["v"])
        except ValueError:
            assert line == torn  # the torn line alone, left as it was
    assert versions == [v for v, _ in expected]  # each made again once, in order


def test_a_restart_on_another_saved_game_starts_that_games_chart(tmp_path: Path) -> None:
    """The same players in two saved games: the second game's chart holds its own
    versions only, not the first game's samples with the second's added after them."""
    data_dir = tmp_path / "table"
    with GameSession.open(data_dir) as first:
        app = create_app(first, data_dir, {})
        assert first.submit({"do": "new_game", "edition": "classic-eur",
                             "players": PLAYERS, "seed": 3}, BANKER).accepted
        for _ in range(30):
            assert first.submit({"do": "pay", "from": "Ann", "to": "Bo", "amount": 2},
                                BANKER).accepted
        app.extensions["web_remote"].close()
        first_id = first.game_id
    other = new_game_id()
    with GameSession.open(data_dir, other) as second:
        assert second.game_id != first_id
        assert second.submit({"do": "new_game", "edition": "classic-eur",
                              "players": PLAYERS, "seed": 4}, BANKER).accepted
        for _ in range(3):
            assert second.submit({"do": "pay", "from": "Cy", "to": "Ann", "amount": 5},
                                 BANKER).accepted
        players, samples = _chart(second, data_dir)
        assert players == PLAYERS
        assert [(s["v"], s["w"]) for s in samples] == _expected(data_dir, second)
        assert samples[-1]["w"][2] < samples[-1]["w"][0]  # Cy paid Ann, in this game only
    head = json.loads((data_dir / "web" / "networth.jsonl").read_bytes().split(b"\n")[0])
    assert head["game"] == other
