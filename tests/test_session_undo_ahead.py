"""The state an UNDO would bring, built ahead while the table's UNDO question is open
(`GameSession.undo_ahead`, issue 28): it is the state the undo then brings, key for key,
and the undo's commit takes its JSON only while nothing changed since."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.applying import StateJsonMemory
from companion.game.session import GameSession
from tools.bench.journal import bot_script

BANKER = Source("script", banker=True)
CLOCKS = ("auction_clock", "clock")


def count_json_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the session's public JSON builds (`StateJsonMemory.state_json`), one item a
    build (the screen's tests count them too)."""
    builds: list[int] = []
    real = StateJsonMemory.state_json

    def counted(self: StateJsonMemory, *args: Any, **kwargs: Any) -> Any:
        builds.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(StateJsonMemory, "state_json", counted)
    return builds


def _without_clocks(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in CLOCKS}


def test_the_state_built_ahead_is_the_state_the_undo_brings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After every command of a bot game (cards drawn, auctions, lessons of the teaching
    table on): the state built ahead is the state after the undo (but for the clocks of
    its commit's time), and the undo built no JSON of its own; the redo puts the game back."""
    builds = count_json_builds(monkeypatch)
    compared = 0
    with GameSession.open(tmp_path) as session:
        for i, command in enumerate(bot_script(seed=11, count=220)):
            assert session.submit(command, BANKER).accepted
            if i == 0:  # the game dealt: nothing to undo yet
                assert session.undo_ahead(session.version) is None
                continue
            assert session.undo_ahead(session.version - 1) is None  # not the version in force
            ahead = session.undo_ahead(session.version)
            assert ahead is not None, i
            before = len(builds)
            assert session.undo(BANKER).accepted
            after = session.state()  # its JSON: built now, unless it was built ahead
            assert len(builds) == before, (i, "the undo built its JSON again")
            assert _without_clocks(after) == ahead, i
            compared += 1
            assert session.redo(BANKER).accepted
    assert compared >= 200


def test_what_was_built_ahead_of_another_state_is_not_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built ahead, then another move: the undo of that move builds its own JSON, the
    state it goes back to."""
    builds = count_json_builds(monkeypatch)
    script = bot_script(seed=11, count=40)
    with GameSession.open(tmp_path) as session:
        for command in script[:30]:
            assert session.submit(command, BANKER).accepted
        stale = session.undo_ahead(session.version)
        assert stale is not None
        shown = session.state()
        assert session.submit(script[30], BANKER).accepted
        before = len(builds)
        assert session.undo(BANKER).accepted
        after = session.state()
        assert len(builds) > before  # its own JSON
        assert _without_clocks(after) == {**_without_clocks(shown), "version": session.version}
