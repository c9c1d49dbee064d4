"""In plain Python the engine makes its most frequent records on a bare record, setting each
field, instead of calling the class (docs/bench.md, issue 28, seventh and eighth passes):
the events Transfer, Moved, Rolled, Turn, PassGo, Bid and CardDrawn, the usual rents'
reasons (`Why`) and the pending BuyPending, DrawPending and AuctionPending (a bid). Such a
record must be the very record its constructor would have made: every field set, the same
values, the same JSON. A field forgotten at one of those places would show only when
something read it."""

from __future__ import annotations

from dataclasses import fields

import pytest

from companion.bots import Bots
from companion.game.applying import apply_command
from companion.rules import Accepted, apply
from companion.rules.events import (
    Bid,
    CardDrawn,
    Moved,
    PassGo,
    Rolled,
    Transfer,
    Turn,
    Why,
    event_from_json,
)
from companion.rules.state import AuctionPending, BuyPending, DrawPending

MADE_BARE = (Transfer, Moved, Rolled, Turn, PassGo, Bid, CardDrawn)
PENDING_MADE_BARE = (BuyPending, DrawPending, AuctionPending)


def _events(edition: str, seed: int, players: int,
            pending: list[object] | None = None) -> list[object]:
    """Every event of one bot game, in order (and, given a list, every pending record)."""
    r = apply_command(None, {"do": "new_game", "edition": edition,
                             "players": [f"P{i}" for i in range(players)], "seed": seed})
    assert isinstance(r, Accepted)
    g, bots = r.state, Bots()
    told: list[object] = list(r.events)
    while g.winner < 0 and g.turn_number < 300:
        step = apply(g, bots.choose(g))
        assert isinstance(step, Accepted)
        told.extend(step.events)
        g = step.state
        if pending is not None:
            pending.extend(g.pending)
    return told


@pytest.mark.parametrize(("edition", "seed", "players"),
                         [("classic-eur", 3, 4), ("mega", 4, 5), ("sv", 5, 3)])
def test_an_event_made_bare_is_the_record_its_constructor_makes(edition: str, seed: int,
                                                                players: int) -> None:
    told = _events(edition, seed, players)
    seen = {kind: 0 for kind in MADE_BARE}
    for event in told:
        kind = type(event)
        if kind not in seen:
            continue
        seen[kind] += 1
        # each field set (the compiled classes list their ClassVar `kind` among them)
        values = [getattr(event, f.name) for f in fields(kind) if f.name != "kind"]
        assert kind(*values) == event
        assert event_from_json(event.to_json()) == event
    assert all(count > 20 for count in seen.values()), seen


@pytest.mark.parametrize(("edition", "seed", "players"),
                         [("classic-eur", 3, 4), ("mega", 4, 5), ("sv", 5, 3)])
def test_a_reason_or_a_decision_made_bare_is_the_record_its_constructor_makes(
        edition: str, seed: int, players: int) -> None:
    waiting: list[object] = []
    told = _events(edition, seed, players, waiting)
    reasons = [e.why for e in told if isinstance(e, Transfer) and e.why is not None]
    rents = [w for w in reasons if w.rule in ("rent_lot", "rent_houses", "rent_station")]
    assert len(rents) > 20
    for why in reasons:
        assert Why(why.rule, why.square, why.terms, why.option) == why
        assert why.to_json()["rule"] == why.rule
    seen = {kind: 0 for kind in PENDING_MADE_BARE}
    for record in waiting:
        kind = type(record)
        if kind not in seen:
            continue
        seen[kind] += 1
        values = [getattr(record, f.name) for f in fields(kind) if f.name != "kind"]
        if kind is AuctionPending:  # its constructor sets `player` itself (always NOBODY)
            assert values[0] == -1
            values = values[1:]
        assert kind(*values) == record
    assert all(count > 5 for count in seen.values()), seen
