"""`group_builders` only narrows which lots the building rules are asked about.

The offers (`legal_commands`) and the building auction ask `_lot_plan` (through
`build_refusal`) only of the lots `group_builders` lists, and who may build in a group only
of it (issue 28: once per state instead of once per player, square and building). So on
bot games' states, with the house rules that change building, it must list every lot where
one more level is accepted, name the one player `builder_lots` accepts in each group, and
the placement questions must answer what asking every square of the board answers.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import start

from companion.bots import Bots
from companion.rules import Accepted, GameState, apply
from companion.rules.buildings import (
    anyone_can_place,
    build_refusal,
    builder_lots,
    can_place,
    group_builders,
    placeable_lots,
    places,
)
from companion.rules.codes import RulesError
from companion.rules.edition import SquareKind

BUILDINGS = ("house", "hotel", "skyscraper")

#: (edition, house rules): evenness off, the short game, all lots but one, and the defaults
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("classic-eur", {}),
    ("classic-en", {"even_building": False}),
    ("sv", {"houses_before_hotel": 3, "build_with_all_but_one": True}),
    ("mega", {}),
    ("mega", {"even_building": False}),
]


def _states(edition: str, options: dict[str, Any], seed: int, steps: int) -> list[GameState]:
    g = start(("A", "B", "C", "D"), seed=seed, edition=edition, **options)
    bots, seen = Bots(), []
    for n in range(steps):
        if g.winner >= 0:
            break
        if n % 3 == 0:
            seen.append(g)
        r = apply(g, bots.choose(g))
        assert isinstance(r, Accepted)
        g = r.state
    return seen


def _placeable_everywhere(g: GameState, player: int, building: str) -> list[int]:
    """A won building's lots as they were found before: every square of the board asked."""
    return [s for s, sq in enumerate(g.edition.squares)
            if sq.kind is SquareKind.LOT and g.owner[s] == player and places(g, building, s)
            and build_refusal(g, player, s, 1, True) is None]


@pytest.mark.parametrize(("edition", "options"), GAMES)
def test_group_builders_lists_every_lot_one_more_level_may_go_on(
        edition: str, options: dict[str, Any]) -> None:
    built = narrowed = placed = 0
    for seed in range(3):
        for g in _states(edition, options, seed, 900):
            builders = group_builders(g)
            for i, p in enumerate(g.players):
                for s, sq in enumerate(g.edition.squares):
                    if sq.kind is not SquareKind.LOT or g.owner[s] != i:
                        continue
                    may = builders.get(sq.group)
                    accepted = not isinstance(builder_lots(g, i, s), RulesError)
                    assert (may is not None and may[0] == i) == accepted, (g.version, s)
                    for free in (False, True):
                        if build_refusal(g, i, s, 1, free) is None:
                            built += 1
                            assert may is not None and s in may[1], (g.version, s, free)
                    if accepted and may is not None and s not in may[1]:
                        narrowed += 1
                if p.bankrupt:
                    continue
                for building in BUILDINGS:
                    everywhere = _placeable_everywhere(g, i, building)
                    placed += bool(everywhere)
                    assert placeable_lots(g, i, building) == everywhere
                    assert can_place(g, i, building) == bool(everywhere)
            for building in BUILDINGS:
                assert anyone_can_place(g, building) == any(
                    _placeable_everywhere(g, i, building)
                    for i, p in enumerate(g.players) if not p.bankrupt)
    # the games reached lots that take a building, lots the list leaves out and placements
    assert built > 50 and narrowed > 20 and placed > 10, (built, narrowed, placed)
