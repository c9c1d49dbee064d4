"""The real `companion run` as a child process for the benchmarks: start it, wait for its
first HTTP answer (connect attempts against a deadline, never a sleep), read /proc figures.
"""

from __future__ import annotations

import os
import queue
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO

CHECKOUT = Path(__file__).resolve().parents[2]


def _ephemeral_ports() -> range:
    """The kernel's range for the local ports of outgoing connections."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return range(int(low), int(high) + 1)
    except (OSError, ValueError):
        return range(32768, 61000)


def free_port() -> int:
    """A TCP port free on every address now, outside the kernel's range for outgoing
    connections: the companion listens on 0.0.0.0, and a port the kernel picked could be
    a client socket's own port moments later (another phone's connection), so the run
    would fail with "Address already in use"."""
    import random

    ephemeral = _ephemeral_ports()
    candidates = [p for p in range(10000, 65536) if p not in ephemeral]
    for port in random.sample(candidates, 200):
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    raise OSError("no free TCP port outside the ephemeral range")


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This environment with the checkout first on the path and quiet logging, without
    SDL driver choices (a test module may have set the dummy ones): the child picks its
    drivers as `companion run` does, unless `extra` names them."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
    env["PYTHONPATH"] = os.pathsep.join([str(CHECKOUT)] + [
        p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.setdefault("COMPANION_LOG", "WARNING")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    env.update(extra or {})
    return env


class Companion:
    """`python -m companion run --port P --data-dir D [...]` in a child process.

    `started` is time.monotonic() just before the process was spawned; stdout lines are
    collected by a thread (`lines`), so the child never blocks on a full pipe.
    """

    def __init__(self, data_dir: Path, *, headless: bool = True, port: int | None = None,
                 env: dict[str, str] | None = None, extra_args: list[str] | None = None,
                 pass_fds: tuple[int, ...] = (), prefix: list[str] | None = None) -> None:
        self.port = port or free_port()
        config = data_dir.parent / f"{data_dir.name}-absent-config.toml"  # the defaults
        args = ["run", "--port", str(self.port), "--data-dir", str(data_dir),
                "--config", str(config)] + (["--headless"] if headless else []) \
            + (extra_args or [])
        self.argv = (prefix or [sys.executable, "-m", "companion"]) + args
        self.started = time.monotonic()
        self.proc = subprocess.Popen(self.argv, cwd=CHECKOUT, env=child_env(env),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL, pass_fds=pass_fds)
        self.lines: queue.Queue[str] = queue.Queue()
        self.errors: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._threads = [
            threading.Thread(target=self._read, args=(self.proc.stdout, self.lines.put),
                             daemon=True),
            threading.Thread(target=self._read, args=(self.proc.stderr, self.errors.append),
                             daemon=True)]
        for t in self._threads:
            t.start()

    @staticmethod
    def _read(stream: IO[bytes], put: object) -> None:
        for raw in stream:
            put(raw.decode(errors="replace").rstrip("\n"))  # type: ignore[operator]

    @property
    def pid(self) -> int:
        """The child's process id."""
        return self.proc.pid

    def first_answer_s(self, deadline_s: float = 60.0) -> float:
        """Seconds from spawning to the first HTTP status line from the child's port.

        Each attempt connects and sends GET /api/state; a refused connection is retried at
        once after the child's pipes have had up to 2 ms to speak (select, not a sleep).
        """
        deadline = self.started + deadline_s
        request = f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n" \
                  "Connection: close\r\n\r\n".encode()
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"companion run ended ({self.proc.returncode}): "
                                   + " | ".join(self.errors[-5:]))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=deadline_s) \
                        as s:
                    s.sendall(request)
                    head = s.recv(12)
                    if head.startswith(b"HTTP/"):
                        return time.monotonic() - self.started
            except OSError:
                pass
            select.select([], [], [], 0.002)
        raise TimeoutError(f"no HTTP answer within {deadline_s} s")

    def next_line(self, startswith: str, timeout: float = 30.0) -> str:
        """The next stdout line starting with `startswith` (other lines are skipped)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line.startswith(startswith):
                return line
        raise TimeoutError(f"companion run never printed {startswith!r}: "
                           + " | ".join(self.errors[-5:]))

    def stop(self) -> None:
        """SIGTERM, as systemd stops it; killed if it has not ended after 15 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for t in self._threads:
            t.join(5)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> Companion:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


GL_LIBRARIES = ("libGL", "libEGL", "libLLVM", "_dri.so", "libgallium")


def gl_loaded(pid: int) -> bool:
    """Whether the process has mapped an OpenGL stack (Mesa's GL, its drivers, LLVM)."""
    with open(f"/proc/{pid}/maps", encoding="ascii", errors="replace") as f:
        return any(name in line for line in f for name in GL_LIBRARIES)


