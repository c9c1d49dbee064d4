"""deploy/hotspot.py: the hotspot's NetworkManager keyfile and the screen's hotspot.toml.

Run for real into a temporary root, then read back as NetworkManager would: as a keyfile
(an ini file), and through libnm itself with Debian's python3 (scripts/test-setup.d
installs python3-gi and gir1.2-nm-1.0).
"""

from __future__ import annotations

import configparser
import grp
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HOTSPOT = REPO / "deploy" / "hotspot.py"
PROFILE = "etc/NetworkManager/system-connections/table-companion-hotspot.nmconnection"
INFO = "etc/table-companion/hotspot.toml"
SYSTEM_PYTHON = "/usr/bin/python3"
GROUP = grp.getgrgid(os.getgid()).gr_name


def hotspot(*args: str, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    return subprocess.run([python, str(HOTSPOT), *args], capture_output=True, text=True,
                          check=False)


def make(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = hotspot("--root", str(root), "--group", GROUP, *args)
    assert result.returncode == 0, result.stderr
    return result


def keyfile(root: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string((root / PROFILE).read_text(encoding="utf-8"))
    return parser


def test_profile_is_an_access_point_with_wpa2(tmp_path: Path) -> None:
    make(tmp_path)
    profile = keyfile(tmp_path)
    info = tomllib.loads((tmp_path / INFO).read_text(encoding="utf-8"))
    assert profile["connection"]["type"] == "wifi"
    assert profile["connection"]["interface-name"] == "wlan0"
    assert profile["connection"]["autoconnect"] == "true"
    assert int(profile["connection"]["autoconnect-priority"]) < 0  # known Wi-Fi goes first
    assert len(profile["connection"]["uuid"]) == 36
    assert profile["wifi"]["mode"] == "ap"
    assert profile["wifi"]["ssid"] == info["ssid"]
    assert profile["wifi-security"]["key-mgmt"] == "wpa-psk"
    assert profile["wifi-security"]["proto"] == "rsn"
    assert profile["wifi-security"]["psk"] == info["passphrase"]
    assert profile["ipv4"]["method"] == "shared"
    assert 8 <= len(info["passphrase"]) <= 63
    assert info["wifi_qr"] == f"WIFI:T:WPA;S:{info['ssid']};P:{info['passphrase']};;"
    assert info["address"] == "10.42.0.1"


def test_modes_keep_the_passphrase_from_others(tmp_path: Path) -> None:
    make(tmp_path)
    assert (tmp_path / PROFILE).stat().st_mode & 0o777 == 0o600
    info = (tmp_path / INFO).stat()
    assert info.st_mode & 0o777 == 0o640
    assert info.st_gid == os.getgid()


def test_a_second_run_keeps_network_and_connection(tmp_path: Path) -> None:
    make(tmp_path)
    first = ((tmp_path / PROFILE).read_text(), (tmp_path / INFO).read_text())
    again = make(tmp_path)
    assert "up to date" in again.stdout
    assert ((tmp_path / PROFILE).read_text(), (tmp_path / INFO).read_text()) == first
    other = tmp_path / "other"
    make(other)  # another Pi: another name and passphrase
    assert (other / INFO).read_text() != first[1]


def test_another_interface(tmp_path: Path) -> None:
    make(tmp_path, "--interface", "wlan1")
    assert keyfile(tmp_path)["connection"]["interface-name"] == "wlan1"


@pytest.mark.parametrize("args", [["--interface", "wlan0; reboot"], ["--group", "no-such-grp"]])
def test_bad_arguments_write_nothing(tmp_path: Path, args: list[str]) -> None:
    result = hotspot("--root", str(tmp_path), *(["--group", GROUP] if "--group" not in args
                                                 else []), *args)
    assert result.returncode == 2
    assert not (tmp_path / "etc").exists()


def test_wifi_qr_escapes_special_characters() -> None:
    sys.path.insert(0, str(HOTSPOT.parent))
    try:
        import hotspot as module
    finally:
        sys.path.remove(str(HOTSPOT.parent))
    assert module.wifi_qr('a;b,c:d"e\\', "p;w") == 'WIFI:T:WPA;S:a\\;b\\,c\\:d\\"e\\\\;P:p\\;w;;'


def libnm_check(path: Path) -> subprocess.CompletedProcess[str]:
    if not Path(SYSTEM_PYTHON).exists():
        pytest.fail(f"{SYSTEM_PYTHON} is needed to read the profile with libnm")
    result = hotspot("--check", str(path), python=SYSTEM_PYTHON)
    if result.returncode == 2:
        pytest.fail(f"{result.stderr.strip()} (./test.sh installs them: "
                    "scripts/test-setup.d/20-deploy.sh)")
    return result


def test_network_manager_reads_the_profile(tmp_path: Path) -> None:
    make(tmp_path)
    result = libnm_check(tmp_path / PROFILE)
    assert result.returncode == 0, result.stderr
    assert "mode ap, WPA2-PSK, ipv4 shared" in result.stdout


def test_network_manager_refuses_a_broken_profile(tmp_path: Path) -> None:
    """The libnm check can fail: a passphrase too short for WPA2 is refused."""
    make(tmp_path)
    profile = tmp_path / PROFILE
    text = profile.read_text()
    psk = keyfile(tmp_path)["wifi-security"]["psk"]
    profile.write_text(text.replace(f"psk={psk}", "psk=short"))
    result = libnm_check(profile)
    assert result.returncode == 1
    assert "refuses" in result.stderr
    profile.write_text(text.replace("mode=ap", "mode=infrastructure"))
    result = libnm_check(profile)
    assert result.returncode == 1
    assert "not an access point" in result.stderr


def test_an_unreadable_hotspot_toml_is_reported(tmp_path: Path) -> None:
    (tmp_path / "etc/table-companion").mkdir(parents=True)
    (tmp_path / INFO).write_text("ssid = [unclosed\n")
    result = hotspot("--root", str(tmp_path), "--group", GROUP)
    assert result.returncode == 1
    assert "fix or delete it" in result.stderr
    assert not (tmp_path / PROFILE).exists()
