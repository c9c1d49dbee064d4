"""Languages: catalogs complete and compiled, plurals right, money as each edition writes it,
the editions' localized names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from companion.screen import texts
from companion.words import catalog as i18n
from companion.words.news_texts import NEWS
from companion.words.refusal_texts import SENTENCES
from companion.words.undo_texts import QUESTIONS

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ROOT / "companion" / "data" / "editions"
TRANSLATED = tuple(lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE)


def read_catalog(lang: str) -> Catalog:
    with i18n.po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=i18n.DOMAIN)


def currency(edition: str) -> dict[str, object]:
    data = json.loads((EDITIONS / f"{edition}.json").read_text(encoding="utf-8"))
    block: dict[str, object] = data["currency"]
    return block


# --- money ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "amount", "written"), [
    ("sv", 30000, "Kr 30 000"),
    ("ch", 30000, "Fr. 30'000.–"),
    ("classic-eur", 1500, "€ 1.500"),
    ("classic-en", 1500, "€1,500"),
    ("pl", 1500, "1 500 zł"),
    ("ru-monopolist", 1500, "М1500"),
    ("ru-monopolist", 15000, "М15 000"),
    ("ru-monopolist", 200, "М200"),
    ("classic-eur", 1234567, "€ 1.234.567"),
    ("ch", -4000, "−Fr. 4'000.–"),
    ("sv", 0, "Kr 0"),
])
def test_money_is_written_as_the_edition_writes_it(edition: str, amount: int,
                                                   written: str) -> None:
    for lang in i18n.LANGUAGES:  # the edition's form wins whatever the screen speaks
        shown = i18n.format_money(amount, currency(edition), lang)
        assert shown.replace("\u00a0", " ") == written
        assert " " not in shown, "no breakable space inside an amount"


#: every edition's 1 500 and its debt of 1 500, as the edition's own money reads
EVERY_EDITION = {
    "ch": ("Fr. 1'500.–", "−Fr. 1'500.–"),
    "classic-en": ("€1,500", "−€1,500"),
    "classic-eur": ("€ 1.500", "−€ 1.500"),
    "mega": ("€ 1.500", "−€ 1.500"),
    "pl": ("1 500 zł", "−1 500 zł"),
    "ru-monopolist": ("М1500", "−М1500"),
    "sv": ("Kr 1 500", "−Kr 1 500"),
}


@pytest.mark.parametrize("edition", sorted(p.stem for p in EDITIONS.glob("*.json")))
def test_every_editions_money_and_debt_with_a_real_minus_sign(edition: str) -> None:
    """One formatter for people (companion.words.catalog.format_money) for each edition's
    currency; the screen's `money` is that formatter in the screen's language."""
    from companion.screen.money import money

    plus, minus = EVERY_EDITION[edition]  # a new edition must be added here
    for lang in i18n.LANGUAGES:
        assert i18n.format_money(1500, currency(edition), lang).replace("\u00a0", " ") == plus
        debt = i18n.format_money(-1500, currency(edition), lang)
        assert debt.replace("\u00a0", " ") == minus
        assert debt.startswith("\u2212") and "-" not in debt
    assert money(-1500, currency(edition)).replace("\u00a0", " ") == minus


def test_the_terminal_table_writes_money_with_the_words_formatter() -> None:
    from companion.game.applying import apply_command
    from companion.rules import Accepted
    from companion.words.table_text import render_table

    result = apply_command(None, {"do": "new_game", "edition": "ch", "players": ["Ann", "Bo"],
                                  "seed": 1})
    assert isinstance(result, Accepted)
    table = render_table(result.state)
    cash = result.state.players[0].cash
    assert i18n.format_money(cash, currency("ch")) in table
    assert "Fr.\u00a0" in table and ".–" in table


def test_money_without_a_pattern_falls_back_to_babel() -> None:
    assert i18n.format_money(1500, {"code": "EUR"}, "de").replace("\u00a0", " ") == "1.500 €"
    assert i18n.format_money(-1500, {"code": "SEK"}, "sv").startswith(i18n.MINUS)
    assert i18n.format_money(1500, None, "en") == "1,500"


def test_signed_amount_groups_like_the_edition() -> None:
    assert i18n.signed_amount(-1400, currency("sv")) == "\u22121\u00a0400"
    assert i18n.signed_amount(1400, currency("ru-monopolist")) == "+1400"
    assert i18n.signed_amount(12000, currency("ch")) == "+12'000"


def test_numbers_that_are_not_money_follow_the_language() -> None:
    assert i18n.format_number(1500000, "en") == "1,500,000"
    assert i18n.format_number(1500000, "de") == "1.500.000"
    assert i18n.format_number(1500000, "ru").replace("\u00a0", " ") == "1 500 000"


# --- editions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "language"), [
    ("sv", "sv"), ("ch", "fr"), ("classic-eur", "fr"), ("classic-en", "en"), ("pl", "pl"),
    ("ru-monopolist", "ru"), ("no-such-edition", "en"),
])
def test_each_edition_defaults_to_its_own_language(edition: str, language: str) -> None:
    assert i18n.default_language(edition) == language


def test_an_edition_in_a_language_without_catalog_defaults_to_english() -> None:
    assert i18n.default_language({"language": "fi"}) == "en"
    assert i18n.default_language({}) == "en"


def test_localized_names_come_from_the_edition() -> None:
    assert i18n.localized_name("ch", "gare-de-zurich", "de") == "Hauptbahnhof Zürich"
    assert i18n.localized_name("ch", "gare-de-zurich", "fr") == "Gare de Zurich"
    assert i18n.localized_name("classic-eur", "boulevard-de-belleville", "nl") == \
        "Dorpsstraat, Ons Dorp"
    assert i18n.localized_name("classic-eur", "boulevard-de-belleville", "sv") == \
        "Boulevard de Belleville"
    assert i18n.localized_name("classic-eur", "chance-go", "nl").startswith("Ga naar START")
    assert i18n.localized_name("classic-eur", "community_chest", "nl") == "Algemeen Fonds"
    assert i18n.localized_name("ch", "ch", "de") == "Monopoly — Schweizer Ausgabe"
    with pytest.raises(KeyError):
        i18n.localized_name("ch", "no-such-square", "de")


@pytest.mark.parametrize("path", sorted(EDITIONS.glob("*.json")), ids=lambda p: p.stem)
def test_every_localized_name_belongs_to_the_edition(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    for lang, block in (data.get("localized") or {}).items():
        assert lang in i18n.LANGUAGES
        for section in ("squares", "cards", "decks", "groups"):
            for key, name in (block.get(section) or {}).items():
                assert i18n.localized_name(data, key, lang) == name


@pytest.mark.parametrize("path", sorted(EDITIONS.glob("*.json")), ids=lambda p: p.stem)
def test_every_card_deck_and_group_is_written_in_all_seven_languages(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    blocks = data.get("localized") or {}
    for lang in i18n.LANGUAGES:
        if lang == data["language"]:
            continue  # the edition's own words
        block = blocks.get(lang) or {}
        for deck_id, deck in data["decks"].items():
            assert block["decks"][deck_id], (lang, deck_id)
            for card in deck["cards"]:
                text = block["cards"][card["id"]]
                assert text and text != card["text"], (lang, card["id"])
                for key in ("amount", "house", "hotel", "skyscraper"):  # amounts kept as printed
                    if key in card:
                        digits = "".join(ch for ch in str(abs(card[key])))
                        assert digits in text.replace("'", "").replace(" ", "").replace(".", "")
        assert set(block["groups"]) == set(data["groups"]), lang
        assert block["name"] and block["name"] != data["name"], lang


def test_the_card_texts_are_made_by_the_tool_and_up_to_date() -> None:
    from tools import card_texts

    assert card_texts.main(["--check"]) == 0, "run: python tools/card_texts.py"


def test_a_russian_or_english_reader_gets_the_french_boards_cards_in_their_language() -> None:
    assert i18n.localized_name("classic-eur", "chance-henri-martin", "ru") == \
        "Перейдите на ячейку «Avenue Henri-Martin». Если проходите ячейку «Вперёд», получите € 200."
    assert i18n.localized_name("classic-eur", "chest-school", "en") == \
        "Pay the school fees: € 50."
    assert i18n.localized_name("ch", "chance-repairs", "en") == \
        "Repairs on all your property: pay Fr. 500.- for each house and Fr. 2'000.- for each hotel."
    assert i18n.localized_name("sv", "community_chest", "de") == "Gemeinschaftsfeld"


# --- catalogs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_committed_mo_files_match_the_po_files(lang: str, tmp_path: Path) -> None:
    fresh = tmp_path / "companion.mo"
    i18n.compile_catalog(i18n.po_path(lang), fresh)
    assert i18n.mo_path(lang).read_bytes() == fresh.read_bytes(), \
        "run: python -m companion.words.catalog compile"


def test_template_is_up_to_date_with_the_sources() -> None:
    """The one template holds every message of companion/, hardware/, web_remote/ and its
    templates: the words layer's lists under their ids, the phones' texts without one."""
    from companion.speech.texts import SPEECH
    from companion.words.explaining.lesson_texts import LESSONS
    from companion.words.explaining.why_texts import WHY
    from companion.words.input_texts import INPUT_TEXTS
    from companion.words.log_texts import LINES
    from companion.words.move_texts import MOVES
    from companion.words.square_texts import SQUARES

    with i18n.TEMPLATE.open("rb") as handle:
        committed = read_po(handle)
    extracted = i18n.extract_template()
    keys = {(m.context, m.id) for m in committed if m.id}
    assert keys == {(m.context, m.id) for m in extracted if m.id}, \
        "run: python -m companion.words.catalog update"
    lists = [texts.MESSAGES, SENTENCES, QUESTIONS, NEWS, LINES, MOVES, WHY, LESSONS, SQUARES,
             INPUT_TEXTS, SPEECH]
    marked = {(m.id, m.text if m.plural is None else (m.text, m.plural))
              for listed in lists for m in listed.values()}
    assert {k for k in keys if k[0] is not None} == marked
    places = {path.split("/", 1)[0] for m in committed if m.id for path, _line in m.locations}
    assert {"companion", "web_remote"} <= places
    phones = {m.id for m in committed if m.id and m.context is None}
    assert "Rules" in phones and ("%(num)d house", "%(num)d houses") in phones


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    with i18n.TEMPLATE.open("rb") as handle:
        template = read_po(handle)
    catalog = read_catalog(lang)
    expected_forms = get_plural(lang).num_plurals
    assert catalog.num_plurals == expected_forms
    problems = []
    for source in template:
        if not source.id:
            continue
        message = catalog.get(source.id, context=source.context)
        if message is None or message.fuzzy:
            problems.append((source.context, "missing or fuzzy"))
            continue
        ids = source.id if isinstance(source.id, tuple) else (source.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if isinstance(source.id, tuple) and len(strings) != expected_forms:
            problems.append((source.context, f"{len(strings)} plural forms"))
        wanted = set().union(*(i18n.placeholders(i) for i in ids))
        for string in strings:
            if not string:
                problems.append((source.context, "empty"))
            elif i18n.placeholders(string) != wanted:
                problems.append((source.context, string))
    assert problems == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_are_not_english_copies(lang: str) -> None:
    english = read_catalog("en")
    catalog = read_catalog(lang)
    same = [m.context for m in catalog if m.id and m.string == english.get(
        m.id, context=m.context).string]
    # a few words are the same in many languages ("Menu", "Hotel", "{place}.")
    assert len(same) < len(catalog) // 8, same


@pytest.mark.parametrize(("lang", "counts", "forms"), [
    ("ru", (1, 21, 2, 4, 22, 5, 11, 12, 14, 25, 100), "00111222222"),
    ("pl", (1, 2, 4, 22, 5, 12, 21, 25, 0), "011122222"),
    ("fr", (0, 1, 2), "001"),
    ("sv", (0, 1, 2), "101"),
])
def test_counted_messages_take_the_languages_plural_forms(lang: str, counts: tuple[int, ...],
                                                          forms: str) -> None:
    message = texts.MESSAGES["jail_cards"]
    assert message.plural is not None
    catalog = read_catalog(lang)
    strings = catalog.get(message.text, context=message.id).string
    for n, form in zip(counts, forms, strict=True):
        got = i18n.ngettext(message.text, message.plural, n, lang, context=message.id)
        assert got == strings[int(form)], (lang, n)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_screen_message_formats_in_every_language(lang: str) -> None:
    texts.use_language(lang)
    try:
        for msg_id, message in texts.MESSAGES.items():
            fields: dict[str, object] = {p.strip("{}"): 7 for p in
                                         i18n.placeholders(message.text)}
            shown = texts.text(msg_id, **fields)
            assert shown and "{" not in shown, (msg_id, shown)
    finally:
        texts.use_language(i18n.SOURCE_LANGUAGE)


def test_the_screen_speaks_the_chosen_language() -> None:
    try:
        assert texts.use_language("sv_SE") == "sv"
        assert texts.text("act_buy") == read_catalog("sv").get("Buy", context="act_buy").string
        assert texts.use_language("xx") == "en"
        assert texts.text("act_buy") == "Buy"
    finally:
        texts.use_language(i18n.SOURCE_LANGUAGE)


def test_translators_are_loaded_once() -> None:
    assert i18n.translator("pl") is i18n.translator("pl")
    assert i18n.translator("zz") is i18n.translator("en")


# --- the screen's language and house rules ------------------------------------------------------


@pytest.fixture
def screen_env(tmp_path: Path) -> Iterator[Path]:
    """Dummy SDL, and the screen's language restored after the test; a data directory."""
    import os

    saved = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    language = texts.language()
    yield tmp_path
    texts.use_language(language)
    if saved is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = saved


