"""A move is answered once the session journaled it, never after the phone remote's own
listener (issue 25): what a phone reads next, its offers lapsed and the net-worth chart
extended, was made by the session's writer before the answer (the offers' store, and the
chart's sample told to the session's followers: `GameSessionProtocol.follow`). Held to
account with the session's listeners' thread held up by a listener waiting on an event, so
that the remote's listener has had none of the moves; the chart's file is still written by
the Persister's thread, a move's cost on the writer the same at any length of game."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fakes import ORIGIN, Phone, open_real_session, play, text

from companion import paths
from companion.game.api import Source, Standing
from companion.game.session import GameSession
from companion.game.switch import SessionHolder
from web_remote import TableHooks, create_app, store, worth
from web_remote.store import Persister
from web_remote.worth import WorthRecorder, read_series

SAMPLES = re.compile(r"(\d+) samples?")


def samples(phone: Phone) -> int:
    """How many samples the phone's Worth page says the chart has."""
    found = SAMPLES.search(text(phone.client.get("/worth?partial=1")))
    assert found is not None
    return int(found.group(1))


@pytest.fixture
def held(tmp_path: Path) -> Iterator[tuple[GameSession, threading.Event]]:
    """A real session whose listeners' thread is held until the event is set: its first
    listener waits on it (the remote's comes after it)."""
    game = open_real_session(tmp_path / "game", options={"physical_dice": True})
    release = threading.Event()
    game.add_listener(lambda _update: release.wait(30))
    try:
        yield game, release
    finally:
        release.set()
        game.close()


def test_a_phone_reads_its_move_before_the_remote_listener_had_it(
        held: tuple[GameSession, threading.Event], tmp_path: Path) -> None:
    game, release = held
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})
    remote = app.extensions["web_remote"]
    watcher = remote.hub.subscribe("watcher")
    assert watcher is not None
    try:
        ann, bo = Phone(app), Phone(app)
        assert ann.join("player:Ann").status_code == 302
        assert bo.join("player:Bo").status_code == 302
        first = samples(ann)
        assert ann.command({"do": "roll", "dice": [1, 2]}).status_code == 200
        assert samples(ann) == first + 1  # the phone's next read: the chart extended
        assert ann.command({"do": "buy"}).status_code == 200
        assert samples(bo) == first + 2  # and any other phone's
        offer = ann.post("/api/trades", {"version": game.version, "to": "Bo",
                                          "give": {"cash": 5}, "take": {}})
        assert offer.status_code == 200, offer.get_json()
        pid = offer.get_json()["proposal"]["id"]
        assert pid in text(bo.client.get("/me?partial=1"))
        assert ann.command({"do": "end_turn"}).status_code == 200
        # the offer lapsed with its turn: gone from the very next read of either phone
        assert bo.client.get("/api/trades").get_json() == []
        assert pid not in text(bo.client.get("/me?partial=1"))
        assert pid not in text(ann.client.get("/me?partial=1"))
        play(game, {"do": "roll", "dice": [2, 3]})  # a move from the table
        assert samples(bo) == first + 4
        svg = bo.client.get("/worth.svg").get_data(as_text=True)
        assert svg.count('data-player="') == 3
        # the remote's listener has had none of the four moves (the offer's own news was
        # told by its request)
        assert all(m.event != "state" for m in watcher.take()[0])
        release.set()  # the remote's listener then tells the streams, in order
        told: list[int] = []
        while len(told) < 4:
            got, _ended = watcher.wait(5)
            assert got, "the streams were not told once the listeners' thread went on"
            told += [m.payload["version"] for m in got if m.event == "state"]
        assert told == list(range(told[0], told[0] + 4)) and told[-1] == game.version
        assert samples(ann) == first + 4  # told twice nothing: one sample a version
    finally:
        release.set()
        remote.close()


