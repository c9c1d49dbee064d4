"""The bots' kept looks answer as a fresh look would (issue 28, the eleventh engine pass).

`Bots` keeps each player's groups to build on and lots to buy (`_holdings`) while no deed
moves, and since the eleventh pass keeps a player's across a move that changes nothing the
player's groups give them. A stale look would send another command than the policy asks
for; this test plays whole games and, before every command, asks a fresh `Bots` (nothing
kept, the same trade memory) too: both must send the same command. It fails when a kept
look is not forgotten where it should be (for instance, when `_holdings` keeps every
player's look across every move).
"""

from __future__ import annotations

import pytest

from companion.bots import Bots
from companion.game.applying import apply_command
from companion.rules import Accepted, apply


@pytest.mark.parametrize(("edition", "players", "seeds"), [
    ("classic-eur", 4, range(6)), ("mega", 5, range(3)), ("sv", 3, range(3)),
])
def test_kept_looks_send_what_a_fresh_look_sends(edition: str, players: int,
                                                 seeds: range) -> None:
    compared = 0
    for seed in seeds:
        names = [f"P{i + 1}" for i in range(players)]
        result = apply_command(None, {"do": "new_game", "edition": edition, "players": names,
                                      "seed": seed})
        assert isinstance(result, Accepted)
        g = result.state
        bots = Bots()
        while g.winner < 0 and g.turn_number < 400:
            fresh = Bots()
            fresh.trade_turn = bots.trade_turn
            expected = fresh.choose(g)
            command = bots.choose(g)
            assert command == expected, (edition, seed, g.version)
            compared += 1
            step = apply(g, command)
            assert isinstance(step, Accepted), (edition, seed, command, step)
            g = step.state
    assert compared > 1000  # the games were played, not ended at once
