"""The banker's "undo to here": one journaled jump back, undone and redone in one step,
the same after a power cut at any row, refused for players and for lines not in force."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.journal import Journal
from companion.game.reading import effective_commands
from companion.game.saved_games import journal_path
from companion.game.session import GameSession
from companion.rules import GameState, snapshot

BANKER = Source("phone", player="Ann", banker=True)
NEW = {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"], "seed": 5}
#: Ann rolls 1+2 (Rue Lecourbe), buys it, ends; Bo's dice are rolled by the companion
MOVES: list[dict[str, Any]] = [
    {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
    {"do": "roll"}, {"do": "pay", "from": "Bo", "to": "bank", "amount": 7},
]


def content(g: GameState | None) -> dict[str, Any]:
    """The whole state (generator and decks included) except the version number."""
    assert g is not None
    out = snapshot(g)
    del out["version"]
    return out


def play(s: GameSession) -> dict[int, dict[str, Any]]:
    """The scripted game; the state after each journal row, by seq."""
    states = {}
    for command in [NEW, *MOVES]:
        out = s.submit(command, BANKER)
        assert out.accepted, out
        states[s.history(limit=1)[-1]["seq"]] = content(s.game_state())
    return states


def test_going_back_is_one_row_with_the_state_of_that_moment(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        states = play(s)  # rows 1 (new game) .. 6
        plan = s.undo_to_plan(2)
        assert plan["seq"] == 2 and plan["here"]["command"] == {"do": "roll", "dice": [1, 2]}
        assert [e["seq"] for e in plan["taken"]] == [6, 5, 4, 3]
        assert [e["device"] for e in plan["taken"]] == [False, True, False, False]
        version = s.version
        out = s.undo_to(2, BANKER)
        assert out.accepted and out.version == version + 1
        assert [e["kind"] for e in out.events] == ["undone"] * 4
        assert [e["seq"] for e in out.events] == [6, 5, 4, 3]
        assert content(s.game_state()) == states[2]
        rows = s.history()
        assert len(rows) == 7 and rows[-1]["kind"] == "undo_to" and rows[-1]["target"] == 2
        assert [r["undone"] for r in rows] == [False, False, True, True, True, True, False]
        # one undo brings every move back, one redo takes them again
        back = s.undo(BANKER)
        assert back.accepted and [e["kind"] for e in back.events] == \
            ["undone", "redone", "redone", "redone", "redone"]
        assert content(s.game_state()) == states[6]
        assert not any(r["undone"] for r in s.history() if r["kind"] == "command")
        again = s.redo(BANKER)
        assert again.accepted and content(s.game_state()) == states[2]
        # and after the jump, the moves before it are undone one by one as ever
        assert s.undo_target() is not None and s.undo_target()["kind"] == "undo_to"
        assert s.undo(BANKER).accepted and content(s.game_state()) == states[6]
        assert s.undo(BANKER).accepted and content(s.game_state()) == states[5]


def test_a_power_cut_after_any_row_resumes_the_same_table(tmp_path: Path) -> None:
    seen: list[tuple[int, dict[str, Any], list[bool]]] = []
    with GameSession.open(tmp_path) as s:
        play(s)
        for act in (lambda: s.undo_to(3, BANKER), lambda: s.undo(BANKER),
                    lambda: s.redo(BANKER), lambda: s.submit({"do": "end_turn"}, BANKER),
                    lambda: s.undo_to(1, BANKER), lambda: s.undo(BANKER),
                    lambda: s.undo(BANKER)):
            assert act().accepted
            seen.append((s.version, content(s.game_state()),
                         [r["undone"] for r in s.history()]))
        gid = s.game_id
    # cut the journal after each of those rows (a power cut), and resume each time
    src = journal_path(tmp_path, gid)
    for i, (version, state, undone) in enumerate(seen):
        cut = tmp_path / f"cut{i}"
        (cut / "games").mkdir(parents=True)
        dst = journal_path(cut, gid)
        with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
            a.backup(b)
            b.execute("DELETE FROM entries WHERE seq > ?", (7 + i,))
            b.execute("DELETE FROM snapshots WHERE seq > ?", (7 + i,))
        with GameSession.open(cut, gid) as r:
            assert r.version == version
            assert content(r.game_state()) == state
            assert [row["undone"] for row in r.history()] == undone


def test_the_export_leaves_out_what_a_jump_took_back(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        play(s)
        assert s.undo_to(3, BANKER).accepted
        journal = s._journal  # noqa: SLF001 - read what the export reads
        assert [e.seq for e in effective_commands(journal)] == [1, 2, 3]


def test_refusals_change_nothing(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit({**NEW, "seed": 1}, BANKER)  # an earlier game in the same journal
        play(s)  # rows 2 .. 7
        assert s.undo(BANKER).accepted  # row 8 undoes row 7
        version = s.version
        for seq, code in ((7, "not_in_line"), (8, "not_in_line"), (0, "not_in_line"),
                          (99, "not_in_line"), (1, "before_game_start"),
                          (6, "last_move")):
            assert s.undo_to_plan(seq)["code"] == code
            out = s.undo_to(seq, BANKER)
            assert not out.accepted and out.code == code and out.params == {"seq": seq}
        out = s.undo_to(3, Source("phone", player="Ann"))
        assert not out.accepted and out.code == "banker_only"
        assert s.version == version and len(s.history()) == 8
        # a player cannot undo the banker's jump either, even one made from their phone
        assert s.undo_to(2, BANKER).accepted
        out = s.undo(Source("phone", player="Ann"))
        assert not out.accepted and out.code == "banker_only"


def test_a_version_1_journal_takes_its_first_jump(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        play(s)
        gid = s.game_id
    path = journal_path(tmp_path, gid)
    with sqlite3.connect(path) as db:  # an older companion's journal: version 1 schema
        sql = db.execute("SELECT sql FROM sqlite_master WHERE name='entries'").fetchone()[0]
        db.execute("ALTER TABLE entries RENAME TO old")
        db.execute(sql.replace(", 'undo_to'", "").replace("entries_v2", "entries"))
        db.execute("INSERT INTO entries SELECT * FROM old")
        db.execute("DROP TABLE old")
        db.execute("UPDATE meta SET value='1' WHERE key='schema_version'")
    with GameSession.open(tmp_path, gid) as s:
        assert s.undo_to(2, BANKER).accepted
    journal = Journal.open(path, readonly=True)
    try:
        assert journal.meta("schema_version") == "2"
        assert [k for _s, k, _t in journal.scan()][-1] == "undo_to"
    finally:
        journal.close()


@pytest.mark.parametrize("seq", [2, 4])
def test_a_new_move_after_the_jump_then_undo_twice(tmp_path: Path, seq: int) -> None:
    with GameSession.open(tmp_path) as s:
        states = play(s)
        assert s.undo_to(seq, BANKER).accepted
        after = content(s.game_state())
        assert after == states[seq]
        legal = s.state()["legal"]
        move = next(c for c in legal if c["do"] in ("end_turn", "buy", "roll"))
        if move["do"] == "roll":
            move = {"do": "roll", "dice": [2, 3]}
        assert s.submit({k: v for k, v in move.items() if k == "do" or k == "dice"},
                        BANKER).accepted
        assert s.undo(BANKER).accepted and content(s.game_state()) == after
        assert s.undo(BANKER).accepted and content(s.game_state()) == states[6]


def test_a_jump_redone_after_its_moves_were_undone_and_redone_one_by_one(
        tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        states = play(s)
        assert s.undo_to(3, BANKER).accepted
        assert s.undo(BANKER).accepted  # the moves are back
        assert s.undo(BANKER).accepted and content(s.game_state()) == states[5]
        assert s.redo(BANKER).accepted and content(s.game_state()) == states[6]
        assert s.redo(BANKER).accepted and content(s.game_state()) == states[3]  # the jump
        assert s.undo(BANKER).accepted and content(s.game_state()) == states[6]
        version, state = s.version, content(s.game_state())
        gid = s.game_id
    with GameSession.open(tmp_path, gid) as again:
        assert again.version == version and content(again.game_state()) == state
        assert again.undo(BANKER).accepted and content(again.game_state()) == states[5]
