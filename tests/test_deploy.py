"""The Raspberry Pi install: shellcheck, the systemd unit, and install.sh's dry runs.

The dry runs are hermetic: PATH holds only stubs and a few read-only tools, so a command
that install.sh ran instead of printing is either logged by a stub (and the test fails)
or not found at all. The stubs answer the questions install.sh asks (does the user exist,
is the package installed) from environment variables that describe a fake host.
"""

from __future__ import annotations

import getpass
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
INSTALL = DEPLOY / "install.sh"
UNIT = DEPLOY / "table-companion.service"
GROUPS = ["video", "render", "input", "gpio", "audio", "dialout"]
PACKAGES = [
    "python3", "python3-venv", "rsync", "ca-certificates", "udev", "fonts-dejavu-core",
    "libgbm1", "libdrm2", "libegl1", "libgles2", "libgl1-mesa-dri", "alsa-utils", "libasound2",
    "espeak-ng", "avahi-daemon",
]
HOTSPOT_PACKAGES = ["network-manager", "wpasupplicant", "dnsmasq-base"]
AVAHI = DEPLOY / "avahi" / "table-companion.service"
WATCHDOG_CONF = DEPLOY / "systemd" / "watchdog.conf"
#: the version directory of an earlier install (versions/OLD/venv)
OLD = "0.0.9-20260101T000000Z"
JOURNALD_CONF = DEPLOY / "systemd" / "journald.conf"
UPDATE_CHECK = DEPLOY / "update-check.sh"
UPDATE_CHECK_UNIT = DEPLOY / "systemd" / "table-companion-update-check.service"
#: the optional httptools step (scripts/install-fast.sh), run from the checkout
FAST_STEP = str(REPO / "scripts" / "install-fast.sh")
SKIP_DIRS = {".git", ".venv", "node_modules", "build", "__pycache__"}


def tool(name: str, package: str) -> str:
    """The path of a required tool; fail (never skip) with how to get it."""
    path = shutil.which(name)
    if path is None:
        pytest.fail(
            f"{name} is not installed: run ./test.sh (scripts/test-setup.d/20-deploy.sh "
            f"installs it) or apt-get install {package}"
        )
    return path


def shell_scripts() -> list[Path]:
    """Every shell script in the repository: *.sh and files with a sh/bash shebang."""
    found = []
    for dirpath, dirnames, filenames in os.walk(REPO):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            path = Path(dirpath, name)
            if name.endswith(".sh"):
                found.append(path)
            elif path.suffix == "" and path.is_file():
                with path.open("rb") as f:
                    first = f.readline(100)
                if first.startswith(b"#!") and (b"bash" in first or b"/sh" in first):
                    found.append(path)
    return sorted(found)


def test_every_deploy_script_is_found() -> None:
    names = {p.relative_to(REPO).as_posix() for p in shell_scripts()}
    mine = {"deploy/install.sh", "deploy/companion.sh", "deploy/test-arm64.sh",
            "scripts/test-setup.d/20-deploy.sh"}
    assert mine <= names


