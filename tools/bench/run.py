"""`companion bench` part "run": memory, idle CPU, threads and wake-ups of the real
`companion run` process, headless and in a window under Xvfb, read from /proc.

Each figure is of a process started for it on a short saved game (a game in progress),
not its first start there (`run.headless.first_start_rss_mb` is that one's memory), left
at rest for IDLE_SECONDS after its first HTTP answer (headless) or its first settled frame
(windowed); nothing talks to it meanwhile.
"""

from __future__ import annotations

import select
import tempfile
from pathlib import Path
from typing import Any

from tools.bench.journal import build_journal
from tools.bench.proc import (
    Companion,
    Idle,
    Xvfb,
    gl_loaded,
    have_xvfb,
    measure_idle,
    memory_mb,
)

IDLE_SECONDS = 5.0
SETTLE_SECONDS = 2.0  # after the first answer: the window's first frames, the threads start


def _figures(prefix: str, child: Companion, idle_s: float, settle_s: float) -> dict[str, Any]:
    select.select([], [], [], settle_s)
    idle: Idle = measure_idle(child.pid, idle_s)
    rss, hwm = memory_mb(child.pid)
    return {
        f"{prefix}.rss_mb": round(rss, 1),
        f"{prefix}.hwm_mb": round(hwm, 1),
        f"{prefix}.gl_loaded": gl_loaded(child.pid),
        f"{prefix}.idle_cpu_percent": round(idle.cpu_percent, 2),
        f"{prefix}.threads": float(idle.threads),
        f"{prefix}.wakeups_per_s": round(idle.wakeups_per_s, 1),
        f"{prefix}.busiest_thread": idle.busiest_thread,
        f"{prefix}.busiest_thread_wakeups_per_s": round(idle.busiest_wakeups_per_s, 1),
        f"{prefix}.threads_over_10_wakeups_per_s": float(idle.threads_over_10_per_s),
    }


def run_bench(idle_s: float = IDLE_SECONDS, settle_s: float = SETTLE_SECONDS) -> dict[str, Any]:
    """run.headless.* always; run.window.* under Xvfb, else run.window.skipped."""
    out: dict[str, Any] = {"run.idle_seconds": idle_s}
    with tempfile.TemporaryDirectory(prefix="companion-run-") as tmp:
        data_dir = Path(tmp, "data")
        build_journal(data_dir, 30, seed=3)
        # the first start on a data directory compiles the phones' page templates and keeps
        # them (web_remote/template_cache.py); every later start, the one measured, reads
        # them back
        with Companion(data_dir) as child:
            child.first_answer_s()
            select.select([], [], [], settle_s)
            out["run.headless.first_start_rss_mb"] = round(memory_mb(child.pid)[0], 1)
        with Companion(data_dir) as child:
            child.first_answer_s()
            out.update(_figures("run.headless", child, idle_s, settle_s))
        if not have_xvfb():
            out["run.window.skipped"] = "no Xvfb"
            return out
        xvfb = Xvfb()
        try:
            with Companion(data_dir, headless=False, env={"DISPLAY": xvfb.display},
                           extra_args=["--size", "800x480"]) as child:
                child.first_answer_s()
                out.update(_figures("run.window", child, idle_s, settle_s))
        finally:
            xvfb.close()
    return out
