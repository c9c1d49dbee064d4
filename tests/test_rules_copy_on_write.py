"""A command's state shares what it does not change with the state before (players, decks,
the pending list, the squares' tuples) and copies each on its first change: no state handed
out may change afterwards, whatever the command (docs/bench.md, issue 28's sixth pass)."""

from __future__ import annotations

import pytest

from companion.bots import Bots
from companion.game.applying import apply_command
from companion.rules import Accepted, GameState, apply, snapshot
from companion.rules.state import AuctionPending, BuyPending


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


def test_a_command_that_changes_no_decision_shares_the_pending_list() -> None:
    r = apply_command(None, {"do": "new_game", "edition": "classic-eur",
                             "players": ["Ann", "Bo"], "seed": 1})
    assert isinstance(r, Accepted)
    rolled = apply(r.state, {"do": "roll", "dice": [1, 2]})  # to square 3: a lot to buy
    assert isinstance(rolled, Accepted) and isinstance(rolled.state.top, BuyPending)
    declined = apply(rolled.state, {"do": "decline"})  # the buy answered, an auction opened
    assert isinstance(declined, Accepted) and isinstance(declined.state.top, AuctionPending)
    bid = apply(declined.state, {"do": "bid", "by": "Bo", "amount": 10})
    assert isinstance(bid, Accepted)
    assert isinstance(rolled.state.top, BuyPending) and len(rolled.state.pending) == 1
    assert declined.state.top is not bid.state.top and declined.state.top.highest == 0
    assert bid.state.pending is not declined.state.pending
    taxed = apply(r.state, {"do": "roll", "dice": [1, 3]})  # income tax paid at once
    assert isinstance(taxed, Accepted) and taxed.state.pending == []
    assert taxed.state.pending is r.state.pending  # nothing waited or waits: not copied


def test_a_public_copy_has_a_pending_list_of_its_own() -> None:
    r = apply_command(None, {"do": "new_game", "edition": "classic-eur",
                             "players": ["Ann", "Bo"], "seed": 1})
    assert isinstance(r, Accepted)
    rolled = apply(r.state, {"do": "roll", "dice": [1, 2]})
    assert isinstance(rolled, Accepted)
    c = rolled.state.copy()
    c.pending.append(BuyPending(1, 6))  # a caller may change a copy's list directly
    assert len(rolled.state.pending) == 1 and len(c.pending) == 2
    f = rolled.state.fork()
    assert f.pending is rolled.state.pending  # the engine's copy shares it ...
    f.wpending().pop()  # ... until its first change
    assert f.pending == [] and len(rolled.state.pending) == 1
    assert f.wpending() is f.pending  # then it is the copy's own
