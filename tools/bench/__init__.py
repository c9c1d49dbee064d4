"""`companion bench [--json]`: speed and memory benchmarks of the real path, one JSON object.

Each part contributes a `run_bench()`; the parts that time `companion run` start it as a
child process (docs/bench.md says what each figure measures). Parts that are not
installed or fail are reported under "errors" instead of stopping the others.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from companion import engine_build
from companion.bots import TURN_CAP, play_bot_game


def engine_bench(seconds: float = 3.0) -> dict[str, Any]:
    """Complete bot games for about `seconds` of CPU time: player turns per second.

    The rates divide by the CPU time this process used, which is what the engine costs;
    on a shared machine the wall-clock rate (also reported) drops whenever other work takes
    the core, and `engine.cpu_share` says how much of the wall time the bench had.
    """
    wall_start = time.perf_counter()
    start = time.process_time()
    turns = commands = games = capped = 0
    seed = 0
    while time.process_time() - start < seconds or games == 0:
        _g, t, c, cap = play_bot_game(seed)
        turns += t
        commands += c
        games += 1
        capped += cap
        seed += 1
    elapsed = time.process_time() - start
    wall = time.perf_counter() - wall_start
    return public_state_bench() | {
        "engine.player_turns_per_s": round(turns / elapsed, 1),
        "engine.commands_per_s": round(commands / elapsed, 1),
        "engine.player_turns_per_wall_s": round(turns / wall, 1),
        "engine.cpu_share": round(elapsed / wall, 3),
        "engine.compiled": engine_build.compiled(),
        "engine.build": engine_build.status,
        "engine.games": games,
        "engine.games_capped": capped,
        "engine.turn_cap": TURN_CAP,
    }


#: where "mid-game" is: commands into a 4-player classic bot game (as the fan-out's game)
MID_GAME = 400
#: consecutive states timed per game from MID_GAME on, games, and rounds over them all
STATES_PER_GAME = 10
STATE_GAMES = 20
STATE_ROUNDS = 5


def mid_game_states() -> list[Any]:
    """States of 4-player classic bot games from MID_GAME commands in: STATES_PER_GAME
    consecutive ones from each of STATE_GAMES games (seeds 0.., skipping any game that ended
    before; in practice none does)."""
    from companion.bots import Bots
    from companion.game.applying import apply_command
    from companion.rules import Accepted

    states: list[Any] = []
    seed = 0
    while len(states) < STATES_PER_GAME * STATE_GAMES and seed < 10 * STATE_GAMES:
        r = apply_command(None, {"do": "new_game", "edition": "classic-eur",
                                 "players": ["P1", "P2", "P3", "P4"], "seed": seed})
        seed += 1
        assert isinstance(r, Accepted)
        g, bots, run = r.state, Bots(), []
        for n in range(MID_GAME + STATES_PER_GAME):
            if g.winner >= 0:
                break
            if n >= MID_GAME:
                run.append(g)
            step = apply_command(g, bots.choose(g))
            assert isinstance(step, Accepted)
            g = step.state
        if len(run) == STATES_PER_GAME:
            states.extend(run)
    return states


def public_state_bench() -> dict[str, Any]:
    """Per call, CPU time: the public state JSON with its legal commands, as every commit
    builds it for the screen and the phones (`state_json`), and `legal_commands` alone,
    on mid-game states; every state once per round, STATE_ROUNDS rounds."""
    from companion.game.applying import state_json
    from companion.rules import legal_commands
    from tools.bench.journal import percentile

    states = mid_game_states()
    clock = time.process_time_ns
    whole: list[float] = []
    legal: list[float] = []
    for _ in range(STATE_ROUNDS):
        for g in states:
            t0 = clock()
            state_json(g)
            t1 = clock()
            legal_commands(g)
            t2 = clock()
            whole.append((t1 - t0) / 1e6)
            legal.append((t2 - t1) / 1e6)
    return {
        "engine.public_state_ms_p50": round(percentile(whole, 0.5), 4),
        "engine.public_state_ms_p99": round(percentile(whole, 0.99), 4),
        "engine.legal_ms_p50": round(percentile(legal, 0.5), 4),
        "engine.legal_ms_p99": round(percentile(legal, 0.99), 4),
        "engine.public_state_samples": len(whole),
    }


def engines_bench(seconds: float = 3.0) -> dict[str, Any]:
    """engine_bench in two fresh processes, one after the other: the engine this checkout
    loads (compiled when built) and the plain-Python one (COMPANION_PURE=1), with the ratio
    of their CPU-time rates."""
    from tools.bench.proc import CHECKOUT, child_env

    def one(env: dict[str, str]) -> dict[str, Any]:
        code = "import json, sys; from tools.bench import engine_bench; " \
               "print(json.dumps(engine_bench(float(sys.argv[1]))))"
        done = subprocess.run([sys.executable, "-c", code, str(seconds)], cwd=CHECKOUT,
                              env=child_env(env), capture_output=True, text=True, check=True,
                              timeout=seconds * 10 + 60)
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return result

    default = one({"COMPANION_PURE": ""})
    plain = one({"COMPANION_PURE": "1"})
    out = dict(default)
    out["engine.plain_player_turns_per_s"] = plain["engine.player_turns_per_s"]
    out["engine.plain_cpu_share"] = plain["engine.cpu_share"]
    for key in ("public_state_ms_p50", "public_state_ms_p99", "legal_ms_p50", "legal_ms_p99",
                "public_state_samples"):
        out[f"engine.plain_{key}"] = plain[f"engine.{key}"]
    out["engine.compiled_to_plain_ratio"] = round(
        default["engine.player_turns_per_s"] / plain["engine.player_turns_per_s"], 2) \
        if default["engine.compiled"] else None
    return out


#: (name, module, function) of every benchmark part beyond the engine
PARTS: list[tuple[str, str, str]] = [
    ("journal", "tools.bench.journal", "run_bench"),
    ("resume", "tools.bench.resume", "run_bench"),
    ("run", "tools.bench.run", "run_bench"),
    ("press", "tools.bench.press", "run_bench"),
    ("fanout", "tools.bench.fanout", "run_bench"),
    ("rfid", "tools.bench.rfid", "run_bench"),
    ("web", "tools.bench.web", "run_bench"),
    ("pi", "tools.bench.pi", "run_bench"),
    ("peer", "tools.bench.peer", "run_bench"),
    ("speech", "tools.bench.speech", "run_bench"),
]
NAMES = ["engine"] + [name for name, _m, _f in PARTS]
#: old part names: the screen's stand-in gave way to the real window's parts
ALIASES = {"screen": ("press", "run")}


def main(argv: list[str]) -> int:
    """Entry point of `companion bench`."""
    parser = argparse.ArgumentParser(prog="companion bench", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", metavar="PART[,PART]",
                        help="run only these parts: " + ", ".join(NAMES))
    parser.add_argument("--seconds", type=float, default=3.0, help="engine benchmark duration")
    args = parser.parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # stdout is the JSON alone
    only = {part for name in args.only.split(",") for part in ALIASES.get(name, (name,))} \
        if args.only else set(NAMES)
    if only - set(NAMES):
        parser.error(f"--only: unknown part {', '.join(sorted(only - set(NAMES)))}; "
                     f"the parts are {', '.join(NAMES)}")
    results: dict[str, Any] = {}
    errors: dict[str, str] = {}
    started = time.perf_counter()
    if "engine" in only:
        try:
            results.update(engines_bench(args.seconds))
        except (subprocess.SubprocessError, ValueError, KeyError) as exc:
            errors["engine"] = f"{type(exc).__name__}: {exc}"
    for name, module_name, func in PARTS:
        if name not in only:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                errors[name] = "not available in this version yet"
                continue
            raise
        run: Callable[[], dict[str, Any]] = getattr(module, func)
        try:
            results.update(run())
        except Exception as exc:  # a failing part is reported, the others still run
            errors[name] = f"{type(exc).__name__}: {exc}"
    from tools.bench.peer import ratios

    results.update(ratios(results))  # the engine part against the peer, unpaired
    results["bench.seconds"] = round(time.perf_counter() - started, 1)
    if errors:
        results["errors"] = errors
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for key, value in results.items():
            print(f"{key}: {value}")
    return 0
