"""Our own concise rulebook per edition and language (data files in companion/data/rules/:
`## Title {#topic ...}` headings and blank-line paragraphs), read into sections that the
phones' rules page lists and searches, and that a money move's reason or a lesson of the
teaching table points to by topic (the screen names the section, a phone links to it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[2] / "data" / "rules"
#: a heading's topics, written after it: "## Rent {#rent}", "## Buying {#buying #auctions}"
_TOPICS = re.compile(r"\s*\{((?:\s*#[a-z_]+)+)\s*\}\s*$")
#: the end of a rulebook's first sentence
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


@dataclass(frozen=True)
class Section:
    """One heading and its paragraphs."""

    title: str
    paragraphs: tuple[str, ...]
    #: the topics the section is about (the ids money moves' reasons point to)
    topics: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """The id of the section on the rules page."""
        return self.topics[0] if self.topics else ""

    def first_sentence(self) -> str:
        """The section's first sentence: a short quote of the rule."""
        text = self.paragraphs[0] if self.paragraphs else ""
        return _SENTENCE_END.split(text, maxsplit=1)[0]

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
    current: list[str] = []

    def end_paragraph() -> None:
        if current:
            paras.append(" ".join(current))
            current.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("## "):
            end_paragraph()
            if title is not None:
                sections.append(Section(title, tuple(paras), topics))
            heading = stripped[3:]
            found = _TOPICS.search(heading)
            topics = tuple(t.lstrip("#") for t in found.group(1).split()) if found else ()
            title, paras = (heading[:found.start()] if found else heading), []
        elif not stripped:
            end_paragraph()
        elif title is not None:
            current.append(stripped)
    end_paragraph()
    if title is not None:
        sections.append(Section(title, tuple(paras), topics))
    return sections


def available(edition_id: str) -> list[str]:
    """The languages a rulebook exists in for this edition."""
    return sorted(p.name.split(".")[1] for p in RULES_DIR.glob(f"{edition_id}.*.md"))


#: the rulebook shown for an edition that has none of its own yet
GENERAL = "classic-eur"


@cache
def rulebook(edition_id: str, lang: str, fallback: str = "en") -> tuple[str, list[Section]]:
    """(language, sections): the phone's language when written, else the fallback's; an
    edition without a rulebook of its own shows the classic one (its options are listed
    under the house rules)."""
    book = edition_id if available(edition_id) else GENERAL
    langs = available(book)
    for choice in (lang, fallback, "en", *langs):
        if choice in langs:
            path = RULES_DIR / f"{book}.{choice}.md"
            return choice, parse(path.read_text(encoding="utf-8"))
    return "", []


def section_about(edition_id: str, lang: str, topic: str, fallback: str = "en") -> Section | None:
    """The rulebook section on a topic (an edition that only writes its differences, like
    Mega, falls back to the classic book for the others)."""
    for book in (edition_id, GENERAL):
        for section in rulebook(book, lang, fallback)[1]:
            if topic in section.topics:
                return section
    return None
