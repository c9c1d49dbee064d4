"""The History page in pages of HISTORY_LINES lines (payments, notable moves), the newest
first (issue 28: it read and drew up to 2 000 entries after every payment, for every phone
on it): the latest page lists the newest moves' payments, "Older moves" leads to the page
before it and so on back to the deal, and all pages together show every payment once, in
order; the player filter holds across pages; a page further back leads back to the latest
moves; a bad `before`, or one past the newest entry, is the latest page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import TABLE, Phone, open_real_session, text

from web_remote import create_app
from web_remote.views.pages import HISTORY_LINES

PLAYERS = ("Ann", "Bo", "Cy")
PAYMENTS = 2 * HISTORY_LINES + 7


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    """A game with PAYMENTS payments, amounts 1, 2, 3...: each row says which it is."""
    session = open_real_session(tmp_path / "game", PLAYERS, seed=5)
    for n in range(PAYMENTS):
        payer, payee = PLAYERS[n % 3], PLAYERS[(n + 1) % 3]
        out = session.submit({"do": "pay", "from": payer, "to": payee, "amount": n + 1}, TABLE)
        assert out.accepted, out
    yield session
    session.close()


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Iterator[Flask]:
    app = create_app(game, tmp_path / "game", {"rate_per_s": 1e6, "burst": 1e6})
    yield app
    app.extensions["web_remote"].close()


def _amounts(html: str) -> list[int]:
    """The payments' amounts of a History page, as listed (newest first)."""
    rows = re.findall(r'<tr data-seq="\d+"[^>]*>.*?<td class="num">([^<]*)</td>', html, re.S)
    return [int(re.sub(r"\D", "", unescape(cell))) for cell in rows]


def _older(html: str) -> str | None:
    found = re.search(r'<a href="([^"]*)" class="button secondary" rel="next">Older moves</a>',
                      html)
    return unescape(found.group(1)) if found else None


def test_the_pages_go_back_to_the_first_move_each_payment_once(app: Flask) -> None:
    phone = Phone(app)
    assert phone.join("spectator").status_code == 302
    page = text(phone.client.get("/history"))
    assert "Latest moves" not in page  # the latest page itself
    latest = _amounts(page)
    # the newest payments: one entry a payment here
    assert latest == list(range(PAYMENTS, PAYMENTS - HISTORY_LINES, -1))
    seen = list(latest)
    address = _older(page)
    pages = 1
    while address is not None:
        page = text(phone.client.get(address))
        assert 'href="/history">Latest moves</a>' in page
        seen += _amounts(page)
        address = _older(page)
        pages += 1
    # every payment once, in order, then the deal's starting cash
    assert seen == [*range(PAYMENTS, 0, -1), 1500, 1500, 1500]
    assert pages == 3


def test_the_filter_holds_across_pages(app: Flask) -> None:
    phone = Phone(app)
    assert phone.join("spectator").status_code == 302
    page = text(phone.client.get("/history?player=Bo"))
    mine = _amounts(page)
    assert mine and all((n - 1) % 3 in (0, 1) for n in mine)  # Ann pays Bo, Bo pays Cy
    address = _older(page)
    assert address is not None and "player=Bo" in address
    further = _amounts(text(phone.client.get(address)))
    assert further[-1] == 1500  # back to the deal: Bo's starting cash
    paid = further[:-1]
    assert paid and max(paid) < min(mine) and all((n - 1) % 3 in (0, 1) for n in paid)
    assert sorted(mine + paid, reverse=True) == [n for n in range(PAYMENTS, 0, -1)
                                                 if (n - 1) % 3 in (0, 1)]


def test_the_live_part_of_a_page_further_back_and_a_bad_before(app: Flask) -> None:
    phone = Phone(app)
    assert phone.join("spectator").status_code == 302
    latest = _amounts(text(phone.client.get("/history?partial=1")))
    for bad in ("x", "-3", "0", "99999999999999999999999", "", "100000"):
        page = text(phone.client.get(f"/history?before={bad}&partial=1"))
        assert _amounts(page) == latest and "Latest moves" not in page
    page = text(phone.client.get("/history?partial=1&before=3"))
    assert _amounts(page) == [1, 1500, 1500, 1500]  # the deal's entry and payment 1
    assert _older(page) is None and "Latest moves" in page


def test_a_short_game_is_one_page(tmp_path: Path) -> None:
    session = open_real_session(tmp_path / "short", PLAYERS, seed=5)
    app = create_app(session, tmp_path / "short", {})
    try:
        phone = Phone(app)
        assert phone.join("spectator").status_code == 302
        page = text(phone.client.get("/history"))
        assert _amounts(page) == [1500, 1500, 1500]
        assert _older(page) is None and "Latest moves" not in page
    finally:
        app.extensions["web_remote"].close()
        session.close()
