#!/usr/bin/env python3
"""A card image's first-boot settings: companion.toml on the FAT partition, applied.

Run as root by table-companion-firstboot.service (card images made by
deploy/build-image.sh), with the installed companion's Python, before the network, mDNS
and the companion start:

    /opt/table-companion/venv/bin/python firstboot.py [--boot DIR] [--root DIR]
                                                      [--data-dir DIR] [--user NAME]

It reads `<boot>/companion.toml` (deploy/companion.toml is the card's copy), checks all of
it first (a mistake changes nothing: `companion-error.txt` beside it names the line), then:

- the table's name: /etc/hostname and the 127.0.1.1 line of /etc/hosts (phones open
  NAME.local);
- the Wi-Fi: a NetworkManager profile (0600) for the network named, the country's radio
  rules (cfg80211's regulatory domain);
- the hotspot: on, this card's own name and passphrase made now (deploy/hotspot.py), or off;
- the banker PIN (a salted hash in the data directory, companion.game.pins) and the table's
  language (companion.words.table_language), owned by the service user;
- the root file system read-only or writable (`[system] read_only`): the root's options in
  /etc/fstab, and at once (a remount); the saved games, their backups, the log and the
  network's leases are on the card's data partition, /var, which stays writable;
- then `companion-applied.toml` replaces the file with the PIN and the Wi-Fi password taken
  out, so no secret stays on the partition any computer reads.

A read-only root is made writable for the moment the settings are applied (and read-only
again after, if it still should be). On a card's first boot it also grows the partition of
the saved games (the data partition, the card's last) and its file system onto the whole
card (growpart, resize2fs), once.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import re
import subprocess
import sys
import tomllib
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SETTINGS = "companion.toml"
APPLIED = "companion-applied.toml"
ERRORS = "companion-error.txt"
HOSTNAME = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
COUNTRY = re.compile(r"^[A-Z]{2}$")
LANGUAGES = ("en", "sv", "fr", "de", "nl", "pl", "ru")
WIFI_PROFILE = "etc/NetworkManager/system-connections/table-companion-wifi.nmconnection"
HOTSPOT_PROFILE = "etc/NetworkManager/system-connections/table-companion-hotspot.nmconnection"
HOTSPOT_INFO = "etc/table-companion/hotspot.toml"
REGDOM = "etc/modprobe.d/table-companion-wifi-country.conf"
GROWN = "var/lib/table-companion-firstboot/grown"
FSTAB = "etc/fstab"
#: the keys the file may have, per section, and the type each must be
KEYS: dict[str, dict[str, type]] = {
    "table": {"name": str, "language": str, "banker_pin": str},
    "wifi": {"ssid": str, "password": str, "country": str, "hotspot": bool},
    "system": {"read_only": bool},
}
SECRETS = (("table", "banker_pin"), ("wifi", "password"))


class SettingsError(Exception):
    """A mistake in companion.toml: one line saying where and what."""


@dataclass(frozen=True)
class Settings:
    """What companion.toml asks for (None: the file does not say, nothing changes)."""

    name: str | None = None
    language: str | None = None
    banker_pin: str | None = None
    ssid: str | None = None
    password: str | None = None
    country: str | None = None
    hotspot: bool | None = None
    read_only: bool | None = None


def line_of(text: str, key: str) -> int:
    """The line number where `key = ...` stands in `text` (0: not found)."""
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return number
    return 0


def parse(text: str, path: str = SETTINGS) -> Settings:
    """The settings in `text`, every value checked; SettingsError names the first mistake."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not a TOML file: {exc}") from None

    def where(key: str) -> str:
        number = line_of(text, key)
        return f"{path}:{number}" if number else path

    values: dict[str, Any] = {}
    for section, table in data.items():
        if section not in KEYS or not isinstance(table, dict):
            raise SettingsError(f"{where(section)}: unknown section [{section}] "
                                f"(known: {', '.join(f'[{k}]' for k in KEYS)})")
        for key, value in table.items():
            kind = KEYS[section].get(key)
            if kind is None:
                raise SettingsError(f"{where(key)}: {section}.{key}: unknown key (known: "
                                    f"{', '.join(KEYS[section])})")
            if not isinstance(value, kind):
                raise SettingsError(f"{where(key)}: {section}.{key}: must be "
                                    f"{'true or false' if kind is bool else 'text in quotes'}")
            values[key] = value
    settings = Settings(**values)
    checks = (
        ("name", settings.name is None or bool(HOSTNAME.match(settings.name)),
         "must be 1 to 63 of a-z, 0-9 and '-', not starting or ending with '-'"),
        ("language", settings.language in (None, "", *LANGUAGES),
         f"must be one of {', '.join(LANGUAGES)}, or \"\""),
        ("banker_pin", not settings.banker_pin
         or (settings.banker_pin.isascii() and settings.banker_pin.isdigit()
             and 4 <= len(settings.banker_pin) <= 12), "must be 4 to 12 digits, or \"\""),
        ("ssid", settings.ssid is None or len(settings.ssid.encode()) <= 32,
         "must be at most 32 bytes"),
        ("password", not settings.password or 8 <= len(settings.password) <= 63,
         "must be 8 to 63 characters (WPA), or \"\" for an open network"),
        ("country", not settings.country or bool(COUNTRY.match(settings.country)),
         "must be two capital letters, such as GB or SE"),
    )
    for key, good, why in checks:
        if not good:
            raise SettingsError(f"{where(key)}: {key}: {why}")
    return settings


