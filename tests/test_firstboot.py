"""The card image's first-boot settings (deploy/firstboot.py) on this machine, in a
directory standing for the card's root and its FAT partition: every setting applied as the
companion then reads it, the secrets taken off the FAT partition, and a mistake changing
nothing. The same script on a booted card: tests/test_image_boot.py."""

from __future__ import annotations

import grp
import importlib.util
import os
import pwd
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from companion.game.pins import PIN_FILE, PinStore
from companion.words.table_language import TableLanguage

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "deploy" / "firstboot.py"
USER = pwd.getpwuid(os.getuid()).pw_name
GROUP = grp.getgrgid(os.getgid()).gr_name


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("firstboot", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["firstboot"] = module
    spec.loader.exec_module(module)
    return module


firstboot = load()

SETTINGS = """[table]
name = "kitchen"
language = "sv"
banker_pin = "97531"

[wifi]
ssid = "Home Net"
password = "s3cret passphrase"
country = "SE"
hotspot = true
"""


@pytest.fixture
def card(tmp_path: Path) -> dict[str, Path]:
    root, boot, data = tmp_path / "root", tmp_path / "boot", tmp_path / "data"
    (root / "etc").mkdir(parents=True)
    (root / "etc/hostname").write_text("table\n")
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\ttable\n")
    boot.mkdir()
    return {"root": root, "boot": boot, "data": data}


def run(card: dict[str, Path]) -> int:
    return int(firstboot.main([
        "--boot", str(card["boot"]), "--root", str(card["root"]), "--data-dir",
        str(card["data"]), "--user", USER, "--hotspot-script", str(REPO / "deploy/hotspot.py")]))


def everything(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_every_setting_is_applied_as_the_companion_reads_it(card: dict[str, Path]) -> None:
    (card["boot"] / "companion.toml").write_text(SETTINGS)
    if GROUP != USER:  # hotspot.py gives its file to the group named as the user
        pytest.skip(f"the user {USER} has no group of its own name")
    assert run(card) == 0
    root = card["root"]
    assert (root / "etc/hostname").read_text() == "kitchen\n"
    assert "127.0.1.1\tkitchen" in (root / "etc/hosts").read_text()
    assert "table" not in (root / "etc/hosts").read_text()
    profile = root / firstboot.WIFI_PROFILE
    assert profile.stat().st_mode & 0o777 == 0o600
    text = profile.read_text()
    assert "ssid=Home Net" in text and "psk=s3cret passphrase" in text
    assert "ieee80211_regdom=SE" in (root / firstboot.REGDOM).read_text()
    hotspot = tomllib.loads((root / firstboot.HOTSPOT_INFO).read_text())
    assert len(hotspot["passphrase"]) >= 8
    assert (root / firstboot.HOTSPOT_PROFILE).exists()
    store = PinStore(card["data"] / PIN_FILE)
    assert store.is_set and not store.damaged
    assert (card["data"] / PIN_FILE).stat().st_mode & 0o777 == 0o600
    assert TableLanguage(card["data"]).chosen == "sv"
    # the secrets are off the FAT partition; what was asked stays readable there
    assert not (card["boot"] / "companion.toml").exists()
    applied = (card["boot"] / "companion-applied.toml").read_text()
    assert "97531" not in applied and "s3cret" not in applied
    assert tomllib.loads(applied)["table"]["name"] == "kitchen"
    assert "Wi-Fi 'Home Net'" in applied and "the banker PIN" in applied


def test_a_second_run_keeps_the_hotspot_passphrase_and_changes_only_what_it_says(
        card: dict[str, Path]) -> None:
    if GROUP != USER:
        pytest.skip(f"the user {USER} has no group of its own name")
    (card["boot"] / "companion.toml").write_text(SETTINGS)
    assert run(card) == 0
    passphrase = tomllib.loads((card["root"] / firstboot.HOTSPOT_INFO).read_text())
    (card["boot"] / "companion.toml").write_text('[table]\nlanguage = "pl"\n')
    assert run(card) == 0
    assert TableLanguage(card["data"]).chosen == "pl"
    assert (card["root"] / "etc/hostname").read_text() == "kitchen\n"
    assert tomllib.loads((card["root"] / firstboot.HOTSPOT_INFO).read_text()) == passphrase
    (card["boot"] / "companion.toml").write_text("[wifi]\nhotspot = false\n")
    assert run(card) == 0
    assert not (card["root"] / firstboot.HOTSPOT_PROFILE).exists()


@pytest.mark.parametrize(("text", "said"), [
    ('[table]\nbanker_pin = "12a4"\n', "companion.toml:2: banker_pin: must be 4 to 12 digits"),
    ('[table]\nname = "Kitchen Table"\n', "companion.toml:2: name: must be 1 to 63"),
    ('[table]\nlanguage = "xx"\n', "companion.toml:2: language: must be one of"),
    ('[wifi]\npassword = "short"\n', "companion.toml:2: password: must be 8 to 63"),
    ('[wifi]\ncountry = "se"\n', "companion.toml:2: country: must be two capital"),
    ('[wifi]\nhotspot = "yes"\n', "companion.toml:2: wifi.hotspot: must be true or false"),
    ('[system]\nread_only = 1\n', "companion.toml:2: system.read_only: must be true or false"),
    ('[table]\npin = "1234"\n', "companion.toml:2: table.pin: unknown key"),
    ('[tabel]\nname = "x"\n', "unknown section [tabel]"),
    ('[table\nname = "x"\n', "companion.toml: not a TOML file"),
])
def test_a_mistake_changes_nothing_and_says_where(card: dict[str, Path], text: str,
                                                  said: str) -> None:
    (card["boot"] / "companion.toml").write_text(text)
    before = everything(card["root"])
    assert run(card) == 1
    assert everything(card["root"]) == before
    assert not card["data"].exists()
    error = (card["boot"] / "companion-error.txt").read_text()
    assert error.startswith("Nothing was changed. ") and said in error, error
    assert (card["boot"] / "companion.toml").exists()  # kept, to be corrected
    # corrected: the error note goes, the settings apply
    (card["boot"] / "companion.toml").write_text('[table]\nname = "den"\n')
    assert run(card) == 0
    assert not (card["boot"] / "companion-error.txt").exists()
    assert (card["root"] / "etc/hostname").read_text() == "den\n"


def test_no_settings_file_changes_nothing(card: dict[str, Path]) -> None:
    before = everything(card["root"])
    assert run(card) == 0
    assert everything(card["root"]) == before
    assert list(card["boot"].iterdir()) == []


def test_the_cards_own_settings_file_is_valid_and_changes_only_the_defaults() -> None:
    """deploy/companion.toml, as the image carries it, parses and says the defaults."""
    settings = firstboot.parse((REPO / "deploy/companion.toml").read_text())
    assert settings.name == "table" and settings.banker_pin == "" and settings.hotspot is True
    assert settings.read_only is False  # the card's root stays writable unless asked
    assert {key for keys in firstboot.KEYS.values() for key in keys} == {
        key for key, _v in vars(settings).items()}


#: the card image's /etc/fstab (deploy/build-image.sh's seal_root)
IMAGE_FSTAB = """# <file system>  <mount point>  <type>  <options>  <dump> <pass>
LABEL=RASPIROOT   /               ext4    rw,noatime,errors=remount-ro    0      1
# The FAT partition: only root may read it (umask).
LABEL=RASPIFIRM   /boot/firmware  vfat    rw,umask=0077,noatime           0      2
LABEL=TABLEDATA   /var            ext4    rw,noatime                      0      2
tmpfs               /tmp            tmpfs   mode=1777,nosuid,nodev,size=25%,nr_inodes=1m 0 0
"""


def test_read_only_turns_the_roots_line_of_fstab_ro_and_back(card: dict[str, Path]) -> None:
    """read_only = true: the root's mount options say ro, nothing else in fstab changes
    (the data partition stays writable); false: rw again; the applied file says which."""
    fstab = card["root"] / "etc/fstab"
    fstab.write_text(IMAGE_FSTAB)
    assert firstboot.fstab_read_only(card["root"]) is False
    (card["boot"] / "companion.toml").write_text("[system]\nread_only = true\n")
    assert run(card) == 0
    assert fstab.read_text() == IMAGE_FSTAB.replace(
        "rw,noatime,errors=remount-ro", "ro,noatime,errors=remount-ro")
    assert firstboot.fstab_read_only(card["root"]) is True
    assert "the root read-only" in (card["boot"] / "companion-applied.toml").read_text()
    (card["boot"] / "companion.toml").write_text("[system]\nread_only = true\n")
    assert run(card) == 0  # again: the same file
    assert fstab.read_text().count("ro,noatime,errors=remount-ro") == 1
    (card["boot"] / "companion.toml").write_text("[system]\nread_only = false\n")
    assert run(card) == 0
    assert fstab.read_text() == IMAGE_FSTAB
    assert "the root writable" in (card["boot"] / "companion-applied.toml").read_text()


@pytest.mark.parametrize(("line", "wanted"), [
    ("/dev/sda2\t/\text4\tdefaults\t0 1\n", "/dev/sda2\t/\text4\tro\t0 1\n"),
    ("UUID=x / ext4 noatime,rw 0 1\n", "UUID=x / ext4 ro,noatime 0 1\n"),
])
def test_read_only_keeps_the_other_options_and_the_spacing(tmp_path: Path, line: str,
                                                           wanted: str) -> None:
    assert firstboot.fstab_read_only(tmp_path) is None  # no fstab at all
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/fstab").write_text("# / is the root\n" + line)
    assert firstboot.set_read_only(tmp_path, True)
    assert (tmp_path / "etc/fstab").read_text() == "# / is the root\n" + wanted


def test_an_fstab_without_the_root_is_left_alone(card: dict[str, Path]) -> None:
    fstab = card["root"] / "etc/fstab"
    fstab.write_text("# UNCONFIGURED FSTAB FOR BASE SYSTEM\n")
    (card["boot"] / "companion.toml").write_text("[system]\nread_only = true\n")
    assert run(card) == 0
    assert fstab.read_text() == "# UNCONFIGURED FSTAB FOR BASE SYSTEM\n"
    assert "/etc/fstab has no line for /" in (card["boot"] / "companion-applied.toml").read_text()


@pytest.mark.parametrize("text", [
    "banker_pin = '1234'  # mine\npassword = \"a \\\" b\"\nname = \"x\"\n",
    '[table]\nname = "x"\nbanker_pin = "1234"\n[wifi]\npassword = """a\nb"""\n',
    "[wifi]\n  password='a b c d e f'\n[table]\nbanker_pin=\"1234\"\nname = \"x\"\n",
])
def test_secrets_are_emptied_whatever_the_quotes(text: str) -> None:
    out = firstboot.without_secrets(text)
    for secret in ("1234", "a \\", "a b", 'b"""'):
        assert secret not in out, out
    data = tomllib.loads(out)
    assert data.get("name", data.get("table", {}).get("name")) == "x"
    assert data.get("banker_pin", data.get("table", {}).get("banker_pin")) == ""
