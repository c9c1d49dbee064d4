"""The shipped font covers every string the screen may show: UI catalogs, edition data,
numbers as Babel formats them in the seven languages."""

from __future__ import annotations

import json
from pathlib import Path

import babel.numbers
import pytest
from babel.messages.pofile import read_po
from fixtures.screen.scenarios import LANGUAGES, catalog

from companion.screen.fonts import missing_glyphs

ROOT = Path(__file__).resolve().parent.parent
CATALOG_FILES = sorted(p for p in ROOT.glob("**/*.po") if ".venv" not in p.parts)
EDITIONS = sorted((ROOT / "companion" / "data" / "editions").glob("*.json"))


def strings_of(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in strings_of(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_of(v)]
    return []


@pytest.mark.parametrize("language", LANGUAGES)
def test_ui_catalog_is_covered(language: str) -> None:
    missing = {k: missing_glyphs(v) for k, v in catalog(language).items() if missing_glyphs(v)}
    assert missing == {}


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_gettext_catalog_is_covered(path: Path) -> None:
    with path.open("rb") as handle:
        po = read_po(handle)
    texts = [m.string for m in po if m.string]
    texts = [t for s in texts for t in (s if isinstance(s, tuple) else (s,))]
    missing = {t: missing_glyphs(t) for t in texts if missing_glyphs(t)}
    assert missing == {}


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: p.stem)
def test_edition_data_is_covered(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    missing = {s: missing_glyphs(s) for s in strings_of(data) if missing_glyphs(s)}
    assert missing == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_babel_numbers_and_currencies_are_covered(language: str) -> None:
    samples = [babel.numbers.format_decimal(1234567, locale=language)]
    for code in ("EUR", "SEK", "CHF", "PLN", "RUB"):
        samples.append(babel.numbers.format_currency(-1400, code, locale=language))
    missing = {s: missing_glyphs(s) for s in samples if missing_glyphs(s)}
    assert missing == {}
    assert any("\u00a0" in s or "\u202f" in s or language in ("en", "de", "nl") for s in samples)


def test_a_glyph_the_font_lacks_is_reported() -> None:
    assert missing_glyphs("Kr 2\u00a0400 \U0001f9e9") == {"\U0001f9e9"}