def without_secrets(text: str) -> str:
    """The file's text with the PIN's and the Wi-Fi password's lines emptied; if anything
    of a secret could be left (a multi-line string), only the settings that are not secret,
    written anew."""
    keys = "|".join(key for _section, key in SECRETS)
    out = re.sub(rf"(?m)^(\s*)({keys})\s*=.*$", r'\1\2 = ""', text)
    try:
        data = tomllib.loads(out)
        if not any(data.get(section, {}).get(key) for section, key in SECRETS):
            return out
    except tomllib.TOMLDecodeError:
        pass
    data = tomllib.loads(text)
    lines = []
    for section, table in data.items():
        lines.append(f"[{section}]")
        for key, value in table.items():
            shown = "" if (section, key) in SECRETS else value
            # JSON's strings and true/false are TOML's too
            lines.append(f"{key} = {json.dumps(shown)}")
    return "\n".join(lines) + "\n"


def write(path: Path, text: str, mode: int | None = 0o644, owner: int | None = None) -> None:
    """Replace `path` with `text` at once (a power cut leaves the old or the new one);
    mode None: the file system's own (FAT has none: its mount's umask says)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if mode is None else mode)
    try:
        os.write(fd, text.encode())
        if mode is not None:
            os.fchmod(fd, mode)
        if owner is not None:
            os.fchown(fd, owner, -1)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def set_name(root: Path, name: str, live: bool) -> str:
    """The host's name in /etc/hostname and /etc/hosts (and the running kernel's)."""
    write(root / "etc/hostname", f"{name}\n")
    hosts = root / "etc/hosts"
    text = hosts.read_text() if hosts.exists() else "127.0.0.1\tlocalhost\n"
    if re.search(r"(?m)^127\.0\.1\.1\s", text):
        text = re.sub(r"(?m)^127\.0\.1\.1\s.*$", f"127.0.1.1\t{name}", text)
    else:
        text = text.rstrip("\n") + f"\n127.0.1.1\t{name}\n"
    write(hosts, text)
    if live:
        subprocess.run(["hostname", name], check=False)
    return f"name {name} (phones open http://{name}.local:8080/)"


def wifi_keyfile(ssid: str, password: str) -> str:
    """A NetworkManager keyfile for the table's Wi-Fi (preferred over the hotspot)."""
    lines = ["[connection]", "id=Table Wi-Fi", f"uuid={uuid.uuid5(uuid.NAMESPACE_DNS, ssid)}",
             "type=wifi", "autoconnect=true", "autoconnect-priority=10", "",
             "[wifi]", "mode=infrastructure", f"ssid={ssid}", ""]
    if password:
        lines += ["[wifi-security]", "key-mgmt=wpa-psk", f"psk={password}", ""]
    lines += ["[ipv4]", "method=auto", "", "[ipv6]", "method=auto", ""]
    return "\n".join(lines)


