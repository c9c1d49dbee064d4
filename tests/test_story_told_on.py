"""The session's story told on move by move (issue 28: a phone on the story page had the
whole game replayed after every move, 29 ms here at move 1 300 and growing): after every
kind of change (a move, an undo, a redo, the banker's jump back and its undo and redo, a
new game dealt in the same journal) it is the story told from the whole journal, and after
a move it reads that move's row alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.bots import Bots
from companion.game.api import Source
from companion.game.reading import effective_commands
from companion.game.replaying import command_dict
from companion.game.session import GameSession
from companion.game.telling.story import tell

BANKER = Source("script", banker=True)


def _whole(session: GameSession) -> Any:
    """The story told from the whole journal, as the session told it before."""
    return tell(effective_commands(session._journal))


def test_told_on_is_told_whole_after_every_kind_of_change(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    with GameSession.open(tmp_path) as session:
        assert session.story() is None
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["A", "B", "C", "D"], "seed": 9}, BANKER).accepted
        bots = Bots()
        checked = 0

        parsed = 0
        real = session._journal._parse

        def parse(row: Any) -> Any:
            nonlocal parsed
            parsed += 1
            return real(row)
        monkeypatch.setattr(session._journal, "_parse", parse)
        reads: list[int] = []  # the rows parsed to tell the story after each move

        def play(n: int) -> None:
            nonlocal checked
            for _ in range(n):
                move = command_dict(bots.choose(session.game_state()))
                assert session.submit(move, BANKER).accepted, move
                before = parsed
                told = session.story()
                reads.append(parsed - before)
                assert told == _whole(session)
                checked += 1

        play(80)
        assert max(reads[1:]) <= 1  # after a move its own row, at most (not the game's)
        assert reads[0] > 0  # the first time: the game so far
        for change in ("undo", "undo", "redo", "undo"):
            assert getattr(session, change)(BANKER).accepted, change
            assert session.story() == _whole(session), change
        play(5)
        target = session.history(None, 12)[0]["seq"]
        assert session.undo_to(target, BANKER).accepted
        assert session.story() == _whole(session)
        play(3)
        for change in ("undo", "undo", "undo", "undo", "redo"):
            assert getattr(session, change)(BANKER).accepted, change
            assert session.story() == _whole(session), change
        play(10)
        story = session.story()
        assert story is not None and story.moves > 80
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "seed": 3}, BANKER).accepted
        dealt = session.story()
        assert dealt == _whole(session)
        assert dealt is not None and dealt.players == ("Ann", "Bo") and dealt.moves == 1
        assert session.undo(BANKER).accepted
        assert session.story() == _whole(session) == story
        assert checked > 95
