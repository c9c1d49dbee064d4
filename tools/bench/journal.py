"""Journal benchmarks for `companion bench`: commit latency and resume time of a long game.

`bot_script` also gives the tests long, realistic table scripts (device dice and cards
included) played by the bots.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.bots import Bots
from companion.game.api import Source
from companion.game.applying import apply_command
from companion.game.replaying import command_dict
from companion.game.session import GameSession
from companion.rules import Accepted, GameState

JSON = dict[str, Any]
BOT = Source("script", banker=True)


def new_game_command(seed: int, players: int = 4) -> JSON:
    """A classic new_game for bot players P1..Pn."""
    return {"do": "new_game", "edition": "classic-eur",
            "players": [f"P{i + 1}" for i in range(players)], "seed": seed}


def bot_script(seed: int, count: int, players: int = 4) -> list[JSON]:
    """`count` commands the bots send, starting a new game whenever one is won."""
    out: list[JSON] = [new_game_command(seed, players)]
    result = apply_command(None, out[0])
    assert isinstance(result, Accepted)
    g: GameState = result.state
    bots = Bots()
    while len(out) < count:
        if g.winner >= 0:
            seed += 1
            command = new_game_command(seed, players)
            bots = Bots()
        else:
            command = command_dict(bots.choose(g))
        r = apply_command(g, command)
        if not isinstance(r, Accepted):
            raise RuntimeError(f"bot command refused: {command} -> {r}")
        out.append(command)
        g = r.state
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_bench(commands: int = 10_000, timed_commits: int = 2_000) -> dict[str, float]:
    """Commit latency (p50, p99) over a real journal, and resume time of a long game."""
    script = bot_script(seed=1, count=commands)
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        data_dir = Path(tmp)
        latencies: list[float] = []
        with GameSession.open(data_dir, "bench") as session:
            for i, command in enumerate(script):
                start = time.perf_counter()
                out = session.submit(command, BOT)
                if i >= len(script) - timed_commits:
                    latencies.append((time.perf_counter() - start) * 1000)
                if not out.accepted:
                    raise RuntimeError(f"bench command refused: {command}: {out.message}")
            version = session.version
        resumes: list[float] = []
        for _ in range(3):
            start = time.perf_counter()
            with GameSession.open(data_dir, "bench") as session:
                resumed = session.version
                resumes.append((time.perf_counter() - start) * 1000)
            if resumed != version:
                raise RuntimeError(f"resumed at version {resumed}, expected {version}")
    return {
        "journal.commit_ms_p50": round(statistics.median(latencies), 2),
        "journal.commit_ms_p99": round(_percentile(latencies, 0.99), 2),
        "journal.resume_ms": round(statistics.median(resumes), 1),
        "journal.commands": float(len(script)),
    }
