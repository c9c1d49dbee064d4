"""Issue 26's attacks on moves and results, played through the real journaled session and
the phone API (Flask test client), each kept as a test so that it stays closed:

- self-pay: a player's phone sending pass_go again and again (258 salaries in 10 s);
- teleport: `land` with `via_go` in a game where the device rolls and moves the tokens;
- take-backs: undoing one's own device roll after rent was paid, typing better dice, naming
  the Chance card in a game where the device draws the cards.

A result seen is a result kept; typed dice and named cards only at a table that chose its
own dice or deck at setup; where the device moves the tokens only the banker corrects a
move, and the journal says it was a correction.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import TABLE, joined, open_real_session, play

from companion.game.api import Source
from companion.game.applying import apply_command
from companion.game.journal import Entry, Journal
from companion.game.session import GameSession
from companion.game.table.records import Setup
from companion.rules import Accepted

#: with seed 3 the device's first roll for Ann is (4, 1): Gare Montparnasse (square 5)
STATION = 5
#: with seed 4 it is (4, 3): the first Chance square (7)
CHANCE = 7
OPTIONS: dict[str, dict[str, Any]] = {
    "device": {}, "physical_dice": {"physical_dice": True},
    "physical_deck": {"physical_deck": True}, "bank_only": {"bank_only": True},
}


@pytest.fixture
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    seed, table = getattr(request, "param", (3, "device"))
    session = open_real_session(tmp_path / "game", seed=seed, options=OPTIONS[table])
    yield session
    session.close()


def cash(game: Any) -> dict[str, int]:
    return {p["name"]: p["cash"] for p in game.state()["players"]}


def refused(resp: Any, code: str) -> dict[str, Any]:
    body = resp.get_json()
    assert resp.status_code in (403, 409, 422), body
    assert body["ok"] is False and body["code"] == code, body
    assert body["message"] and body["message"] != code  # said in words, not a code
    return dict(body)


def bo_owns_the_station(game: Any) -> None:
    """The banker puts Bo on the station and Bo buys it (a correction, journaled as one)."""
    play(game, {"do": "land", "by": "Bo", "square": STATION}, {"do": "buy", "by": "Bo"})
    row = game.history(None, 5)[-2]
    assert row["command"]["correction"] is True, row


def test_258_salaries_from_a_phone_are_all_refused(app: Flask, game: Any) -> None:
    ann = joined(app, "Ann")
    before = cash(game)
    phone = Source("phone", player="Ann")
    for _ in range(258):  # through the session, as fast as it answers
        out = game.submit({"do": "pass_go"}, phone)
        assert not out.accepted and out.code == "device_moves"
    for command in ({"do": "pass_go"}, {"do": "pass_go", "by": "Ann"},
                    {"do": "pass_go", "by": "Ann", "correction": True}):
        for _ in range(5):  # and through the phone API
            body = ann.command(command).get_json()
            assert body["ok"] is False and body["code"] in ("device_moves", "banker_only")
    assert cash(game) == before
    ann.command({"do": "roll"})  # after the roll as before it
    assert refused(ann.command({"do": "pass_go"}), "device_moves")["message"]
    assert "pass_go" not in {c["do"] for c in game.state()["legal"] if c.get("by") == "Ann"}


@pytest.mark.parametrize("game", [(3, "bank_only")], indirect=True)
def test_in_bank_only_play_one_salary_per_move(app: Flask, game: Any) -> None:
    ann = joined(app, "Ann")
    before = cash(game)
    phone = Source("phone", player="Ann")
    codes = [game.submit({"do": "pass_go"}, phone).code for _ in range(258)]
    assert codes.count(None) == 1 and set(codes) == {None, "salary_paid"}
    refused(ann.command({"do": "pass_go"}), "salary_paid")
    assert cash(game)["Ann"] == before["Ann"] + 200
    body = refused(ann.command({"do": "land", "square": 9}), "not_past_go")
    assert "GO" in body["message"]
    assert ann.command({"do": "land", "square": 0}).get_json()["ok"]  # GO: not paid again
    assert cash(game)["Ann"] == before["Ann"] + 200
    refused(ann.command({"do": "land", "square": 3}), "already_moved")
    refused(ann.command({"do": "pass_go"}), "already_moved")


def test_land_via_go_is_no_teleport_where_the_device_rolls(app: Flask, game: Any) -> None:
    ann = joined(app, "Ann")
    before = game.state()
    for square in (39, 5, 0):
        refused(ann.command({"do": "land", "square": square, "via_go": True}), "device_moves")
        refused(ann.command({"do": "land", "square": square, "via_go": True,
                             "correction": True}), "banker_only")
    after = game.state()
    assert after["players"] == before["players"] and after["pending"] is None
    assert after["version"] == before["version"]


def test_the_banker_corrects_a_move_and_the_journal_says_so(app: Flask, game: Any) -> None:
    banker = joined(app, "banker")
    resp = banker.command({"do": "land", "by": "Cy", "square": 39, "via_go": True})
    assert resp.status_code == 200, resp.get_json()
    row = game.history(None, 1)[-1]
    assert row["command"] == {"do": "land", "by": "Cy", "square": 39, "via_go": True,
                              "correction": True}
    assert row["source"]["banker"] is True


def test_undoing_ones_own_device_roll_after_paying_rent_takes_the_banker(
        app: Flask, game: Any) -> None:
    bo_owns_the_station(game)
    ann = joined(app, "Ann")
    assert ann.command({"do": "roll"}).get_json()["ok"]
    paid = cash(game)
    assert paid["Ann"] == 1500 - 25 and paid["Bo"] == 1500 - 200 + 25
    assert "Undo my last move" not in ann.client.get("/me").get_data(as_text=True)
    for _ in range(3):
        body = refused(ann.post("/api/undo", {"version": game.version}), "result_kept")
        assert "banker" in body["message_en"]
    out = game.undo(Source("phone", player="Ann"))  # the session itself, too
    assert not out.accepted and out.code == "result_kept"
    refused(ann.command({"do": "roll", "dice": [6, 6]}), "device_dice")  # no better dice
    assert cash(game) == paid
    assert game.undo(TABLE).accepted  # the banker may
    assert cash(game)["Ann"] == 1500


@pytest.mark.parametrize("game", [(3, "physical_dice")], indirect=True)
def test_rent_paid_with_typed_dice_comes_back_only_with_the_payees_consent(
        app: Flask, game: Any) -> None:
    bo_owns_the_station(game)
    ann, bo = joined(app, "Ann"), joined(app, "Bo")
    assert ann.command({"do": "roll", "dice": [1, 4]}).get_json()["ok"]  # typed: allowed
    paid = cash(game)
    body = refused(ann.post("/api/undo", {"version": game.version}), "result_kept")
    assert "Bo" in body["message"]
    assert cash(game) == paid
    resp = bo.post("/api/undo", {"version": game.version})  # Bo gives the rent back
    assert resp.status_code == 200, resp.get_json()
    assert cash(game)["Ann"] == 1500


@pytest.mark.parametrize("game", [(4, "device")], indirect=True)
def test_a_phone_cannot_name_the_card_the_device_draws(app: Flask, game: Any) -> None:
    ann = joined(app, "Ann")
    assert ann.command({"do": "roll"}).get_json()["ok"]
    assert game.state()["pending"]["kind"] == "draw"
    before = game.state()
    for card in ("chance-go", "chance-utility", "chance-1"):
        refused(ann.command({"do": "draw", "card": card}), "device_cards")
    assert game.state()["version"] == before["version"]
    assert ann.command({"do": "draw"}).get_json()["ok"]
    out = game.undo(Source("phone", player="Ann"))
    assert not out.accepted and out.code == "result_kept"  # the card seen stays drawn


@pytest.mark.parametrize("game", [(4, "physical_deck")], indirect=True)
def test_a_table_with_its_own_deck_names_the_card(app: Flask, game: Any) -> None:
    ann = joined(app, "Ann")
    refused(ann.command({"do": "roll", "dice": [3, 4]}), "device_dice")  # its dice: device
    assert ann.command({"do": "roll"}).get_json()["ok"]
    assert game.state()["pending"] == {**game.state()["pending"], "kind": "draw"}
    resp = ann.command({"do": "draw", "card": "chance-go"})
    assert resp.status_code == 200, resp.get_json()


def test_an_old_journal_with_moves_told_by_hand_still_replays(tmp_path: Path) -> None:
    """Rows journaled before moves were checked (a phone's pass_go in a dice game, two
    squares told in one bank-only turn) replay as the corrections they then were."""
    for options, rows in (
        ({}, [{"do": "pass_go", "by": "Ann"}, {"do": "pass_go", "by": "Ann"},
              {"do": "land", "by": "Ann", "square": 39, "via_go": True}]),
        ({"bank_only": True}, [{"do": "land", "by": "Ann", "square": 6}, {"do": "decline"},
                               {"do": "close_auction"}, {"do": "land", "square": 3,
                                                         "via_go": True}]),
    ):
        path = tmp_path / f"old{len(rows)}"
        path.mkdir()
        from companion.game.saved_games import journal_path

        journal = Journal.create(journal_path(path, "old"), "old")
        state = None
        commands = [{"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                     "seed": 1, "options": options}, *rows]
        for seq, command in enumerate(commands, 1):
            legacy = {**command, "correction": True} if command["do"] in (
                "land", "pass_go") else command  # the rule such a row was accepted under
            result = apply_command(state, legacy)
            assert isinstance(result, Accepted), result
            state = result.state
            journal.append(Entry(seq, float(seq), "command", None, TABLE, command,
                                 result.events, state.version, None))
        journal.close()
        assert state is not None
        with GameSession.open(path, "old") as session:
            replayed = {p["name"]: p["cash"] for p in session.state()["players"]}
        assert replayed == {p.name: p.cash for p in state.players}


def test_only_the_bankers_phone_offers_a_correction(app: Flask, game: Any) -> None:
    ann, banker = joined(app, "Ann"), joined(app, "banker")
    mine = ann.client.get("/me").get_data(as_text=True)
    assert 'name="correction"' not in mine and "Moved by hand" not in mine
    assert 'name="dice[]"' not in mine  # the companion rolls at this table: no typed dice
    page = banker.client.get("/me?as=Ann").get_data(as_text=True)
    assert 'name="correction" value="true" data-bool' in page
    assert '"correction": true' in page and '"do": "pass_go"' in page


@pytest.mark.parametrize("game", [(3, "physical_dice")], indirect=True)
def test_a_table_with_its_own_dice_offers_typed_dice(app: Flask, game: Any) -> None:
    page = joined(app, "Ann").client.get("/me").get_data(as_text=True)
    assert 'name="dice[]"' in page


def test_the_history_says_a_correction(app: Flask, game: Any) -> None:
    from companion.words import catalog
    from companion.words.move_words import describe_move

    play(game, {"do": "pass_go", "by": "Bo"})
    row = game.history(None, 1)[-1]
    said = describe_move(row, Setup.of(game.state()), "fr", catalog.translator("fr")).text
    assert said.startswith("Correction : ") and "Bo" in said
