"""Every phone page says money and squares as the Table page's "Latest" list says them
(companion.words.move_words): money as the edition writes it (the Swiss display form "Fr.
26'000.–", with its dash, never the printed "Fr. 26'000.-"), squares as the edition names
them in the phone's language (a German phone at a Swiss table reads "Bahnhof Lausanne"
everywhere, a French one "Gare de Lausanne"); the History page's moves in the lines of
companion.words.move_words.event_line, the table screen's. Flask test client, real journaled
session."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import Phone, open_real_session

from companion.game.api import Source
from companion.game.table.records import Setup
from companion.words import catalog as i18n
from companion.words.move_words import Words, event_line
from web_remote import create_app
from web_remote.i18n import catalog

TABLE = Source(kind="script", banker=True)


def words(html: str) -> str:
    """The page's text without tags, entities undone."""
    return unescape(re.sub(r"<[^>]+>", " ", html))


def recent(html: str) -> str:
    """The text of the Table page's "Latest" list."""
    listed = html[html.index('<ol class="recent">'):]
    return words(listed[:listed.index("</ol>")])


def page(phone: Phone, path: str, lang: str) -> str:
    phone.client.set_cookie("lang", lang)
    resp = phone.client.get(path)
    assert resp.status_code == 200, (path, resp.status_code)
    return str(resp.get_data(as_text=True))


def start(tmp_path: Path, edition: str) -> tuple[Any, Flask]:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo"), edition=edition)
    app = create_app(session, tmp_path / "game", {"banker_pin": "2468"})
    for command in ({"do": "roll", "dice": [2, 3]}, {"do": "buy"}):  # Ann buys square 5
        assert session.submit(command, TABLE).accepted, command
    return session, app


@pytest.fixture
def swiss(tmp_path: Path) -> Iterator[tuple[Any, Flask]]:
    session, app = start(tmp_path, "ch")
    yield session, app
    app.extensions["web_remote"].close()
    session.close()


@pytest.fixture
def swedish(tmp_path: Path) -> Iterator[tuple[Any, Flask]]:
    session, app = start(tmp_path, "sv")
    yield session, app
    app.extensions["web_remote"].close()
    session.close()


def test_money_is_the_edition_display_form_on_every_page(swiss: tuple[Any, Flask]) -> None:
    session, app = swiss
    currency = session.state()["currency"]
    assert currency["display_pattern"] == "Fr. {amount}.–"  # the edition asks for the dash
    cash = i18n.format_money(26000, currency, "fr")
    worth = i18n.format_money(session.state()["players"][0]["net_worth"], currency, "fr")
    assert cash == "Fr.\u00a026'000.–"
    ann = Phone(app)
    ann.join("player:Ann")
    for lang in ("fr", "de"):
        table = page(ann, "/table", lang)
        assert i18n.format_money(4000, currency, lang) in recent(table)  # the purchase
        assert cash in words(table)  # Ann's cash in the players' table
        me = words(page(ann, "/me", lang))
        assert cash in me and i18n.format_money(4000, currency, lang) in me  # the deed
        history = words(page(ann, "/history", lang))  # the starting cash, the purchase
        assert all(i18n.format_money(a, currency, lang) in history for a in (30000, 4000))
        assert f"Ann {worth}<" in unescape(page(ann, "/worth.svg", lang))  # the chart
        for path in ("/table", "/me", "/history", "/worth"):
            text = words(page(ann, path, lang))
            assert not re.search(r"\d\.-", text), (path, lang)  # never the printed hyphen


def test_squares_are_named_in_the_phone_language(swiss: tuple[Any, Flask]) -> None:
    _session, app = swiss
    ann = Phone(app)
    ann.join("player:Ann")
    bo = Phone(app)
    bo.join("player:Bo")
    for lang, name, other in (("de", "Bahnhof Lausanne", "Gare de Lausanne"),
                              ("fr", "Gare de Lausanne", "Bahnhof Lausanne")):
        table = page(ann, "/table", lang)
        assert name in recent(table)
        assert re.search(f'data-index="5" style="[^"]*" title="{name} · Ann"', table)  # board
        assert f">{name}</td>" in table  # where Ann stands, in the players' table
        assert other not in table, lang
        me = page(ann, "/me", lang)
        card = f"<header style=\"--c: #888888; --ci: #000000\">{name}</header>"
        assert card in me  # the deed card
        assert f"· {name}" in me and other not in me  # where Ann stands
        assert f"> {name} <small>(Ann)</small>" in page(bo, "/me", lang)  # a trade's deeds


