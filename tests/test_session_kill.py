"""SIGKILL while commands flow: after a restart the table is exactly the acknowledged commands.

Two drivers, both real processes killed with SIGKILL at random moments:
- `companion replay SCRIPT --data-dir DIR` subprocesses (the command line, end to end);
- forked children of the test process driving commands, undos and redos (cheap, so that
  there are hundreds of kill points), some of them killing themselves inside the commit.
After each kill the game is reopened and must equal the in-memory replay of the
acknowledged prefix, or of that prefix plus the one command in flight; nothing else.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.bots import Bots
from companion.game.api import Source
from companion.game.applying import apply_command
from companion.game.replaying import command_dict
from companion.game.session import GameSession
from companion.rules import Accepted, GameState, snapshot
from tools.bench.journal import bot_script, new_game_command

ROOT = Path(__file__).resolve().parent.parent
BANKER = Source("script", banker=True)
READ_TIMEOUT = 30.0
#: a line the engine always refuses (a payment to oneself): refusals under fire too
REFUSED = {"do": "pay", "from": "P1", "to": "P1", "amount": 1}

Op = tuple[str, dict[str, Any]]  # ("command", cmd) | ("undo", {}) | ("redo", {})


def full(g: GameState | None) -> dict[str, Any] | None:
    return None if g is None else snapshot(g)


class LineReader:
    """Reads lines from a pipe with a timeout per read (no sleeping)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.eof = False

    def line(self, timeout: float = READ_TIMEOUT) -> bytes | None:
        """The next line, or None at end of file; raises TimeoutError."""
        while b"\n" not in self.buffer:
            if self.eof:
                return None
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                raise TimeoutError("the child stopped answering")
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.eof = True
                continue
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def rest(self) -> list[bytes]:
        """Every complete line left until end of file (after the writer died)."""
        out = []
        while (line := self.line()) is not None:
            out.append(line)
        return out


def jitter(rnd: random.Random) -> None:
    """Let the child run on for a random fraction of a millisecond, to vary the kill point."""
    end = time.perf_counter() + rnd.random() * 0.002
    while time.perf_counter() < end:
        pass


def check_resumed(data_dir: Path, expected: list[dict[str, Any] | None], acked: int) -> int:
    """Reopen; the state must be expected[acked] or expected[acked + 1]. Returns which."""
    with GameSession.open(data_dir) as s:
        got = full(s.game_state())
    if got == expected[acked]:
        return acked
    assert acked + 1 < len(expected) and got == expected[acked + 1], (
        f"after {acked} acknowledged lines the table is neither that nor the next line")
    return acked + 1


# --- the command line ----------------------------------------------------------------


def script_with_refusals(seed: int, count: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, cmd in enumerate(bot_script(seed=seed, count=count)):
        out.append(cmd)
        if i % 13 == 5:
            out.append(REFUSED)
    return out


def test_kill_companion_replay_at_random_lines(tmp_path: Path) -> None:
    rnd = random.Random(20)
    script = script_with_refusals(seed=20, count=500)
    expected: list[dict[str, Any] | None] = [None]
    state: GameState | None = None
    for cmd in script:
        r = apply_command(state, cmd)
        if isinstance(r, Accepted):
            state = r.state
        expected.append(full(state))
    data_dir = tmp_path / "data"
    done = 0  # script lines settled in the saved game
    kills = 0
    while done < len(script) and kills < 40:
        part = tmp_path / f"part{kills}.jsonl"
        part.write_text("".join(json.dumps(c) + "\n" for c in script[done:]), "utf-8")
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "replay", str(part), "--data-dir",
             str(data_dir)], stdout=subprocess.PIPE, cwd=ROOT)
        assert proc.stdout is not None
        reader = LineReader(proc.stdout.fileno())
        want = rnd.randint(1, 12)
        lines = []
        for _ in range(want):
            line = reader.line()
            if line is None:
                break
            lines.append(line)
        jitter(rnd)
        proc.send_signal(signal.SIGKILL)
        lines += reader.rest()  # printed before the kill: acknowledged too
        proc.wait()
        proc.stdout.close()
        for n, raw in enumerate(lines, start=1):
            assert json.loads(raw)["line"] == n  # one line per script line, nothing else
        done = check_resumed(data_dir, expected, done + len(lines))
        kills += 1
    assert kills >= 30


# --- forked drivers, with undo and redo ----------------------------------------------


