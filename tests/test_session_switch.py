"""The session holder: one protocol object whose saved game can be switched while screens,
readers and phones keep listening; and the phone remote's banker page resuming a game."""

from __future__ import annotations

import errno
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fakes import ORIGIN, Phone

from companion.game.api import Source, Update
from companion.game.session import GameSession
from companion.game.switch import SessionHolder, SwitchError
from web_remote import TableHooks, create_app

TABLE = Source(kind="script", banker=True)


def start(session: Any, edition: str, players: list[str]) -> None:
    out = session.submit({"do": "new_game", "edition": edition, "players": players,
                          "seed": 2}, TABLE)
    assert out.accepted, out


@pytest.fixture
def two_games(tmp_path: Path) -> tuple[Path, str, str]:
    """A data directory with two saved games: a classic one, then a Mega one (current)."""
    data = tmp_path / "data"
    with GameSession.open(data, "g-classic") as first:
        start(first, "classic-eur", ["Ann", "Bo"])
        assert first.submit({"do": "roll", "dice": [1, 2]}, TABLE).accepted
    with GameSession.open(data, "g-mega") as second:
        start(second, "mega", ["Cy", "Dee", "Eve"])
    return data, "g-classic", "g-mega"


@pytest.fixture
def holder(two_games: tuple[Path, str, str]) -> Iterator[SessionHolder]:
    h = SessionHolder.open(two_games[0])
    yield h
    h.close()


class Recorder:
    """A listener that keeps every Update and lets a test wait for one."""

    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.arrived = threading.Event()

    def __call__(self, update: Update) -> None:
        self.updates.append(update)
        self.arrived.set()

    def next(self) -> Update:
        assert self.arrived.wait(5), "no update arrived"
        self.arrived.clear()
        return self.updates[-1]


def names(state: dict[str, Any]) -> list[str]:
    return [p["name"] for p in state.get("players", [])]


def test_resumes_the_current_game(holder: SessionHolder) -> None:
    assert holder.game_id == "g-mega"
    assert holder.state()["edition"] == "mega"
    assert names(holder.state()) == ["Cy", "Dee", "Eve"]


def test_games_lists_id_players_edition_and_last_played(holder: SessionHolder) -> None:
    games = holder.games()
    assert [g["id"] for g in games] == ["g-mega", "g-classic"]  # the current one first
    mega, classic = games
    assert mega["current"] and not classic["current"]
    assert classic["players"] == ["Ann", "Bo"] and classic["edition"] == "classic-eur"
    assert mega["edition"] == "mega" and mega["turn"] == 1
    assert all(g["last_played"] and g["status"] == "ok" for g in games)
    assert "Ann, Bo" in classic["name"] and "classic-eur" in classic["name"]
    assert holder.list() == games


def test_switch_moves_listeners_and_tells_them(holder: SessionHolder,
                                               two_games: tuple[Path, str, str]) -> None:
    heard = Recorder()
    holder.add_listener(heard)
    state = holder.switch("g-classic")
    update = heard.next()
    assert update.state["edition"] == "classic-eur" == state["edition"]
    assert update.events[0] == {"kind": "game_switched", "game": "g-classic",
                                "from": "g-mega"}
    assert update.version == state["version"]
    # the listener now hears the classic game's commands
    assert holder.submit({"do": "buy"}, TABLE).accepted
    assert heard.next().state["squares"][1]["owner"] == "Ann"  # Rue Lecourbe
    # and the data directory resumes the classic game next time
    assert (two_games[0] / "current").read_text().strip() == "g-classic"
    # switching back: the Mega game is as it was
    holder.switch("g-mega")
    assert heard.next().state["edition"] == "mega"
    assert holder.submit({"do": "roll", "dice": [3, 4, 1]}, TABLE).accepted
    assert heard.next().state["players"][0]["position"] == 8


def test_removed_listener_stays_removed_across_switches(holder: SessionHolder) -> None:
    heard, gone = Recorder(), Recorder()
    holder.add_listener(heard)
    remove = holder.add_listener(gone)
    holder.switch("g-classic")
    assert gone.next().state["edition"] == "classic-eur"
    remove()
    holder.switch("g-mega")
    heard.next()
    assert holder.submit({"do": "end_game"}, TABLE).accepted
    heard.next()
    assert len(gone.updates) == 1


def test_unknown_or_bad_ids_change_nothing(holder: SessionHolder) -> None:
    with pytest.raises(SwitchError) as missing:
        holder.switch("no-such-game")
    assert missing.value.code == "no_such_game"
    with pytest.raises(SwitchError) as bad:
        holder.resume("../etc")
    assert bad.value.code == "bad_game"
    assert holder.game_id == "g-mega"
    assert holder.submit({"do": "roll", "dice": [1, 2, 1]}, TABLE).accepted


