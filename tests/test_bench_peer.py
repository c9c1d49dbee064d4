"""The bench's peer part: the peer's turns counted as the engine's are, and the engine and
the peer timed in alternating slices, paired round by round (never timing thresholds: the
machines the tests run on are shared)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tools.bench.peer import (
    Slice,
    SliceChild,
    _figures,
    alternate,
    paired_ratios,
    run_bench,
)

_FAKE_PEER_PLAYER = '''
class Player:
    """Plays 3 turns a game; the turns of player 0 roll doubles twice first, and, as the
    peer does, the roll after doubles calls make_a_move again from inside the turn."""

    def __init__(self, index):
        self.index = index
        self.doubles = 0

    def make_a_move(self):
        if self.index == 0 and self.doubles < 2:
            self.doubles += 1
            return self.make_a_move()
        self.doubles = 0
        return "end"
'''
_FAKE_PEER_GAME = '''
from monopoly.core.player import Player

def monopoly_game(numbers):
    players = [Player(0), Player(1)]
    for _turn in range(3):
        for player in players:
            player.make_a_move()
'''


def fake_peer(where: Path) -> Path:
    """A stand-in of the peer's layout: 3 rounds of 2 players, player 0 rolling doubles
    twice every turn (3 moves a turn, player 1 one): 6 turns and 12 moves a game."""
    core = where / "monopoly" / "core"
    core.mkdir(parents=True)
    (where / "monopoly" / "__init__.py").write_text("")
    (core / "__init__.py").write_text("")
    (core / "player.py").write_text(_FAKE_PEER_PLAYER)
    (core / "game.py").write_text(_FAKE_PEER_GAME)
    (where / "monopoly" / "log.py").write_text("class Log:\n    def save(self):\n"
                                               "        pass\n")
    (where / "monopoly" / "log_settings.py").write_text(
        "class LogSettings:\n    KEEP_GAME_LOG = True\n")
    return where


def test_the_peer_counts_a_turn_once_whatever_its_doubles(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COMPANION_PEER", str(fake_peer(tmp_path)))
    out = run_bench(0.05)
    assert out["peer.games"] >= out["peer.slices"] == 60  # a whole game at least a slice
    ratio = out["peer.moves_per_s"] / out["peer.player_turns_per_s"]
    assert ratio == pytest.approx(12 / 6, rel=0.01)


def test_the_rounds_alternate_and_pair_slices_of_the_same_round() -> None:
    """A machine whose load changes from round to round (the rates halve, recover...):
    each round's pair sees the same load, so every paired ratio is the engines' true one,
    while a slice paired with another round's would be off by the loads' ratio."""
    loads = [1.0, 0.5, 0.9, 0.3, 0.7]
    base = {"peer": 60_000.0, "plain": 66_000.0, "compiled": 180_000.0}
    calls: list[str] = []

    def side(name: str) -> Callable[[float], Slice]:
        def run(seconds: float) -> Slice:
            load = loads[sum(1 for c in calls if c == name)]  # this side's round
            calls.append(name)
            return Slice(round(base[name] * load * seconds), 0, 1, seconds)
        return run

    runs = alternate({name: side(name) for name in base}, slices=5, seconds=0.5)
    assert calls == ["peer", "plain", "compiled", "compiled", "plain", "peer"] * 2 + [
        "peer", "plain", "compiled"]
    assert [len(runs[name]) for name in base] == [5, 5, 5]
    assert paired_ratios(runs["plain"], runs["peer"]) == pytest.approx([1.1] * 5)
    assert paired_ratios(runs["compiled"], runs["peer"]) == pytest.approx([3.0] * 5)
    shifted = paired_ratios(runs["plain"][1:], runs["peer"][:-1])
    assert shifted != pytest.approx([1.1] * 4)  # the test sees a pairing across rounds
    with pytest.raises(ValueError):
        paired_ratios(runs["plain"], runs["peer"][:4])  # never a slice without its pair


def test_the_paired_ratios_come_from_slices_of_both(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The real drivers (the stand-in peer, the plain engine): 3 rounds; the median and
    its spread are of the rounds' ratios, and the plain engine's rate is of its slices."""
    monkeypatch.setenv("COMPANION_PEER", str(fake_peer(tmp_path)))
    out = run_bench(0.3, slices=3)
    assert out["peer.slices"] == 3 and out["peer.slice_seconds"] == pytest.approx(0.1)
    spread = [out[f"peer.plain_engine_ratio{end}"] for end in ("_min", "_q1", "", "_q3",
                                                                "_max")]
    assert 0 < spread[0] and spread == sorted(spread)
    assert out["peer.plain_player_turns_per_s"] > 0
    # the stand-in plays 6 turns a game far faster than any real engine plays a turn
    assert out["peer.plain_engine_ratio_max"] < 1
    if "peer.compiled_engine_ratio" in out:  # a checkout with the compiled engine built
        assert out["peer.compiled_engine_ratio_min"] <= out["peer.compiled_engine_ratio"]


def test_the_figures_are_the_rounds_median_and_spread() -> None:
    assert _figures("x", [1.3, 0.9, 1.0, 1.1, 5.0]) == {
        "x": 1.1, "x_min": 0.9, "x_q1": 0.95, "x_q3": 3.15, "x_max": 5.0}
    assert _figures("x", [1.25]) == {"x": 1.25, "x_min": 1.25, "x_q1": 1.25, "x_q3": 1.25,
                                     "x_max": 1.25}


def test_a_child_that_dies_says_why(tmp_path: Path) -> None:
    child = SliceChild("import sys; sys.exit('no peer here')", tmp_path, {}, timeout=30)
    with pytest.raises(RuntimeError, match="no peer here"):
        child.ready()
    assert child.proc.returncode is not None


def test_a_silent_child_is_ended_at_its_timeout(tmp_path: Path) -> None:
    child = SliceChild("import sys; sys.stdin.read()", tmp_path, {}, timeout=0.5)
    with pytest.raises(RuntimeError, match="silent"):
        child.ready()
    assert child.proc.returncode is not None
