"""Every game dealt at the table gets a fresh random seed (the banker's phone form, the
screen's setup): two evenings roll different device dice and draw different cards, and the
seed is in the journaled new_game command, so that reopening the saved game and replaying
its export land on the same table. Scripts keep the seed they name."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from web_fakes import ORIGIN, TABLE, Phone

from companion.app.replay import read_script, replay_lines
from companion.bots import Bots
from companion.game.applying import state_json
from companion.game.limits import SEED_LIMIT, fresh_seed
from companion.game.session import GameSession
from web_remote import TableHooks, create_app

PIN = "2468"
TURNS = 12  # commands played by the bots in an evening (device rolls among them)


def new_game_rows(session: Any) -> list[dict[str, Any]]:
    return [e["command"] for e in session.history(limit=1000)
            if e.get("kind", "command") == "command"
            and (e.get("command") or {}).get("do") == "new_game"]


def rolled(session: Any) -> list[list[Any]]:
    """The dice of every device roll of the game, from the journal."""
    out = []
    for entry in session.history(limit=1000):
        for event in entry.get("events") or []:
            if event.get("kind") == "rolled":
                out.append(list(event.get("dice") or []))
    return out


def play_some(session: Any, commands: int = TURNS) -> None:
    """The bots play `commands` commands at the table (device dice: no dice named)."""
    bots = Bots()
    for _ in range(commands):
        g = session.game_state()
        assert g is not None
        out = session.submit(bots.choose(g), TABLE)
        assert out.accepted, out


def evening(data_dir: Path, **form: str) -> tuple[int, list[list[Any]], dict[str, Any], str]:
    """A game dealt from the banker's phone form: its seed, its device dice, its state, the
    export; the saved game is closed at the end of the evening."""
    session = GameSession.open(data_dir)
    app = create_app(session, data_dir, {"banker_pin": PIN}, TableHooks())
    try:
        phone = Phone(app)
        phone.join("banker", pin=PIN)
        resp = phone.client.post("/banker/new-game", headers={"Origin": ORIGIN}, data={
            "csrf_token": phone.csrf, "edition": "classic-eur", "players": "Ann, Bo, Cy",
            **form})
        assert resp.status_code in (302, 303), resp.get_data(as_text=True)[:300]
        play_some(session)
        seeds = [int(c["seed"]) for c in new_game_rows(session)]
        assert len(seeds) == 1
        export = phone.client.get("/banker/export").get_data(as_text=True)
        return seeds[0], rolled(session), session.state(), export
    finally:
        app.extensions["web_remote"].close()
        session.close()


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """The table as the game has it (not this process's version counter or clocks)."""
    keep = ("edition", "players", "squares", "bank", "current", "pending", "winner", "dice")
    return {k: state.get(k) for k in keep}


def test_two_evenings_dealt_from_the_phone_roll_different_dice(tmp_path: Path) -> None:
    first = evening(tmp_path / "monday", seed="")
    second = evening(tmp_path / "tuesday")  # an old page without the field: the same
    assert first[0] != second[0], "a fresh seed each evening"
    assert 0 <= first[0] < SEED_LIMIT and 0 <= second[0] < SEED_LIMIT
    assert first[1] and second[1], "the device rolled the dice"
    assert first[1] != second[1], "the same dice every evening"


def test_each_evening_replays_exactly(tmp_path: Path) -> None:
    for night in ("monday", "tuesday"):
        seed, dice, state, export = evening(tmp_path / night)
        reopened = GameSession.open(tmp_path / night)  # the saved game, replayed from disk
        try:
            assert comparable(reopened.state()) == comparable(state)
            assert rolled(reopened) == dice
        finally:
            reopened.close()
        lines = read_script(export)
        assert lines[0][1]["do"] == "new_game" and lines[0][1]["seed"] == seed
        replayed, rejected = replay_lines(lines)
        assert rejected == [] and replayed is not None
        table = state_json(replayed, with_legal=False)
        assert [(p["name"], p["cash"], p["position"]) for p in table["players"]] == \
            [(p["name"], p["cash"], p["position"]) for p in state["players"]]
        assert [(s["index"], s.get("owner"), s.get("houses")) for s in table["squares"]] == \
            [(s["index"], s.get("owner"), s.get("houses")) for s in state["squares"]]


def test_a_seed_typed_on_the_form_is_kept(tmp_path: Path) -> None:
    one = evening(tmp_path / "a", seed="4242")
    two = evening(tmp_path / "b", seed="4242")
    assert one[0] == two[0] == 4242
    assert one[1] == two[1], "the same seed, the same dice"


@pytest.mark.parametrize("typed", ["-1", "12x", "١٢", "9" * 19])
def test_a_seed_that_is_no_whole_number_is_refused_and_deals_nothing(
        tmp_path: Path, typed: str) -> None:
    session = GameSession.open(tmp_path / "g")
    app = create_app(session, tmp_path / "g", {"banker_pin": PIN}, TableHooks())
    try:
        phone = Phone(app)
        phone.join("banker", pin=PIN)
        resp = phone.client.post("/banker/new-game", headers={"Origin": ORIGIN}, data={
            "csrf_token": phone.csrf, "edition": "classic-eur", "players": "Ann, Bo",
            "seed": typed})
        assert resp.status_code == 400
        assert new_game_rows(session) == [] and not session.state().get("players")
    finally:
        app.extensions["web_remote"].close()
        session.close()


def test_fresh_seeds_differ() -> None:
    seeds = {fresh_seed() for _ in range(50)}
    assert len(seeds) > 45 and all(0 <= s < SEED_LIMIT for s in seeds)


@pytest.fixture
def dummy_sdl() -> Iterator[None]:
    saved = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    yield
    pygame.display.quit()
    if saved is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = saved


def test_two_evenings_dealt_on_the_screen_get_different_seeds(
        tmp_path: Path, dummy_sdl: None) -> None:
    from companion.screen.controller import Controller

    seeds = []
    for night in ("monday", "tuesday"):
        session = GameSession.open(tmp_path / night)
        controller = Controller(session, data_dir=tmp_path / night, language="en")
        try:
            assert controller.ui.setup is not None
            controller.start_game()  # no banker PIN on a new table: deals at once
            rows = new_game_rows(session)
            assert len(rows) == 1
            seeds.append(int(rows[0]["seed"]))
            play_some(session)
            assert rolled(session)
        finally:
            controller.close()
            session.close()
    assert seeds[0] != seeds[1]
