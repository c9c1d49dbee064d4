"""The live stream names the players whose Me page may have changed ("me"); a phone on
another player's Me page keeps what it shows (web_remote/static/app.js). Held to account
by rendering: through a bots' game played from the players' own phones (so the undo
button comes and goes) with a few undos, every player's Me page left out of "me" is the
same page as before the update but for its version."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import TABLE, Phone, text

from companion.game.api import Source
from tools.bench.journal import bot_script
from web_remote import create_app

VERSION = re.compile(r'data-version="\d+"')
PLAYERS = ("Ann", "Bo", "Cy")


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Iterator[Flask]:
    """The remote without its rate limit: the test reads every page after every move."""
    app = create_app(game, tmp_path / "game", {"rate_per_s": 1e6, "burst": 1e6})
    yield app
    app.extensions["web_remote"].close()


def _page(phone: Phone) -> str:
    return VERSION.sub("", text(phone.client.get("/me?partial=1")))


def test_a_me_page_left_out_of_the_update_is_unchanged(app: Flask, game: Any) -> None:
    remote = app.extensions["web_remote"]
    client = remote.hub.subscribe("test-watcher")
    assert client is not None
    phones = {}
    for name in PLAYERS:
        phones[name] = Phone(app)
        assert phones[name].join(f"player:{name}").status_code == 302
    script = [c for c in bot_script(7, 160, players=3)[1:]]
    names = {f"P{i + 1}": name for i, name in enumerate(PLAYERS)}
    game.submit({"do": "new_game", "edition": "classic-eur", "players": list(PLAYERS),
                 "seed": 7}, TABLE)
    client.wait(5)
    kept = told = 0
    paid = [{"do": "pay", "from": PLAYERS[k % 3], "to": PLAYERS[(k + 1) % 3], "amount": 1}
            for k in range(len(script))]
    moves = [m for pair in zip(script, paid, strict=True) for m in pair]
    for n, command in enumerate(moves):
        command = {k: names.get(v, v) if isinstance(v, str) else v for k, v in command.items()}
        before = {name: _page(phone) for name, phone in phones.items()}
        actor = command.get("by") or command.get("from")
        source = Source(kind="phone", player=actor) if isinstance(actor, str) else TABLE
        if n % 23 == 22:  # now and then a player takes their move back
            out = game.undo(source)
        else:
            out = game.submit(command, source)
        if not out.accepted:
            continue
        messages: list[Any] = []
        while not any(m.event == "state" and m.payload["version"] == out.version
                      for m in messages):
            got, _ended = client.wait(5)
            assert got, "the stream was not told"
            messages += got
        told_now = [m.payload for m in messages if m.event == "state"][-1]
        if "me" not in told_now or told_now["me"] is None:
            continue
        told += 1
        for name, phone in phones.items():
            if name not in told_now["me"]:
                kept += 1
                assert _page(phone) == before[name], (n, command, name)
    assert told > 20 and kept > 20  # the hint does spare pages, and was checked


def _told(client: Any, version: int) -> dict[str, Any]:
    """The stream's payload of `version` (the watcher reads up to it)."""
    messages: list[Any] = []
    while not any(m.event == "state" and m.payload["version"] == version for m in messages):
        got, _ended = client.wait(5)
        assert got, "the stream was not told"
        messages += got
    return [m.payload for m in messages if m.event == "state"][-1]  # type: ignore[no-any-return]


def test_a_player_whose_news_leave_the_window_is_told(app: Flask, game: Any) -> None:
    """A player's news reach back NEWS_MOVES moves, followed move by move (issue 28): when
    Cy's only unseen news item leaves that window, many moves after Cy last played, the
    stream names Cy and Cy's Me page does change (the item is gone from it)."""
    from companion.game.telling.seen import NEWS_MOVES

    remote = app.extensions["web_remote"]
    client = remote.hub.subscribe("test-watcher")
    assert client is not None
    cy = Phone(app)
    assert cy.join("player:Cy").status_code == 302
    game.submit({"do": "new_game", "edition": "classic-eur", "players": list(PLAYERS),
                 "seed": 7}, TABLE)
    out = game.submit({"do": "pay", "from": "Cy", "to": "Ann", "amount": 3}, TABLE)
    assert out.accepted
    _told(client, out.version)
    key = f"{out.version}:0"  # a move's row is its version in a journal of one game
    assert [i["key"] for i in game.news("Cy")][:1] == [key]
    seen_before = 0
    for n in range(NEWS_MOVES + 2):
        before = _page(cy)
        news_before = [i["key"] for i in game.news("Cy")]
        out = game.submit({"do": "pay", "from": PLAYERS[n % 2], "to": PLAYERS[1 - n % 2],
                           "amount": 1}, TABLE)
        assert out.accepted
        told = _told(client, out.version)
        if key in news_before and key not in [i["key"] for i in game.news("Cy")]:
            assert told.get("me") is None or "Cy" in told["me"], n
            assert _page(cy) != before  # the line is gone from Cy's page
            seen_before += 1
    assert seen_before == 1  # Cy's payment left the window once, and was checked
