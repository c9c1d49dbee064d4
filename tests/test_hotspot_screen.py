"""The Pi's own Wi-Fi on the table: hotspot.toml read, the Wi-Fi QR code first, then the join QR.

deploy/hotspot.py writes hotspot.toml (tests/test_deploy_hotspot.py); here the companion
reads it from the configured path (`[web] hotspot_file`, a temporary file): the screen's
phones corner shows the Wi-Fi QR code with its caption while the hotspot is on (the Pi
holds its address: 127.0.0.1 stands in for 10.42.0.1), and the join QR once a device is on
the Wi-Fi; `companion screenshot` renders it and `companion run --headless` prints both QR
codes as text. The PNG's code is decoded with zbarimg where it is installed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pygame
import pytest
from web_fakes import FakeSession

from companion.app import hotspot
from companion.config import ConfigError, parse_config
from companion.screen.controller import Controller
from companion.screen.render import render
from companion.screen.ui_state import WifiJoin
from tools.bench.journal import build_journal
from tools.bench.proc import Companion

REPO = Path(__file__).resolve().parent.parent
SSID, PASSPHRASE = "TableCompanion-3f9a", "k7mrx2qpw4ne"
QR = f"WIFI:T:WPA;S:{SSID};P:{PASSPHRASE};;"

pytestmark = pytest.mark.usefixtures("screen_in_english")


def written_by_install(tmp_path: Path, address: str = "127.0.0.1") -> Path:
    """hotspot.toml as deploy/hotspot.py writes it (its own text), at a given address."""
    sys.path.insert(0, str(REPO / "deploy"))
    try:
        import hotspot as deploy_hotspot  # deploy/hotspot.py, not companion.app.hotspot
    finally:
        sys.path.remove(str(REPO / "deploy"))
    text = deploy_hotspot.info_text(SSID, PASSPHRASE).replace(deploy_hotspot.ADDRESS, address)
    path = tmp_path / "hotspot.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_file_install_writes_is_read(tmp_path: Path) -> None:
    spot = hotspot.load(written_by_install(tmp_path))
    assert spot == hotspot.Hotspot(SSID, PASSPHRASE, QR, "127.0.0.1")
    assert hotspot.load(tmp_path / "absent.toml") is None


@pytest.mark.parametrize(("text", "problem"), [
    ('ssid = "x"\n', "passphrase is missing"),
    ('ssid = "x"\npassphrase = "y"\nwifi_qr = "x"\naddress = "10.42.0.1"\n',
     "not a Wi-Fi QR text"),
    (f'ssid = "x"\npassphrase = "y"\nwifi_qr = "{QR}"\naddress = "pi.local"\n', "no IP"),
    ("ssid = \n", "Invalid value"),
])
def test_a_bad_file_is_named_and_never_shown(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "hotspot.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(hotspot.HotspotFileError, match=problem) as caught:
        hotspot.load(path)
    assert str(path) in str(caught.value)
    assert hotspot.on_screen(path) is None  # logged, and the join QR stays


def test_shown_only_while_the_pi_holds_the_hotspots_address(tmp_path: Path) -> None:
    assert hotspot.on_screen(written_by_install(tmp_path)) is not None
    off = written_by_install(tmp_path, "192.0.2.199")  # TEST-NET: nobody's address here
    assert hotspot.on_screen(off) is None
    assert hotspot.on_screen(None) is None


ARP = """\
IP address       HW type     Flags       HW address            Mask     Device
192.168.1.1      0x1         0x2         02:fc:00:00:00:05     *        eth0
10.42.0.57       0x1         0x0         00:00:00:00:00:00     *        wlan0
10.42.0.23       0x1         0x2         5a:11:22:33:44:55     *        wlan0
"""


def test_a_device_on_the_hotspot_is_found_in_the_neighbour_table() -> None:
    spot = hotspot.Hotspot(SSID, PASSPHRASE, QR, "10.42.0.1")
    assert hotspot.devices_on(spot, ARP) == ["10.42.0.23"]  # the incomplete entry is not
    assert hotspot.devices_on(spot, ARP.splitlines()[0] + "\n") == []


def test_the_first_device_takes_the_wifi_code_down(tmp_path: Path) -> None:
    """hotspot.show puts the Wi-Fi code up; the watch takes it down at the first device."""
    spot = hotspot.Hotspot(SSID, PASSPHRASE, QR, "127.0.0.1")
    tables = iter(["", "", ARP.replace("10.42.0", "127.0.0")])
    woke = threading.Event()

    class Ui:
        wifi: WifiJoin | None = None

    ui = Ui()
    ui.wifi = hotspot.for_screen(spot)
    assert ui.wifi == WifiJoin(SSID, PASSPHRASE, QR)

    def device_on() -> None:
        ui.wifi = None
        woke.set()

    watch = hotspot.FirstDeviceWatch(spot, device_on, read=lambda: next(tables, ""),
                                     every=0.01)
    watch.start()
    try:
        assert woke.wait(10)
    finally:
        watch.close()
    assert ui.wifi is None


def test_the_path_is_configurable() -> None:
    assert parse_config("").web.hotspot_file == Path("/etc/table-companion/hotspot.toml")
    assert parse_config('[web]\nhotspot_file = ""\n').web.hotspot_file is None
    assert parse_config('[web]\nhotspot_file = "/tmp/h.toml"\n').web.hotspot_file == \
        Path("/tmp/h.toml")
    with pytest.raises(ConfigError, match="web.hotspot_file.*absolute"):
        parse_config('[web]\nhotspot_file = "h.toml"\n')


def drawn(controller: Controller) -> tuple[str, pygame.Surface]:
    surface = pygame.Surface((800, 480))
    frame = render(controller.state, controller.ui, surface)
    assert [t.text for t in frame.texts if not t.fits] == []
    return " ".join(t.text for t in frame.texts), surface


def decoded(png: Path) -> list[str]:
    """The QR codes zbarimg reads in a PNG (skips without zbar-tools)."""
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.skip("zbarimg is not installed (apt-get install zbar-tools)")
    result = subprocess.run([zbarimg, "--quiet", "--raw", str(png)], capture_output=True,
                            text=True, check=False)
    return result.stdout.splitlines()


@pytest.mark.parametrize("started", [False, True], ids=["setup", "game"])
def test_the_screen_shows_the_wifi_code_first_then_the_join_code(
        tmp_path: Path, started: bool) -> None:
    session = FakeSession(players=("Ann", "Bo")) if started else FakeSession(players=())
    controller = Controller(session, remote_port=8080, language="en")
    if not started:
        controller.state = None
    controller.ui.remote_url = "http://10.42.0.1:8080/join/abc"
    controller.ui.wifi = WifiJoin(SSID, PASSPHRASE, QR)
    words, surface = drawn(controller)
    assert "The table's Wi-Fi" in words or "Scan to join the table's Wi-Fi" in words
    assert PASSPHRASE in words
    assert "10.42.0.1:8080/join/abc" not in words
    pygame.image.save(surface, str(tmp_path / "wifi.png"))
    controller.ui.wifi = None  # a device is on the Wi-Fi
    words, surface = drawn(controller)
    # the address whole, on two lines when the corner is too narrow for it at 16 px
    assert "10.42.0.1:8080/join/abc" in words.replace(" /join", "/join")
    assert PASSPHRASE not in words
    pygame.image.save(surface, str(tmp_path / "join.png"))
    assert decoded(tmp_path / "wifi.png") == [QR]
    assert decoded(tmp_path / "join.png") == ["http://10.42.0.1:8080/join/abc"]


def test_screenshot_renders_the_wifi_code_from_the_configured_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[web]\nhotspot_file = "{written_by_install(tmp_path)}"\n')
    data = tmp_path / "data"
    build_journal(data, 8, seed=2, players=3)
    out = tmp_path / "shot.png"
    result = subprocess.run(
        [sys.executable, "-m", "companion", "screenshot", "--data-dir", str(data),
         "--config", str(config), "--out", str(out)],
        capture_output=True, text=True, cwd=REPO, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "SDL_VIDEODRIVER": "dummy",
             "SDL_AUDIODRIVER": "dummy", "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert decoded(out) == [QR]


def test_headless_run_prints_both_codes_as_text(tmp_path: Path) -> None:
    data = tmp_path / "data"
    build_journal(data, 1, seed=1, players=3)
    config = tmp_path / "config.toml"
    config.write_text(f'[web]\nhotspot_file = "{written_by_install(tmp_path)}"\n')
    printed: list[str] = []
    with Companion(data, extra_args=["--config", str(config)]) as child:
        while sum(set(line) == {"▀"} for line in printed) < 2:  # two codes' bottom rows
            printed.append(child.lines.get(timeout=60))
    assert printed[0].startswith("Table Companion running"), printed[0]
    link = printed[0].rsplit(" ", 1)[1]
    assert link.startswith("http://") and "/join/" in link
    head = "\n".join(printed)
    assert f"The table's own Wi-Fi: {SSID} (password {PASSPHRASE})" in head
    assert "Then they scan this to open the phone remote:" in head
    wifi_at = printed.index(next(line for line in printed if "phones scan this" in line))
    join_at = printed.index("Then they scan this to open the phone remote:")
    assert 20 < join_at - wifi_at < 60  # a QR code in half blocks between the two
