"""The session takes typed command records (companion.rules.commands) as well as JSON.

The table's own inputs build records; phones and scripts send JSON, which the engine's one
parser reads. Either way the journal holds the same JSON row, a game started one way resumes
the same, and a malformed JSON command is refused saying what is wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.game.api import Source
from companion.game.session import GameSession
from companion.rules import snapshot
from companion.rules.commands import Bid, Buy, EndTurn, NewGame, Roll, parse_command

BANKER = Source("script", banker=True)
TYPED = [NewGame("classic-eur", ("Ann", "Bo", "Cy"), 11), Roll(None, (1, 2)), Buy(),
         EndTurn(), Roll()]


def journaled(s: GameSession) -> list[Any]:
    """The journaled commands, oldest first."""
    return [entry["command"] for entry in s.history()]


def test_typed_records_play_and_journal_as_their_json(tmp_path: Path) -> None:
    typed_dir, json_dir = tmp_path / "typed", tmp_path / "json"
    with GameSession.open(typed_dir) as s:
        assert all(s.submit(c, BANKER).accepted for c in TYPED)
        typed_rows, typed_state = journaled(s), s.game_state()
    with GameSession.open(json_dir) as s:
        assert all(s.submit(c.to_json(), BANKER).accepted for c in TYPED)
        json_rows = journaled(s)
    assert typed_rows[:4] == [c.to_json() for c in TYPED[:4]]
    assert typed_rows[-1]["do"] == "roll" and len(typed_rows[-1]["dice"]) == 2  # the device's
    assert typed_rows == json_rows  # the same seed: the same dice
    with GameSession.open(typed_dir) as again:
        resumed = again.game_state()
        assert resumed is not None and typed_state is not None
        assert snapshot(resumed) == snapshot(typed_state)
        assert [parse_command(row) for row in journaled(again)][:4] == TYPED[:4]


def test_a_typed_command_is_still_checked_for_who_sends_it(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(TYPED[0], BANKER)
        out = s.submit(EndTurn(), Source("phone", player="Bo"))
        assert not out.accepted and out.code == "not_your_turn"
        out = s.submit(Roll(), Source("button"))  # the shared inputs act for Ann, now
        assert out.accepted
        assert journaled(s)[-1]["by"] == "Ann"


def test_malformed_json_and_strangers_are_refused(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as s:
        s.submit(TYPED[0], BANKER)
        before = s.state()
        out = s.submit({"do": "bid", "by": "Bo"}, BANKER)
        assert not out.accepted and out.code == "bad_command"
        assert out.message == "bid: missing amount"
        out = s.submit(Bid("Bo", 5), BANKER)
        assert not out.accepted and out.code == "not_now"
        out = s.submit(["roll"], BANKER)  # type: ignore[arg-type]
        assert not out.accepted and out.message == "a command must be a JSON object"
        assert s.state() == before
