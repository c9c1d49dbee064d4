"""Updates under the real systemd, through deploy/install.sh itself: a version that never
says READY=1 is rolled back and the game goes on; a good one is kept; a power cut between
the switch to a new version and its READY=1 leaves a machine that boots the version before,
with every acknowledged move; and the installed unit is rated "OK" by
`systemd-analyze security` where it runs.

systemd boots as PID 1 of a container (tests/booted_systemd.py, as in the watchdog test)
whose root is this machine's own file system under an overlay: its packages, Python and pip
settings are this machine's (install.sh installs what is missing, as on a Pi); every write
goes to an upper directory of the test's, which outlives the container, so the boot after
the power cut finds what the first one left on the disk. The container has none of this
machine's services (an empty /etc/systemd/system), a machine id of its own and the Pi's
first name (`raspberrypi`). install.sh runs in there as root with a clean environment,
from copies of this checkout (what is committed and what is not):

- 1.0.0: this checkout: the first install; a phone joins and pays (acknowledged moves);
- 1.0.1: its companion exits at start: install.sh says it rolled back and exits 1, the
  version before runs again, and the phone finds every payment;
- 1.0.2: this checkout again: kept, the one before it stays as the step back;
- 1.0.3: its companion hangs at start, and its unit has a setting of its own: the container
  is killed while install.sh waits for its READY=1 (the switch done), booted again with its
  root read-only but for /var (as the card image's read-only root, made writable by hand
  for the update, boots again), and 1.0.2 runs, with its own unit, with every payment; the
  going back made the root writable for that moment, and it is read-only again.

After each, the copy of the checkout (/opt/table-companion/src) and the command `companion`
are those of the version that runs.

No install.sh run prints a warning it should not (its "!" lines): the good ones none.
Skipped, saying why, without root, systemd-nspawn or an overlay mount. It took 116-250 s
on the 2-core shared test machine (its installs 33-51, 21-31 and 19-29 s: each fetches
the locked packages from pip's index into a new venv; apt installs what this machine lacks
of install.sh's packages, here rsync and alsa-utils, its .deb files kept in
COMPANION_UPDATE_CACHE, default /var/cache/table-companion-update);
COMPANION_UPDATE_TEST=0 skips it.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from booted_systemd import BootedSystemd, Supervised, cash, nspawn_blocker, until

from tools.bench.journal import build_journal
from tools.bench.probe import HttpPhone
from tools.bench.proc import free_port

REPO = Path(__file__).resolve().parent.parent
APP = "table-companion"
PREFIX = Path("/opt") / APP
#: how long one install.sh may take (the first fetches every locked package)
INSTALL_S = 600.0
#: a start of the companion up to READY=1 on a loaded machine
READY_S = 120.0
PAY = 7
#: install.sh's own warnings ("    ! ..." on stderr)
WARNING = re.compile(r"^    ! (.*)$", re.M)
#: the versions' lines put first into their companion's command module
EXITS = 'raise SystemExit("table-companion test: this version is broken on purpose")\n'
HANGS = "import threading; threading.Event().wait()  # a version that never says READY=1\n"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#: the card image's fstab `ro` standing in, in the container: its root made read-only
#: before anything of the table's runs (/var, a mount of its own, stays writable)
READ_ONLY_UNIT = "update-test-read-only-root.service"
READ_ONLY_ROOT = """[Unit]
Description=the update test's read-only root (the card image's fstab ro)
DefaultDependencies=no
After=local-fs.target
Before=sysinit.target table-companion-update-check.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/mount -o remount,bind,ro /
"""
#: a setting only 1.0.3's unit has: the boot after the power cut must start without it
UNIT_MARK = "Environment=COMPANION_UPDATE_TEST_UNIT=1.0.3\n"


def deserved() -> list[str]:
    """install.sh's warnings this machine deserves (none on Debian 12 on x86_64/aarch64)."""
    release = Path("/etc/os-release").read_text(encoding="utf-8")
    found = re.search(r"(?m)^VERSION_CODENAME=\"?(\w*)", release)
    if found is not None and found.group(1) == "bookworm":
        return []
    return ["made for Raspberry Pi OS / Debian 12 (bookworm)"]


