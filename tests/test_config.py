"""The configuration loader against good and bad files: values, defaults, error lines."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from companion.config import (
    BUTTON_NAMES,
    Config,
    ConfigError,
    ReaderKind,
    ReaderSpec,
    key_lines,
    load_config,
    parse_config,
    parse_reader_spec,
)

EXAMPLE = Path(__file__).resolve().parent.parent / "deploy" / "config.toml"


def write(tmp_path: Path, text: str) -> Path:
    """Write a config file and return its path."""
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path / "nope.toml")
    assert config == Config()
    assert config.buttons.pins == {
        "roll": 17, "yes": 27, "no": 22, "pass_go": 23, "undo": 24, "menu": 25,
    }
    assert config.web.port == 8080
    assert config.source is None


def test_default_path_comes_from_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "[web]\nport = 9000\n")
    monkeypatch.setenv("COMPANION_CONFIG", str(path))
    config = load_config(None)
    assert config.web.port == 9000
    assert config.source == path


def test_full_file_is_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[buttons]
roll = 4
hold_seconds = 2
[encoder]
enabled = true
a = 7
[readers]
specs = ["rdm6300:/dev/serial0", "pn532:/dev/ttyUSB0", "fake"]
[screen]
language = "de"
fullscreen = true
size = "800x480"
[sound]
volume = 0
mute = true
[web]
enabled = false
host = "127.0.0.1"
port = 65535
[game]
data_dir = "/srv/games"
""",
    )
    config = load_config(path)
    assert config.buttons.roll == 4
    assert config.buttons.yes == 27
    assert config.buttons.hold_seconds == 2.0
    assert isinstance(config.buttons.hold_seconds, float)
    assert (config.encoder.enabled, config.encoder.a, config.encoder.b) == (True, 7, 6)
    assert config.readers.specs == (
        ReaderSpec(ReaderKind.RDM6300, "/dev/serial0"),
        ReaderSpec(ReaderKind.PN532, "/dev/ttyUSB0"),
        ReaderSpec(ReaderKind.FAKE),
    )
    assert config.screen.size == (800, 480)
    assert config.screen.language == "de"
    assert (config.sound.volume, config.sound.mute) == (0, True)
    assert (config.web.enabled, config.web.host, config.web.port) == (False, "127.0.0.1", 65535)
    assert config.data_dir == Path("/srv/games")


def test_config_is_frozen() -> None:
    config = Config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.web.port = 1  # type: ignore[misc]


def test_data_dir_falls_back_to_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", "/var/lib/table-companion")
    assert parse_config('[game]\ndata_dir = ""\n').data_dir == Path("/var/lib/table-companion")


def test_example_file_loads_and_documents_every_key() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    config = load_config(EXAMPLE)
    assert config.screen.fullscreen is True
    documented = {path for path in key_lines(text) if len(path) == 2}
    expected = {("readers", "specs"), ("readers", "rdm6300_confirm"), ("screen", "size"),
                ("game", "data_dir")}
    for section in ("buttons", "encoder", "screen", "sound", "web"):
        for f in dataclasses.fields(getattr(config, section)):
            expected.add((section, f.name))
    assert documented == expected
    lines = text.splitlines()
    for path, number in key_lines(text).items():
        if len(path) == 2:  # a comment on the key's line or just above it
            assert "#" in lines[number - 1] or lines[number - 2].startswith("#"), path


def test_example_defaults_match_code_defaults() -> None:
    """The example shows the real defaults (except fullscreen, which the Pi wants)."""
    config = load_config(EXAMPLE)
    assert dataclasses.replace(config.screen, fullscreen=False) == Config().screen
    assert config.buttons == Config().buttons
    assert (config.encoder, config.sound, config.web) == (
        Config().encoder, Config().sound, Config().web,
    )
    assert config.readers == Config().readers
    assert config.game == Config().game


