"""The banker's phone runs the guided card registration through the "tags" hook (a real
companion.inputs.registrar.Registrar): start a run, see the prompt follow the reader's taps live,
skip, answer "move this card?", stop; a typed registration too."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fakes import ORIGIN, Phone, open_real_session

from companion.inputs.registrar import Registrar
from companion.inputs.registry import TagKind, TagRegistry, TagRole
from web_remote import TableHooks, create_app


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, Registrar, Phone]]:
    session = open_real_session(tmp_path / "game")
    registrar = Registrar(TagRegistry.in_data_dir(tmp_path), session.state)
    app = create_app(session, tmp_path / "game", {"banker_pin": "2468"},
                     TableHooks(tags=registrar, registration=registrar))
    banker = Phone(app)
    banker.join("banker", pin="2468")
    yield app, registrar, banker
    app.extensions["web_remote"].close()
    session.close()


def post_form(phone: Phone, path: str, **fields: str) -> Any:
    return phone.client.post(path, data={**fields, "csrf_token": phone.csrf},
                             headers={"Origin": ORIGIN})


def page(phone: Phone, lang: str = "en") -> str:
    phone.client.set_cookie("lang", lang)
    resp = phone.client.get("/banker?partial=1")
    assert resp.status_code == 200
    return str(resp.get_data(as_text=True))


def test_the_banker_starts_all_deeds_and_sees_the_prompt_follow_the_taps(
    table: tuple[Any, Registrar, Phone],
) -> None:
    app, registrar, banker = table
    assert "Tap the card for" not in page(banker)
    assert post_form(banker, "/banker/registration", do="start", kind="deeds").status_code == 302
    assert registrar.active
    first = page(banker)
    assert "Tap the card for Boulevard de Belleville" in first and "1/28" in first
    refreshed = threading.Event()
    client = app.extensions["web_remote"].hub.subscribe()  # what a phone's stream gets
    assert client is not None

    def watch() -> None:
        messages, _ended = client.wait(5)
        if any(message.event == "trades" for message in messages):
            refreshed.set()

    watcher = threading.Thread(target=watch)
    watcher.start()
    assert registrar.tap("T1") is not None  # the reader's tap, on the pump's thread
    watcher.join(5)
    assert refreshed.is_set(), "the phone was not told to refresh"
    second = page(banker)
    assert "Rue Lecourbe" in second and "2/28" in second and "✓ Boulevard de Belleville" in second
    assert post_form(banker, "/banker/registration", do="skip").status_code == 302
    assert "3/28" in page(banker)
    assert post_form(banker, "/banker/registration", do="cancel").status_code == 302
    assert not registrar.active and "Tap the card for" not in page(banker)
    assert registrar.registry.lookup("T1") == TagRole(TagKind.DEED,
                                                      square="boulevard-de-belleville")


def test_moving_a_card_is_asked_on_the_phone_too(table: tuple[Any, Registrar, Phone]) -> None:
    _app, registrar, banker = table
    registrar.registry.register("OLD", TagRole(TagKind.BANKER))
    post_form(banker, "/banker/registration", do="start", kind="bank_cards")
    registrar.tap("OLD")
    asked = page(banker)
    assert "That card is the banker card. Make it bank card 1?" in asked
    post_form(banker, "/banker/registration", do="move")
    assert registrar.registry.lookup("OLD") == TagRole(TagKind.BANK_CARD, number=1)
    assert "bank card 2" in page(banker)


def test_the_prompt_is_in_the_phones_language(table: tuple[Any, Registrar, Phone]) -> None:
    _app, _registrar, banker = table
    post_form(banker, "/banker/registration", do="start", kind="deeds")
    french = page(banker, "fr")
    assert "Boulevard de Belleville" in french and "Tap the card for" not in french


def test_unknown_kinds_and_meanings_are_refused(table: tuple[Any, Registrar, Phone]) -> None:
    _app, registrar, banker = table
    assert post_form(banker, "/banker/registration", do="start",
                     kind="bus_tickets").status_code == 400  # not on the classic board
    assert post_form(banker, "/banker/registration", do="fly").status_code == 400
    assert post_form(banker, "/banker/tags", tag="04AB",
                     meaning="chance:chance-dividend").status_code == 302
    assert registrar.registry.lookup("04AB") == TagRole(TagKind.CARD, deck="chance",
                                                        card="chance-dividend")
    assert post_form(banker, "/banker/tags", tag="04AC", meaning="nonsense").status_code == 400
    assert "04AB" in page(banker)


def test_players_cannot_register(table: tuple[Any, Registrar, Phone]) -> None:
    app, registrar, _banker = table
    ann = Phone(app)
    ann.join("player:Ann")
    assert post_form(ann, "/banker/registration", do="start", kind="deeds").status_code == 403
    assert not registrar.active


@pytest.mark.parametrize("lang", ["nl", "ru"])
def test_the_tags_and_the_refusals_are_in_the_phones_language(
        table: tuple[Any, Registrar, Phone], lang: str) -> None:
    """The tags list says "bankpas 2", not "bank card 2"; a refused meaning or kind is said
    in the phone's language, beside its form."""
    from html import unescape

    from companion.words.input_texts import input_text

    _app, registrar, banker = table
    registrar.registry.register("0A0B", TagRole(TagKind.BANK_CARD, number=2))
    registrar.registry.register("0C0D", TagRole(TagKind.BANKER))
    shown = unescape(page(banker, lang))
    assert f"0A0B → {input_text('reg_bank_card', lang, number=2)}" in shown
    assert f"0C0D → {input_text('reg_banker_card', lang)}" in shown
    assert "bank card 2" not in shown and "the banker card" not in shown
    refused = post_form(banker, "/banker/tags", tag="04AC", meaning="nonsense")
    assert refused.status_code == 400
    assert input_text("reg_bad_meaning", lang) in unescape(refused.get_data(as_text=True))
    refused = post_form(banker, "/banker/registration", do="start", kind="bus_tickets")
    assert refused.status_code == 400
    assert input_text("reg_kind_missing", lang) in unescape(refused.get_data(as_text=True))
