"""The remote's pages through Flask's test client: every route, roles, partial updates,
history, the chart, the rules, the banker's tools, languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import ORIGIN, Phone, text

from companion.game.applying import apply_command, state_json
from companion.rules import Accepted
from web_remote import TableHooks, create_app

PAGES = ["/me", "/table", "/history", "/worth", "/rules"]


@pytest.fixture
def ann(app: Flask) -> Phone:
    phone = Phone(app)
    phone.join("player:Ann")
    return phone


@pytest.fixture
def banker(app: Flask) -> Phone:
    phone = Phone(app)
    phone.join("banker", pin="2468")
    return phone


@pytest.mark.parametrize("path", PAGES + ["/banker", "/worth.svg", "/qr.svg"])
def test_pages_need_a_cookie(app: Flask, path: str) -> None:
    resp = app.test_client().get(path)
    assert resp.status_code in (302, 401)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_whole_and_partial(ann: Phone, path: str) -> None:
    whole = text(ann.client.get(path))
    part = text(ann.client.get(path + "?partial=1"))
    assert "<html" in whole and "<html" not in part
    assert 'data-version="1"' in part


def test_me_shows_balance_and_actions(ann: Phone, game: Any) -> None:
    page = text(ann.client.get("/me"))
    assert "€\u00a01.500" in page
    assert '"do": "roll"' in page  # from legal_commands: Ann may roll now
    ann.command({"do": "roll", "dice": [1, 2]})
    page = text(ann.client.get("/me?partial=1"))
    assert '"do": "buy"' in page and "Rue Lecourbe" in page
    ann.command({"do": "buy"})
    page = text(ann.client.get("/me?partial=1"))
    assert 'data-square="3"' in page and "€\u00a01.440" in page
    assert "€\u00a0180" in page  # the rent ladder: 3 houses on Rue Lecourbe


def test_not_my_turn_shows_no_roll(app: Flask) -> None:
    bo = Phone(app)
    bo.join("player:Bo")
    page = text(bo.client.get("/me"))
    assert '"do": "roll"' not in page


def test_auction_shows_quick_bids(ann: Phone, app: Flask, game: Any) -> None:
    ann.command({"do": "roll", "dice": [1, 2]})
    ann.command({"do": "decline"})
    bo = Phone(app)
    bo.join("player:Bo")
    page = text(bo.client.get("/me"))
    assert "data-countdown" not in page  # the clock runs from the first bid
    assert '"amount": 10' in page and '"amount": 50' in page and '"amount": 100' in page
    assert bo.command({"do": "bid", "amount": 50}).status_code == 200
    page = text(ann.client.get("/me?partial=1"))
    assert '"amount": 60' in page and "Bo" in page and "data-countdown" in page


def test_build_preview_and_cost(banker: Phone, game: Any) -> None:
    banker.command({"do": "roll", "by": "Ann", "dice": [1, 2]})
    banker.command({"do": "buy", "by": "Ann"})
    assert banker.command({"do": "land", "by": "Ann", "square": 1}).status_code == 200
    assert banker.command({"do": "buy", "by": "Ann"}).status_code == 200
    owners = {s["index"]: s["owner"] for s in game.state()["squares"]}
    assert owners[1] == owners[3] == "Ann"
    page = text(banker.client.get("/me?as=Ann"))
    assert '"by": "Ann", "do": "build", "square": 1' in page
    assert "(€\u00a050)" in page  # a house on the brown lots costs € 50
    assert '<span class="lv">1</span><span class="lv">0</span>' in page  # even-building preview


def test_history_lists_transfers_filtered(ann: Phone, app: Flask) -> None:
    ann.command({"do": "pay", "to": "Bo", "amount": 25})
    page = text(ann.client.get("/history"))
    assert "€\u00a025" in page and "payment" in page
    only_cy = text(ann.client.get("/history?player=Cy"))
    assert "€\u00a025" not in only_cy and "starting cash" in only_cy


def test_history_says_who_sent_a_payment_in_words(ann: Phone, banker: Phone) -> None:
    """The 'Sent by' column names the player, else where the command came from, translated;
    never a raw source kind such as "script"."""
    import re

    ann.command({"do": "pay", "to": "Bo", "amount": 25})
    banker.command({"do": "pay", "from": "bank", "to": "Cy", "amount": 40})
    page = text(ann.client.get("/history"))
    cells = re.findall(r"<td>([^<]*)</td></tr>", page)
    assert cells[:2] == ["the banker", "Ann"]  # newest first
    assert "script" not in cells and "phone" not in cells
    sv = text(ann.client.get("/lang/sv?next=/history", follow_redirects=True))
    assert re.findall(r"<td>([^<]*)</td></tr>", sv)[0] == "bankiren"


def test_history_marks_undone(ann: Phone, banker: Phone, game: Any) -> None:
    ann.command({"do": "pay", "to": "Bo", "amount": 25})
    assert banker.post("/api/undo", {"version": game.version}).status_code == 200
    page = text(ann.client.get("/history"))
    assert 'class="undone"' in page


def test_worth_chart_has_a_line_per_player(ann: Phone, game: Any) -> None:
    ann.command({"do": "pay", "to": "Bo", "amount": 25})
    svg = text(ann.client.get("/worth.svg"))
    assert svg.count("<polyline") == 3
    assert 'data-player="Ann"' in svg and "Ann €\u00a01.475" in svg
    page = text(ann.client.get("/worth"))
    assert "<svg" in page


def test_rules_search_and_house_rules(ann: Phone) -> None:
    page = text(ann.client.get("/rules"))
    assert "Free Parking" in page
    found = text(ann.client.get("/rules?q=mortgage"))
    assert "mortgage" in found.lower()
    nothing = text(ann.client.get("/rules?q=zzyzx"))
    assert "0 of" in nothing


def test_rules_in_french(ann: Phone) -> None:
    ann.client.get("/lang/fr?next=/rules")
    page = text(ann.client.get("/rules"))
    assert 'lang="fr"' in page and "hypoth" in page.lower()


@pytest.mark.parametrize("lang,word", [("fr", "Règles"), ("de", "Regeln"), ("sv", "Regler"),
                                       ("nl", "Regels"), ("pl", "Zasady"), ("ru", "Правила"),
                                       ("en", "Rules")])
def test_each_phone_picks_its_language(ann: Phone, app: Flask, lang: str, word: str) -> None:
    resp = ann.client.get(f"/lang/{lang}?next=/me")
    assert resp.status_code == 302 and resp.headers["Location"] == "/me"
    page = text(ann.client.get("/me"))
    assert f'<html lang="{lang}">' in page and word in page
    other = Phone(app)
    other.join("player:Bo")
    assert '<html lang="en">' in text(other.client.get("/me"))


def test_language_redirect_stays_on_site(ann: Phone) -> None:
    resp = ann.client.get("/lang/fr?next=//evil.example/")
    assert resp.headers["Location"] == "/"


def test_banker_page_is_for_the_banker(ann: Phone, banker: Phone) -> None:
    assert ann.client.get("/banker").status_code == 403
    page = text(banker.client.get("/banker"))
    assert "Undo" in page and "New game" in page


def test_banker_undo_asks_about_the_move_it_takes_back(banker: Phone, ann: Phone,
                                                      game: Any) -> None:
    page = text(banker.client.get("/banker?partial=1"))
    assert "data-confirm" not in page.split("Redo")[0], "nothing to undo: nothing to ask"
    ann.command({"do": "roll", "dice": [1, 2]})
    ann.command({"do": "buy"})
    page = text(banker.client.get("/banker?partial=1"))
    assert 'data-confirm="Undo: Ann bought Rue Lecourbe?"' in page
    asked = banker.client.get("/api/undo").get_json()
    assert asked["question"] == "Undo: Ann bought Rue Lecourbe?"
    assert asked["target"]["command"] == {"do": "buy", "by": "Ann"}
    banker.client.get("/lang/fr?next=/banker")
    page = text(banker.client.get("/banker?partial=1"))
    assert 'data-confirm="Annuler : Ann a acheté Rue Lecourbe ?"' in page
    assert banker.post("/api/undo", {"version": game.version}).status_code == 200
    page = text(banker.client.get("/banker?partial=1"))
    assert 'data-confirm="Annuler le lancer (Ann : 1 + 2) ?"' in page  # the next one back
    ann.client.get("/lang/ru?next=/me")
    assert ann.client.get("/api/undo").get_json()["question"] == \
        "Отменить бросок (Ann: 1 + 2)?"


def test_banker_new_game_sets_pin(banker: Phone, app: Flask, game: Any) -> None:
    form = {"players": "Dee, Eve", "edition": "classic-eur", "seed": "5", "pin": "1357",
            "free_parking_pot": "1", "csrf_token": banker.csrf}
    for old in ("", "1111"):  # a new PIN needs the old one: nothing starts without it
        resp = banker.client.post("/banker/new-game", data={**form, "old_pin": old},
                                  headers={"Origin": ORIGIN})
        assert resp.status_code == 403
        assert [p["name"] for p in game.state()["players"]] == ["Ann", "Bo", "Cy"]
    resp = banker.client.post("/banker/new-game", data={**form, "old_pin": "2468"},
                              headers={"Origin": ORIGIN})
    assert resp.status_code == 302
    state = game.state()
    assert [p["name"] for p in state["players"]] == ["Dee", "Eve"]
    assert state["options"]["free_parking_pot"] is True
    assert Phone(app).join("banker", pin="1357").status_code == 302
    assert Phone(app).join("banker", pin="2468").status_code == 403


def test_banker_new_game_follows_the_editions_player_count(banker: Phone, game: Any) -> None:
    from companion.words.catalog import localized_name

    page = text(banker.client.get("/banker"))
    sweden = localized_name("sv", "sv", "en")  # the edition as an English phone names it
    assert f'value="sv" data-min="2" data-max="6" data-allowed="{sweden} is for 2 to 6 ' \
        'players."' in page
    assert 'value="classic-eur" data-min="2" data-max="8"' in page
    assert '<p class="sub" data-players-allowed>' in page  # said for the current edition

    def new_game(edition: str, players: str) -> Any:
        return banker.client.post("/banker/new-game", data={
            "players": players, "edition": edition, "csrf_token": banker.csrf},
            headers={"Origin": ORIGIN})

    before = game.version
    seven = ", ".join(f"P{n}" for n in range(7))
    refused = new_game("sv", seven)
    assert refused.status_code == 400
    said = refused.get_data(as_text=True)
    assert "bad_players" in said and f"{sweden} is for 2 to 6 players." in said
    assert game.version == before, "refused before the engine saw it"
    assert new_game("sv", "Solo").status_code == 400
    assert new_game("no-such-edition", "Ann, Bo").status_code == 400
    banker.client.get("/lang/de?next=/banker")
    german = new_game("ru-monopolist", seven).get_data(as_text=True)
    assert "ist für 2 bis 6 Spieler." in german
    assert game.version == before
    assert new_game("classic-eur", seven).status_code == 302  # 7 are fine on this board
    assert len(game.state()["players"]) == 7


def test_the_banker_downloads_a_backup_that_restores_the_game(
        banker: Phone, ann: Phone, game: Any, tmp_path: Any) -> None:
    import tarfile

    from companion.game.backup import restore_backup
    from companion.game.session import GameSession

    ann.command({"do": "roll", "dice": [1, 2]})
    ann.command({"do": "buy"})
    assert ann.client.get("/banker/backup").status_code in (302, 403)  # the banker's only
    resp = banker.client.get("/banker/backup")
    assert resp.status_code == 200 and resp.headers["Cache-Control"] == "no-store"
    assert "attachment" in resp.headers["Content-Disposition"]
    archive = tmp_path / "b.tar.gz"
    archive.write_bytes(resp.get_data())
    with tarfile.open(archive) as tar:
        assert not any(n.endswith("secret_key") for n in tar.getnames())
    restore_backup(archive, tmp_path / "restored")
    with GameSession.open(tmp_path / "restored") as back:
        assert back.state()["version"] == game.version
        assert back.state()["players"] == game.state()["players"]


def test_banker_export_replays_to_the_same_table(banker: Phone, ann: Phone, game: Any) -> None:
    ann.command({"do": "roll", "dice": [1, 2]})
    ann.command({"do": "buy"})
    ann.command({"do": "pay", "to": "Cy", "amount": 7})
    banker.post("/api/undo", {"version": game.version})
    resp = banker.client.get("/banker/export")
    assert resp.status_code == 200
    lines = [json.loads(x) for x in resp.get_data(as_text=True).splitlines()]
    assert [c["do"] for c in lines] == ["new_game", "roll", "buy"]
    state = None
    for command in lines:
        result = apply_command(state, command)
        assert isinstance(result, Accepted)
        state = result.state
    assert state is not None
    mine = state_json(state)
    theirs = game.state()
    assert mine["players"] == theirs["players"] and mine["squares"] == theirs["squares"]


def test_banker_hooks_absent_are_explained(banker: Phone) -> None:
    page = text(banker.client.get("/banker"))
    assert "No RFID reader" in page
    resp = banker.client.post("/banker/tags", data={"tag": "x", "meaning": "y",
                                                    "csrf_token": banker.csrf},
                              headers={"Origin": ORIGIN})
    assert resp.status_code == 404


def test_banker_tags_and_resume_hooks(game: Any, tmp_path: Path) -> None:
    class Tags:
        def __init__(self) -> None:
            self.items: list[dict[str, str]] = []

        def list(self, lang: str = "en") -> list[dict[str, str]]:
            return self.items

        def register(self, tag: str, meaning: str) -> None:
            self.items.append({"tag": tag, "meaning": meaning})

    tags = Tags()
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"}, TableHooks(tags=tags))
    banker = Phone(app)
    banker.join("banker", pin="2468")
    resp = banker.client.post("/banker/tags", data={"tag": "04AB", "meaning": "player:Ann",
                                                    "csrf_token": banker.csrf},
                              headers={"Origin": ORIGIN})
    assert resp.status_code == 302
    assert tags.items == [{"tag": "04AB", "meaning": "player:Ann"}]
    assert "04AB" in text(banker.client.get("/banker"))
    app.extensions["web_remote"].close()


def test_spectator_goes_to_the_table(app: Flask) -> None:
    phone = Phone(app)
    resp = phone.join("spectator")
    assert resp.headers["Location"].endswith("/table")
    assert phone.client.get("/me").status_code == 302


def test_qr_code_holds_a_join_link(banker: Phone) -> None:
    svg = text(banker.client.get("/qr.svg"))
    assert "<svg" in svg and "/join/" in svg
    assert 'xmlns="http://www.w3.org/2000/svg"' in svg  # a standalone image needs it


def test_security_headers(ann: Phone) -> None:
    resp = ann.client.get("/me")
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert resp.headers["X-Frame-Options"] == "DENY"
    cookie = ann.client.get_cookie("companion")
    assert cookie is not None and cookie.http_only


def test_before_the_first_game(tmp_path: Path) -> None:
    from companion.game.session import GameSession

    with GameSession.open(tmp_path / "empty") as empty:
        app = create_app(empty, tmp_path / "empty", {"banker_pin": "2468"})
        banker = Phone(app)
        assert banker.join("banker", pin="2468").status_code == 302
        for path in PAGES + ["/banker"]:  # the banker's Me page leads to the game's setup
            want = 302 if path == "/me" else 200
            assert banker.client.get(path).status_code == want, path
        resp = banker.client.post("/banker/new-game", data={
            "players": "Ann, Bo", "edition": "classic-eur", "csrf_token": banker.csrf},
            headers={"Origin": ORIGIN})
        assert resp.status_code == 302
        assert [p["name"] for p in empty.state()["players"]] == ["Ann", "Bo"]
        app.extensions["web_remote"].close()


@pytest.mark.parametrize("edition_id", ["classic-eur", "classic-en", "sv", "ch", "pl",
                                        "ru-monopolist", "mega"])
def test_every_edition_has_its_own_rulebook(edition_id: str) -> None:
    from companion.editions import edition_ids, load_edition
    from web_remote import rulebook

    assert edition_id in edition_ids()
    ed = load_edition(edition_id)
    langs = rulebook.available(edition_id)
    assert {"en", ed.language} <= set(langs)
    for lang in langs:
        chosen, sections = rulebook.rulebook(edition_id, lang)
        assert chosen == lang and len(sections) >= 8, (lang, len(sections))
        assert all(s.paragraphs for s in sections)
    money = ed.currency["symbol"]
    _lang, own = rulebook.rulebook(edition_id, ed.language)
    assert any(money in p for s in own for p in s.paragraphs)  # the edition's own amounts


def test_every_edition_is_in_the_tests_above() -> None:
    from companion.editions import edition_ids

    assert set(edition_ids()) == {"classic-eur", "classic-en", "sv", "ch", "pl",
                                  "ru-monopolist", "mega"}


def test_a_command_without_a_player_says_where_it_came_from() -> None:
    from web_remote.present import transactions

    entry = {"seq": 3, "kind": "command", "command": {"do": "roll"},
             "source": {"kind": "rfid", "player": None, "banker": False},
             "events": [{"kind": "transfer", "from": "bank", "to": "Ann", "amount": 200,
                         "reason": "salary"}]}
    (row,) = transactions([entry], None)
    assert row["by"] == "" and row["by_kind"] == "rfid"


def test_the_countdown_is_told_as_the_page_is_drawn(tmp_path: Path) -> None:
    """The view of a version is built once; the auction's seconds on the Me and Table pages
    are the session's clock's when the page is asked for, not the view's first reading."""
    from companion.game.api import Source
    from companion.game.session import GameSession

    clock = [1_000_000.0]
    banker_src = Source("script", banker=True)
    with GameSession.open(tmp_path / "game", clock=lambda: clock[0]) as session:
        for command in ({"do": "new_game", "edition": "classic-eur",
                         "players": ["Ann", "Bo", "Cy"], "seed": 3},
                        {"do": "roll", "dice": [1, 2]}, {"do": "decline"},
                        {"do": "bid", "by": "Bo", "amount": 20}):
            assert session.submit(command, banker_src).accepted, command
        app = create_app(session, tmp_path / "game", {"banker_pin": "2468"})
        try:
            ann, spectator = Phone(app), Phone(app)
            ann.join("player:Ann")
            spectator.join("spectator")
            me = '<p class="countdown" data-countdown="{0}" data-version="4">{0}</p>'
            assert me.format(30) in text(ann.client.get("/me?partial=1"))
            clock[0] += 12.5  # no move: the same version, the same view of the table
            assert me.format(18) in text(ann.client.get("/me?partial=1"))
            table = '<span class="countdown" data-countdown="18">18</span>'
            assert table in text(spectator.client.get("/table?partial=1"))
        finally:
            app.extensions["web_remote"].close()


def test_the_banker_page_says_the_teaching_switch(banker: Phone) -> None:
    """Switching teaching is no move; the banker's page says the switch all the same."""
    page = text(banker.client.get("/banker?partial=1"))
    switched_on = "Switch teaching off" in page
    resp = banker.client.post("/banker/teaching", data={"on": "0" if switched_on else "1",
                                                         "csrf_token": banker.csrf},
                              headers={"Origin": ORIGIN})
    assert resp.status_code in (200, 302, 303)
    page = text(banker.client.get("/banker?partial=1"))
    assert ("Switch teaching on" if switched_on else "Switch teaching off") in page
