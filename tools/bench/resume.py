"""`companion bench` part "resume": process start of a real `companion run --headless` to
its first HTTP answer, and (under Xvfb) of a windowed `companion run` to its first flipped
frame, on a long saved game and on a one-command game, and the ratios.

Both saved games are written through the session API (bot commands); the starts alternate
long, short, long, ... after an untimed start of each (the first start on a data directory
compiles the phones' page templates), so that the machine's load falls alike on both.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path
from typing import Any

from tools.bench.journal import build_journal
from tools.bench.proc import Companion, Xvfb, have_xvfb

LONG = 10_000
STARTS = 5


def first_answer_ms(data_dir: Path) -> float:
    """One start of `companion run --headless` on `data_dir`: ms to its first HTTP answer."""
    with Companion(data_dir) as child:
        return child.first_answer_s() * 1000


def first_frame_ms(data_dir: Path, display: str) -> float:
    """One start of a windowed `companion run` on `data_dir`: ms to its first flip."""
    import os

    from tools.bench.press import windowed

    child, frames, fd = windowed(data_dir, display)
    try:
        first = frames.next(60)
        if first is None:
            raise RuntimeError("no first frame: " + " | ".join(child.errors[-5:]))
        return (first[0] - child.started) * 1000
    finally:
        child.stop()
        os.close(fd)


def _windowed(long_dir: Path, short_dir: Path, starts: int) -> dict[str, Any]:
    if not have_xvfb():
        return {"resume.first_frame.skipped": "no Xvfb"}
    xvfb = Xvfb()
    try:
        first_frame_ms(long_dir, xvfb.display)  # untimed, as for the headless starts
        long_ms: list[float] = []
        short_ms: list[float] = []
        for _ in range(starts):
            long_ms.append(first_frame_ms(long_dir, xvfb.display))
            short_ms.append(first_frame_ms(short_dir, xvfb.display))
    finally:
        xvfb.close()
    long_p50, short_p50 = statistics.median(long_ms), statistics.median(short_ms)
    return {
        "resume.first_frame_ms": round(long_p50, 1),
        "resume.first_frame_short_ms": round(short_p50, 1),
        "resume.first_frame_ratio": round(long_p50 / short_p50, 3),
    }


def run_bench(long: int = LONG, starts: int = STARTS) -> dict[str, Any]:
    """resume.first_answer_ms (and first_frame_ms) of a `long`-command game and of a
    one-command game, `starts` starts of each."""
    with tempfile.TemporaryDirectory(prefix="companion-resume-") as tmp:
        long_dir, short_dir = Path(tmp, "long"), Path(tmp, "short")
        build_journal(long_dir, long, seed=1)
        build_journal(short_dir, 1, seed=1)
        long_ms: list[float] = []
        short_ms: list[float] = []
        first_answer_ms(long_dir)  # untimed: the files and Python's modules into the page cache
        # untimed too: a data directory's first start compiles the phones' page templates
        # and keeps them (web_remote/template_cache.py), as a table's first start does once
        first_answer_ms(short_dir)
        for _ in range(starts):
            long_ms.append(first_answer_ms(long_dir))
            short_ms.append(first_answer_ms(short_dir))
        window = _windowed(long_dir, short_dir, starts)
    long_p50, short_p50 = statistics.median(long_ms), statistics.median(short_ms)
    return window | {
        "resume.first_answer_ms": round(long_p50, 1),
        "resume.first_answer_short_ms": round(short_p50, 1),
        "resume.first_answer_ratio": round(long_p50 / short_p50, 3),
        "resume.commands": float(long),
        "resume.starts": float(starts),
    }
