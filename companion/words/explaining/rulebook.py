"""Our own concise rulebook per edition and language (data files in companion/data/rules/:
`## Title {#topic ...}` headings and blank-line paragraphs), read into sections that the
phones' rules page lists and searches, and that a money move's reason or a lesson of the
teaching table points to by topic (the screen names the section, a phone links to it).

A sentence may carry topics of its own, written before it: `{#rent_station}Stations earn
more...`; a reason that cites that topic quotes that very sentence (the rule that produced
the amount), not the section's first one.

An amount a book shares with other boards is written as the board's data names it,
`{money:salary}` (also `start_cash`, `jail_fine`): the classic book a Swedish board falls
back to says "Kr 4 000", a Polish one "200 zł", never the euro of the book's own board.

>>> s = parse("## Rent {#rent}\\nLanding means rent. {#rent_station}Stations count. More.")[0]
>>> s.paragraphs, s.quote_about("rent_station"), s.quote_about("rent")
(('Landing means rent. Stations count. More.',), 'Stations count.', 'Landing means rent.')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from companion.words import catalog as i18n

RULES_DIR = Path(__file__).resolve().parents[2] / "data" / "rules"
#: a heading's topics, written after it: "## Rent {#rent}", "## Buying {#buying #auctions}"
_TOPICS = re.compile(r"\s*\{((?:\s*#[a-z_]+)+)\s*\}\s*$")
#: a sentence's own topics, written before it: "{#rent_station}Stations earn more..."
_MARK = re.compile(r"\{((?:\s*#[a-z_]+)+)\s*\}\s*")
#: the end of a rulebook's sentence: not after "Mr." or "Fr." nor before a figure
#: ("Fr. 1'000.–", "Mr. Monopoly")
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!Mr\.)(?<!Fr\.)\s+(?=\D)")
#: an amount of the board's data: "{money:salary}"
_MONEY = re.compile(r"\{money:([a-z_]+)\}")


@dataclass(frozen=True)
class Section:
    """One heading and its paragraphs."""

    title: str
    paragraphs: tuple[str, ...]
    #: the topics the section is about (the ids money moves' reasons point to)
    topics: tuple[str, ...] = ()
    #: the topics of single sentences: (topic, paragraph index, where the sentence starts)
    marks: tuple[tuple[str, int, int], ...] = ()

    @property
    def anchor(self) -> str:
        """The id of the section on the rules page."""
        return self.topics[0] if self.topics else ""

    def first_sentence(self) -> str:
        """The section's first sentence: a short quote of the rule."""
        text = self.paragraphs[0] if self.paragraphs else ""
        return _SENTENCE_END.split(text, maxsplit=1)[0]

    def about(self, topic: str) -> bool:
        """Whether the section, or one of its sentences, is about a topic."""
        return topic in self.topics or any(t == topic for t, _p, _at in self.marks)

    def quote_about(self, topic: str) -> str:
        """The sentence marked with a topic (the rule itself), else the first sentence."""
        for t, para, at in self.marks:
            if t == topic:
                return _SENTENCE_END.split(self.paragraphs[para][at:], maxsplit=1)[0]
        return self.first_sentence()

    def matches(self, words: list[str]) -> bool:
        """Whether every search word occurs in the section (case-insensitive)."""
        text = " ".join((self.title, *self.paragraphs)).casefold()
        return all(w in text for w in words)


def parse(text: str) -> list[Section]:
    """Sections from a small Markdown subset: "## Title" lines and blank-line paragraphs."""
    sections: list[Section] = []
    title: str | None = None
    topics: tuple[str, ...] = ()
    paras: list[str] = []
    marks: list[tuple[str, int, int]] = []
    current: list[str] = []

    def end_paragraph() -> None:
        if current:
            text, at = "", 0
            for found in _MARK.finditer(" ".join(current)):
                text += found.string[at:found.start()]
                marks.extend((t.lstrip("#"), len(paras), len(text))
                             for t in found.group(1).split())
                at = found.end()
            paras.append(text + " ".join(current)[at:])
            current.clear()

    def end_section() -> None:
        if title is not None:
            sections.append(Section(title, tuple(paras), topics, tuple(marks)))

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("## "):
            end_paragraph()
            end_section()
            heading = stripped[3:]
            found = _TOPICS.search(heading)
            topics = tuple(t.lstrip("#") for t in found.group(1).split()) if found else ()
            title, paras, marks = (heading[:found.start()] if found else heading), [], []
        elif not stripped:
            end_paragraph()
        elif title is not None:
            current.append(stripped)
    end_paragraph()
    end_section()
    return sections


