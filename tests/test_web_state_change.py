"""Every phone is sent the change of the state after a move, built once (web_remote.hub
`state_change`, issue 28): applied to the state the phone had, it gives the state the
session has, over a whole bot game with undos and a new game, and over real HTTP."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source, Update
from companion.game.session import GameSession
from tools.bench.journal import bot_script
from tools.bench.probe import HttpPhone
from web_remote import create_app, join_url, serve
from web_remote.hub import apply_change, state_change

TABLE = Source("script", banker=True)
#: read when asked (the auction's and the timed game's clocks): not the same twice
CLOCKS = ("auction_clock", "clock")


def settled(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in CLOCKS}


def test_a_change_turns_one_state_into_the_other() -> None:
    rng = random.Random(5)

    def value(depth: int) -> Any:
        kind = rng.randrange(7 if depth < 3 else 4)
        if kind == 4:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        if kind == 5:
            return {rng.choice("pqrs"): value(depth + 1) for _ in range(rng.randrange(4))}
        if kind == 6:
            return {"w": [value(depth + 1), 1]}
        return [None, rng.randrange(3), rng.choice(["a", "b"]), rng.random() < 0.5][kind]

    for _ in range(2000):
        a, b = value(0), value(0)
        before = json.dumps(a)
        assert apply_change(a, state_change(a, b)) == b
        assert json.dumps(a) == before  # the state applied to is left as it was
    assert state_change({"x": [1, 2]}, {"x": [1, 2]}) == []
    assert state_change({"x": 1}, {"x": True}) == [[["x"], True]]  # 1 == True, not alike


@pytest.fixture
def session(tmp_path: Path) -> Iterator[GameSession]:
    with GameSession.open(tmp_path / "game") as s:
        yield s


def test_the_stream_of_a_whole_game_is_the_session_state_at_every_version(
        session: GameSession, tmp_path: Path) -> None:
    """A phone that applies every change to what it has holds the session's state at every
    version: buys, auctions, cards, jail, undo and redo, a second game."""
    app = create_app(session, tmp_path / "game", {})
    remote = app.extensions["web_remote"]
    truth: dict[int, dict[str, Any]] = {}
    session.add_listener(lambda u: truth.__setitem__(u.version, settled(u.state)))
    client = remote.hub.subscribe("phone")
    assert client is not None
    messages = []  # taken as they come: a phone that falls 256 behind is dropped
    script = bot_script(seed=7, count=300, players=4)
    for i, command in enumerate(script):
        assert remote.session.submit(command, TABLE).accepted, command
        if i % 50 == 49:
            assert remote.session.undo(TABLE).accepted
            assert remote.session.redo(TABLE).accepted
        messages += client.take()[0]
    assert remote.session.submit({"do": "new_game", "edition": "classic-eur",
                                  "players": ["Di", "Ed"], "seed": 2}, TABLE).accepted
    assert remote.session.submit({"do": "pay", "from": "Di", "to": "Ed", "amount": 5},
                                 TABLE).accepted
    remote.close()
    messages += client.take()[0]
    have: dict[str, Any] | None = None
    changes = whole = 0
    sizes: list[tuple[int, int]] = []
    for message in messages:
        if message.event != "state":
            continue
        data = json.loads(message.encode().split(b"data: ", 1)[1])
        if "change" in data:
            assert have is not None and data["from"] == have["version"]
            have = apply_change(have, data["change"])
            changes += 1
            sizes.append((len(json.dumps(data["change"])), len(json.dumps(data.get("state")))))
        else:
            have = data["state"]
            whole += 1
        assert have is not None and settled(have) == truth[data["version"]], data["version"]
    assert have is not None and have["version"] == session.version
    assert whole == 2 and changes == len(truth) - 2  # the first game and the second
    assert sum(c for c, _ in sizes) < 0.2 * len(sizes) * len(json.dumps(have))


def test_a_phone_over_http_gets_a_change_it_can_apply(tmp_path: Path) -> None:
    with GameSession.open(tmp_path / "game") as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "seed": 3}, TABLE).accepted
        app = create_app(session, tmp_path / "game", {"keepalive_s": 5})
        handle = serve(app, "127.0.0.1", 0, threads=4)
        phone = HttpPhone(handle.url)
        try:
            assert phone.join(join_url(handle.app, handle.url), "player:Ann") == 302
            phone.open_stream()
            first = phone.next_event(5)
            assert first is not None and first[0] == "state"
            have = first[1]["state"]
            status, body = phone.command({"do": "pay", "to": "Bo", "amount": 30},
                                         have["version"])
            assert status == 200, body
            event = phone.next_event(5)
            while event is not None and event[0] != "state":
                event = phone.next_event(5)
            assert event is not None
            name, data = event
            assert data["from"] == have["version"] and "state" not in data
            assert len(json.dumps(data)) < 1500 < len(json.dumps(have))
            assert settled(apply_change(have, data["change"])) == settled(phone.state())
        finally:
            phone.close()
            handle.stop()


def test_an_update_after_a_gap_in_versions_sends_the_whole_state(
        session: GameSession, tmp_path: Path) -> None:
    """A version the remote did not see the one before of (a saved game switched to)
    gets the whole state: a change from a state the phones never had is useless."""
    assert session.submit({"do": "new_game", "edition": "classic-eur",
                           "players": ["Ann", "Bo"], "seed": 3}, TABLE).accepted
    app = create_app(session, tmp_path / "game", {})
    remote = app.extensions["web_remote"]
    client = remote.hub.subscribe("phone")
    assert client is not None
    state = session.state()
    remote.on_update(Update(state["version"] + 5, state, [], TABLE))
    remote.close()
    (message,), _ = client.take()
    data = json.loads(message.encode().split(b"data: ", 1)[1])
    assert "state" in data and "change" not in data
