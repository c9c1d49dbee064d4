"""The Table page's "Latest" list through Flask's test client: each move of this game as a
sentence in the phone's language (companion.words.move_words), newest first, with what else
happened under it, the banker named when the banker's phone acted for a player, moves
taken back struck through and the undo saying what it took back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import TABLE, Phone, open_real_session, play


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo"))
    yield session
    session.close()


def latest(phone: Phone, lang: str = "en") -> list[tuple[str, str]]:
    """(the item's class, its text with the lines under it after " | ") of the list."""
    phone.client.set_cookie("lang", lang)
    html = phone.client.get("/table?partial=1").get_data(as_text=True)
    listed = html[html.index('<ol class="recent">'):]
    listed = listed[:listed.index("</ol>")]
    out = []
    for css, body in re.findall(r'<li class="([^"]*)"[^>]*>(.*?)</li>', listed, re.S):
        said = re.sub(r'<p class="why-[^"]*">.*?</p>', "", body, flags=re.S)  # tapped open
        said = re.sub(r'<span class="then">', " | ", said)
        out.append((css, unescape(re.sub(r"<[^>]+>", "", said)).replace("\u00a0", " ")))
    return out


def test_latest_moves_are_sentences_newest_first(app: Flask, game: Any) -> None:
    ann = Phone(app)
    ann.join("player:Ann")
    play(game, {"do": "roll", "dice": [1, 2]})
    assert ann.command({"do": "buy"}).get_json()["ok"]
    play(game, {"do": "end_turn"}, {"do": "roll", "dice": [1, 2]})  # Bo pays Ann's rent
    assert [text for _css, text in latest(ann)] == [
        "Bo rolled 1 + 2 and moved to Rue Lecourbe | Bo → Ann € 4 rent",
        "Bo's turn",
        "Ann bought Rue Lecourbe for € 60",
        "Ann rolled 1 + 2 and moved to Rue Lecourbe",
        "New game of Monopoly — classic edition (euro): Ann, Bo",  # the edition in English
    ]
    assert [text for _css, text in latest(ann, "sv")][:3] == [
        "Bo slog 1 + 2 och flyttade till Rue Lecourbe | Bo → Ann € 4 i hyra",
        "Tärningarna går till Bo",
        "Ann köpte Rue Lecourbe för € 60",
    ]
    said = " ".join(text for _css, text in latest(ann))
    assert "end_turn" not in said and "script" not in said  # no raw command or source


def test_the_banker_acting_for_a_player_and_undo_are_said(app: Flask, game: Any) -> None:
    banker = Phone(app)
    banker.join("banker", pin="2468")
    play(game, {"do": "roll", "dice": [1, 2]})
    assert banker.command({"do": "buy", "by": "Ann"}).get_json()["ok"]
    assert banker.command({"do": "pay", "from": "Bo", "to": "bank", "amount": 15}
                          ).get_json()["ok"]
    assert banker.post("/api/undo", {"version": game.version}).get_json()["ok"]
    moves = latest(banker)
    assert moves[:3] == [
        ("undo", "Taken back: Bo paid € 15 to the bank (by the banker)"),
        ("command undone", "Bo paid € 15 to the bank (by the banker)"),
        ("command", "Ann bought Rue Lecourbe for € 60 (by the banker)"),
    ]
    assert latest(banker, "de")[0] == \
        ("undo", "Zurückgenommen: Bo zahlte € 15 an die Bank (durch die Bank)")
    assert banker.post("/api/redo", {"version": game.version}).get_json()["ok"]
    assert latest(banker)[0] == ("redo", "Done again: Bo paid € 15 to the bank (by the banker)")


def test_an_undo_far_back_still_names_its_move(app: Flask, game: Any) -> None:
    ann = Phone(app)
    ann.join("player:Ann")
    play(game, {"do": "pay", "from": "Ann", "to": "Bo", "amount": 5})
    for amount in range(1, 14):  # more than the list shows
        play(game, {"do": "pay", "from": "bank", "to": "Bo", "amount": amount})
    for _undo in range(14):
        assert game.undo(TABLE).accepted
    moves = latest(ann)
    assert len(moves) == 12
    assert moves[0] == ("undo", "Taken back: Ann paid € 5 to Bo")


def test_the_list_starts_at_the_game_in_play(app: Flask, game: Any) -> None:
    banker = Phone(app)
    banker.join("banker", pin="2468")
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})
    play(game, {"do": "new_game", "edition": "sv", "players": ["Åsa", "Bo", "Cy"], "seed": 2})
    moves = latest(banker)
    assert len(moves) == 1 and moves[0][1].startswith("New game of ")
    assert "Åsa, Bo, Cy" in moves[0][1]
    assert game.undo(TABLE).accepted  # the old game is back, and so are its moves
    moves = latest(banker)
    assert moves[0][1].startswith("Taken back: New game of ")
    assert moves[1][0] == "command undone"
    assert moves[2][1] == "Ann bought Rue Lecourbe for € 60"


def test_a_tapped_money_move_says_why_with_its_rule(app: Flask, game: Any) -> None:
    ann = Phone(app)
    ann.join("player:Ann")
    play(game, {"do": "roll", "dice": [1, 2]})
    assert ann.command({"do": "buy"}).get_json()["ok"]
    play(game, {"do": "end_turn"}, {"do": "roll", "dice": [1, 2]})  # Bo pays Ann's rent
    for lang, why, rule in (
            ("en", "Rent € 4: the printed rent of Rue Lecourbe, no houses", "Rent"),
            ("sv", "Hyra € 4: tryckt hyra för Rue Lecourbe, inga hus", "Hyra"),
            ("fr", "Loyer € 4 : le loyer imprimé de Rue Lecourbe, sans maison", "Loyers")):
        ann.client.set_cookie("lang", lang)
        html = unescape(ann.client.get("/table?partial=1").get_data(as_text=True))
        html = html.replace("\u00a0", " ")
        first = html[html.index('<ol class="recent">'):].split("</li>")[0]
        assert '<details class="why"' in first  # the line opens when tapped
        assert f'<p class="why-text">{why}</p>' in first
        assert re.search(rf'<a href="/rules#rent">{rule}</a>: “[^”]+”', first), first
    ann.client.set_cookie("lang", "en")  # the History page's payments open the same way
    history = unescape(ann.client.get("/history?partial=1").get_data(as_text=True))
    history = history.replace("\u00a0", " ")
    assert '<p class="why-text">Rent € 4: the printed rent of Rue Lecourbe, no houses</p>' \
        in history
    assert '<p class="why-text">Rue Lecourbe bought at its printed price, € 60</p>' in history
