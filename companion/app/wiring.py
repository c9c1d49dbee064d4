"""Connecting the screen to the other parts: the phone remote, the panel, the readers.

Every part is a plain import: none is optional in a build. What a machine may lack is
hardware: without GPIO the panel is not started (the keyboard stands in), and a reader
that cannot open is reported and left out; the companion runs on without them.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import web_remote
from companion import net
from companion.config import ButtonsConfig, EncoderConfig
from companion.game.api import GameSessionProtocol
from companion.game.pins import PIN_FILE, PinGuard, PinStore, PinWarning
from companion.game.table.offers import OfferStore
from companion.inputs.actions import Action, OpenMenu, Show
from companion.inputs.controller import InputController
from companion.inputs.events import Emit
from companion.inputs.pump import InputPump
from companion.inputs.registrar import Registrar
from companion.inputs.registry import TagRegistry
from companion.paths import default_config_file
from companion.speech.announcer import Announcer
from companion.speech.voice import Voice
from companion.words.catalog import LANGUAGES
from hardware.readers import Reader, open_reader
from web_remote.template_cache import warm

if TYPE_CHECKING:
    from hardware.panel import ButtonPanel

log = logging.getLogger(__name__)


def screen_language(configured: str, config_file: Path | None,
                    environ: Mapping[str, str] = os.environ) -> str:
    """The screen's language: the configuration's `[screen] language`; on a first start,
    with no configuration file at all, the system's (`system_language`), so the README's
    quick start speaks its reader's language; else "" (each edition speaks its own: a
    Pi's installed configuration never lets the system's LANG override that)."""
    if configured:
        return configured
    file = default_config_file() if config_file is None else config_file
    return "" if file.exists() else system_language(environ)


def system_language(environ: Mapping[str, str]) -> str:
    """The system's language when it is one of the seven, as gettext looks for it: the
    first of LANGUAGE's list that is one, else the first set of LC_ALL, LC_MESSAGES, LANG;
    "" for C, POSIX or another language.

    >>> system_language({"LANGUAGE": "eo:de_AT", "LANG": "sv_SE.UTF-8"})
    'de'
    >>> system_language({"LANG": "C.UTF-8"}), system_language({"LC_ALL": "ru_RU", "LANG": "en"})
    ('', 'ru')
    """
    for tag in environ.get("LANGUAGE", "").split(":"):
        if _code(tag) in LANGUAGES:
            return _code(tag)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(var):
            code = _code(environ[var])
            return code if code in LANGUAGES else ""
    return ""


def _code(tag: str) -> str:
    """The language part of a locale name ("sv_SE.UTF-8" -> "sv")."""
    return tag.strip().lower().replace("-", "_").split("_")[0].split(".")[0].split("@")[0]


def close_quietly(part: Any) -> None:
    """Call `part.close()` if it has one; errors are logged, never raised."""
    close = getattr(part, "close", None)
    if close is None:
        return
    try:
        close()
    except Exception as exc:  # shutting down must finish
        log.warning("closing %r: %s", part, exc)


class WebRemote:
    """The phone remote (web_remote.create_app) served by web_remote.serve on threads: one
    per phone's live stream, so at least 32."""

    THREADS = 32

    def __init__(self, session: GameSessionProtocol, host: str, port: int,
                 data_dir: Path, on_join: Callable[[bool], None] | None = None,
                 games: Any = None, tags: Any = None,
                 offers: OfferStore | None = None,
                 on_pin_warning: Callable[[Any], None] | None = None,
                 pin_guard: PinGuard | None = None, table_names: Sequence[str] = (),
                 table_url: str = "", pace_writes: Callable[[], None] | None = None) -> None:
        self._web_remote = web_remote
        # table_names: more names phones reach the table by (config [web] table_names),
        # besides its own; table_url: the address phones are given, if configured
        config: dict[str, Any] = {"table_url": table_url or None}
        if table_names:
            config["table_names"] = [*web_remote.table_names(), *table_names]
        # games: the banker page's saved-game list (list(), resume(id)), when switchable;
        # tags: the card registry and registration run (companion.inputs.registrar.Registrar);
        # offers: the table's one store of open offers; on_pin_warning: wrong banker PINs;
        # pin_guard: the table's one banker PIN guard, the screen's too (table_pin);
        # pace_writes: the screen's first frame before the remote's files are written
        self.app = web_remote.create_app(session, data_dir, config, hooks=web_remote.TableHooks(
            on_join=on_join, games=games, tags=tags, registration=tags,
            new_game_file=games.start_new_game_file if games is not None else None,
            offers=offers,
            on_pin_warning=on_pin_warning, pin_guard=pin_guard, pace_writes=pace_writes))
        self._host, self._port = host, port
        self.handle: Any = None
        self.url = ""
        self._table_url = table_url

    def start(self) -> None:
        """Serve in the background, every page's template loaded first (no phone's first
        page waits for its compiling: web_remote.template_cache)."""
        warm(self.app.jinja_env)
        self.handle = self._web_remote.serve(self.app, self._host, self._port,
                                             threads=self.THREADS)
        self.url = self._table_url or f"http://{net.lan_address()}:{self.handle.port}/"

    def join_link(self) -> str:
        """The one-time link phones join by (the same until a phone spends it)."""
        link: str = self._web_remote.join_url(self.app, self.url)
        return link

    def follow_address(self) -> bool:
        """The link's address as the network has it now (the table's configured URL stays):
        True when it changed. A Pi starts before its Wi-Fi is up; the link named the
        loopback, which no phone reaches, until the companion was restarted."""
        if self._table_url or self.handle is None:
            return False
        url = f"http://{net.lan_address()}:{self.handle.port}/"
        if url == self.url:
            return False
        self.url = url
        return True

    def post_warning(self, code: str, source: str, message: str, active: bool = True) -> None:
        """A table warning (companion.power) starts or ends on every phone."""
        self._web_remote.post_warning(self.app, code, source, message, active)

    def close(self) -> None:
        """End the live streams and stop serving."""
        if self.handle is not None:
            self.handle.stop()


