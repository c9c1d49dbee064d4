"""docs/raspberry-pi.md says what deploy/install.sh does: checked against the script.

Each check reads a fact from the installer (its options, its default hostname, the files
it installs and their settings, the size limit of the arm64 test) and looks for it in the
guide, so a change to one without the other fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GUIDE = (REPO / "docs" / "raspberry-pi.md").read_text(encoding="utf-8")
INSTALL = (REPO / "deploy" / "install.sh").read_text(encoding="utf-8")
ARM64 = (REPO / "deploy" / "test-arm64.sh").read_text(encoding="utf-8")
SYSTEMD = REPO / "deploy" / "systemd"


def shell_value(name: str, text: str = INSTALL) -> str:
    """The value of a plain `NAME=value` / `readonly NAME=value` line of a script."""
    found = re.search(rf"^(?:readonly )?{name}=(\S+)$", text, re.MULTILINE)
    assert found, f"{name}= not found"
    return found.group(1).strip("\"'")


def test_every_installer_option_is_in_the_guide() -> None:
    usage = INSTALL[INSTALL.index("usage() {"):INSTALL.index("\nEOF\n")]
    options = set(re.findall(r"^\s+(--[a-z-]+)", usage, re.MULTILINE)) - {"--help"}
    assert {"--hostname", "--enable-uart", "--hotspot", "--dry-run"} <= options
    for option in options:
        assert f"{option}" in GUIDE, option


def test_the_default_hostname_is_the_one_phones_are_told() -> None:
    name = shell_value("DEFAULT_HOSTNAME")
    assert name == "table"
    assert f"`http://{name}.local:8080/`" in GUIDE
    assert f"`{name}.local`" in GUIDE
    # no page of the guide sends phones to another name
    assert set(re.findall(r"http://([a-z0-9-]+)\.local", GUIDE)) == {name}
    unchosen = re.search(r'UNCHOSEN_HOSTNAMES=" ([a-z0-9 -]+) "', INSTALL)
    assert unchosen
    row = next(line for line in GUIDE.splitlines() if line.startswith("| hostname |"))
    for default in unchosen.group(1).split():
        assert f"`{default}`" in row, default
    assert "`raspberrypi`" in GUIDE  # the guide names the default it replaces


def test_the_installed_drop_ins_and_their_settings_are_in_the_guide() -> None:
    for variable, source in (("watchdog_conf", "watchdog.conf"),
                             ("journald_conf", "journald.conf")):
        path = shell_value(variable).replace("$APP", "table-companion")
        assert f"`{path}`" in GUIDE, path
        settings = [line for line in (SYSTEMD / source).read_text().splitlines()
                    if "=" in line and not line.startswith("#")]
        assert settings
        for setting in settings:
            key, _, value = setting.partition("=")
            if key in ("RuntimeWatchdogSec", "RebootWatchdogSec", "SystemMaxUse",
                       "SystemKeepFree", "RuntimeMaxUse"):
                assert f"`{key}={value}`" in GUIDE, setting
    assert "dtparam=watchdog=on" in INSTALL and "`dtparam=watchdog=on`" in GUIDE


def test_pi_5_uart_overlay_is_what_the_installer_adds() -> None:
    assert '"dtoverlay=uart0-pi5"' in INSTALL
    assert GUIDE.count("dtoverlay=uart0-pi5") >= 2  # the install table and troubleshooting
    assert "rdm6300:/dev/ttyAMA0" in INSTALL and "rdm6300:/dev/ttyAMA0" in GUIDE


def test_encoder_wiring_names_its_power() -> None:
    rows = [line for line in GUIDE.splitlines() if line.startswith("| encoder")]
    assert any("3.3 V" in row and "GND" in row for row in rows), rows
    assert "never 5 V" in GUIDE


def test_backup_is_copied_off_with_the_real_command() -> None:
    section = GUIDE[GUIDE.index("## 11."):GUIDE.index("## 12.")]
    assert "companion backup --out" in section and "scp " in section
    assert "companion restore" in section
    assert "tar -C" not in section  # the old stop-and-tar way is gone
    from companion.game.backup import default_name

    pattern = default_name(0.0).replace("19700101-000000", "*")
    if pattern == default_name(0.0):  # another time zone: a stamp of the same shape
        pattern = re.sub(r"\d{8}-\d{6}", "*", default_name(0.0))
    assert pattern in section, pattern
    example = re.search(r"companion-backup-(\d{8}-\d{6})\.tar\.gz", section)
    assert example, "an example file name as `companion backup` makes them"


def test_sizes_in_the_guide_are_under_the_tested_limit() -> None:
    limit = int(shell_value("SIZE_LIMIT_MB", ARM64))
    assert f"(limit {limit} MB)" in GUIDE
    section = GUIDE[GUIDE.index("## 13."):]
    app = re.search(r"`/opt/table-companion` (\d+) MB", section)
    total = re.search(r"bring the total of the\s+first install to\s+(\d+) MB", section)
    assert app and total
    assert int(app.group(1)) <= limit < int(total.group(1))


def test_usb_backups_as_the_script_does_them() -> None:
    script = (REPO / "deploy" / "usb-backup.sh").read_text(encoding="utf-8")
    label, keep = shell_value("label", script), shell_value("keep", script)
    assert f"`{label}`" in GUIDE and f"keeps the newest {keep}" in GUIDE
    path = shell_value("usb_backup_script").replace("$APP", "table-companion")
    assert f"`{path}`" in GUIDE
    assert "files 0600" in GUIDE


def test_the_read_only_root_check_is_described() -> None:
    assert "do_overlayfs 0" in GUIDE and "A read-only root" in GUIDE
    assert "A read-only root" in INSTALL  # the installer's warning points at the section