def model_ops(seed: int, count: int) -> tuple[list[Op], list[dict[str, Any] | None]]:
    """Random commands, undos and redos, and the state expected after each (a model)."""
    rnd = random.Random(seed)
    ops: list[Op] = [("command", new_game_command(seed))]
    first = apply_command(None, ops[0][1])
    assert isinstance(first, Accepted)
    effective: list[GameState] = [first.state]  # states of the commands in force
    redo: list[GameState] = []
    version = 1
    expected: list[dict[str, Any] | None] = [None, full(first.state)]
    while len(ops) < count:
        g = effective[-1]
        roll = rnd.random()
        if roll < 0.1 and len(effective) > 1:
            ops.append(("undo", {}))
            redo.append(effective.pop())
        elif roll < 0.15 and redo:
            ops.append(("redo", {}))
            effective.append(redo.pop())
        elif roll < 0.2:
            ops.append(("command", REFUSED))
            version -= 1
        else:
            cmd = command_dict(Bots().choose(g)) if g.winner < 0 else new_game_command(
                rnd.randint(0, 999))
            r = apply_command(g, cmd)
            assert isinstance(r, Accepted), (cmd, r)
            ops.append(("command", cmd))
            effective.append(r.state)
            redo.clear()
        version += 1
        want = effective[-1].copy()
        want.version = version
        expected.append(full(want))
    return ops, expected


def _child(data_dir: Path, ops: list[Op], start: int, wfd: int, kill_seq: int | None) -> None:
    """In the forked child: apply ops from `start`, one line per settled op; never returns."""
    try:
        with GameSession.open(data_dir) as s:
            if kill_seq is not None:
                def die(entry: Any) -> None:
                    if entry.seq >= kill_seq:
                        os.kill(os.getpid(), signal.SIGKILL)
                s._journal.before_commit = die
            for i in range(start, len(ops)):
                kind, cmd = ops[i]
                if kind == "command":
                    s.submit(cmd, BANKER)
                elif kind == "undo":
                    s.undo(BANKER)
                else:
                    s.redo(BANKER)
                os.write(wfd, f"{i}\n".encode())
    finally:
        os._exit(0)


def run_forked_kills(data_dir: Path, seed: int, kills_wanted: int) -> int:
    ops, expected = model_ops(seed, count=kills_wanted * 14)
    rnd = random.Random(seed)
    done = 0
    kills = 0
    seq_base = 0
    while done < len(ops) and kills < kills_wanted:
        rfd, wfd = os.pipe()
        mid_commit = rnd.random() < 0.25
        kill_seq = seq_base + rnd.randint(1, 8) if mid_commit else None
        pid = os.fork()
        if pid == 0:
            os.close(rfd)
            _child(data_dir, ops, done, wfd, kill_seq)
        os.close(wfd)
        reader = LineReader(rfd)
        lines: list[bytes] = []
        if not mid_commit:
            want = rnd.randint(1, 12)
            for _ in range(want):
                line = reader.line()
                if line is None:
                    break
                lines.append(line)
            jitter(rnd)
            os.kill(pid, signal.SIGKILL)
        lines += reader.rest()
        _, status = os.waitpid(pid, 0)
        os.close(rfd)
        assert os.WIFSIGNALED(status) or done + len(lines) == len(ops)
        assert [int(x) for x in lines] == list(range(done, done + len(lines)))
        done = check_resumed(data_dir, expected, done + len(lines))
        with GameSession.open(data_dir) as s:
            seq_base = s._seq
        kills += 1
    return kills


def test_kill_forked_sessions_at_200_points(tmp_path: Path) -> None:
    kills = sum(run_forked_kills(tmp_path / f"data{seed}", seed, 50) for seed in range(4))
    assert kills >= 200


def test_kill_forked_sessions_while_the_wal_is_checkpointed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer checkpoints the WAL itself after a change is answered (issue 28: SQLite's
    automatic checkpoint is off); with a checkpoint after every other row, SIGKILL lands
    in checkpoints too, and every acknowledged command is still there after each."""
    import companion.game.journal as journal_module

    monkeypatch.setattr(journal_module, "CHECKPOINT_ROWS", 2)
    seen = tmp_path / "checkpoints"  # one line per checkpoint, from the forked children
    real = journal_module.Journal._checkpoint

    def counting(self: journal_module.Journal) -> bool:
        with open(seen, "a", encoding="ascii") as out:
            out.write("c\n")
        return real(self)

    monkeypatch.setattr(journal_module.Journal, "_checkpoint", counting)
    kills = sum(run_forked_kills(tmp_path / f"data{seed}", seed, 30) for seed in (7, 8))
    assert kills >= 60
    assert len(seen.read_text(encoding="ascii").split()) >= 60
