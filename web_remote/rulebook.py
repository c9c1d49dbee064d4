"""The rules page's text: a concise rulebook of our own per edition and language (data
files in templates/rules/), searchable, and the house rules in force from the options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from web_remote.i18n import _

RULES_DIR = Path(__file__).parent / "templates" / "rules"
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


def search(sections: list[Section], query: str) -> list[Section]:
    """The sections containing every word of the query."""
    words = [w.casefold() for w in query.split() if w]
    return [s for s in sections if s.matches(words)] if words else list(sections)


def option_texts() -> dict[str, str]:
    """A phrase per rule option, for the house rules list."""
    return {
        "start_cash": _("Starting cash"),
        "salary": _("Salary for passing GO"),
        "jail_fine": _("Jail fine"),
        "double_salary_on_go": _("Double salary when landing exactly on GO"),
        "double_rent_with_mortgaged_lot": _("A complete group earns double rent even with a "
                                            "mortgaged lot"),
        "mortgage_interest": _("When mortgage interest is paid"),
        "mortgage_interest_percent": _("Mortgage interest (percent)"),
        "mortgage_interest_rounding": _("Interest rounded to a multiple of"),
        "mortgaged_transfer": _("Mortgaged deeds changing hands"),
        "houses_before_hotel": _("Houses before a hotel"),
        "even_building": _("Build and sell evenly"),
        "auctions": _("Declined properties are auctioned"),
        "no_rent_in_jail": _("No rent collected while in jail"),
        "free_parking_pot": _("Taxes and fines go to a Free Parking pot"),
        "free_parking_pot_start": _("The Free Parking pot starts with"),
        "free_parking_exempt_from_collect_cards": _("Free Parking protects from collect cards"),
        "utility_card_rolls_again": _("A card sending you to a utility means a fresh roll"),
        "max_jail_rolls": _("Rolls in jail before the fine is due"),
        "rent_must_be_claimed": _("Rent must be claimed before the next roll"),
        "bank_only": _("Bank-only play (tokens not tracked)"),
        "bankrupt_if_fine_unpayable": _("An unpayable fine or tax means bankruptcy"),
        "mortgaged_bankruptcy_transfer": _("Mortgaged deeds of a bankrupt player"),
        "mortgage_strips_only_lot": _("Mortgaging strips only the lot mortgaged"),
        "utility_rent_fresh_roll": _("Utility rent is rolled afresh"),
        "deal_deeds": _("Deeds dealt at the start"),
        "end_after_bankruptcies": _("The game ends after this many bankruptcies"),
        "time_limit_minutes": _("Time limit (minutes)"),
        "standings_mortgaged": _("Mortgaged deeds count at the end as"),
        "rent_claim_turns": _("Turns of others before an unclaimed rent is lost"),
        "jail_fine_before_rolls": _("The jail fine may be paid before this many rolls"),
        "sell_group_hotels_together": _("All hotels of a group are sold together"),
        "speed_die": _("Speed die (Mega): three dice"),
        "build_with_all_but_one": _("Build with all lots of a group but one"),
        "unbuilt_rent_all_but_one": _("Unbuilt rent with all lots but one (times)"),
        "unbuilt_rent_full_group": _("Unbuilt rent with the whole group (times)"),
    }


def value_text(value: Any) -> str:
    """An option's value for people."""
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    return str(value)


def house_rules(options: dict[str, Any], defaults: dict[str, Any]) -> list[dict[str, Any]]:
    """Every option: its phrase, value, and whether the table changed it from the edition."""
    texts = option_texts()
    return [{"name": k, "text": texts.get(k, k), "value": value_text(v),
             "changed": k in defaults and defaults[k] != v}
            for k, v in options.items()]
