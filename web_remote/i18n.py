"""`_()`: every UI string goes through here; each phone picks its language (a cookie).

The words are the table companion's one catalog per language (companion.words.catalog:
companion/locale/<lang>/LC_MESSAGES/companion.po, the same the table screen reads), so a
sentence the screen and the phones both say is written once. English is the source language.
A translated text remembers its English source (`Said.english`), so that a refusal can be
logged in English while the phone reads it in its own language. Refusals of the game
(engine and session codes with their params) are said by `say_refusal`, with the
sentences of companion.words.refusals, the undo question by `say_undo`, with those of
companion.words.undo_questions, the moves of the Table page's "Latest" list by `say_moves` and
the History page's events by `say_events`, with those of companion.words.move_words.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from typing import Any

from flask import g, has_request_context, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from companion import power
from companion.game.table.records import DrawnCard, Setup, Turn, seats
from companion.speech.spoken import spoken_for
from companion.words import catalog as words
from companion.words.catalog import translator
from companion.words.move_words import MoveSaid, Words, describe_move, event_line
from companion.words.news import (
    CardNews,
    Headline,
    MyNews,
    NewsLines,
    card_news,
    headline,
    my_news,
)
from companion.words.refusals import describe_refusal
from companion.words.undo_questions import describe_undo

#: the catalog's languages, each named in itself for the phone's language menu
LANGUAGES: dict[str, str] = words.LANGUAGE_NAMES
DEFAULT = words.SOURCE_LANGUAGE
COOKIE = "lang"
#: the players' news lines as said before, for every app (each kept with what it was said
#: from, so shared safely)
NEWS_LINES = NewsLines()


def catalog(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of a language: the table screen's own (unknown: English),
    looked up once per language (a page asks for it for every sentence it says)."""
    found = _CATALOGS.get(lang)
    if found is None:
        found = translator(lang)
        if lang in LANGUAGES:
            _CATALOGS[lang] = found
    return found


_CATALOGS: dict[str, gettext.GNUTranslations] = {}


def pick_language(table: Callable[[], str] | None = None, default: str = DEFAULT) -> str:
    """The request's language: the one its owner picked on the phone (a cookie), else the
    table's (one language per table: a phone that picked none reads what the screen says),
    else the browser's preference, else the default."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    spoken = table() if table is not None else ""
    if spoken in LANGUAGES:
        return spoken
    return _preferred(request.headers.get("Accept-Language", "")) or default


@functools.lru_cache(maxsize=64)  # a phone sends the same header with every request
def _preferred(header: str) -> str | None:
    """The catalog's language a browser's Accept-Language header prefers (None: none)."""
    if not header:
        return None
    found = parse_accept_header(header, LanguageAccept).best_match(list(LANGUAGES))
    return str(found) if found else None


def current_language() -> str:
    """The language of the request being served (English outside requests)."""
    if has_request_context():
        lang = g.get("lang")
        if isinstance(lang, str):
            return lang
    return DEFAULT


class Said(str):
    """A text in the phone's language that remembers its English source (`english`)."""

    english: str

    def __new__(cls, text: str, english: str) -> Said:
        said = super().__new__(cls, text)
        said.english = english
        return said


def _(text: str, **values: Any) -> Said:
    """Translate `text` for the current phone; `%(name)s` placeholders take `values`."""
    out = catalog(current_language()).gettext(text)
    if values:
        return Said(out % values, text % values)
    return Said(out, text)


def say_refusal(code: str | None, params: dict[str, Any] | None, message: str | None,
                state: dict[str, Any] | None) -> str:
    """A refusal of the game (code, params, the engine's English message) in the current
    phone's language, square names and money as the state's edition writes them."""
    lang = current_language()
    return describe_refusal(code, params, message, state, lang, catalog(lang).pgettext)


def say_undo(entry: dict[str, Any] | None, state: dict[str, Any] | None) -> str | None:
    """The question asked before the banker's Undo acts, naming the move it takes back
    (`entry`: the session's `undo_target()`), in the current phone's language; None when
    there is nothing to undo."""
    if entry is None:
        return None
    lang = current_language()
    return describe_undo(entry, Setup.of(state or {}), lang, catalog(lang).pgettext)