def sv_catalog(msg_id: str) -> str:
    message = texts.MESSAGES[msg_id]
    return str(read_catalog("sv").get(message.text, context=msg_id).string)


def test_a_game_speaks_its_editions_language(screen_env: Path) -> None:
    from web_fakes import FakeSession

    from companion.screen.controller import Controller

    controller = Controller(FakeSession(), data_dir=screen_env)  # a classic-eur game
    assert texts.language() == i18n.default_language("classic-eur")
    Controller(FakeSession(), data_dir=screen_env, language="nl")
    assert texts.language() == "nl"
    assert controller.ui_language() == "fr"  # the first controller still asks for its own


def test_the_setup_follows_the_edition_until_a_language_is_chosen(screen_env: Path) -> None:
    from web_fakes import FakeSession

    from companion.screen.controller import Controller
    from companion.screen.views import settings

    controller = Controller(FakeSession(players=()), data_dir=screen_env)
    form = controller.ui.setup
    assert form is not None
    form.edition = next(i for i, (ed, _n) in enumerate(form.editions) if ed == "sv")
    controller.sync_language()
    assert texts.language() == "sv"
    assert form.players[0].name == texts.text("setup_player", number=1)
    assert form.label("edition") == sv_catalog("setup_edition")
    form.focus = [line for line, _v in form.lines()].index("language")
    while form.language != "ru":
        form.change(1)
    controller.sync_language()
    assert texts.language() == "ru" and form.players[0].name.startswith("Игрок")
    controller.start_game()
    assert settings.load(screen_env).language == "ru"
    assert controller.state is not None and controller.state["edition"] == "sv"
    assert texts.language() == "ru"


