"""One language per table (issue 24, item 4): chosen at setup on the screen or the banker's
phone, kept whoever deals the next game, changed from the screen's menu or the banker page,
and spoken by every phone that has not picked a language of its own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fakes import ORIGIN, Phone

from companion.game.api import Source
from companion.game.session import GameSession
from companion.screen import texts
from companion.screen.controller import Controller
from companion.screen.views.prompt import Action
from companion.words.table_language import FILE_NAME, TableLanguage
from web_remote import create_app

pytestmark = pytest.mark.usefixtures("screen_in_english")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, Any, Controller]]:
    """A table with no game yet: its session, the phone remote and the screen, one folder."""
    data = tmp_path / "table"
    session = GameSession.open(data)
    app = create_app(session, data, {"banker_pin": "2468"})
    controller = Controller(session, data_dir=data)
    try:
        yield session, app, controller
    finally:
        controller.close()
        app.extensions["web_remote"].close()
        session.close()


def page_language(phone: Phone, path: str = "/") -> str:
    """The language a page is written in (its <html lang>)."""
    html = phone.client.get(path, follow_redirects=True).get_data(as_text=True)
    found = re.search(r'<html lang="([a-z]+)">', html)
    assert found, html[:200]
    return found.group(1)


def deal_on_phone(banker: Phone, **form: str) -> Any:
    """The banker page's new-game form, as the browser sends it."""
    return banker.client.post("/banker/new-game", data={"csrf_token": banker.csrf, **form},
                              headers={"Origin": ORIGIN})


def settle(controller: Controller, session: Any) -> None:
    """The screen has had every update the session made (as its loop would, frame by frame)."""
    controller.drain_updates(int(session.state().get("version") or 0))
    controller.sync_language()


def test_a_dutch_mega_game_dealt_on_the_phone_gets_a_dutch_screen(table: Any) -> None:
    session, app, controller = table
    banker = Phone(app)
    assert banker.join("banker", pin="2468").status_code == 302
    resp = deal_on_phone(banker, edition="mega", players="Anna, Bram, Cor", language="nl")
    assert resp.status_code in (200, 302), resp.get_data(as_text=True)[:300]
    assert session.state()["edition"] == "mega"
    settle(controller, session)
    assert texts.language() == "nl"  # not the edition's French
    assert controller.ui_language() == "nl"
    # a phone that picked nothing reads the table's language, whatever its browser says
    anna = Phone(app)
    anna.join("player:Anna")
    assert page_language(anna) == "nl"
    # kept across a restart: the choice is the table's file, not the screen's memory
    assert TableLanguage(controller.data_dir).chosen == "nl"
    assert (Path(str(controller.data_dir)) / FILE_NAME).exists()


def test_a_phone_keeps_the_language_its_owner_picked(table: Any) -> None:
    _session, app, controller = table
    controller.do(Action(None, "", ui="language:sv"), "keyboard")
    bo = Phone(app)
    bo.join("spectator")
    assert page_language(bo) == "sv"
    bo.client.get("/lang/ru")
    assert page_language(bo) == "ru"
    assert texts.language() == "sv"  # the table did not follow the phone


def test_the_screens_menu_names_the_language_and_changes_the_tables(table: Any) -> None:
    session, app, controller = table
    assert session.submit({"do": "new_game", "edition": "classic-eur",
                           "players": ["Ann", "Bo"], "seed": 1},
                          Source(kind="script", banker=True)).accepted
    settle(controller, session)
    controller.open_menu()
    chooser = controller.ui.chooser
    assert chooser is not None
    item = [c for c in chooser.choices if c.action == "languages"]
    assert len(item) == 1 and texts.language() in ("fr",) and "Français" in item[0].label
    controller.do(Action(None, "", ui="languages"), "keyboard")
    assert controller.ui.chooser is not None
    names = [c.label for c in controller.ui.chooser.choices]
    assert {"Nederlands", "Deutsch", "English"} <= set(names)
    controller.do(Action(None, "", ui="language:de"), "keyboard")
    assert texts.language() == "de"
    phone = Phone(app)
    phone.join("spectator")
    assert page_language(phone) == "de"


def test_the_banker_page_changes_the_tables_language_and_nobody_else_can(table: Any) -> None:
    session, app, controller = table
    banker = Phone(app)
    banker.join("banker", pin="2468")
    form = banker.client.get("/banker").get_data(as_text=True)
    assert 'action="/banker/language"' in form
    ok = banker.client.post("/banker/language", data={"csrf_token": banker.csrf,
                                                      "language": "pl"},
                            headers={"Origin": ORIGIN})
    assert ok.status_code in (200, 302)
    settle(controller, session)
    assert texts.language() == "pl"
    bad = banker.client.post("/banker/language", data={"csrf_token": banker.csrf,
                                                       "language": "xx"},
                             headers={"Origin": ORIGIN})
    assert bad.status_code == 400 and TableLanguage.at(controller.data_dir).chosen == "pl"
    player = Phone(app)
    player.join("spectator")
    denied = player.client.post("/banker/language", data={"csrf_token": player.csrf,
                                                          "language": "ru"},
                                headers={"Origin": ORIGIN})
    assert denied.status_code == 403 and TableLanguage.at(controller.data_dir).chosen == "pl"


def test_a_game_dealt_on_the_screen_keeps_its_language_for_the_phones(table: Any) -> None:
    session, app, controller = table
    form = controller.ui.setup
    assert form is not None
    form.language = "nl"
    controller._deal()
    settle(controller, session)
    assert session.state().get("players")
    assert TableLanguage.at(controller.data_dir).chosen == "nl"
    phone = Phone(app)
    phone.join("spectator")
    assert page_language(phone) == "nl"
    # the banker's next deal from a phone without a choice keeps the table's language
    banker = Phone(app)
    banker.join("banker", pin="2468")
    page = banker.client.get("/banker").get_data(as_text=True)
    assert re.search(r'<option value="nl" lang="nl" selected>', page)


def test_a_deal_on_a_phone_keeps_the_language_the_dealer_reads(table: Any) -> None:
    """The form's language is the table's, else the dealer's phone's: a banker reading
    English who deals the classic euro board without touching it does not get French."""
    session, app, controller = table
    banker = Phone(app)
    banker.join("banker", pin="2468")
    banker.client.get("/lang/en")
    page = banker.client.get("/banker").get_data(as_text=True)
    assert re.search(r'<option value="en" lang="en" selected>', page)
    resp = deal_on_phone(banker, edition="classic-eur", players="Ann, Bo", language="en")
    assert resp.status_code in (200, 302)
    settle(controller, session)
    assert TableLanguage.at(controller.data_dir).chosen == "en" and texts.language() == "en"


def test_a_language_that_cannot_be_kept_is_still_spoken(tmp_path: Path) -> None:
    """A full or read-only card: the choice holds for this run, nothing raises, and a bad
    file on disk is read as no choice."""
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / FILE_NAME).write_text("{not json", encoding="utf-8")
    table = TableLanguage(folder)
    assert table.chosen == "" and table.resolve("sv") == "sv"
    folder.chmod(0o500)
    try:
        try:  # root writes anyway: then only the in-memory half is checked
            (folder / "probe").write_text("x")
            blocked = False
        except OSError:
            blocked = True
        assert table.choose("ru") and table.chosen == "ru" and table.resolve("sv") == "ru"
        if blocked:
            assert TableLanguage(folder).chosen == ""
        assert not table.choose("xx") and table.chosen == "ru"
    finally:
        folder.chmod(0o700)
