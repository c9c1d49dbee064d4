"""What the table's inputs say is in the table's language (issue 24 item 4, issue 30): the
card registration's prompts, results and card names, the RFID readers' and the panel's
warnings and the banker PIN's, shown and spoken alike, in each of the seven languages,
from the one catalog; no English left on those paths."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from foreign_words import foreign

from companion.inputs.actions import Show
from companion.inputs.registrar import Registrar
from companion.inputs.registration import describe
from companion.inputs.registry import TagKind, TagRegistry, TagRole
from companion.speech.announcer import Announcer
from companion.speech.voice import Voice
from companion.words import catalog as i18n
from companion.words.input_texts import WARNINGS, input_text, pin_warning_said, warning_text
from companion.words.table_language import TableLanguage

pytestmark = pytest.mark.usefixtures("screen_in_english")

OTHERS = tuple(lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE)
ROOT = Path(__file__).resolve().parents[1]
#: English words of the registration's and the warnings' source sentences: none may be
#: left in another language's text (card and reader names aside)
ENGLISH = ("Tap the card", "bank card", "banker card", "registered", "That card is",
           "Kept", "RFID reader", "Wrong banker PIN", "wrong banker PIN", "seconds",
           "restarting", "button")


def english_left(texts: list[str]) -> list[str]:
    return [t for t in texts if any(word in t for word in ENGLISH)]


def registration_texts(lang: str) -> list[str]:
    """Everything a registration run says on a Dutch (...) banker page and screen: each
    prompt of a run through taps, a card asked about, kept, moved, skipped and gone back
    to, and the tags list's meanings."""
    registry = TagRegistry()
    registry.register("OLD", TagRole(TagKind.BANKER))
    registry.register("MINE", TagRole(TagKind.BANK_CARD, number=7, player="Bo"))
    registrar = Registrar(registry)
    said = [registrar.start("bank_cards")["prompt"]]
    seen = [registrar.status(lang)["prompt"]]
    registrar.tap("A")
    seen.append(registrar.status(lang)["prompt"])
    registrar.tap("OLD")  # the banker card: asked first
    seen.append(registrar.status(lang)["prompt"])
    registrar.confirm(False)
    registrar.tap("OLD")
    registrar.confirm(True)
    registrar.skip()
    registrar.back()
    seen.append(registrar.status(lang)["prompt"])
    seen += [str(t["meaning"]) for t in registrar.list(lang)]
    seen.append(describe(TagRole(TagKind.BANK_CARD, number=2, player="Bo"), lang))
    registrar.start("banker")
    seen.append(registrar.status(lang)["prompt"])
    registrar.tap("B")
    assert said[0].startswith("Tap the card for bank card 1")  # the log's source language
    return seen


@pytest.mark.parametrize("lang", OTHERS)
def test_a_registration_run_says_everything_in_the_tables_language(lang: str) -> None:
    seen = registration_texts(lang)
    assert english_left(seen) == []
    assert foreign(seen, lang) == []
    assert input_text("reg_tap_of", lang, name=input_text("reg_bank_card", lang, number=1),
                      position=1, total=8) in seen
    assert input_text("reg_asking", lang, was=input_text("reg_banker_card", lang),
                      name=input_text("reg_bank_card", lang, number=2)) in seen
    meanings = seen[-4:-2]
    assert input_text("reg_banker_card", lang) not in meanings  # moved to bank card 2
    assert input_text("reg_players_bank_card", lang, player="Bo", number=7) in seen


def test_a_deeds_run_names_the_deeds_as_the_table_language_prints_them() -> None:
    registrar = Registrar(TagRegistry(), default_edition="ch")
    registrar.start("deeds")
    german, french = registrar.status("de")["prompt"], registrar.status("fr")["prompt"]
    first = i18n.edition_data("ch")["squares"][1]["id"]
    assert i18n.localized_name("ch", first, "de") in german
    assert i18n.localized_name("ch", first, "fr") in french
    assert german.startswith(input_text("reg_tap", "de", name="")[:5])


