"""`companion bench` part "peer": the fastest Python peer's rate, player turns per CPU
second, and the engine's against it in the same run, so the engine's targets against it
(plain >= 1x, compiled >= 2.5x) are measured instead of estimated (issue 28).

The peer is gamescomputersplay/monopoly, a checkout of it named by $COMPANION_PEER (the
benchmark's alone: never vendored into the companion, nor downloaded by the bench; pinned
at PEER_COMMIT in docs/bench.md). Without it this part says `peer.skipped`. It runs in a
child process from the checkout, its game logs off and their files untouched; its players'
turns are counted by wrapping `Player.make_a_move`, whole games of its four default players
from seed 0 on, as `engine_bench` plays its own bots' games.

A player's turn is one outer call of `make_a_move`: the peer plays the roll after doubles by
calling `self.make_a_move` again from inside the turn (through the wrapper, as it looks the
method up on the instance), so every call counts a roll, about 1.19 per turn, while the
engine's bench counts turns (its `Turn` events). The driver counts the outer calls as the
peer's turns and all calls as its moves (`peer.moves_per_s`, a roll and its move each).

The ratios are timed in alternating slices (issue 28, tenth pass): a shared machine's load
drifts by tens of percent within seconds, so a rate timed at one moment and another timed a
minute later say more about the load than about the code. The peer, the plain engine and
(when built) the compiled one each run in a child process of their own, the same kind for
all (`python -c` a driver that plays whole games from seed 0 on, one untimed game first,
then a slice of about `seconds / slices` of CPU time whenever the parent asks, reading the
request on stdin and answering one JSON line); the parent asks them in turn, `slices` rounds,
the order reversed every other round (peer, plain, compiled; compiled, plain, peer; ...), so
each engine slice has a peer slice beside it. A ratio is the median over the rounds of the
engine's slice rate over the peer's slice rate of the same round, with its min and max.
"""

from __future__ import annotations

import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the peer's commit the figures in docs/bench.md were measured with
PEER_COMMIT = "7c4df31b7c299c245453b12e9fa327ee38c81d8f"
#: rounds of alternating slices, and each side's CPU seconds over all of them: short slices
#: pair better (the load here swings the rates by +-25 % within a second); the peer against
#: itself gave medians within 0.7 % of 1 at 60 x 0.05 s, 2-16 % off at 5 x 0.6 s
#: (docs/bench.md, the tenth pass)
SLICES = 60
SECONDS = 3.0

#: the slice loop both kinds of child run: `play(seed)` plays one whole game and says its
#: player turns and moves (the peer's rolls, the engine's commands)
_SERVE = """
def serve(play, hello):
    play(0)  # one untimed game first: lazy imports, data files read, caches warm
    print(json.dumps(hello), flush=True)
    seed = 0
    for line in sys.stdin:
        seconds = float(line)
        turns = moves = games = 0
        start = time.process_time()
        while time.process_time() - start < seconds or games == 0:
            t, m = play(seed)
            turns += t
            moves += m
            games += 1
            seed += 1
        elapsed = time.process_time() - start
        print(json.dumps({"turns": turns, "moves": moves, "games": games,
                          "seconds": elapsed}), flush=True)
"""

_PEER_DRIVER = """
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

def play(seed):
    t, m = turns[0], moves[0]
    monopoly_game((seed + 1, seed))
    return turns[0] - t, moves[0] - m
""" + _SERVE + """
serve(play, {})
"""

_ENGINE_DRIVER = """
import json, sys, time
from companion import engine_build
from companion.bots import play_bot_game

def play(seed):
    _g, turns, commands, _capped = play_bot_game(seed)
    return turns, commands
""" + _SERVE + """
serve(play, {"compiled": engine_build.compiled()})
"""


@dataclass(frozen=True)
class Slice:
    """One slice of a child's games: player turns, moves, whole games, CPU seconds."""

    turns: int
    moves: int
    games: int
    seconds: float

    @property
    def rate(self) -> float:
        """Player turns per CPU second."""
        return self.turns / self.seconds