def test_a_damaged_game_keeps_the_old_one(holder: SessionHolder,
                                          two_games: tuple[Path, str, str]) -> None:
    heard = Recorder()
    holder.add_listener(heard)
    (two_games[0] / "games" / "g-broken.journal").write_bytes(b"not a journal at all" * 50)
    with pytest.raises(SwitchError) as failed:
        holder.switch("g-broken")
    assert failed.value.code == "cannot_open"
    assert holder.game_id == "g-mega"
    assert holder.submit({"do": "roll", "dice": [1, 2, 1]}, TABLE).accepted
    assert heard.next().state["edition"] == "mega"  # still listening, to the old game
    listed = {g["id"]: g for g in holder.games()}
    assert listed["g-broken"]["status"] == "damaged"


def test_new_game_file_starts_empty(holder: SessionHolder) -> None:
    heard = Recorder()
    holder.add_listener(heard)
    gid = holder.new_game_file()
    assert holder.game_id == gid and holder.version == 0
    assert heard.next().state["version"] == 0
    start(holder, "sv", ["Ann", "Bo"])
    assert heard.next().state["edition"] == "sv"
    assert {g["id"] for g in holder.games()} == {"g-mega", "g-classic", gid}


def test_banker_page_lists_and_resumes_games(holder: SessionHolder,
                                             two_games: tuple[Path, str, str]) -> None:
    data = two_games[0]
    app = create_app(holder, data, {"banker_pin": "2468"},
                     TableHooks(games=holder, new_game_file=holder.start_new_game_file))
    try:
        banker, cy = Phone(app), Phone(app)
        banker.join("banker", pin="2468")
        cy.join("player:Cy")
        page = banker.client.get("/banker").get_data(as_text=True)
        assert 'value="g-classic"' in page and "Ann, Bo" in page
        heard = Recorder()
        app.extensions["web_remote"].hub.subscribe()  # the stream still works after a switch
        holder.add_listener(heard)
        resp = banker.client.post("/banker/resume", data={"game": "g-classic",
                                                          "csrf_token": banker.csrf},
                                  headers={"Origin": ORIGIN})
        assert resp.status_code == 302
        assert heard.next().state["edition"] == "classic-eur"
        state = banker.client.get("/api/state").get_json()
        assert names(state) == ["Ann", "Bo"]
        # Cy is not in this game: his page says so instead of failing
        assert "not a player" in cy.client.get("/me").get_data(as_text=True)
        assert banker.command({"do": "buy", "by": "Ann"}).status_code == 200
        bad = banker.client.post("/banker/resume", data={"game": "nope",
                                                         "csrf_token": banker.csrf},
                                 headers={"Origin": ORIGIN})
        assert bad.status_code == 404
        assert holder.game_id == "g-classic"
    finally:
        app.extensions["web_remote"].close()


def new_game_form(phone: Phone, players: str, edition: str = "classic-eur",
                  new_file: bool = True, **extra: str) -> Any:
    data = {"players": players, "edition": edition, "seed": "4", "csrf_token": phone.csrf,
            **extra}
    if new_file:
        data["file"] = "new"
    return phone.client.post("/banker/new-game", data=data, headers={"Origin": ORIGIN})


def test_banker_starts_a_new_game_in_a_new_file_and_resumes_the_old(
        holder: SessionHolder, two_games: tuple[Path, str, str]) -> None:
    data = two_games[0]
    app = create_app(holder, data, {"banker_pin": "2468"},
                     TableHooks(games=holder, new_game_file=holder.start_new_game_file))
    try:
        banker = Phone(app)
        banker.join("banker", pin="2468")
        page = banker.client.get("/banker").get_data(as_text=True)
        assert 'name="file" value="new"' in page and "Start it in a new saved file" in page
        heard = Recorder()
        holder.add_listener(heard)
        resp = new_game_form(banker, "Zoë, Yann", "sv", pin="1357", old_pin="2468")
        assert resp.status_code == 302
        new_id = holder.game_id
        assert new_id not in ("g-classic", "g-mega")
        assert heard.next().state["edition"] == "sv"  # the phones and the screen redraw
        assert names(holder.state()) == ["Zoë", "Yann"]
        assert Phone(app).join("banker", pin="1357").status_code == 302  # the PIN set too
        listed = {g["id"]: g for g in holder.games()}
        assert listed["g-mega"]["players"] == ["Cy", "Dee", "Eve"]  # still saved, as it was
        assert not listed["g-mega"]["current"] and listed[new_id]["current"]
        page = banker.client.get("/banker").get_data(as_text=True)
        assert 'value="g-mega"' in page and "Cy, Dee, Eve" in page  # offered for resuming
        assert holder.undo_target() is None, "the new file's first game: nothing to undo"
        resp = banker.client.post("/banker/resume", data={"game": "g-mega",
                                                          "csrf_token": banker.csrf},
                                  headers={"Origin": ORIGIN})
        assert resp.status_code == 302 and holder.game_id == "g-mega"
        assert names(holder.state()) == ["Cy", "Dee", "Eve"]
        assert holder.state()["edition"] == "mega"
        # the same form without the second button: the new game in the file being played
        assert new_game_form(banker, "Ann, Bo", new_file=False).status_code == 302
        assert holder.game_id == "g-mega" and names(holder.state()) == ["Ann", "Bo"]
    finally:
        app.extensions["web_remote"].close()


