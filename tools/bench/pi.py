"""`companion bench` part "pi": how many times slower a Raspberry Pi Zero 2 W runs the
companion's Python than this machine, derived from a published run of one CPython loop on
a Pi 3 and this machine's run of the same loop (docs/bench.md, "The Pi factor").

The loop is alexdedyura/cpu-benchmark's single-core loop as of its commit 1d19ded
(2024-03-30): per iteration, a float times 2**x for x from 1 to 999, then x as a float
divided by the float for x from 1 to 9 999, then the float divided by x for the same x;
10 000 iterations make one published "repeat". Written here again (not copied), timed by
CPU time, each of its two parts (the big-integer powers, the float divisions) on its own,
a twentieth of a repeat at a time, the best of three, scaled to a repeat. A Zero 2 W has
the Pi 3's core (Cortex-A53) at 1.0 GHz instead of 1.4 (Pi 3 B+) or 1.2 GHz (Pi 3 B): the
published seconds are scaled by those clocks.

The published Pi 3 B+ run used Debian's Python 3.11.2 (Bookworm's, which a Pi installs the
companion with); the bench's venv here is another build of 3.11 (pyenv's: a shared
libpython, no profile-guided optimisation), which runs this loop 1.6-1.8x slower than
Debian's build on the same machine. So the factor is taken build to build: the Pi's seconds
over this machine's seconds in Debian's build (`/usr/bin/python3.11`, a child process).
The companion's move, timed here in both builds (docs/bench.md, "The Pi factor, again"),
was 1.0-1.15x faster in Debian's: the factor to plan with applies the same-build factor to
the venv's CPU unchanged, the least favourable reading. How much faster Debian's build
plays the plain engine (children of both) is reported too, with the factor for that kind
of pure-Python work (about 1.3x smaller).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
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
     "github.com/alexdedyura/cpu-benchmark/issues/20: Pi 3 B+, Python 3.11.2, "
     "kernel 6.6.20+rpt-rpi-v8 (64-bit Bookworm), 2024-04-20"),
    ("pi_3b", 1.2, 126.469,
     "github.com/alexdedyura/cpu-benchmark README: 'Docker on RPI 3B' (Python not said)"),
)
ZERO_2W_GHZ = 1.0
#: the Python a Pi's Bookworm runs the companion with (deploy/install.sh: /usr/bin/python3)
DEBIAN_PYTHON = Path("/usr/bin/python3.11")
#: CPU seconds of bot games per engine run, and runs per build (alternating)
ENGINE_SECONDS = 1.5
ENGINE_ROUNDS = 2
CHECKOUT = Path(__file__).resolve().parents[2]


def powers(iterations: int) -> None:
    """The loop's first part, `iterations` of it: a float times 2**x (big integers)."""
    c = FACTOR
    for _ in range(iterations):
        for x in range(1, 1000):
            c * 2**x


def divisions(iterations: int) -> None:
    """The loop's other two parts: x as a float over the float, the float over x."""
    c = FACTOR
    for _ in range(iterations):
        for x in range(1, 10000):
            float(x) / c
        for x in range(1, 10000):
            float(c) / x


def published_loop(iterations: int) -> None:
    """The published loop, `iterations` of it (the results are dropped, as there)."""
    for _ in range(iterations):
        powers(1)
        divisions(1)


def part_seconds(part: Any, run: int = RUN, runs: int = RUNS) -> float:
    """CPU seconds this process takes for one repeat's worth of `part` (the best of `runs`
    runs of `run` iterations, scaled)."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        part(run)
        best = min(best, time.process_time() - start)
    return best * REPEAT / run


def loop_parts(run: int = RUN, runs: int = RUNS) -> tuple[float, float]:
    """CPU seconds of one published repeat's two parts here: (powers, divisions)."""
    return part_seconds(powers, run, runs), part_seconds(divisions, run, runs)


def loop_seconds(run: int = RUN, runs: int = RUNS) -> float:
    """CPU seconds this process takes for one published repeat (its two parts, each the
    best of `runs` runs of `run` iterations, scaled)."""
    return sum(loop_parts(run, runs))


