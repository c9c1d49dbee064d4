"""The fonts the screen ships with, and a glyph-coverage check for the catalog tests.

DejaVu Sans covers Latin (Polish, Swedish, French, German, Dutch), Cyrillic, ₽ and the
no-break spaces Babel uses in numbers, so one family renders all seven languages.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygame.freetype

FONT_DIR = Path(__file__).resolve().parents[1] / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

#: how many glyphs freetype keeps rendered per face (buckets of its glyph cache, each two
#: deep, keyed by character, size and style): the screen draws in about ten pixel sizes,
#: and with freetype's default of 64 a frame's new texts evicted each other's glyphs, each
#: one loaded and hinted again (a new amount measured in 50 µs here instead of 4: issue 28)
GLYPHS_KEPT = 1024

# Layout characters that are never drawn as glyphs.
_NOT_DRAWN = frozenset("\n\r\t")


def start_freetype() -> None:
    """Start pygame's freetype, once, with room for GLYPHS_KEPT glyphs per face (the one
    place it is started: its cache's size is fixed when it starts)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init(cache_size=GLYPHS_KEPT)


@cache
def _face(path: Path) -> pygame.freetype.Font:
    """A freetype face for coverage queries (size is irrelevant to the character map)."""
    import pygame.freetype

    start_freetype()
    return pygame.freetype.Font(str(path), 16)


def missing_glyphs(text: str, paths: tuple[Path, ...] = (REGULAR, BOLD)) -> set[str]:
    """The characters of `text` that some shipped font (regular or bold) has no glyph for.

    >>> sorted(missing_glyphs("Łódź 1\u202f500 ₽ Жёлтый Götgatan"))
    []
    >>> sorted(missing_glyphs("a\u0378b"))
    ['\u0378']
    """
    missing: set[str] = set()
    for char in set(text) - _NOT_DRAWN:
        for path in paths:
            if _face(path).get_metrics(char)[0] is None:
                missing.add(char)
                break
    return missing
