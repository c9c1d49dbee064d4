"""The Pi's own Wi-Fi, as the table shows it: read hotspot.toml, tell whether it is on,
and notice the first device on it.

`deploy/install.sh --hotspot` (deploy/hotspot.py) writes /etc/table-companion/hotspot.toml:
the network's name, its passphrase, the Wi-Fi QR text (WIFI:T:WPA;S:...;P:...;;) and the
address NetworkManager gives the Pi on it. While the Pi holds that address the hotspot is
on, and phones must join the Wi-Fi before the phone remote: the screen shows the Wi-Fi QR
code first (companion/screen/views/wifi.py) and the join QR once a device is on the Wi-Fi
(the Pi's neighbour table lists it) or a phone joined. The file's path is `[web]
hotspot_file` of the configuration.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app.terminal_qr import qr_for_terminal

log = logging.getLogger(__name__)

#: the kernel's neighbour (ARP) table: a device that talked to the Pi on its Wi-Fi is here
ARP_TABLE = Path("/proc/net/arp")
#: how often the watch looks for a first device on the hotspot (seconds)
WATCH_EVERY_S = 2.0
#: the hotspot's network: NetworkManager's shared mode gives out a /24 around the Pi
PREFIX = 24


@dataclass(frozen=True)
class Hotspot:
    """The Pi's own Wi-Fi: its name, passphrase, Wi-Fi QR text and the Pi's address on it."""

    ssid: str
    passphrase: str
    wifi_qr: str
    address: str


class HotspotFileError(ValueError):
    """hotspot.toml cannot be used (the message names the file and the problem)."""


def load(path: Path) -> Hotspot | None:
    """The hotspot described by `path`, or None when there is no such file.

    Raises HotspotFileError for a file that is there but unreadable or incomplete.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise HotspotFileError(f"{path}: {exc}") from None
    values = {}
    for key in ("ssid", "passphrase", "wifi_qr", "address"):
        value = data.get(key)
        if not isinstance(value, str) or not value:
            raise HotspotFileError(f"{path}: {key} is missing (deploy/install.sh --hotspot "
                                   "writes it)")
        values[key] = value
    if not values["wifi_qr"].startswith("WIFI:"):
        raise HotspotFileError(f"{path}: wifi_qr is not a Wi-Fi QR text (WIFI:T:WPA;S:...)")
    try:
        ipaddress.ip_address(values["address"])
    except ValueError:
        raise HotspotFileError(f"{path}: address {values['address']!r} is no IP address") \
            from None
    return Hotspot(**values)


def active(hotspot: Hotspot) -> bool:
    """Whether the hotspot is on: this machine holds its address (a socket binds to it)."""
    family = socket.AF_INET6 if ":" in hotspot.address else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((hotspot.address, 0))
        except OSError:
            return False
    return True


def devices_on(hotspot: Hotspot, arp_table: str) -> list[str]:
    """The addresses of other devices on the hotspot's network in a /proc/net/arp text."""
    try:
        network = ipaddress.ip_network(f"{hotspot.address}/{PREFIX}", strict=False)
    except ValueError:
        return []
    found = []
    for line in arp_table.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 4 or fields[2] == "0x0":  # an incomplete entry: nobody answered
            continue
        try:
            address = ipaddress.ip_address(fields[0])
        except ValueError:
            continue
        if address in network and fields[0] != hotspot.address:
            found.append(fields[0])
    return found


def read_arp(path: Path = ARP_TABLE) -> str:
    """The neighbour table's text ("" where there is none)."""
    try:
        return path.read_text(encoding="ascii", errors="replace")
    except OSError:
        return ""


class FirstDeviceWatch:
    """Calls `on_first` once, from its own thread, when a device appears on the hotspot."""

    def __init__(self, hotspot: Hotspot, on_first: Callable[[], None],
                 read: Callable[[], str] = read_arp, every: float = WATCH_EVERY_S) -> None:
        self._hotspot, self._on_first, self._read, self._every = hotspot, on_first, read, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hotspot-watch", daemon=True)

    def start(self) -> None:
        """Start watching."""
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if devices_on(self._hotspot, self._read()):
                log.info("a device is on the hotspot %r", self._hotspot.ssid)
                self._on_first()
                return
            self._stop.wait(self._every)

    def close(self) -> None:
        """Stop watching."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)


def on_screen(path: Path | None) -> Hotspot | None:
    """The hotspot the screen must show first: the one of `path` while it is on, else None
    (no file, or the Pi not on its own Wi-Fi). A bad file is logged, never fatal."""
    if path is None:
        return None
    try:
        hotspot = load(path)
    except HotspotFileError as exc:
        log.warning("the table's Wi-Fi is not shown: %s", exc)
        return None
    return hotspot if hotspot is not None and active(hotspot) else None


def for_screen(hotspot: Hotspot) -> Any:
    """The screen's record of the hotspot (companion.screen.ui_state.WifiJoin)."""
    from companion.screen.ui_state import WifiJoin  # deferred: the screen's own record

    return WifiJoin(hotspot.ssid, hotspot.passphrase, hotspot.wifi_qr)


def show(ui: Any, wake: Callable[[], None], path: Path | None) -> FirstDeviceWatch | None:
    """Put the hotspot's Wi-Fi QR code in the phones' corner (`ui.wifi`) while the hotspot
    is on, and take it down (waking the screen) once a device is on the Wi-Fi; the watch
    doing that is returned (close it on exit), None when there is nothing to show."""
    hotspot = on_screen(path)
    if hotspot is None:
        return None
    ui.wifi = for_screen(hotspot)

    def device_on() -> None:
        ui.wifi = None
        wake()

    watch = FirstDeviceWatch(hotspot, device_on)
    watch.start()
    return watch


def headless_lines(ui: Any, url: str | None) -> list[str]:
    """What a headless start prints after its first line while the hotspot is on: the
    Wi-Fi to join and its QR code, then the phone remote's join QR code (nothing else)."""
    if ui.wifi is None:
        return []
    lines = [f"The table's own Wi-Fi: {ui.wifi.ssid} (password {ui.wifi.passphrase}); "
             "phones scan this to join it:", qr_for_terminal(ui.wifi.qr)]
    if url:
        lines += ["Then they scan this to open the phone remote:", qr_for_terminal(url)]
    return lines
