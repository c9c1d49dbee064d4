"""The companion's settings: one TOML file, loaded into a typed, frozen `Config`.

Every key is optional (a missing file means all defaults); a bad value or an unknown key
raises `ConfigError`, whose message names the file, the line and the key, so that whoever
edits `/etc/table-companion/config.toml` on a Pi with a small screen can find the mistake.
The documented example is `deploy/config.toml`.
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.paths import default_config_file, default_data_dir

BUTTON_NAMES: tuple[str, ...] = ("roll", "yes", "no", "pass_go", "undo", "menu")
"""The panel's buttons, in the order they sit on the box."""

BCM_PINS = range(0, 28)
"""GPIO numbers (BCM) on the Pi's 40-pin header."""

UART_PINS: tuple[int, int] = (14, 15)
"""TXD and RXD of the Pi's UART: taken when a reader uses /dev/serial0."""

UART_DEVICES = ("/dev/serial0", "/dev/serial1", "/dev/ttyAMA0", "/dev/ttyS0")
"""Device names that mean the header's UART (and so GPIO 14 and 15)."""


class ConfigError(ValueError):
    """A configuration file that cannot be used: names the file, line and key at fault."""

    def __init__(self, path: Path | None, line: int | None, key: str, problem: str) -> None:
        self.path = path
        self.line = line
        self.key = key
        self.problem = problem
        where = str(path) if path is not None else "<config>"
        if line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {key}: {problem}" if key else f"{where}: {problem}")


class ReaderKind(Enum):
    """The kinds of RFID reader the companion can take taps from."""

    RDM6300 = "rdm6300"
    """125 kHz EM4100 reader, serial 9600 baud, sends each tag by itself."""
    PN532 = "pn532"
    """13.56 MHz NFC reader on serial (HSU), 115200 baud, polled for tags."""
    KEYBOARD = "keyboard"
    """A USB reader that types the tag number like a keyboard (optionally its evdev device)."""
    FAKE = "fake"
    """Simulated taps (from `companion tap` or the phone): no hardware."""
    NONE = "none"
    """No reader at all (the same as an empty list)."""

    @property
    def serial(self) -> bool:
        """Whether this kind talks over a serial port (and so needs a device path)."""
        return self in (ReaderKind.RDM6300, ReaderKind.PN532)

    @property
    def baud(self) -> int | None:
        """The serial speed this kind of reader talks at, or None if not serial."""
        return {ReaderKind.RDM6300: 9600, ReaderKind.PN532: 115200}.get(self)


@dataclass(frozen=True)
class ReaderSpec:
    """One configured reader, from a spec string such as "rdm6300:/dev/serial0"."""

    kind: ReaderKind
    device: str | None = None

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.device}" if self.device else self.kind.value

    @property
    def uses_uart(self) -> bool:
        """Whether this reader is wired to the header's UART (GPIO 14/15)."""
        return self.device in UART_DEVICES


def parse_reader_spec(text: str) -> ReaderSpec:
    """Parse "kind[:device]"; raise ValueError saying what a good spec looks like.

    The grammar is hardware.readers.open_reader's: serial kinds need a device, "keyboard"
    may name its /dev/input device, "fake" and "none" take none.

    >>> parse_reader_spec("rdm6300:/dev/serial0")
    ReaderSpec(kind=<ReaderKind.RDM6300: 'rdm6300'>, device='/dev/serial0')
    >>> str(parse_reader_spec("keyboard"))
    'keyboard'
    """
    kind_text, sep, device = text.strip().partition(":")
    try:
        kind = ReaderKind(kind_text.strip().lower())
    except ValueError:
        kinds = ", ".join(k.value for k in ReaderKind)
        raise ValueError(f"unknown reader kind {kind_text!r} (use one of: {kinds})") from None
    device = device.strip()
    if kind.serial and not device:
        raise ValueError(f"{kind.value} needs a serial device, e.g. {kind.value}:/dev/serial0")
    if kind in (ReaderKind.FAKE, ReaderKind.NONE) and device:
        raise ValueError(f"{kind.value} takes no device (write just {kind.value!r})")
    if device and not device.startswith("/dev/"):
        raise ValueError(f"device {device!r} must be a path under /dev/")
    return ReaderSpec(kind, device or None)


