"""Languages: the one gettext catalog per language, money as each edition writes it, and
the editions' own names for squares and cards in other languages.

Every sentence of the table companion is in one Babel catalog per language,
`companion/locale/<lang>/LC_MESSAGES/companion.po`, compiled to the .mo files shipped beside
them (a test checks they are up to date): the table screen, the phones (web_remote.i18n), the
terminal and the command line all read it through `translator`. English is the source
language; it has a catalog too, so English wording can change without touching the message
ids. `python -m companion.words.catalog update` re-extracts the template from the sources that
companion/locale/babel.cfg names (companion/, hardware/, web_remote/ and its templates), merges
it into every .po and compiles the .mo files (the same steps as `pybabel extract -F
companion/locale/babel.cfg ...`, see companion/locale/README.md).

>>> translator("sv").pgettext("act_buy", "Buy")
'Köp'
>>> ngettext("{count} jail card", "{count} jail cards", 5, "ru", context="jail_cards")
'{count} карточек освобождения'
>>> format_money(30000, {"pattern": "Kr {amount}", "group_separator": " "}, "sv")
'Kr\\xa030\\xa0000'
"""

from __future__ import annotations

import copy
import gettext
import io
import json
import re
import sys
from collections.abc import Mapping
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "sv", "fr", "de", "nl", "pl", "ru")
#: each language named in itself, as a language menu shows it (data: asking Babel for the
#: seven names loads its locale data, 80 ms of every start)
LANGUAGE_NAMES = {"en": "English", "sv": "Svenska", "fr": "Français", "de": "Deutsch",
                  "nl": "Nederlands", "pl": "Polski", "ru": "Русский"}
SOURCE_LANGUAGE = "en"
DOMAIN = "companion"
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
#: the checkout whose sources companion/locale/babel.cfg names (companion/, hardware/,
#: web_remote/), and the marker functions that carry the messages: the words layer's `_t`
#: and `_n` (the id is the message context), the phones' `_` and `ngettext`
SOURCES = Path(__file__).resolve().parents[2]
MAPPING = LOCALE_DIR / "babel.cfg"
KEYWORDS = ("_t:1c,2", "_n:1c,2,3", "_", "ngettext:1,2")

MINUS = "\u2212"  # a real minus sign, as wide as the plus
NBSP = "\u00a0"  # amounts never break across lines
#: the words layer's {fields} and the phones' %(fields)s
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(\w+\)[sd]")


# --- languages and catalogs -----------------------------------------------------------------


@lru_cache(maxsize=64)
def normalize_language(lang: str | None) -> str:
    """One of LANGUAGES for a language code or tag ("sv_SE", "de-CH", "RU"); else English.
    Kept for the last 64 tags asked (every sentence the screen draws asks: about 18 a
    frame after a move).

    >>> normalize_language("de-CH"), normalize_language("sv_SE"), normalize_language("xx")
    ('de', 'sv', 'en')
    """
    code = re.split(r"[-_.@]", (lang or "").strip().lower(), maxsplit=1)[0]
    return code if code in LANGUAGES else SOURCE_LANGUAGE


