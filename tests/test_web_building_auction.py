"""The housing-shortage building auction on the phone remote (Flask test client, real
journaled session): the banker starts it from the banker page when `legal` offers it, the
players bid on their Me pages (the building named, no square), the Table page says it, and
the winner places the building from their phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import joined, open_real_session, play, text

from companion.game.table.view import build
from web_remote.views.banker import shortage_auction

#: Ann owns the brown lots, Bo the light blue ones (bought from Ann): both could build
GROUPS = [
    {"do": "land", "square": 1}, {"do": "buy"}, {"do": "land", "square": 3}, {"do": "buy"},
    {"do": "land", "square": 6}, {"do": "buy"}, {"do": "land", "square": 8}, {"do": "buy"},
    {"do": "land", "square": 9}, {"do": "buy"},
    {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [6, 8, 9]},
     "take": {"cash": 300}},
]


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo", "Cy"))
    yield session
    session.close()


def offered(game: Any) -> list[str] | None:
    entry = next((c for c in game.state()["legal"] if c["do"] == "auction_building"), None)
    return None if entry is None else list(entry["buildings"])


def choice(page: str) -> list[tuple[str, str]] | None:
    """The banker page's building choice: (value, label) per option; None: no control."""
    form = re.search(r'<form data-cmd-form="auction_building".*?</form>', page, re.S)
    if form is None:
        return None
    return re.findall(r'<option value="(\w+)">([^<]*)</option>', form.group(0))


def test_the_control_appears_only_in_a_shortage(app: Flask, game: Any) -> None:
    banker = joined(app, "banker")
    assert offered(game) is None  # nobody owns a whole group: nothing to auction
    assert choice(text(banker.client.get("/banker"))) is None
    play(game, *GROUPS)
    assert offered(game) == ["house"]  # the engine would take the banker's call...
    page = text(banker.client.get("/banker?partial=1"))
    assert choice(page) is None, "...but with 32 houses in the bank there is no shortage"
    state = game.state()
    scarce = {**state, "bank": {**state["bank"], "houses": 1}}  # two builders, one house
    assert shortage_auction(build(scarce)) == {"do": "auction_building",
                                               "buildings": ["house"]}
    assert shortage_auction(build({**state, "bank": {**state["bank"], "houses": 2}})) is None
    # while a decision is pending the bank auctions nothing
    play(game, {"do": "roll", "by": "Ann", "dice": [2, 3]})  # Ann: Gare Montparnasse
    assert game.state()["pending"]["kind"] == "buy" and offered(game) is None
    assert shortage_auction(build({**game.state(), "bank": {"houses": 0, "hotels": 0}})) \
        is None


def test_the_control_names_the_buildings_in_the_phones_language(app: Flask, game: Any,
                                                               monkeypatch: Any) -> None:
    from companion.game.table.records import Bank

    play(game, *GROUPS)
    monkeypatch.setattr(Bank, "stock", lambda _bank, _building: 0)  # no stock: short
    banker = joined(app, "banker")
    page = text(banker.client.get("/banker?partial=1"))
    assert choice(page) == [("house", "House")]
    assert "Auction one building from the bank" in page
    banker.client.get("/lang/fr?next=/banker")
    page = text(banker.client.get("/banker?partial=1"))
    assert choice(page) == [("house", "Maison")]
    assert "Mettre aux enchères une construction de la banque" in page


def test_only_the_banker_starts_it_and_with_every_check(app: Flask, game: Any) -> None:
    play(game, *GROUPS)
    banker, ann = joined(app, "banker"), joined(app, "Ann")
    start = {"do": "auction_building", "building": "house"}
    version = game.version
    assert ann.command(start).status_code == 403  # banker_only
    forged = banker.post("/api/commands", {"command": start, "version": version}, csrf="x")
    assert forged.status_code == 403 and forged.get_json()["code"] == "bad_csrf"
    elsewhere = banker.post("/api/commands", {"command": start, "version": version},
                            origin="http://evil.example")
    assert elsewhere.status_code == 403 and elsewhere.get_json()["code"] == "bad_origin"
    stale = banker.command(start, version=version - 1)
    assert stale.status_code == 409 and stale.get_json()["code"] == "stale_version"
    assert game.version == version and game.state()["pending"] is None, "nothing changed"
    started = banker.command(start, version=version)
    assert started.status_code == 200, started.get_json()
    pending = game.state()["pending"]
    assert pending["kind"] == "building_auction" and pending["building"] == "house"
    page = text(banker.client.get("/banker?partial=1"))
    assert choice(page) is None and "Auction: one house from the bank" in page
    assert '"do": "close_auction"' in page