def _child(python: str, code: str, timeout: float) -> Any:
    """Run `code` in a fresh `python` with this checkout on its path and the plain engine;
    its last line of output, as JSON."""
    env = dict(os.environ, COMPANION_PURE="1", COMPANION_LOG="WARNING")
    env["PYTHONPATH"] = os.pathsep.join([str(CHECKOUT)] + [
        p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    done = subprocess.run([python, "-c", code], cwd=CHECKOUT, env=env, capture_output=True,
                          text=True, check=True, timeout=timeout)
    return json.loads(done.stdout.strip().splitlines()[-1])


def debian_python() -> str | None:
    """Debian's Python 3.11 here, when this machine has it (the Pi's build)."""
    if not DEBIAN_PYTHON.exists():
        return None
    version = subprocess.run([str(DEBIAN_PYTHON), "-c",
                              "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
                             capture_output=True, text=True, check=False, timeout=30)
    return version.stdout.strip() if version.returncode == 0 and \
        version.stdout.startswith("3.11.") else None


def engine_rate(python: str, seconds: float = ENGINE_SECONDS) -> float:
    """The plain engine's bot games in `python`, player turns per CPU second."""
    code = ("import json, sys; from tools.bench import engine_bench; "
            f"print(json.dumps(engine_bench({seconds!r})['engine.player_turns_per_s']))")
    return float(_child(python, code, seconds * 10 + 60))


def debian_figures(python: str) -> dict[str, float]:
    """The loop in Debian's build (a child), and how much faster that build runs the plain
    engine than this process's (children of both, alternating)."""
    loop = float(_child(python, "import json; from tools.bench.pi import loop_parts; "
                                "print(json.dumps(sum(loop_parts())))", 600))
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(ENGINE_ROUNDS):
        mine.append(engine_rate(sys.executable))
        theirs.append(engine_rate(python))
    return {"loop": loop, "engine_ratio": sum(theirs) / sum(mine)}


def factors(here: float, debian: dict[str, float] | None) -> dict[str, Any]:
    """pi.* from this machine's seconds per repeat (the venv) and, when there, Debian's."""
    out: dict[str, Any] = {}
    for name, ghz, seconds, _where in PUBLISHED:
        out[f"pi.{name}_factor"] = round(seconds / here, 1)
        out[f"pi.zero_2w_factor_from_{name}"] = round(seconds / here * ghz / ZERO_2W_GHZ, 1)
        if debian is None:
            out[f"pi.zero_2w_same_build_factor_from_{name}"] = None
            out[f"pi.zero_2w_engine_factor_from_{name}"] = None
            continue
        same = seconds / debian["loop"] * ghz / ZERO_2W_GHZ
        out[f"pi.zero_2w_same_build_factor_from_{name}"] = round(same, 1)
        # for the plain engine's kind of work timed in the venv: its build runs that
        # slower than Debian's, so less of a Pi's time is left to multiply by
        out[f"pi.zero_2w_engine_factor_from_{name}"] = round(same / debian["engine_ratio"], 1)
    # the one to plan with (docs/bench.md, "The Pi factor"): the Pi 3 B+ run's, build to
    # build, applied to the venv's CPU as it is (the companion's move gained 1.0-1.15x in
    # Debian's build here: not dividing by that is the least favourable reading)
    out["pi.zero_2w_factor"] = out["pi.zero_2w_same_build_factor_from_pi_3b_plus"]
    return out


def run_bench() -> dict[str, Any]:
    """pi.*: this machine's seconds per repeat (each part, the venv's build and Debian's),
    the two builds' speed on the plain engine, and each published board's factors."""
    powers_s, divisions_s = loop_parts()
    here = powers_s + divisions_s
    out: dict[str, Any] = {"pi.loop_s_here": round(here, 2),
                           "pi.loop_powers_s_here": round(powers_s, 2),
                           "pi.loop_divisions_s_here": round(divisions_s, 2)}
    python: str | None = None
    debian: dict[str, float] | None = None
    try:
        python = debian_python()
        if python:
            debian = debian_figures(str(DEBIAN_PYTHON))
    except (subprocess.SubprocessError, OSError, ValueError) as exc:
        # the venv's figures still stand; the factor to plan with is then null
        out["pi.debian_error"] = f"{type(exc).__name__}: {exc}"[:300]
    out["pi.debian_python"] = python
    out["pi.loop_s_debian"] = round(debian["loop"], 2) if debian else None
    out["pi.loop_venv_to_debian"] = round(here / debian["loop"], 2) if debian else None
    out["pi.engine_debian_to_venv"] = round(debian["engine_ratio"], 2) if debian else None
    out.update(factors(here, debian))
    return out
