"""`companion bench` part "press": a key press -> the first flipped frame that shows it,
through the real `companion run` in a real X window (Xvfb).

The companion runs as a child process under tools.bench.flipwatch (every flip reported
with its time and the state version it showed); the bench presses, through XTEST, the key
of the button the screen's prompt offers, and waits for the first frame of a newer
version: the whole real path (X event, SDL, the screen loop, the controller, the journaled
session, its listener, the redraw and flip) in between.
"""

from __future__ import annotations

import os
import select
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tools.bench.journal import build_journal, percentile
from tools.bench.proc import Companion, Xvfb, cpu_ns, have_xvfb, process_cpu_ns

SAMPLES = 250
#: after the timed presses: how many UNDOs are timed apart (`undo_presses`), and for how long
UNDOS = 8
UNDO_LIMIT_S = 30.0
WINDOW = "800x480"


class Frames:
    """The flip reports of tools.bench.flipwatch, read from a pipe with deadlines."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.last: tuple[float, int, str] = (0.0, 0, "-")
        self.count = 0
        self.key_taken = 0.0  # when the loop last took a key press from SDL
        self.submitted = (0.0, 0.0)  # the last command the screen sent: (start, end)
        #: whether the session took that command's result worked out ahead
        self.hit = False
        self.draw_ms: list[float] = []  # every frame's render and flip
        #: the process's CPU time (ns) at the last frame's flip, and after its report
        self.cpu = (0, 0)
        self.draw_cpu_ns = 0  # the process's CPU during the last frame's draw
        #: the loop draws another frame at once after the last one (its result went first)
        self.follow = False
        #: what the key of the last frame does (its command's verb, "sold", "-")
        self.verb = "-"
        #: each thread's name and CPU time at the last frame's flip (a "T" line: --threads)
        self.threads: dict[int, tuple[str, int]] = {}

    def next(self, timeout: float) -> tuple[float, int, str] | None:
        """The next frame (time, version, key), or None when none came within `timeout`;
        key reports on the way are kept in `key_taken`."""
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                    return None
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    raise ConnectionError("the companion closed its frame reports")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            kind, *fields = line.decode().split()
            if kind == "K":
                self.key_taken = float(fields[0])
                continue
            if kind == "S":
                self.submitted = (float(fields[0]), float(fields[1]))
                self.hit = len(fields) > 2 and fields[2] == "1"
                continue
            if kind == "T":
                self.threads = {}
                for item in (fields[0].split(",") if fields else []):
                    tid, name, ran = item.rsplit(":", 2)
                    self.threads[int(tid)] = (name, int(ran))
                continue
            self.last = (float(fields[0]), int(fields[1]), fields[2])
            self.draw_ms.append(float(fields[3]))
            self.cpu = (int(fields[4]), int(fields[5]))
            self.draw_cpu_ns = int(fields[6])
            self.follow = len(fields) > 7 and fields[7] == "1"
            self.verb = fields[8] if len(fields) > 8 else "-"
            self.count += 1
            return self.last

    def newer(self, version: int, timeout: float = 5.0) -> tuple[float, int, str] | None:
        """The first frame showing a version newer than `version` (the frames before it
        read past), or None when none came within `timeout` of a frame."""
        while (frame := self.next(timeout)) is not None and frame[1] <= version:
            pass
        return frame

    def settle(self, quiet_s: float = 0.04, limit_s: float = 5.0) -> tuple[float, int, str]:
        """Read frames until none came for `quiet_s` (an animation ended); the last one."""
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline and self.next(quiet_s) is not None:
            pass
        return self.last


def windowed(data_dir: Path, display: str, threads: bool = False,
             profile: Path | None = None,
             switches: Path | None = None) -> tuple[Companion, Frames, int]:
    """`companion run` in a window on `display`, under the flip reporter (with `threads`,
    each frame's report says every thread's CPU time too)."""
    import sys

    read, write = os.pipe()
    env = {"DISPLAY": display}
    if threads:
        env["COMPANION_BENCH_THREADS"] = "1"
    if profile is not None:
        env["COMPANION_BENCH_PROFILE"] = str(profile.resolve())
    if switches is not None:
        env["COMPANION_BENCH_SWITCHES"] = str(switches.resolve())
    try:
        child = Companion(data_dir, headless=False, env=env,
                          extra_args=["--size", WINDOW], pass_fds=(write,),
                          prefix=[sys.executable, "-m", "tools.bench.flipwatch", str(write)])
    finally:
        os.close(write)
    return child, Frames(read), read


def run_bench(samples: int = SAMPLES, time_limit_s: float = 100.0,
              threads: bool = False, log: Path | None = None,
              profile: Path | None = None, switches: Path | None = None,
              undos_timed: int = UNDOS) -> dict[str, Any]:
    """press.flip_ms_p50/p99 over `samples` presses (fewer if `time_limit_s` runs out).
    With `threads` (a probe: reading every thread's time costs the companion CPU after each
    flip, so its other figures are not the bench's), also which thread spent the first
    frame's CPU: `press.first_frame_cpu_by_thread_ms`. With `log`, one JSON line per timed
    press goes to that file (the key, the version before, the first frame's CPU and draw,
    the last frame's CPU, each thread's share with `threads`): to find the slowest. With
    `profile` (a probe: the profiler slows the loop's Python), the loop's thread is
    profiled from each key to its first flip into that file (tools.bench.flipwatch); with
    `switches`, only the context switches in those windows are counted (FILE.switches)."""
    import ctypes.util

    if not have_xvfb():
        return {"press.skipped": "no Xvfb"}
    if ctypes.util.find_library("Xtst") is None:
        return {"press.skipped": "no libXtst (apt-get install libxtst6)"}
    from tools.bench.xkeys import XKeys

    xvfb = Xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="companion-press-") as tmp:
            data_dir = Path(tmp, "data")
            build_journal(data_dir, 30, seed=3)
            child, frames, fd = windowed(data_dir, xvfb.display, threads, profile, switches)
            keys: XKeys | None = None
            try:
                keys = XKeys(xvfb.display)
                first = frames.next(60)
                if first is None:
                    raise RuntimeError("no first frame: " + " | ".join(child.errors[-5:]))
                keys.point(400, 240)
                frames.settle()
                cpu0, frames0 = cpu_ns(child.pid), frames.count
                timings: list[float] = []
                taken: list[float] = []
                committed: list[float] = []
                #: the first frame's CPU of the presses whose command the session had worked
                #: out ahead (companion.game.ahead), and of the others
                hit_cpu: list[float] = []
                miss_cpu: list[float] = []
                first_cpu: list[float] = []  # from the press (the child's clock, read here)
                settled_cpu: list[float] = []  # from the settled frame's report, as before
                after_cpu: list[float] = []  # from a first frame's flip to the next press
                shown_at: int | None = None  # the child's CPU at the last first frame's flip
                by_thread: dict[str, list[float]] = {}  # --threads: each thread's, per press
                first_draw_cpu: list[float] = []
                last_cpu: list[float] = []  # from the press to the last frame of the press
                last_flip: list[float] = []  # and its flip's end (wall), from the press
                follow_ups: list[int] = []  # frames from the press to its last one
                undos = in_a_row = 0
                #: the first frame's CPU of the presses by what they did (`press.by_verb`)
                by_verb: dict[str, list[float]] = {}
                logged: list[dict[str, Any]] = []
                unanswered: list[str] = []
                end = time.monotonic() + time_limit_s
                while len(timings) < samples and time.monotonic() < end:
                    _t, version, key = frames.settle()
                    in_a_row = in_a_row + 1 if key == "-" else 0
                    if in_a_row > 3:
                        break
                    verb = frames.verb
                    if key == "-":  # no button sends a command: an undo question, then yes
                        undos += 1
                        keys.press("u")
                        frames.settle()
                        key, verb = "y", "undo"
                    idle_cpu = frames.cpu[1]  # the settled frame, its report done
                    before = cpu_ns(child.pid) if threads else {}
                    pressed_cpu = process_cpu_ns(child.pid)  # the instant before the key
                    if shown_at is not None:
                        after_cpu.append((pressed_cpu - shown_at) / 1e6)
                    shown_at = None
                    counted = frames.count
                    sent = keys.press(key)
                    frame = frames.newer(version)
                    if frame is None:  # refused, or lost on the way: said, not timed
                        taken_at = "taken" if frames.key_taken >= sent else "never taken"
                        unanswered.append(f"{key} at version {version} ({taken_at})")
                        if len(unanswered) > 3:
                            raise RuntimeError("presses showed nothing: "
                                               + "; ".join(unanswered + child.errors[-3:]))
                        continue
                    timings.append((frame[0] - sent) * 1000)
                    first_cpu.append((frames.cpu[0] - pressed_cpu) / 1e6)
                    by_verb.setdefault(verb, []).append(first_cpu[-1])
                    settled_cpu.append((frames.cpu[0] - idle_cpu) / 1e6)
                    shown_at = frames.cpu[0]
                    if threads:
                        _count_threads(by_thread, before, frames.threads, len(first_cpu))
                    if log is not None:
                        logged.append({
                            "key": key, "verb": verb, "version": version,
                            "first_cpu": first_cpu[-1],
                            "draw_cpu": frames.draw_cpu_ns / 1e6,
                            "threads": {k: round(v[-1], 3) for k, v in by_thread.items()
                                        if v[-1]}})
                    first_draw_cpu.append(frames.draw_cpu_ns / 1e6)
                    first_flip = frame[0]
                    while frames.follow and frames.next(5.0) is not None:
                        pass  # the frames that complete the press's picture, drawn at once
                    last_cpu.append((frames.cpu[0] - pressed_cpu) / 1e6)
                    if logged:
                        logged[-1]["last_cpu"] = last_cpu[-1]
                    last_flip.append((frames.last[0] - sent) * 1000)
                    follow_ups.append(frames.count - counted)
                    if sent <= frames.key_taken <= first_flip:
                        taken.append((frames.key_taken - sent) * 1000)
                    began, ended = frames.submitted
                    if sent <= began <= ended <= first_flip:
                        committed.append((ended - began) * 1000)
                        (hit_cpu if frames.hit else miss_cpu).append(first_cpu[-1])
                        if logged:
                            logged[-1]["hit"] = frames.hit
                frames.settle()  # the last press's frames too
                if shown_at is not None:
                    after_cpu.append((process_cpu_ns(child.pid) - shown_at) / 1e6)
                cpu1, frames1 = cpu_ns(child.pid), frames.count
                undo_cpu = undo_presses(keys, frames, child.pid, undos_timed, UNDO_LIMIT_S)
                if log is not None:
                    import json

                    log.write_text("".join(json.dumps(line) + "\n" for line in logged))
            finally:
                if keys is not None:
                    keys.close()
                child.stop()
                os.close(fd)
    finally:
        xvfb.close()
    if not timings:
        raise RuntimeError("no press could be timed")
    found: dict[str, Any] = {}
    if threads:
        found["press.first_frame_cpu_by_thread_ms"] = {
            name: {"p50": round(statistics.median(ms), 3), "mean": round(statistics.fmean(ms), 3),
                   "p99": round(percentile(ms, 0.99), 3)}
            for name, ms in sorted(by_thread.items(), key=lambda kv: -statistics.fmean(kv[1]))}
    for name, ms in (("hit", hit_cpu), ("miss", miss_cpu)):
        found[f"press.ahead_{name}_presses"] = float(len(ms))
        if ms:
            found[f"press.first_frame_cpu_ms_p50_{name}"] = round(statistics.median(ms), 3)
            found[f"press.first_frame_cpu_ms_p99_{name}"] = round(percentile(ms, 0.99), 3)
    found["press.undo_presses"] = float(len(undo_cpu))
    if undo_cpu:
        found["press.undo_first_frame_cpu_ms_p50"] = round(statistics.median(undo_cpu), 3)
        found["press.undo_first_frame_cpu_ms_max"] = round(max(undo_cpu), 3)
    found["press.by_verb"] = {
        verb: {"presses": len(ms), "first_frame_cpu_ms_p50": round(statistics.median(ms), 3),
               "first_frame_cpu_ms_max": round(max(ms), 3)}
        for verb, ms in sorted(by_verb.items(), key=lambda kv: -len(kv[1]))}
    per_thread: dict[str, float] = {}  # the kernel's names are all "python": main or not
    for tid, ran in cpu1.items():
        kind = "main thread" if tid == child.pid else "other threads"
        per_thread[kind] = per_thread.get(kind, 0.0) + (ran - cpu0.get(tid, 0)) / 1e6
    found["press.cpu_ms_per_move_by_thread"] = {
        kind: round(ms / len(timings), 2)
        for kind, ms in sorted(per_thread.items(), key=lambda kv: -kv[1]) if ms > 0}
    return found | {
        "press.flip_ms_p50": round(statistics.median(timings), 2),
        "press.flip_ms_p99": round(percentile(timings, 0.99), 2),
        "press.flip_ms_max": round(max(timings), 2),
        "press.samples": float(len(timings)),
        "press.key_taken_ms_p50": round(statistics.median(taken), 2) if taken else None,
        "press.key_taken_ms_p99": round(percentile(taken, 0.99), 2) if taken else None,
        "press.commit_ms_p50": round(statistics.median(committed), 2) if committed else None,
        "press.commit_ms_p99": round(percentile(committed, 0.99), 2) if committed else None,
        "press.first_frame_cpu_ms_p50": round(statistics.median(first_cpu), 3),
        "press.first_frame_cpu_ms_p99": round(percentile(first_cpu, 0.99), 3),
        "press.first_frame_cpu_ms_max": round(max(first_cpu), 3),
        "press.first_frame_cpu_ms_mean": round(statistics.fmean(first_cpu), 3),
        # the first press after the start: whatever its path does once per process
        "press.first_frame_cpu_ms_first_press": round(first_cpu[0], 3),
        "press.settled_frame_cpu_ms_p50": round(statistics.median(last_cpu), 3),
        "press.settled_frame_cpu_ms_p99": round(percentile(last_cpu, 0.99), 3),
        "press.settled_frame_cpu_ms_max": round(max(last_cpu), 3),
        "press.settled_frame_flip_ms_p50": round(statistics.median(last_flip), 2),
        "press.settled_frame_flip_ms_p99": round(percentile(last_flip, 0.99), 2),
        "press.frames_to_settled_mean": round(statistics.fmean(follow_ups), 2),
        "press.settled_to_frame_cpu_ms_p50": round(statistics.median(settled_cpu), 3),
        "press.settled_to_frame_cpu_ms_p99": round(percentile(settled_cpu, 0.99), 3),
        "press.after_frame_cpu_ms_p50": round(statistics.median(after_cpu), 3),
        "press.after_frame_cpu_ms_p99": round(percentile(after_cpu, 0.99), 3),
        "press.after_frame_cpu_ms_mean": round(statistics.fmean(after_cpu), 3),
        "press.first_frame_draw_cpu_ms_p50": round(statistics.median(first_draw_cpu), 3),
        "press.first_frame_draw_cpu_ms_p99": round(percentile(first_draw_cpu, 0.99), 3),
        "press.frames": float(frames.count),
        "press.undo_answers": float(undos),
        "press.unanswered": "; ".join(unanswered),
        "press.draw_ms_p50": round(statistics.median(frames.draw_ms), 2),
        "press.draw_ms_p99": round(percentile(frames.draw_ms, 0.99), 2),
        "press.cpu_ms_per_move": round(
            sum(ran - cpu0.get(tid, 0) for tid, ran in cpu1.items()) / 1e6 / len(timings), 2),
        "press.frames_per_move": round((frames1 - frames0) / len(timings), 2),
    }


def undo_presses(keys: Any, frames: Frames, pid: int, count: int,
                 limit_s: float) -> list[float]:
    """After the timed presses (outside their figures): up to `count` UNDOs as a table makes
    them, each of a purchase it has just declined (the table's own decision, which its UNDO
    may take back; the companion's dice and cards it may not): at a purchase NO, then UNDO
    and the question's YES, timed as a press from that YES to the first frame with the
    undo; between two, the table's presses (`flipwatch._key_for`) to the next purchase.
    Each undo's first frame CPU (ms), as `press.first_frame_cpu_ms`."""
    out: list[float] = []
    end = time.monotonic() + limit_s
    while len(out) < count and time.monotonic() < end:
        _t, version, key = frames.settle()
        if key == "-":
            break
        if frames.verb not in ("buy", "decline"):  # on to the next purchase
            keys.press(key)
            if frames.newer(version) is None:
                break
            continue
        keys.press("n")  # NO: the auction opens
        if frames.newer(version) is None:
            break
        _t, version, _key = frames.settle()
        keys.press("u")  # the question (the screen's own: no new version)
        frames.settle()
        pressed = process_cpu_ns(pid)
        keys.press("y")
        if frames.newer(version) is None:
            break
        out.append((frames.cpu[0] - pressed) / 1e6)
    frames.settle()
    return out


def _count_threads(by_thread: dict[str, list[float]], before: dict[int, int],
                   after: dict[int, tuple[str, int]], samples: int) -> None:
    """One press's CPU per thread (ms), from the bench's reading before the press to the
    companion's at the flip, added to `by_thread` by the thread's name (the game's id
    taken off a session's threads' names); a thread that did not run counts 0."""
    spent: dict[str, float] = {}
    for tid, (name, ran) in after.items():
        kind = name.split("-")[0] if name.startswith(("session-", "listeners-")) else name
        spent[kind] = spent.get(kind, 0.0) + (ran - before.get(tid, 0)) / 1e6
    for kind in spent.keys() | by_thread.keys():
        by_thread.setdefault(kind, [0.0] * (samples - 1)).append(spent.get(kind, 0.0))


def main(argv: list[str]) -> int:
    """`python -m tools.bench.press [--threads] [--samples N]`: the part alone, as JSON."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m tools.bench.press")
    parser.add_argument("--threads", action="store_true",
                        help="also each thread's share of the first frame's CPU (a probe)")
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--log", type=Path, default=None,
                        help="one JSON line per timed press to this file (the slowest found)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="profile the loop's thread from each key to its first flip "
                             "into this pstats file (a probe, its figures not the bench's)")
    parser.add_argument("--switches", type=Path, default=None,
                        help="count the context switches from each key to its first flip "
                             "into FILE.switches, by thread (a probe, without the profiler)")
    args = parser.parse_args(argv)
    print(json.dumps(run_bench(args.samples, threads=args.threads, log=args.log,
                               profile=args.profile, switches=args.switches), indent=1))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
