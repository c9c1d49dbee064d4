"""The watchdog restarts a frozen companion, and the game resumes with every acknowledged move.

The real `companion run --headless` runs under two supervisors, with COMPANION_DEBUG_FREEZE=1
(companion/app/debug.py: SIGUSR2 hangs its main loop for good, as a stuck screen would,
while the phone remote and the journal writer carry on; SIGUSR1 hangs the writer in a
session listener right after the next move is saved, and the writer counts as stuck after
WRITER_STUCK_S):

- **systemd itself**, booted as PID 1 of a container (systemd-nspawn over this machine's
  /usr, everything else volatile), with the repo's unit file deploy/table-companion.service
  and a drop-in that only points it at this checkout, runs it as root (the container has no
  users) and shortens WatchdogSec; skipped, saying why, where nspawn cannot boot systemd;
- **a small supervisor here** speaking the sd_notify protocol as systemd does
  ($NOTIFY_SOCKET datagrams checked by sender pid, READY=1, WATCHDOG=1, $WATCHDOG_USEC; the
  watchdog armed once READY=1 came, as systemd arms it when the start is complete; a missed
  ping is answered with SIGABRT, then a restart), which runs everywhere.

Every step waits for what it needs (a line printed, READY=1, the restart) with generous
timeouts, and the watchdog's window is wide enough for a loaded machine.

Each time: a phone pays 4 times; then either SIGUSR2 freezes the loop and the phone pays 4
more times (each acknowledged: the remote and the writer still work), or SIGUSR1 freezes
the writer after one more acknowledged payment; the pings stop, the supervisor kills the
process with SIGABRT and starts it again, and the restarted companion shows every
acknowledged payment (the game's version and the players' cash).
"""

from __future__ import annotations

import array
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from booted_systemd import BootedSystemd, Supervised, cash, join, nspawn_blocker, until