@pytest.mark.parametrize("script", shell_scripts(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_shellcheck(script: Path) -> None:
    shellcheck = tool("shellcheck", "shellcheck")
    result = subprocess.run(
        [shellcheck, "--external-sources", "--source-path=SCRIPTDIR", script.name],
        cwd=script.parent, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# --- the systemd unit --------------------------------------------------------------------


def unit_entries(text: str) -> dict[str, list[str]]:
    """The unit's "Section.Key" -> values (keys may repeat), ignoring comments."""
    entries: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        entries.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return entries


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    """systemd-analyze verify, with ExecStart's program made to exist in a temp dir."""
    analyze = tool("systemd-analyze", "systemd")
    text = UNIT.read_text(encoding="utf-8")
    real = "/opt/table-companion/venv/bin/companion"
    assert f"ExecStart={real} " in text
    program = tmp_path / real.lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    program.chmod(0o755)
    unit = tmp_path / "table-companion.service"
    unit.write_text(text.replace(f"ExecStart={real} ", f"ExecStart={program} "), encoding="utf-8")
    result = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, check=False
    )
    # verify exits 0 on unknown keys and bad values but reports them: both must be clean.
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr


def test_systemd_analyze_catches_a_bad_unit(tmp_path: Path) -> None:
    """The check above can fail: a misspelt key in the same unit is reported."""
    analyze = tool("systemd-analyze", "systemd")
    unit = tmp_path / "table-companion.service"
    text = UNIT.read_text(encoding="utf-8").replace("Restart=always", "Restrat=always")
    unit.write_text(text.replace("/opt/table-companion/venv/bin/companion", "/bin/true"))
    result = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    assert "Restrat" in result.stderr


def test_unit_runs_the_companion_as_the_brief_says() -> None:
    entries = unit_entries(UNIT.read_text(encoding="utf-8"))
    exec_start = shlex.split(entries["Service.ExecStart"][0])
    assert exec_start[:2] == ["/opt/table-companion/venv/bin/companion", "run"]
    assert "--headless" not in exec_start
    assert exec_start[exec_start.index("--config") + 1] == "/etc/table-companion/config.toml"
    assert entries["Service.Restart"] == ["always"]
    assert entries["Service.StateDirectory"] == ["table-companion"]
    assert entries["Service.User"] == ["companion"]
    assert entries["Service.SupplementaryGroups"][0].split() == GROUPS
    env = dict(e.split("=", 1) for e in entries["Service.Environment"])
    assert env["COMPANION_DATA_DIR"] == "/var/lib/table-companion"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["COMPANION_CONFIG"] == "/etc/table-companion/config.toml"
    assert entries["Install.WantedBy"] == ["multi-user.target"]
    # No desktop: nothing about X11, Wayland or a graphical session.
    assert not any("graphical" in v or "DISPLAY" in v for vs in entries.values() for v in vs)


def test_unit_heals_itself_and_is_hardened() -> None:
    """Type=notify with a watchdog, and a read-only system but for state and config."""
    entries = unit_entries(UNIT.read_text(encoding="utf-8"))
    assert entries["Service.Type"] == ["notify"]
    assert entries["Service.NotifyAccess"] == ["main"]  # the Python process, not a wrapper
    assert 10 <= int(entries["Service.WatchdogSec"][0]) <= 60
    assert entries["Unit.Wants"] == ["time-sync.target"]
    assert "time-sync.target" in " ".join(entries["Unit.After"]).split()
    for key in ("NoNewPrivileges", "PrivateTmp", "ProtectHome", "ProtectKernelTunables",
                "ProtectControlGroups", "LockPersonality", "ProtectKernelModules"):
        assert entries[f"Service.{key}"] == ["yes"], key
    assert entries["Service.ProtectSystem"] == ["strict"]
    assert entries["Service.StateDirectory"] == ["table-companion"]
    assert entries["Service.ConfigurationDirectory"] == ["table-companion"]
    assert set(entries["Service.ReadWritePaths"][0].split()) == {
        "/var/lib/table-companion", "/etc/table-companion",
    }
    families = entries["Service.RestrictAddressFamilies"][0].split()
    assert set(families) == {"AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"}
    # The screen, input, GPIO, sound and serial devices must stay reachable.
    for closing in ("PrivateDevices", "DeviceAllow", "DevicePolicy", "ProtectClock"):
        assert f"Service.{closing}" not in entries, closing


def test_avahi_service_advertises_the_phone_remote() -> None:
    import xml.etree.ElementTree as ET

    root = ET.parse(AVAHI).getroot()
    assert root.tag == "service-group"
    assert "%h" in (root.findtext("name") or "")
    service = root.find("service")
    assert service is not None
    assert service.findtext("type") == "_http._tcp"
    assert service.findtext("port") == "8080"  # install.sh puts the configured port here
    assert AVAHI.read_text(encoding="utf-8").count("<port>8080</port>") == 1


def test_wrapper_points_at_the_installed_app() -> None:
    text = (DEPLOY / "companion.sh").read_text(encoding="utf-8")
    assert "exec /opt/table-companion/venv/bin/companion \"$@\"" in text
    assert "COMPANION_DATA_DIR:-/var/lib/table-companion" in text


def test_udev_rule_gives_readers_to_dialout() -> None:
    rules = [
        line for line in (DEPLOY / "99-table-companion-readers.rules").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    tty = [r for r in rules if 'SUBSYSTEM=="tty"' in r]
    assert tty and all('GROUP="dialout"' in r and 'MODE="0660"' in r for r in tty)
    for rule in rules:  # every assignment and match is KEY=="v", KEY="v" or KEY{a}=="v"
        for part in rule.split(", "):
            assert "=" in part and part.endswith('"'), (rule, part)


# --- install.sh, hermetic dry runs ------------------------------------------------------

READ_ONLY_TOOLS = [
    "awk", "basename", "bash", "cat", "cmp", "date", "dirname", "find", "grep", "mktemp",
    "readlink", "rm", "sed", "uname",
]
MUTATING_STUBS = [
    "apt-get", "useradd", "usermod", "groupadd", "userdel", "install", "rsync", "chown",
    "python3", "ln", "mv", "udevadm", "apt", "pip", "hostnamectl", "sync",
]
STUB = r"""#!/bin/bash
# A fake system command for tests/test_deploy.py: answers questions, logs changes.
name="${0##*/}"
has() { [[ " $1 " == *" $2 "* ]]; }
case "$name" in
    id)
        if [ $# -eq 1 ] && [ "$1" = -u ]; then echo "$FAKE_UID"; exit 0; fi
        if [ "$1" = -u ]; then has "$FAKE_USERS" "$2"; exit; fi
        if [ "$1" = -nG ]; then echo "$FAKE_USER_GROUPS"; exit 0; fi ;;
    getent) has "$FAKE_GROUPS" "$2"; exit ;;
    dpkg-query)
        if has "$FAKE_PACKAGES" "${*: -1}"; then printf 'install ok installed'; exit 0; fi
        exit 1 ;;
    systemctl)
        if [ "$1" = get-default ]; then echo "$FAKE_DEFAULT_TARGET"; exit 0; fi ;;
    raspi-config)
        if [ "$2" = get_serial_hw ]; then echo "$FAKE_SERIAL_HW"; exit 0; fi
        if [ "$2" = get_serial_cons ]; then echo "$FAKE_SERIAL_CONS"; exit 0; fi
        if [ "$2" = get_wifi_country ]; then echo "$FAKE_WIFI_COUNTRY"; exit 0; fi ;;
esac
echo "$name $*" >>"$FAKE_LOG"
"""


@dataclass
class FakeHost:
    """A Pi as install.sh's questions see it, and a root directory for its files."""

    root: Path
    users: list[str] = field(default_factory=list)
    user_groups: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=lambda: ["video", "audio", "input", "dialout"])
    packages: list[str] = field(default_factory=lambda: ["python3", "udev"])
    uid: int = 0
    default_target: str = "multi-user.target"
    raspi_config: bool = True
    serial_on: bool = False
    wifi_country: str = ""
    systemd_running: bool = True
    udev_running: bool = True

    def run(self, *args: str, fake_root: bool = True, extra_stubs: Iterable[str] = (),
            tools: Mapping[str, str] | None = None, real: Iterable[str] = (),
            env: Mapping[str, str] | None = None) -> Run:
        """Run install.sh with `args` on this host; return its output and commands."""
        bin_dir = self.root.parent / "bin"
        bin_dir.mkdir(exist_ok=True)
        for name in READ_ONLY_TOOLS:
            target = bin_dir / name
            if not target.exists():
                found = shutil.which(name)
                assert found, f"{name} is needed to run the dry-run tests"
                target.symlink_to(found)
        stubs = ["id", "getent", "dpkg-query", "systemctl", *MUTATING_STUBS, *extra_stubs]
        if self.raspi_config:
            stubs.append("raspi-config")
        for name in stubs:
            stub = bin_dir / name
            stub.unlink(missing_ok=True)  # never write through a link to a real tool
            stub.write_text(STUB, encoding="utf-8")
            stub.chmod(0o755)
        for name, script in (tools or {}).items():  # a test's own stand-ins
            (bin_dir / name).unlink(missing_ok=True)
            (bin_dir / name).write_text(script, encoding="utf-8")
            (bin_dir / name).chmod(0o755)
        for name in real:  # real tools in place of stubs (for a real run into the root):
            (bin_dir / name).unlink(missing_ok=True)  # copies, so that the next run's
            found = shutil.which(name)  # stubs can never be written into the system's
            assert found, name
            shutil.copy(found, bin_dir / name)
        if self.systemd_running:
            (self.root / "run/systemd/system").mkdir(parents=True, exist_ok=True)
        if self.systemd_running and self.udev_running:  # udevd's control socket
            (self.root / "run/udev").mkdir(parents=True, exist_ok=True)
            (self.root / "run/udev/control").touch()
        log = self.root.parent / "changes.log"
        log.write_text("", encoding="utf-8")
        environ = {
            "PATH": str(bin_dir),
            "HOME": str(self.root),
            "FAKE_LOG": str(log),
            "FAKE_UID": str(self.uid),
            "FAKE_USERS": " ".join(self.users),
            "FAKE_USER_GROUPS": " ".join(self.user_groups),
            "FAKE_GROUPS": " ".join(self.groups),
            "FAKE_PACKAGES": " ".join(self.packages),
            "FAKE_DEFAULT_TARGET": self.default_target,
            "FAKE_SERIAL_HW": "0" if self.serial_on else "1",
            "FAKE_SERIAL_CONS": "1" if self.serial_on else "0",
            "FAKE_WIFI_COUNTRY": self.wifi_country,
            **(env or {}),
        }
        if fake_root:
            environ["TABLE_COMPANION_ROOT"] = str(self.root)
        result = subprocess.run(
            [str(bin_dir / "bash"), str(INSTALL), *args],
            env=environ, capture_output=True, text=True, check=False,
        )
        return Run(result.returncode, result.stdout, result.stderr, log.read_text())

    def install_everything(self, user: str = "companion") -> None:
        """Make this host look like one where install.sh has already run."""
        self.users = [user]
        self.user_groups = [user, *GROUPS]
        self.groups = list(GROUPS)
        self.packages = list(PACKAGES)
        self.serial_on = True
        unit = UNIT.read_text(encoding="utf-8")
        unit = unit.replace("User=companion\n", f"User={user}\n")
        unit = unit.replace("Group=companion\n", f"Group={user}\n")
        files = {
            "etc/systemd/system/table-companion.service": unit,
            "etc/avahi/services/table-companion.service": AVAHI.read_text(),
            "etc/udev/rules.d/99-table-companion-readers.rules":
                (DEPLOY / "99-table-companion-readers.rules").read_text(),
            "etc/table-companion/config.toml": (DEPLOY / "config.toml").read_text(),
            f"opt/table-companion/versions/{OLD}/src/deploy/companion.sh":
                (DEPLOY / "companion.sh").read_text(),
            f"opt/table-companion/versions/{OLD}/venv/bin/python": "#!/bin/sh\n",
            f"opt/table-companion/versions/{OLD}/venv/pyvenv.cfg":
                "home = /usr/bin\nversion = 3.11.2\n",
            "var/lib/table-companion/games/one.json": "{}",
            "etc/systemd/system.conf.d/table-companion-watchdog.conf": WATCHDOG_CONF.read_text(),
            "etc/systemd/journald.conf.d/table-companion.conf": JOURNALD_CONF.read_text(),
            "usr/local/lib/table-companion/update-check.sh": UPDATE_CHECK.read_text(),
            "etc/systemd/system/table-companion-update-check.service":
                UPDATE_CHECK_UNIT.read_text(),
            "etc/hostname": "table\n",
            "etc/hosts": "127.0.0.1\tlocalhost\n127.0.1.1\ttable\n",
        }
        for name, text in files.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        (self.root / f"opt/table-companion/versions/{OLD}/venv/bin/python").chmod(0o755)
        (self.root / "opt/table-companion/venv").symlink_to(f"versions/{OLD}/venv")
        (self.root / "opt/table-companion/src").symlink_to(f"versions/{OLD}/src")
        (self.root / "usr/local/bin").mkdir(parents=True, exist_ok=True)
        (self.root / "usr/local/bin/companion").symlink_to(
            "../../../opt/table-companion/src/deploy/companion.sh")
        (self.root / "var/lib/table-companion").chmod(0o750)
        wants = self.root / "etc/systemd/system/multi-user.target.wants"
        wants.mkdir(parents=True, exist_ok=True)
        (wants / UPDATE_CHECK_UNIT.name).symlink_to(f"../{UPDATE_CHECK_UNIT.name}")


@dataclass
class Run:
    """What one install.sh run printed and changed."""

    returncode: int
    stdout: str
    stderr: str
    changes: str

    @property
    def commands(self) -> list[list[str]]:
        """The commands it printed (each step's `$ command` line), split like a shell."""
        return [
            shlex.split(line.strip()[1:])
            for line in self.stdout.splitlines()
            if line.startswith("    $ ")
        ]

    @property
    def root(self) -> str:
        """The fake root the commands were printed for (from the data directory step)."""
        for command in self.commands:
            if command[-1].endswith("/var/lib/table-companion") and command[0] == "install":
                return command[-1].removesuffix("/var/lib/table-companion")
        return ""

    def find(self, *prefix: str) -> list[list[str]]:
        """The printed commands starting with `prefix`."""
        return [c for c in self.commands if c[: len(prefix)] == list(prefix)]

    def has(self, *prefix: str) -> bool:
        return bool(self.find(*prefix))

    def last_args(self) -> set[str]:
        return {c[-1] for c in self.commands}


@pytest.fixture
def host(tmp_path: Path) -> FakeHost:
    root = tmp_path / "root"
    root.mkdir()
    return FakeHost(root=root)


def assert_dry(run: Run) -> None:
    """A dry run succeeded and changed nothing."""
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("Dry run:")
    assert run.changes == "", f"a dry run ran commands: {run.changes}"


def test_dry_run_on_a_fresh_pi_prints_every_step(host: FakeHost) -> None:
    host.uid = 1000  # no root needed for a dry run
    run = host.run("--dry-run")
    assert_dry(run)
    apt = run.find("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install")
    assert len(apt) == 1
    assert set(apt[0][apt[0].index("--no-install-recommends") + 1 :]) == set(PACKAGES) - {
        "python3", "udev",
    }
    assert run.find("apt-get", "update")
    assert run.find("groupadd") == [
        ["groupadd", "--system", "render"], ["groupadd", "--system", "gpio"],
    ]
    useradd = run.find("useradd")
    assert len(useradd) == 1 and useradd[0][-1] == "companion"
    assert useradd[0][useradd[0].index("--home-dir") + 1] == "/var/lib/table-companion"
    assert run.find("usermod", "--append", "--groups", ",".join(GROUPS), "companion")
    root = str(host.root)
    assert run.find("install", "-d", "-m", "0750", "-o", "companion", "-g", "companion",
                    f"{root}/var/lib/table-companion")
    release = new_release(run)
    rsync = run.find("rsync")  # a copy of the checkout for this version alone
    assert rsync and rsync[0][-2:] == [
        f"{REPO}/", f"{root}/opt/table-companion/versions/{release}/src/"]
    assert "--exclude=.git/" in rsync[0] and "--delete" in rsync[0]
    assert re.fullmatch(r"0\.1\.0-\d{8}T\d{6}Z", release), release
    assert_builds_and_installs_the_wheel(run)
    assert_switches_to(run, release)
    installs = {c[-1]: c[-2] for c in run.find("install", "-D")}
    assert installs.pop(f"{root}/etc/avahi/services/table-companion.service")
    assert installs == {
        f"{root}/etc/table-companion/config.toml": str(DEPLOY / "config.toml"),
        f"{root}/etc/udev/rules.d/99-table-companion-readers.rules":
            str(DEPLOY / "99-table-companion-readers.rules"),
        f"{root}/etc/systemd/system/table-companion.service": str(UNIT),
        f"{root}/etc/systemd/system.conf.d/table-companion-watchdog.conf": str(WATCHDOG_CONF),
        f"{root}/etc/systemd/journald.conf.d/table-companion.conf": str(JOURNALD_CONF),
        f"{root}/usr/local/lib/table-companion/update-check.sh": str(UPDATE_CHECK),
        f"{root}/etc/systemd/system/table-companion-update-check.service":
            str(UPDATE_CHECK_UNIT),
    }
    # the command follows the copy in use, and with it the version that runs
    assert run.find("ln", "-sfn", "../../../opt/table-companion/src/deploy/companion.sh") == [[
        "ln", "-sfn", "../../../opt/table-companion/src/deploy/companion.sh",
        f"{root}/usr/local/bin/companion"]]
    assert run.has("systemctl", "enable", "table-companion-update-check.service")
    assert not run.find("install", "-m", "0644")  # a first install: nothing to go back to
    assert run.find("hostnamectl") == [["hostnamectl", "hostname", "table"]]
    assert "phones open http://table.local:8080/" in run.stdout
    assert run.has("systemctl", "daemon-reexec")
    assert run.has("systemctl", "restart", "systemd-journald.service")
    assert run.has("udevadm", "control", "--reload-rules")
    assert run.has("systemctl", "daemon-reload")
    assert run.has("systemctl", "enable", "table-companion.service")
    assert run.has("systemctl", "restart", "table-companion.service")
    assert not run.has("raspi-config")
    assert "pass --enable-uart" in run.stdout
    assert "pass --hotspot" in run.stdout and not run.has("/usr/bin/python3", REPO_HOTSPOT)


REPO_HOTSPOT = str(DEPLOY / "hotspot.py")


def new_release(run: Run) -> str:
    """The version directory (versions/NAME/venv) the run made its new venv in."""
    venvs = run.find("/usr/bin/python3", "-m", "venv")
    assert len(venvs) == 1, run.commands
    path = Path(venvs[0][-1])
    assert path.name == "venv" and path.parent.parent.name == "versions"
    assert str(path.parent.parent).endswith("/opt/table-companion/versions")
    return path.parent.name


def assert_switches_to(run: Run, release: str) -> None:
    """$prefix/src and $prefix/venv become links to versions/RELEASE's, each renamed over
    the old link."""
    prefix = f"{run.root}/opt/table-companion"
    assert [c for c in run.find("ln", "-sfn") if c[2].startswith("versions/")] == [
        ["ln", "-sfn", f"versions/{release}/src", f"{prefix}/src.new"],
        ["ln", "-sfn", f"versions/{release}/venv", f"{prefix}/venv.new"]]
    assert run.find("mv", "-T", f"{prefix}/src.new") == [
        ["mv", "-T", f"{prefix}/src.new", f"{prefix}/src"]]
    assert run.find("mv", "-T", f"{prefix}/venv.new") == [
        ["mv", "-T", f"{prefix}/venv.new", f"{prefix}/venv"]]
    link = run.commands.index(["mv", "-T", f"{prefix}/venv.new", f"{prefix}/venv"])
    pip = [i for i, c in enumerate(run.commands) if "pip" in c or FAST_STEP in c]
    assert pip and max(pip) < link  # switched only once the new venv is complete
    restart = ["systemctl", "restart", "table-companion.service"]
    if restart in run.commands:
        assert link < run.commands.index(restart)


def assert_builds_and_installs_the_wheel(run: Run) -> None:
    """A plain-Python wheel built without a compiler, with the locked build tools only (no
    build isolation: nothing fetched unpinned), then installed with the locked dependencies,
    all in a new venv of its own."""
    root = str(run.root)
    release = f"{root}/opt/table-companion/versions/{new_release(run)}"
    pip = [f"{release}/venv/bin/python", "-m", "pip", "--disable-pip-version-check"]
    lock = f"{release}/src/requirements"
    build = run.find("env", "COMPANION_COMPILE=0", *pip, "wheel")
    assert len(build) == 1
    assert "--no-build-isolation" in build[0] and "--no-deps" in build[0]
    assert build[0][-1] == f"{release}/src"
    assert build[0][build[0].index("--wheel-dir") + 1] == f"{release}/wheels"
    assert run.find(*pip, "install", "--quiet", "--no-cache-dir", "--require-hashes",
                    "-r", f"{lock}/build.txt")
    assert run.find(*pip, "install", "--quiet", "--no-cache-dir", "--require-hashes",
                    "-r", f"{lock}/run.txt")
    app = [c for c in run.find(*pip, "install") if c[-1].endswith(".whl")]
    assert app == [[*pip, "install", "--quiet", "--no-cache-dir", "--no-deps",
                    f"{release}/wheels/table_companion-0.1.0-py3-none-any.whl"]]
    assert not any("--editable" in c or "-e" in c for c in run.commands)
    # every pip install of a package is from a lock file, but the app's own wheel
    for command in run.find(*pip, "install"):
        assert "--require-hashes" in command or command == app[0], command
    # then the optional C HTTP parser, into the same venv, by the one step for it
    assert run.find("bash", FAST_STEP) == [["bash", FAST_STEP, pip[0], "--no-cache-dir"]]
    order = [i for i, c in enumerate(run.commands)
             if c[: len(pip)] == pip or c[2:6] == pip or c[:2] == ["bash", FAST_STEP]]
    first = {"env": "wheel", "bash": "httptools"}
    kinds = [first[c[0]] if c[0] in first else c[len(pip)]
             for c in (run.commands[i] for i in order)]
    assert kinds == ["install", "wheel", "install", "install", "httptools"]


def test_no_compiler_on_the_pi(host: FakeHost) -> None:
    run = host.run("--dry-run")
    assert_dry(run)
    apt = run.find("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install")[0]
    for compiler in ("gcc", "libc6-dev", "python3-dev", "build-essential", "cc"):
        assert compiler not in apt
    assert "gcc" not in INSTALL.read_text(encoding="utf-8").split("readonly HOTSPOT")[0]


def test_a_given_wheel_is_installed_instead_of_building(host: FakeHost, tmp_path: Path) -> None:
    wheel = tmp_path / "table_companion-0.2.0-cp311-cp311-linux_aarch64.whl"
    wheel.write_bytes(b"PK")
    run = host.run("--dry-run", "--wheel", str(wheel))
    assert_dry(run)
    assert not run.find("env", "COMPANION_COMPILE=0")
    python = f"{host.root}/opt/table-companion/versions/{new_release(run)}/venv/bin/python"
    installs = [c for c in run.find(python, "-m", "pip", "--disable-pip-version-check",
                                    "install")]
    assert [c[-1] for c in installs] == [
        f"{host.root}/opt/table-companion/versions/{new_release(run)}/src/requirements/run.txt",
        str(wheel)]
    assert "--no-deps" in installs[1] and "--require-hashes" in installs[0]
    assert run.find("bash", FAST_STEP) == [["bash", FAST_STEP, python, "--no-cache-dir"]]


@pytest.mark.parametrize("wheel", ["missing.whl", "pyproject.toml"])
def test_a_bad_wheel_is_refused(host: FakeHost, wheel: str) -> None:
    run = host.run("--dry-run", "--wheel", str(REPO / wheel))
    assert run.returncode == 2
    assert "is not a wheel file" in run.stderr
    assert run.commands == [] and run.changes == ""


def test_hotspot_installs_network_manager_and_writes_the_profile(host: FakeHost) -> None:
    run = host.run("--dry-run", "--hotspot")
    assert_dry(run)
    apt = run.find("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install")[0]
    assert set(HOTSPOT_PACKAGES) <= set(apt)
    assert run.find("/usr/bin/python3", REPO_HOTSPOT, "--root", str(host.root),
                    "--group", "companion")
    # raspi-config answers no Wi-Fi country (the stub prints nothing): it is asked for.
    assert "do_wifi_country" in run.stderr
    host.wifi_country = "SE"
    run = host.run("--dry-run", "--hotspot")
    assert_dry(run)
    assert "do_wifi_country" not in run.stderr


def test_hotspot_for_another_user_gives_them_the_passphrase(host: FakeHost) -> None:
    run = host.run("--dry-run", "--hotspot", "--user", "pi")
    assert_dry(run)
    assert run.find("/usr/bin/python3", REPO_HOTSPOT, "--root", str(host.root), "--group", "pi")


def test_configured_port_reaches_the_avahi_service(host: FakeHost) -> None:
    """The installed avahi file carries [web] port of the installed config."""
    host.install_everything()
    config = host.root / "etc/table-companion/config.toml"
    config.write_text(config.read_text().replace("port = 8080 ", "port = 9090 "))
    avahi = host.root / "etc/avahi/services/table-companion.service"
    avahi.write_text(AVAHI.read_text().replace("<port>8080</port>", "<port>9090</port>"))
    run = host.run("--dry-run")
    assert_dry(run)
    assert "phones find http://<this Pi's name>.local:9090/" in run.stdout
    assert "/etc/avahi/services/table-companion.service is up to date" in run.stdout
    config.write_text(config.read_text().replace("port = 9090 ", "port = 7000 "))
    run = host.run("--dry-run")
    assert run.find("install", "-D", "-m", "0644")[0][-1] == str(avahi)


def test_steps_run_in_a_sensible_order(host: FakeHost) -> None:
    run = host.run("--dry-run")
    assert_dry(run)
    order = [c[0] if c[0] != "env" else c[2] for c in run.commands]
    first = {name: order.index(name) for name in reversed(order)}
    assert first["apt-get"] < first["useradd"] < first["rsync"] < first["/usr/bin/python3"]
    assert first["/usr/bin/python3"] < first["systemctl"]
    assert order[-1] == "systemctl"  # the service starts last, once everything is there


def test_enable_uart_uses_raspi_config_and_asks_for_a_reboot(host: FakeHost) -> None:
    run = host.run("--dry-run", "--enable-uart")
    assert_dry(run)
    assert run.find("raspi-config") == [
        ["raspi-config", "nonint", "do_serial_hw", "0"],
        ["raspi-config", "nonint", "do_serial_cons", "1"],
    ]
    assert "sudo reboot" in run.stdout
    # the reader would not work until then
    assert not run.has("systemctl", "restart", "table-companion.service")
    assert run.has("systemctl", "enable", "table-companion.service")


def pi(host: FakeHost, model: str, config: str | None = "[all]\nenable_uart=1\n") -> Path:
    """Make `host` a Raspberry Pi `model` (its device tree's name) with config.txt."""
    tree = host.root / "proc/device-tree/model"
    tree.parent.mkdir(parents=True, exist_ok=True)
    tree.write_bytes(model.encode() + b"\0")
    boot = host.root / "boot/firmware/config.txt"
    if config is not None:
        boot.parent.mkdir(parents=True, exist_ok=True)
        boot.write_text(config, encoding="utf-8")
    return boot


def sed_appends(run: Run, file: Path) -> list[str]:
    """The lines install.sh's `sed -i -e '$a LINE' ... FILE` commands append to `file`."""
    lines = []
    for command in run.find("sed", "-i"):
        if command[-1] == str(file):
            lines += [arg.removeprefix("$a ") for arg in command[2:-1] if arg.startswith("$a ")]
    return lines


def test_enable_uart_on_a_pi_5_adds_the_header_overlay(host: FakeHost) -> None:
    config = pi(host, "Raspberry Pi 5 Model B Rev 1.0")
    run = host.run("--dry-run", "--enable-uart")
    assert_dry(run)
    assert "dtoverlay=uart0-pi5" in sed_appends(run, config)
    assert sed_appends(run, config)[:2] == ["[all]", "dtoverlay=uart0-pi5"]
    assert "rdm6300:/dev/ttyAMA0" in run.stdout and "sudo reboot" in run.stdout
    assert "==> Done\n" in run.stdout
    # already there: nothing appended, and no reboot asked for it
    config.write_text("dtparam=watchdog=on\n[all]\ndtoverlay=uart0-pi5\n")
    host.serial_on = True
    run = host.run("--dry-run", "--enable-uart")
    assert_dry(run)
    assert sed_appends(run, config) == []
    assert run.has("systemctl", "restart", "table-companion.service")


def test_enable_uart_on_a_pi_5_without_config_txt_does_not_claim_success(
    host: FakeHost,
) -> None:
    pi(host, "Raspberry Pi 5 Model B Rev 1.0", config=None)
    run = host.run("--dry-run", "--enable-uart")
    assert run.returncode == 1 and run.changes == ""
    assert "==> Done\n" not in run.stdout
    assert "not done: the serial port on GPIO 14/15" in run.stderr
    assert "dtoverlay=uart0-pi5" in run.stderr


def test_enable_uart_on_a_pi_4_needs_no_overlay(host: FakeHost) -> None:
    config = pi(host, "Raspberry Pi 4 Model B Rev 1.4")
    run = host.run("--dry-run", "--enable-uart")
    assert_dry(run)
    assert not any("uart0-pi5" in line for line in sed_appends(run, config))
    assert "ttyAMA0" not in run.stdout


def test_watchdog_and_journal_caps(host: FakeHost) -> None:
    """systemd feeds the SoC's watchdog; the SoC's dtparam is switched on where there is a
    config.txt; the journal is capped."""
    config = pi(host, "Raspberry Pi 4 Model B Rev 1.4")
    run = host.run("--dry-run")
    assert_dry(run)
    assert sed_appends(run, config) == ["[all]", "dtparam=watchdog=on"]
    watchdog = unit_entries(WATCHDOG_CONF.read_text())
    seconds = int(watchdog["Manager.RuntimeWatchdogSec"][0].removesuffix("s"))
    assert 0 < seconds <= 15  # the Pi's bcm2835-wdt waits 15 s at the most
    assert watchdog["Manager.RebootWatchdogSec"]
    journal = unit_entries(JOURNALD_CONF.read_text())
    assert journal["Journal.SystemMaxUse"] == ["50M"]
    assert journal["Journal.SystemKeepFree"] and journal["Journal.RuntimeMaxUse"]
    # a config.txt that already says (even "off", the maker's choice) is left alone
    config.write_text("dtparam=watchdog=off\n")
    run = host.run("--dry-run")
    assert sed_appends(run, config) == []
    assert "already has dtparam=watchdog=off" in run.stdout


def test_the_drop_ins_go_where_systemd_reads_them(host: FakeHost, tmp_path: Path) -> None:
    """Put where install.sh installs them, systemd's own cat-config finds both drop-ins,
    each of one section only."""
    analyze = tool("systemd-analyze", "systemd")
    run = host.run("--dry-run")
    assert_dry(run)
    targets = {c[-2]: c[-1] for c in run.find("install", "-D")}
    image = tmp_path / "image"
    for conf, config, section in ((WATCHDOG_CONF, "systemd/system.conf", "Manager"),
                                  (JOURNALD_CONF, "systemd/journald.conf", "Journal")):
        target = Path(targets[str(conf)].removeprefix(str(host.root)))
        placed = image / target.relative_to("/")
        placed.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(conf, placed)
        result = subprocess.run([analyze, "cat-config", f"--root={image}", config],
                                capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr
        assert f"# {placed}\n" in result.stdout, result.stdout
        assert {k.split(".", 1)[0] for k in unit_entries(conf.read_text())} == {section}


@pytest.mark.parametrize(
    ("before", "args", "after"),
    [
        (None, [], "table"),  # a fresh Debian root: no name
        ("raspberrypi", [], "table"),  # the image's default
        ("companion", [], None),  # chosen in Imager: kept
        ("companion", ["--hostname", "kitchen"], "kitchen"),
        ("table", [], None),
    ],
)
def test_hostname_is_set_or_kept(
    host: FakeHost, before: str | None, args: list[str], after: str | None
) -> None:
    host.systemd_running = False  # a chroot or an image: the files themselves
    if before is not None:
        (host.root / "etc").mkdir()
        (host.root / "etc/hostname").write_text(before + "\n")
        (host.root / "etc/hosts").write_text(f"127.0.0.1\tlocalhost\n127.0.1.1\t{before}\n")
    run = host.run("--dry-run", *args)
    assert_dry(run)
    name = after or before
    assert f"phones open http://{name}.local:8080/" in run.stdout
    written = [c for c in run.find("install", "-D") if c[-1] == f"{host.root}/etc/hostname"]
    hosts = [c for c in run.find("sed", "-i") if c[-1] == f"{host.root}/etc/hosts"]
    if after is None:
        assert written == [] and hosts == []
        if before != "table":
            assert f"keeping the hostname '{before}'" in run.stdout
    else:
        assert len(written) == 1
        assert f"becomes '{after}'" in run.stdout
        if before is None:
            assert hosts == [] and "no /etc/hosts" in run.stdout
        else:
            assert len(hosts) == 1
            subprocess.run(hosts[0], check=True)  # the printed command, for real
            assert (host.root / "etc/hosts").read_text() == (
                f"127.0.0.1\tlocalhost\n127.0.1.1\t{after}\n")


@pytest.mark.parametrize("name", ["Kitchen", "-table", "a_b", "x" * 64, "tab.le"])
def test_bad_hostname_is_refused(host: FakeHost, name: str) -> None:
    run = host.run("--dry-run", "--hostname", name)
    assert run.returncode == 2 and "not a valid host name" in run.stderr
    assert run.commands == [] and run.changes == ""


def test_enable_uart_without_raspi_config_explains(host: FakeHost) -> None:
    host.raspi_config = False
    run = host.run("--dry-run", "--enable-uart")
    assert_dry(run)
    assert "enable_uart=1" in run.stderr and "console=serial0" in run.stderr


def test_second_run_changes_only_the_app(host: FakeHost) -> None:
    """Idempotent: on an installed Pi only the app copy, pip and the restart remain."""
    me = getpass.getuser()  # find -user needs a real user to check the data's owner
    host.install_everything(user=me)
    run = host.run("--dry-run", "--enable-uart", "--user", me)
    assert_dry(run)
    prefix = f"{host.root}/opt/table-companion"
    release = new_release(run)
    python = f"{prefix}/versions/{release}/venv/bin/python"
    pending = run.find("install", "-m", "0644")
    assert [c[:5] if c[0] != "env" else c[2:7] for c in run.commands
            if c[0] != "systemctl"] == [
        ["install", "-d", "-m", "0755", f"{prefix}/versions/{release}"],
        ["rsync", "-a", "--checksum", "--delete", "--delete-excluded"],
        ["/usr/bin/python3", "-m", "venv", f"{prefix}/versions/{release}/venv"],
        [python, "-m", "pip", "--disable-pip-version-check", "install"],
        [python, "-m", "pip", "--disable-pip-version-check", "wheel"],
        ["rm", "-rf", f"{prefix}/versions/{release}/src/build"],
        [python, "-m", "pip", "--disable-pip-version-check", "install"],
        [python, "-m", "pip", "--disable-pip-version-check", "install"],
        ["bash", FAST_STEP, python, "--no-cache-dir"],
        ["install", "-m", "0644", pending[0][3], f"{prefix}/update-pending"],
        ["sync", prefix],
        ["ln", "-sfn", f"versions/{release}/src", f"{prefix}/src.new"],
        ["mv", "-T", f"{prefix}/src.new", f"{prefix}/src"],
        ["ln", "-sfn", f"versions/{release}/venv", f"{prefix}/venv.new"],
        ["mv", "-T", f"{prefix}/venv.new", f"{prefix}/venv"],
        ["rm", "-f", f"{prefix}/update-pending"],  # not started (a reboot first): settled
        ["sync", prefix],
    ]
    assert f"(in use now: {OLD})" in run.stdout
    assert [c[1] for c in run.commands if c[0] == "systemctl"] == [
        "daemon-reload", "enable", "restart",
    ]
    for done in ("all installed", f"user {me} exists", "is in video render",
                 f"belongs to {me}", "the serial port is on",
                 "is the example, unchanged", "table-companion.service is up to date",
                 "the hostname is table", "table-companion-watchdog.conf is up to date",
                 "journald.conf.d/table-companion.conf is up to date",
                 "avahi/services/table-companion.service is up to date",
                 "/usr/local/bin/companion is up to date"):
        assert done in run.stdout, done


def test_custom_user_reaches_the_unit(host: FakeHost) -> None:
    """--user NAME rewrites User= and Group=: an installed unit for NAME is up to date."""
    me = getpass.getuser()
    host.install_everything(user=me)
    run = host.run("--dry-run", "--user", me)
    assert_dry(run)
    assert "table-companion.service is up to date" in run.stdout
    assert f"{me} is in video" in run.stdout
    other = host.run("--dry-run")  # the default user's unit differs from this one
    assert other.find("install", "-D", "-m", "0644")[-1][-1].endswith("table-companion.service")


def test_edited_config_is_kept(host: FakeHost) -> None:
    host.install_everything()
    (host.root / "etc/table-companion/config.toml").write_text("[sound]\nvolume = 10\n")
    run = host.run("--dry-run")
    assert_dry(run)
    assert "keeping your edited /etc/table-companion/config.toml" in run.stdout
    assert not any(c[-1].endswith("config.toml") for c in run.commands)


def test_desktop_boot_is_warned_about(host: FakeHost) -> None:
    host.default_target = "graphical.target"
    manager = host.root / "etc/systemd/system/display-manager.service"
    manager.parent.mkdir(parents=True)
    manager.symlink_to("/lib/systemd/system/lightdm.service")  # dangling, as in a chroot
    run = host.run("--dry-run")
    assert_dry(run)
    assert "do_boot_behaviour B1" in run.stderr


def test_graphical_target_without_a_desktop_is_not_warned_about(host: FakeHost) -> None:
    """graphical.target with no display manager installed draws nothing over the table."""
    host.default_target = "graphical.target"
    run = host.run("--dry-run")
    assert_dry(run)
    assert "desktop" not in run.stderr
    assert "no desktop (display manager) holds the screen" in run.stdout


def test_without_systemd_running_the_unit_is_enabled_for_next_boot(host: FakeHost) -> None:
    host.systemd_running = False
    run = host.run("--dry-run")
    assert_dry(run)
    assert run.has("systemctl", "enable", "table-companion.service")
    assert not run.has("systemctl", "daemon-reload") and not run.has("systemctl", "restart")
    assert not run.has("udevadm")


def test_uninstall_removes_all_but_the_saved_games(host: FakeHost) -> None:
    host.install_everything()
    run = host.run("--dry-run", "--uninstall")
    assert_dry(run)
    root = str(host.root)
    assert ["systemctl", "disable", "--now", "table-companion.service"] in run.commands[:2]
    removed = {c[-1] for c in run.find("rm")} | {
        p for c in run.find("rm") for p in c[2:]
    }
    assert removed == {
        f"{root}/etc/systemd/system/table-companion.service",
        f"{root}/etc/avahi/services/table-companion.service",
        f"{root}/etc/udev/rules.d/99-table-companion-readers.rules",
        f"{root}/usr/local/bin/companion",
        f"{root}/opt/table-companion",
        f"{root}/etc/table-companion",
        f"{root}/etc/systemd/system.conf.d/table-companion-watchdog.conf",
        f"{root}/etc/systemd/journald.conf.d/table-companion.conf",
        f"{root}/etc/systemd/system/table-companion-update-check.service",
        f"{root}/usr/local/lib/table-companion",
    }
    assert ["systemctl", "disable", "table-companion-update-check.service"] in run.commands
    assert not any("hostname" in arg or "config.txt" in arg for c in run.commands for arg in c)
    assert run.find("userdel") == [["userdel", "companion"]]  # no --remove: home is the data
    assert not any("/var/lib" in arg for c in run.commands for arg in c)
    assert "saved games stay in /var/lib/table-companion" in run.stdout


def test_uninstall_removes_the_hotspot(host: FakeHost) -> None:
    host.install_everything()
    profile = host.root / "etc/NetworkManager/system-connections" / (
        "table-companion-hotspot.nmconnection")
    profile.parent.mkdir(parents=True)
    profile.write_text("[connection]\n")
    run = host.run("--dry-run", "--uninstall", extra_stubs=["nmcli"])
    assert_dry(run)
    assert ["rm", "-rf", str(profile)] in run.commands
    assert run.commands.index(["rm", "-rf", str(profile)]) < run.commands.index(
        ["nmcli", "connection", "reload"])


def test_uninstall_when_nothing_is_installed_does_nothing(host: FakeHost) -> None:
    run = host.run("--dry-run", "--uninstall")
    assert_dry(run)
    assert run.commands == []
    assert "already gone" in run.stdout


def test_real_run_needs_root(host: FakeHost) -> None:
    host.uid = 1000
    run = host.run(fake_root=False)
    assert run.returncode == 1
    assert "run me as root" in run.stderr
    assert run.commands == [] and run.changes == ""


def test_fake_root_is_only_for_dry_runs(host: FakeHost) -> None:
    run = host.run()
    assert run.returncode == 2
    assert "only for --dry-run" in run.stderr
    assert run.commands == [] and run.changes == ""


@pytest.mark.parametrize("args", [["--user", "Bad User"], ["--user"], ["--frobnicate"]])
def test_bad_arguments(host: FakeHost, args: Iterable[str]) -> None:
    run = host.run("--dry-run", *args)
    assert run.returncode == 2
    assert run.commands == [] and run.changes == ""


def test_help(host: FakeHost) -> None:
    run = host.run("--help")
    assert run.returncode == 0
    for option in ("--dry-run", "--uninstall", "--enable-uart", "--user"):
        assert option in run.stdout


def test_dry_run_on_this_machine() -> None:
    """The CI dry run: the real script on the real host, no stubs, no root needed."""
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--enable-uart"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for step in ("System packages", "Service user", "Data directory", "The app in",
                 "Configuration", "mDNS", "Hostname", "The Pi's own Wi-Fi", "Serial port",
                 "Hardware watchdog", "The log capped", "udev rule", "systemd service",
                 "Done"):
        assert f"==> {step}" in result.stdout, step
    out = result.stdout.replace("\\", "")
    assert re.search(r"--no-deps /opt/table-companion/versions/0\.1\.0-\d{8}T\d{6}Z/wheels/"
                     r"table_companion-0\.1\.0-py3-none-any\.whl", out)
    assert re.search(r"--require-hashes -r /opt/table-companion/versions/0\.1\.0-\d{8}T\d{6}Z/"
                     r"src/requirements/run.txt", out)


def test_an_install_from_before_versions_becomes_the_previous_version(host: FakeHost) -> None:
    """A real venv directory (the layout before versioned venvs) is moved aside as the
    version to go back to, and the link takes its place."""
    host.install_everything()
    prefix = host.root / "opt/table-companion"
    (prefix / "venv").unlink()
    shutil.rmtree(prefix / "versions")
    (prefix / "venv/bin").mkdir(parents=True)
    run = host.run("--dry-run")
    assert_dry(run)
    assert run.find("mv", "-T", f"{prefix}/venv") == [
        ["mv", "-T", f"{prefix}/venv", f"{prefix}/versions/earlier/venv"]]
    assert_switches_to(run, new_release(run))
    move = ["mv", "-T", f"{prefix}/venv", f"{prefix}/versions/earlier/venv"]
    assert run.commands.index(move) \
        < run.commands.index(["mv", "-T", f"{prefix}/venv.new", f"{prefix}/venv"])
    # the link follows the move at once: the version that runs is never without one
    assert run.commands[run.commands.index(move) + 1] == [
        "ln", "-s", "versions/earlier/venv", f"{prefix}/venv"]


# --- updates: a new venv per version, rolled back when it does not start --------------

#: `python3 -m venv DIR` makes DIR/bin/python, a pip that "installs" a wheel by making its
#: bytes the venv's bin/companion program (a wheel here is a shell script standing in)
FAKE_PYTHON = r"""#!/bin/bash
echo "python3 $*" >>"$FAKE_LOG"
if [ "$1 $2" = "-m venv" ]; then
    /bin/mkdir -p "$3/bin"
    /bin/cp "$0.venv" "$3/bin/python"
    /bin/chmod 755 "$3/bin/python"
fi
"""
FAKE_VENV_PYTHON = r"""#!/bin/bash
wheel="${*: -1}"
if [ "$3 $4" = "--disable-pip-version-check install" ] && [[ "$wheel" == *.whl ]]; then
    /bin/cp "$wheel" "${0%/python}/companion"
    /bin/chmod 755 "${0%/python}/companion"
fi
"""
#: systemd standing in: `restart` starts the linked venv's companion, which "reports ready"
#: by exiting 0; `is-active` tells how the last start went
FAKE_SYSTEMCTL = r"""#!/bin/bash
echo "systemctl $*" >>"$FAKE_LOG"
state="$TABLE_COMPANION_ROOT/systemctl.state"
case "$1" in
    get-default) echo multi-user.target ;;
    restart)
        if "$TABLE_COMPANION_ROOT/opt/table-companion/venv/bin/companion"; then
            echo active >"$state"
        else
            echo failed >"$state"
            exit 1
        fi ;;
    is-active) [ "$(/bin/cat "$state" 2>/dev/null)" = active ] ;;
esac
"""
GOOD = "#!/bin/sh\necho READY=1\n"
BROKEN = "#!/bin/sh\necho 'ImportError: the new version is broken' >&2\nexit 1\n"


def update(host: FakeHost, wheel: Path) -> Run:
    """install.sh for real into the host's root (every system command a stand-in), with
    `wheel` as the new version."""
    bin_dir = host.root.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "python3.venv").write_text(FAKE_VENV_PYTHON, encoding="utf-8")
    return host.run("--wheel", str(wheel),
                    tools={"python3": FAKE_PYTHON, "systemctl": FAKE_SYSTEMCTL},
                    real=["ln", "mv"], env={"TABLE_COMPANION_FAKE_SYSTEM": "1"})


def in_use(host: FakeHost) -> str:
    """The version directory the venv link points into."""
    link = host.root / "opt/table-companion/venv"
    assert link.is_symlink()
    return Path(os.readlink(link)).parent.name


def versions(host: FakeHost) -> set[str]:
    return {p.name for p in (host.root / "opt/table-companion/versions").iterdir()}


def test_a_broken_update_is_rolled_back_and_a_good_one_kept(host: FakeHost,
                                                            tmp_path: Path) -> None:
    host.install_everything(user=getpass.getuser())
    old = host.root / f"opt/table-companion/versions/{OLD}/venv/bin/companion"
    old.write_text(GOOD)
    old.chmod(0o755)
    broken, good = tmp_path / "broken-0.1.0.whl", tmp_path / "good-0.1.0.whl"
    broken.write_text(BROKEN)
    good.write_text(GOOD)

    run = update(host, broken)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "did not start" in run.stderr and f"rolled back: {OLD} runs again" in run.stderr
    assert "==> Done" not in run.stdout
    assert in_use(host) == OLD and versions(host) == {OLD}  # the failed one is gone
    restarts = [line for line in run.changes.splitlines() if line.startswith("systemctl restart")]
    assert len(restarts) == 2  # the new version, then the old one again
    assert (host.root / "systemctl.state").read_text() == "active\n"

    run = update(host, good)
    assert run.returncode == 0, run.stdout + run.stderr
    first = in_use(host)
    assert first != OLD and versions(host) == {OLD, first}  # one step back kept
    assert f"version {first} started and reported ready" in run.stdout

    run = update(host, good)  # within the same second, too
    assert run.returncode == 0, run.stdout + run.stderr
    second = in_use(host)
    assert versions(host) == {first, second} and second != first  # OLD pruned

    run = update(host, broken)
    assert run.returncode == 1 and in_use(host) == second
    assert versions(host) == {first, second}


def test_an_update_from_before_versions_stopped_half_way_keeps_the_version_before(
        host: FakeHost, tmp_path: Path) -> None:
    """An install with one venv and one src (the first layout) whose update stops after
    both were moved into versions/earlier (here `systemctl enable` fails; a power cut
    would do the same): the version that runs is still reached through the links, and the
    next run keeps it as the step back. (Before, the venv had no link until the switch: a
    rerun found no version in use, and pruned versions/earlier, its venv and its copy.)"""
    host.install_everything(user=getpass.getuser())
    prefix = host.root / "opt/table-companion"
    for name in ("venv", "src"):
        (prefix / name).unlink()
        shutil.move(prefix / f"versions/{OLD}/{name}", prefix / name)
    shutil.rmtree(prefix / "versions")
    (prefix / "venv/bin/companion").write_text(GOOD)
    (prefix / "venv/bin/companion").chmod(0o755)
    (host.root / "etc/systemd/system/multi-user.target.wants" / UPDATE_CHECK_UNIT.name).unlink()
    bin_dir = host.root.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "python3.venv").write_text(FAKE_VENV_PYTHON, encoding="utf-8")
    good = tmp_path / "good-0.1.0.whl"
    good.write_text(GOOD)

    def update_with(systemctl: str) -> Run:
        return host.run("--wheel", str(good), "--user", getpass.getuser(),
                        tools={"python3": FAKE_PYTHON, "systemctl": systemctl},
                        real=["ln", "mv", "install"], env={"TABLE_COMPANION_FAKE_SYSTEM": "1"})

    stops = FAKE_SYSTEMCTL.replace("    get-default)", "    enable) exit 1 ;;\n    get-default)")
    run = update_with(stops)
    assert run.returncode != 0 and "==> Done" not in run.stdout
    assert os.readlink(prefix / "venv") == "versions/earlier/venv"
    assert (prefix / "venv/bin/companion").read_text() == GOOD
    assert os.readlink(prefix / "src") == "versions/earlier/src"
    assert (prefix / "src/deploy/companion.sh").is_file()

    run = update_with(FAKE_SYSTEMCTL)
    assert run.returncode == 0, run.stdout + run.stderr
    new = in_use(host)
    assert versions(host) == {"earlier", new}  # the step back kept, with its copy
    assert (prefix / "versions/earlier/src/deploy/companion.sh").is_file()