def test_a_new_file_is_made_only_for_the_banker_and_a_game_that_starts(
        holder: SessionHolder, two_games: tuple[Path, str, str]) -> None:
    data = two_games[0]
    app = create_app(holder, data, {"banker_pin": "2468"},
                     TableHooks(games=holder, new_game_file=holder.start_new_game_file))
    try:
        banker, cy = Phone(app), Phone(app)
        banker.join("banker", pin="2468")
        cy.join("player:Cy")
        before = sorted(g["id"] for g in holder.games())

        def unchanged() -> bool:
            return holder.game_id == "g-mega" and \
                sorted(g["id"] for g in holder.games()) == before

        assert new_game_form(cy, "Ann, Bo").status_code == 403  # players may not
        assert new_game_form(banker, "Ann, Bo", csrf_token="forged").status_code == 403
        forged = banker.client.post("/banker/new-game", data={
            "players": "Ann, Bo", "edition": "classic-eur", "file": "new",
            "csrf_token": banker.csrf}, headers={"Origin": "http://evil.example"})
        assert forged.status_code == 403 and "bad_origin" in forged.get_data(as_text=True)
        too_many = new_game_form(banker, "A, B, C, D, E, F, G", "ru-monopolist")
        assert too_many.status_code == 400 and "bad_players" in too_many.get_data(as_text=True)
        same = new_game_form(banker, "Ann, Ann")  # the engine's refusal, before any file
        assert same.status_code == 422 and "bad_players" in same.get_data(as_text=True)
        assert unchanged()
        assert names(holder.state()) == ["Cy", "Dee", "Eve"]
    finally:
        app.extensions["web_remote"].close()


def test_without_saved_games_there_is_no_new_file(holder: SessionHolder,
                                                  two_games: tuple[Path, str, str]) -> None:
    app = create_app(holder, two_games[0], {"banker_pin": "2468"})  # no "games" hook
    try:
        banker = Phone(app)
        banker.join("banker", pin="2468")
        assert 'value="new"' not in banker.client.get("/banker").get_data(as_text=True)
        resp = new_game_form(banker, "Ann, Bo")
        assert resp.status_code == 404 and "no_games" in resp.get_data(as_text=True)
        assert holder.game_id == "g-mega" and names(holder.state()) == ["Cy", "Dee", "Eve"]
    finally:
        app.extensions["web_remote"].close()


