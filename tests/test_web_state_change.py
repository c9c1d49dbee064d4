"""The live stream says which pages a move changed, judged once for every phone, not the
state nor its change (issue 25): a shared page it leaves out is the same page as before the
move but for its version, through a whole bot game with undos, redos and a second game; a
move costs each phone's stream a few dozen bytes over real HTTP, and a stream's first event
only the version, however often a phone reloads. The judgement reads the state's change
(web_remote.hub `state_change`), which turns one state into the other."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fakes import Phone, text

from companion.game.api import Source, Update
from companion.game.session import GameSession
from tools.bench.fanout import reads_again
from tools.bench.probe import HttpPhone
from web_remote import create_app, join_url, serve
from web_remote.context import JUDGED_PAGES
from web_remote.hub import PER_DEVICE, Step, state_change

TABLE = Source("script", banker=True)
VERSION = re.compile(r'data-version="\d+"')


def apply_change(state: Any, steps: list[Step]) -> Any:
    """`state` with the steps of `state_change` applied (a copy)."""
    out = copy.deepcopy(state)
    for step in steps:
        path = step[0]
        if not path:
            out = copy.deepcopy(step[1])
            continue
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        if len(step) > 1:
            parent[path[-1]] = copy.deepcopy(step[1])
        else:
            del parent[path[-1]]
    return out


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
        assert json.dumps(a) == before  # the state compared is left as it was
    assert state_change({"x": [1, 2]}, {"x": [1, 2]}) == []
    assert state_change({"x": 1}, {"x": True}) == [[["x"], True]]  # 1 == True, not alike


@pytest.fixture
def session(tmp_path: Path) -> Iterator[GameSession]:
    with GameSession.open(tmp_path / "game") as s:
        yield s


def _told(client: Any, version: int) -> dict[str, Any]:
    """The stream's "state" payload of `version` (read up to it, on its event)."""
    messages: list[Any] = []
    while not any(m.event == "state" and m.payload["version"] == version for m in messages):
        got, _ended = client.wait(5)
        assert got, f"the stream was not told of version {version}"
        messages += got
    return [m.payload for m in messages if m.event == "state"][-1]  # type: ignore[no-any-return]


def _pages(phone: Phone) -> dict[str, str]:
    """Every judged page's live part as the phone reads it, its version left out."""
    return {name: VERSION.sub("", text(phone.client.get(f"/{name}?partial=1")))
            for name in JUDGED_PAGES}


def test_a_page_left_out_of_the_update_is_unchanged(session: GameSession,
                                                    tmp_path: Path) -> None:
    """Through buys, auctions, cards, jail, undo and redo and a second game, a spectator's
    Table, History, Worth and Rules pages: each one the stream leaves out of "pages" is
    the page it was before the move (the stream's hint spares reads honestly), and the
    bench's model of app.js reads again exactly the pages named."""
    app = create_app(session, tmp_path / "game", {"rate_per_s": 1e6, "burst": 1e6})
    remote = app.extensions["web_remote"]
    client = remote.hub.subscribe("watcher")
    assert client is not None
    try:
        from tools.bench.journal import bot_script

        script = bot_script(seed=7, count=150, players=4)
        assert session.submit(script[0], TABLE).accepted  # the first game
        _told(client, session.version)
        phone = Phone(app)
        assert phone.join("spectator").status_code == 302
        moves: list[tuple[str, Any]] = [("submit", c) for c in script[1:]]
        for at in (40, 90):
            moves[at:at] = [("undo", None), ("redo", None)]
        # a second game in another edition, taken back (the first game's edition and
        # options again: the Rules page changed, told as a move), and dealt again
        moves += [("submit", {"do": "new_game", "edition": "sv", "players": ["Di", "Ed"],
                              "seed": 2}),
                  ("submit", {"do": "pay", "from": "Di", "to": "Ed", "amount": 5}),
                  ("undo", None), ("undo", None), ("redo", None), ("redo", None)]
        kept = dict.fromkeys(JUDGED_PAGES, 0)
        named = dict.fromkeys(JUDGED_PAGES, 0)
        games = 0
        for kind, command in moves:
            before = _pages(phone)
            version = session.version
            out = session.submit(command, TABLE) if kind == "submit" else \
                session.undo(TABLE) if kind == "undo" else session.redo(TABLE)
            assert out.accepted, (kind, command, out)
            told = _told(client, out.version)
            assert len(json.dumps(told)) < 200, told  # not the state, nor its change
            if told.get("game"):
                games += 1
                continue
            assert told["from"] == version and "table" in told["pages"]
            after = _pages(phone)
            for name in JUDGED_PAGES:
                assert reads_again(told, name, None) == (name in told["pages"])
                if name in told["pages"]:
                    named[name] += 1
                else:
                    kept[name] += 1
                    assert after[name] == before[name], (name, kind, command)
        assert games == 2  # the second game, and its redo
        assert kept["history"] > 10 and kept["rules"] > 100 and named["history"] > 10
        assert named["rules"] == 1  # the second game taken back
    finally:
        remote.close()


