"""The parts of the Table, Me and History pages drawn again only when what they show changed
(web_remote/views/fragments.py): never a part kept from before a change it shows, in any
language, for any player or the banker acting for one; and after a payment only the parts
it changed are drawn again."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from markupsafe import escape
from web_fakes import TABLE, Phone, open_real_session, text

from companion.game.api import Source
from tools.bench.fanout import table_move
from web_remote import create_app
from web_remote.present import money
from web_remote.views.fragments import SLOT, FragmentMismatch, Fragments

PLAYERS = ("Ann", "Bo", "Cy")
PIN = "2468"


@pytest.fixture(params=["classic-eur", "mega"])
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A 3-player game of the classic board and of Mega's (bus tickets, skyscrapers,
    depots, a board of 52 squares), the device's dice."""
    session = open_real_session(tmp_path / "game", PLAYERS, seed=11, edition=request.param)
    yield session
    session.close()


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Iterator[Flask]:
    """The remote without its rate limit: every page is read after every move."""
    app = create_app(game, tmp_path / "game", {"rate_per_s": 1e6, "burst": 1e6,
                                               "banker_pin": PIN})
    app.testing = True  # a part's mismatch is raised here, not answered as a 500
    yield app
    app.extensions["web_remote"].close()


def _phones(app: Flask) -> dict[str, Phone]:
    """Each player's phone (Ann's in Dutch, Bo's in Russian), a spectator's in Swedish and
    one in English, and the banker's in Dutch (acting for each player in turn: on Ann's
    page it asks for the parts Ann's phone asks for)."""
    phones: dict[str, Phone] = {}
    for who, lang in (("player:Ann", "nl"), ("player:Bo", "ru"), ("player:Cy", "en"),
                      ("spectator", "sv"), ("spectator", "en"), ("banker", "nl")):
        phone = Phone(app)
        phone.client.set_cookie("lang", lang)
        assert phone.join(who, PIN if who == "banker" else "").status_code == 302
        phones[f"{who}/{lang}"] = phone
    return phones


def _command(move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A command the state's legal move stands for, its square and amount picked."""
    command = {k: v for k, v in move.items() if k in ("do", "by")}
    if move.get("squares"):
        command["square"] = rng.choice(move["squares"])
    if "min" in move:
        command["amount"] = move["min"]
    return command


def _read_all(phones: dict[str, Phone], turn: int) -> list[str]:
    """Every phone's live part: players on Me, spectators on Table, the banker on Me as
    one of the players; then the spectators' and the banker's History (its rows with and
    without the banker's links back)."""
    pages = []
    for key, phone in phones.items():
        if key.startswith("spectator"):
            path = "/table?partial=1"
        elif key.startswith("banker"):
            path = f"/me?partial=1&as={PLAYERS[turn % len(PLAYERS)]}"
        else:
            path = "/me?partial=1"
        resp = phone.client.get(path)
        assert resp.status_code == 200, (path, resp.status_code)
        pages.append(text(resp))
    for key, phone in phones.items():
        if not key.startswith("player"):
            resp = phone.client.get("/history?partial=1")
            assert resp.status_code == 200, resp.status_code
    return pages


def test_no_part_is_ever_kept_past_a_change_it_shows(app: Flask, game: Any) -> None:
    """A whole game's moves from the players' phones (buys, auctions, builds, mortgages,
    cards, jail), payments, trade offers and undos, every page read after each in four
    languages: every part is drawn again every time and compared with the one kept for
    equal inputs (check mode), so a part that reads anything beyond its inputs fails."""
    app.extensions[SLOT] = checking = Fragments(check=True)
    phones = _phones(app)
    rng = random.Random(5)
    moves = offers = undone = 0
    for turn in range(260):
        state = game.state()
        if state.get("winner"):
            break
        if turn % 17 == 16:
            out = game.undo(TABLE)
            undone += out.accepted
        elif turn % 11 == 10:
            ann = phones["player:Ann/nl"]
            status = ann.post("/api/trades", {"version": state["version"], "to": "Bo",
                                              "give": {"cash": 10}, "take": {}}).status_code
            offers += status == 200
        else:
            legal = [m for m in state["legal"] if isinstance(m.get("by"), str)]
            if turn % 7 == 3:
                payer, payee = rng.sample(PLAYERS, 2)
                legal = [{"do": "pay", "from": payer, "to": payee, "amount": 3}]
            if not legal:
                legal = [m for m in state["legal"] if m.get("do") == "close_auction"]
            move = rng.choice(legal)
            command = _command(move, rng) if move["do"] != "pay" else move
            actor = command.get("by") or command.get("from")
            source = Source(kind="phone", player=actor) if actor else TABLE
            moves += game.submit(command, source).accepted
        try:
            _read_all(phones, turn)
        except FragmentMismatch as mismatch:  # pragma: no cover - the failure's message
            pytest.fail(f"after move {turn}: {mismatch}")
    assert moves > 120 and offers >= 5 and undone >= 5
    kinds = set(checking.drawn)
    assert {"table.board", "table.square", "table.player", "table.deeds", "table.deed",
            "table.move", "table.said", "me.balance", "me.deeds", "me.trades", "me.more",
            "history.row"} <= kinds


def test_a_payment_draws_again_only_what_it_changed(app: Flask, game: Any) -> None:
    """After Ann pays Bo, the Table page draws the two players' rows and the new line of
    its latest moves again, and nothing of the board or the deeds; Cy's Me page draws
    none of its deed cards, trades or forms again; and what is drawn says the new cash."""
    kept = app.extensions.setdefault(SLOT, Fragments())
    phones = _phones(app)
    for _ in range(12):  # some deeds bought first, so there are deed cards to keep
        state = game.state()
        move = table_move(state) or _command(
            next(m for m in state["legal"] if isinstance(m.get("by"), str)), random.Random(1))
        assert game.submit(move, TABLE).accepted
    _read_all(phones, 0)
    before = dict(kept.drawn)
    cash = {p["name"]: p["cash"] for p in game.state()["players"]}
    out = game.submit({"do": "pay", "from": "Ann", "to": "Bo", "amount": 7},
                      Source(kind="phone", player="Ann"))
    assert out.accepted
    pages = _read_all(phones, 0)
    drawn = {k: v - before.get(k, 0) for k, v in kept.drawn.items() if v != before.get(k, 0)}
    # two spectators in two languages: each part once per language
    assert drawn.get("table.player") == 2 * 2
    assert drawn.get("table.move") == 2
    assert drawn.get("table.said") == 2  # the new line said, in each language, alone
    assert not {"table.board", "table.square", "table.deeds", "table.deed"} & set(drawn)
    # only Ann's and Bo's Me pages could draw a part again (the banker reads Ann's)
    assert drawn.get("me.deeds", 0) <= 3 and drawn.get("me.more", 0) == 0
    # their balances (Ann's twice: her own phone marks her news seen, the banker's does not)
    assert drawn.get("me.balance") == 3
    table = pages[list(phones).index("spectator/en")]
    row = table[table.index('data-player="Ann"'):]
    row = row[:row.index("</tr>")]
    currency = game.state().get("currency")
    assert f'data-label="Cash">{escape(money(cash["Ann"] - 7, currency, "en"))}<' in row
