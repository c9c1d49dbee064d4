"""The Raspberry Pi install: shellcheck, the systemd unit, and install.sh's dry runs.

The dry runs are hermetic: PATH holds only stubs and a few read-only tools, so a command
that install.sh ran instead of printing is either logged by a stub (and the test fails)
or not found at all. The stubs answer the questions install.sh asks (does the user exist,
is the package installed) from environment variables that describe a fake host.
"""

from __future__ import annotations

import getpass
import os
import shlex
import shutil
import subprocess
from collections.abc import Iterable
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
    "libgbm1", "libdrm2", "libegl1", "libgles2", "alsa-utils", "libasound2", "gcc", "libc6-dev",
    "python3-dev",
]
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
    mine = {"deploy/install.sh", "deploy/companion.sh", "scripts/test-setup.d/20-deploy.sh"}
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
    text = UNIT.read_text(encoding="utf-8").replace("Restart=on-failure", "Restrat=on-failure")
    unit.write_text(text.replace("/opt/table-companion/venv/bin/companion", "/bin/true"))
    result = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    assert "Restrat" in result.stderr


def test_unit_runs_the_companion_as_the_brief_says() -> None:
    entries = unit_entries(UNIT.read_text(encoding="utf-8"))
    exec_start = shlex.split(entries["Service.ExecStart"][0])
    assert exec_start[:2] == ["/opt/table-companion/venv/bin/companion", "run"]
    assert "--headless" not in exec_start
    assert exec_start[exec_start.index("--config") + 1] == "/etc/table-companion/config.toml"
    assert entries["Service.Restart"] == ["on-failure"]
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