class AddressWatch:
    """Keeps the phone remote's join link on the table's current address: looks every
    `every` s (a UDP socket's route, no packet), calls `moved` when it changed."""

    def __init__(self, remote: WebRemote, moved: Callable[[], None],
                 every: float = 5.0) -> None:
        self._remote, self._moved, self._every = remote, moved, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="address-watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            try:
                if self._remote.follow_address():
                    self._moved()
            except Exception:  # noqa: BLE001 (a watcher must outlive one bad look)
                log.exception("following the table's address")

    def close(self) -> None:
        """Stop looking."""
        self._stop.set()
        self._thread.join(timeout=5)


def start_speech(session: GameSessionProtocol, data_dir: Path) -> Announcer:
    """The table's voice: the session's announcements said by espeak-ng in a child process
    (silent without the engine or a sound device), in the table's language; on/off, volume
    and quiet hours in the data directory's speech.json (companion.speech.settings)."""
    return Announcer(session, Voice(), data_dir)


def table_pin(data_dir: Path, on_warning: Callable[[PinWarning], None]) -> PinGuard:
    """The table's one banker PIN guard (the PIN the phones set, in the data directory),
    for the phones and the screen's banker menu alike: one throttle for the whole table,
    and `on_warning` after every wrong PIN, wherever it was typed."""
    return PinGuard(PinStore(data_dir / PIN_FILE), on_warning=on_warning)


#: the device files a GPIO library drives pins through (a Raspberry Pi has them)
GPIO_DEVICES = ("/dev/gpiochip*", "/dev/gpiomem*")


def has_gpio(patterns: tuple[str, ...] = GPIO_DEVICES) -> bool:
    """Whether this machine has GPIO pins to wire a panel to."""
    return any(glob.glob(pattern) for pattern in patterns)