def test_the_press_messages_and_the_controllers_come_from_the_catalog() -> None:
    """What the log gets (the source language) is the catalog's sentence too, and the
    screen's Show of a finished run carries the sentence for each face's language."""
    from companion.inputs.controller import InputController
    from companion.inputs.events import TagEvent

    controller = InputController(TagRegistry())
    controller.registrar.start("banker")
    actions = controller.handle(TagEvent("T"), {"version": 1, "players": [], "legal": []})
    done = [a for a in actions if isinstance(a, Show) and a.code == "registration_done"]
    assert done and done[0].sentence == "reg_finished"
    assert done[0].message == input_text("reg_finished", "en")
    controller.registrar.start("banker")
    stopped = controller.registrar.press("menu")
    assert stopped is not None and stopped.message == input_text("reg_stopped", "en")


# -- warnings -------------------------------------------------------------------------------


def hardware_warning_codes() -> set[str]:
    """Every code the readers and the panel emit: the literal first argument of their
    `_warn(...)`, `_warning(...)` and `HardwareWarning(...)` calls (f-strings' heads:
    "button_{reason}" is the stuck and chatter pair)."""
    codes: set[str] = set()
    for path in (ROOT / "hardware").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            first = node.args[0]
            if name in ("_warn", "_warning", "HardwareWarning") and \
                    isinstance(first, ast.Constant) and isinstance(first.value, str):
                codes.add(first.value)
    return codes


def test_every_warning_the_hardware_raises_has_its_sentence() -> None:
    codes = hardware_warning_codes()
    assert {"reader_unplugged", "reader_silent", "reader_error", "button_stuck",
            "button_chatter"} <= codes
    assert {c for c in codes if f"warn_{c}" not in WARNINGS} == set()


@pytest.mark.parametrize("lang", OTHERS)
def test_reader_and_pin_warnings_read_in_every_language(lang: str) -> None:
    said = [warning_text(code, lang, "roll" if code.startswith("button") else "rdm6300",
                         "RFID reader at /dev/ttyAMA0 failed; restarting it")
            for code in sorted(hardware_warning_codes())]
    said += pin_warning_said(3, "phone", 4.0, lang) + pin_warning_said(5, "screen", 1.0, lang)
    assert english_left(said) == [] and foreign(said, lang) == []
    assert all("{" not in s for s in said)


def table_voice(tmp_path: Path, lang: str) -> tuple[Path, Voice]:
    data = tmp_path / "game"
    TableLanguage.at(data).choose(lang)
    return data, Voice(sink=tmp_path / "heard", engine="/bin/true")


@pytest.mark.parametrize("lang", ["nl", "ru", "de"])
def test_the_screen_says_a_reader_warning_and_pin_warnings_in_the_tables_language(
        game: Any, tmp_path: Path, lang: str) -> None:
    """A reader lost (through the readers' pump action the screen gets), a wrong PIN typed
    on a phone and one typed at the screen's banker menu: shown, and said in the table's
    language by the voice."""
    from companion.game.pins import PinGuard, PinStore
    from companion.screen.controller import Controller
    from companion.screen.views.registration import CardRegistration

    data, voice = table_voice(tmp_path, lang)
    announcer = Announcer(game, voice, data)
    controller = Controller(game, data_dir=data)
    controller.speak = announcer.warn
    cards = CardRegistration(controller, Registrar(TagRegistry()))
    clock = [0.0]
    controller.pins = PinGuard(PinStore(data / "pin.json"), clock=lambda: clock[0],
                               on_warning=lambda w: controller.post_pin_warning(
                                   w.wrong, w.where, w.wait))
    controller.pins.store.set("2468")
    try:
        cards.ui(Show("reader_unplugged", "RFID reader at /dev/ttyUSB0 unplugged (gone)",
                      "warning", {"source": "rdm6300"}))
        cards.ui(Show("reader_unplugged", "again", "warning", {"source": "rdm6300"}))
        controller.drain()
        for _ in range(3):
            assert controller.pins.check("1111", where="phone").result == "wrong"
        controller.drain()
        assert announcer.said_warnings() and voice.idle(10)
    finally:
        cards.close()
        announcer.close()
    heard = [(s.text, s.lang) for s in voice.heard]
    shown = list(controller.ui.warnings.values())
    reader = warning_text("reader_unplugged", lang, "rdm6300")
    assert shown == [reader] and heard[0] == (reader, lang)
    assert [t for t, _lang in heard].count(reader) == 1  # said once while it stands
    assert (input_text("pin_warning", lang, count=3), lang) in heard
    assert (input_text("pin_next_in", lang, seconds=1), lang) in heard
    texts = [t for t, _lang in heard]
    assert english_left(texts) == [] and foreign(texts, lang) == []