def test_players_bid_on_the_building_then_the_winner_places_it(app: Flask, game: Any) -> None:
    play(game, *GROUPS)
    banker, ann, bo, cy = (joined(app, who) for who in ("banker", "Ann", "Bo", "Cy"))
    assert banker.command({"do": "auction_building", "building": "house"}).status_code == 200

    page = text(bo.client.get("/me?partial=1"))
    start = page.index('<section class="pending')
    pending = page[start:page.index("</section>", start)]
    assert "Auction: one house from the bank" in pending
    assert "Rue" not in pending and "Boulevard" not in pending, "no square is auctioned"
    bids = re.findall(r'class="bid" data-cmd=\'([^\']*)\'', pending)
    assert bids == ['{"amount": 50, "by": "Bo", "do": "bid"}',  # from the lowest house price
                    '{"amount": 100, "by": "Bo", "do": "bid"}'], "one button per amount"
    assert '"do": "pass"' in pending
    # Cy has no group to build on: out of this auction from the start, only watching
    page = text(cy.client.get("/me?partial=1"))
    assert "Auction: one house from the bank" in page
    assert 'class="bid"' not in page and '"do": "pass"' not in page
    table = text(cy.client.get("/table?partial=1"))
    assert "Auction: one house from the bank — No bid yet" in " ".join(table.split())
    assert "building_auction" not in table

    assert bo.command({"do": "bid", "amount": 60}).status_code == 200
    assert ann.command({"do": "pass"}).status_code == 200
    assert game.state()["pending"] == {"kind": "place_building", "player": "Bo",
                                       "building": "house"}
    cash = game.state()["players"][1]["cash"]

    place = next(c for c in game.state()["legal"] if c["do"] == "build")
    assert place == {"do": "build", "by": "Bo", "squares": [6, 8, 9]}
    page = text(bo.client.get("/me?partial=1"))
    assert "Place the house you won at auction" in page
    form = re.search(r'<form data-cmd-form="build".*?</form>', page, re.S)
    assert form is not None
    assert re.findall(r'<option value="(\d+)">', form.group(0)) == ["6", "8", "9"]
    assert 'name="building" value="house"' in form.group(0)
    assert page.count("Place it here: a house") == 3  # on each deed, and no price asked
    assert "Build a house" not in page
    for phone in (ann, cy):
        assert "Bo places the house won at auction" in text(phone.client.get("/me?partial=1"))
    assert "Bo places the house won at auction" in text(ann.client.get("/table?partial=1"))
    banker_page = text(banker.client.get("/banker?partial=1"))
    assert "Bo places the house won at auction" in banker_page
    assert "/me?as=Bo" in banker_page

    # Bo's phone sends what the form holds: the square picked, the building won
    out = bo.command({"do": "build", "by": "Bo", "square": 8, "building": "house"})
    assert out.status_code == 200, out.get_json()
    state = game.state()
    assert state["pending"] is None and state["players"][1]["cash"] == cash
    assert {s["index"]: s["houses"] for s in state["squares"]}[8] == 1
    assert "Place it here" not in text(bo.client.get("/me?partial=1"))


def test_the_building_is_named_in_the_phones_language(app: Flask, game: Any) -> None:
    play(game, *GROUPS, {"do": "auction_building", "building": "house"})
    bo = joined(app, "Bo")
    bo.client.get("/lang/sv?next=/me")
    assert "Auktion: ett hus från banken" in text(bo.client.get("/me?partial=1"))
    play(game, {"do": "bid", "by": "Bo", "amount": 50}, {"do": "pass", "by": "Ann"})
    page = text(bo.client.get("/me?partial=1"))
    assert "Placera huset du vann på auktion" in page and "Placera här" in page
    bo.client.get("/lang/ru?next=/table")
    assert "Bo ставит дом, выигранный на аукционе" in text(bo.client.get("/table?partial=1"))