@dataclass(frozen=True)
class ButtonsConfig:
    """The button panel: a BCM GPIO number per button, and how long a press is a hold (the
    MENU button's long press: the banker menu). The defaults leave the UART (GPIO 14, 15),
    I2C (2, 3) and SPI (7-11) pins free; buttons connect their pin to ground."""

    roll: int = 17
    yes: int = 27
    no: int = 22
    pass_go: int = 23
    undo: int = 24
    menu: int = 25
    hold_seconds: float = 1.0

    @property
    def pins(self) -> dict[str, int]:
        """Button name -> BCM pin, in panel order."""
        return {name: int(getattr(self, name)) for name in BUTTON_NAMES}


@dataclass(frozen=True)
class EncoderConfig:
    """The optional rotary encoder (menu scrolling): its two signal pins and push button
    (which acts as YES). A knob that turns the wrong way: swap `a` and `b`."""

    enabled: bool = False
    a: int = 5
    b: int = 6
    button: int = 13

    @property
    def pins(self) -> dict[str, int]:
        """Key -> BCM pin while the encoder is enabled; none when it is not."""
        return {"a": self.a, "b": self.b, "button": self.button} if self.enabled else {}


def pin_conflict(buttons: ButtonsConfig, encoder: EncoderConfig,
                 uart: bool = False) -> tuple[tuple[str, str], str] | None:
    """The first input wired where it cannot be, as ((section, key), problem), or None:
    two inputs on one pin, or an input on the UART's pins while a reader uses the UART
    (`uart`). The one pin check: the config loader and the button panel both use it.

    >>> pin_conflict(ButtonsConfig(yes=17), EncoderConfig())
    (('buttons', 'yes'), 'GPIO 17 is already used by buttons.roll')
    >>> pin_conflict(ButtonsConfig(), EncoderConfig(enabled=True, button=25))
    (('encoder', 'button'), 'GPIO 25 is already used by buttons.menu')
    >>> pin_conflict(ButtonsConfig(), EncoderConfig(button=25)) is None  # not wired
    True
    """
    used: dict[int, tuple[str, str]] = {}
    wanted = [("buttons", name, pin) for name, pin in buttons.pins.items()]
    wanted += [("encoder", key, pin) for key, pin in encoder.pins.items()]
    for section, key, pin in wanted:
        if pin in used:
            return (section, key), f"GPIO {pin} is already used by {'.'.join(used[pin])}"
        if uart and pin in UART_PINS:
            return (section, key), (f"GPIO {pin} is the UART's pin, used by the reader on "
                                    "the serial port")
        used[pin] = (section, key)
    return None


@dataclass(frozen=True)
class ReadersConfig:
    """The RFID readers to take taps from (several may be active at once)."""

    specs: tuple[ReaderSpec, ...] = (ReaderSpec(ReaderKind.KEYBOARD),)
    #: RDM6300 frames of one tag in a row before a tap counts (its checksum is 8 bits)
    rdm6300_confirm: int = 2


@dataclass(frozen=True)
class ScreenConfig:
    """What the table screen shows and how: language, fullscreen, window size."""

    language: str = ""  # "": each edition speaks its own language
    fullscreen: bool = False
    size: tuple[int, int] | None = None
    """Width and height in pixels; None means the display's own resolution."""


@dataclass(frozen=True)
class SoundConfig:
    """Sound effects: volume 0-100 and a mute switch."""

    volume: int = 80
    mute: bool = False


@dataclass(frozen=True)
class WebConfig:
    """The phone remote's web server."""

    enabled: bool = True
    host: str = "0.0.0.0"
    port: int = 8080
    #: the Pi's own Wi-Fi (deploy/install.sh --hotspot writes it); None: never shown
    hotspot_file: Path | None = Path("/etc/table-companion/hotspot.toml")
    #: more names phones reach the table by (a router's own DNS: "table.fritz.box"),
    #: besides its host name and <host>.local: the phones' requests from pages of these are
    #: taken (the Origin check), any other name is refused
    table_names: tuple[str, ...] = ()
    #: the address phones are given (the join QR codes), e.g. "http://table.fritz.box:8080/";
    #: "" gives the table's network address; taken by the Origin check too
    table_url: str = ""


@dataclass(frozen=True)
class GameConfig:
    """Where games are saved; None means $COMPANION_DATA_DIR or the XDG data directory."""

    data_dir: Path | None = None