BAD = [
    # (file text, line, key, words in the problem)
    ("[sound]\nvolume = 150\n", 2, "sound.volume", "0 to 100"),
    ("[sound]\nvolume = true\n", 2, "sound.volume", "not true"),
    ("[sound]\nvolume = 50\nmute = \"yes\"\n", 3, "sound.mute", "true or false"),
    ("[web]\n\n# the port\nport = 0\n", 4, "web.port", "1 to 65535"),
    ("[web]\nport = \"8080\"\n", 2, "web.port", "whole number"),
    ("[web]\nhost = \"not a host!\"\n", 2, "web.host", "neither an IP"),
    ("[buttons]\nroll = 40\n", 2, "buttons.roll", "BCM GPIO number"),
    ("[buttons]\nroll = 17\nyes = 17\n", 3, "buttons.yes", "already used by buttons.roll"),
    ("[buttons]\nhold_seconds = 0\n", 2, "buttons.hold_seconds", "0.1 to 10"),
    ("[buttons]\nrol = 4\n", 2, "buttons.rol", "unknown key"),
    ("[encoder]\nenabled = true\nbutton = 25\n", 3, "encoder.button", "buttons.menu"),
    ("[encoder]\nbutton = 25\n", None, "", ""),  # disabled encoder: no clash
    ("[readers]\nspecs = [\"rdm6300\"]\n", 2, "readers.specs", "needs a serial device"),
    ("[readers]\nspecs = [\n  \"fake\",\n  \"nfc:/dev/x\",\n]\n", 2, "readers.specs", "nfc"),
    ("[readers]\nspecs = \"fake\"\n", 2, "readers.specs", "list of strings"),
    ("[readers]\nspecs = [\"pn532:ttyUSB0\"]\n", 2, "readers.specs", "under /dev/"),
    ("[readers]\nspecs = [\"keyboard:event3\"]\n", 2, "readers.specs", "under /dev/"),
    ("[readers]\nspecs = [\"fake:/dev/x\"]\n", 2, "readers.specs", "takes no device"),
    ("[readers]\nspecs = [\"\"]\n", 2, "readers.specs", "unknown reader kind"),
    ("[readers]\nspecs = [\"pn532:/dev/ttyUSB0\", \"rdm6300:/dev/ttyUSB0\"]\n", 2,
     "readers.specs", "twice"),
    ("[readers]\nspecs = [\"rdm6300:/dev/serial0\"]\n[buttons]\nroll = 15\n", 4,
     "buttons.roll", "UART"),
    ("[screen]\nlanguage = \"English\"\n", 2, "screen.language", "language code"),
    ("[screen]\nsize = \"big\"\n", 2, "screen.size", "WIDTHxHEIGHT"),
    ("[game]\ndata_dir = \"games\"\n", 2, "game.data_dir", "absolute"),
    ("[sounds]\nvolume = 1\n", 1, "sounds", "unknown section"),
    ("title = \"x\"\n", 1, "title", "unknown section"),
    ("web = 8080\n", 1, "web", "must be a table"),
    ("[sound]\n\"volume\" = -1\n", 2, "sound.volume", "0 to 100"),
    ("sound.volume = 101\n", 1, "sound.volume", "0 to 100"),
    ("[web]\nport = 1\n[sound]\nmute = 1\n", 4, "sound.mute", "true or false"),
    ("sound = { mute = false, volume = 900 }\n", 1, "sound.volume", "0 to 100"),
    ("[web]\nhost = \"\"\"\n[sound]\nvolume = 3\n\"\"\"\n[sound]\nvolume = 300\n", 7,
     "sound.volume", "0 to 100"),
    ("[web]\nhost = 'x'  # [sound]\n[sound]\nmute = 0\n", 4, "sound.mute", "true or false"),
]


@pytest.mark.parametrize(("text", "line", "key", "words"), BAD)
def test_bad_values_name_file_line_and_key(
    tmp_path: Path, text: str, line: int | None, key: str, words: str
) -> None:
    path = write(tmp_path, text)
    if line is None:
        load_config(path)
        return
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    error = caught.value
    assert (error.path, error.line, error.key) == (path, line, key)
    assert str(error).startswith(f"{path}:{line}: {key}: ")
    assert words in error.problem


@pytest.mark.parametrize(
    ("text", "line"),
    [("[sound\nvolume = 1\n", 1), ("[sound]\nvolume = \n", 2), ("[web]\nport = 1\nport = 2\n", 3)],
)
def test_toml_syntax_errors_name_the_line(tmp_path: Path, text: str, line: int) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{path}:{line}: not valid TOML")


def test_non_utf8_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"[sound]\nvolume = 1 # \xff\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.line == 2
    assert "UTF-8" in str(caught.value)


def test_unreadable_path_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path)  # a directory
    assert str(tmp_path) in str(caught.value)


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


def test_every_example_key_line_is_found() -> None:
    """The key scanner agrees with tomllib about which keys the example defines."""
    text = EXAMPLE.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    parsed = {(s, k) for s, table in data.items() for k in table}
    assert {p for p in key_lines(text) if len(p) == 2} == parsed
    for path, number in key_lines(text).items():
        line = text.splitlines()[number - 1]
        assert line.startswith(f"[{path[0]}]" if len(path) == 1 else path[1]), path


@pytest.mark.parametrize(
    ("text", "kind", "device"),
    [
        ("rdm6300:/dev/serial0", ReaderKind.RDM6300, "/dev/serial0"),
        (" PN532 : /dev/serial/by-id/usb-x ", ReaderKind.PN532, "/dev/serial/by-id/usb-x"),
        ("keyboard", ReaderKind.KEYBOARD, None),
        ("keyboard:/dev/input/event3", ReaderKind.KEYBOARD, "/dev/input/event3"),
        ("fake:", ReaderKind.FAKE, None),
        ("none", ReaderKind.NONE, None),
    ],
)
def test_reader_specs(text: str, kind: ReaderKind, device: str | None) -> None:
    spec = parse_reader_spec(text)
    assert (spec.kind, spec.device) == (kind, device)
    assert parse_reader_spec(str(spec)) == spec


def test_reader_specs_agree_with_the_hardware_package() -> None:
    """Every spec the config accepts is one hardware.readers.parse_spec accepts alike."""
    from hardware.readers import parse_spec

    for text in ["rdm6300:/dev/serial0", "pn532:/dev/ttyUSB0", "keyboard",
                 "keyboard:/dev/input/event3", "fake", "none"]:
        spec = parse_reader_spec(text)
        assert parse_spec(str(spec)) == (spec.kind.value, spec.device)


def test_uart_readers_are_known() -> None:
    assert parse_reader_spec("rdm6300:/dev/serial0").uses_uart
    assert not parse_reader_spec("rdm6300:/dev/ttyUSB0").uses_uart
    assert ReaderKind.RDM6300.baud == 9600 and ReaderKind.KEYBOARD.baud is None


def test_button_names_are_the_panel() -> None:
    assert BUTTON_NAMES == ("roll", "yes", "no", "pass_go", "undo", "menu")
    assert list(Config().buttons.pins) == list(BUTTON_NAMES)


def test_screen_language_defaults_to_the_editions_own() -> None:
    assert parse_config("", "test").screen.language == ""
    assert parse_config('[screen]\nlanguage = ""\n', "test").screen.language == ""
    assert parse_config('[screen]\nlanguage = "sv"\n', "test").screen.language == "sv"
