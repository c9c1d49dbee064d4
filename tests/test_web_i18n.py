"""The phones speak the table's one catalog per language (companion/locale, read through
companion.words.catalog): every text the remote's code and templates mark is in it and
translated in all seven languages, plurals take each language's forms, and a sentence the
table screen and a phone both say reads the same on both."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from flask import g
from web_fakes import Phone, open_real_session

import web_remote
from companion.game.api import Source
from companion.screen import texts
from companion.screen.controller import Controller
from companion.words import catalog as i18n
from companion.words.explaining.lesson_texts import LESSONS
from companion.words.explaining.why_texts import WHY
from companion.words.log_texts import LINES
from companion.words.message import Message
from companion.words.move_texts import MOVES
from companion.words.news_texts import NEWS
from companion.words.refusal_texts import SENTENCES
from companion.words.undo_texts import QUESTIONS
from web_remote import create_app
from web_remote.i18n import _, catalog, ngettext

ROOT = Path(__file__).resolve().parent.parent
WEB = Path(web_remote.__file__).parent
BANKER = Source(kind="script", banker=True)
#: the word lists the phones say through companion.words (refusals, undo questions, moves...)
SHARED: tuple[dict[str, Message], ...] = (SENTENCES, QUESTIONS, LINES, MOVES, WHY, LESSONS,
                                          NEWS)


def phone_texts() -> set[str | tuple[str, str]]:
    """Every msgid the remote's Python and templates pass to `_` and `ngettext`, found by
    Babel on its own (not through the catalog's extraction config)."""
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
            WEB, [("**.py", "python"), ("templates/**.html", "jinja2")],
            {"templates/**.html": {"extensions": "jinja2.ext.i18n"}},
            {"_": None, "ngettext": (1, 2)}):
        assert context is None, message
        found.add(message)
    return found


def untranslated(lang: str, context: str | None, msgid: str | tuple[str, str]) -> list[str]:
    """What the compiled catalog of `lang` lacks for one message (fuzzy entries are not
    compiled, so they count as missing): nothing when it is whole."""
    compiled: dict[Any, str] = i18n.translator(lang)._catalog  # type: ignore[attr-defined]
    prefix = f"{context}\x04" if context is not None else ""
    if isinstance(msgid, str):
        return [] if compiled.get(prefix + msgid) else [msgid]
    forms = range(get_plural(lang).num_plurals)  # Polish and Russian have three
    return [f"{msgid[0]} [{n}]" for n in forms if not compiled.get((prefix + msgid[0], n))]


def test_the_phones_texts_are_found() -> None:
    """The check below sees the pages, the banker's tools and the plurals of the templates."""
    found = phone_texts()
    assert {"Rules", "Banker", "Winner: %(name)s"} <= found
    assert ("%(num)d house", "%(num)d houses") in found
    assert len(found) > 300


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_phone_text_is_translated_in_the_one_catalog(lang: str) -> None:
    missing = [m for msgid in phone_texts() for m in untranslated(lang, None, msgid)]
    assert missing == [], f"{lang}: translate in companion/locale/{lang}/LC_MESSAGES/companion.po"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_shared_sentence_is_translated_in_the_one_catalog(lang: str) -> None:
    missing = [m for listed in SHARED for message in listed.values()
               for m in untranslated(lang, message.id, message.text if message.plural is None
                                     else (message.text, message.plural))]
    assert missing == [], lang


def test_there_is_one_catalog_per_language_and_the_phones_read_it() -> None:
    catalogs = sorted(p.relative_to(ROOT).as_posix() for top in ("companion", "hardware",
                      "web_remote") for p in (ROOT / top).glob("**/*.po"))
    assert catalogs == sorted(f"companion/locale/{lang}/LC_MESSAGES/companion.po"
                              for lang in i18n.LANGUAGES)
    assert not (WEB / "translations").exists()
    for lang in i18n.LANGUAGES:
        assert catalog(lang) is i18n.translator(lang)
    assert catalog("fr").gettext("Rules") == "Règles"
    assert catalog("en").gettext("Rules") == "Rules"
    assert catalog("xx") is i18n.translator("en")


