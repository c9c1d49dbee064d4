"""`companion run`: the game session, the screen, the inputs and the phone remote, one process.

On a Pi console the screen is drawn fullscreen through KMS/DRM; on a desktop in a window;
with no display (or --headless) the companion runs without a screen and prints where the
phone remote is. It resumes the saved game of the data directory, or shows the setup.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.app import debug, hotspot, systemd
from companion.app.terminal_qr import qr_for_terminal
from companion.config import Config, ConfigError, load_config, parse_reader_spec
from companion.power import watch_power

if TYPE_CHECKING:
    from companion.app.row_check import RowCheck

log = logging.getLogger("companion.run")


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(prog="companion run", description=__doc__.splitlines()[0])
    parser.add_argument("--headless", action="store_true", help="run without a screen")
    parser.add_argument("--port", type=int, help="the phone remote's port (default: config)")
    parser.add_argument("--data-dir", type=Path, help="where games are saved")
    parser.add_argument("--config", type=Path, help="the configuration file")
    parser.add_argument("--size", help="window size WIDTHxHEIGHT (default: config or 800x480)")
    parser.add_argument("--fullscreen", action="store_true", help="fullscreen on a desktop too")
    parser.add_argument("--reader", action="append", metavar="SPEC",
                        help="an RFID reader, e.g. rdm6300:/dev/serial0, pn532:/dev/ttyUSB0, "
                        "keyboard, fake (repeat for several; replaces the configured ones)")
    return parser.parse_args(argv)


def parse_size(text: str | None) -> tuple[int, int] | None:
    """'800x480' -> (800, 480).

    >>> parse_size("1920x1080")
    (1920, 1080)
    """
    if not text:
        return None
    width, _, height = text.lower().partition("x")
    return int(width), int(height)


class StopDuringStart(Exception):  # noqa: N818 - a request, not a failure
    """SIGTERM or SIGINT arrived while the companion was still starting."""


#: the stop signal that arrived while starting (honoured at the next safe step), or 0
_stop_asked = 0


def _stop_during_start(signum: int, _frame: object) -> None:
    global _stop_asked
    _stop_asked = signum


def stop_if_asked() -> None:
    """Between two steps of the start: end it here if SIGTERM / SIGINT came meanwhile (a
    signal never interrupts a step halfway, which could leave a part half open)."""
    if _stop_asked:
        raise StopDuringStart(_stop_asked)


def main(argv: list[str]) -> int:
    """Start everything; returns when the window is closed or the process is told to stop.

    SIGTERM and SIGINT are honoured from the first instant: until the loop runs they end the
    start-up (everything opened so far is closed); SDL is told not to install handlers of
    its own, which swallowed them.
    """
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, _stop_during_start)
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
    try:
        code = _main(argv)
    except StopDuringStart as stop:
        print(f"companion run: stopped ({signal.Signals(stop.args[0]).name}) while starting",
              file=sys.stderr)
        code = 128 + int(stop.args[0])
    except BaseException:
        if not (_display_lost or _screen_opened):
            raise
        import traceback  # said, then gone: SDL's exit handlers would hang on a dead display

        traceback.print_exc()
        code = 1
    if _display_lost:
        leave_after_display_loss(code)
    if _screen_opened:
        close_screen(code)
    return code


#: the display went away while this process ran (SDL must not be shut down on it)
_display_lost = False
#: a screen was opened (SDL's display is shut down by close_screen, not at the exit)
_screen_opened = False
#: what run_headless returns when the display came back: start again, with the screen
COME_BACK = -1
#: how often a table whose display went away looks whether it is back (seconds, on a
#: thread of its own: companion.screen.wakeups.DisplayReturn)
COME_BACK_CHECK_S = 2.0


def leave_after_display_loss(code: int) -> None:
    """End a process whose X server went away while it ran, its own parts already closed:
    SDL's shutdown on the dead connection would wait forever for an X event or end the
    process with exit(1) (companion.screen.wakeups.DisplayLoss), so the interpreter is left
    with os._exit, or, when the display came back (`code` COME_BACK), replaced by the same
    command line started again, which opens the screen (the phones' pages reconnect).
    Also the way out when the X server is found gone only as the screen closes
    (close_screen)."""
    sys.stdout.flush()
    sys.stderr.flush()
    logging.shutdown()
    if code == COME_BACK:
        from companion.screen.app import drop_our_hints

        drop_our_hints()  # the new process chooses its drawing as a fresh start does
        os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
    os._exit(code)


def close_screen(code: int) -> None:
    """Shut the screen's display down, the run's own parts closed (the game's journal among
    them), before the interpreter's exit would: an X server that went away at the same
    moment as the stop (a shutdown stopping both) is then found here, and the process
    leaves with `code` as leave_after_display_loss does, instead of waiting forever inside
    SDL's shutdown (companion.screen.app.close_display)."""
    from companion.screen.app import close_display

    close_display(lambda: leave_after_display_loss(code))


def _main(argv: list[str]) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=os.environ.get("COMPANION_LOG", "INFO"),
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
        readers_wanted = [str(parse_reader_spec(s)) for s in args.reader] if args.reader \
            else [str(s) for s in config.readers.specs]
    except ConfigError as exc:
        print(f"companion run: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"companion run: --reader: {exc}", file=sys.stderr)
        return 2
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    data_dir = args.data_dir or config.data_dir
    from companion.app.row_check import RowCheck, start_problem

    # no acknowledged move nor banker PIN lost silently; and a port that exists (99999 was
    # served on 34463 without a word)
    problem = f"--port {args.port}: a port is 1 to 65535" if args.port is not None and \
        not 1 <= args.port <= 65535 else start_problem(data_dir)
    if problem is not None:
        print(f"companion run: {problem}", file=sys.stderr)
        return 2

    rows = RowCheck(data_dir)  # the journal's rows checked in a child while this imports
    try:
        return _start(args, config, readers_wanted, data_dir, rows)
    finally:
        rows.close()


def _start(args: argparse.Namespace, config: Config, readers_wanted: list[str],
           data_dir: Path, rows: RowCheck) -> int:
    """Everything after the settings: the parts, each closed again when the start ends."""
    from companion.app.wiring import (
        AddressWatch,
        Readers,
        WebRemote,
        close_quietly,
        reader_specs,
        screen_language,
        start_panel,
        start_speech,
        table_pin,
    )
    from companion.game.journal import JournalError
    from companion.game.session import GameSession
    from companion.game.switch import SessionHolder
    from companion.screen.audio import SoundPlayer
    from companion.screen.views import settings as screen_settings

    stop_if_asked()
    data_dir.mkdir(parents=True, exist_ok=True)
    try:  # the banker may switch saved games
        session = SessionHolder(data_dir, GameSession.open(data_dir, rows.game_id,
                                                           checked=rows.checked))
    except JournalError as exc:  # locked by another companion, or unreadable
        print(f"companion run: {exc}", file=sys.stderr)
        return 2
    parts: list[Any] = [session]
    stop_if_asked()
    remembered = (data_dir / screen_settings.FILE_NAME).exists()
    sound = SoundPlayer(volume=config.sound.volume / 100, muted=config.sound.mute)
    parts.append(sound)
    port = args.port or config.web.port
    # the display is looked for before the table's face is chosen: with none usable (no
    # desktop, no KMS/DRM card, a driver that fails) the table runs headless, never a
    # screen's controller without its loop
    surface, no_screen = None, "--headless" if args.headless else None
    if not args.headless:
        from companion.screen.app import DisplaySpec, open_display, prefer_plain_framebuffer

        prefer_plain_framebuffer()  # no GL where SDL does not need it (the user's wins)
        surface = open_display(DisplaySpec(parse_size(args.size) or config.screen.size,
                                           args.fullscreen or config.screen.fullscreen))
        global _screen_opened
        _screen_opened = surface is not None
        if surface is None:
            from companion.screen.app import why_no_display

            no_screen = why_no_display()
        stop_if_asked()
    # headless: the table's sounds and clocks without the screen's modules (no pygame)
    language = screen_language(config.screen.language, args.config)
    if surface is None:  # the configured language is the phones' too, with no screen
        from companion.words.table_language import TableLanguage

        TableLanguage.at(data_dir).configured = language
    controller = _headless_table(session, sound, data_dir) if surface is None else \
        _screen_controller(session, sound, data_dir, language,
                           port if config.web.enabled else None)
    if not remembered:
        controller.ui.volume, controller.ui.muted = config.sound.volume, config.sound.mute
    # the table's one store of open offers: kept by the session's writer, offered and
    # answered on the phones, shown on the screen, put to a tapped bank card's owner
    from companion.game.table.offers import OfferStore

    offers = OfferStore(data_dir / "web" / "proposals.json")
    session.keep_offers(offers)
    if surface is not None:  # a screen (a headless table reads the offers in the view)
        controller.follow_offers(offers)
    # one banker PIN guard for the table: the phones' and the screen's banker menu
    controller.pins = table_pin(data_dir, lambda w: controller.post_pin_warning(
        w.wrong, w.where, w.wait))
    sound.set_volume(controller.ui.volume / 100)
    sound.set_muted(controller.ui.muted)
    speech = start_speech(session, data_dir)  # speaks the table's language
    parts.append(speech)
    # every warning the table shows (a reader lost, a stuck button, the Pi's power, a wrong
    # banker PIN) is said too, in the table's language: the face hands its sentences over
    controller.speak = speech.warn

    def notice(message: str, kind: str) -> None:  # the readers' notices before set_ui
        controller.post_message(message, kind)

    try:
        face = CurrentFace(controller)  # the face the warnings go to (it may change)
        power = watch_power(face)  # under-voltage on the table screen, off a Pi none
        parts.append(power)
        # the RFID readers' pump first: the panel's buttons, the phones' "tags" hook and the
        # screen's card registration all go through it
        readers = Readers(session, data_dir, [], notice,
                          config.readers.rdm6300_confirm, offers)
        parts.append(readers)
        if surface is None:
            readers.set_ui(controller.reader_action)
        else:
            from companion.screen.views.registration import CardRegistration

            cards = CardRegistration(controller, readers.registrar)
            controller.cards = cards
            controller.gestures = readers.pump.take_press  # keys answer a card's question
            readers.set_ui(cards.ui)
            parts.append(cards)
        if config.web.enabled:
            try:
                from companion.screen.texts import text as screen_text  # no pygame in it

                def next_link(joined: bool) -> None:  # a link spent: the QR shows a fresh one
                    controller.ui.remote_url = remote.join_link()
                    if joined:  # not a wrong banker PIN, which spends its link too
                        controller.ui.wifi = None  # it is on the table's Wi-Fi, if any
                        controller.post_message(screen_text("phone_joined"), "info")

                remote = WebRemote(session, config.web.host, port, data_dir, on_join=next_link,
                                   games=session if isinstance(session, SessionHolder) else None,
                                   tags=readers.registrar, offers=offers,
                                   pin_guard=controller.pins,
                                   table_names=config.web.table_names,
                                   table_url=config.web.table_url,
                                   # the screen's first frame of a move before its files
                                   pace_writes=getattr(controller, "hold_writes", None))
                remote.start()
                parts.append(remote)
                if power is not None:  # and on every phone
                    power.follow(remote.post_warning)
                controller.ui.remote_url = remote.join_link()

                def moved() -> None:  # the network came up (or changed): the QR code follows
                    controller.ui.remote_url = remote.join_link()
                    controller.wake()

                parts.append(AddressWatch(remote, moved))
                wifi = hotspot.show(controller.ui, lambda: controller.wake(),
                                    config.web.hotspot_file)  # the Pi's own Wi-Fi first
                if wifi is not None:
                    parts.append(wifi)
            except OSError as exc:  # the port is taken: say so and stop, as a service must
                print(f"companion run: the phone remote cannot listen on port {port} "
                      f"({exc.strerror or exc}); choose another with --port N or [web] port "
                      "in the config", file=sys.stderr)
                return 2
        stop_if_asked()
        panel = start_panel(readers.pump.emit, config.buttons, config.encoder)
        if panel is not None:
            parts.append(panel)
        readers.open(reader_specs(readers_wanted, on_a_pi=panel is not None))
        stop_if_asked()
        heartbeat = systemd.Heartbeat()
        debug.install_freeze_switch(session=session)  # tests only: COMPANION_DEBUG_FREEZE=1

        def alive() -> None:  # the watchdog is fed while the loop turns and the writer works
            if session.healthy():
                heartbeat.beat(time.monotonic())

        # what the start built (modules, catalogs, the game) is kept out of the collector's
        # full passes: one cost ~40 ms of CPU every few hundred moves with 12 phones, ~2 ms
        # frozen (issue 28, docs/bench.md); its garbage collected first, not kept for good
        gc.collect()
        gc.freeze()
        if surface is None:
            return run_headless(controller, alive, no_screen)
        from companion.screen.app import ScreenLoop

        loop = ScreenLoop(controller, surface)
        install_stop_signals(loop.request_stop)

        def first_pass() -> None:
            systemd.ready("the table screen is up")
            loop.on_pass = alive
            alive()

        loop.on_pass = first_pass
        loop.run()
        if loop.lost is None:
            return 0
        # the display went away while running: the same process goes on without a screen,
        # the phones' server, the writer and its queue untouched
        global _display_lost
        _display_lost = True
        screen, controller = controller, _headless_table(session, sound, data_dir)
        screen.close()  # no more updates to a screen nobody sees
        parts.remove(cards)
        close_quietly(cards)  # card registration's questions: the log's, as headless
        controller.pins = screen.pins
        controller.ui.remote_url, controller.ui.wifi = screen.ui.remote_url, screen.ui.wifi
        face.face = controller
        controller.speak = speech.warn  # its warnings said as the screen's were
        readers.set_ui(controller.reader_action)
        from companion.screen.wakeups import DisplayReturn

        back = DisplayReturn(os.environ.get("DISPLAY"), COME_BACK_CHECK_S,
                             lambda: controller.wake())
        parts.append(back)
        return run_headless(controller, alive, loop.lost, stop=loop.stop,
                            come_back=back.back.is_set)
    finally:
        systemd.notify("STOPPING=1")
        controller.close()
        for part in reversed(parts):
            close_quietly(part)


class CurrentFace:
    """The table's face of the moment for a part that outlives it (the power watch): the
    screen, then the headless table if the display goes away."""

    def __init__(self, face: Any) -> None:
        self.face = face

    def post_warning(self, code: str, source: str, message: str, active: bool) -> None:
        """A warning, as the face shows one (the screen's banner, or a line in the log)."""
        post_warning = getattr(self.face, "post_warning", None)
        if callable(post_warning):
            post_warning(code, source, message, active)
        elif active:
            self.face.post_message(message, "warning")


def _headless_table(session: Any, sound: Any, data_dir: Path) -> Any:
    """The table's sounds and clocks with no screen (companion.screen.headless)."""
    from companion.screen.headless import HeadlessTable

    return HeadlessTable(session, sound=sound, data_dir=data_dir)


def _screen_controller(session: Any, sound: Any, data_dir: Path, language: str,
                       remote_port: int | None) -> Any:
    """The screen's controller (imports the screen's drawing modules, pygame with them)."""
    from companion.screen.controller import Controller

    return Controller(session, sound=sound, data_dir=data_dir, language=language,
                      remote_port=remote_port)


def install_stop_signals(stop: Any) -> None:
    """SIGTERM (systemd) and SIGINT (Ctrl-C) end the loop cleanly.

    A signal handler runs on the main thread between two bytecodes, possibly while that
    thread is inside a lock (waiting on the very Event `stop` sets): taking the lock again
    there would deadlock, so the handler only starts a thread that calls `stop`.
    """

    def handler(*_args: object) -> None:
        threading.Thread(target=stop, name="stop-signal", daemon=True).start()

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, handler)
    if _stop_asked:  # asked for between the last step of the start and now
        handler()


def run_headless(controller: Any, alive: Callable[[], None] = lambda: None,
                 why: str | None = None, terminal: bool | None = None,
                 stop: threading.Event | None = None,
                 come_back: Callable[[], bool] | None = None) -> int:
    """No screen: say once why (`why`), and where the phone remote is, keep the table's
    sounds and clocks (`controller`: a companion.screen.headless.HeadlessTable) running on
    session updates, until SIGTERM / SIGINT.

    The join QR code is printed once, at the start; each later join link is one line, with
    its QR code only on a `terminal` a person reads (default: whether stdout is one), never
    into the service's log at every join (an SD card's wear).

    `stop`: the event that ends it (a screen's loop's, when its display went away: a stop
    asked for meanwhile is kept); `come_back`: whether the display is back (asked on every
    pass, it must answer at once), and when it is the run returns COME_BACK."""
    if terminal is None:
        terminal = sys.stdout.isatty()
    url = controller.ui.remote_url
    wake = threading.Event()
    stop = stop or threading.Event()
    controller.wake = wake.set

    def request_stop() -> None:
        stop.set()
        wake.set()

    # before saying it runs: a stop asked for from then on must find the handlers in place
    install_stop_signals(request_stop)
    because = f" ({why})" if why else ""
    print(f"Table Companion running without a screen{because}. "
          f"Phones join at: {url or 'off'}", flush=True)
    wifi = hotspot.headless_lines(controller.ui, url)  # the Pi's own Wi-Fi, then the join
    for line in wifi:
        print(line, flush=True)
    if url and not wifi:
        print(qr_for_terminal(url), flush=True)
    systemd.ready("running without a screen")
    while not stop.is_set():
        alive()
        if come_back is not None and come_back():
            print("The display is back: the companion starts again with its screen",
                  flush=True)
            return COME_BACK
        left = controller.next_wake()
        timeout = 1.0 if left is None else min(1.0, max(0.05, left))
        wake.wait(timeout)
        wake.clear()
        controller.drain()
        if controller.ui.remote_url != url:  # a phone joined: print the next one-time link
            url = controller.ui.remote_url
            print(f"Next phone joins at: {url}", flush=True)
            if url and terminal:
                print(qr_for_terminal(url), flush=True)
    return 0