def unexpected(err: str) -> list[str]:
    """install.sh's own warnings ("    ! ...") on stderr but those this machine deserves."""
    return [w for w in WARNING.findall(err) if not w.startswith(tuple(deserved()))]


def checkout(repo: Path, to: Path, version: str, first_line: str = "") -> None:
    """A copy of `repo`'s files (tracked and untracked, not ignored) at `to`, its version
    `version`, with `first_line` run first in companion/app/cli.py."""
    listed = subprocess.run(["git", "-C", str(repo), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    for name in sorted({n for n in listed.decode().split("\0") if n}):
        source = repo / name
        if source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)
    project = to / "pyproject.toml"
    text = project.read_text(encoding="utf-8")
    project.write_text(re.sub(r'(?m)^version = ".*"$', f'version = "{version}"', text, count=1),
                       encoding="utf-8")
    cli = to / "companion" / "app" / "cli.py"
    text = cli.read_text(encoding="utf-8")
    future = "from __future__ import annotations\n"  # which must stay first
    at = text.index(future) + len(future) if future in text else 0
    cli.write_text(text[:at] + first_line + text[at:], encoding="utf-8")


def cache_dir() -> Path:
    """Where apt's .deb files are kept between runs (COMPANION_UPDATE_CACHE)."""
    return Path(os.environ.get("COMPANION_UPDATE_CACHE", f"/var/cache/{APP}-update"))


class Machine(Supervised):
    """A Debian machine as this one is, under an overlay whose upper layer is a directory
    on this machine's disk; booted (and cut off, and booted again) by systemd-nspawn."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.upper, self.merged = work / "upper", work / "merged"
        for part in (self.upper, work / "overlay-work", self.merged):
            part.mkdir()
        self.port = free_port()
        self.boots: list[BootedSystemd] = []
        self.mounted = False
        self.name = f"companion-update-{os.getpid()}"
        # the .deb files apt fetches for what this machine lacks, kept for the next run
        self.apt_cache = cache_dir() / "apt-archives"
        (self.apt_cache / "partial").mkdir(parents=True, exist_ok=True)
        etc = self.upper / "etc"
        # none of this machine's services or units (nor a table-companion of its own): an
        # opaque directory hides the lower one's contents
        (etc / "systemd" / "system").mkdir(parents=True)
        os.setxattr(etc / "systemd" / "system", "trusted.overlay.opaque", b"y")
        for hidden in (etc / APP, self.upper / "opt" / APP,
                       self.upper / "var" / "lib" / APP):
            hidden.mkdir(parents=True)
            os.setxattr(hidden, "trusted.overlay.opaque", b"y")
        (etc / "machine-id").write_text(uuid.uuid4().hex + "\n")
        (etc / "hostname").write_text("raspberrypi\n")
        # the phone remote on a free port of this machine (the container shares its network)
        config = (REPO / "deploy" / "config.toml").read_text(encoding="utf-8")
        config, found = re.subn(r"(?m)^port = 8080\b", f"port = {self.port}", config)
        assert found == 1, "deploy/config.toml has no 'port = 8080' line"
        (etc / APP / "config.toml").write_text(config, encoding="utf-8")

    def mount(self) -> None:
        options = (f"lowerdir=/,upperdir={self.upper},"
                   f"workdir={self.work / 'overlay-work'}")
        result = subprocess.run(["mount", "-t", "overlay", "overlay", "-o", options,
                                 str(self.merged)], capture_output=True, text=True,
                                check=False)
        if result.returncode != 0:
            pytest.skip(f"cannot mount an overlay of / here: {result.stderr.strip()}")
        self.mounted = True

    def unmount(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "--lazy", str(self.merged)], check=False)
            self.mounted = False

    @property
    def box(self) -> BootedSystemd:
        return self.boots[-1]

    def boot(self, settle: bool = True, read_only: bool = False) -> None:
        """Boot the machine (again): systemd up, and (`settle`) every job of the boot done;
        `read_only`: its root mounted read-only early in the boot but for /var, as the card
        image with read_only = true has it (there /var is the data partition). Not
        nspawn's --read-only: it makes every bind read-only too."""
        var = []
        if read_only:
            units = self.merged / "etc" / "systemd" / "system"
            (units / READ_ONLY_UNIT).write_text(READ_ONLY_ROOT, encoding="utf-8")
            (units / "sysinit.target.wants").mkdir(exist_ok=True)
            (units / "sysinit.target.wants" / READ_ONLY_UNIT).symlink_to(
                f"/etc/systemd/system/{READ_ONLY_UNIT}")
            var = [f"--bind={self.merged / 'var'}:/var"]  # a mount of its own, writable
        argv = ["systemd-nspawn", f"--directory={self.merged}", "--register=no",
                "--keep-unit", f"--machine={self.name}", "--console=pipe", *var,
                f"--bind={self.apt_cache}:/var/cache/apt/archives",
                "--resolv-conf=copy-host", "--timezone=off", "--boot"]
        box = BootedSystemd(argv, self.work / f"nspawn-{len(self.boots) + 1}.log")
        self.boots.append(box)
        box.start()
        box.wait_for_init()
        if settle:
            until("the container's systemd finishes booting", lambda: self.inside(
                "systemctl", "is-system-running").strip() in ("running", "degraded"), 120,
                self.describe)

    def inside(self, *argv: str, timeout: float = 30) -> str:
        return self.box.inside(*argv, timeout=timeout)

    def install(self, version: str, background: bool = False) -> subprocess.Popen[str]:
        """`install.sh` of checkout `version` as root with a clean environment, as a person
        runs it (`sudo deploy/install.sh`)."""
        command = self.box.enter("env", "-i", f"PATH={PATH}", "LANG=C.UTF-8", "HOME=/root",
                                 "bash", f"/srv/{version}/deploy/install.sh")
        assert command, "the container is not running"
        with (self.work / f"install-{version}.out").open("w") as out, \
                (self.work / f"install-{version}.err").open("w") as err:
            proc = subprocess.Popen(command, stdout=out, stderr=err, text=True,
                                    stdin=subprocess.DEVNULL)
        if not background:
            proc.wait(INSTALL_S)
        return proc

    def installed(self, version: str) -> tuple[int, str, str]:
        """Run install.sh of `version` to its end: its status, stdout and stderr (its own
        warnings but those this machine deserves checked)."""
        started = time.monotonic()
        status = self.install(version).returncode
        out = (self.work / f"install-{version}.out").read_text()
        err = (self.work / f"install-{version}.err").read_text()
        print(f"--- install.sh {version}: status {status} in {time.monotonic() - started:.0f} s"
              f"\n{out}{err}")
        return status, out, err

    def in_use(self) -> str:
        """The version directory the venv link points into (as the installed machine has it)."""
        return Path(os.readlink(self.merged / PREFIX.relative_to("/") / "venv")).parent.name

    def follows(self, version: str) -> None:
        """The copy of the checkout and the command `companion` are `version`'s."""
        copy = self.merged / PREFIX.relative_to("/") / "src"
        assert os.readlink(copy) == f"versions/{version}/src"
        pyproject = (copy / "pyproject.toml").read_text(encoding="utf-8")
        assert f'version = "{version.split("-")[0]}"' in pyproject
        command = self.inside("readlink", "-f", "/usr/local/bin/companion").strip()
        assert command == f"{PREFIX}/versions/{version}/src/deploy/companion.sh", command

    def running(self) -> str:
        """The version directory of the service's running Python ("" when it is not active)."""
        if self.inside("systemctl", "is-active", APP).strip() != "active":
            return ""
        pid = self.inside("systemctl", "show", "--property=MainPID", "--value", APP).strip()
        argv = self.inside("cat", f"/proc/{pid}/cmdline").split("\0")
        found = re.search(r"/versions/([^/]+)/venv/bin/python", argv[0])
        return found.group(1) if found else f"? {argv}"

    def output(self) -> list[str]:
        return self.inside("journalctl", "--no-pager", "-o", "cat", "-u", APP).splitlines()

    def describe(self) -> str:
        if not self.boots:
            return ""
        return ("\njournal of table-companion:\n" + "\n".join(self.output()[-40:])
                + "\nthis boot's update check:\n" + self.inside(
                    "journalctl", "--no-pager", "-b", "-o", "cat", "-u",
                    f"{APP}-update-check")[-3000:]
                + "\nstatus: " + self.inside("systemctl", "status", "--no-pager", APP)
                + "\nnspawn: " + self.box.log.read_text()[-1500:])

    def phone(self, who: str) -> HttpPhone:
        """A phone joined as `who` through the join link of the companion running now."""
        def link() -> str | None:
            lines = [line for line in self.output() if "Phones join at:" in line]
            return lines[-1].rsplit(" ", 1)[1] if lines else None

        phone = HttpPhone(f"http://127.0.0.1:{self.port}")
        status = phone.join(str(until("the companion prints its join link", link, 60,
                                      self.describe)), who)
        assert status == 302, (status, self.describe())
        return phone


@pytest.fixture
def machine() -> Iterator[Machine]:
    if os.environ.get("COMPANION_UPDATE_TEST") == "0":
        pytest.skip("COMPANION_UPDATE_TEST=0 (four installs in a booted container take minutes)")
    reason = nspawn_blocker()
    if reason is not None:
        pytest.skip(reason)
    # one run at a time on a machine: two apt runs cannot share the cache of .deb files
    cache_dir().mkdir(parents=True, exist_ok=True)
    with (cache_dir() / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield from booted_machine()


def booted_machine() -> Iterator[Machine]:
    """A machine with the four checkouts in /srv and a game in the data directory, booted;
    unmounted and removed after."""
    # on the disk (not a tmpfs /tmp): an overlay's upper layer in RAM is what install.sh
    # rightly warns about, and the power cut must leave the files where a disk keeps them
    work = Path(tempfile.mkdtemp(prefix="companion-update-", dir="/var/tmp"))
    host = Machine(work)
    try:
        for version, first_line in (("1.0.0", ""), ("1.0.1", EXITS), ("1.0.2", ""),
                                    ("1.0.3", HANGS)):
            checkout(REPO, host.upper / "srv" / version, version, first_line)
        unit = host.upper / "srv" / "1.0.3" / "deploy" / f"{APP}.service"
        text = unit.read_text(encoding="utf-8")
        unit.write_text(text.replace("[Service]\n", f"[Service]\n{UNIT_MARK}", 1),
                        encoding="utf-8")
        # a 4-player game (P1 to move), in the data directory install.sh gives the service
        build_journal(host.upper / "var" / "lib" / APP, 1, seed=1, players=4)
        host.mount()
        host.boot()
        yield host
    finally:
        for box in host.boots:
            if box.proc is not None and box.proc.poll() is None:
                box.stop()
        host.unmount()
        shutil.rmtree(work, ignore_errors=True)


def test_a_broken_update_rolls_back_and_a_power_cut_leaves_a_version_that_boots(
        machine: Machine) -> None:
    # --- the first install: ready, no warning, a game played ---------------------------
    status, out, err = machine.installed("1.0.0")
    assert status == 0, err[-3000:]
    assert unexpected(err) == [], "install.sh warned on a good install"
    first = machine.in_use()
    assert first.startswith("1.0.0-") and f"version {first} started and reported ready" in out
    assert machine.running() == first, machine.describe()
    ann = machine.phone("player:P1")
    state = ann.state()
    version, before = int(state["version"]), cash(state)
    paid = 0

    def pay(phone: HttpPhone) -> None:
        nonlocal version, paid
        status, body = phone.command({"do": "pay", "from": "P1", "to": "P3", "amount": PAY},
                                     version)
        assert status == 200, (status, body)
        version = int(body["version"])
        paid += 1

    def every_payment_is_there(phone: HttpPhone) -> None:
        state = phone.state()
        assert int(state["version"]) == version, machine.describe()
        after = cash(state)
        assert after["P1"] == before["P1"] - PAY * paid
        assert after["P3"] == before["P3"] + PAY * paid

    for _ in range(3):
        pay(ann)

    # --- a version that exits at start: rolled back, said clearly, status 1 -----------
    status, out, err = machine.installed("1.0.1")
    assert status == 1, err[-3000:]
    warnings = unexpected(err)
    assert warnings[0].startswith("the new version 1.0.1-") and "did not start" in warnings[0]
    assert f"rolled back: {first} runs again" in err, err[-3000:]
    assert all(w.startswith(("the new version", "going back", "rolled back"))
               for w in warnings), warnings
    assert "==> Done" not in out
    assert machine.in_use() == first and machine.running() == first, machine.describe()
    journal = machine.inside("journalctl", "--no-pager", "-o", "short")
    assert "broken on purpose" in journal, journal[-8000:]  # it did run, and fail
    assert not (machine.merged / "opt" / APP / "update-pending").exists()
    machine.follows(first)
    bo = machine.phone("player:P2")  # P1's seat stays held by the first phone
    every_payment_is_there(bo)
    pay(ann)  # the first phone plays on after the restart: one more acknowledged move
    every_payment_is_there(bo)

    # --- a good version: kept, with the one before as the step back ------------------
    status, out, err = machine.installed("1.0.2")
    assert status == 0, err[-3000:]
    assert unexpected(err) == [], "install.sh warned on a good update"
    good = machine.in_use()
    assert good.startswith("1.0.2-") and f"version {good} started and reported ready" in out
    assert machine.running() == good, machine.describe()
    versions = {p.name for p in (machine.merged / "opt" / APP / "versions").iterdir()}
    assert versions == {first, good}
    machine.follows(good)
    every_payment_is_there(bo)
    bo.close()
    ann.close()

    # --- the installed unit, as systemd loaded it: rated "OK" -------------------------
    rating = machine.inside("systemd-analyze", "security", "--no-pager", f"{APP}.service",
                            timeout=60)
    exposure = re.search(r"Overall exposure level for \S+: ([0-9.]+)", rating)
    assert exposure, rating[-2000:]
    print(f"systemd-analyze security {APP}.service: {exposure.group(1)}")
    assert float(exposure.group(1)) <= 3.0, rating

    # --- a power cut after the switch to a version that never says READY=1 -------------
    update = machine.install("1.0.3", background=True)

    def switched_and_starting() -> bool:
        return (machine.in_use().startswith("1.0.3-")
                and machine.inside("systemctl", "show", "--property=SubState", "--value",
                                   APP).strip() == "start"
                and (machine.merged / "opt" / APP / "update-pending").exists())

    until("install.sh switches to 1.0.3 and waits for its READY=1", switched_and_starting,
          INSTALL_S, machine.describe)
    cut_off = machine.in_use()
    machine.box.power_cut()
    update.wait(60)  # it ended with the container
    # the disk as the cut left it: switched, not ready
    assert machine.in_use() == cut_off, (self_log := machine.work / "install-1.0.3.err",
                                         self_log.read_text()[-3000:])

    # the card image's read-only root, made writable by hand for the update (this
    # container's root was writable): the next boot mounts it read-only again, and the
    # going back must make it writable for that moment, and read-only again after
    machine.boot(settle=False, read_only=True)  # the boot waits for the companion's READY=1
    until("a companion ready again after the power cut", lambda: machine.running(),
          READY_S, machine.describe)
    assert machine.running() == good and machine.in_use() == good, machine.describe()
    assert not (machine.merged / "opt" / APP / "update-pending").exists()
    boot_log = machine.inside("journalctl", "--no-pager", "-b", "-o", "cat", "-u",
                              f"{APP}-update-check")
    assert f"the update to {cut_off} was cut off before it reported ready: back to {good}" \
        in boot_log, boot_log
    machine.follows(good)
    # 1.0.2's unit again, on the disk and as systemd started the companion with it
    installed_unit = machine.merged / "etc" / "systemd" / "system" / f"{APP}.service"
    assert UNIT_MARK not in installed_unit.read_text(encoding="utf-8")
    assert f"back to the service unit {good} ran with" in boot_log, boot_log
    assert "the root is read-only: writable for going back" in boot_log, boot_log
    assert "the root is read-only again" in boot_log, boot_log
    root_options = machine.inside("findmnt", "-n", "-o", "OPTIONS", "/").strip()
    assert "ro" in root_options.split(","), root_options
    refused = machine.inside("sh", "-c", "touch /update-test-write 2>&1; echo status $?")
    assert "Read-only file system" in refused, refused
    shown = machine.inside("systemctl", "show", "--property=Environment",
                           "--property=NeedDaemonReload", APP)
    assert "COMPANION_UPDATE_TEST_UNIT" not in shown and "NeedDaemonReload=no" in shown, shown
    cy = machine.phone("player:P3")
    every_payment_is_there(cy)
    cy.close()
