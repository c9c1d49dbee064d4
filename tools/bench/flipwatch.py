"""`python -m tools.bench.flipwatch FD run ARGS...`: the real `companion run`, with every
flipped frame reported on file descriptor FD for the benchmarks.

Nothing of the companion is replaced: `ScreenLoop.draw` is wrapped so that after it one
line goes to FD, "F TIME VERSION KEY MS CPU AFTER DRAWN FOLLOW VERB": the
time (time.monotonic(), the same clock in every process of this machine), the version of
the state the frame showed, the key a table would press now (from the screen's own prompt,
`_key_for`; "-" if no button sends a command), how long the draw (render and flip) took, and the
process's CPU time (time.process_time_ns(): every thread's, ns) right after the flip
(`display.flip` and `display.update` are wrapped to read the time and the CPU as they
return, before the loop lets the session's held work go, which would otherwise run on
another core before the reading; until issue 28's writer round the reading came after
`ScreenLoop.draw`) and again once this report's own work (the prompt's key) is done,
just before the line is written (a benchmark takes the CPU from one frame's AFTER to a
later frame's CPU), and the process's CPU time during the draw (ns: the render and the
flip, with whatever another thread ran meanwhile), and FOLLOW: 1 when the loop draws
another frame at once for the same updates (the frame showed the result first and left the
board, the cards or the recent moves for the next one, issue 28), else 0, and VERB: what
KEY does (the command's verb, "sold" for the banker's gavel, "-").
`ScreenLoop.handle` is wrapped too: "K TIME" when the loop has taken a key press from
SDL, so that a benchmark can tell the wait for the loop to see a key from the work after
it; and the session's
`submit`: "S START END" around each command the screen sends (the engine, the journal and
its fsyncs), the part of a press the disk decides. Those two are noted in memory and
written just before the next frame's line, after its flip (until issue 28's eleventh
round each was written at once, inside the press's timed window).

With COMPANION_BENCH_THREADS=1 in its environment (`python -m tools.bench.press
--threads`, a probe, never the bench's own figures) each frame's line is preceded by
"T TID:NAME:NS,...": every thread's time on a CPU so far (the Python threads' CPU-time
clocks read at the flip, the others' /proc/self/task/TID/schedstat after it), so that a
benchmark can tell which thread spent a press's CPU. Reading them costs the process about
a millisecond a frame, after the flip.

With COMPANION_BENCH_PROFILE=FILE (`python -m tools.bench.press --profile FILE`, a probe
too: the profiler slows the profiled Python two- to threefold) a deterministic profiler
(cProfile, timed by the loop thread's own CPU clock) runs on the screen loop's thread
only, from the moment `ScreenLoop.handle` takes a key press to the end of the flip of the
frame after it, one window a press (a key typed while no frame was flipped yet widens
that press's window); its statistics are written to FILE (`pstats`) every 25 windows and
at exit, and FILE.switches gets one line per window: the loop thread's voluntary and
involuntary context switches in it and the whole process's voluntary ones (getrusage:
each voluntary one is a thread going to sleep, on a futex, a pipe or the disk), then
each thread's voluntary ones in it by name (/proc/self/task/*/status, read outside the
profiled span). COMPANION_BENCH_SWITCHES=FILE (`--switches FILE`): the same counts
into FILE.switches without the profiler (the window as long as `companion run`'s).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

#: the purchases the bench declines: those offered at a state whose version is a multiple of
#: this (about a third of them), as a table declines some and auctions them
DECLINE_EVERY = 3


def _key_for(controller: Any, keys: dict[str, str]) -> tuple[str, str]:
    """The key a table presses next, from the screen's own prompt, and what it does (the
    command's verb, "sold" for the banker's gavel); ("-", "-") when no button sends a
    command. The first action that sends a command, except: a purchase is declined (NO) at
    every DECLINE_EVERY-th version, which opens the auction, where the table's player
    bids (YES) and the banker's gavel closes it at once (PASS GO, "Sold": the bench's table
    has no banker PIN and no phones, so nobody else bids). Until issue 28's 2026-11-29
    midday round the bench pressed the first button only, never NO at a purchase nor an
    auction: the presses a table makes that the screen had not prepared ahead."""
    from companion.game.authority import as_json

    try:
        prompt = controller.current_prompt()
        version = int((controller.state or {}).get("version") or 0)
    except Exception:  # the prompt is the screen's business; the bench just waits
        return "-", "-"
    acts = [a for a in prompt.actions if a.button in keys
            and (a.command is not None or a.ui == "sold")]
    verbs = ["sold" if a.command is None else str(as_json(a.command).get("do")) for a in acts]
    if "sold" in verbs:
        chosen = verbs.index("sold")
    elif "decline" in verbs and "buy" in verbs and version % DECLINE_EVERY == 0:
        chosen = verbs.index("decline")
    else:
        chosen = next((i for i, verb in enumerate(verbs) if verb != "sold"), -1)
    if chosen < 0:
        return "-", "-"
    return keys[acts[chosen].button], verbs[chosen]


def _python_threads() -> dict[int, int]:
    """Each Python thread's CPU time so far (ns) by its kernel id: cheap enough to read at
    the flip itself."""
    import threading

    out = {}
    for thread in threading.enumerate():
        if thread.ident is None or thread.native_id is None:
            continue
        try:
            out[thread.native_id] = time.clock_gettime_ns(
                time.pthread_getcpuclockid(thread.ident))
        except OSError:  # it ended meanwhile
            continue
    return out


def _threads(at_flip: dict[int, int]) -> str:
    """Every thread of this process as TID:NAME:NS (its time on a CPU so far: the Python
    threads' as read at the flip, `at_flip`), comma separated: Python's threads by their
    names, the others by the kernel's."""
    import threading

    names = {t.native_id: t.name for t in threading.enumerate()}
    out = []
    for tid in os.listdir("/proc/self/task"):
        try:
            if int(tid) in at_flip:
                ran = str(at_flip[int(tid)])
            else:
                with open(f"/proc/self/task/{tid}/schedstat", encoding="ascii") as f:
                    ran = f.read().split()[0]
            name = names.get(int(tid))
            if name is None:
                with open(f"/proc/self/task/{tid}/comm", encoding="ascii") as f:
                    name = f.read().strip()
        except OSError:  # a thread that ended meanwhile
            continue
        out.append(f"{tid}:{name.replace(',', ' ').replace(':', ' ')}:{ran}")
    return ",".join(out).replace(" ", "_")


class _Window:
    """The probe of COMPANION_BENCH_PROFILE: a profiler on the loop's thread from a key
    taken to the next flip, and the context switches in that window."""

    def __init__(self, path: str, profile: bool = True) -> None:
        import cProfile

        self.path = path
        self.profile = cProfile.Profile(time.thread_time_ns, 1e-9) if profile else None
        self.on = False
        self.windows = 0
        self.at_key: tuple[int, int, int] = (0, 0, 0)
        self.tasks: dict[int, int] = {}
        self.switches: list[str] = []

    @staticmethod
    def _tasks() -> dict[int, int]:
        """Each thread's voluntary context switches so far, by its kernel id."""
        out = {}
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/status", encoding="ascii") as f:
                    for line in f:
                        if line.startswith("voluntary_ctxt_switches"):
                            out[int(tid)] = int(line.split()[1])
            except OSError:  # a thread that ended meanwhile
                continue
        return out

    @staticmethod
    def _counts() -> tuple[int, int, int]:
        import resource

        mine = resource.getrusage(resource.RUSAGE_THREAD)
        every = resource.getrusage(resource.RUSAGE_SELF)
        return mine.ru_nvcsw, mine.ru_nivcsw, every.ru_nvcsw

    def key(self) -> None:
        """A key taken on the loop's thread: the window opens (or stays open)."""
        if not self.on:
            self.tasks = self._tasks()
            self.at_key = self._counts()
            self.on = True
            if self.profile is not None:
                self.profile.enable()

    def flipped(self) -> None:
        """The flip returned on the loop's thread: the window closes."""
        if not self.on:
            return
        if self.profile is not None:
            self.profile.disable()
        self.on = False
        now = self._counts()
        import threading

        names = {t.native_id: t.name.split("-")[0] for t in threading.enumerate()}
        tasks = self._tasks()
        moved = " ".join(f"{names.get(tid, tid)}:{n - self.tasks.get(tid, 0)}"
                         for tid, n in sorted(tasks.items()) if n != self.tasks.get(tid, 0))
        self.switches.append(" ".join(str(b - a) for a, b in zip(self.at_key, now, strict=True))
                             + f" {moved}\n")
        self.windows += 1
        if self.windows % 25 == 0:
            self.dump()

    def dump(self) -> None:
        """The statistics so far to the file (after a flip, outside any window)."""
        if self.profile is not None:
            self.profile.dump_stats(self.path)
        with open(self.path + ".switches", "w", encoding="ascii") as f:
            f.write("".join(self.switches))


def install(fd: int) -> None:
    """Wrap ScreenLoop.draw and .handle to report flipped frames and taken keys on `fd`."""
    import pygame

    from companion.game.session import GameSession
    from companion.screen import app

    keys = {button: key for key, button in app.KEY_BUTTONS.items()}
    draw = app.ScreenLoop.draw
    handle = app.ScreenLoop.handle
    #: the "K" and "S" lines noted between two frames, written with the next frame's line
    #: (after its flip): a write to the pipe in the press's window cost the loop's thread
    #: a system call and the bench's wake-up each (issue 28's eleventh round), which
    #: `companion run` does not spend
    noted: list[str] = []

    profiled = os.environ.get("COMPANION_BENCH_PROFILE")
    counted = os.environ.get("COMPANION_BENCH_SWITCHES")
    window = _Window(profiled) if profiled else \
        _Window(counted, profile=False) if counted else None
    if window is not None:
        import atexit

        atexit.register(window.dump)

    def reporting_handle(self: Any, event: Any) -> bool:
        if event.type == pygame.KEYDOWN:
            noted.append(f"K {time.monotonic():.6f}\n")
            if window is not None:
                window.key()
        return bool(handle(self, event))

    by_thread = os.environ.get("COMPANION_BENCH_THREADS") == "1"
    #: the time, the process's CPU and (by_thread) the Python threads' as the last flip or
    #: display.update returned
    flip: list[Any] = [0.0, 0, {}]

    def at_flip(real: Any) -> Any:
        def flipping(*args: Any, **kwargs: Any) -> Any:
            out = real(*args, **kwargs)
            if window is not None:
                window.flipped()
            flip[0], flip[1] = time.monotonic(), time.process_time_ns()
            if by_thread:
                flip[2] = _python_threads()
            return out
        return flipping

    pygame.display.flip = at_flip(pygame.display.flip)
    pygame.display.update = at_flip(pygame.display.update)

    def reporting_draw(self: Any) -> None:
        began, drawing = time.monotonic(), time.process_time_ns()
        flip[0] = 0.0
        draw(self)
        if flip[0]:
            flipped, cpu = flip[0], flip[1]
        else:  # nothing reached the screen: the draw's end
            flipped, cpu = time.monotonic(), time.process_time_ns()
        count = len(noted)  # a line noted meanwhile by another thread stays for the next
        lines = "".join(noted[:count])
        del noted[:count]
        if by_thread:
            lines += f"T {_threads(flip[2] if flip[0] else {})}\n"
        if lines:
            os.write(fd, lines.encode())
        state = self.controller.state or {}
        key, verb = _key_for(self.controller, keys)
        line = (f"F {flipped:.6f} {int(state.get('version') or 0)} {key} "
                f"{(flipped - began) * 1000:.3f} {cpu} ")
        follow = int(bool(getattr(self, "follow_up", False)))
        os.write(fd, f"{line}{time.process_time_ns()} {cpu - drawing} {follow} {verb}\n"
                 .encode())

    submit = GameSession.submit

    def reporting_submit(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts = getattr(self, "ahead_counts", None)
        used = counts()[1] if counts is not None else 0
        began = time.monotonic()
        out = submit(self, *args, **kwargs)
        ended = time.monotonic()
        # whether the writer took the command's result worked out ahead (companion.game.ahead)
        hit = int(counts is not None and counts()[1] > used)
        noted.append(f"S {began:.6f} {ended:.6f} {hit}\n")
        return out

    GameSession.submit = reporting_submit  # type: ignore[method-assign]
    app.ScreenLoop.draw = reporting_draw  # type: ignore[method-assign]
    app.ScreenLoop.handle = reporting_handle  # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    """Install the report on FD, then run the companion's own command line."""
    from companion.app.cli import main as companion_main

    install(int(argv[0]))
    return companion_main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
