"""A lesson of the teaching table in words: its two sentences in the caller's language and
the rulebook section it stands in (companion.words.explaining.rulebook), for the screen and
the phones.

>>> from companion.words import catalog as i18n
>>> from companion.game.table.records import Setup
>>> setup = Setup("classic-eur", i18n.edition_data("classic-eur")["currency"], {"jail_fine": 50})
>>> said = say_lesson({"topic": "jail", "player": "Bo"}, setup, "en", i18n.translator("en"))
>>> said.text.replace(i18n.NBSP, " ")
'Bo is in jail. Leave by paying € 50, using a Get Out of Jail Free card or rolling a double.'
>>> said.where, said.anchor
('Rules: Jail', 'jail')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game.table.records import Setup
from companion.words.explaining import rulebook
from companion.words.move_words import Catalog, Words

#: the rulebook section each lesson's rule is in (a topic of companion/data/rules/*.md)
SECTION = {"go": "go", "doubles": "turn", "rent": "rent", "station_rent": "rent",
           "utility_rent": "rent", "tax": "taxes", "card": "cards", "jail": "jail",
           "full_group": "rent", "building": "buildings", "shortage": "buildings",
           "mortgage": "mortgages", "auction": "auctions", "trade": "trading",
           "debt": "debts", "bankrupt": "debts"}


@dataclass(frozen=True)
class LessonSaid:
    """A lesson in words: the badge ("New rule"), its two sentences, where it stands in the
    rules ("Rules: Jail") and the section's id on the rules page ("" when not found)."""

    badge: str
    text: str
    where: str
    anchor: str


def say_lesson(lesson: Mapping[str, Any], setup: Setup, lang: str,
               catalog: Catalog) -> LessonSaid | None:
    """A lesson of the state JSON's `teaching.lessons`, said with the game's setup (the
    table view's: edition, money, rule options); None for an unknown topic."""
    topic = str(lesson.get("topic", ""))
    msg_id = f"lesson_{topic}"
    if topic not in SECTION:
        return None
    words = Words(setup, lang, catalog)
    options = setup.options
    text = words.say(msg_id, player=lesson.get("player") or "",
                     salary=words.money(options.get("salary", 0)),
                     fine=words.money(options.get("jail_fine", 0)),
                     houses=options.get("houses_before_hotel", 4))
    if text is None:
        return None
    section = rulebook.section_about(setup.edition or rulebook.GENERAL, lang,
                                     SECTION[topic], lang)  # else the classic book in lang
    where = words.say("lesson_where", section=section.title) if section is not None else None
    return LessonSaid(words.say("lesson_badge") or "", text, where or "",
                      section.anchor if section is not None else "")