def test_the_sample_is_made_on_the_writer_and_written_by_the_persister(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    recorded: list[str] = []
    written: list[str] = []
    record = WorthRecorder.record

    def noting(self: WorthRecorder, standing: Standing) -> None:
        recorded.append(threading.current_thread().name)
        record(self, standing)

    def writing(real: Any) -> Any:
        def write(path: Path, *args: Any) -> None:
            if path.name == "networth.jsonl":
                written.append(threading.current_thread().name)
            real(path, *args)
        return write

    monkeypatch.setattr(WorthRecorder, "record", noting)
    monkeypatch.setattr(store, "append_bytes", writing(paths.append_bytes))
    monkeypatch.setattr(store, "replace_bytes", writing(paths.replace_bytes))
    game = open_real_session(tmp_path / "game", options={"physical_dice": True})
    try:
        app = create_app(game, tmp_path / "game", {})
        play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"})
        remote = app.extensions["web_remote"]
        assert remote.persister.flush()
        assert recorded[0] == threading.current_thread().name  # where the game stood
        assert recorded[1:] == [f"session-{game.game_id}"] * 3  # each move: the writer
        assert written and set(written) == {"web-persister"}
        remote.close()
    finally:
        game.close()
    players, kept, _lines, _whole = read_series(tmp_path / "game" / "web" / "networth.jsonl")
    assert players == ["Ann", "Bo", "Cy"] and len(kept) == 4


def test_the_chart_s_rewrite_is_made_off_the_writer(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    """Past twice the samples kept the file is replaced with the samples kept: its lines
    are made on the Persister's thread, the writer copying only the list (issue 28: a
    move's cost on the writer does not grow with the game)."""
    monkeypatch.setattr(worth, "MAX_SAMPLES", 5)
    made: list[str] = []
    line = worth._line

    def noting(item: Any) -> bytes:
        made.append(threading.current_thread().name)
        return line(item)

    monkeypatch.setattr(worth, "_line", noting)
    persister = Persister()
    path = tmp_path / "networth.jsonl"
    recorder = WorthRecorder(path, persister)
    here = threading.current_thread().name
    for version in range(1, 41):
        recorder.record(Standing(version, version, ("Ann", "Bo"), (version, 2 * version)))
        assert persister.flush()
    persister.stop()
    assert made.count(here) < 40  # one line for an append, none for a rewrite
    assert made.count("web-persister") >= 2 * 6  # the rewrites' lines, made there
    players, kept, _lines, _whole = read_series(path)
    assert players == ["Ann", "Bo"] and [s["v"] for s in kept] == list(range(36, 41))


def test_a_game_switched_to_at_a_lower_version_starts_its_own_chart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with GameSession.open(data, "g-long") as first:
        play(first, {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                     "seed": 2, "options": {"physical_dice": True}})
        for _ in range(6):
            play(first, {"do": "pay", "from": "Ann", "to": "Bo", "amount": 1})
    with GameSession.open(data, "g-short") as second:
        play(second, {"do": "new_game", "edition": "classic-eur", "players": ["Cy", "Di"],
                      "seed": 2, "options": {"physical_dice": True}})
    holder = SessionHolder.open(data, "g-long")
    app = create_app(holder, data, {"banker_pin": "2468"},
                     TableHooks(games=holder, new_game_file=holder.start_new_game_file))
    remote = app.extensions["web_remote"]
    try:
        banker = Phone(app)
        assert banker.join("banker", pin="2468").status_code == 302
        watcher = remote.hub.subscribe("watcher")
        assert watcher is not None
        long_version = holder.version
        # the long game's whole chart, made from its journal when the remote started (the
        # file held no chart of it)
        assert samples(banker) == long_version
        play(holder, {"do": "pay", "from": "Bo", "to": "Ann", "amount": 2})
        assert samples(banker) == long_version + 1
        resp = banker.client.post("/banker/resume", data={"game": "g-short",
                                                          "csrf_token": banker.csrf},
                                  headers={"Origin": ORIGIN})
        assert resp.status_code == 302 and holder.version < long_version
        assert samples(banker) == 1  # the short game's own chart, at once
        chart = banker.client.get("/worth.svg").get_data(as_text=True)
        assert 'data-player="Cy"' in chart and 'data-player="Ann"' not in chart
        out = holder.submit({"do": "pay", "from": "Cy", "to": "Di", "amount": 3},
                            Source("phone", player="Cy"))
        assert out.accepted
        assert samples(banker) == 2
        told: list[dict[str, Any]] = []
        while not told or told[-1]["version"] != out.version:
            got, _ended = watcher.wait(5)
            assert got
            told += [m.payload for m in got if m.event == "state"]
        switched = next(t for t in told if t.get("game"))
        assert switched == {"version": out.version - 1, "game": True}
        assert told[-1]["from"] == out.version - 1  # a change of the short game's own
        # a fresh file before its first deal: no chart at all, not the other game's
        holder.new_game_file()
        assert samples(banker) == 0
    finally:
        remote.close()
        holder.close()