def test_a_venv_moved_but_not_yet_linked_is_found_again(host: FakeHost) -> None:
    """A run cut off between moving the first layout's venv and linking it: the next run
    links it again and keeps it as the version before."""
    host.install_everything()
    prefix = host.root / "opt/table-companion"
    (prefix / "venv").unlink()
    shutil.move(prefix / f"versions/{OLD}", prefix / "versions/earlier")
    run = host.run("--dry-run")
    assert_dry(run)
    assert ["ln", "-s", "versions/earlier/venv", f"{prefix}/venv"] in run.commands
    assert not run.find("rm", "-rf", f"{prefix}/versions/earlier")  # the step back stays


def test_a_read_only_root_is_refused_before_anything_changes(host: FakeHost) -> None:
    """The card image's read-only root (or one an error made read-only): the install says
    so and how to turn it off, and changes nothing; errors=remount-ro alone is no refusal."""
    mounts = host.root / "proc/mounts"
    mounts.parent.mkdir(parents=True)
    mounts.write_text("/dev/mmcblk0p2 / ext4 ro,noatime,errors=remount-ro 0 0\n"
                      "/dev/mmcblk0p3 /var ext4 rw,noatime 0 0\n")
    run = host.run("--dry-run")
    assert run.returncode == 1 and run.changes == "" and run.commands == []
    assert "mounted read-only: nothing was changed" in run.stderr
    assert "read_only = false in companion.toml" in run.stderr
    mounts.write_text("/dev/mmcblk0p2 / ext4 rw,noatime,errors=remount-ro 0 0\n")
    assert_dry(host.run("--dry-run"))


