"""`companion bench [--json]`: speed and memory benchmarks, one JSON object.

Each part of the companion contributes a `run_bench()`; parts that are not installed or
fail are reported under "errors" instead of stopping the others.
"""

from __future__ import annotations

import argparse
import importlib
import json
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
    return {
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


#: (name, module, function) of every benchmark part beyond the engine
PARTS: list[tuple[str, str, str]] = [
    ("journal", "tools.bench.journal", "run_bench"),
    ("screen", "tools.bench.screen", "run_bench"),
    ("rfid", "tools.bench.rfid", "run_bench"),
    ("web", "tools.bench.web", "run_bench"),
]


def main(argv: list[str]) -> int:
    """Entry point of `companion bench`."""
    parser = argparse.ArgumentParser(prog="companion bench", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", help="run only this part (engine, journal, screen, rfid, web)")
    parser.add_argument("--seconds", type=float, default=3.0, help="engine benchmark duration")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    errors: dict[str, str] = {}
    if args.only in (None, "engine"):
        results.update(engine_bench(args.seconds))
    for name, module_name, func in PARTS:
        if args.only not in (None, name):
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
    if errors:
        results["errors"] = errors
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for key, value in results.items():
            print(f"{key}: {value}")
    return 0
