"""A command's state shares what it does not change with the state before (players, decks,
the squares' tuples, the pending records) and copies each on its first change: no state
handed out may change afterwards, whatever the command (docs/bench.md, issue 28)."""

from __future__ import annotations

import pytest

from companion.bots import Bots
from companion.game.applying import apply_command
from companion.rules import Accepted, GameState, apply, snapshot


def _game(edition: str, seed: int, players: int) -> list[tuple[GameState, object]]:
    """Every state of one bot game with its snapshot taken when it was handed out."""
    r = apply_command(None, {"do": "new_game", "edition": edition,
                             "players": [f"P{i}" for i in range(players)], "seed": seed})
    assert isinstance(r, Accepted)
    g, bots = r.state, Bots()
    kept: list[tuple[GameState, object]] = [(g, snapshot(g))]
    while g.winner < 0 and g.turn_number < 400:
        step = apply(g, bots.choose(g))
        assert isinstance(step, Accepted)
        g = step.state
        kept.append((g, snapshot(g)))
    return kept


@pytest.mark.parametrize(("edition", "seed", "players"),
                         [("classic-eur", 3, 4), ("mega", 4, 5), ("sv", 5, 3)])
def test_no_state_of_a_game_changes_after_it_was_handed_out(edition: str, seed: int,
                                                            players: int) -> None:
    kept = _game(edition, seed, players)
    assert len(kept) > 300
    waited = sum(1 for g, _ in kept if g.pending)
    assert waited > 50, "the games must have decisions waiting, or the pending list is untested"
    for g, seen in kept:
        assert snapshot(g) == seen
