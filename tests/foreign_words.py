"""What a page or a screen in one language must not show: a sentence of another language
(found against the seven catalogs: a literal piece of another language's translation that the
page's own catalog never writes) or a raw identifier ("on_lift", "fee_then_choice")."""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.pofile import read_po

from companion.words import catalog as i18n

LOCALE = Path(i18n.__file__).resolve().parents[1] / "locale"
#: {field}, %(field)s and %d: where a sentence is filled in
_FIELD = re.compile(r"\{[^{}]*\}|%\(\w+\)[sd]|%[sd]")
#: a word of letters (any script)
_WORD = re.compile(r"[^\W\d_]+")
#: a raw identifier: lower-case words joined by underscores
RAW = re.compile(r"(?<![\w/#.-])[a-z]+(?:_[a-z]+)+(?![\w/.-])")


def _plain(text: str) -> str:
    return " ".join(text.replace(i18n.NBSP, " ").replace("\u202f", " ").split())


def _edition_names(lang: str) -> list[str]:
    """The names the editions print in `lang` (a Swiss German board says "Chance")."""
    from companion.editions import edition_ids

    out: list[str] = []
    for edition in edition_ids():
        data = i18n.edition_data(edition)
        local = (data.get("localized") or {}).get(lang) or {}
        for block in ("squares", "groups", "decks"):
            out.extend(str(v) for v in (local.get(block) or {}).values())
        if data.get("language") == lang:
            out.extend(str(s.get("name", "")) for s in data.get("squares") or [])
    return out


@cache
def strings(lang: str) -> tuple[str, ...]:
    """Every translation of a catalog (plural forms too), and the names the editions
    print in that language, spaces made plain."""
    with (LOCALE / lang / "LC_MESSAGES" / "companion.po").open("rb") as handle:
        catalog = read_po(handle)
    out: list[str] = [_plain(n) for n in _edition_names(lang) if n]
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, (tuple, list)) else \
            (message.string,)
        out.extend(_plain(s) for s in forms if s)
    return tuple(out)


@cache
def _own_text(lang: str) -> str:
    return "\n".join(strings(lang)).casefold()


@cache
def fragments(lang: str) -> tuple[tuple[str, str, str], ...]:
    """(piece, its language, its longest word): literal pieces of the other languages'
    sentences, two words or more and ten letters or more, that `lang`'s catalog never
    writes (a street name or "Mr. Monopoly" every language writes alike is not one)."""
    own = _own_text(lang)
    found: dict[str, tuple[str, str, str]] = {}
    for other in i18n.LANGUAGES:
        if other == lang:
            continue
        for sentence in strings(other):
            for piece in _FIELD.split(sentence):
                piece = piece.strip(" :;,.()«»“”\"'—-·")
                words = _WORD.findall(piece)
                if len(words) < 2 or sum(len(w) for w in words) < 10:
                    continue
                if piece.casefold() in own or piece in found:
                    continue
                found[piece] = (piece, other, max(words, key=len))
    return tuple(found.values())


def _pattern(sentence: str) -> re.Pattern[str] | None:
    """A whole sentence with its fields as wildcards; None when it is fields only."""
    pieces = _FIELD.split(sentence)
    if not any(_WORD.search(p) for p in pieces):
        return None
    return re.compile("(?s)" + "(.+?)".join(re.escape(p) for p in pieces))


@cache
def _own_patterns(lang: str) -> tuple[re.Pattern[str], ...]:
    return tuple(p for s in strings(lang) if (p := _pattern(s)) is not None)


@cache
def _own_words(lang: str) -> frozenset[str]:
    return frozenset(w.casefold() for s in strings(lang)
                     for w in _WORD.findall(_FIELD.sub(" ", s)))


@cache
def sentences(lang: str) -> dict[str, tuple[tuple[re.Pattern[str], str, str], ...]]:
    """The other languages' whole sentences (short ones too: "Rules: {section}", "Seed")
    by their first word: (pattern, language, sentence)."""
    own = set(strings(lang))
    found: dict[str, list[tuple[re.Pattern[str], str, str]]] = {}
    for other in i18n.LANGUAGES:
        if other == lang:
            continue
        for sentence in set(strings(other)) - own:
            words = _WORD.findall(_FIELD.sub(" ", sentence))
            pattern = _pattern(sentence)
            if not words or pattern is None or sum(len(w) for w in words) < 4:
                continue
            if all(w.casefold() in _own_words(lang) for w in words):
                continue  # "Hotel", "Start": words this language writes the same
            found.setdefault(words[0], []).append((pattern, other, sentence))
    return {k: tuple(v) for k, v in found.items()}


@cache
def proper_names() -> tuple[str, ...]:
    """Every edition's streets, stations and utilities, as printed and as localized: proper
    names a table may show in any language (longest first)."""
    from companion.editions import edition_ids

    names: set[str] = set()
    for edition in edition_ids():
        data = i18n.edition_data(edition)
        kept = {str(s.get("id")) for s in data.get("squares") or []
                if s.get("kind") in ("lot", "station", "utility")}
        names.update(str(s.get("name", "")) for s in data.get("squares") or []
                     if str(s.get("id")) in kept)
        for local in (data.get("localized") or {}).values():
            names.update(str(v) for k, v in (local.get("squares") or {}).items() if k in kept)
    return tuple(sorted((_plain(n) for n in names if len(n) > 3), key=len, reverse=True))


def _without_names(text: str) -> str:
    for name in proper_names():
        if name in text:
            text = text.replace(name, "\u2022")
    return text


def foreign(texts: list[str], lang: str) -> list[tuple[str, str, str]]:
    """(text, the other language, its sentence or piece) for every text showing another
    language: a whole sentence of another catalog, or a long piece of one (streets and
    stations are proper names: they do not count)."""
    plain = [_without_names(_plain(t)) for t in texts]
    words = {w for t in plain for w in _WORD.findall(t)}
    out = []
    for piece, other, longest in fragments(lang):
        if longest not in words:
            continue
        for text in plain:
            if piece in text:
                out.append((text, other, piece))
    table = sentences(lang)
    for text in plain:
        if any(hit[0] == text for hit in out):
            continue
        for word in set(_WORD.findall(text)):
            hit = next(((other, sentence) for pattern, other, sentence in table.get(word, ())
                        if pattern.fullmatch(text)
                        and not any(p.fullmatch(text) for p in _own_patterns(lang))), None)
            if hit is not None:
                out.append((text, *hit))
                break
    return out


def own_sentence(text: str, lang: str) -> bool:
    """Whether `text` is a sentence of `lang`'s catalog, its fields filled in (a banner
    written in the code's own words, in no catalog, is not one)."""
    plain = _plain(text)
    return plain in strings(lang) or any(p.fullmatch(plain) for p in _own_patterns(lang))


def raw_identifiers(texts: list[str]) -> list[str]:
    """The texts showing an identifier instead of words."""
    return [t for t in texts if RAW.search(_plain(t))]


class _Visible(HTMLParser):
    """The text a phone shows: text nodes outside <script>, <style> and <title>, and the
    words of buttons' confirmations and fields' placeholders."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if value and name in ("data-confirm", "placeholder", "aria-label", "title"):
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data.strip())


def visible(html: str) -> list[str]:
    """The texts of a page as a phone shows them."""
    parser = _Visible()
    parser.feed(html)
    return parser.texts
