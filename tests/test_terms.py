"""One word per game concept in each catalog, and one wording per move line.

Rejected synonyms must not come back; a move reads the same on the screen and a phone.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent.parent / "companion" / "locale"

# Per language: a rejected variant (regex, case-insensitive) -> the term chosen instead.
# The chosen term follows the edition's own rulebook where it names the thing.
REJECTED: dict[str, dict[str, str]] = {
    "de": {
        r"Busticket": "Busfahrkarte",
        r"\bUrkunde|Besitzurkunde": "Besitzrechtkarte",
        r"Gefängnis-frei-Karte|Gefängnis-Freikarte": "Gefängnisfrei-Karte",
        r"Geschwindigkeitswürfel|Speedwürfel": "Tempowürfel",
        r"\bAuktion": "Versteigerung",
        r"\bKonkurs": "bankrott / pleite",
    },
    "sv": {
        r"hastighetstärning": "fartärning",
        r"bankrutt": "konkurs",
        r"\bfastigheter (utdelade|hos|räknas)|^Fastigheter utdelade|utdelad fastighet": "lagfart",
        r"Du kommer ut ur fängelset-kort": "fängelsekort",
    },
    "fr": {
        r"dé de vitesse": "dé rapide",
        r"libéré de prison|cartes? de libération": "carte de sortie de prison",
    },
    "nl": {
        r"\bbuskaart(en)?\b": "buskaartje",
        r"eigendomskaart|\bakte\b": "eigendomsbewijs",
        r"(?<![-a-z])gevangeniskaart": "verlaat-de-gevangeniskaart",
        r"bankkaart": "bankpas",
    },
    "pl": {
        r"hipotek": "zastaw",
        r"wieżow": "drapacz chmur",
        r"\baukcj": "licytacja",
    },
    "ru": {
        r"ипотек": "залог",
        r"\bаренд": "рента",
        r"жалован": "зарплата",
        r"\bсделк": "обмен",
        r"карточ\w* выхода": "карточка освобождения из тюрьмы",
    },
}


def _catalog(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "companion.po").open("rb") as handle:
        return read_po(handle)


def _strings(catalog: Catalog) -> list[tuple[str, str]]:
    """Every translated string with its message id, plural forms included."""
    found: list[tuple[str, str]] = []
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        found.extend((key, text) for text in strings if text)
    return found


@pytest.mark.parametrize("lang", sorted(REJECTED))
def test_no_rejected_variant(lang: str) -> None:
    strings = _strings(_catalog(lang))
    offending = [
        f"{key!r}: {text!r} (use {chosen})"
        for pattern, chosen in REJECTED[lang].items()
        for key, text in strings
        if re.search(pattern, text, re.IGNORECASE)
    ]
    assert not offending, "\n".join(offending)


def test_the_ban_list_catches_a_rejected_word() -> None:
    catalog = Catalog(locale="de")
    catalog.add("Take a bus ticket", "Ein Busticket nehmen")
    strings = _strings(catalog)
    assert any(re.search(p, t, re.IGNORECASE) for p in REJECTED["de"] for _, t in strings)


def _placeholders_as_braces(text: str) -> str:
    return re.sub(r"%\((\w+)\)[sd]", r"{\1}", text)


@pytest.mark.parametrize("lang", ["de", "sv", "fr", "nl", "pl", "ru"])
def test_same_move_line_reads_alike(lang: str) -> None:
    """A move sentence the English catalog words identically for the screen's log and
    the move list (log_* and move_* contexts) is worded identically in every language."""
    english, other = _catalog("en"), _catalog(lang)
    by_text: dict[str, list[str]] = {}
    for message in english:
        ctx = message.context or ""
        if message.id and isinstance(message.string, str) and ctx.startswith(("log_", "move_")):
            by_text.setdefault(message.string, []).append(ctx)
    differing = []
    for text, contexts in by_text.items():
        if len(contexts) < 2:
            continue
        ids = {m.context: m.id for m in english if m.context in contexts}
        translated = {
            _placeholders_as_braces(other.get(ids[c], context=c).string) for c in contexts
        }
        if len(translated) > 1:
            differing.append(f"{text!r}: {sorted(translated)}")
    assert not differing, "\n".join(differing)
