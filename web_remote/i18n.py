"""`_()`: every UI string goes through here; each phone picks its language (a cookie).

Catalogs are Babel .po files in web_remote/translations/<lang>/LC_MESSAGES/messages.po,
compiled in memory on first use (no stale .mo files). English is the source language.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import g, has_request_context, request

TRANSLATIONS = Path(__file__).parent / "translations"
LANGUAGES: dict[str, str] = {
    "en": "English", "sv": "Svenska", "fr": "Français", "de": "Deutsch",
    "nl": "Nederlands", "pl": "Polski", "ru": "Русский",
}
DEFAULT = "en"
COOKIE = "lang"


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (English: the identity)."""
    po = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
    if lang == DEFAULT or not po.is_file():
        return gettext.NullTranslations()
    with po.open("rb") as fh:
        parsed = read_po(fh, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, parsed)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def pick_language(default: str = DEFAULT) -> str:
    """The request's language: its cookie, else the browser's preference, else the default."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    best = request.accept_languages.best_match(list(LANGUAGES))
    return best or default


def current_language() -> str:
    """The language of the request being served (English outside requests)."""
    if has_request_context():
        lang = g.get("lang")
        if isinstance(lang, str):
            return lang
    return DEFAULT


def _(text: str, **values: Any) -> str:
    """Translate `text` for the current phone; `%(name)s` placeholders take `values`."""
    out = catalog(current_language()).gettext(text)
    return out % values if values else out


def ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
    """Plural-aware `_`; `n` is available as `%(num)d`."""
    out = catalog(current_language()).ngettext(singular, plural, n)
    return out % {"num": n, **values}
