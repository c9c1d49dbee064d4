"""What the rules say to the phones: why each money move was its amount (the engine's
reason said in the phone's language, companion.words.explaining.why_words, with a short
quote of the rulebook section it comes from and a link to it on the rules page), and the
teaching table's lesson of the move just made (companion.words.explaining.lessons)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.game.table.records import Setup
from companion.words.explaining.lessons import say_lesson
from companion.words.explaining.why_words import citations, explain
from companion.words.move_words import Words
from web_remote import rulebook
from web_remote.context import remote
from web_remote.i18n import catalog, current_language

JSON = dict[str, Any]


def reason(event: Mapping[str, Any], state: Mapping[str, Any]) -> JSON | None:
    """A transfer's or debt's reason for a phone: "text", and "title", "quote", "anchor"
    of the rule it comes from when the rulebook has it; None when the event has no reason."""
    lang = current_language()
    text = explain(event, Words(Setup.of(state), lang, catalog(lang)))
    if text is None:
        return None
    out: JSON = {"text": text}
    cited = rulebook.cite(str(state.get("edition", rulebook.GENERAL)), lang, citations(event),
                          remote().table_language.spoken() or lang)
    if cited is not None:
        section, quote = cited
        out.update(title=section.title, quote=quote, anchor=section.anchor)
    return out


def move_reasons(entry: Mapping[str, Any], state: Mapping[str, Any]) -> list[JSON]:
    """The reasons of every money move of a journal entry, in order."""
    out = []
    for event in entry.get("events") or []:
        if event.get("kind") in ("transfer", "debt"):
            said = reason(event, state)
            if said is not None:
                out.append(said)
    return out


def lesson_for(state: Mapping[str, Any], player: str | None) -> JSON | None:
    """The teaching table's lesson of the state's move for a phone
    (companion.game.telling.teaching): one concerning `player` or the whole table (any
    lesson when `player` is None: the Table page); "badge", "text", "where", "anchor";
    None when there is none."""
    teaching = state.get("teaching")
    if not isinstance(teaching, Mapping):
        return None
    lang = current_language()
    for lesson in teaching.get("lessons") or []:
        if player is not None and lesson.get("player") not in (player, None):
            continue
        said = say_lesson(lesson, Setup.of(state), lang, catalog(lang))
        if said is not None:
            return {"badge": said.badge, "text": said.text, "where": said.where,
                    "anchor": said.anchor}
    return None