def mo_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """Where the compiled catalog of `lang` lives."""
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def po_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """Where the editable catalog of `lang` lives."""
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def translator(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of `lang` (normalised: unknown languages get English).

    Loaded once per language; the plural rule comes from the catalog's header.
    """
    return _load(normalize_language(lang))


@cache
def _load(code: str) -> gettext.GNUTranslations:
    with mo_path(code).open("rb") as handle:
        return gettext.GNUTranslations(handle)


def _(message: str, lang: str = SOURCE_LANGUAGE, context: str | None = None) -> str:
    """`message` in `lang` (in the catalog under `context`, when given).

    >>> _("Buy", "de", context="act_buy")
    'Kaufen'
    """
    tr = translator(lang)
    return tr.pgettext(context, message) if context is not None else tr.gettext(message)


def ngettext(singular: str, plural: str, n: int, lang: str = SOURCE_LANGUAGE,
             context: str | None = None) -> str:
    """The form of a counted message for `n` in `lang` (Polish and Russian have three)."""
    tr = translator(lang)
    if context is not None:
        return tr.npgettext(context, singular, plural, n)
    return tr.ngettext(singular, plural, n)


def language_name(lang: str) -> str:
    """A language's name in itself, capitalised as a menu shows it: "Svenska", "Русский"."""
    if lang in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[lang]
    from babel import Locale

    name = Locale.parse(normalize_language(lang)).display_name or lang
    return name[:1].upper() + name[1:]


def format_number(value: int, lang: str) -> str:
    """A number that is not money (counts, votes) as `lang` writes it, by Babel.

    >>> format_number(1234567, "de"), format_number(1234567, "en")
    ('1.234.567', '1,234,567')
    """
    import babel.numbers

    return babel.numbers.format_decimal(value, locale=normalize_language(lang))


# --- editions ---------------------------------------------------------------------------------


@cache
def _edition_file(edition_id: str) -> dict[str, Any]:
    path = resources.files("companion") / "data" / "editions" / f"{edition_id}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def edition_data(edition: str | Mapping[str, Any]) -> Mapping[str, Any]:
    """The edition JSON for an edition id (or the JSON itself); {} for an unknown id."""
    if not isinstance(edition, str):
        return edition
    try:
        return _edition_file(edition)
    except (OSError, ValueError):
        return {}


def default_language(edition: str | Mapping[str, Any] | None) -> str:
    """The language an edition is played in by default: its "language", else English.

    >>> default_language("sv"), default_language({"language": "ru"}), default_language(None)
    ('sv', 'ru', 'en')
    """
    if edition is None:
        return SOURCE_LANGUAGE
    lang = edition_data(edition).get("language")
    return lang if isinstance(lang, str) and lang in LANGUAGES else SOURCE_LANGUAGE


def localized_name(edition: str | Mapping[str, Any], key: str, lang: str) -> str:
    """The name of a square, group or deck, or the text of a card, as the edition's
    version in `lang` prints it (the "localized" block), else as the edition prints it.
    The edition's own id gives the edition's name.

    >>> localized_name("ch", "gare-de-zurich", "de")
    'Hauptbahnhof Zürich'
    >>> localized_name("ch", "gare-de-zurich", "ru")
    'Gare de Zurich'

    Raises KeyError for an id the edition does not have.
    """
    data = edition_data(edition)
    local = ((data.get("localized") or {}).get(normalize_language(lang)) or {})
    if key == data.get("id"):
        return str(local.get("name") or data.get("name") or key)
    for block in ("squares", "cards", "decks", "groups"):
        found = (local.get(block) or {}).get(key)
        if found:
            return str(found)
    squares = data.get("squares") or []
    for square in squares:
        if square.get("id") == key:
            generic = _generic_square(squares, square)
            if generic is not None and normalize_language(lang) != data.get("language"):
                return translator(lang).pgettext(generic.id, generic.text)
            return str(square.get("name", key))
    for deck_id, deck in (data.get("decks") or {}).items():
        if deck_id == key:
            return str(deck.get("name", key))
        for card in deck.get("cards") or []:
            if card.get("id") == key:
                return str(card.get("text", key))
    group = (data.get("groups") or {}).get(key)
    if group is not None:
        return str(group.get("name", key)) if isinstance(group, dict) else key
    raise KeyError(f"{data.get('id', '?')} has no square, card, deck or group {key!r}")


def _generic_square(squares: list[Any], square: Mapping[str, Any]) -> Any:
    """The catalog's name of a square every board has (GO, Chance, a tax...), None for a
    street, a station or a utility (companion.words.square_texts)."""
    from companion.words.square_texts import SQUARES

    kind = str(square.get("kind", ""))
    if kind == "tax":
        taxes = [s.get("id") for s in squares if s.get("kind") == "tax"]
        kind = "income_tax" if taxes and taxes[0] == square.get("id") else "luxury_tax"
    return SQUARES.get(f"square_{kind}")


# --- money ------------------------------------------------------------------------------------


def group_digits(amount: int, currency: Mapping[str, Any] | None) -> str:
    """The digits of |amount| grouped as the edition groups them.

    The currency block's "group_separator" goes between groups of three (spaces become
    no-break spaces); with "minimum_grouping_digits": 2 a four-digit amount stays whole,
    as Russian writes it.

    >>> group_digits(-30000, {"group_separator": "'"})
    "30'000"
    >>> group_digits(1500, {"group_separator": " ", "minimum_grouping_digits": 2})
    '1500'
    >>> group_digits(15000, {"group_separator": " ", "minimum_grouping_digits": 2})
    '15\\xa0000'
    """
    cur = currency or {}
    digits = str(abs(int(amount)))
    separator = str(cur.get("group_separator", " ")).replace(" ", NBSP)
    minimum = int(cur.get("minimum_grouping_digits", 1) or 1)
    if len(digits) < 3 + minimum:
        return digits
    return f"{int(digits):,}".replace(",", separator)


def format_money(amount: int, currency: Mapping[str, Any] | None, lang: str = SOURCE_LANGUAGE,
                 ) -> str:
    """An amount as the edition writes it: "Kr 30 000", "Fr. 30'000.–", "€ 1.500",
    "€1,500", "1 500 zł", "М1500"; a debt starts with a minus sign ("−€ 50").

    Driven by the edition's currency block (the state JSON's "currency"): its
    "display_pattern" (else "pattern") with "{amount}" replaced by the grouped digits.
    Spaces are no-break spaces, so an amount never wraps. `lang` matters only for a block
    without a pattern: Babel then writes the currency `code` as `lang` does.

    >>> format_money(30000, {"pattern": "Fr. {amount}.-", "display_pattern": "Fr. {amount}.–",
    ...                      "group_separator": "'"}).replace("\\xa0", " ")
    "Fr. 30'000.–"
    >>> format_money(-50, {"pattern": "€ {amount}", "group_separator": "."})
    '−€\\xa050'
    >>> format_money(1500, {"code": "PLN"}, "pl")
    '1\\xa0500\\xa0zł'
    """
    cur = currency or {}
    pattern = cur.get("display_pattern") or cur.get("pattern")
    if not pattern:
        return _babel_money(int(amount), str(cur.get("code") or ""), lang)
    shown = str(pattern).replace(" ", NBSP).replace("{amount}", group_digits(amount, cur))
    return MINUS + shown if amount < 0 else shown


def _babel_money(amount: int, code: str, lang: str) -> str:
    """Whole amounts by Babel: the currency as `lang` writes it, or a plain number."""
    import babel.numbers
    from babel import Locale

    locale = Locale.parse(normalize_language(lang))
    digits = abs(amount)
    if code and len(code) == 3:
        fmt = locale.currency_formats["standard"].pattern.split(";")[0]
        fmt = re.sub(r"\.0+", "", fmt)
        text = babel.numbers.format_currency(digits, code, format=fmt, locale=locale,
                                             currency_digits=False)
    else:
        text = babel.numbers.format_decimal(digits, locale=locale)
    text = text.replace(" ", NBSP)
    return MINUS + text if amount < 0 else text


def signed_amount(amount: int, currency: Mapping[str, Any] | None) -> str:
    """A change without the symbol, grouped as the edition groups: "+200", "−1 400"."""
    return ("+" if amount >= 0 else MINUS) + group_digits(amount, currency)


# --- catalog maintenance (Babel) ------------------------------------------------------------


def placeholders(text: str) -> set[str]:
    """The {fields} of a message (the phones' %(fields)s too).

    >>> sorted(placeholders("{player}: buy {square} for {price}?"))
    ['{player}', '{price}', '{square}']
    >>> sorted(placeholders("%(num)d houses on %(square)s"))
    ['%(num)d', '%(square)s']
    """
    return set(_PLACEHOLDER.findall(text))


def extract_template() -> Any:
    """The message template (a Babel Catalog) extracted from the sources babel.cfg names."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_keywords, parse_mapping_cfg

    catalog = Catalog(project="Table Companion", version="0.1.0", domain=DOMAIN,
                      charset="utf-8", fuzzy=False)
    with MAPPING.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(  # type: ignore[no-untyped-call]
            handle, str(MAPPING))
    tops = {pattern.split("/", 1)[0] for pattern, _method in method_map}

    def wanted(folder: str) -> bool:  # only the named top folders; no .venv, no __pycache__
        parts = Path(folder).relative_to(SOURCES).parts
        return not parts or (parts[0] in tops and not parts[-1].startswith((".", "_")))

    for filename, lineno, message, comments, context in extract_from_dir(
            SOURCES, method_map=method_map, options_map=options_map,
            keywords=parse_keywords(list(KEYWORDS)), comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True, directory_filter=wanted):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def compile_catalog(po_file: Path, mo_file: Path) -> None:
    """Compile one .po into a .mo (Babel), creating the folder."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    lang = po_file.parent.parent.name
    with po_file.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    mo_file.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    mo_file.write_bytes(buffer.getvalue())


def _keys(catalog: Any) -> set[tuple[str | None, str | tuple[str, ...]]]:
    """(context, id) of every message of a Babel catalog."""
    return {(m.context, m.id) for m in catalog if m.id}


def update_catalogs(locale_dir: Path = LOCALE_DIR) -> None:
    """Re-extract the template, merge it into every language's .po, compile every .mo.

    English copies each source text into its own catalog; other languages keep their
    translations, and new messages arrive untranslated (the tests then fail until they are
    translated).
    """
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    template = extract_template()
    pot = locale_dir / TEMPLATE.name
    if pot.exists():  # unchanged messages keep their date: no churn in the catalogs
        with pot.open("rb") as handle:
            before = read_po(handle)
        if _keys(before) == _keys(template):
            template.creation_date = before.creation_date
    header = "# Table Companion: every sentence of the table screen and the phones.\n" \
        "# Distributed under the same license as the Table Companion project."
    with pot.open("wb") as handle:
        write_po(handle, template, width=100, omit_header=False)
    for lang in LANGUAGES:
        path = po_path(lang, locale_dir)
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Table Companion",
                              version="0.1.0", charset="utf-8", fuzzy=False,
                              header_comment=header, msgid_bugs_address="",
                              last_translator="Table Companion", language_team=lang)
        catalog.update(copy.deepcopy(template), update_header_comment=False)
        for message in catalog:
            source = template.get(message.id, context=message.context) if message.id else None
            if source is None:
                continue
            # the format flags are the source's, not a similar message's that Babel guessed from
            guessed = message.flags & {"fuzzy"}
            message.flags = set(source.flags) | guessed
            if lang == SOURCE_LANGUAGE:
                message.string = message.id
                message.flags.discard("fuzzy")  # English is its own translation
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=100, ignore_obsolete=True, include_previous=False)
        compile_catalog(path, mo_path(lang, locale_dir))


def main(argv: list[str] | None = None) -> int:
    """`python -m companion.words.catalog update|compile`: refresh the catalogs or only the .mo
    files."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["update"]:
        update_catalogs()
    elif args == ["compile"]:
        for lang in LANGUAGES:
            compile_catalog(po_path(lang), mo_path(lang))
    else:
        print("usage: python -m companion.words.catalog update|compile", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