class SliceChild:
    """A driver in a child process: a line of seconds in, a slice's JSON line out."""

    def __init__(self, code: str, cwd: Path, env: dict[str, str], timeout: float) -> None:
        self.timeout = timeout
        self.stderr = tempfile.TemporaryFile()  # never a pipe: a full one would block it
        self.proc = subprocess.Popen([sys.executable, "-c", code], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, bufsize=0)
        self._buffer = b""
        self.hello: dict[str, Any] = {}

    def ready(self) -> dict[str, Any]:
        """Waits for the untimed game's end: what the driver says of itself."""
        self.hello = json.loads(self._line())
        return self.hello

    def slice(self, seconds: float) -> Slice:
        """Whole games for about `seconds` of the child's CPU time."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{seconds!r}\n".encode())
        self.proc.stdin.flush()
        result = json.loads(self._line())
        return Slice(int(result["turns"]), int(result["moves"]), int(result["games"]),
                     float(result["seconds"]))

    def _line(self) -> str:
        """The child's next line on stdout, or RuntimeError (with its stderr) if it ends
        or says nothing within the timeout."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + self.timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.close()
                raise RuntimeError(f"bench child silent for {self.timeout:.0f} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                self.stderr.seek(0)
                err = self.stderr.read().decode(errors="replace")
                self.close()
                raise RuntimeError(f"bench child ended: {err.strip()[-2000:]}")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    def close(self) -> None:
        """Ends the child: its stdin closed (its loop ends), killed if it lingers."""
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self.stderr.close()


def alternate(sides: Mapping[str, Callable[[float], Slice]], slices: int,
              seconds: float) -> dict[str, list[Slice]]:
    """`slices` rounds of one slice of `seconds` from each side, in the mapping's order and
    reversed every other round (a drift of the load within a round falls on both sides of
    a pair alike, on average): each side's slices in round order."""
    names = list(sides)
    out: dict[str, list[Slice]] = {name: [] for name in names}
    for n in range(slices):
        for name in names if n % 2 == 0 else reversed(names):
            out[name].append(sides[name](seconds))
    return out


def paired_ratios(engine: list[Slice], peer: list[Slice]) -> list[float]:
    """The engine's rate over the peer's, round by round."""
    return [e.rate / p.rate for e, p in zip(engine, peer, strict=True)]


def peer_checkout() -> Path | None:
    """The peer's checkout named by $COMPANION_PEER, when it holds the peer."""
    where = os.environ.get("COMPANION_PEER")
    if not where:
        return None
    path = Path(where)
    return path if (path / "monopoly" / "core" / "game.py").is_file() else None


def _figures(prefix: str, ratios: list[float]) -> dict[str, Any]:
    """The median of the rounds' ratios, and their spread: least, quartiles, greatest."""
    q1, _median, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    return {
        prefix: round(statistics.median(ratios), 3),
        f"{prefix}_min": round(min(ratios), 3),
        f"{prefix}_q1": round(q1, 3),
        f"{prefix}_q3": round(q3, 3),
        f"{prefix}_max": round(max(ratios), 3),
    }


def run_bench(seconds: float = SECONDS, slices: int = SLICES) -> dict[str, Any]:
    """peer.player_turns_per_s and peer.moves_per_s (CPU time, over all its slices), its
    games, and the engines' paired ratios against it (`peer.plain_engine_ratio`, with
    `_min`, `_q1`, `_q3`, `_max`; `peer.compiled_engine_ratio` the same when the compiled
    engine is built), or peer.skipped. `seconds` is each side's CPU time over its
    `slices` slices."""
    from tools.bench.proc import CHECKOUT, child_env

    path = peer_checkout()
    if path is None:
        return {"peer.skipped": "no peer checkout: set COMPANION_PEER to a checkout of "
                                "gamescomputersplay/monopoly (docs/bench.md)"}
    per_slice = seconds / slices
    timeout = per_slice * 20 + 60
    peer_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    children = {
        "peer": SliceChild(_PEER_DRIVER, path, peer_env, timeout),
        "plain": SliceChild(_ENGINE_DRIVER, CHECKOUT, child_env({"COMPANION_PURE": "1"}),
                            timeout),
        "compiled": SliceChild(_ENGINE_DRIVER, CHECKOUT, child_env({"COMPANION_PURE": ""}),
                               timeout),
    }
    try:
        for child in children.values():
            child.ready()
        if not children["compiled"].hello.get("compiled"):
            children.pop("compiled").close()  # the same plain engine twice: not timed
        if children["plain"].hello.get("compiled"):
            raise RuntimeError("COMPANION_PURE=1 still loaded the compiled engine")
        runs = alternate({name: child.slice for name, child in children.items()},
                         slices, per_slice)
    finally:
        for child in children.values():
            child.close()
    peer = runs["peer"]
    turns = sum(s.turns for s in peer)
    cpu = sum(s.seconds for s in peer)
    plain = runs["plain"]
    out: dict[str, Any] = {
        "peer.player_turns_per_s": round(turns / cpu, 1),
        "peer.moves_per_s": round(sum(s.moves for s in peer) / cpu, 1),
        "peer.games": float(sum(s.games for s in peer)),
        "peer.slices": slices,
        "peer.slice_seconds": round(per_slice, 3),
        "peer.plain_player_turns_per_s": round(
            sum(s.turns for s in plain) / sum(s.seconds for s in plain), 1),
    }
    out |= _figures("peer.plain_engine_ratio", paired_ratios(plain, peer))
    if "compiled" in runs:
        compiled = runs["compiled"]
        out["peer.compiled_player_turns_per_s"] = round(
            sum(s.turns for s in compiled) / sum(s.seconds for s in compiled), 1)
        out |= _figures("peer.compiled_engine_ratio", paired_ratios(compiled, peer))
    return out


def ratios(results: dict[str, Any]) -> dict[str, Any]:
    """The engine part's rates over the peer's (each timed at its own moment of the run, so
    the machine's load drift is in them: the unpaired figures the paired ones replaced),
    when both parts ran."""
    peer = results.get("peer.player_turns_per_s")
    if not peer:
        return {}
    out: dict[str, Any] = {}
    plain = results.get("engine.plain_player_turns_per_s")
    if plain:
        out["peer.unpaired_plain_engine_ratio"] = round(plain / peer, 2)
    if results.get("engine.compiled") and results.get("engine.player_turns_per_s"):
        out["peer.unpaired_compiled_engine_ratio"] = round(
            results["engine.player_turns_per_s"] / peer, 2)
    return out