def test_a_phone_over_http_is_told_which_pages_changed(tmp_path: Path) -> None:
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
            assert first == ("state", {"version": session.version})  # the version alone
            version = session.version
            status, body = phone.command({"do": "pay", "to": "Bo", "amount": 30}, version)
            assert status == 200, body
            event = phone.next_event(5)
            while event is not None and event[0] != "state":
                event = phone.next_event(5)
            assert event is not None
            data = event[1]
            assert data == {"version": version + 1, "from": version,
                            "pages": ["table", "history", "worth"], "me": ["Ann", "Bo"]}
            assert phone.state()["version"] == version + 1  # the state: /api/state's
        finally:
            phone.close()
            handle.stop()


def test_a_phone_reloading_forty_times_is_told_the_version_alone(tmp_path: Path) -> None:
    """Forty reloads of one phone, each page opening its stream and none closed: each
    stream's first event is the version alone (no state encoded per reload), the oldest
    streams past the phone's cap are ended, and the newest is told the next move."""
    with GameSession.open(tmp_path / "game") as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "seed": 3}, TABLE).accepted
        app = create_app(session, tmp_path / "game", {"keepalive_s": 5, "rate_per_s": 1e6,
                                                       "burst": 1e6})
        handle = serve(app, "127.0.0.1", 0, threads=4, per_address=128)
        phone = HttpPhone(handle.url)
        tabs: list[HttpPhone] = []
        try:
            assert phone.join(join_url(handle.app, handle.url), "player:Ann") == 302
            for _ in range(40):
                tab = HttpPhone(handle.url)
                tab.cookie = phone.cookie
                assert tab.request("GET", "/me")[0] == 200
                tab.open_stream()
                assert tab.next_event(5) == ("state", {"version": session.version})
                tabs.append(tab)
            assert tabs[-1].event_bytes < 60  # "id", "event" and the version
            status, body = phone.command({"do": "pay", "to": "Bo", "amount": 1},
                                         session.version)
            assert status == 200, body
            assert tabs[-1].wait_version(session.version, 5)
            assert app.extensions["web_remote"].hub.count <= PER_DEVICE
        finally:
            for tab in tabs:
                tab.close()
            phone.close()
            handle.stop()


def test_after_a_gap_or_another_game_the_stream_says_no_pages(
        session: GameSession, tmp_path: Path) -> None:
    """A version the remote was not told the one before of says the version alone (a page
    showing another reads again); a game switched to says "game" (every page reads again,
    whatever version it shows: the other game's versions may be lower)."""
    assert session.submit({"do": "new_game", "edition": "classic-eur",
                           "players": ["Ann", "Bo"], "seed": 3}, TABLE).accepted
    app = create_app(session, tmp_path / "game", {})
    remote = app.extensions["web_remote"]
    client = remote.hub.subscribe("phone")
    assert client is not None
    state = session.state()
    remote.on_update(Update(state["version"] + 5, state, [], TABLE))
    remote.on_update(Update(2, state, [{"kind": "game_switched", "game": "b", "from": "a"}],
                            TABLE))
    remote.close()
    messages, _ = client.take()
    told = [json.loads(m.encode().split(b"data: ", 1)[1]) for m in messages]
    assert told == [{"version": state["version"] + 5}, {"version": 2, "game": True}]
    assert all(reads_again(t, page, None) for t in told for page in JUDGED_PAGES)