def test_a_broken_first_install_says_so(host: FakeHost, tmp_path: Path) -> None:
    """No earlier version to go back to: the failure is reported, not hidden."""
    host.install_everything(user=getpass.getuser())
    prefix = host.root / "opt/table-companion"
    (prefix / "venv").unlink()
    shutil.rmtree(prefix / "versions")
    broken = tmp_path / "broken-0.1.0.whl"
    broken.write_text(BROKEN)
    run = update(host, broken)
    assert run.returncode == 1
    assert "no earlier version to go back to" in run.stderr
    assert "the new version is broken" in run.stderr  # its own words reach the person


# --- backups onto a USB stick, and a read-only root ------------------------------------

USB_BACKUP = DEPLOY / "usb-backup.sh"
BACKUP_UNITS = [DEPLOY / "systemd" / f"table-companion-backup.{kind}"
                for kind in ("service", "timer")]


def test_usb_backup_installs_a_timer(host: FakeHost) -> None:
    run = host.run("--dry-run", "--usb-backup")
    assert_dry(run)
    installs = {c[-1]: c for c in run.find("install", "-D")}
    root = str(host.root)
    script = installs[f"{root}/usr/local/lib/table-companion/usb-backup.sh"]
    assert script[-2] == str(USB_BACKUP) and script[3] == "0755"
    for unit in BACKUP_UNITS:
        assert installs[f"{root}/etc/systemd/system/{unit.name}"][-2] == str(unit)
    assert run.has("systemctl", "enable", "--now", "table-companion-backup.timer")
    plain = host.run("--dry-run")
    assert "pass --usb-backup" in plain.stdout and not plain.has("systemctl", "enable", "--now")
    host.install_everything()
    for path in ("usr/local/lib/table-companion/usb-backup.sh",
                 "etc/systemd/system/table-companion-backup.timer",
                 "etc/systemd/system/table-companion-backup.service"):
        (host.root / path).parent.mkdir(parents=True, exist_ok=True)
        (host.root / path).write_text("x")
    gone = host.run("--dry-run", "--uninstall")
    assert_dry(gone)
    assert gone.commands[0] == ["systemctl", "disable", "--now", "table-companion-backup.timer"]
    removed = {c[-1] for c in gone.find("rm")}
    assert {f"{root}/etc/systemd/system/table-companion-backup.timer",
            f"{root}/etc/systemd/system/table-companion-backup.service",
            f"{root}/usr/local/lib/table-companion"} <= removed


