"""Connecting the screen to the other parts: the game session, the phone remote, the panel.

Each part is imported only when used and may be missing (a build without it, or a machine
without the hardware): the companion then runs without that part and says so.
"""

from __future__ import annotations

import importlib
import logging
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.game.api import GameSessionProtocol

log = logging.getLogger(__name__)


class PartMissing(RuntimeError):
    """A part the companion needs is not in this build."""


def open_session(data_dir: Path) -> GameSessionProtocol:
    """The durable game session of `data_dir` (resuming the saved game, if any)."""
    try:
        module: Any = importlib.import_module("companion.game.session")
    except ModuleNotFoundError as exc:
        if exc.name != "companion.game.session":
            raise
        raise PartMissing("the game session (companion.game.session) is not in this build") \
            from None
    for name in ("open_session", "GameSession"):
        factory = getattr(module, name, None)
        if factory is not None:
            session: GameSessionProtocol = factory(data_dir)
            return session
    raise PartMissing("companion.game.session has neither open_session nor GameSession")


def close_quietly(part: Any) -> None:
    """Call `part.close()` if it has one; errors are logged, never raised."""
    close = getattr(part, "close", None)
    if close is None:
        return
    try:
        close()
    except Exception as exc:  # shutting down must finish
        log.warning("closing %r: %s", part, exc)


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else 127.0.0.1."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def placeholder_url(port: int) -> str:
    """Where phones would join this machine's phone remote on `port` (the configured one):
    shown, marked as not running, when no server runs (a screenshot)."""
    return f"http://{lan_address()}:{port}/"


class WebRemote:
    """The phone remote (web_remote.create_app) served by web_remote.serve on threads: one
    per phone's live stream, so at least 32."""

    THREADS = 32

    def __init__(self, session: GameSessionProtocol, host: str, port: int,
                 data_dir: Path, on_join: Callable[[], None] | None = None,
                 games: Any = None, tags: Any = None,
                 on_trade: Callable[[Any], None] | None = None,
                 on_pin_warning: Callable[[Any], None] | None = None) -> None:
        try:
            web_remote: Any = importlib.import_module("web_remote")
        except ModuleNotFoundError:
            raise PartMissing("the phone remote (web_remote) is not in this build") from None
        self._web_remote = web_remote
        # games: the banker page's saved-game list (list(), resume(id)), when switchable;
        # tags: the card registry and registration run (companion.inputs.registrar.Registrar);
        # on_trade: a phone proposed a trade; on_pin_warning: wrong banker PINs were typed
        self.app = web_remote.create_app(session, data_dir, hooks=web_remote.TableHooks(
            on_join=on_join, games=games, tags=tags, registration=tags,
            new_game_file=games.start_new_game_file if games is not None else None,
            on_trade=on_trade, on_pin_warning=on_pin_warning))
        self._host, self._port = host, port
        self.handle: Any = None
        self.url = ""

    def start(self) -> None:
        """Serve in the background."""
        self.handle = self._web_remote.serve(self.app, self._host, self._port,
                                             threads=self.THREADS)
        self.url = f"http://{lan_address()}:{self.handle.port}/"

    def join_link(self) -> str:
        """The one-time link phones join by (the same until a phone spends it)."""
        link: str = self._web_remote.join_url(self.app, self.url)
        return link

    def close(self) -> None:
        """End the live streams and stop serving."""
        if self.handle is not None:
            self.handle.stop()


