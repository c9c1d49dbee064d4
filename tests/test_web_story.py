"""The game's story on the phones: the page, said in the phone's language, and the
download, one self-contained HTML page (inline CSS and SVG, no script, no address outside
it). Flask's test client on the real journaled session playing tests/test_story.py's game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from test_story import NEW, SCRIPT
from web_fakes import joined, play

from companion.game.session import GameSession
from web_remote import create_app


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    with GameSession.open(tmp_path / "game") as session:
        play(session, {**NEW, "players": ["Ann", "Bo"]}, *SCRIPT, {"do": "end_game"})
        yield session


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Iterator[Any]:
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})
    yield app
    app.extensions["web_remote"].close()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).replace("\xa0", " ")


def test_every_phone_reads_the_story(app: Any) -> None:
    bo = joined(app, "Bo")
    said = _text(bo.client.get("/story").get_data(as_text=True))
    for part in ("The game's story", "Winner: Ann", "5 turns", "Time played: 0:00",
                 "Rue Lecourbe Ann € 4", "Rue Lecourbe: 2 times", "Gare de Lyon: 1 time",
                 "Ann → Bo: Rue Lecourbe", "Bo → Ann: € 100", "2 trades in all",
                 "Rue de Courcelles: Bo for € 50", "Ann: € 1.564", "Bo: € 1.486"):
        assert part in said, part
    assert 'href="/story.html"' in bo.client.get("/story").get_data(as_text=True)


def test_the_story_in_the_phones_language(app: Any) -> None:
    ann = joined(app, "Ann")
    ann.client.set_cookie("lang", "sv")
    said = _text(ann.client.get("/story").get_data(as_text=True))
    assert "Spelets berättelse" in said and "Vinnare: Ann" in said
    assert "Rue Lecourbe: 2 gånger" in said


def test_the_download_is_one_page_that_needs_nothing_else(app: Any) -> None:
    phone = joined(app, "Bo")
    resp = phone.client.get("/story.html")
    assert resp.status_code == 200
    assert resp.headers["Content-Disposition"] == 'attachment; filename="story.html"'
    html = resp.get_data(as_text=True)
    assert html.startswith("<!doctype html>") and "<style>" in html and "<svg" in html
    assert "<polyline" in html and "Rue de Courcelles: Bo for € 50" in _text(html)
    for outside in ("http:", "https:", "//", "<script", "<link", "src=", "url(", "@import"):
        assert outside not in html.replace("<!doctype html>", ""), outside
    assert joined(app, "Ann").client.get("/story.html").status_code == 200
    assert app.test_client().get("/story.html").status_code == 401
