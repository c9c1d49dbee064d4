"""The pages every phone sees alike are rendered once per state of the table (counted, not
timed: web_remote/views/shared.py), and sharing never shows one phone what is another's:
a player's Me page, the banker's links, another language, an older state."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import TABLE, Phone, play, text

from web_remote import create_app
from web_remote.views.shared import PerState

LANGS = ("en", "fr")


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Iterator[Flask]:
    """The remote without its rate limit: twelve phones of one address read every page."""
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468", "rate_per_s": 1e6,
                                               "burst": 1e6})
    yield app
    app.extensions["web_remote"].close()


def _phones(app: Flask, count: int, who: str, lang: str) -> list[Phone]:
    phones = []
    for _ in range(count):
        phone = Phone(app)
        assert phone.join(who).status_code == 302
        phone.client.set_cookie("lang", lang)
        phones.append(phone)
    return phones


def _cache(app: Flask) -> PerState:
    cache = app.extensions.get("web_remote.shared")
    assert isinstance(cache, PerState)
    return cache


def test_twelve_phones_cause_one_table_render_per_language(app: Flask, game: Any) -> None:
    phones = [*_phones(app, 6, "spectator", "en"), *_phones(app, 6, "spectator", "fr")]
    for move in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"}):
        play(game, move)
        version = game.state()["version"]
        pages = [text(p.client.get("/table?partial=1")) for p in phones]
        assert all(f'data-version="{version}"' in page for page in pages)
        # each language's phones got the same page, and the two languages differ
        assert len({pages[i] for i in range(6)}) == 1
        assert len({pages[i] for i in range(6, 12)}) == 1
        assert pages[0] != pages[6]
    # two states, two languages: four renders for 24 page reads
    assert _cache(app).built["table"] == 4


def test_history_and_worth_are_shared_too(app: Flask, game: Any) -> None:
    phones = _phones(app, 5, "spectator", "en")
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})
    # the chart's sample of a move from the table was made by the session's writer before
    # it answered: no wait for the remote's listener
    for path in ("/history?partial=1", "/worth?partial=1", "/history?partial=1&player=Ann"):
        assert len({text(p.client.get(path)) for p in phones}) == 1
    assert _cache(app).built["history"] == 2  # everybody, and Ann's alone
    assert _cache(app).built["worth"] == 1


def test_the_banker_s_links_are_not_shared_with_spectators(app: Flask, game: Any) -> None:
    banker = Phone(app)
    assert banker.join("banker", pin="2468").status_code == 302
    spectator = Phone(app)
    assert spectator.join("spectator").status_code == 302
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})
    for phone in (banker, spectator, banker):  # either may ask first
        text(phone.client.get("/table?partial=1"))
        text(phone.client.get("/history?partial=1"))
    assert "/qr.svg" in text(banker.client.get("/table?partial=1"))
    assert "/qr.svg" not in text(spectator.client.get("/table?partial=1"))
    assert "back-to" in text(banker.client.get("/history?partial=1"))
    assert "back-to" not in text(spectator.client.get("/history?partial=1"))


def test_a_player_never_sees_another_player_s_me_page(app: Flask, game: Any) -> None:
    ann = _phones(app, 1, "player:Ann", "en")[0]
    bo = _phones(app, 1, "player:Bo", "en")[0]
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})  # Ann owns a deed now
    for _ in range(2):
        mine = text(ann.client.get("/me?partial=1"))
        theirs = text(bo.client.get("/me?partial=1"))
        assert "<h1>Ann</h1>" in mine and "<h1>Bo</h1>" not in mine
        assert "<h1>Bo</h1>" in theirs and "<h1>Ann</h1>" not in theirs
        assert 'data-square="3"' in mine and 'data-square="3"' not in theirs
    # a phone asking for another player's page as its own gets its own page
    assert "<h1>Bo</h1>" in text(bo.client.get("/me?partial=1&as=Ann"))


def test_every_page_shows_the_new_version_after_a_move(app: Flask, game: Any) -> None:
    phones = _phones(app, 2, "spectator", "en")
    ann = _phones(app, 1, "player:Ann", "en")[0]
    paths = ("/table", "/history", "/worth", "/rules")
    for move in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"}):
        out = game.submit(move, TABLE)
        assert out.accepted
        for phone in phones:
            for path in paths:
                assert f'data-version="{out.version}"' in text(
                    phone.client.get(f"{path}?partial=1"))
        assert f'data-version="{out.version}"' in text(ann.client.get("/me?partial=1"))


def test_a_changed_state_at_the_same_version_is_rendered_again() -> None:
    cache = PerState()
    state = {"version": 3, "teaching": False}
    assert cache.get(state, ("t",), lambda: "a") == "a"
    assert cache.get(dict(state), ("t",), lambda: "b") == "a"  # an equal copy: the same
    assert cache.get({**state, "teaching": True}, ("t",), lambda: "c") == "c"
    assert cache.built["t"] == 2


def test_an_auction_s_clock_redraws_only_the_table_once_a_second(tmp_path: Path) -> None:
    """The session adds the auction's clock to every read of the state: its tick keeps the
    History and Worth pages, which show no clock, and the Table page is drawn again only
    when the seconds it shows changed, saying them as they stand then."""
    from companion.game.session import GameSession

    clock = [1_000_000.0]
    with GameSession.open(tmp_path / "game", clock=lambda: clock[0]) as session:
        play(session, {"do": "new_game", "edition": "classic-eur",
                       "players": ["Ann", "Bo", "Cy"], "seed": 3},
             {"do": "roll", "dice": [1, 2]}, {"do": "decline"},
             {"do": "bid", "by": "Bo", "amount": 20})
        app = create_app(session, tmp_path / "game", {"rate_per_s": 1e6, "burst": 1e6})
        try:
            phones = _phones(app, 3, "spectator", "en")
            shown = []
            for tick in range(4):
                for phone in phones:  # three phones within the second: one drawing
                    page = text(phone.client.get("/table?partial=1"))
                    assert f'data-countdown="{30 - tick}"' in page
                    text(phone.client.get("/history?partial=1"))
                    text(phone.client.get("/worth?partial=1"))
                shown.append(page)
                clock[0] += 1.0  # the auction's clock ticks: no move
            assert session.state()["auction_clock"]["seconds_left"] == 26
            built = _cache(app).built
            assert built["table"] == 4 and built["history"] == 1 and built["worth"] == 1
            assert len(set(shown)) == 4
            clock[0] += 0.25  # 25.75 s left, said as 26: one drawing for the three phones
            again = {text(phone.client.get("/table?partial=1")) for phone in phones}
            assert len(again) == 1 and 'data-countdown="26"' in again.pop()
            assert built["table"] == 5 and built["history"] == 1
        finally:
            app.extensions["web_remote"].close()