def test_a_swedish_game_says_kronor_alike(swedish: tuple[Any, Flask]) -> None:
    session, app = swedish
    currency = session.state()["currency"]
    ann = Phone(app)
    ann.join("player:Ann")
    for lang in ("sv", "en"):
        cash = i18n.format_money(26000, currency, lang)
        assert cash == "Kr\u00a026\u00a0000"
        table = page(ann, "/table", lang)
        assert "Södra station" in recent(table) and "Kr\u00a04\u00a0000" in recent(table)
        assert cash in words(table) and ">Södra station</td>" in table
        me = words(page(ann, "/me", lang))
        assert cash in me and "Kr\u00a04\u00a0000" in me
        assert "Kr\u00a030\u00a0000" in words(page(ann, "/history", lang))
        worth = i18n.format_money(session.state()["players"][0]["net_worth"], currency, lang)
        assert f"Ann {worth}<" in page(ann, "/worth.svg", lang)
        assert "Kr 26 000" not in "".join(words(page(ann, p, lang)) for p in ("/table", "/me"))


#: a Mega opening: Ann's triple and choice of square, Bo's Mr. Monopoly, Cy's bus ticket
MEGA_OPENING = [
    {"do": "roll", "dice": [2, 2, 2]}, {"do": "choose_square", "square": 24},
    {"do": "buy"}, {"do": "end_turn"},
    {"do": "roll", "by": "Bo", "dice": [3, 4, "mr_monopoly"]}, {"do": "buy"},
    {"do": "decline"}, {"do": "close_auction"}, {"do": "end_turn"},
    {"do": "roll", "by": "Cy", "dice": [1, 3, "bus"]}, {"do": "decline"},
    {"do": "close_auction"}, {"do": "draw", "card": "bus-ticket-7"}, {"do": "end_turn"},
]


def history_moves(html: str) -> list[str]:
    """The History page's moves and buildings, newest first, each "#seq text"."""
    listed = html[html.index('<ol class="moves"'):]
    listed = listed[:listed.index("</ol>")]
    return [unescape(re.sub(r"<[^>]+>", "", item)).strip()
            for item in re.findall(r"<li[^>]*>(.*?)</li>", listed, re.S)]


def test_history_says_the_moves_in_the_shared_lines(tmp_path: Path) -> None:
    session = open_real_session(tmp_path / "game", edition="mega")
    app = create_app(session, tmp_path / "game", {"banker_pin": "2468"})
    try:
        for command in MEGA_OPENING:
            assert session.submit(command, TABLE).accepted, command
        cy = Phone(app)
        cy.join("player:Cy")
        assert history_moves(page(cy, "/history?partial=1", "en")) == [
            "#14 Cy took a bus ticket", "#6 Bo: Mr. Monopoly",
            "#3 Ann went to Place Pigalle", "#2 Ann rolled a triple"]
        state = session.state()
        told = [(int(entry["seq"]), event) for entry in session.history(None, 100)
                for event in entry.get("events") or []
                if event.get("kind") in ("triple", "chose_square", "mr_monopoly", "bus_ticket")]
        for lang in ("fr", "de", "sv"):
            words = Words(Setup.of(state), lang, catalog(lang))
            shown = history_moves(page(cy, "/history?partial=1", lang))
            assert shown == [f"#{seq} {event_line(event, words)}" for seq, event in told[::-1]]
            bus = shown[0].split(" ", 1)[1]  # the same words as the Table page's list
            assert bus in recent(page(cy, "/table?partial=1", lang)), lang
        assert history_moves(page(cy, "/history?partial=1", "fr"))[-1] == "#2 Ann a fait un triple"
        only_bo = history_moves(page(cy, "/history?partial=1&player=Bo", "de"))
        assert only_bo == ["#6 Bo: Mr. Monopoly"]  # one player's
    finally:
        app.extensions["web_remote"].close()
        session.close()
