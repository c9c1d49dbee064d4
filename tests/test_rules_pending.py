"""Pending decisions: one read-only record per kind, shared by state copies, whose snapshot
form is the one journals have always held (every field of every kind, defaults included)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.events import Why
from companion.rules.state import (
    AuctionPending,
    BirthdayGiftPending,
    BuildingAuctionPending,
    BusPending,
    BuyPending,
    ChooseSquarePending,
    DebtPending,
    DrawPending,
    LiftMortgagesPending,
    MrMonopolyPending,
    Pending,
    PendingKind,
    PlaceBuildingPending,
    RollForRentPending,
)
from companion.rules.view import pending_from_snapshot, pending_snapshot, restore, snapshot
from tests.rules_helpers import ok, start

#: one record of every kind, with fields away from their defaults where they have any
EVERY_KIND: list[Pending] = [
    BuyPending(1, 6),
    AuctionPending(6, 120, 2, (0,), (8, 9), 0),
    BuildingAuctionPending("hotel", 80, 1, (2,), 50),
    DrawPending(0, "chance"),
    DebtPending(2, 400, 1, "rent", Why("rent_lot", 39, (("rent", 400),)), 0),
    DebtPending(0, 50, -1, "jail_fine", None, 7),
    RollForRentPending(1, 12, 10),
    LiftMortgagesPending(0, (37, 39)),
    PlaceBuildingPending(1, "house"),
    ChooseSquarePending(0, "triple"),
    ChooseSquarePending(0, "auction", 20),
    BirthdayGiftPending(2, 20, 100),
    MrMonopolyPending(1),
    BusPending(2),
]


def test_every_kind_has_its_record() -> None:
    assert {p.kind for p in EVERY_KIND} == set(PendingKind)


@pytest.mark.parametrize("record", EVERY_KIND, ids=lambda p: p.kind.value)
def test_a_record_survives_its_snapshot(record: Pending) -> None:
    g = start(("Ann", "Bo", "Cy"))
    g.pending.append(record)
    again = restore(snapshot(g), g.edition)
    assert again.pending == [record]
    assert snapshot(again) == snapshot(g)


def test_the_snapshot_form_is_the_old_one_with_every_field() -> None:
    g = start(("Ann", "Bo", "Cy"))
    old_form: dict[str, Any] = {
        "kind": "auction", "player": -1, "square": 6, "amount": 0, "creditor": -1,
        "reason": "", "deck": "", "multiplier": 0, "highest": 120, "bidder": 2,
        "passed": [0], "queue": [8, 9], "squares": [], "building": "", "min_bid": 0,
        "then_move": 0}
    assert pending_snapshot(g, AuctionPending(6, 120, 2, (0,), (8, 9))) == old_form
    assert pending_from_snapshot(old_form) == AuctionPending(6, 120, 2, (0,), (8, 9))
    # a buy's amount was its square's printed price: written, and not needed to read it back
    buy = pending_snapshot(g, BuyPending(0, 6))
    assert buy["amount"] == g.edition.squares[6].price and buy["square"] == 6
    assert pending_from_snapshot({**buy, "amount": 0}) == BuyPending(0, 6)


def test_a_bad_kind_in_a_snapshot_is_refused() -> None:
    g = start(("Ann", "Bo"))
    data = snapshot(g)
    data["pending"] = [{"kind": "haggle", "player": 0}]
    with pytest.raises(ValueError):
        restore(data, g.edition)


def test_a_copy_shares_the_records_and_a_bid_replaces_the_one_on_top() -> None:
    g = start(("Ann", "Bo", "Cy"))
    g, _ = ok(g, {"do": "roll", "dice": [1, 5]}, {"do": "decline"})
    auction = g.top
    assert isinstance(auction, AuctionPending)
    assert g.copy().pending[-1] is auction
    after, _ = ok(g, {"do": "bid", "by": "Bo", "amount": 20})
    assert g.top is auction and auction.highest == 0 and auction.bidder == -1
    assert isinstance(after.top, AuctionPending)
    assert (after.top.highest, after.top.bidder, after.top.square) == (20, 1, auction.square)
    passed, _ = ok(after, {"do": "pass", "by": "Ann"})
    assert isinstance(passed.top, AuctionPending) and passed.top.passed == (0,)
    assert after.top.passed == ()


def test_a_state_copy_has_every_field() -> None:
    """GameState.copy sets the fields one by one in plain Python: none may be forgotten."""
    import dataclasses

    from companion.rules.state import GameState

    g = start(("Ann", "Bo", "Cy"))
    g, _ = ok(g, {"do": "roll", "dice": [1, 5]})
    c = g.copy()
    for f in dataclasses.fields(GameState):
        if f.name not in ("owned", "seldom_own"):
            assert getattr(c, f.name) == getattr(g, f.name), f.name
    assert c.owned == 0 and c.pending is not g.pending
    # the seldom-written fields are shared until the copy writes one, then copied whole
    assert c.seldom is g.seldom and not c.seldom_own
    c.pot += 5
    assert c.seldom is not g.seldom and c.pot == g.pot + 5
    for f in dataclasses.fields(type(c.seldom)):
        if f.name != "pot":
            assert getattr(c.seldom, f.name) == getattr(g.seldom, f.name), f.name
    c.wp(1).cash += 1  # the first change makes the list and the record the copy's own
    assert c.players is not g.players and c.players[1].cash == g.players[1].cash + 1
    p = g.players[0].copy()
    for f in dataclasses.fields(type(p)):
        assert getattr(p, f.name) == getattr(g.players[0], f.name), f.name
    # the jail cards' list is shared by copies: the engine replaces it, never changes it
    assert p.jail_cards is g.players[0].jail_cards