def test_house_rules_in_force_are_on_the_board_and_in_the_menu(screen_env: Path) -> None:
    import pygame
    from web_fakes import FakeSession

    from companion.screen.controller import Controller
    from companion.screen.render import render

    session = FakeSession(players=())
    controller = Controller(session, data_dir=screen_env, language="en")
    form = controller.ui.setup
    assert form is not None
    form.rules.update(free_parking_pot=True, auctions=False)
    controller.start_game()
    frame = render(controller.state, controller.ui, pygame.Surface((800, 480)))
    drawn = " ".join(t.drawn for t in frame.texts)
    assert "House rules: Free Parking pot · no auctions" in drawn
    controller.press("menu")
    chooser = controller.ui.chooser
    assert chooser is not None
    rules = next(i for i, c in enumerate(chooser.choices) if c.action == "house_rules")
    controller.choose(rules, "keyboard")
    assert controller.ui.chooser is not None
    labels = [c.label for c in controller.ui.chooser.choices]
    assert "Free Parking pot: on" in labels and "Auctions: off" in labels
    assert "Double salary on GO: off" in labels


def test_language_names_are_each_language_in_itself() -> None:
    """The menu's names (data, so that no start loads Babel's locale data) are what Babel
    calls each language in itself, for every language of the catalog."""
    from babel import Locale

    from companion.words import catalog

    assert set(catalog.LANGUAGE_NAMES) == set(catalog.LANGUAGES)
    for lang, name in catalog.LANGUAGE_NAMES.items():
        own = Locale.parse(lang).display_name or ""
        assert name == own[:1].upper() + own[1:], lang