def available(edition_id: str) -> list[str]:
    """The languages a rulebook exists in for this edition."""
    return sorted(p.name.split(".")[1] for p in RULES_DIR.glob(f"{edition_id}.*.md"))


#: the rulebook shown for an edition that has none of its own yet
GENERAL = "classic-eur"


def amounts(text: str, board: str, lang: str) -> str:
    """A book's `{money:field}` amounts written from `board`'s edition data, in its currency
    (an unknown board: the classic one's).

    >>> amounts("A salary of {money:salary}.", "sv", "sv").replace(i18n.NBSP, " ")
    'A salary of Kr 4 000.'
    """
    try:
        edition = i18n.edition_data(board)
    except (KeyError, OSError, ValueError):
        edition = i18n.edition_data(GENERAL)

    def written(found: re.Match[str]) -> str:
        value = edition.get(found.group(1))
        if not isinstance(value, int):
            raise ValueError(f"{board} has no amount {found.group(1)!r} for its rulebook")
        return i18n.format_money(value, edition.get("currency"), lang)

    return _MONEY.sub(written, text)


def rulebook(edition_id: str, lang: str, fallback: str = "en",
             board: str | None = None) -> tuple[str, list[Section]]:
    """(language, sections): the edition's book in `lang`, else in the fallback's language
    (the table's: a Russian phone at a Swedish table reads the Swedish rules as the table
    does); else the classic book in `lang` or the fallback's (a Dutch table playing the Swiss
    edition reads the classic rules in Dutch, the Swiss options listed under the house
    rules: a table speaks one language); else the edition's book in English, then any.
    Its amounts are `board`'s (the edition's own unless said), in its currency."""
    return _rulebook(edition_id, lang, fallback, board or edition_id)


@cache
def _rulebook(edition_id: str, lang: str, fallback: str, board: str) -> tuple[str, list[Section]]:
    own = edition_id if available(edition_id) else GENERAL
    for book, choice in ((own, lang), (own, fallback), (GENERAL, lang), (GENERAL, fallback),
                         (own, "en"), *((own, other) for other in available(own))):
        if choice in available(book):
            path = RULES_DIR / f"{book}.{choice}.md"
            return choice, parse(amounts(path.read_text(encoding="utf-8"), board, choice))
    return "", []


def rules_page(edition_id: str, lang: str, fallback: str = "en") -> tuple[str, list[Section]]:
    """(language, sections) of the phones' rules page: the edition's book, then the classic
    book's sections on what it leaves out (Mega writes only its differences: the page still
    has GO, jail, auctions and trading, which its reasons and lessons link to), in the same
    language."""
    chosen, own = rulebook(edition_id, lang, fallback)
    covered = {t for s in own for t in s.topics}
    _lang, general = rulebook(GENERAL, chosen, fallback, edition_id)
    if general is own:
        return chosen, own
    return chosen, own + [s for s in general if s.topics and not covered & set(s.topics)]


def section_about(edition_id: str, lang: str, topic: str, fallback: str = "en") -> Section | None:
    """The rulebook section on a topic, or with a sentence on it (an edition that only
    writes its differences, like Mega, falls back to the classic book for the others)."""
    for book in (edition_id, GENERAL):
        for section in rulebook(book, lang, fallback, edition_id)[1]:
            if section.about(topic):
                return section
    return None


def cite(edition_id: str, lang: str, topics: tuple[str, ...],
         fallback: str = "en") -> tuple[Section, str] | None:
    """The section and the sentence of the first of `topics` (the most precise first) the
    rulebook has: what a reason quotes as the rule that produced its amount. The edition's
    own book comes first when it is whole (a Swedish game quotes the Swedish rules, in
    kronor, before the classic book's more precise sentence in euros); a book of
    differences (Mega) only for a sentence of its own, its sections' topics being about
    its differences."""
    _lang, own = rulebook(edition_id, lang, fallback)
    _lang, general = rulebook(GENERAL, lang, fallback, edition_id)
    whole = {t for s in general for t in s.topics} <= {t for s in own for t in s.topics}
    for book, precise_only in ((own, not whole), (general, False)):
        for k, topic in enumerate(topics):
            if precise_only and k == len(topics) - 1 and len(topics) > 1:
                continue  # the section's topic, last: not from a book of differences
            for section in book:
                if section.about(topic):
                    return section, section.quote_about(topic)
    return None