def fstab_read_only(root: Path) -> bool | None:
    """Whether /etc/fstab mounts the root read-only (None: it has no line for /)."""
    fstab = root / FSTAB
    for line in (fstab.read_text().splitlines() if fstab.exists() else []):
        fields = line.split()
        if len(fields) >= 4 and not fields[0].startswith("#") and fields[1] == "/":
            return "ro" in fields[3].split(",")
    return None


def set_read_only(root: Path, on: bool) -> bool:
    """The root's line of /etc/fstab with `ro` (on) or `rw` in its options, the rest of
    the file as it was; False when it has no line for /."""
    fstab = root / FSTAB
    lines = fstab.read_text().splitlines(keepends=True) if fstab.exists() else []
    for number, line in enumerate(lines):
        fields = line.split()
        if len(fields) >= 4 and not fields[0].startswith("#") and fields[1] == "/":
            options = [o for o in fields[3].split(",") if o not in ("ro", "rw", "defaults")]
            wanted = ",".join(["ro" if on else "rw", *options])
            start = line.index(fields[3], line.index(fields[2]) + len(fields[2]))
            lines[number] = line[:start] + wanted + line[start + len(fields[3]):]
            write(fstab, "".join(lines))
            return True
    return False


def mount_of(path: Path) -> str:
    """The mount point holding `path` ("" if findmnt cannot say)."""
    return subprocess.run(["findmnt", "-n", "-o", "TARGET", "--target", str(path)],
                          capture_output=True, text=True, check=False).stdout.strip()


def read_only(path: Path) -> bool:
    """Whether the file system holding `path` is mounted read-only now."""
    return bool(os.statvfs(path).f_flag & os.ST_RDONLY)


def remount(read_only_wanted: bool) -> bool:
    """The running root remounted read-only or writable; False if the kernel refused (a
    file still open for writing keeps it writable: then read-only from the next start)."""
    os.sync()
    return subprocess.run(["mount", "-o", f"remount,{'ro' if read_only_wanted else 'rw'}",
                           "/"], capture_output=True, check=False).returncode == 0


def apply(settings: Settings, root: Path, data_dir: Path, user: str, hotspot_script: Path,
          live: bool) -> list[str]:
    """Apply what `settings` says; the list of what was done, one line each."""
    done: list[str] = []
    account = pwd.getpwnam(user)
    if settings.name is not None:
        done.append(set_name(root, settings.name, live))
    if settings.country:
        write(root / REGDOM, f"options cfg80211 ieee80211_regdom={settings.country}\n")
        if live:
            subprocess.run(["iw", "reg", "set", settings.country], check=False,
                           stderr=subprocess.DEVNULL)
        done.append(f"Wi-Fi country {settings.country}")
    if settings.ssid is not None:
        profile = root / WIFI_PROFILE
        if settings.ssid:
            write(profile, wifi_keyfile(settings.ssid, settings.password or ""), 0o600, 0)
            done.append(f"Wi-Fi {settings.ssid!r}")
        elif profile.exists():
            profile.unlink()
            done.append("no Wi-Fi of a router (its profile removed)")
    if settings.hotspot is True and not (root / HOTSPOT_PROFILE).exists():
        subprocess.run(["/usr/bin/python3" if live else sys.executable, str(hotspot_script),
                        "--root", str(root), "--group", user], check=True,
                       stdout=subprocess.DEVNULL)
        done.append("the table's own Wi-Fi when no known one is around (a new passphrase)")
    elif settings.hotspot is False:
        for path in (root / HOTSPOT_PROFILE, root / HOTSPOT_INFO):
            path.unlink(missing_ok=True)
        done.append("no hotspot")
    if settings.banker_pin or settings.language:
        from companion.game.pins import PIN_FILE, PinStore
        from companion.words.table_language import TableLanguage

        data_dir.mkdir(mode=0o750, parents=True, exist_ok=True)
        if settings.banker_pin:
            PinStore(data_dir / PIN_FILE).set(settings.banker_pin)
            done.append("the banker PIN")
        if settings.language:
            TableLanguage(data_dir).choose(settings.language)
            done.append(f"language {settings.language}")
        for path in (data_dir, *data_dir.rglob("*")):
            os.chown(path, account.pw_uid, account.pw_gid)
    if settings.read_only is True and live and mount_of(data_dir) in ("", "/"):
        # a read-only root would keep the games from being saved at all
        done.append(f"the root stays writable: the saved games ({data_dir}) have no "
                    "partition of their own")
    elif settings.read_only is not None:
        if set_read_only(root, settings.read_only):
            done.append("the root read-only (what is written is on the data partition, /var)"
                        if settings.read_only else "the root writable")
        else:
            done.append("the root unchanged: /etc/fstab has no line for /")
    return done


