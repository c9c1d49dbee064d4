#!/usr/bin/env python3
"""The Pi's own Wi-Fi: a NetworkManager hotspot profile, as `nmcli device wifi hotspot` makes.

Run by `deploy/install.sh --hotspot` with Debian's python3 (standard library only):

    python3 deploy/hotspot.py [--root DIR] [--interface wlan0] [--group companion]
    python3 deploy/hotspot.py --check FILE     # NetworkManager's own parser (libnm) reads it

Writes two files, keeping the network name and passphrase of an earlier run:
- /etc/NetworkManager/system-connections/table-companion-hotspot.nmconnection (root, 0600):
  an access point (wifi mode=ap) with WPA2-PSK, IPv4 shared (NetworkManager hands out
  addresses and routes through any wired network), starting by itself when no known Wi-Fi
  is around (the lowest autoconnect priority).
- /etc/table-companion/hotspot.toml (root:GROUP, 0640): the SSID, the passphrase and the
  ready-made Wi-Fi QR text (WIFI:T:WPA;S:...;P:...;;) the table screen shows, so phones
  join by scanning it.

Writing a keyfile, not calling nmcli, keeps this testable without a Wi-Fi device or a
running NetworkManager; NetworkManager reads it at `nmcli connection reload` or boot.
"""

from __future__ import annotations

import argparse
import grp
import os
import re
import secrets
import sys
import tomllib
import uuid
from pathlib import Path

PROFILE = "etc/NetworkManager/system-connections/table-companion-hotspot.nmconnection"
INFO = "etc/table-companion/hotspot.toml"
CONNECTION_ID = "Table Companion hotspot"
#: the address NetworkManager's shared mode gives the Pi on its own network
ADDRESS = "10.42.0.1"
#: easy to read off a screen and type on a phone: no 0/o, 1/l/i
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
PASSPHRASE_LENGTH = 12
SSID_PREFIX = "TableCompanion-"


def wifi_qr(ssid: str, passphrase: str) -> str:
    """The text of a Wi-Fi QR code (the ZXing format phones' cameras understand)."""

    def escape(text: str) -> str:
        return re.sub(r'([\\;,:"])', r"\\\1", text)

    return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(passphrase)};;"


def valid_ssid(ssid: str) -> bool:
    """1 to 32 bytes of printable text (what a phone can show and a keyfile can hold)."""
    return 0 < len(ssid.encode("utf-8")) <= 32 and ssid.isprintable() and "\n" not in ssid


def valid_passphrase(passphrase: str) -> bool:
    """WPA2-PSK: 8 to 63 printable ASCII characters."""
    return 8 <= len(passphrase) <= 63 and all(32 <= ord(c) < 127 for c in passphrase)


