"""Every phone page says money and squares as the Table page's "Latest" list says them
(companion.move_words): money as the edition writes it (the Swiss display form "Fr.
26'000.–", with its dash, never the printed "Fr. 26'000.-"), squares as the edition names
them in the phone's language (a German phone at a Swiss table reads "Bahnhof Lausanne"
everywhere, a French one "Gare de Lausanne"). Flask test client, real journaled session."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import Phone, open_real_session

from companion import i18n
from companion.session_api import Source
from web_remote import create_app

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
    for lang, name, other in (("de", "Bahnhof Lausanne", "Gare de Lausanne"),
                              ("fr", "Gare de Lausanne", "Bahnhof Lausanne")):
        table = page(ann, "/table", lang)
        assert name in recent(table)
        assert re.search(f'data-index="5" style="[^"]*" title="{name} · Ann"', table)  # board
        assert f"<td>{name}</td>" in table  # where Ann stands, in the players' table
        assert other not in table, lang
        me = page(ann, "/me", lang)
        assert f"<header style=\"--c: #888888\">{name}</header>" in me  # the deed card
        assert f"· {name}" in me and other not in me  # where Ann stands
        bo = Phone(app)
        bo.join("player:Bo")
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
        assert cash in words(table) and "<td>Södra station</td>" in table
        me = words(page(ann, "/me", lang))
        assert cash in me and "Kr\u00a04\u00a0000" in me
        assert "Kr\u00a030\u00a0000" in words(page(ann, "/history", lang))
        worth = i18n.format_money(session.state()["players"][0]["net_worth"], currency, lang)
        assert f"Ann {worth}<" in page(ann, "/worth.svg", lang)
        assert "Kr 26 000" not in "".join(words(page(ann, p, lang)) for p in ("/table", "/me"))