def start_panel(emit: Emit, buttons: ButtonsConfig, encoder: EncoderConfig) -> ButtonPanel | None:
    """The GPIO button panel wired as configured, its events to `emit` (the readers' pump's
    `emit`: the pump keeps what a tap gesture or a card registration is waiting for and
    passes the rest on to the screen). Returns the panel (close it on exit), or None
    without GPIO (the keyboard stands in for the buttons then) or when its pins cannot be
    used; the companion runs on without it. Without GPIO devices gpiozero is not even
    imported (about 2 MB and 30 modules a desktop or a server never uses).
    """
    if not has_gpio():
        return None
    from gpiozero import GPIOZeroError

    from hardware.panel import ButtonPanel, PanelConfigError

    try:
        panel = ButtonPanel(emit, buttons, encoder)
    except (PanelConfigError, GPIOZeroError, OSError) as exc:  # a pin in use, no GPIO
        log.warning("button panel unavailable: %s", exc)
        return None
    if panel.simulated:
        panel.close()
        return None
    return panel


class Readers:
    """The RFID readers feeding an input pump: taps become commands by game context.

    Reader threads only queue events; the pump asks companion.inputs.controller what a tap means in
    the current state and submits it to the session. Its notices go to `message` until
    `set_ui` hands its actions to the screen (companion.screen.views.registration, which also
    takes the panel's buttons the pump passes on). `registrar` is the card registration
    run shared by the pump, the screen and the phones (their "tags" hook). `open(specs)`
    starts more readers later.
    """

    def __init__(self, session: GameSessionProtocol, data_dir: Path, specs: list[str],
                 message: Callable[[str, str], None], rdm6300_confirm: int = 2,
                 offers: OfferStore | None = None) -> None:
        def ui(action: Action) -> None:
            if isinstance(action, Show):
                kind = {"warning": "warning", "prompt": "info"}.get(action.level, "info")
                message(action.message, kind)
            elif isinstance(action, OpenMenu):  # no face yet to open a menu on (the log's)
                log.info("a banker card was tapped before the table's face was ready")

        self.registry = TagRegistry.in_data_dir(data_dir)
        self.registrar = Registrar(self.registry, session.state)
        controller = InputController(self.registry, registrar=self.registrar,
                                     offers=offers)
        self.pump = InputPump(session, controller, ui)
        self.readers: list[Reader] = []
        self._data_dir, self._message = data_dir, message
        self._confirm = rdm6300_confirm
        self.pump.start()
        self.open(specs)

    def set_ui(self, ui: Callable[[Action], None]) -> None:
        """Where the pump's actions go from now on (Show, OpenMenu, PassOn)."""
        self.pump.ui = ui

    def open(self, specs: list[str]) -> None:
        """Start the readers named by `specs`; one that cannot open is reported, not fatal."""
        for spec in specs:
            try:
                reader = open_reader(spec, self.pump.emit, data_dir=self._data_dir,
                                     rdm6300_confirm=self._confirm)
                reader.start()
            except (OSError, ValueError) as exc:  # a bad port never stops the companion
                log.warning("reader %s unavailable: %s", spec, exc)
                # a standing warning for the faces, said in the table's language
                # (companion.words.input_texts: "warn_reader_unavailable")
                self.pump.ui(Show("reader_unavailable", f"RFID reader {spec} unavailable: {exc}",
                                  "warning", {"source": spec}))
                continue
            self.readers.append(reader)
            log.info("RFID reader %s started", spec)

    def close(self) -> None:
        """Stop the readers, then the pump."""
        for reader in self.readers:
            close_quietly(reader)
        self.pump.stop()


def reader_specs(configured: list[str], on_a_pi: bool) -> list[str]:
    """The readers to open: the configured ones; off a Pi also the simulated one, so that
    `companion tap TAG` works (a keyboard-wedge reader without a device is fed by the
    screen's keys, which the table screen uses itself, so it is left out here).

    >>> reader_specs(["keyboard"], on_a_pi=False)
    ['fake']
    >>> reader_specs(["rdm6300:/dev/serial0"], on_a_pi=True)
    ['rdm6300:/dev/serial0']
    """
    specs = [s for s in configured if s not in ("keyboard", "none")]
    if not on_a_pi and "fake" not in specs:
        specs.append("fake")
    return specs