def say_moves(entries: list[dict[str, Any]], state: dict[str, Any] | None,
              targets: list[dict[str, Any]] | None = None) -> list[MoveSaid]:
    """Journal entries as sentences in the current phone's language, each with the lines of
    what else happened and whether it stands undone (`targets`: more of the journal, where
    an undo finds the move it took back)."""
    lang = current_language()
    known = {int(e["seq"]): e for e in [*(targets or []), *entries] if "seq" in e}
    return [describe_move(e, Setup.of(state or {}), lang, catalog(lang), known) for e in entries]


def say_events(events: list[dict[str, Any]], state: dict[str, Any] | None) -> list[str | None]:
    """Engine events as the lines the table screen's "Last moves" panel and the moves'
    lists say them (companion.words.move_words.event_line), in the current phone's language:
    the History page's moves and buildings. None for an event that is not told (a bus
    ticket expiry that took none)."""
    lang = current_language()
    words = Words(Setup.of(state or {}), lang, catalog(lang))
    return [None if e.get("kind") == "bus_tickets_expired" and not e.get("count")
            else event_line(e, words) for e in events]


def say_news(state: dict[str, Any], player: str | None,
             items: list[dict[str, Any]] | None = None, spoken: bool = False) -> dict[str, Any]:
    """The news of companion.words.news in the current phone's language: "headline" (whose
    turn, doubles, jail, the winner), "card" (the card that is news, with its drawer),
    "standings" (a counted game's wealth, richest first) and, given the session's news
    `items` of `player` not seen yet (newest first), "mine" (companion.words.news.MyNews:
    the newest lines with their keys, how many earlier moves hold more, and their keys), and,
    when `spoken` (a phone whose own voice is on), "say": each of those lines as that voice
    reads it aloud, by key (the amounts spoken as the language says them,
    companion.speech.spoken, as the table's voice does; twice the work of the lines)."""
    lang = current_language()
    words = Words(Setup.of(state or {}), lang, catalog(lang))
    head: Headline | None = headline(Turn.of(state or {}), seats(state or {}), player, words)
    card: CardNews | None = card_news(DrawnCard.of(state or {}), Turn.of(state or {}).winner,
                                      words)
    mine = my_news(items, player, words, kept=NEWS_LINES) if items and player else MyNews()
    say = dict(my_news(items, player, spoken_for(state or {}, lang), kept=NEWS_LINES).lines) \
        if spoken and items and player and mine.lines else {}
    standings = [{"name": row.get("name"), "total": words.money(row.get("total"))}
                 for row in state.get("standings") or []]
    return {"headline": head, "card": card, "mine": mine, "say": say,
            "standings": standings, "player": player}


def say_warnings(shown: dict[str, str]) -> list[dict[str, Any]]:
    """The table's hardware warnings in the current phone's language, the screen's own
    sentences (`warn_<code>` in the one catalog; a code without one says its English):
    each a page may show (companion.power's, and any shown now) with whether it is shown."""
    said = catalog(current_language())
    known = {**power.MESSAGES, **shown}
    return [{"code": code, "text": said.pgettext(f"warn_{code}", english),
             "shown": code in shown} for code, english in sorted(known.items())]


def ngettext(singular: str, plural: str, n: int, **values: Any) -> Said:
    """Plural-aware `_`; `n` is available as `%(num)d`. Remembers its English like `_`."""
    out = catalog(current_language()).ngettext(singular, plural, n)
    values = {"num": n, **values}
    return Said(out % values, (singular if n == 1 else plural) % values)


def trades_said(items: list[dict[str, Any]], state: dict[str, Any]) -> list[dict[str, Any]]:
    """Trade proposals with the reason a failed accept was refused (`error`) in the current
    phone's language (companion.game.table.offers keeps its code, params and English message)."""
    return [dict(item, error=say_refusal(item.get("error_code"), item.get("error_params"),
                                         item.get("error"), state))
            if item.get("error") else item for item in items]
