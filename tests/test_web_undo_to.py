"""The banker's "undo to here" through the real phone remote: History's numbers lead the
banker's phone to a page naming every move taken back (and the companion's own dice), one
POST goes back in one step, the banker's Undo brings it all back; a player's phone is
refused in its own language. Flask's test client on the real journaled session."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from web_fakes import ORIGIN, TABLE, joined, play


def _text(resp: Any) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", resp.get_data(as_text=True)))


def _setup(game: Any) -> int:
    """Ann rolls 1 + 2 and buys; the companion rolls Bo's dice. Returns the buy's seq."""
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})
    bought = game.history(limit=1)[-1]["seq"]
    play(game, {"do": "end_turn"}, {"do": "roll"})
    return int(bought)


def test_the_banker_goes_back_in_one_step_and_undoes_it_whole(app: Any, game: Any) -> None:
    bought = _setup(game)
    banker = joined(app, "banker")
    history = banker.client.get("/history").get_data(as_text=True)
    assert f'href="/back/{bought}"' in history
    asked = banker.client.get(f"/back/{bought}")
    assert asked.status_code == 200
    said = _text(asked)
    assert f"Go back to just after move #{bought}?" in said
    assert "Ann bought Rue Lecourbe" in said  # the move gone back to
    assert "Going back takes back these 2 moves, the newest first:" in said
    rolled = next(e for e in game.history() if e["command"].get("do") == "roll"
                  and e["seq"] > bought)
    dice = " + ".join(str(d) for d in rolled["command"]["dice"])
    assert f"Bo rolled {dice}" in said and "(the companion rolled these dice)" in said
    before = game.state()
    version = before["version"]
    gone = banker.client.post(f"/back/{bought}", data={
        "csrf_token": banker.csrf, "version": str(version)}, headers={"Origin": ORIGIN})
    assert gone.status_code == 302 and gone.headers["Location"].endswith("/history")
    now = game.state()
    assert now["version"] == version + 1 and now["current"] == "Ann"
    assert now["squares"][1]["owner"] == "Ann" and now["dice"] == [1, 2]
    assert game.history(limit=1)[-1]["kind"] == "undo_to"
    # the Table page's latest moves say the jump; the banker's Undo brings it all back
    assert f"Back to move #{bought} (by the banker)" in _text(banker.client.get("/table"))
    back = banker.post("/api/undo", {"version": now["version"]})
    assert back.status_code == 200, back.data
    assert game.state()["current"] == before["current"]
    assert game.state()["dice"] == before["dice"]


def test_a_stale_page_or_a_line_not_in_force_is_refused_in_words(app: Any, game: Any) -> None:
    bought = _setup(game)
    banker = joined(app, "banker")
    version = game.state()["version"]
    stale = banker.client.post(f"/back/{bought}", data={
        "csrf_token": banker.csrf, "version": str(version - 1)}, headers={"Origin": ORIGIN})
    assert stale.status_code == 409 and "The table has changed" in _text(stale)
    assert game.state()["version"] == version
    last = game.history(limit=1)[-1]["seq"]
    assert "is the last move: there is nothing after it" in _text(
        banker.client.get(f"/back/{last}"))
    assert game.undo(TABLE).accepted  # Bo's roll taken back: its line is not in force
    undone = last
    refused = banker.client.post(f"/back/{undone}", data={
        "csrf_token": banker.csrf, "version": str(game.state()["version"])},
        headers={"Origin": ORIGIN})
    assert refused.status_code == 409
    assert f"Move #{undone} is not in play now: it was taken back" in _text(refused)


def test_a_players_phone_is_refused_in_its_language(app: Any, game: Any) -> None:
    bought = _setup(game)
    ann = joined(app, "Ann")
    ann.client.set_cookie("lang", "sv")
    history = ann.client.get("/history").get_data(as_text=True)
    assert "/back/" not in history
    asked = ann.client.get(f"/back/{bought}", headers={"Accept": "application/json"})
    assert asked.status_code == 403
    assert asked.get_json()["code"] == "banker_only"
    assert asked.get_json()["message"] == "Bara bankiren kan göra det."
    version = game.state()["version"]
    sent = ann.client.post(f"/back/{bought}", data={"csrf_token": ann.csrf,
                                                    "version": str(version)},
                           headers={"Origin": ORIGIN})
    assert sent.status_code == 403 and "Bara bankiren kan göra det." in _text(sent)
    assert game.state()["version"] == version


def test_the_question_is_said_in_the_bankers_language(app: Any, game: Any) -> None:
    bought = _setup(game)
    banker = joined(app, "banker")
    banker.client.set_cookie("lang", "fr")
    said = _text(banker.client.get(f"/back/{bought}"))
    assert f"Revenir juste après le coup n° {bought} ?" in said
    assert "Revenir annule ces 2 coups, le plus récent d'abord :" in said
    assert "(dés lancés par le compagnon)" in said