from companion.game.session import WRITER_STUCK_S
from tools.bench.journal import build_journal
from tools.bench.probe import HttpPhone
from tools.bench.proc import free_port

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "deploy" / "table-companion.service"
#: the watchdog interval for the tests (the unit's own is 30 s); the loop pings every third.
#: Generous: on a loaded machine (2 cores shared by many) a 3 s window was missed by a
#: companion that was not frozen, and the payments made while the loop is frozen must all
#: be answered before the watchdog fires
WATCHDOG_S = 10.0
#: how long a start may take before READY=1 (systemd's TimeoutStartSec; the watchdog is
#: armed only once the start is complete, as systemd does)
START_S = 120.0
PAYMENTS = 4
PAY = {"do": "pay", "from": "P1", "to": "P3", "amount": 7}
APP_ENV = {"COMPANION_DEBUG_FREEZE": "1", "SDL_AUDIODRIVER": "dummy",
           "SDL_VIDEODRIVER": "dummy", "COMPANION_LOG": "INFO", "PYTHONUNBUFFERED": "1",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


class Watched(Supervised):
    """What the scenario needs from a supervisor of `companion run` besides a phone's."""

    def freeze(self, part: str) -> None:
        """Send SIGUSR2 ("loop": its main loop hangs) or SIGUSR1 ("writer": its writer hangs
        after the next move) to the running companion."""
        raise NotImplementedError

    def restarts(self) -> int:
        """How many times the supervisor restarted the companion after a watchdog kill."""
        raise NotImplementedError


def scenario(service: Watched, part: str) -> None:
    """Pay, freeze the loop or the writer, pay while frozen, see the watchdog restart it,
    find every acknowledged payment."""
    phone = join(service, 0, "player:P1")
    try:
        _pay_freeze_and_resume(service, phone, part)
    finally:
        phone.close()


def _pay_freeze_and_resume(service: Watched, phone: HttpPhone, part: str) -> None:
    state = phone.state()
    version, before = int(state["version"]), cash(state)
    acknowledged = 0

    def pay() -> None:
        nonlocal version, acknowledged
        status, body = phone.command(PAY, version)
        assert status == 200, (status, body)
        version = int(body["version"])
        acknowledged += 1

    for _ in range(PAYMENTS):
        pay()
    service.freeze(part)
    frozen_at = time.monotonic()
    if part == "loop":
        for _ in range(PAYMENTS):  # the loop hangs; the remote and the writer answer
            pay()
        earliest = WATCHDOG_S * 2 / 3 * 0.9  # the last ping came up to a third before
    else:
        until("the companion takes SIGUSR1", lambda: any(
            "SIGUSR1 arrived" in line for line in service.output()), 30, service.describe)
        pay()  # saved and acknowledged; then the writer hangs in a listener
        earliest = WRITER_STUCK_S * 0.9  # the writer counts as stuck after this long
    until(f"the watchdog restarts the companion with a frozen {part}",
          lambda: service.restarts() >= 1, WRITER_STUCK_S + WATCHDOG_S * 10 + 30,
          service.describe)
    assert time.monotonic() - frozen_at >= earliest, "restarted before the watchdog"
    again = join(service, 1, "player:P2")
    resumed = again.state()
    again.close()
    assert int(resumed["version"]) == version, service.describe()
    after = cash(resumed)
    assert after["P1"] == before["P1"] - PAY["amount"] * acknowledged
    assert after["P3"] == before["P3"] + PAY["amount"] * acknowledged
    assert service.restarts() == 1, service.describe()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A data directory with a fresh 4-player game (P1 to move)."""
    data = tmp_path / "data"
    build_journal(data, 1, seed=1, players=4)
    return data


# --- a supervisor speaking sd_notify, as systemd does ----------------------------------------


class NotifySupervisor(Watched):
    """Runs `companion run` with $NOTIFY_SOCKET and $WATCHDOG_USEC; SIGABRT on a missed
    WATCHDOG=1, then a restart (Restart=always); only the main process may notify."""

    def __init__(self, tmp: Path, data: Path) -> None:
        self.port = free_port()
        self.argv = [sys.executable, "-m", "companion", "run", "--headless", "--port",
                     str(self.port), "--data-dir", str(data), "--config", str(tmp / "none")]
        self.address = str(tmp / "notify")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.address)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.lines: list[str] = []
        self.seen: list[str] = []  # what happened, in order
        self.proc: subprocess.Popen[str] | None = None
        self.readers: list[tuple[subprocess.Popen[str], threading.Thread]] = []
        self.watchdog_kills = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._supervise, daemon=True)

    def _spawn(self) -> subprocess.Popen[str]:
        env = {**os.environ, **APP_ENV, "NOTIFY_SOCKET": self.address,
               "WATCHDOG_USEC": str(int(WATCHDOG_S * 1_000_000))}
        env["PYTHONPATH"] = str(REPO)
        proc = subprocess.Popen(self.argv, cwd=REPO, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        reader = threading.Thread(target=self._read, args=(proc,), daemon=True)
        reader.start()
        self.readers.append((proc, reader))
        self.seen.append(f"started pid {proc.pid}")
        return proc

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def _receive(self, timeout: float) -> tuple[int, str] | None:
        """The next notification (sender pid, text), None after `timeout` seconds."""
        self.sock.settimeout(max(timeout, 0.001))
        try:
            data, ancillary, _flags, _addr = self.sock.recvmsg(
                4096, socket.CMSG_SPACE(struct.calcsize("3i")))
        except TimeoutError:
            return None
        pid = -1
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                pid = array.array("i", payload[:12])[0]
        return pid, data.decode()

    def _supervise(self) -> None:
        while not self.stopping.is_set():
            proc = self.proc = self._spawn()
            # systemd arms the watchdog once the start is complete (READY=1, systemd.service:
            # WatchdogSec=); before, the start may take up to TimeoutStartSec
            last, ready = time.monotonic(), False
            while not self.stopping.is_set():
                if proc.poll() is not None:
                    self.seen.append(f"pid {proc.pid} exited {proc.returncode}")
                    break
                left = last + (WATCHDOG_S if ready else START_S) - time.monotonic()
                if left <= 0 and not ready:
                    self.seen.append(f"start timeout: no READY=1 in {START_S:g} s: "
                                     f"SIGKILL to pid {proc.pid}")
                    proc.kill()
                    proc.wait()
                    break
                if left <= 0:
                    self.seen.append(f"watchdog timeout: no WATCHDOG=1 for {WATCHDOG_S:g} s: "
                                     f"SIGABRT to pid {proc.pid}")
                    proc.send_signal(signal.SIGABRT)
                    try:
                        proc.wait(60)  # a core dump on a loaded machine takes its time
                    except subprocess.TimeoutExpired:
                        self.seen.append(f"pid {proc.pid} outlived SIGABRT: SIGKILL")
                        proc.kill()
                        proc.wait()
                    self.seen.append(f"pid {proc.pid} ended by {proc.returncode}")
                    self.watchdog_kills += 1
                    break
                got = self._receive(min(left, 0.5))
                if got is None:
                    continue
                pid, text = got
                if pid != proc.pid:  # NotifyAccess=main
                    self.seen.append(f"ignored {text!r} from pid {pid}")
                    continue
                for item in text.split("\n"):
                    if item in ("READY=1", "STOPPING=1"):
                        self.seen.append(f"pid {pid}: {item}")
                    if item == "READY=1" and not ready:  # the watchdog starts now
                        last, ready = time.monotonic(), True
                    if item == "WATCHDOG=1" and ready:
                        last = time.monotonic()

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(30)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:  # the frozen loop ignores SIGTERM
                self.proc.kill()
                self.proc.wait()
        for proc, reader in self.readers:  # every process has ended: their output too
            reader.join(10)
            assert proc.stdout is not None
            proc.stdout.close()
        self.sock.close()

    def output(self) -> list[str]:
        return list(self.lines)

    def freeze(self, part: str) -> None:
        assert self.proc is not None
        sent = signal.SIGUSR2 if part == "loop" else signal.SIGUSR1
        self.seen.append(f"{sent.name} to pid {self.proc.pid}")
        self.proc.send_signal(sent)

    def restarts(self) -> int:
        return self.watchdog_kills

    def describe(self) -> str:
        return "\nsupervisor: " + " | ".join(self.seen) + "\noutput:\n" + \
            "\n".join(self.lines[-30:])


@pytest.mark.parametrize("part", ["loop", "writer"])
def test_a_frozen_companion_is_restarted_by_the_watchdog_without_losing_a_move(
        tmp_path: Path, game: Path, part: str) -> None:
    supervisor = NotifySupervisor(tmp_path, game)
    supervisor.start()

    def readies() -> int:
        return sum(s.endswith("READY=1") for s in list(supervisor.seen))

    try:
        scenario(supervisor, part)
        # the restarted companion prints its join link a moment before it says READY=1
        until("the restarted companion says READY=1", lambda: readies() >= 2, 90,
              supervisor.describe)
    finally:
        supervisor.stop()
    seen = supervisor.seen
    assert readies() == 2, supervisor.describe()
    killed = [s for s in seen if s.startswith("watchdog timeout")]
    assert len(killed) == 1, supervisor.describe()
    # the first process died of the SIGABRT (not a clean exit), after saying it was ready
    assert f"ended by {-signal.SIGABRT}" in " | ".join(seen), supervisor.describe()


def test_without_the_switch_sigusr2_is_not_a_freeze() -> None:
    """The freeze is a test's switch only: without COMPANION_DEBUG_FREEZE nothing is armed."""
    from companion.app import debug

    before = signal.getsignal(signal.SIGUSR2)
    assert debug.install_freeze_switch({}) is False
    assert debug.install_freeze_switch({"COMPANION_DEBUG_FREEZE": "yes"}) is False
    assert signal.getsignal(signal.SIGUSR2) is before


# --- systemd itself, booted in a container ------------------------------------------------


#: what the unit's PrivateTmp=yes hides from the service: a checkout or venv there is
#: mounted elsewhere in the container
HIDDEN = (Path("/tmp"), Path("/var/tmp"))
#: where those go instead (the container's root is a fresh tmpfs: nothing else is there)
ELSEWHERE = Path("/opt/companion-checkout")


class Places:
    """The host's directories mounted in the container, and where each one is in there."""

    def __init__(self, binds: list[tuple[Path, Path]]) -> None:
        self.binds = binds

    def inside(self, path: Path) -> Path:
        """Where host path `path` (under one of the binds) is seen in the container."""
        for host, there in self.binds:
            if path.is_relative_to(host):
                return there / path.relative_to(host)
        raise AssertionError(f"{path} is not mounted in the container")


def container_places(paths: set[Path]) -> Places:
    """The binds for `paths` (what /usr already holds left out, nested ones in their
    parent's): each at its own path, but those under /tmp or /var/tmp, which PrivateTmp
    would hide from the service, at ELSEWHERE/<n>."""
    wanted = sorted({p for p in paths if not p.is_relative_to("/usr")})
    tops = [p for p in wanted if not any(p != q and p.is_relative_to(q) for q in wanted)]
    binds: list[tuple[Path, Path]] = []
    for number, host in enumerate(tops):
        hidden = any(host.is_relative_to(h) for h in HIDDEN)
        binds.append((host, ELSEWHERE / str(number) if hidden else host))
    return Places(binds)


def test_a_checkout_under_tmp_is_mounted_where_private_tmp_does_not_hide_it() -> None:
    """A clone in /tmp/x with its venv in /tmp/x/.venv: one bind, outside /tmp."""
    places = container_places({Path("/tmp/x"), Path("/tmp/x/.venv"), Path("/usr"),
                               Path("/root/.pyenv/versions/3.11.7")})
    assert places.binds == [(Path("/root/.pyenv/versions/3.11.7"),
                             Path("/root/.pyenv/versions/3.11.7")),
                            (Path("/tmp/x"), ELSEWHERE / "1")]
    assert places.inside(Path("/tmp/x/.venv/bin/python")) == ELSEWHERE / "1/.venv/bin/python"
    assert places.inside(Path("/root/.pyenv/versions/3.11.7/bin/python3")) == Path(
        "/root/.pyenv/versions/3.11.7/bin/python3")
    assert container_places({Path("/var/tmp/y")}).binds == [(Path("/var/tmp/y"),
                                                              ELSEWHERE / "0")]


class SystemdContainer(Watched, BootedSystemd):
    """systemd as PID 1 of a volatile container over this machine's /usr, running the
    repo's unit with a drop-in; the host shares its network, so the remote's port is ours."""

    def __init__(self, tmp: Path, data: Path) -> None:
        self.port = free_port()
        self.name = f"companion-watchdog-{os.getpid()}"
        units = tmp / "units"
        (units / "table-companion.service.d").mkdir(parents=True)
        shutil.copy(UNIT, units / "table-companion.service")
        python = Path(sys.executable)
        binds = {REPO, Path(sys.prefix), Path(sys.base_prefix), python.resolve().parent}
        self.places = container_places(binds)
        inside = self.places.inside
        env = " ".join(f"{k}={v}" for k, v in
                       {**APP_ENV, "PYTHONPATH": str(inside(REPO))}.items())
        (units / "table-companion.service.d" / "test.conf").write_text(f"""\
# This checkout instead of the installed app; root (the container has no users or groups);
# a short watchdog. Everything else is deploy/table-companion.service as installed.
[Service]
User=
Group=
SupplementaryGroups=
ExecStart=
ExecStart={inside(python)} -m companion run --headless --port {self.port}
Environment={env}
WatchdogSec={WATCHDOG_S:g}
RestartSec=1
# This Python and checkout may live under /root or /home (ProtectHome would hide them).
ProtectHome=no
""")
        argv = ["systemd-nspawn", "--directory=/", "--volatile=yes", "--register=no",
                "--keep-unit", f"--machine={self.name}", "--console=pipe",
                f"--bind-ro={units}:/etc/systemd/system",
                f"--bind={data}:/var/lib/table-companion",
                *[f"--bind-ro={host}:{there}" for host, there in self.places.binds],
                "--boot", "systemd.wants=table-companion.service"]
        BootedSystemd.__init__(self, argv, tmp / "nspawn.log")

    def booted(self) -> bool:
        return self.inside("systemctl", "is-active", "table-companion").strip() == "active"

    def output(self) -> list[str]:
        return self.inside("journalctl", "--no-pager", "-o", "cat", "-u",
                           "table-companion").splitlines()

    def freeze(self, part: str) -> None:
        sent = "SIGUSR2" if part == "loop" else "SIGUSR1"
        self.inside("systemctl", "kill", "--kill-who=main", f"--signal={sent}",
                    "table-companion")

    def restarts(self) -> int:
        text = self.inside("systemctl", "show", "--property=NRestarts", "--value",
                           "table-companion").strip()
        return int(text) if text.isdigit() else 0

    def describe(self) -> str:
        return ("\njournal of table-companion:\n" + "\n".join(self.output()[-40:])
                + "\nnspawn: " + self.log.read_text()[-2000:])


@pytest.fixture
def container(tmp_path: Path, game: Path) -> Iterator[SystemdContainer]:
    reason = nspawn_blocker()
    if reason is not None:
        pytest.skip(reason)
    box = SystemdContainer(tmp_path, game)
    box.start()
    try:
        box.wait_for_init()
        yield box
    finally:
        box.stop()


@pytest.mark.parametrize("part", ["loop", "writer"])
def test_systemd_restarts_a_frozen_companion_without_losing_a_move(
        container: SystemdContainer, part: str) -> None:
    until("systemd reports table-companion active (READY=1)", container.booted, 90,
          container.describe)
    scenario(container, part)
    journal = "\n".join(container.inside("journalctl", "--no-pager", "-o", "cat").splitlines())
    assert "table-companion.service: Watchdog timeout" in journal, container.describe()
    assert "SIGABRT" in journal, container.describe()
    assert container.booted()
    print(container.describe())  # the evidence, with pytest -s