def earlier(info: Path, profile: Path) -> tuple[str, str, str]:
    """The SSID, passphrase and connection UUID of an earlier run, or new ones."""
    ssid = SSID_PREFIX + "".join(secrets.choice("0123456789abcdef") for _ in range(4))
    passphrase = "".join(secrets.choice(ALPHABET) for _ in range(PASSPHRASE_LENGTH))
    ident = str(uuid.uuid4())
    if info.exists():
        try:
            kept = tomllib.loads(info.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise SystemExit(f"hotspot.py: {info}: {exc}; fix or delete it") from exc
        if valid_ssid(str(kept.get("ssid", ""))) and valid_passphrase(
            str(kept.get("passphrase", ""))
        ):
            ssid, passphrase = str(kept["ssid"]), str(kept["passphrase"])
    if profile.exists():
        found = re.search(r"^uuid=([0-9a-f-]{36})$", profile.read_text(encoding="utf-8"), re.M)
        if found:
            ident = found.group(1)
    return ssid, passphrase, ident


def keyfile(ssid: str, passphrase: str, ident: str, interface: str) -> str:
    """The NetworkManager keyfile of the hotspot."""
    return f"""\
# Table Companion's own Wi-Fi, written by deploy/install.sh --hotspot (deploy/hotspot.py).
# NetworkManager starts it when no known Wi-Fi network is around (lowest priority).
[connection]
id={CONNECTION_ID}
uuid={ident}
type=wifi
interface-name={interface}
autoconnect=true
autoconnect-priority=-100

[wifi]
mode=ap
ssid={ssid}

[wifi-security]
key-mgmt=wpa-psk
proto=rsn
pairwise=ccmp
group=ccmp
psk={passphrase}

[ipv4]
method=shared

[ipv6]
addr-gen-mode=default
method=ignore
"""


def info_text(ssid: str, passphrase: str) -> str:
    """hotspot.toml: what the table screen needs to show the Wi-Fi QR code."""

    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    return (
        "# The Pi's own Wi-Fi (deploy/install.sh --hotspot). The table screen shows wifi_qr as\n"
        "# a QR code; phones that scan it join, then open the phone remote at address.\n"
        f"ssid = {quoted(ssid)}\n"
        f"passphrase = {quoted(passphrase)}\n"
        f"wifi_qr = {quoted(wifi_qr(ssid, passphrase))}\n"
        f"address = {quoted(ADDRESS)}\n"
    )


def write(path: Path, text: str, mode: int, gid: int | None = None) -> bool:
    """Write `text` to `path` atomically with `mode` (and group); False if it was already so."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        stat = path.stat()
        if stat.st_mode & 0o777 == mode and (gid is None or stat.st_gid == gid):
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    new = path.with_name(f".{path.name}.new")
    fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(new, mode)  # whatever the umask
    if gid is not None:
        os.chown(new, -1, gid)
    os.replace(new, path)
    return True


def check(path: Path) -> int:
    """Have NetworkManager's library read the keyfile and verify it; 0 if it is a hotspot."""
    try:
        import gi

        gi.require_version("NM", "1.0")
        from gi.repository import NM, GLib  # type: ignore[attr-defined]
    except (ImportError, ValueError) as exc:
        print(f"hotspot.py: libnm is not installed ({exc}): apt-get install python3-gi "
              "gir1.2-nm-1.0", file=sys.stderr)
        return 2
    try:
        data = GLib.KeyFile()
        data.load_from_file(str(path), GLib.KeyFileFlags.NONE)
        connection = NM.keyfile_read(data, str(path.parent), NM.KeyfileHandlerFlags.NONE,
                                     None, None)
        connection.verify()
        connection.verify_secrets()
    except GLib.Error as exc:
        print(f"hotspot.py: NetworkManager refuses {path}: {exc.message}", file=sys.stderr)
        return 1
    wifi = connection.get_setting_wireless()
    security = connection.get_setting_wireless_security()
    problems = []
    if wifi is None or wifi.get_mode() != "ap":
        problems.append("not an access point (wifi.mode=ap)")
    if security is None or security.get_key_mgmt() != "wpa-psk":
        problems.append("not WPA-PSK")
    ip4 = connection.get_setting_ip4_config()
    if ip4 is None or ip4.get_method() != "shared":
        problems.append("ipv4.method is not shared")
    if problems:
        print(f"hotspot.py: {path}: {'; '.join(problems)}", file=sys.stderr)
        return 1
    ssid = wifi.get_ssid().get_data().decode("utf-8")
    print(f"libnm {NM.MAJOR_VERSION}.{NM.MINOR_VERSION}.{NM.MICRO_VERSION} reads {path}: "
          f"{connection.get_id()!r}, SSID {ssid!r}, mode ap, WPA2-PSK, ipv4 shared")
    return 0


def main(argv: list[str]) -> int:
    """Write the hotspot's profile and hotspot.toml, or --check a profile."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/"), help="install under DIR")
    parser.add_argument("--interface", default="wlan0", help="the Wi-Fi device (wlan0)")
    parser.add_argument("--group", default="companion",
                        help="the group that may read hotspot.toml (the service's)")
    parser.add_argument("--check", type=Path, metavar="FILE",
                        help="only check FILE with NetworkManager's library")
    args = parser.parse_args(argv)
    if args.check:
        return check(args.check)
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,15}", args.interface):
        parser.error(f"--interface: {args.interface!r} is not a network device name")
    try:
        gid = grp.getgrnam(args.group).gr_gid
    except KeyError:
        parser.error(f"--group: no group {args.group!r}")
    profile, info = args.root / PROFILE, args.root / INFO
    ssid, passphrase, ident = earlier(info, profile)
    wrote = write(profile, keyfile(ssid, passphrase, ident, args.interface), 0o600)
    wrote = write(info, info_text(ssid, passphrase), 0o640, gid) or wrote
    print(f"{'wrote' if wrote else 'up to date:'} the hotspot {ssid!r} on {args.interface} "
          f"(passphrase in /{INFO})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