def full_disk_in_new_files(data_dir: Path) -> Any:
    """An opener whose new saved games cannot write a single entry (ENOSPC at the commit):
    the disk fills up just after the new file was made. Saved games already there work."""
    from companion.game.saved_games import game_ids

    known = set(game_ids(data_dir))

    def full(_entry: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    def open_game(data: Path, game_id: str | None) -> GameSession:
        session = GameSession.open(data, game_id)
        if session.game_id not in known:
            session._journal.before_commit = full
        return session

    return open_game


def journal_files(data_dir: Path) -> list[str]:
    return sorted(p.name for p in (data_dir / "games").iterdir())


def test_a_game_started_in_a_new_file(holder: SessionHolder) -> None:
    out = holder.start_new_game_file({"do": "new_game", "edition": "sv",
                                      "players": ["Ann", "Bo"], "seed": 2}, TABLE)
    assert out.accepted
    assert holder.game_id not in ("g-classic", "g-mega") and holder.state()["edition"] == "sv"
    listed = {g["id"]: g for g in holder.games()}
    assert set(listed) == {"g-classic", "g-mega", holder.game_id}
    assert listed["g-mega"]["players"] == ["Cy", "Dee", "Eve"]


@pytest.mark.parametrize("why", ["full_disk", "engine"])
def test_a_new_file_whose_game_is_not_saved_leaves_no_empty_game(
        two_games: tuple[Path, str, str], why: str) -> None:
    data = two_games[0]
    holder = SessionHolder(data, opener=full_disk_in_new_files(data))
    try:
        before = journal_files(data)
        heard = Recorder()
        holder.add_listener(heard)
        players = ["Ann", "Ann"] if why == "engine" else ["Ann", "Bo"]
        out = holder.start_new_game_file({"do": "new_game", "edition": "classic-eur",
                                          "players": players, "seed": 2}, TABLE)
        assert not out.accepted
        if why == "full_disk":
            assert out.code == "storage_error" and "full" in (out.message or "")
        else:
            assert out.code == "bad_players"
        back = heard.updates[-1]
        assert back.events[0]["kind"] == "game_switched" and back.events[0]["game"] == "g-mega"
        made = back.events[0]["from"]
        assert made not in ("g-classic", "g-mega"), "a new file was made, then given up"
        assert holder.game_id == "g-mega" and names(holder.state()) == ["Cy", "Dee", "Eve"]
        assert journal_files(data) == before, "the new file and its WAL files are gone"
        assert [g["id"] for g in holder.games()] == ["g-mega", "g-classic"]
        assert "(no game started)" not in str(holder.games())
        assert (data / "current").read_text().strip() == "g-mega"
        assert holder.submit({"do": "roll", "dice": [1, 2, 1]}, TABLE).accepted
    finally:
        holder.close()


def test_a_new_file_whose_game_cannot_be_saved_goes_back_to_the_game_played(
        two_games: tuple[Path, str, str]) -> None:
    data = two_games[0]
    holder = SessionHolder(data, opener=full_disk_in_new_files(data))
    app = create_app(holder, data, {"banker_pin": "2468"},
                     TableHooks(games=holder, new_game_file=holder.start_new_game_file))
    try:
        banker = Phone(app)
        banker.join("banker", pin="2468")
        banker.client.get("/banker")  # the page the form is on (its list reads every game)
        before = journal_files(data)
        resp = new_game_form(banker, "Ann, Bo")
        said = resp.get_data(as_text=True)
        assert resp.status_code == 422 and 'data-code="storage_error"' in said
        assert "The game could not be saved" in said
        assert 'data-players-form' in said and 'value="Ann, Bo"' in said, \
            "said on the banker page, beside the form, as it was typed"
        assert holder.game_id == "g-mega" and names(holder.state()) == ["Cy", "Dee", "Eve"]
        assert journal_files(data) == before
        page = banker.client.get("/banker").get_data(as_text=True)
        assert "no game started" not in page
        assert re.findall(r'<option value="([\w-]+)"', page.split('name="game"')[1]
                          .split("</select>")[0]) == ["g-mega", "g-classic"]
    finally:
        app.extensions["web_remote"].close()
        holder.close()


def test_a_listener_asking_its_game_while_a_switch_waits_for_it(holder: SessionHolder) -> None:
    """A listener that reads the game it is told of (the phone remote's asks each player's
    news and undo) while a switch is under way: the switch closes that game, which waits for
    its listeners, so the listener is served by its own game instead of waiting for the
    switch (a deadlock: a move is answered before its listeners run, so a banker's resume
    may come while they do)."""
    told, switching, asked = threading.Event(), threading.Event(), threading.Event()
    read: list[Any] = []

    def listener(update: Update) -> None:
        if not any(e.get("kind") == "game_switched" for e in update.events):
            told.set()
            assert switching.wait(10)  # the switch holds its lock and closes this game
            read.append(holder.news_summary("Cy"))
            read.append(holder.undo_refusal(Source("phone", player="Cy")))
            asked.set()

    holder.add_listener(listener)
    old = holder.session
    real_close = old.close

    def closing() -> None:
        switching.set()
        real_close()

    old.close = closing  # type: ignore[method-assign]
    assert holder.submit({"do": "roll", "dice": [3, 4, 1]}, TABLE).accepted
    assert told.wait(10)  # the move's listeners run (after its answer) as the switch comes
    switched = threading.Thread(target=holder.switch, args=("g-classic",), daemon=True)
    switched.start()
    switched.join(15)
    assert not switched.is_alive(), "the switch waits for a listener that waits for it"
    assert asked.is_set() and len(read) == 2 and read[0][0] >= 0
    assert holder.game_id == "g-classic"