@dataclass(frozen=True)
class Config:
    """Every setting of the companion, one frozen section per table of the TOML file."""

    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    encoder: EncoderConfig = field(default_factory=EncoderConfig)
    readers: ReadersConfig = field(default_factory=ReadersConfig)
    screen: ScreenConfig = field(default_factory=ScreenConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    web: WebConfig = field(default_factory=WebConfig)
    game: GameConfig = field(default_factory=GameConfig)
    source: Path | None = None
    """The file these settings came from (None: built-in defaults, no file)."""

    @property
    def data_dir(self) -> Path:
        """The data directory to use: the configured one, else the environment's default."""
        return self.game.data_dir if self.game.data_dir is not None else default_data_dir()


def load_config(path: Path | None = None) -> Config:
    """Load the settings from `path` (default: `default_config_file()`); missing -> defaults.

    Raises ConfigError naming the file, line and key of the first bad value or unknown key.
    """
    file = default_config_file() if path is None else path
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        raise ConfigError(file, None, "", f"cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(file, line, "", "not UTF-8 text") from None
    return parse_config(text, file)


def parse_config(text: str, source: Path | None = None) -> Config:
    """Parse the TOML text of a configuration file; `source` only names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        line = int(match.group(1)) if match else text.count("\n") + 1
        raise ConfigError(source, line, "", f"not valid TOML: {message}") from None
    return _Loader(text, source).load(data)


# --- the loader -------------------------------------------------------------------------

_SECTIONS = ("buttons", "encoder", "readers", "screen", "sound", "web", "game")
_LANGUAGE = re.compile(r"^[a-z]{2,3}([_-][A-Z]{2})?$")
_HOSTNAME = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?)+$")
_SIZE = re.compile(r"^\s*(\d{2,5})\s*[xX]\s*(\d{2,5})\s*$")


def _table_url(url: str) -> bool:
    """Whether `url` is an address phones can be given: http(s), a host, nothing after the
    path (no user, query or fragment)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a port out of range raises)
    except ValueError:
        return False
    host = parts.hostname or ""
    return parts.scheme in ("http", "https") and bool(host) and not parts.username \
        and not parts.query and not parts.fragment and not any(c.isspace() for c in url)


class _Loader:
    """Turns parsed TOML into a Config, raising ConfigError at the line of a bad key."""

    def __init__(self, text: str, source: Path | None) -> None:
        self.source = source
        self.lines = key_lines(text)

    def error(self, key: tuple[str, ...], problem: str) -> ConfigError:
        """A ConfigError for `key` (a path such as ("sound", "volume")), at its line."""
        return ConfigError(self.source, find_line(self.lines, key), ".".join(key), problem)

    def load(self, data: Mapping[str, Any]) -> Config:
        """Check each section and build the Config."""
        for name, value in data.items():
            if name not in _SECTIONS:
                known = ", ".join(f"[{s}]" for s in _SECTIONS)
                raise self.error((name,), f"unknown section or key (known sections: {known})")
            if not isinstance(value, dict):
                raise self.error((name,), f"must be a table: write [{name}] on a line of its own")
        section = _Section(self, data)
        config = Config(
            buttons=self.buttons(section("buttons")),
            encoder=self.encoder(section("encoder")),
            readers=self.readers(section("readers")),
            screen=self.screen(section("screen")),
            sound=self.sound(section("sound")),
            web=self.web(section("web")),
            game=self.game(section("game")),
            source=self.source,
        )
        self.check_pins(config)
        return config

    def buttons(self, s: _Section) -> ButtonsConfig:
        d = ButtonsConfig()
        pins = {name: s.pin(name, getattr(d, name)) for name in BUTTON_NAMES}
        hold = s.number("hold_seconds", d.hold_seconds, 0.1, 10.0)
        s.done()
        return ButtonsConfig(hold_seconds=hold, **pins)

    def encoder(self, s: _Section) -> EncoderConfig:
        d = EncoderConfig()
        result = EncoderConfig(
            enabled=s.boolean("enabled", d.enabled),
            a=s.pin("a", d.a),
            b=s.pin("b", d.b),
            button=s.pin("button", d.button),
        )
        s.done()
        return result

    def readers(self, s: _Section) -> ReadersConfig:
        raw = s.get("specs", None)
        specs = ReadersConfig().specs
        if raw is not None:
            if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
                raise s.error("specs", 'must be a list of strings, e.g. ["rdm6300:/dev/serial0"]')
            parsed = []
            for item in raw:
                try:
                    parsed.append(parse_reader_spec(item))
                except ValueError as exc:
                    raise s.error("specs", f"{item!r}: {exc}") from None
            devices = [p.device for p in parsed if p.device]
            for device in devices:
                if devices.count(device) > 1:
                    raise s.error("specs", f"{device} is listed twice: one reader per port")
            specs = tuple(parsed)
        confirm = s.integer("rdm6300_confirm", ReadersConfig.rdm6300_confirm, 1, 10)
        s.done()
        return ReadersConfig(specs=specs, rdm6300_confirm=confirm)

    def screen(self, s: _Section) -> ScreenConfig:
        d = ScreenConfig()
        language = s.string("language", d.language)
        if language and not _LANGUAGE.match(language):
            raise s.error("language", f"{language!r} is not a language code such as \"en\"")
        fullscreen = s.boolean("fullscreen", d.fullscreen)
        size_text = s.string("size", "auto")
        size: tuple[int, int] | None = None
        if size_text.strip().lower() != "auto":
            match = _SIZE.match(size_text)
            if not match:
                raise s.error("size", f'{size_text!r}: write "auto" or WIDTHxHEIGHT like "800x480"')
            size = (int(match.group(1)), int(match.group(2)))
        s.done()
        return ScreenConfig(language=language, fullscreen=fullscreen, size=size)

    def sound(self, s: _Section) -> SoundConfig:
        d = SoundConfig()
        result = SoundConfig(volume=s.integer("volume", d.volume, 0, 100),
                             mute=s.boolean("mute", d.mute))
        s.done()
        return result

    def web(self, s: _Section) -> WebConfig:
        d = WebConfig()
        enabled = s.boolean("enabled", d.enabled)
        host = s.string("host", d.host)
        try:
            ipaddress.ip_address(host)
        except ValueError:
            if not _HOSTNAME.match(host):
                problem = f"{host!r} is neither an IP address nor a host name"
                raise s.error("host", problem) from None
        port = s.integer("port", d.port, 1, 65535)
        text = s.string("hotspot_file", str(d.hotspot_file)).strip()
        hotspot_file = Path(text).expanduser() if text else None
        if hotspot_file is not None and not hotspot_file.is_absolute():
            raise s.error("hotspot_file", f"{text!r} must be an absolute path (or \"\")")
        names = s.get("table_names", [])
        if not isinstance(names, list) or not all(isinstance(n, str) and _HOSTNAME.match(n)
                                                  for n in names):
            raise s.error("table_names", 'must be a list of host names, e.g. '
                          '["table.fritz.box"], not ' + _show(names))
        url = s.string("table_url", d.table_url).strip()
        if url and not _table_url(url):
            raise s.error("table_url", f"{url!r} must be an http:// or https:// address with a "
                          "host name, e.g. \"http://table.fritz.box:8080/\" (or \"\")")
        s.done()
        return WebConfig(enabled=enabled, host=host, port=port, hotspot_file=hotspot_file,
                         table_names=tuple(n.lower().rstrip(".") for n in names),
                         table_url=url)

    def game(self, s: _Section) -> GameConfig:
        text = s.string("data_dir", "")
        data_dir: Path | None = None
        if text.strip():
            data_dir = Path(text.strip()).expanduser()
            if not data_dir.is_absolute():
                raise s.error("data_dir", f"{text!r} must be an absolute path (or \"\")")
        s.done()
        return GameConfig(data_dir=data_dir)

    def check_pins(self, config: Config) -> None:
        """No two inputs on one pin, and nothing on the UART's pins if a reader uses it."""
        uart = any(spec.uses_uart for spec in config.readers.specs)
        conflict = pin_conflict(config.buttons, config.encoder, uart)
        if conflict is not None:
            raise self.error(*conflict)


class _Section:
    """One table of the file: typed getters that remember which keys were read."""

    def __init__(self, loader: _Loader, data: Mapping[str, Any], name: str = "") -> None:
        self.loader = loader
        self.data: Mapping[str, Any] = data.get(name, {}) if name else data
        self.name = name
        self.seen: set[str] = set()

    def __call__(self, name: str) -> _Section:
        return _Section(self.loader, self.data, name)

    def error(self, key: str, problem: str) -> ConfigError:
        return self.loader.error((self.name, key), problem)

    def get(self, key: str, default: Any) -> Any:
        self.seen.add(key)
        return self.data.get(key, default)

    def typed(self, key: str, default: Any, check: Callable[[Any], bool], what: str) -> Any:
        value = self.get(key, default)
        if not check(value):
            raise self.error(key, f"must be {what}, not {_show(value)}")
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value: bool = self.typed(key, default, lambda v: isinstance(v, bool), "true or false")
        return value

    def string(self, key: str, default: str) -> str:
        value: str = self.typed(key, default, lambda v: isinstance(v, str), "a quoted string")
        return value

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        what = f"a whole number from {low} to {high}"
        value: int = self.typed(key, default, lambda v: _is_int(v) and low <= v <= high, what)
        return value

    def number(self, key: str, default: float, low: float, high: float) -> float:
        def ok(v: Any) -> bool:
            return (_is_int(v) or isinstance(v, float)) and bool(low <= v <= high)

        return float(self.typed(key, default, ok, f"a number from {low:g} to {high:g}"))

    def pin(self, key: str, default: int) -> int:
        what = f"a BCM GPIO number from {BCM_PINS.start} to {BCM_PINS.stop - 1}"
        value: int = self.typed(key, default, lambda v: _is_int(v) and v in BCM_PINS, what)
        return value

    def done(self) -> None:
        """Reject any key nobody asked for: most likely a typo."""
        for key in self.data:
            if key not in self.seen:
                known = ", ".join(sorted(self.seen))
                raise self.error(key, f"unknown key (known keys in [{self.name}]: {known})")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: object) -> str:
    """A value as TOML would spell it, for error messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


# --- finding a key's line ---------------------------------------------------------------

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Map each key path in TOML `text` (("sound", "volume")) to the line defining it.

    tomllib reports no positions for values, so this scans the text itself: table headers
    and `key =` at the start of a line, skipping multi-line strings, arrays and comments.

    >>> key_lines('[sound]\\nvolume = 5 # loud\\n\\n[web]\\n"port" = 1')[("web", "port")]
    5
    """
    result: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    depth = 0
    multiline: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        start = 0
        if multiline is None and depth == 0:
            stripped = line.lstrip()
            offset = len(line) - len(stripped)
            if stripped.startswith("["):
                close = "]]" if stripped.startswith("[[") else "]"
                parsed = _parse_key(stripped, len(close))
                if parsed is not None and stripped.startswith(close, parsed[1]):
                    table = parsed[0]
                    result.setdefault(table, number)
                continue
            parsed = _parse_key(stripped, 0)
            if parsed is not None and stripped.startswith("=", parsed[1]):
                result.setdefault(table + parsed[0], number)
                start = offset + parsed[1] + 1
            else:
                continue
        multiline, depth = _scan_value(line, start, multiline, depth)
    return result


