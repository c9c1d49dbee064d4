"""`companion screenshot --data-dir DIR --size 800x480 --out FILE.png`: the screen, as a PNG.

Renders the saved game exactly as the table screen shows it (with its recent moves and net-worth
history from the journal), in the language `companion run` would speak (`--language` overrides
it), without opening a window. No phone remote runs then: the corner shows where phones would
join, this machine's address on the phone remote's port (`--port`, else `[web] port` of the
configuration), or "Phone remote off" when the configuration turns the remote off; while the
Pi's own Wi-Fi is on (`[web] hotspot_file`), its Wi-Fi QR code, as the screen shows it until a
phone is on the Wi-Fi.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.app import hotspot
from companion.config import ConfigError, load_config
from companion.paths import default_data_dir, usable_data_dir

if TYPE_CHECKING:
    from pygame import Surface

    from companion.game.api import GameSessionProtocol


def main(argv: list[str]) -> int:
    """Render the current game of the data directory to a PNG file."""
    parser = argparse.ArgumentParser(prog="companion screenshot",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=None, help="where games are saved")
    parser.add_argument("--size", default="800x480", help="WIDTHxHEIGHT (default 800x480)")
    parser.add_argument("--out", type=Path, required=True, help="the PNG file to write")
    parser.add_argument("--port", type=int, default=None,
                        help="the phone remote's port to show (default: config)")
    parser.add_argument("--config", type=Path, default=None, help="the configuration file")
    parser.add_argument("--language", default=None,
                        help="the screen's language, e.g. en (default: config, as `run` does)")
    args = parser.parse_args(argv)
    try:
        width, _, height = args.size.lower().partition("x")
        size = (int(width), int(height))
    except ValueError:
        print(f"companion screenshot: bad --size {args.size!r} (write e.g. 800x480)",
              file=sys.stderr)
        return 2
    try:
        port = remote_port(args.port, args.config)
        config = load_config(args.config)
        wifi = hotspot.on_screen(config.web.hotspot_file)
    except ConfigError as exc:
        print(f"companion screenshot: {exc}", file=sys.stderr)
        return 2
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from companion.app.wiring import close_quietly, screen_language
    from companion.game.journal import JournalError, JournalLocked
    from companion.game.session import open_session

    data_dir = usable_data_dir(args.data_dir or default_data_dir())
    try:
        session = open_session(data_dir)
    except JournalLocked as exc:
        print(f"companion screenshot: {exc}; the table screen shows it already (stop the "
              "companion, or copy the data directory, to render it here)", file=sys.stderr)
        return 2
    except JournalError as exc:
        print(f"companion screenshot: {exc}", file=sys.stderr)
        return 2
    try:
        language = args.language or screen_language(config.screen.language, args.config)
        surface = draw(session, data_dir, size, port, language,
                       wifi if port is not None else None)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(args.out))
    finally:
        close_quietly(session)
    print(args.out)
    return 0


def draw(session: GameSessionProtocol, data_dir: Path, size: tuple[int, int],
         port: int | None, language: str, wifi: hotspot.Hotspot | None = None) -> Surface:
    """The screen as `companion run` shows the session's game, on a new surface: in
    `language` ("" as the edition speaks), the phones' corner on `port` (None: remote off),
    the Pi's own Wi-Fi code first when `wifi` is on. Also tools/make_screenshots.py's."""
    import pygame

    from companion.screen.controller import Controller
    from companion.screen.render import render

    controller = Controller(session, data_dir=data_dir, remote_port=port, language=language)
    try:
        if wifi is not None:  # the Pi's own Wi-Fi is on: its code first
            controller.ui.wifi = hotspot.for_screen(wifi)
        surface = pygame.Surface(size)
        render(controller.state, controller.ui, surface)
    finally:
        controller.close()
    return surface


def remote_port(port: int | None, config_file: Path | None) -> int | None:
    """The phone remote's port to show: `--port`, else the configuration's `[web] port`
    (the same as `companion run` serves on); None when the configuration turns it off.
    Raises ConfigError for a configuration that cannot be used."""
    if port is not None:
        return port
    web = load_config(config_file).web
    return web.port if web.enabled else None
