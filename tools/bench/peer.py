"""`companion bench` part "peer": the fastest Python peer's rate, player turns per CPU
second, in the same run as the engine's, so the engine's targets against it (plain >= 1x,
compiled >= 2.5x) are measured instead of estimated (issue 28).

The peer is gamescomputersplay/monopoly, a checkout of it named by $COMPANION_PEER (the
benchmark's alone: never vendored into the companion, nor downloaded by the bench; pinned
at PEER_COMMIT in docs/bench.md). Without it this part says `peer.skipped`. It runs in a
child process from the checkout, its game logs off and their files untouched; its players'
turns are counted by wrapping `Player.make_a_move`, whole games of its four default players
from seed 0 on for about `seconds` of CPU time, as `engine_bench` plays its own bots' games.

A player's turn is one outer call of `make_a_move`: the peer plays the roll after doubles by
calling `self.make_a_move` again from inside the turn (through the wrapper, as it looks the
method up on the instance), so every call counts a roll, about 1.19 per turn, while the
engine's bench counts turns (its `Turn` events). The driver counts the outer calls as the
peer's turns and all calls as its moves (`peer.moves_per_s`, a roll and its move each).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

#: the peer's commit the figures in docs/bench.md were measured with
PEER_COMMIT = "7c4df31b7c299c245453b12e9fa327ee38c81d8f"

_DRIVER = """
import json, sys, time
from monopoly.core import player as player_module
from monopoly.core.game import monopoly_game
from monopoly.log import Log
from monopoly.log_settings import LogSettings

LogSettings.KEEP_GAME_LOG = False
Log.save = lambda self: None  # its bankruptcy summary file too
turns = [0]
moves = [0]
depth = [0]
make_a_move = player_module.Player.make_a_move

def counted(self, *args, **kwargs):
    moves[0] += 1
    if not depth[0]:  # a roll after doubles calls make_a_move again within the turn
        turns[0] += 1
    depth[0] += 1
    try:
        return make_a_move(self, *args, **kwargs)
    finally:
        depth[0] -= 1

player_module.Player.make_a_move = counted
seconds = float(sys.argv[1])
start = time.process_time()
games = 0
while time.process_time() - start < seconds or games == 0:
    monopoly_game((games + 1, games))
    games += 1
elapsed = time.process_time() - start
print(json.dumps({"turns": turns[0], "moves": moves[0], "games": games,
                  "seconds": elapsed}))
"""


def peer_checkout() -> Path | None:
    """The peer's checkout named by $COMPANION_PEER, when it holds the peer."""
    where = os.environ.get("COMPANION_PEER")
    if not where:
        return None
    path = Path(where)
    return path if (path / "monopoly" / "core" / "game.py").is_file() else None


def run_bench(seconds: float = 3.0) -> dict[str, Any]:
    """peer.player_turns_per_s and peer.moves_per_s (CPU time) and its games, or
    peer.skipped."""
    path = peer_checkout()
    if path is None:
        return {"peer.skipped": "no peer checkout: set COMPANION_PEER to a checkout of "
                                "gamescomputersplay/monopoly (docs/bench.md)"}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", _DRIVER, str(seconds)], cwd=path, env=env,
                          capture_output=True, text=True, check=True,
                          timeout=seconds * 10 + 60)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "peer.player_turns_per_s": round(result["turns"] / result["seconds"], 1),
        "peer.moves_per_s": round(result["moves"] / result["seconds"], 1),
        "peer.games": float(result["games"]),
    }


def ratios(results: dict[str, Any]) -> dict[str, Any]:
    """The engine's rates over the peer's, when both ran in this bench."""
    peer = results.get("peer.player_turns_per_s")
    if not peer:
        return {}
    out: dict[str, Any] = {}
    plain = results.get("engine.plain_player_turns_per_s")
    if plain:
        out["peer.plain_engine_ratio"] = round(plain / peer, 2)
    if results.get("engine.compiled") and results.get("engine.player_turns_per_s"):
        out["peer.compiled_engine_ratio"] = round(results["engine.player_turns_per_s"] / peer, 2)
    return out
