"""The remote's translations: the template catalog is up to date with the code (and with the
refusal sentences of companion/words/refusal_texts.py, the undo questions of
companion/words/undo_texts.py, the recent-moves lines of companion/words/log_texts.py and
the move sentences of companion/words/move_texts.py), each of the seven languages parses,
keeps every placeholder, and translates every string (pages, banker page, error messages,
refusals, plurals in every form), none of them left fuzzy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

import companion.words.explaining.lesson_texts
import companion.words.explaining.why_texts
import companion.words.log_texts
import companion.words.move_texts
import companion.words.news_texts
import companion.words.refusal_texts
import companion.words.undo_texts
import web_remote
from web_remote.i18n import LANGUAGES, TRANSLATIONS, catalog

ROOT = Path(web_remote.__file__).parent
KEYWORDS = {"_": None, "ngettext": (1, 2)}
METHOD_MAP = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
OPTIONS = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")
#: the refusal sentences shared with the table screen (message context: their id)
REFUSALS = Path(companion.words.refusal_texts.__file__)
#: the undo questions shared with the table screen (message context: their id)
UNDO_QUESTIONS = Path(companion.words.undo_texts.__file__)
#: the recent-moves lines shared with the table screen, and the phone's move sentences
LOG_LINES = Path(companion.words.log_texts.__file__)
MOVES = Path(companion.words.move_texts.__file__)
#: why each money move was its amount (companion.rules.events.Why), shared with the screen
WHY = Path(companion.words.explaining.why_texts.__file__)
#: the teaching table's lessons, shared with the screen
LESSONS = Path(companion.words.explaining.lesson_texts.__file__)
#: the news told to each person, shared with the table screen
NEWS = Path(companion.words.news_texts.__file__)
SHARED = (REFUSALS, UNDO_QUESTIONS, LOG_LINES, MOVES, WHY, LESSONS, NEWS)
REFUSAL_KEYWORDS = {"_t": ((1, "c"), 2), "_n": ((1, "c"), 2, 3)}
COMMAND = ("pybabel extract -F web_remote/babel.cfg -k _ -k ngettext:1,2 -k _t:1c,2 "
           "-k _n:1c,2,3 --no-location --omit-header --sort-output "
           "-o web_remote/translations/messages.pot web_remote "
           "companion/words/refusal_texts.py companion/words/undo_texts.py "
           "companion/words/log_texts.py companion/words/move_texts.py "
           "companion/words/explaining/why_texts.py "
           "companion/words/explaining/lesson_texts.py "
           "companion/words/news_texts.py")


def _msgid(message: object) -> str:
    return message if isinstance(message, str) else message[0]  # type: ignore[index]


def extracted(only: list[str] | None = None) -> set[tuple[str | None, str]]:
    """(context, msgid) of every string of the remote's sources and of the refusals."""
    found = set()
    for filename, _line, message, _comments, ctx in extract_from_dir(
            ROOT, METHOD_MAP, OPTIONS, KEYWORDS):
        if only is None or any(filename == f"templates/{name}" for name in only):
            found.add((ctx, _msgid(message)))
    if only is None:
        for shared in SHARED:
            for _line, message, _comments, ctx in extract_from_file(
                    "python", shared, REFUSAL_KEYWORDS):
                found.add((ctx, _msgid(message)))
    return found


def pot_ids() -> set[tuple[str | None, str]]:
    with (TRANSLATIONS / "messages.pot").open("rb") as fh:
        return {(m.context, _msgid(m.id)) for m in read_po(fh) if m.id}


def test_template_catalog_is_up_to_date() -> None:
    assert extracted() == pot_ids(), f"run: {COMMAND}"


def test_every_refusal_sentence_is_in_the_template() -> None:
    from companion.words.refusal_texts import SENTENCES

    assert {(m.id, m.text) for m in SENTENCES.values()} <= pot_ids()


def test_every_undo_question_is_in_the_template() -> None:
    from companion.words.undo_texts import QUESTIONS

    assert {(m.id, m.text) for m in QUESTIONS.values()} <= pot_ids()


def test_every_move_sentence_and_line_is_in_the_template() -> None:
    from companion.words.move_words import WORDS

    assert {(m.id, m.text) for m in WORDS.values()} <= pot_ids()


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_catalog_keeps_placeholders_and_translates_everything(lang: str) -> None:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        po = read_po(fh, locale=lang)
    translated = {}
    for m in po:
        if not m.id:
            continue
        assert not m.fuzzy, (lang, m.id)
        if not m.string:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        if len(ids) > 1:  # every plural form of the language is written
            assert len(strings) == po.num_plurals, (lang, m.id)
        for s in strings:
            assert s, (lang, m.id)
            assert set(PLACEHOLDER.findall(s)) == set(PLACEHOLDER.findall(ids[-1])), (lang, s)
        translated[(m.context, _msgid(m.id))] = strings[0]
    missing = extracted() - set(translated)
    assert not missing, f"{lang}: untranslated: {sorted(missing)}"


def test_catalogs_compile_and_translate() -> None:
    assert catalog("fr").gettext("Rules") == "Règles"
    assert catalog("ru").ngettext("%(num)d house", "%(num)d houses", 5) == "%(num)d домов"
    assert catalog("en").gettext("Rules") == "Rules"