READ_ONLY_TOOLS = ["bash", "cat", "cmp", "dirname", "find", "grep", "mktemp", "rm", "sed", "uname"]
MUTATING_STUBS = [
    "apt-get", "useradd", "usermod", "groupadd", "userdel", "install", "rsync", "chown",
    "python3", "ln", "udevadm", "apt", "pip",
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
        if [ "$2" = get_serial_cons ]; then echo "$FAKE_SERIAL_CONS"; exit 0; fi ;;
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
    systemd_running: bool = True

    def run(self, *args: str, fake_root: bool = True) -> Run:
        """Run install.sh with `args` on this host; return its output and commands."""
        bin_dir = self.root.parent / "bin"
        bin_dir.mkdir(exist_ok=True)
        for name in READ_ONLY_TOOLS:
            target = bin_dir / name
            if not target.exists():
                found = shutil.which(name)
                assert found, f"{name} is needed to run the dry-run tests"
                target.symlink_to(found)
        stubs = ["id", "getent", "dpkg-query", "systemctl", *MUTATING_STUBS]
        if self.raspi_config:
            stubs.append("raspi-config")
        for name in stubs:
            stub = bin_dir / name
            stub.write_text(STUB, encoding="utf-8")
            stub.chmod(0o755)
        if self.systemd_running:
            (self.root / "run/systemd/system").mkdir(parents=True, exist_ok=True)
        log = self.root.parent / "changes.log"
        log.write_text("", encoding="utf-8")
        env = {
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
        }
        if fake_root:
            env["TABLE_COMPANION_ROOT"] = str(self.root)
        result = subprocess.run(
            [str(bin_dir / "bash"), str(INSTALL), *args],
            env=env, capture_output=True, text=True, check=False,
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
            "etc/udev/rules.d/99-table-companion-readers.rules":
                (DEPLOY / "99-table-companion-readers.rules").read_text(),
            "etc/table-companion/config.toml": (DEPLOY / "config.toml").read_text(),
            "usr/local/bin/companion": (DEPLOY / "companion.sh").read_text(),
            "opt/table-companion/venv/bin/python": "#!/bin/sh\n",
            "opt/table-companion/venv/pyvenv.cfg": "home = /usr/bin\nversion = 3.11.2\n",
            "var/lib/table-companion/games/one.json": "{}",
        }
        for name, text in files.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        (self.root / "opt/table-companion/venv/bin/python").chmod(0o755)
        (self.root / "var/lib/table-companion").chmod(0o750)


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
    rsync = run.find("rsync")
    assert rsync and rsync[0][-2:] == [f"{REPO}/", f"{root}/opt/table-companion/src/"]
    assert "--exclude=.git/" in rsync[0] and "--delete" in rsync[0]
    assert run.find("/usr/bin/python3", "-m", "venv", "--clear", f"{root}/opt/table-companion/venv")
    pip = run.find(f"{root}/opt/table-companion/venv/bin/python", "-m", "pip", "install")
    assert pip and pip[0][-1] == f"{root}/opt/table-companion/src[pi]"
    installs = {c[-1]: c[-2] for c in run.find("install", "-D")}
    assert installs == {
        f"{root}/usr/local/bin/companion": str(DEPLOY / "companion.sh"),
        f"{root}/etc/table-companion/config.toml": str(DEPLOY / "config.toml"),
        f"{root}/etc/udev/rules.d/99-table-companion-readers.rules":
            str(DEPLOY / "99-table-companion-readers.rules"),
        f"{root}/etc/systemd/system/table-companion.service": str(UNIT),
    }
    assert run.has("udevadm", "control", "--reload-rules")
    assert run.has("systemctl", "daemon-reload")
    assert run.has("systemctl", "enable", "table-companion.service")
    assert run.has("systemctl", "restart", "table-companion.service")
    assert not run.has("raspi-config")
    assert "pass --enable-uart" in run.stdout


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
    assert not run.has("systemctl", "restart")  # the reader would not work until then
    assert run.has("systemctl", "enable", "table-companion.service")


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
    python = f"{host.root}/opt/table-companion/venv/bin/python"
    assert [c[:3] for c in run.commands if c[0] != "systemctl"] == [
        ["rsync", "-a", "--delete"], [python, "-m", "pip"], [python, "-m", "compileall"],
    ]
    assert [c[1] for c in run.commands if c[0] == "systemctl"] == [
        "daemon-reload", "enable", "restart",
    ]
    for done in ("all installed", f"user {me} exists", "is in video render",
                 f"belongs to {me}", "virtual environment", "the serial port is on",
                 "is the example, unchanged", "table-companion.service is up to date"):
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
    run = host.run("--dry-run")
    assert_dry(run)
    assert "do_boot_behaviour B1" in run.stderr


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
    assert run.commands[0] == ["systemctl", "disable", "--now", "table-companion.service"]
    removed = {c[-1] for c in run.find("rm")} | {
        p for c in run.find("rm") for p in c[2:]
    }
    assert removed == {
        f"{root}/etc/systemd/system/table-companion.service",
        f"{root}/etc/udev/rules.d/99-table-companion-readers.rules",
        f"{root}/usr/local/bin/companion",
        f"{root}/opt/table-companion",
        f"{root}/etc/table-companion",
    }
    assert run.find("userdel") == [["userdel", "companion"]]  # no --remove: home is the data
    assert not any("/var/lib" in arg for c in run.commands for arg in c)
    assert "saved games stay in /var/lib/table-companion" in run.stdout


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
                 "Configuration", "Serial port", "udev rule", "systemd service", "Done"):
        assert f"==> {step}" in result.stdout, step
    assert "/opt/table-companion/src[pi]" in result.stdout.replace("\\", "")


def test_venv_of_another_python_is_rebuilt(host: FakeHost) -> None:
    """A venv made from pyenv's Python points into /root, which the service cannot read."""
    host.install_everything()
    (host.root / "opt/table-companion/venv/pyvenv.cfg").write_text(
        "home = /root/.pyenv/versions/3.11.7/bin\n"
    )
    run = host.run("--dry-run")
    assert_dry(run)
    assert run.find("/usr/bin/python3", "-m", "venv", "--clear")
