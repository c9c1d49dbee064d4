"""What UNDO would take back, asked in the table's language before it does.

The game session knows the command an undo would revert (`undo_target()`: the journal entry
of that command, with the events it had). `describe_undo` turns that entry into one
question, "Undo: Ann bought Rue de la Paix?", "Undo Bo's roll (3 + 4)?", so that the table
screen (in the screen's language) and the banker's phone (in its own) name the move before
it is undone. Like companion.words.refusals, the caller passes its own catalog's `pgettext`; the
questions are in companion/words/undo_texts.py, in the one catalog per language. The facts
(who, which square, how much) are read by companion.words.move_facts, which the phone's list of
the latest moves (companion.words.move_words) shares.

Square names come from the edition in the asked language, amounts are written as the
edition writes its money. When a question needs a fact the entry does not carry (or the
command is unknown, or a translation is broken), a plainer question is asked: "Undo Bo's
last move?", else "Undo the last move?". Never a raw template, never an exception.

>>> from companion.words import catalog as i18n
>>> from companion.game.table.records import Setup
>>> setup = Setup("classic-eur", i18n.edition_data("classic-eur")["currency"], {})
>>> entry = {"command": {"do": "buy"}, "events": [
...     {"kind": "bought", "player": "Ann", "square": 39, "price": 400}]}
>>> describe_undo(entry, setup, "en", lambda _ctx, text: text)
'Undo: Ann bought Rue de la Paix?'
>>> describe_undo({"command": {"do": "roll", "dice": [3, 4]}, "events": [
...     {"kind": "rolled", "player": "Bo", "dice": [3, 4], "double": False}]}, setup, "sv",
...     i18n.translator("sv").pgettext)
'Ångra kastet av Bo (3 + 4)?'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from companion.game.table.records import Setup
from companion.words.move_facts import actor, dice_text, facts
from companion.words.undo_texts import QUESTIONS

log = logging.getLogger(__name__)

#: a catalog's pgettext: (message context, English text) -> the text in its language
Gettext = Callable[[str, str], str]
JSON = dict[str, Any]


def describe_undo(entry: Mapping[str, Any] | None, setup: Setup,
                  lang: str, gettext: Gettext) -> str:
    """The question to ask before undoing `entry` (a journal entry: "command", "events",
    "source"), in `lang` (`gettext`: the pgettext of a catalog in `lang`; `setup`: the table
    view's, for the edition's square names and money). Without an entry (nothing
    known to undo), the plain "Undo the last move?"."""
    msg_id, fields = question(entry, setup, lang, gettext)
    said = _say(msg_id, fields, gettext)
    if said is None and entry:  # a broken translation: the plainer question
        player = actor(entry)
        msg_id, fields = ("undo_last_player", {"player": player}) if player \
            else ("undo_last", {})
        said = _say(msg_id, fields, gettext)
    return said or QUESTIONS[msg_id].text.format(**fields)


def question(entry: Mapping[str, Any] | None, setup: Setup, lang: str,
             gettext: Gettext) -> tuple[str, dict[str, str]]:
    """(message id, fields) of the question for `entry`: its command's own question when
    the entry has the facts, else "undo_last_player" (who made the move), else
    "undo_last"."""
    if not entry:
        return "undo_last", {}
    try:
        variant, fields = facts(entry, setup, lang, gettext)
        msg_id = f"undo_{variant}" if variant is not None else None
        if msg_id not in QUESTIONS:
            msg_id = None
    except LookupError:
        msg_id, fields = None, {}
    except Exception:  # noqa: BLE001 - odd facts (a string amount) must not break a screen
        log.exception("undo question: cannot read %r", entry)
        msg_id, fields = None, {}
    if msg_id is not None:
        return msg_id, fields
    player = actor(entry)
    if player:
        return "undo_last_player", {"player": player}
    return "undo_last", {}


def _say(msg_id: str, fields: Mapping[str, str], gettext: Gettext) -> str | None:
    """The question `msg_id` from the catalog, filled in; None when the translation is
    broken (a placeholder it does not have, braces left over)."""
    template = gettext(msg_id, QUESTIONS[msg_id].text)
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        log.warning("undo question %s: broken translation %r", msg_id, template)
        return None


__all__ = ["Gettext", "actor", "describe_undo", "dice_text", "question"]
