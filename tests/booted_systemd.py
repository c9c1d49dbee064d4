"""What the tests that boot the real systemd share (tests/test_watchdog_restart.py,
tests/test_deploy_update.py): systemd as PID 1 of a container (systemd-nspawn --boot) on
this machine's network, whether this machine can boot one, commands run inside it, a
clean stop or a power cut; and a phone of the companion that runs in there (its join link
from the journal, each player's cash)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tools.bench.probe import HttpPhone


def until(what: str, check: Callable[[], object], timeout: float,
          why: Callable[[], str] = lambda: "") -> object:
    """Poll `check` until it returns something true; fail saying `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        threading.Event().wait(0.1)  # polling a condition against a deadline
    pytest.fail(f"{what}: not within {timeout:g} s {why()}")


class Supervised:
    """What a phone needs from a supervisor of `companion run`: its port and its output."""

    port: int

    def output(self) -> list[str]:
        """Every line the companion printed so far, across restarts."""
        raise NotImplementedError

    def describe(self) -> str:
        """What the supervisor saw, for a failure message."""
        return ""


def join(service: Supervised, joined: int, who: str) -> HttpPhone:
    """A phone joined as `who` through the join link of the companion's (joined+1)-th start
    (a seat stays held across a restart, so a phone joining after one takes another)."""

    def link() -> str | None:
        lines = [line for line in service.output() if "Phones join at:" in line]
        return lines[joined].rsplit(" ", 1)[1] if len(lines) > joined else None

    url = str(until("the companion prints its join link", link, 180, service.describe))
    phone = HttpPhone(f"http://127.0.0.1:{service.port}")
    assert phone.join(url, who) == 302
    return phone


def cash(state: dict[str, object]) -> dict[str, int]:
    """Each player's cash in a public state."""
    players = state["players"]
    assert isinstance(players, list)
    return {p["name"]: int(p["cash"]) for p in players}


def nspawn_blocker() -> str | None:
    """Why systemd cannot be booted in a container here, or None."""
    if os.geteuid() != 0:
        return "needs root to boot systemd in a container (systemd-nspawn)"
    if shutil.which("systemd-nspawn") is None:
        return "systemd-nspawn is not installed (apt-get install systemd-container)"
    if not Path("/usr/lib/systemd/systemd").exists():
        return "systemd is not installed (/usr/lib/systemd/systemd)"
    if shutil.which("nsenter") is None:
        return "nsenter (util-linux) is not installed"
    return None


class BootedSystemd:
    """systemd booted by `systemd-nspawn ... --boot` (the command line `argv`, nspawn's
    output in `log`): started, its PID 1 found, commands run in its namespaces, stopped
    cleanly or cut off as by a power cut."""

    def __init__(self, argv: list[str], log: Path) -> None:
        self.argv = argv
        self.log = log
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, text=True)

    def wait_for_init(self, timeout: float = 60) -> None:
        """Wait for the container's systemd; skip, saying why, where nspawn cannot boot it."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while self.init_pid() is None and time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.skip("systemd-nspawn cannot boot systemd here: "
                            + self.log.read_text()[-500:])
            threading.Event().wait(0.1)  # polling for a process to appear, with a deadline
        if self.init_pid() is None:
            pytest.skip(f"systemd-nspawn started no systemd within {timeout:g} s: "
                        + self.log.read_text()[-500:])

    def init_pid(self) -> int | None:
        """The container's PID 1 as this machine sees it (nspawn's child), or None."""
        if self.proc is None:
            return None
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == self.proc.pid and "(systemd)" in stat:
                return int(entry.name)
        return None

    def enter(self, *argv: str) -> list[str]:
        """The command line that runs `argv` in the container (its mount, pid, uts and ipc
        namespaces, its root); empty when its systemd is not running."""
        pid = self.init_pid()
        if pid is None:
            return []
        return ["nsenter", f"--target={pid}", "--mount", "--pid", "--uts", "--ipc", "--root",
                "--wd", *argv]

    def inside(self, *argv: str, timeout: float = 30) -> str:
        """Run a command in the container; its stdout ("" when nothing runs there)."""
        command = self.enter(*argv)
        if not command:
            return ""
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                check=False)
        return result.stdout

    def stop(self) -> None:
        """A clean shutdown: nspawn asks the container's systemd to power off."""
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def power_cut(self) -> None:
        """Every process in the container ends at once, as in a power cut (what reached the
        file system stays, as written). All are stopped first, then PID 1 is killed, which
        ends its pid namespace: killed one by one, a process could see another end (a
        `systemctl restart` sees systemd go) and act on it, which no power cut allows."""
        assert self.proc is not None
        pid = self.init_pid()
        if pid is not None:
            namespace = os.readlink(f"/proc/{pid}/ns/pid")
            stopped: set[int] = set()
            while found := set(in_namespace(namespace)) - stopped:  # until no new ones
                for each in found:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(each, signal.SIGSTOP)
                stopped |= found
            os.kill(pid, signal.SIGKILL)
            # The kernel kills every other process in there (PID 1 then waits, in its exit,
            # for all to be collected); then nsenter, outside, which stopped itself when its
            # child in there stopped, goes on to collect its killed child (without which the
            # namespace cannot end). Not before: it wakes its child.
            until("every process of the container is killed", lambda: all(
                state(each) in ("Z", "X", "") for each in in_namespace(namespace)
                if each != pid), 60)
            for each in set(in_namespace(namespace, "pid_for_children")) - stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(each, signal.SIGCONT)
        self.proc.wait(60)


def state(pid: int) -> str:
    """A process's state letter (R, S, T, Z...), "" once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def in_namespace(namespace: str, link: str = "pid") -> Iterator[int]:
    """The processes whose pid namespace (`link` "pid") or whose children's
    ("pid_for_children") is `namespace`, as /proc/PID/ns/ names it."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "ns" / link) == namespace:
                    yield int(entry.name)
            except OSError:
                continue