def start_panel(press: Callable[[str], None], pin_map: dict[str, int] | None = None, *,
                turn: Callable[[int], None] | None = None,
                warn: Callable[[str, str, str, bool], None] | None = None,
                events_to: Callable[[Any], None] | None = None) -> Any:
    """The GPIO button panel: presses go to `press`, encoder detents to `turn`, hardware
    warnings (a stuck or chattering button; active=False clears one) to `warn`.

    `turn` and `warn` default to the `post_encoder` / `post_warning` of the object `press`
    is a method of (the screen's Controller, whose `post_button` is passed as `press`), so
    no event of the panel is dropped. With `events_to` (the readers' pump's `emit`) every
    event goes there instead: the pump keeps what a tap gesture or a card registration is
    waiting for and passes the rest on to the screen. Returns the panel (close it on exit),
    or None without GPIO (the keyboard stands in for the buttons then, so no simulated panel
    polls in the background) or without hardware.panel.
    """
    try:
        panel_mod: Any = importlib.import_module("hardware.panel")
        events: Any = importlib.import_module("companion.inputs.events")
    except ModuleNotFoundError as exc:
        log.info("no button panel: %s", exc)
        return None
    owner = getattr(press, "__self__", None)
    turn = turn or getattr(owner, "post_encoder", None)
    warn = warn or getattr(owner, "post_warning", None)
    emit = events_to or panel_emitter(events, press, turn, warn)
    try:
        panel = panel_mod.ButtonPanel(emit=emit, pin_map=pin_map)
    except Exception as exc:  # no GPIO, a pin conflict: play with the keyboard and screen
        log.warning("button panel unavailable: %s", exc)
        return None
    if getattr(panel, "simulated", False):
        close_quietly(panel)
        return None
    start = getattr(panel, "start", None)
    if start is not None:
        start()
    return panel


def panel_emitter(events: Any, press: Callable[[str], None],
                  turn: Callable[[int], None] | None,
                  warn: Callable[[str, str, str, bool], None] | None) -> Callable[[Any], None]:
    """The panel's `emit`: each companion.inputs.events event to the screen's matching entry point.

    Buttons are pressed (a hold only for MENU), encoder detents turned, warnings shown and
    cleared; without a `turn` or `warn` those are logged, never silently lost.
    """

    def emit(event: Any) -> None:
        if isinstance(event, events.HardwareWarning):
            if warn is not None:
                warn(str(event.code), str(event.source), str(event.message), bool(event.active))
            else:
                log.warning("hardware: %s (%s)", event.message, "on" if event.active else "off")
            return
        if isinstance(event, events.EncoderEvent):
            if turn is not None:
                turn(int(event.steps))
            return
        button = getattr(event, "button", None)
        gesture = getattr(event, "gesture", None)
        if button is None:
            return
        if gesture is events.Gesture.HOLD and button is not events.Button.MENU:
            return
        press(str(button.value))

    return emit


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
                 message: Callable[[str, str], None]) -> None:
        from companion.inputs.actions import OpenMenu, Show
        from companion.inputs.controller import InputController
        from companion.inputs.pump import InputPump
        from companion.inputs.registrar import Registrar
        from companion.inputs.registry import TagRegistry

        def ui(action: Any) -> None:
            if isinstance(action, Show):
                kind = {"warning": "warning", "prompt": "info"}.get(action.level, "info")
                message(action.message, kind)
            elif isinstance(action, OpenMenu):
                message("Banker menu: use the MENU button or a phone's Banker page", "info")

        self.registry = TagRegistry.in_data_dir(data_dir)
        self.registrar = Registrar(self.registry, session.state)
        controller = InputController(self.registry, registrar=self.registrar)
        self.pump = InputPump(session, controller, ui)
        self.readers: list[Any] = []
        self._data_dir, self._message = data_dir, message
        self.pump.start()
        self.open(specs)

    def set_ui(self, ui: Callable[[Any], None]) -> None:
        """Where the pump's actions go from now on (Show, OpenMenu, PassOn)."""
        self.pump.ui = ui

    def open(self, specs: list[str]) -> None:
        """Start the readers named by `specs`; one that cannot open is reported, not fatal."""
        from hardware.readers import open_reader

        for spec in specs:
            try:
                reader = open_reader(spec, self.pump.emit, data_dir=self._data_dir)
                reader.start()
            except (OSError, ValueError) as exc:  # a bad port never stops the companion
                log.warning("reader %s unavailable: %s", spec, exc)
                self._message(f"RFID reader {spec} unavailable: {exc}", "warning")
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