def find_line(lines: Mapping[tuple[str, ...], int], key: tuple[str, ...]) -> int | None:
    """The line for `key`: its own, else the nearest enclosing table's, else its first child's."""
    for n in range(len(key), 0, -1):
        if key[:n] in lines:
            return lines[key[:n]]
    below = [line for path, line in lines.items() if path[: len(key)] == key]
    return min(below) if below else None


def _parse_key(text: str, i: int) -> tuple[tuple[str, ...], int] | None:
    """Parse a (dotted, maybe quoted) key at text[i:]; return its parts and the next index."""
    parts: list[str] = []
    n = len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            return None
        if text[i] in "\"'":
            end = _string_end(text, i)
            if end is None:
                return None
            token = text[i:end]
            try:
                parts.append(str(tomllib.loads(f"k = {token}")["k"]))
            except tomllib.TOMLDecodeError:
                return None
            i = end
        else:
            match = _BARE_KEY.match(text, i)
            if match is None:
                return None
            parts.append(match.group())
            i = match.end()
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] == ".":
            i += 1
            continue
        return tuple(parts), i


def _string_end(text: str, i: int) -> int | None:
    """The index just past the one-line string starting at text[i], or None if unclosed."""
    quote = text[i]
    j = i + 1
    while j < len(text):
        if quote == '"' and text[j] == "\\":
            j += 2
            continue
        if text[j] == quote:
            return j + 1
        j += 1
    return None


def _scan_value(line: str, i: int, multiline: str | None, depth: int) -> tuple[str | None, int]:
    """Follow a value through `line` from i: returns (open multi-line quote, bracket depth)."""
    n = len(line)
    while i < n:
        if multiline is not None:
            end = _multiline_end(line, i, multiline)
            if end is None:
                return multiline, depth
            i, multiline = end, None
            continue
        c = line[i]
        if c == "#":
            break
        if line.startswith('"""', i) or line.startswith("'''", i):
            multiline = line[i : i + 3]
            i += 3
            continue
        if c in "\"'":
            end = _string_end(line, i)
            i = end if end is not None else n
            continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return multiline, depth


def _multiline_end(line: str, i: int, quote: str) -> int | None:
    """The index past the closing `quote` of a multi-line string in line[i:], if any."""
    while True:
        j = line.find(quote, i)
        if j < 0:
            return None
        backslashes = 0
        while quote == '"""' and j - backslashes - 1 >= i and line[j - backslashes - 1] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            end = j + 3
            while end < len(line) and line[end] == quote[0]:  # up to two quotes may precede
                end += 1
            return end
        i = j + 1

