"""Render the table screen of a real game, part way through, at three sizes in all seven languages.

A golden game (tests/data/games) is replayed through a game session up to a chosen line, so
the pictures show a true mid-game state: owned streets, houses, a card or an auction when the
line falls there. Each language and size is drawn as `companion screenshot` draws it and saved
into docs/screenshots/ as LANG-WIDTHxHEIGHT.png, small: a palette PNG of the 256 commonest
colours (the screen's colours are flat; only anti-aliased edges have more), else pygame's own.
Eight players (a bot game, one with a 24-letter name) are drawn too, in English, German and
Russian, as LANG-WIDTHxHEIGHT-8p.png. The phones' corner shows a fixed documentation address
(192.0.2.10, TEST-NET), not this machine's, so running `python -m tools.make_screenshots`
again gives the same pictures.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
import tempfile
import zlib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "tests" / "data" / "games" / "classic-eur-4p.jsonl"
OUT = ROOT / "docs" / "screenshots"
SIZES = ((800, 480), (1280, 720), (1920, 1080))
LANGUAGES = ("en", "sv", "fr", "de", "nl", "pl", "ru")
STOP_LINE = 209  # mid-game: houses built, Bo has just drawn a Chance card (its news shows)
ADDRESS = "192.0.2.10"  # TEST-NET-1: a documentation address, the same on every machine
PORT = 8080
#: the crowded table: eight players (one named as long as the engine allows) in a bot game of
#: the classic-eur board (tools/make_golden.py's bots), drawn in these languages as
#: LANG-WIDTHxHEIGHT-8p.png part way through
EIGHT = ("Ann", "Bo", "Cy", "Dee", "Maximilian Wolfgang Ross", "Åsa-Britt", "Łukasz", "Zoë")
EIGHT_SEED = 21
EIGHT_STOP = 260
EIGHT_LANGUAGES = ("en", "de", "ru")


def replay(script: Path, stop: int, data_dir: Path) -> None:
    """Play the script's lines up to `stop` into a saved game in `data_dir`."""
    from companion.app.replay import read_script
    from companion.app.script_cli import SCRIPT
    from companion.game.session import open_session

    lines = [command for number, command in read_script(script.read_text("utf-8"))
             if number <= stop]
    with open_session(data_dir) as session:
        for command in lines:
            session.submit(command, SCRIPT)


def png_bytes(width: int, height: int, rgb: bytes) -> bytes:
    """A palette PNG of the RGB pixels: the 256 commonest colours, every other one drawn as
    the nearest of them (only anti-aliased edges have others; they stay smooth)."""
    pixels = [rgb[i:i + 3] for i in range(0, len(rgb), 3)]
    counts = Counter(pixels)
    palette = [colour for colour, _n in counts.most_common(256)]
    index = {colour: i for i, colour in enumerate(palette)}
    for colour in counts:
        if colour not in index:
            index[colour] = min(range(len(palette)), key=lambda i: sum(
                (a - b) ** 2 for a, b in zip(colour, palette[i], strict=True)))
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none (palette indices compress well as they are)
        rows.extend(index[p] for p in pixels[y * width:(y + 1) * width])

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"PLTE", b"".join(palette))
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def save(surface: object, path: Path) -> None:
    """Write the surface as the smallest of a palette PNG and pygame's PNG."""
    import pygame

    assert isinstance(surface, pygame.Surface)
    pygame.image.save(surface, str(path))
    small = png_bytes(surface.get_width(), surface.get_height(),
                      pygame.image.tobytes(surface, "RGB"))
    if len(small) < path.stat().st_size:
        path.write_bytes(small)


def eight_player_game(out: Path, stop: int = EIGHT_STOP) -> Path:
    """The eight players' bot game as a table script in `out`, long enough to stop at
    `stop` (the same every time: the bots and the seed decide)."""
    from tools.make_golden import record

    lines, _final = record("classic-eur", list(EIGHT), EIGHT_SEED, {}, end_after=stop + 1)
    path = out / "classic-eur-8p.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                    "utf-8")
    return path


def make(out: Path, languages: Iterable[str], sizes: Iterable[tuple[int, int]],
         script: Path = GAME, stop: int = STOP_LINE, suffix: str = "") -> list[Path]:
    """Render every language at every size into `out` (file names end with `suffix`); the
    files written."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion import net
    from companion.app.screenshot_cmd import draw
    from companion.game.session import open_session

    written = []
    out.mkdir(parents=True, exist_ok=True)
    real_address, net.lan_address = net.lan_address, lambda: ADDRESS  # the same on every machine
    try:
        with tempfile.TemporaryDirectory() as tmp:
            data_dir = Path(tmp) / "data"
            replay(script, stop, data_dir)
            with open_session(data_dir) as session:
                for lang in languages:
                    for width, height in sizes:
                        path = out / f"{lang}-{width}x{height}{suffix}.png"
                        save(draw(session, data_dir, (width, height), PORT, lang), path)
                        written.append(path)
    finally:
        net.lan_address = real_address
    return written


def main(argv: list[str] | None = None) -> int:
    """Render the screenshots (all, or the languages and sizes asked for)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNGs go")
    parser.add_argument("--language", action="append", choices=LANGUAGES,
                        help="only this language (repeatable)")
    parser.add_argument("--stop", type=int, default=STOP_LINE,
                        help=f"replay the golden game up to this line (default {STOP_LINE})")
    parser.add_argument("--eight-stop", type=int, default=EIGHT_STOP,
                        help=f"stop the eight players' game at this line (default {EIGHT_STOP})")
    args = parser.parse_args(argv)
    languages = args.language or LANGUAGES
    written = make(args.out, languages, SIZES, stop=args.stop)
    with tempfile.TemporaryDirectory() as tmp:
        script = eight_player_game(Path(tmp), args.eight_stop)
        written += make(args.out, [lang for lang in languages if lang in EIGHT_LANGUAGES],
                        SIZES, script, args.eight_stop, suffix="-8p")
    for path in written:
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
              f"  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