def test_a_phone_says_plurals_in_its_languages_forms(app: Any) -> None:
    houses = ("%(num)d house", "%(num)d houses")
    with app.test_request_context("/"):
        g.lang = "ru"
        said = [ngettext(*houses, n) for n in (1, 2, 5, 21)]
        assert said == ["1 дом", "2 дома", "5 домов", "21 дом"]
        assert [s.english for s in said] == ["1 house", "2 houses", "5 houses", "21 houses"]
        g.lang = "fr"
        assert (ngettext(*houses, 0), ngettext(*houses, 2)) == ("0 maison", "2 maisons")
        assert _("Winner: %(name)s", name="Ann") == "Gagnant : Ann"
        assert _("Winner: %(name)s", name="Ann").english == "Winner: Ann"


#: screen messages whose English a phone also shows, in another role that needs other words
OTHER_ROLES = {
    "reg_act_back": "one card back in the registration run, not leaving a page",
    "rule_free_parking_pot": "a house rule's name; the phone's is a money move's reason",
    "hr_free_parking_pot": "a house rule's name; the phone's is a money move's reason",
    "menu_mortgage": "a menu entry: take out a mortgage",
    "creditor_bank": "after \"owes ... to\": German dative, Polish genitive",
    "act_cancel": "the phone's Cancel leaves the going-back page: French \"Ne pas revenir\"",
}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_word_on_the_screen_and_a_phone_reads_the_same(lang: str) -> None:
    """The card registration, the auction, the speed die...: where the screen (a message
    with an id) and a phone (a plain msgid) show the same English in the same role, the
    translation is the same."""
    tr = i18n.translator(lang)
    phone = {m for m in phone_texts() if isinstance(m, str)}
    differ = [(m.id, tr.pgettext(m.id, m.text), tr.gettext(m.text))
              for m in texts.MESSAGES.values() if m.plural is None and m.text in phone
              and m.id not in OTHER_ROLES and tr.pgettext(m.id, m.text) != tr.gettext(m.text)]
    assert differ == []


@pytest.fixture
def dummy_screen() -> Iterator[None]:
    """Dummy SDL; the screen's language restored after the test."""
    saved = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    language = texts.language()
    yield
    texts.use_language(language)
    if saved is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = saved


@pytest.mark.usefixtures("dummy_screen")
def test_a_refusal_reads_the_same_in_french_on_the_screen_and_a_phone(tmp_path: Path) -> None:
    """Ann, short of money on Avenue de la République, taps Buy on her phone and presses Buy at
    the table: both say the one French sentence, money as the edition writes it."""
    session = open_real_session(tmp_path / "game", ("Ann", "Bo"), seed=1)
    app = create_app(session, tmp_path / "game", {"banker_pin": "2468"})
    try:
        cash = session.state()["players"][0]["cash"]
        assert session.submit({"do": "pay", "from": "Ann", "to": "bank",
                               "amount": cash - 50}, BANKER).accepted
        assert session.submit({"do": "roll", "by": "Ann", "dice": [4, 5]}, BANKER).accepted
        expected = ("Ann n’a pas les moyens d’acheter Avenue de la République : "
                    "il faut € 120, € 50 en main")
        ann = Phone(app)
        ann.join("player:Ann")
        ann.client.get("/lang/fr")
        refused = ann.command({"do": "buy"})
        assert refused.status_code == 422
        phone = refused.get_json()["message"]
        assert phone.replace(i18n.NBSP, " ") == expected
        controller = Controller(session, data_dir=tmp_path, language="fr")
        outcome = controller.submit({"do": "buy", "by": "Ann"}, "keyboard")
        assert outcome is not None and outcome.code == "insufficient_funds"
        message = controller.ui.message
        assert message is not None and message.kind == "refused"
        assert message.text == f"Refusé\u00a0: {phone}"  # a no-break space before the colon
    finally:
        app.extensions["web_remote"].close()
        session.close()
