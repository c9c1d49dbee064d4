"""Attacks on the money through the real HTTP remote: a player may not credit themselves.

Issue "Who may act at the table": every refusal leaves every balance as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import joined, open_real_session, play


@pytest.fixture
def game(tmp_path: Path) -> Any:
    session = open_real_session(tmp_path / "game", options={"physical_dice": True})
    yield session
    session.close()


def cash(app: Flask) -> dict[str, int]:
    session = app.extensions["web_remote"].session
    return {p["name"]: p["cash"] for p in session.state()["players"]}


@pytest.mark.parametrize("command", [
    {"do": "pass_go"},
    {"do": "land", "square": 0},
    {"do": "land", "square": 5, "via_go": True},
    {"do": "pay", "from": "bank", "to": "Bo", "amount": 500},
    {"do": "pay", "from": "Ann", "to": "Bo", "amount": 500},
])
def test_a_player_cannot_credit_themselves_out_of_turn(app: Flask, command: Any) -> None:
    bo = joined(app, "Bo")  # Ann's turn
    before = cash(app)
    for _ in range(10):
        resp = bo.command(command)
        assert resp.status_code in (403, 422), resp.get_json()
        assert resp.get_json()["ok"] is False and resp.get_json()["message"]
    assert cash(app) == before


def test_no_salary_while_a_decision_is_pending(app: Flask, game: Any) -> None:
    play(game, {"do": "roll", "dice": [1, 2]})  # Ann on a lot: buy or decline is pending
    ann = joined(app, "Ann")
    before = cash(app)
    for command in ({"do": "pass_go"}, {"do": "land", "square": 0}):
        resp = ann.command(command)  # where the device rolls, moves are never a player's
        assert resp.status_code == 422 and resp.get_json()["code"] == "device_moves"
    assert cash(app) == before  # (bank-only play: tests/test_rules_bank_only.py)


def test_the_refusal_is_said_in_the_phones_language(app: Flask) -> None:
    bo = joined(app, "Bo")
    bo.client.get("/lang/fr")
    resp = bo.command({"do": "end_turn"})
    body = resp.get_json()
    assert body["code"] == "not_your_turn"
    assert body["message"] != body["message_en"] and "Ann" in body["message"]