def status(pid: int) -> dict[str, str]:
    """/proc/PID/status as a dict."""
    out: dict[str, str] = {}
    with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
        for line in f:
            key, _, value = line.partition(":")
            out[key] = value.strip()
    return out


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MB."""
    s = status(pid)
    return int(s["VmRSS"].split()[0]) / 1024, int(s["VmHWM"].split()[0]) / 1024


def threads(pid: int) -> dict[int, tuple[str, int, int]]:
    """Per thread: (name, ns on a CPU from /proc/PID/task/TID/schedstat, voluntary +
    involuntary context switches so far). A thread that ends while read is left out."""
    out: dict[int, tuple[str, int, int]] = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            s = _task_status(pid, int(tid))
            with open(f"/proc/{pid}/task/{tid}/schedstat", encoding="ascii") as f:
                ran_ns = int(f.read().split()[0])
        except OSError:
            continue
        name = s["Name"] + (" (main thread)" if int(tid) == pid else "")
        out[int(tid)] = (name, ran_ns, int(s["voluntary_ctxt_switches"])
                         + int(s["nonvoluntary_ctxt_switches"]))
    return out


def process_cpu_ns(pid: int) -> int:
    """The process `pid`'s CPU time so far (ns, every thread's, those that ended included),
    read from outside at this instant: its CPU-time clock (clock_getcpuclockid's, built as
    the kernel builds it: the pid's complement shifted, CPUCLOCK_SCHED), the clock its own
    `time.process_time_ns()` reads, so the two can be subtracted."""
    return time.clock_gettime_ns((~pid << 3) | 2)


def cpu_ns(pid: int) -> dict[int, int]:
    """Each thread's time on a CPU so far (ns, `threads`): the difference of two readings,
    summed over the threads, is the process's CPU time in between (a thread that ended
    meanwhile is left out)."""
    return {tid: ran for tid, (_name, ran, _switches) in threads(pid).items()}


def _task_status(pid: int, tid: int) -> dict[str, str]:
    out: dict[str, str] = {}
    with open(f"/proc/{pid}/task/{tid}/status", encoding="ascii", errors="replace") as f:
        for line in f:
            key, _, value = line.partition(":")
            out[key] = value.strip()
    return out


@dataclass(frozen=True)
class Idle:
    """What a process did over a measured interval of rest."""

    seconds: float
    cpu_percent: float
    threads: int
    wakeups_per_s: float
    busiest_thread: str
    busiest_wakeups_per_s: float
    threads_over_10_per_s: int


def measure_idle(pid: int, seconds: float) -> Idle:
    """CPU share and context switches (wake-ups) of `pid` over `seconds` of wall time.

    CPU time is the sum of the threads' schedstat run times (nanoseconds: /proc/PID/stat
    counts 10 ms ticks, too coarse for a process at rest); the interval is waited out in
    a blocking select, the process is left alone meanwhile.
    """
    th0, t0 = threads(pid), time.monotonic()
    select.select([], [], [], seconds)
    th1, t1 = threads(pid), time.monotonic()
    wall = t1 - t0
    ran_ns = sum(th1[tid][1] - th0[tid][1] for tid in th1 if tid in th0)
    rates = {tid: ((th1[tid][2] - th0[tid][2]) / wall, th1[tid][0])
             for tid in th1 if tid in th0}
    busiest = max(rates.items(), key=lambda kv: kv[1][0], default=(0, (0.0, "")))
    return Idle(wall, ran_ns / 1e9 / wall * 100, len(th1),
                sum(r for r, _n in rates.values()), busiest[1][1], busiest[1][0],
                sum(1 for r, _n in rates.values() if r > 10))


class Xvfb:
    """A virtual X server on a free display number (-displayfd: ready when it says so;
    -noreset: a client's probe connection closing must not reset it under the next)."""

    def __init__(self, size: str = "1024x768x24", number: int | None = None) -> None:
        """`number`: the display's number (None: a free one); the same again starts a
        display that comes back where one went away."""
        read, write = os.pipe()
        try:
            self.proc = subprocess.Popen(
                ["Xvfb", *([f":{number}"] if number is not None else []),
                 "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp",
                 "-noreset"],
                pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        finally:
            os.close(write)
        self._displayfd = read  # kept open while it runs: Xvfb dies if it cannot write there
        ready, _w, _x = select.select([read], [], [], 20)
        said = os.read(read, 64).decode().strip() if ready else ""
        if not said:
            self.close()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{said}"

    @property
    def number(self) -> int:
        """The display's number (":7" -> 7)."""
        return int(self.display.lstrip(":"))

    def close(self) -> None:
        """Stop the server (a server killed already is only waited for)."""
        if self._displayfd < 0:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._displayfd)
        self._displayfd = -1


def have_xvfb() -> bool:
    """Whether an Xvfb binary is on the path."""
    from shutil import which

    return which("Xvfb") is not None