def test_backup_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = tool("systemd-analyze", "systemd")
    script = tmp_path / "usb-backup.sh"
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    script.chmod(0o755)
    for unit in BACKUP_UNITS:
        text = unit.read_text(encoding="utf-8")
        (tmp_path / unit.name).write_text(
            text.replace("/usr/local/lib/table-companion/usb-backup.sh", str(script)))
    timer = unit_entries(BACKUP_UNITS[1].read_text())
    assert timer["Install.WantedBy"] == ["timers.target"] and timer["Timer.OnUnitActiveSec"]
    result = subprocess.run([analyze, "verify", str(tmp_path / BACKUP_UNITS[1].name),
                             str(tmp_path / BACKUP_UNITS[0].name)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


@pytest.fixture
def companion_command(tmp_path: Path) -> Path:
    """A `companion` command running this checkout."""
    import sys

    command = tmp_path / "companion"
    command.write_text(f"#!/bin/sh\ncd {shlex.quote(str(REPO))} && exec "
                       f"{shlex.quote(sys.executable)} -m companion \"$@\"\n")
    command.chmod(0o755)
    return command


def test_usb_backup_onto_a_mounted_stick_keeps_the_newest(tmp_path: Path,
                                                          companion_command: Path) -> None:
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    (data / "screen.json").write_text("{}")
    stick = tmp_path / "stick"
    backups = stick / "table-companion-backups"
    backups.mkdir(parents=True)
    old = [backups / f"companion-backup-2020010{i}-000000.tar.gz" for i in range(1, 4)]
    for path in old:
        path.write_text("old")
    result = subprocess.run(
        ["bash", str(USB_BACKUP), "--mounted", str(stick), "--data-dir", str(data),
         "--keep", "2", "--command", str(companion_command)],
        capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    left = sorted(p.name for p in backups.iterdir())
    assert len(left) == 2 and left[0] == old[-1].name, left  # the newest old one, and the new
    new = backups / left[1]
    assert new.stat().st_mode & 0o777 == 0o600
    import tarfile

    with tarfile.open(new) as archive:
        assert any(name.endswith("screen.json") for name in archive.getnames())
    assert f"removed the old backup {old[0]}" in result.stdout


def test_usb_backup_without_a_stick_does_nothing(tmp_path: Path) -> None:
    result = subprocess.run(["bash", str(USB_BACKUP), "--label", "NOSUCHSTICK42"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "no USB stick labelled NOSUCHSTICK42" in result.stdout


@pytest.mark.parametrize("args", [["--keep", "0"], ["--keep", "x"], ["--label", "a b"],
                                  ["--mounted", "/nonexistent/stick"], ["--frob"]])
def test_usb_backup_refuses_bad_arguments(args: list[str]) -> None:
    result = subprocess.run(["bash", str(USB_BACKUP), *args], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 2 and "usb-backup.sh:" in result.stderr


def test_an_overlay_root_without_a_data_partition_is_not_called_done(host: FakeHost) -> None:
    """raspi-config's read-only mode keeps every write in RAM: saved games would be lost at
    the next power cut, unless they have their own partition."""
    mounts = host.root / "proc/mounts"
    mounts.parent.mkdir(parents=True)
    mounts.write_text("overlayroot / overlay rw,relatime 0 0\n/dev/mmcblk0p1 /boot/firmware "
                      "vfat rw 0 0\n")
    run = host.run("--dry-run")
    assert run.returncode == 1 and run.changes == ""
    assert "a power cut loses them all" in run.stderr and "==> Done\n" not in run.stdout
    with mounts.open("a") as f:
        f.write("/dev/mmcblk0p3 /var/lib/table-companion ext4 rw,noatime 0 0\n")
    run = host.run("--dry-run")
    assert_dry(run)
    assert "saved games on their own partition" in run.stdout


# --- an update cut off before its new version was ready --------------------------------

NEW = "0.1.0-20260202T000000Z"


def cut_off_update(root: Path, boot: str, previous: str = OLD) -> Path:
    """A machine whose update to NEW was cut off after the switch: the link on NEW, the
    pending mark written in boot `boot`; this boot's id is "this-boot". Its prefix."""
    prefix = root / "opt/table-companion"
    for name in (OLD, NEW):
        python = prefix / "versions" / name / "venv/bin/python"
        python.parent.mkdir(parents=True)
        python.write_text("#!/bin/sh\n")
        python.chmod(0o755)
    (prefix / "venv").symlink_to(f"versions/{NEW}/venv")
    (prefix / "update-pending").write_text(f"new={NEW}\nprevious={previous}\nboot={boot}\n")
    boot_id = root / "proc/sys/kernel/random/boot_id"
    boot_id.parent.mkdir(parents=True)
    boot_id.write_text("this-boot\n")
    return prefix


def update_check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", str(UPDATE_CHECK)], capture_output=True, text=True,
                          check=False, env={**os.environ, "TABLE_COMPANION_ROOT": str(root)})


def test_at_boot_an_update_cut_off_goes_back_to_the_version_before(tmp_path: Path) -> None:
    prefix = cut_off_update(tmp_path, boot="an-earlier-boot")
    result = update_check(tmp_path)
    assert result.returncode == 0, result.stderr
    assert os.readlink(prefix / "venv") == f"versions/{OLD}/venv"
    assert not (prefix / "update-pending").exists() and not (prefix / "venv.new").exists()
    assert f"the update to {NEW} was cut off before it reported ready: back to {OLD}" \
        in result.stdout
    assert (prefix / "versions" / NEW).is_dir()  # the next install.sh removes it
    again = update_check(tmp_path)  # the next boot: nothing pending
    assert again.returncode == 0 and again.stdout == "" and again.stderr == ""


#: /proc/1/mountinfo's line for the root: the mount's options, then the file system's
ROOT_LINE = "25 1 179:2 / / {mount} shared:1 - ext4 /dev/mmcblk0p2 {fs},errors=remount-ro\n"
#: mount(8) standing in: says what it was asked, and fails when $FAKE_MOUNT_FAILS is set
FAKE_MOUNT = """#!/bin/sh
echo "mount $*" >>"$FAKE_LOG"
[ -z "${FAKE_MOUNT_FAILS:-}" ]
"""


def update_check_mode(root: Path, *args: str, fails: bool = False,
                      ) -> subprocess.CompletedProcess[str]:
    """update-check.sh with a stand-in mount(8) (whose calls go to root/mount.log)."""
    fake = root / "fake-mount"
    fake.write_text(FAKE_MOUNT)
    fake.chmod(0o755)
    env = {**os.environ, "TABLE_COMPANION_ROOT": str(root), "TABLE_COMPANION_MOUNT": str(fake),
           "FAKE_LOG": str(root / "mount.log")}
    if fails:
        env["FAKE_MOUNT_FAILS"] = "1"
    return subprocess.run(["sh", str(UPDATE_CHECK), *args], capture_output=True, text=True,
                          check=False, env=env)


def mounted_root(root: Path, mount: str, fs: str) -> None:
    info = root / "proc/1/mountinfo"
    info.parent.mkdir(parents=True, exist_ok=True)
    info.write_text("22 0 0:21 / /proc rw - proc proc rw\n"
                    + ROOT_LINE.format(mount=mount, fs=fs))


def calls(root: Path) -> list[str]:
    log = root / "mount.log"
    return log.read_text().splitlines() if log.exists() else []


@pytest.mark.parametrize("mount, fs, writable, again", [
    # fstab's `ro` (the card image's read_only = true): the file system's own flag
    ("ro,noatime", "ro", "mount -o remount,rw /", "mount -o remount,ro /"),
    # only the mount read-only (a bind, as systemd-nspawn --read-only has it)
    ("ro,noatime", "rw", "mount -o remount,bind,rw /", "mount -o remount,bind,ro /"),
])
def test_a_read_only_root_is_writable_for_the_going_back_and_read_only_again(
        tmp_path: Path, mount: str, fs: str, writable: str, again: str) -> None:
    """The root made writable by hand for an update, then the power cut: the next boot
    mounts it read-only again (fstab), and the unit makes it writable around the going
    back, putting back the kind of read-only it found."""
    prefix = cut_off_update(tmp_path, boot="an-earlier-boot")
    mounted_root(tmp_path, mount, fs)
    before = update_check_mode(tmp_path, "writable")
    assert before.returncode == 0, before.stderr
    assert calls(tmp_path) == [writable]
    assert "writable for going back" in before.stdout
    result = update_check(tmp_path)
    assert result.returncode == 0, result.stderr
    assert os.readlink(prefix / "venv") == f"versions/{OLD}/venv"
    after = update_check_mode(tmp_path, "read-only-again")
    assert after.returncode == 0 and "read-only again" in after.stdout, after.stderr
    assert calls(tmp_path) == [writable, again]
    assert not (tmp_path / "run/table-companion-update-check.remounted").exists()
    update_check_mode(tmp_path, "read-only-again")  # once only
    assert calls(tmp_path) == [writable, again]


@pytest.mark.parametrize("boot, mount", [
    ("an-earlier-boot", "rw,noatime"),  # a writable root: nothing to remount
    ("this-boot", "ro,noatime"),  # install.sh at work in this boot: not this unit's
])
def test_the_root_is_remounted_only_for_a_going_back_from_a_read_only_root(
        tmp_path: Path, boot: str, mount: str) -> None:
    cut_off_update(tmp_path, boot=boot)
    mounted_root(tmp_path, mount, mount.split(",")[0])
    assert update_check_mode(tmp_path, "writable").returncode == 0
    assert update_check_mode(tmp_path, "read-only-again").returncode == 0
    assert calls(tmp_path) == []


def test_a_read_only_root_that_stays_so_is_said_and_changes_nothing(tmp_path: Path) -> None:
    """mount refuses (or the script cannot write): the going back fails saying why and what
    to do, the mark stays for a later boot, and nothing is remounted read-only 'again'."""
    prefix = cut_off_update(tmp_path, boot="an-earlier-boot")
    mounted_root(tmp_path, "ro", "ro")
    before = update_check_mode(tmp_path, "writable", fails=True)
    assert before.returncode == 0 and "could not be made writable" in before.stderr
    prefix.chmod(0o555)
    try:
        result = update_check(tmp_path)
    finally:
        prefix.chmod(0o755)
    if os.geteuid() != 0:  # root writes into a folder without write permission
        assert result.returncode == 1, result.stderr
        assert "cannot be written (a read-only root)" in result.stderr
        assert "read_only = false" in result.stderr
        assert os.readlink(prefix / "venv") == f"versions/{NEW}/venv"
        assert (prefix / "update-pending").exists()
    assert update_check_mode(tmp_path, "read-only-again").returncode == 0
    assert calls(tmp_path) == ["mount -o remount,rw /"]


def test_without_a_stand_in_a_test_root_never_remounts_this_machine(tmp_path: Path) -> None:
    cut_off_update(tmp_path, boot="an-earlier-boot")
    mounted_root(tmp_path, "ro", "ro")
    result = subprocess.run(["sh", str(UPDATE_CHECK), "writable"], capture_output=True,
                            text=True, check=False,
                            env={**{k: v for k, v in os.environ.items()
                                    if k != "TABLE_COMPANION_MOUNT"},
                                 "TABLE_COMPANION_ROOT": str(tmp_path)})
    assert result.returncode == 0 and "not remounting /" in result.stderr, result.stderr
    assert not (tmp_path / "run/table-companion-update-check.remounted").exists()


def test_an_update_under_way_in_this_boot_is_left_to_install_sh(tmp_path: Path) -> None:
    prefix = cut_off_update(tmp_path, boot="this-boot")
    result = update_check(tmp_path)
    assert result.returncode == 0 and "left to install.sh" in result.stdout
    assert os.readlink(prefix / "venv") == f"versions/{NEW}/venv"
    assert (prefix / "update-pending").exists()


@pytest.mark.parametrize("previous", ["gone-0.0.1", "../../etc", ""])
def test_no_version_to_go_back_to_keeps_the_new_one(tmp_path: Path, previous: str) -> None:
    """The version before was removed by hand, or the mark is damaged: the new version
    stays (it is all there is), and the mark goes, said on stderr."""
    prefix = cut_off_update(tmp_path, boot="an-earlier-boot", previous=previous)
    result = update_check(tmp_path)
    assert result.returncode == 0 and "update-check:" in result.stderr
    assert os.readlink(prefix / "venv") == f"versions/{NEW}/venv"
    assert not (prefix / "update-pending").exists()


def test_the_update_check_unit_runs_before_the_companion_only_when_pending(
        tmp_path: Path) -> None:
    analyze = tool("systemd-analyze", "systemd")
    entries = unit_entries(UPDATE_CHECK_UNIT.read_text(encoding="utf-8"))
    assert entries["Unit.Before"] == ["table-companion.service"]
    assert entries["Unit.ConditionPathExists"] == ["/opt/table-companion/update-pending"]
    assert entries["Install.WantedBy"] == ["multi-user.target"]
    # the companion's start never pulls it in (install.sh's restart must not run it)
    assert "update-check" not in UNIT.read_text(encoding="utf-8")
    script = tmp_path / "update-check.sh"
    shutil.copy(UPDATE_CHECK, script)
    unit = tmp_path / UPDATE_CHECK_UNIT.name
    unit.write_text(UPDATE_CHECK_UNIT.read_text(encoding="utf-8").replace(
        "/usr/local/lib/table-companion/update-check.sh", str(script)))
    result = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert "update-check" not in result.stderr, result.stderr


def test_an_update_is_marked_pending_from_before_the_switch(host: FakeHost) -> None:
    host.install_everything()
    run = host.run("--dry-run")
    assert_dry(run)
    prefix = f"{host.root}/opt/table-companion"
    commands = run.commands
    mark = commands.index(run.find("install", "-m", "0644")[0])
    switch = commands.index(["mv", "-T", f"{prefix}/venv.new", f"{prefix}/venv"])
    restart = commands.index(["systemctl", "restart", "table-companion.service"])
    settled = commands.index(["rm", "-f", f"{prefix}/update-pending"])
    assert commands[mark][-1] == f"{prefix}/update-pending"
    assert mark < commands.index(["sync", prefix]) < switch < restart < settled


def test_udev_is_not_reloaded_where_it_does_not_run(host: FakeHost) -> None:
    """A container runs systemd but no udevd: the rule is installed for the next boot."""
    host.udev_running = False
    run = host.run("--dry-run")
    assert_dry(run)
    assert not run.has("udevadm")
    assert "udev is not running here: the rule applies from the next boot" in run.stdout


def test_an_overlay_root_on_a_disk_is_not_warned_about(host: FakeHost) -> None:
    """Only an overlay whose writes go to RAM loses the games: not one whose upper layer
    is on a disk (a container's), and raspi-config's, with its upper on a tmpfs, is."""
    mounts = host.root / "proc/mounts"
    mounts.parent.mkdir(parents=True)
    mounts.write_text("overlay / overlay rw,lowerdir=/,upperdir=/var/tmp/x/upper,"
                      "workdir=/var/tmp/x/work 0 0\ntmpfs /tmp tmpfs rw 0 0\n")
    run = host.run("--dry-run")
    assert_dry(run)
    assert "overlay" not in run.stderr
    mounts.write_text("overlay / overlay rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/"
                      "overlay,workdir=/media/root-rw/overlay-workdir 0 0\n"
                      "tmpfs-root /media/root-rw tmpfs rw,relatime 0 0\n")
    run = host.run("--dry-run")
    assert run.returncode == 1 and "a power cut loses them all" in run.stderr


def test_a_rollback_brings_back_the_unit_the_version_before_ran_with(
        host: FakeHost, tmp_path: Path) -> None:
    """A new version whose unit this systemd refuses (a setting it does not know): the
    version before comes back with its own unit, not the new one."""
    host.install_everything(user=getpass.getuser())
    old = host.root / f"opt/table-companion/versions/{OLD}/venv/bin/companion"
    old.write_text(GOOD)
    old.chmod(0o755)
    unit = host.root / "etc/systemd/system/table-companion.service"
    before = unit.read_text(encoding="utf-8").replace("MemoryMax=320M", "MemoryMax=300M")
    unit.write_text(before, encoding="utf-8")
    broken = tmp_path / "broken-0.1.0.whl"
    broken.write_text(BROKEN)
    bin_dir = host.root.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "python3.venv").write_text(FAKE_VENV_PYTHON, encoding="utf-8")
    run = host.run("--wheel", str(broken), "--user", getpass.getuser(),
                   tools={"python3": FAKE_PYTHON, "systemctl": FAKE_SYSTEMCTL},
                   real=["ln", "mv", "install", "sync"],
                   env={"TABLE_COMPANION_FAKE_SYSTEM": "1"})
    assert run.returncode == 1 and f"rolled back: {OLD} runs again" in run.stderr
    assert "going back to its service unit as well" in run.stderr
    assert unit.read_text(encoding="utf-8") == before
    saved = host.root / f"opt/table-companion/versions/{OLD}/table-companion.service"
    assert saved.read_text(encoding="utf-8") == before
    commands = run.commands
    restore = commands.index(["install", "-m", "0644", str(saved), str(unit)])
    assert commands[restore + 1] == ["systemctl", "daemon-reload"]
    assert commands[restore + 2] == ["systemctl", "restart", "table-companion.service"]
    assert not (host.root / "opt/table-companion/update-pending").exists()


#: systemd standing in for the boot-time check: it logs what it was asked
LOGGING_SYSTEMCTL = "#!/bin/sh\necho \"systemctl $*\" >>\"$FAKE_LOG\"\n"


def test_at_boot_the_unit_and_the_copy_of_the_version_before_come_back(
        tmp_path: Path) -> None:
    """The update changed the unit (install.sh kept the one before in its version's
    directory) and had its own copy of the checkout: both go back with the venv, and
    systemd reads the unit again before it starts the companion."""
    root = tmp_path / "root"
    prefix = cut_off_update(root, boot="an-earlier-boot")
    for name in (OLD, NEW):
        (prefix / "versions" / name / "src/deploy").mkdir(parents=True)
        (prefix / "versions" / name / "src/deploy/companion.sh").write_text(name)
    (prefix / "src").symlink_to(f"versions/{NEW}/src")
    command = root / "usr/local/bin/companion"
    command.parent.mkdir(parents=True)
    command.symlink_to("../../../opt/table-companion/src/deploy/companion.sh")
    unit = root / "etc/systemd/system/table-companion.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("[Service]\nNewSetting=yes\n")
    (prefix / "versions" / OLD / "table-companion.service").write_text("[Service]\n")
    (root / "run/systemd/system").mkdir(parents=True)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "systemctl").write_text(LOGGING_SYSTEMCTL)
    (bin_dir / "systemctl").chmod(0o755)
    log = tmp_path / "log"
    result = subprocess.run(
        ["sh", str(UPDATE_CHECK)], capture_output=True, text=True, check=False,
        env={**os.environ, "TABLE_COMPANION_ROOT": str(root), "FAKE_LOG": str(log),
             "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    assert result.returncode == 0, result.stderr
    assert unit.read_text() == "[Service]\n" and unit.stat().st_mode & 0o777 == 0o644
    assert log.read_text() == "systemctl daemon-reload\n"
    assert f"back to the service unit {OLD} ran with" in result.stdout
    assert os.readlink(prefix / "src") == f"versions/{OLD}/src"
    assert os.readlink(prefix / "venv") == f"versions/{OLD}/venv"
    assert command.read_text() == OLD  # `companion` is the version that runs
    assert not list(unit.parent.glob("*.new")) and not list(prefix.glob("*.new"))
    assert not (prefix / "update-pending").exists()


def test_at_boot_without_systemd_running_the_unit_comes_back_unreloaded(
        tmp_path: Path) -> None:
    """In an image being built (no systemd running) the unit is put back all the same,
    for the boot that reads it; a version from before per-version copies keeps the copy."""
    prefix = cut_off_update(tmp_path, boot="an-earlier-boot")
    (prefix / "src").mkdir()
    unit = tmp_path / "etc/systemd/system/table-companion.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("new\n")
    (prefix / "versions" / OLD / "table-companion.service").write_text("old\n")
    result = update_check(tmp_path)
    assert result.returncode == 0, result.stderr
    assert unit.read_text() == "old\n" and "daemon-reload" not in result.stderr
    assert (prefix / "src").is_dir() and not (prefix / "src").is_symlink()
    assert os.readlink(prefix / "venv") == f"versions/{OLD}/venv"


#: rsync standing in: copies the checkout's wrapper, and names the checkout it came from
FAKE_RSYNC = r"""#!/bin/bash
echo "rsync $*" >>"$FAKE_LOG"
from="${*: -2:1}" to="${*: -1}"
/bin/mkdir -p "$to/deploy"
/bin/cp "$from/deploy/companion.sh" "$to/deploy/companion.sh"
echo "$FAKE_CHECKOUT" >"$to/checkout"
"""


def test_a_rollback_brings_back_the_copy_and_the_command_of_the_version_before(
        host: FakeHost, tmp_path: Path) -> None:
    """After a failed update, /opt/table-companion/src (the next update's and the docs'
    copy) and the command `companion` are the version that runs again, not the failed
    one's; a good update moves them both to itself."""
    host.install_everything(user=getpass.getuser())
    prefix = host.root / "opt/table-companion"
    (prefix / f"versions/{OLD}/src/checkout").write_text("old\n")
    old = prefix / f"versions/{OLD}/venv/bin/companion"
    old.write_text(GOOD)
    old.chmod(0o755)
    bin_dir = host.root.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "python3.venv").write_text(FAKE_VENV_PYTHON, encoding="utf-8")
    command = host.root / "usr/local/bin/companion"

    def update_from(checkout: str, wheel: str) -> Run:
        path = tmp_path / f"{checkout}-0.1.0.whl"
        path.write_text(wheel)
        return host.run("--wheel", str(path), "--user", getpass.getuser(),
                        tools={"python3": FAKE_PYTHON, "systemctl": FAKE_SYSTEMCTL,
                               "rsync": FAKE_RSYNC},
                        real=["ln", "mv", "install"],
                        env={"TABLE_COMPANION_FAKE_SYSTEM": "1", "FAKE_CHECKOUT": checkout})

    run = update_from("broken", BROKEN)
    assert run.returncode == 1 and f"rolled back: {OLD} runs again" in run.stderr
    assert os.readlink(prefix / "src") == f"versions/{OLD}/src"
    assert (prefix / "src/checkout").read_text() == "old\n"
    assert command.resolve() == (prefix / f"versions/{OLD}/src/deploy/companion.sh").resolve()
    assert versions(host) == {OLD}

    run = update_from("good", GOOD)
    assert run.returncode == 0, run.stdout + run.stderr
    good = in_use(host)
    assert os.readlink(prefix / "src") == f"versions/{good}/src"
    assert (prefix / "src/checkout").read_text() == "good\n"
    assert command.read_text() == (DEPLOY / "companion.sh").read_text()
    assert (prefix / f"versions/{OLD}/src/checkout").read_text() == "old\n"  # the step back


def test_one_copy_from_before_per_version_copies_goes_with_the_version_before(
        host: FakeHost) -> None:
    """A real src directory (the layout before per-version copies) becomes the copy of the
    version in use, reached through a link at once (install.sh may run from it)."""
    host.install_everything()
    prefix = host.root / "opt/table-companion"
    (prefix / "src").unlink()
    shutil.rmtree(prefix / f"versions/{OLD}/src")
    (prefix / "src/deploy").mkdir(parents=True)
    run = host.run("--dry-run")
    assert_dry(run)
    move = ["mv", "-T", f"{prefix}/src", f"{prefix}/versions/{OLD}/src"]
    link = ["ln", "-s", f"versions/{OLD}/src", f"{prefix}/src"]
    commands = run.commands
    assert commands[commands.index(move) + 1] == link
    assert commands.index(link) < commands.index(["mv", "-T", f"{prefix}/src.new",
                                                  f"{prefix}/src"])


DEBIAN_AVAHI_CONF = """[server]
#host-name=foo
#domain-name=local
use-ipv4=yes
use-ipv6=yes
ratelimit-interval-usec=1000000

[publish]
publish-hinfo=no
#publish-aaaa-on-ipv4=yes
#publish-a-on-ipv6=no
"""


#: Debian's avahi-daemon.conf as install.sh leaves it: IPv4 only, no IPv6 address over it
IPV4_ONLY = DEBIAN_AVAHI_CONF.replace("use-ipv6=yes", "use-ipv6=no").replace(
    "#publish-aaaa-on-ipv4=yes", "publish-aaaa-on-ipv4=no")


@pytest.mark.parametrize(("before", "after"), [
    (DEBIAN_AVAHI_CONF, IPV4_ONLY),
    (DEBIAN_AVAHI_CONF.replace("use-ipv6=yes", "#use-ipv6=yes").replace(
        "#publish-aaaa-on-ipv4=yes", "publish-aaaa-on-ipv4=yes"), IPV4_ONLY),
    (DEBIAN_AVAHI_CONF.replace("use-ipv6=yes\n", "").replace("#publish-aaaa-on-ipv4=yes\n", ""),
     DEBIAN_AVAHI_CONF.replace("[server]\n", "[server]\nuse-ipv6=no\n").replace(
         "use-ipv6=yes\n", "").replace("[publish]\n", "[publish]\npublish-aaaa-on-ipv4=no\n")
     .replace("#publish-aaaa-on-ipv4=yes\n", "")),
    ("[publish]\npublish-hinfo=no\n",
     "[publish]\npublish-aaaa-on-ipv4=no\npublish-hinfo=no\n[server]\nuse-ipv6=no\n"),
    ("[server]\nuse-ipv6=no\n", "[server]\nuse-ipv6=no\n[publish]\npublish-aaaa-on-ipv4=no\n"),
])
def test_mdns_is_announced_over_ipv4_only(host: FakeHost, before: str, after: str) -> None:
    """avahi gets use-ipv6=no and publish-aaaa-on-ipv4=no (the phone remote listens on IPv4;
    with IPv6 addresses announced avahi renamed the table NAME-2, NAME-3 at boot, seeing its
    own announcement as a rival's), once, and is restarted to take them."""
    conf = host.root / "etc/avahi/avahi-daemon.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text(before)
    (host.root / "etc/hostname").write_text("table\n")  # no restart for a new name
    run = host.run("--dry-run")
    assert_dry(run)
    edits = [c for c in run.find("sed", "-i") if c[-1] == str(conf)]
    assert edits
    for edit in edits:
        subprocess.run(edit, check=True)  # the printed commands, for real
    assert conf.read_text() == after
    assert ["systemctl", "try-restart", "avahi-daemon.service"] in run.commands
    again = host.run("--dry-run")
    assert_dry(again)
    assert [c for c in again.find("sed", "-i") if c[-1] == str(conf)] == []
    assert "over IPv4 only (use-ipv6=no, publish-aaaa-on-ipv4=no)" in again.stdout
    assert ["systemctl", "try-restart", "avahi-daemon.service"] not in again.commands


def test_mdns_without_avahi_installed_yet_is_said(host: FakeHost) -> None:
    run = host.run("--dry-run")
    assert_dry(run)
    assert "no /etc/avahi/avahi-daemon.conf yet" in run.stdout
