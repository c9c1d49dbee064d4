"""The journal benchmark's keys, and resume cost bounded by snapshots (not by game length)."""

from __future__ import annotations

from pathlib import Path

import pytest

import companion.game.replaying as journal_state
from companion.game.api import Source
from companion.game.journal import Entry
from companion.game.replaying import SNAPSHOT_EVERY
from companion.game.session import GameSession
from companion.rules import GameState
from tools.bench.journal import bot_script, run_bench


def test_bench_reports_commit_times_with_and_without_listeners() -> None:
    result = run_bench(commands=120)
    assert result["journal.commit_samples"] == 119  # every commit after the new_game
    assert 0 < result["journal.commit_ms_p50"] <= result["journal.commit_ms_p99"]
    assert 0 < result["journal.commit_bare_ms_p50"] <= result["journal.commit_bare_ms_p99"]
    assert result["journal.commit_listening_ratio_p50"] == pytest.approx(
        result["journal.commit_ms_p50"] / result["journal.commit_bare_ms_p50"],
        abs=0.006)  # the ratio is rounded to 2 places, its terms to 3
    # until the listeners are done: each such sample holds its submit's
    assert result["journal.commit_ms_p50"] <= result["journal.listened_ms_p50"] \
        <= result["journal.listened_ms_p99"]


def test_resume_replays_fewer_than_a_snapshot_interval(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    count = SNAPSHOT_EVERY * 5 + 37
    with GameSession.open(tmp_path) as s:
        for c in bot_script(seed=2, count=count):
            assert s.submit(c, Source("script", banker=True)).accepted
        version = s.version
    steps: list[int] = []
    real_step = journal_state.step

    def counting(state: GameState | None, entry: Entry) -> GameState:
        steps.append(entry.seq)
        return real_step(state, entry)

    monkeypatch.setattr(journal_state, "step", counting)
    with GameSession.open(tmp_path) as s:
        assert s.version == version
    assert 0 < len(steps) < SNAPSHOT_EVERY
    assert steps[-1] == count
