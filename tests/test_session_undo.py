"""Undo and redo: journaled, permissioned, exact after resume, and no re-rolling of dice."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.bots import Bots
from companion.game.api import Source
from companion.game.applying import apply_command
from companion.game.replaying import command_dict
from companion.game.session import STATE_CACHE, GameSession
from companion.rules import Accepted, GameState, snapshot
from tools.bench.journal import bot_script

BANKER = Source("keyboard", banker=True)
#: a table that rolls its own dice: the players' phones enter them
NEW = {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"], "seed": 5,
       "options": {"physical_dice": True}}


def ann_phone() -> Source:
    return Source("phone", player="Ann")


def bo_phone() -> Source:
    return Source("phone", player="Bo")


def content(g: GameState | None) -> dict[str, Any]:
    """The whole state (generator and decks included) except the version number."""
    assert g is not None
    out = snapshot(g)
    del out["version"]
    return out


def replay(commands: list[dict[str, Any]]) -> GameState | None:
    state = None
    for c in commands:
        r = apply_command(state, c)
        if isinstance(r, Accepted):
            state = r.state
    return state


def test_undo_restores_the_table_and_bumps_the_version(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        s.submit({"do": "roll", "dice": [1, 2]}, BANKER)
        before = s.game_state()
        bought = s.submit({"do": "buy"}, BANKER)
        assert bought.accepted and s.state()["squares"][1]["owner"] == "Ann"
        out = s.undo(BANKER)
        assert out.accepted and out.version == bought.version + 1
        assert out.events[0]["kind"] == "undone" and out.events[0]["command"]["do"] == "buy"
        assert content(s.game_state()) == content(before)
        assert s.state()["pending"]["kind"] == "buy"


def test_device_dice_stay_rolled(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        first = s.submit({"do": "roll"}, BANKER)
        dice = next(e["dice"] for e in first.events if e["kind"] == "rolled")
        assert s.history()[-1]["command"] == {"do": "roll", "dice": dice}  # journaled resolved
        assert s.undo(BANKER).accepted
        assert s.state()["dice"] is None
        again = s.submit({"do": "roll"}, BANKER)
        assert next(e["dice"] for e in again.events if e["kind"] == "rolled") == dice
        live = s.game_state()
        assert live is not None
    # the journal holds explicit dice, and still the resumed generator is the live one
    with GameSession.open(tmp_path) as s2:
        resumed = s2.game_state()
        assert resumed is not None and resumed.rng == live.rng
        assert snapshot(resumed) == snapshot(live)


def test_device_draw_stays_drawn(tmp_path: Path) -> None:
    # Ann: 3 + 4 lands on Chance (square 7): the device draws the top card
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        s.submit({"do": "roll", "dice": [3, 4]}, BANKER)
        assert s.state()["pending"]["kind"] == "draw"
        first = s.submit({"do": "draw"}, BANKER)
        card = next(e["card"] for e in first.events if e["kind"] == "card")
        assert s.history()[-1]["command"]["card"] == card
        assert s.undo(BANKER).accepted
        again = s.submit({"do": "draw"}, BANKER)
        assert next(e["card"] for e in again.events if e["kind"] == "card") == card


def test_a_player_undoes_only_their_own_last_command(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        s.submit({"do": "roll", "dice": [1, 2]}, ann_phone())
        refused = s.undo(bo_phone())
        assert not refused.accepted and refused.code == "not_allowed"
        assert "Ann" in (refused.message or "")
        nobody = s.undo(Source("button"))
        assert not nobody.accepted and nobody.code == "not_allowed"
        assert s.undo(ann_phone()).accepted
        # the next one down is the banker's new_game: Ann may not undo it
        assert s.undo(ann_phone()).code == "not_allowed"
        assert s.redo(bo_phone()).code == "not_allowed"
        assert s.redo(ann_phone()).accepted


def test_redo_and_a_new_command_clears_redo(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        s.submit({"do": "roll", "dice": [1, 2]}, BANKER)
        s.submit({"do": "buy"}, BANKER)
        after_buy = content(s.game_state())
        s.undo(BANKER)
        s.undo(BANKER)
        assert s.redo(BANKER).accepted
        assert s.redo(BANKER).accepted
        assert content(s.game_state()) == after_buy
        assert s.redo(BANKER).code == "nothing_to_redo"
        s.undo(BANKER)
        s.submit({"do": "decline"}, BANKER)
        assert s.redo(BANKER).code == "nothing_to_redo"


def test_the_first_game_cannot_be_undone(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        assert s.undo(BANKER).code == "nothing_to_undo"
        s.submit(NEW, BANKER)
        assert s.undo(BANKER).code == "nothing_to_undo"
        assert s.redo(BANKER).code == "nothing_to_redo"


def test_undo_and_redo_are_in_the_history(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(NEW, BANKER)
        # (money paid to the bank: a payment to Bo would be Bo's or the banker's to undo)
        s.submit({"do": "pay", "from": "Ann", "to": "bank", "amount": 50}, ann_phone())
        s.undo(ann_phone())
        entries = s.history()
        assert [e["kind"] for e in entries] == ["command", "command", "undo"]
        assert entries[1]["undone"] and entries[2]["target"] == entries[1]["seq"]
        assert entries[2]["source"] == {"kind": "phone", "player": "Ann", "banker": False}
        s.redo(BANKER)
        entries = s.history()
        assert not entries[1]["undone"] and entries[3]["kind"] == "redo"
        assert [e["seq"] for e in s.history(player="Ann")] == [1, 2, 3, 4]
        assert s.history(limit=2)[0]["seq"] == 3


def test_deep_undo_past_the_memory_cache_and_after_resume(tmp_path: Path) -> None:
    script = bot_script(seed=3, count=STATE_CACHE * 3)
    with GameSession.open(tmp_path) as s:
        for c in script:
            assert s.submit(c, BANKER).accepted
    depth = STATE_CACHE + 40
    with GameSession.open(tmp_path) as s:
        for _ in range(depth):
            assert s.undo(BANKER).accepted
        expected = replay(script[:-depth])
        assert content(s.game_state()) == content(expected)
    with GameSession.open(tmp_path) as s:
        assert content(s.game_state()) == content(expected)
        for _ in range(depth):
            assert s.redo(BANKER).accepted
        assert content(s.game_state()) == content(replay(script))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_undo_redo_matches_a_model(tmp_path: Path, seed: int) -> None:
    """Bots play with random undos and redos; the table always equals the model's commands.

    The model is the list of commands in force, as submitted (device dice unrolled): since
    undo restores the generator too, replaying them gives exactly the same state.
    """
    rnd = random.Random(seed)
    done: list[dict[str, Any]] = [dict(NEW, seed=seed)]
    undone: list[dict[str, Any]] = []
    with GameSession.open(tmp_path) as s:
        assert s.submit(done[0], BANKER).accepted
        for _ in range(400):
            g = s.game_state()
            assert g is not None
            roll = rnd.random()
            if roll < 0.15 and len(done) > 1:
                assert s.undo(BANKER).accepted
                undone.append(done.pop())
            elif roll < 0.22 and undone:
                assert s.redo(BANKER).accepted
                done.append(undone.pop())
            elif g.winner < 0:
                cmd = command_dict(Bots().choose(g))
                out = s.submit(cmd, BANKER)
                assert out.accepted, out
                done.append(cmd)
                undone.clear()
            state = s.game_state()
            assert content(state) == content(replay(done))
    with GameSession.open(tmp_path) as s:
        assert snapshot(s.game_state()) == snapshot(state)  # type: ignore[arg-type]


def test_history_pages_say_undone_as_a_full_scan_does(tmp_path: Path) -> None:
    """The session keeps the undone set as it goes (and rebuilds it on resume), so a page of
    history reads only its own rows: the same answer as scanning the whole journal."""
    from companion.game.history import history

    script = bot_script(seed=2, count=120)
    with GameSession.open(tmp_path) as s:
        for c in script[:60]:
            assert s.submit(c, BANKER).accepted
        for _ in range(3):
            assert s.undo(BANKER).accepted
        assert s.redo(BANKER).accepted
        for c in script[58:61]:  # new moves after the undos: the other two stay undone
            s.submit(c, BANKER)
        live = s.history(limit=500)
    with GameSession.open(tmp_path) as s:
        journal = s._journal
        assert history(journal, limit=500) == live == s.history(limit=500)
        assert [e["seq"] for e in s.history(limit=7)] == [e["seq"] for e in live[-7:]]
        assert sum(e["undone"] for e in live) == 2
        read: list[tuple[int, int | None]] = []
        entries = journal.entries

        def spy(after: int = 0, upto: int | None = None) -> Any:
            read.append((after, upto))
            return entries(after, upto)

        journal.entries = spy  # type: ignore[method-assign]
        journal.scan = None  # type: ignore[assignment,method-assign]  # a page never scans
        page = s.history(limit=5)
        assert [e["seq"] for e in page] == [e["seq"] for e in live[-5:]]
        assert all(upto is not None and upto - after <= 50 for after, upto in read)