def grow_card(root: Path, data_dir: Path) -> str | None:
    """Grow the partition holding the saved games (the card image's data partition, its
    last; the root where there is none) and its file system onto the whole card, once."""
    marker = root / GROWN
    if marker.exists():
        return None
    source = subprocess.run(["findmnt", "-n", "-o", "SOURCE", "--target", str(data_dir)],
                            capture_output=True, text=True, check=False).stdout.strip()
    disk = subprocess.run(["lsblk", "-n", "-o", "PKNAME", source], capture_output=True,
                          text=True, check=False).stdout.strip()
    number = re.search(r"(\d+)$", source)
    said = "the data partition: not grown (no partition found)"
    if source.startswith("/dev/") and disk and number:
        grown = subprocess.run(["growpart", f"/dev/{disk}", number.group(1)],
                               capture_output=True, text=True, check=False)
        if grown.returncode == 0:
            subprocess.run(["resize2fs", source], capture_output=True, check=False)
            said = f"the data partition grown onto the whole card ({source})"
        else:  # NOCHANGE (exit 1): the card is no larger than the image
            said = f"the data partition fills the card already ({source})"
    write(marker, said + "\n")
    return said


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boot", type=Path, default=Path("/boot/firmware"),
                        help="the FAT partition holding companion.toml")
    parser.add_argument("--root", type=Path, default=Path("/"), help="the system's root")
    parser.add_argument("--data-dir", type=Path, default=Path("/var/lib/table-companion"))
    parser.add_argument("--user", default="companion", help="the service user")
    parser.add_argument("--hotspot-script", type=Path,
                        default=Path("/opt/table-companion/src/deploy/hotspot.py"))
    args = parser.parse_args(argv)
    live = args.root == Path("/")
    if live:
        said = grow_card(args.root, args.data_dir)
        if said:
            print(said, flush=True)
    source = args.boot / SETTINGS
    if not source.exists():
        return 0
    text = source.read_text(encoding="utf-8", errors="replace")
    try:
        settings = parse(text)
    except SettingsError as exc:
        write(args.boot / ERRORS, f"Nothing was changed. {exc}\n", None)
        print(f"firstboot: nothing changed: {exc}", file=sys.stderr, flush=True)
        return 1
    if live and read_only(args.root) and not remount(False):
        write(args.boot / ERRORS, "Nothing was changed. The root file system is read-only "
              "and could not be made writable for the settings.\n", None)
        print("firstboot: nothing changed: the root stays read-only", file=sys.stderr,
              flush=True)
        return 1
    if live and os.path.ismount("/etc/machine-id"):
        # a machine id made up at a read-only boot, kept from now on
        subprocess.run(["systemd-machine-id-setup", "--commit"], capture_output=True,
                       check=False)
    done = apply(settings, args.root, args.data_dir, args.user, args.hotspot_script, live)
    header = ("# Applied by the table at boot: " + ("; ".join(done) or "nothing to change")
              + ".\n# The PIN and the Wi-Fi password were taken off this card. To change "
              "settings, save a copy as companion.toml and restart the Pi.\n")
    write(args.boot / APPLIED, header + without_secrets(text), None)
    (args.boot / ERRORS).unlink(missing_ok=True)
    source.unlink()
    os.sync()
    for line in done:
        print(f"firstboot: {line}", flush=True)
    if live and fstab_read_only(args.root) and not read_only(args.root):
        print("firstboot: the root is read-only now" if remount(True) else
              "firstboot: the root is read-only from the next start (a file is open for "
              "writing now)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