def test_a_pin_typed_wrong_at_the_screen_and_a_locked_door_are_said(
        game: Any, tmp_path: Path) -> None:
    from companion.game.pins import PinGuard, PinStore
    from companion.inputs.entry import PinEntry
    from companion.screen.controller import Controller

    data, voice = table_voice(tmp_path, "pl")
    announcer = Announcer(game, voice, data)
    controller = Controller(game, data_dir=data)
    controller.speak = announcer.warn
    controller.pins = PinGuard(PinStore(data / "pin.json"), clock=lambda: 0.0,
                               on_warning=lambda w: controller.post_pin_warning(
                                   w.wrong, w.where, w.wait))
    controller.pins.store.set("2468")
    try:
        for _ in range(4):  # the third wrong one locks the screen's door for a second
            controller.ui.pin = PinEntry("banker_menu", digits="1111")
            controller.check_pin()
        assert announcer.said_warnings() and voice.idle(10)
    finally:
        announcer.close()
    texts = [s.text for s in voice.heard]
    assert input_text("pin_wrong", "pl", count=1) in texts
    assert texts[-1] == input_text("pin_next_in", "pl", seconds=1)  # the locked door
    assert {s.lang for s in voice.heard} == {"pl"}
    assert english_left(texts) == [] and foreign(texts, "pl") == []


def test_a_table_without_a_screen_says_its_warnings_in_its_language(
        game: Any, tmp_path: Path) -> None:
    from companion.screen.headless import HeadlessTable

    data, voice = table_voice(tmp_path, "sv")
    announcer = Announcer(game, voice, data)
    table = HeadlessTable(game, data_dir=data, say=lambda line: None)
    table.speak = announcer.warn
    try:
        table.reader_action(Show("reader_silent", "RFID reader at /dev/x does not answer",
                                 "warning", {"source": "pn532"}))
        table.reader_action(Show("reader_silent", "", "warning", {"source": "pn532"},
                                 active=False))
        table.post_pin_warning(2, "phone", 0.0)
        table.post_warning("under_voltage", "power", "Under-voltage detected")  # the Pi's
        table.post_warning("under_voltage", "power", "", active=False)
        assert announcer.said_warnings() and voice.idle(10)
    finally:
        table.close()
        announcer.close()
    assert [(s.text, s.lang) for s in voice.heard] == [
        (warning_text("reader_silent", "sv", "pn532"), "sv"),
        (input_text("pin_warning", "sv", count=2), "sv"),
        (input_text("warn_under_voltage", "sv"), "sv")]


def test_no_banner_is_posted_as_an_english_literal() -> None:
    """The composition root, the screen and the inputs post what the table shows through
    the catalog: no `post_message`, `notify`, `refuse` or `warn` gets a sentence written
    in place ("A phone joined" was one)."""
    posted = []
    for folder in ("companion/app", "companion/screen", "companion/inputs"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                first = node.args[0]
                literal = isinstance(first, ast.JoinedStr) or (
                    isinstance(first, ast.Constant) and isinstance(first.value, str)
                    and " " in first.value)
                if name in ("post_message", "notify", "refuse", "warn") and literal:
                    posted.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert posted == []


@pytest.mark.parametrize("lang", ["nl", "ru"])
def test_a_reader_that_cannot_open_is_a_warning_in_the_tables_language(
        tmp_path: Path, lang: str) -> None:
    """A configured reader that cannot be opened at the start stands on the screen and is
    said like the readers' own warnings, not as the English line of the log."""
    from companion.app.wiring import Readers
    from companion.game.session import GameSession

    shown: list[Show] = []
    with GameSession.open(tmp_path) as session:
        readers = Readers(session, tmp_path, [], lambda m, k: None)
        readers.set_ui(lambda action: shown.append(action) if isinstance(action, Show)
                       else None)
        try:
            readers.open(["nosuchkind:/dev/x"])
        finally:
            readers.close()
    [warning] = shown
    assert warning.level == "warning" and warning.active
    said = warning_text(warning.code, lang, str(warning.data["source"]), warning.message)
    assert said == input_text("warn_reader_unavailable", lang, source="nosuchkind:/dev/x")
    assert english_left([said]) == [] and foreign([said], lang) == []
