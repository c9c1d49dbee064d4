"""Bounded input on the phone API (issue 17, "bounded input everywhere"): nesting and number
size, notes, players' names and the language link's `next` are refused with a clear answer
in the phone's language, and nothing changes; what held (10 MB bodies) keeps holding."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from web_fakes import ORIGIN, Phone, joined

from companion.game.limits import MAX_NOTE

#: the issue's bound on a player's name
MAX_NAME = 24


def french(phone: Phone) -> Phone:
    phone.client.get("/lang/fr")
    return phone


def raw_command(phone: Phone, body: bytes) -> Any:
    return phone.client.post("/api/commands", data=body, headers={
        "Content-Type": "application/json", "X-CSRF-Token": phone.csrf, "Origin": ORIGIN})


def test_json_nested_20000_deep_is_a_400_in_json(app: Flask, game: Any) -> None:
    phone = french(joined(app, "Ann"))
    before = game.state()
    body = b'{"version": 1, "command": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"
    assert len(body) > 40_000
    resp = raw_command(phone, body)
    assert resp.status_code == 400
    answer = resp.get_json()
    assert answer["code"] == "bad_json"
    assert "imbriqu" in answer["message"]  # said in the phone's language
    assert "16 levels" in answer["message_en"]
    assert game.state() == before


def test_a_5000_digit_number_is_a_400(app: Flask, game: Any) -> None:
    phone = joined(app, "Ann")
    resp = raw_command(phone, b'{"version": ' + b"9" * 5000 + b', "command": {"do": "roll"}}')
    assert resp.status_code == 400
    assert resp.get_json()["code"] == "bad_json"
    assert "digits" in resp.get_json()["message_en"]
    garbage = raw_command(phone, b"\xff{not json")
    assert garbage.status_code == 400 and garbage.get_json()["code"] == "bad_json"


def test_ten_megabyte_bodies_stay_refused(app: Flask) -> None:
    phone = joined(app, "Ann")
    resp = raw_command(phone, b"[" + b"0," * (5 * 1024 * 1024) + b"0]")
    assert resp.status_code == 413
    assert resp.get_json()["code"] == "too_large"


def test_a_long_note_is_refused_clearly_and_nothing_is_journaled(app: Flask,
                                                                 game: Any) -> None:
    phone = french(joined(app, "Ann"))
    version = game.version
    resp = phone.command({"do": "roll", "dice": [1, 2], "note": "x" * (MAX_NOTE + 1)})
    assert resp.status_code == 400
    answer = resp.get_json()
    assert answer["code"] == "bad_command" and str(MAX_NOTE) in answer["message"]
    assert "note" in answer["message"].lower() and "caractères" in answer["message"]
    assert game.version == version
    ok = phone.command({"do": "roll", "dice": [1, 2], "note": "y" * MAX_NOTE})
    assert ok.status_code == 200, ok.get_json()


@pytest.mark.parametrize("name", ["Ann\ud800", "Bo\x00", "Cy\rDee", "Z" * 5000,
                                  "Z" * (MAX_NAME + 1), "\u200bEve"])
def test_bad_player_names_are_refused_at_setup_in_the_phones_language(
        app: Flask, game: Any, name: str) -> None:
    banker = french(joined(app, "banker"))
    before = game.state()
    if "\ud800" not in name:  # a form cannot carry a lone surrogate, JSON can
        form = {"csrf_token": banker.csrf, "edition": "classic-eur",
                "players": f"Ann, {name}"}
        resp = banker.client.post("/banker/new-game", data=form, headers={
            "Origin": ORIGIN, "Accept": "application/json"})
        assert resp.status_code == 400
        answer = resp.get_json()
        assert answer["code"] == "bad_players"
        assert "nom" in answer["message"] and str(MAX_NAME) in answer["message"]
        assert game.state() == before
    api = banker.command({"do": "new_game", "edition": "classic-eur", "players": ["Ann", name],
                          "seed": 1})
    assert api.status_code == 400 and api.get_json()["code"] == "bad_players"
    assert "nom" in api.get_json()["message"]
    assert game.state() == before


def test_good_player_names_still_start_a_game(app: Flask, game: Any) -> None:
    banker = joined(app, "banker")
    names = "Zoé, Åsa, " + "M" * MAX_NAME
    resp = banker.client.post("/banker/new-game", data={
        "csrf_token": banker.csrf, "edition": "classic-eur", "players": names},
        headers={"Origin": ORIGIN, "Accept": "application/json"})
    assert resp.status_code == 200, resp.get_json()
    assert [p["name"] for p in game.state()["players"]] == ["Zoé", "Åsa", "M" * MAX_NAME]


@pytest.mark.parametrize("target", ["/%09/evil.example", "/%0a/evil.example",
                                    "/%5Cevil.example", "//evil.example", "https://evil.example",
                                    "/\t/evil.example", "javascript:alert(1)"])
def test_the_language_link_redirects_only_on_this_site(app: Flask, target: str) -> None:
    client = app.test_client()
    resp = client.get(f"/lang/en?next={target}")
    assert resp.status_code == 302
    assert resp.headers["Location"] == "/"


def test_the_language_link_keeps_a_path_of_this_site(app: Flask) -> None:
    resp = app.test_client().get("/lang/fr?next=/me%3Ftab%3Ddeeds")
    assert resp.headers["Location"] == "/me?tab=deeds"
    assert json.dumps(resp.headers.get("Set-Cookie", "")).count("lang=fr") == 1
