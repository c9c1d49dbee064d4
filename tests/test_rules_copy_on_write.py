"""A command's state shares what it does not change with the state before (players, decks,
the squares' tuples, the pending records) and copies each on its first change: no state
handed out may change afterwards, whatever the command (docs/bench.md, issue 28)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from companion.bots import Bots
from companion.game.applying import apply_command
from companion.rules import Accepted, GameState, apply, net_worths, snapshot


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


def _worth_by_hand(g: GameState, player: int) -> int:
    """The rulebook's net worth of one player, square by square (the oracle)."""
    total = g.players[player].cash
    for sq in g.edition.squares:
        if sq.price and g.owner[sq.index] == player:
            total += sq.price - (sq.mortgage if g.mortgaged[sq.index] else 0)
            total += g.level[sq.index] * sq.house_cost
            total += g.edition.depot_cost if g.depots and sq.index in g.depots else 0
    return total


@pytest.mark.parametrize(("edition", "seed", "players"), [("classic-eur", 3, 4), ("mega", 4, 5)])
def test_every_player_s_worth_from_one_walk_of_the_board(edition: str, seed: int,
                                                         players: int) -> None:
    """`net_worths` (the state JSON's and the followers' one walk) is each player's worth
    through a whole game: deeds bought, mortgaged, built on, lost in bankruptcy."""
    built = mortgaged = 0
    for g, _ in _game(edition, seed, players):
        assert net_worths(g) == tuple(_worth_by_hand(g, i) for i in range(len(g.players)))
        built += any(g.level)
        mortgaged += any(g.mortgaged)
    assert built and mortgaged, "the game must build and mortgage, or the walk is untested"


def test_a_command_s_state_has_every_field_of_a_copy() -> None:
    """In plain Python `apply` copies the state field by field itself (docs/bench.md, issue
    28, eighth pass), beside `GameState.copy`: a field the one sets and the other forgets
    would be missing from every command's state. Each state of a game has every field
    `copy` gives, the same where the command cannot change it, and its own version."""
    kept = _game("classic-eur", 3, 4)
    names = [f.name for f in fields(GameState)]
    assert len(names) > 20
    for (before, _), (after, _) in zip(kept, kept[1:], strict=False):
        copied = before.copy()
        for name in names:
            getattr(after, name)  # set (a slot never set raises AttributeError)
            getattr(copied, name)
        assert after.edition is before.edition and after.options is before.options
        assert after.version == before.version + 1 and copied.version == before.version
        assert after.seldom_own is False or after.seldom is not before.seldom


def test_every_player_record_has_every_field() -> None:
    """In plain Python `GameState.wp` copies a player's record field by field on a bare
    record (docs/bench.md, issue 28): a field added to `Player` and forgotten there would be
    unset (a slot never set raises AttributeError) on the first move that copies it. Each
    player of each state has every field, and the mover's copy keeps what a move does not
    change."""
    from companion.rules.state import Player

    names = [f.name for f in fields(Player)]
    assert len(names) >= 8
    kept = _game("mega", 4, 5)  # the bus tickets too
    moved = 0
    for (before, _), (after, _) in zip(kept, kept[1:], strict=False):
        for i, p in enumerate(after.players):
            for name in names:
                getattr(p, name)
            old = before.players[i]
            if p is not old:
                moved += 1
                assert p.name == old.name and p.jail_cards is not None
    assert moved > 100
