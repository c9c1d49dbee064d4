"""`companion bench` part "pi": how many times slower a Raspberry Pi Zero 2 W runs the
companion's Python than this machine, derived from a published run of one CPython loop on
a Pi 3 and this machine's run of the same loop (docs/bench.md, "The Pi factor").

The loop is alexdedyura/cpu-benchmark's single-core loop as of its commit 1d19ded
(2024-03-30): per iteration, a float times 2**x for x from 1 to 999, then x as a float
divided by the float for x from 1 to 9 999, then the float divided by x for the same x;
10 000 iterations make one published "repeat". Written here again (not copied), timed by
this process's CPU time, a twentieth of a repeat at a time, the best of three, scaled to a
repeat. A Zero 2 W has the Pi 3's core (Cortex-A53) at 1.0 GHz instead of 1.4 (Pi 3 B+)
or 1.2 GHz (Pi 3 B): the published seconds are scaled by those clocks.
"""

from __future__ import annotations

import time
from typing import Any

#: the float the loop multiplies and divides by
FACTOR = 3.141592
#: iterations in one published repeat, and in one timed run here
REPEAT = 10_000
RUN = 500
RUNS = 3
#: published seconds per repeat: (board, its clock in GHz, seconds, where)
PUBLISHED = (
    ("pi_3b_plus", 1.4, 245.0,
     "github.com/alexdedyura/cpu-benchmark/issues/20: Pi 3 B+, Python 3.11.2, 2024-04-20"),
    ("pi_3b", 1.2, 126.469,
     "github.com/alexdedyura/cpu-benchmark README: 'Docker on RPI 3B' (Python not said)"),
)
ZERO_2W_GHZ = 1.0


def published_loop(iterations: int) -> None:
    """The published loop, `iterations` of it (the results are dropped, as there)."""
    c = FACTOR
    for _ in range(iterations):
        for x in range(1, 1000):
            c * 2**x
        for x in range(1, 10000):
            float(x) / c
        for x in range(1, 10000):
            float(c) / x


def loop_seconds(run: int = RUN, runs: int = RUNS) -> float:
    """CPU seconds this process takes for one published repeat (the best of `runs` runs
    of `run` iterations, scaled)."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        published_loop(run)
        best = min(best, time.process_time() - start)
    return best * REPEAT / run


def run_bench() -> dict[str, Any]:
    """pi.*: this machine's seconds per repeat, and each published board's factor, as it
    is and scaled to a Zero 2 W's clock."""
    here = loop_seconds()
    out: dict[str, Any] = {"pi.loop_s_here": round(here, 2)}
    for name, ghz, seconds, _where in PUBLISHED:
        out[f"pi.{name}_factor"] = round(seconds / here, 1)
        out[f"pi.zero_2w_factor_from_{name}"] = round(seconds / here * ghz / ZERO_2W_GHZ, 1)
    return out
