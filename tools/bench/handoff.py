"""`python -m tools.bench.handoff`: what a thread hand-off of a press costs on this machine
(a probe for docs/bench.md's twelfth press round, issue 28): each thread's CPU time per
operation, in loops of `N`.

- a byte written into a non-blocking pipe nobody waits on (the screen's `wake()` from the
  session's writer while the loop is not asleep in its select);
- a command's round trip: a queue put that wakes a thread asleep in `get`, then a sleep on
  an Event until that thread sets it (the screen's press and the session's writer), the
  submitter's CPU (less a 0.2 ms sleep of its own between rounds, measured apart) and the
  woken thread's;
- a `Condition.notify_all` nobody waits on (`FirstFrame.shown` with nobody held).
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time

N = 3000
PAUSE_S = 0.0002


def _pipe_write_us() -> float:
    read, write = os.pipe()
    os.set_blocking(write, False)
    os.set_blocking(read, False)
    began = time.thread_time_ns()
    for i in range(N):
        os.write(write, b"!")
        if i % 1000 == 999:
            os.read(read, 65536)
    spent = (time.thread_time_ns() - began) / N / 1e3
    os.close(read)
    os.close(write)
    return spent


def _pause_us() -> float:
    began = time.thread_time_ns()
    for _ in range(N):
        time.sleep(PAUSE_S)
    return (time.thread_time_ns() - began) / N / 1e3


def _round_trip_us() -> tuple[float, float]:
    jobs: queue.Queue[threading.Event | None] = queue.Queue()

    def writer() -> None:
        while (job := jobs.get()) is not None:
            job.set()

    thread = threading.Thread(target=writer, name="writer")
    thread.start()
    time.sleep(0.05)
    assert thread.ident is not None
    clock = time.pthread_getcpuclockid(thread.ident)
    theirs, mine = time.clock_gettime_ns(clock), time.thread_time_ns()
    for _ in range(N):
        done = threading.Event()
        jobs.put(done)
        done.wait()
        time.sleep(PAUSE_S)  # the writer back asleep in get() before the next round
    mine_us = (time.thread_time_ns() - mine) / N / 1e3
    theirs_us = (time.clock_gettime_ns(clock) - theirs) / N / 1e3
    jobs.put(None)
    thread.join()
    return mine_us, theirs_us


def _notify_us() -> float:
    cond = threading.Condition()
    began = time.thread_time_ns()
    for _ in range(N):
        with cond:
            cond.notify_all()
    return (time.thread_time_ns() - began) / N / 1e3


def main() -> int:
    """Print each operation's CPU per call (µs) as JSON."""
    pause = _pause_us()
    mine, theirs = _round_trip_us()
    print(json.dumps({
        "handoff.pipe_write_us": round(_pipe_write_us(), 2),
        "handoff.round_trip_submitter_us": round(mine - pause, 2),
        "handoff.round_trip_woken_us": round(theirs, 2),
        "handoff.notify_nobody_us": round(_notify_us(), 2),
    }, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
