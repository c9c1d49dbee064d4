"""The phone remote on a Mega game (Flask test client, real journaled session): the speed
die entered on the phone, a triple's square, Mr. Monopoly, bus tickets face up and ridden,
the Birthday gift, skyscrapers and depots on the deeds, the 52-square board, History's
moves, and the Mega rulebook."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import joined, open_real_session, play, text

from web_remote import create_app

#: the documented Mega opening (docs/table-script.md) up to Cy's bus ticket ride
OPENING = [
    {"do": "roll", "dice": [2, 2, 2]}, {"do": "choose_square", "square": 24},
    {"do": "buy"}, {"do": "end_turn"},
    {"do": "roll", "by": "Bo", "dice": [3, 4, "mr_monopoly"]}, {"do": "buy"},
    {"do": "decline"}, {"do": "close_auction"}, {"do": "end_turn"},
    {"do": "roll", "by": "Cy", "dice": [1, 3, "bus"]}, {"do": "decline"},
    {"do": "close_auction"}, {"do": "draw", "card": "bus-ticket-7"}, {"do": "end_turn"},
    {"do": "roll", "dice": [1, 2, 3]}, {"do": "decline"}, {"do": "close_auction"},
    {"do": "end_turn"}, {"do": "roll", "by": "Bo", "dice": [1, 2, 2]}, {"do": "end_turn"},
]


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", edition="mega",
                                options={"physical_dice": True, "physical_deck": True})
    yield session
    session.close()


def options_of(page: str, form: str) -> list[int]:
    """The square values offered by the select of a data-cmd-form."""
    block = page[page.index(f'data-cmd-form="{form}"'):]
    block = block[:block.index("</form>")]
    return [int(v) for v in re.findall(r'<option value="(\d+)"', block)]


def test_dice_entry_has_the_speed_die_for_the_current_player(app: Flask) -> None:
    ann, bo = joined(app, "Ann"), joined(app, "Bo")
    page = text(ann.client.get("/me"))
    assert 'data-cmd-form="roll"' in page and 'aria-label="Speed die"' in page
    assert '<option value="mr_monopoly">' in page and '<option value="bus">' in page
    assert 'data-cmd-form="roll"' not in text(bo.client.get("/me"))
    # what the form sends (app.js turns "1"-"3" into numbers, keeps the symbols)
    assert ann.command({"do": "roll", "dice": [3, 4, "bus"]}).status_code == 200
    assert bo.command({"do": "roll", "dice": [3, 4, 1]}).status_code == 422  # not his turn
    assert ann.command({"do": "roll", "dice": "lots"}).status_code == 400


def test_classic_dice_entry_has_two_dice(tmp_path: Path) -> None:
    with open_real_session(tmp_path / "classic", options={"physical_dice": True}) as classic:
        app = create_app(classic, tmp_path / "classic", {"banker_pin": "2468"})
        page = text(joined(app, "Ann").client.get("/me"))
        assert 'data-cmd-form="roll"' in page and "Speed die" not in page
        app.extensions["web_remote"].close()


def test_triple_offers_every_other_square(app: Flask, game: Any) -> None:
    ann = joined(app, "Ann")
    assert ann.command({"do": "roll", "dice": [2, 2, 2]}).status_code == 200
    page = text(ann.client.get("/me?partial=1"))
    assert "Triple! Go to any square." in page
    legal = next(c for c in game.state()["legal"] if c["do"] == "choose_square")
    assert options_of(page, "choose_square") == legal["squares"] == list(range(1, 52))
    bo_page = text(joined(app, "Bo").client.get("/me"))
    assert 'data-cmd-form="choose_square"' not in bo_page and "Ann decides." in bo_page
    table = text(ann.client.get("/table"))
    assert "Triple! Ann picks any square to go to" in table
    assert ann.command({"do": "choose_square", "square": 24}).status_code == 200
    assert game.state()["players"][0]["position"] == 24
    assert "went to" in text(ann.client.get("/history"))


def test_mr_monopoly_turn_is_announced(app: Flask, game: Any) -> None:
    play(game, *OPENING[:4])
    bo = joined(app, "Bo")
    assert bo.command({"do": "roll", "dice": [3, 4, "mr_monopoly"]}).status_code == 200
    page = text(bo.client.get("/me"))
    assert "Mr. Monopoly turn" in page and "Mr. Monopoly moves on" in page
    table = text(bo.client.get("/table"))
    assert "Mr. Monopoly turn" in table and ">Mr. M.</span>" in table  # the speed die


def test_bus_ticket_taken_shown_and_ridden(app: Flask, game: Any) -> None:
    play(game, *OPENING[:12])
    cy = joined(app, "Cy")
    page = text(cy.client.get("/me"))
    assert "Cy takes a bus ticket" in page and "Take a bus ticket" in page
    assert cy.command({"do": "draw", "card": "bus-ticket-7"}).status_code == 200
    table = text(cy.client.get("/table"))
    assert 'data-tickets="1"' in table and "15 bus tickets in the pile" in table
    play(game, *OPENING[13:])
    page = text(cy.client.get("/me"))
    legal = next(c for c in game.state()["legal"] if c["do"] == "use_bus_ticket")
    assert options_of(page, "use_bus_ticket") == legal["squares"]
    assert 12 in legal["squares"] and 30 not in legal["squares"]
    assert cy.command({"do": "use_bus_ticket", "square": 30}).status_code == 422
    assert cy.command({"do": "use_bus_ticket", "square": 12}).status_code == 200
    assert game.state()["players"][2]["position"] == 12
    history = text(cy.client.get("/history"))
    assert "Cy took a bus ticket" in history and "Cy rode the bus to" in history
    assert "Ann rolled a triple" in history


def test_birthday_gift_buttons_from_legal(app: Flask, game: Any) -> None:
    ann = joined(app, "Ann")
    banker = joined(app, "banker")
    assert banker.command({"do": "land", "by": "Ann", "square": 47}).status_code == 200
    page = text(ann.client.get("/me"))
    assert "Birthday gift" in page
    gifts = {c["gift"] for c in game.state()["legal"] if c["do"] == "choose_gift"}
    assert gifts == {"money", "bus_ticket"}
    assert '"gift": "money"' in page and '"gift": "bus_ticket"' in page
    assert ann.command({"do": "choose_gift", "gift": "money"}).status_code == 200
    assert game.state()["players"][0]["cash"] == 2600
    assert "birthday gift" in text(ann.client.get("/history"))


def test_deeds_show_skyscraper_depot_and_costs(app: Flask, game: Any) -> None:
    commands: list[dict[str, Any]] = []
    for square in (1, 3, 4, 6):
        commands += [{"do": "land", "by": "Ann", "square": square}, {"do": "buy"}]
    commands += [{"do": "build", "by": "Ann", "square": s} for _ in range(5) for s in (1, 3, 4)]
    play(game, *commands)
    ann = joined(app, "Ann")
    page = text(ann.client.get("/me"))
    deed = page[page.index('data-square="4"'):]
    deed = deed[:deed.index("</article>")]
    assert "Hotel" in deed and "Skyscraper" in deed  # the ladder's last rung
    assert '"building": "skyscraper"' in deed and "a skyscraper (€\u00a050)" in deed
    station = page[page.index('data-square="6"'):]
    station = station[:station.index("</article>")]
    assert '"building": "depot"' in station and "a train depot (€\u00a0100)" in station
    assert "Train depot €\u00a0100: doubles this station" in station
    assert ann.command({"do": "build", "square": 4, "building": "skyscraper"}).status_code == 200
    assert ann.command({"do": "build", "square": 6, "building": "depot"}).status_code == 200
    page = text(ann.client.get("/me"))
    deed = page[page.index('data-square="4"'):]
    assert '<p class="state">Skyscraper' in deed[:deed.index("</article>")]
    station = page[page.index('data-square="6"'):]
    station = station[:station.index("</article>")]
    assert '<span class="depot">Train depot</span>' in station
    assert "(+€\u00a050)" in station  # a depot sells for half
    table = text(ann.client.get("/table"))
    assert "Ann · Skyscraper" in table and "Ann · Train depot" in table
    assert "7 skyscrapers" in table
    assert "3 train depots" in table
    history = text(ann.client.get("/history"))
    assert "Ann built on Rue de Ménilmontant: skyscraper" in history  # the screen's words
    assert "Ann built on Gare Montparnasse: train depot" in history


def test_table_board_has_52_squares(app: Flask, game: Any) -> None:
    page = text(joined(app, "Ann").client.get("/table"))
    assert 'data-squares="52"' in page and "--n: 14" in page
    cells = re.findall(r'data-index="(\d+)" style="grid-row: (\d+); grid-column: (\d+);', page)
    assert len(cells) == 52
    where = {int(i): (int(r), int(c)) for i, r, c in cells}
    assert where[0] == (14, 14) and where[13] == (14, 1) and where[26] == (1, 1)
    assert where[39] == (1, 14) and where[51] == (13, 14)
    assert len(set(where.values())) == 52
    go = page[page.index('data-index="0"'):]
    assert go[:go.index("</div>")].count('class="tok') == 3  # everyone starts on GO


def test_mega_rules_in_three_languages(app: Flask) -> None:
    ann = joined(app, "Ann")
    for lang, words in (("en", ["speed die", "Mr. Monopoly", "bus ticket", "skyscraper"]),
                        ("fr", ["dé rapide", "Mr. Monopoly", "ticket de bus", "gratte-ciel"]),
                        ("nl", ["snelheidsdobbelsteen", "Mr. Monopoly", "buskaart",
                                "wolkenkrabber"])):
        ann.client.get(f"/lang/{lang}?next=/rules")
        page = text(ann.client.get("/rules")).lower()
        assert f'lang="{lang}"' in page
        for word in words:
            assert word.lower() in page, (lang, word)
    ann.client.get("/lang/en?next=/rules")
    page = text(ann.client.get("/rules"))
    assert "Speed die (Mega): three dice" in page
    assert "skyscraper" in text(ann.client.get("/rules?q=skyscraper")).lower()
