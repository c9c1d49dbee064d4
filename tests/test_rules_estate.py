"""Buying, auctions and rents: lots, complete groups, houses, hotels, stations, utilities."""

from __future__ import annotations

import pytest
from rules_helpers import arrange, edition, ok, refused, start, transfers

ED = edition()
LOTS = [s for s in ED.squares if s.kind == "lot"]


def landed_on(square: int, **arr: object) -> object:
    """Ann (player 0) about to land on `square` by a roll of 1+2 (no doubles)."""
    g = arrange(start(), position={0: (square - 3) % 40}, **arr)  # type: ignore[arg-type]
    return ok(g, {"do": "roll", "dice": [1, 2]})


def test_buy_at_printed_price() -> None:
    g, _ = landed_on(6)
    assert g.top.kind == "buy" and ED.squares[g.top.square].price == 100
    g, ev = ok(g, {"do": "buy"})
    assert g.owner[6] == 0 and g.players[0].cash == 1400
    assert ("Ann", None, 100, "purchase") in transfers(ev)


def test_buy_refused_when_cash_short_with_amounts_in_the_message() -> None:
    g, _ = landed_on(39, cash={0: 250})
    r = refused(g, {"do": "buy"}, "insufficient_funds")
    assert "Rue de la Paix" in r.message and "400 needed, 250 in hand" in r.message


def test_decline_opens_an_auction_everyone_may_bid_and_highest_wins() -> None:
    g, _ = landed_on(6)
    g, _ = ok(g, {"do": "decline"})
    assert g.top.kind == "auction" and g.top.square == 6
    g, _ = ok(g, {"do": "bid", "by": "Ann", "amount": 5})  # the decliner may bid, any opening
    refused(g, {"do": "bid", "by": "Bo", "amount": 5}, "bid_too_low")
    refused(g, {"do": "bid", "by": "Bo", "amount": 5000}, "insufficient_funds")
    g, _ = ok(g, {"do": "bid", "by": "Bo", "amount": 60}, {"do": "pass", "by": "Cy"})
    refused(g, {"do": "bid", "by": "Cy", "amount": 70}, "already_passed")
    refused(g, {"do": "pass", "by": "Bo"}, "not_now")  # the highest bidder cannot pass
    g, ev = ok(g, {"do": "pass", "by": "Ann"})
    assert g.top is None and g.owner[6] == 1
    assert ("Bo", None, 60, "auction") in transfers(ev)


def test_auction_with_no_bids_leaves_it_with_the_bank() -> None:
    g, _ = landed_on(6)
    g, _ = ok(g, {"do": "decline"}, {"do": "pass", "by": "Ann"}, {"do": "pass", "by": "Bo"},
              {"do": "pass", "by": "Cy"})
    assert g.top is None and g.owner[6] == -1


def test_banker_closes_an_auction() -> None:
    g, _ = landed_on(6)
    g, _ = ok(g, {"do": "decline"}, {"do": "bid", "by": "Cy", "amount": 40},
              {"do": "close_auction"})
    assert g.owner[6] == 2 and g.players[2].cash == 1460


def test_a_standing_bid_stays_covered_until_the_auction_ends() -> None:
    """Found by the property test: a bidder paid money away and won with a negative cash."""
    g, _ = landed_on(6)
    g, _ = ok(g, {"do": "decline"}, {"do": "bid", "by": "Cy", "amount": 1450})
    r = refused(g, {"do": "pay", "from": "Cy", "to": "Ann", "amount": 51}, "insufficient_funds")
    assert "bid" in r.message and r.params["cash"] == 50
    g, _ = ok(g, {"do": "pay", "from": "Cy", "to": "Ann", "amount": 50},
              {"do": "pay", "from": "Bo", "to": "Ann", "amount": 500}, {"do": "close_auction"})
    assert g.owner[6] == 2 and g.players[2].cash == 0


def test_auctions_off_house_rule_keeps_declined_property_with_bank() -> None:
    g = arrange(start(auctions=False), position={0: 3})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "decline"})
    assert g.top is None and g.owner[6] == -1


@pytest.mark.parametrize("sq", LOTS, ids=lambda s: s.id)
def test_lot_rent_base_and_double_on_complete_group(sq: object) -> None:
    group = ED.groups[sq.group]  # type: ignore[attr-defined]
    idx = sq.index  # type: ignore[attr-defined]
    g, ev = landed_on(idx, owners={idx: 1})
    assert ("Ann", "Bo", sq.rent[0], "rent") in transfers(ev)  # type: ignore[attr-defined]
    g, ev = landed_on(idx, owners={s: 1 for s in group})
    assert ("Ann", "Bo", 2 * sq.rent[0], "rent") in transfers(ev)  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("sq", LOTS[::3], ids=lambda s: s.id)
def test_lot_rent_with_houses_and_hotel(sq: object, level: int) -> None:
    group = ED.groups[sq.group]  # type: ignore[attr-defined]
    idx = sq.index  # type: ignore[attr-defined]
    g, ev = landed_on(idx, owners={s: 1 for s in group}, levels={s: level for s in group},
                      cash={0: 5000})
    assert ("Ann", "Bo", sq.rent[level], "rent") in transfers(ev)  # type: ignore[attr-defined]


def test_mortgaged_lot_pays_nothing_and_others_of_group_still_double() -> None:
    g, ev = landed_on(37, owners={37: 1, 39: 1}, mortgaged=[37])
    assert not [t for t in transfers(ev) if t[3] == "rent"]
    g, ev = landed_on(39, owners={37: 1, 39: 1}, mortgaged=[37])
    assert ("Ann", "Bo", 100, "rent") in transfers(ev)


def test_doubling_lost_with_mortgaged_lot_when_the_option_says_so() -> None:
    g = arrange(start(double_rent_with_mortgaged_lot=False), position={0: 36},
                owners={37: 1, 39: 1}, mortgaged=[37])
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert ("Ann", "Bo", 50, "rent") in transfers(ev)


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_station_rent_by_number_owned(count: int) -> None:
    owned = [15, 5, 25, 35][:count]
    g, ev = landed_on(15, owners={s: 1 for s in owned})
    assert ("Ann", "Bo", [25, 50, 100, 200][count - 1], "rent") in transfers(ev)


@pytest.mark.parametrize("both", [False, True])
def test_utility_rent_is_dice_times_4_or_10(both: bool) -> None:
    owners = {12: 1, 28: 1} if both else {12: 1}
    g, ev = landed_on(12, owners=owners)
    assert ("Ann", "Bo", (10 if both else 4) * 3, "rent") in transfers(ev)


def test_owner_in_jail_still_collects_unless_house_rule() -> None:
    g, ev = landed_on(6, owners={6: 1}, jail=[1])
    assert ("Ann", "Bo", 6, "rent") in transfers(ev)
    g = arrange(start(no_rent_in_jail=True), position={0: 3}, owners={6: 1}, jail=[1])
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert not transfers(ev)


def test_taxes_go_to_the_bank_or_the_pot() -> None:
    g, ev = landed_on(4)
    assert ("Ann", None, 200, "tax") in transfers(ev)
    g = arrange(start(free_parking_pot=True, free_parking_pot_start=100), position={0: 1})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert ("Ann", "pot", 200, "tax") in transfers(ev) and g.pot == 300
    g = arrange(g, position={0: 17})
    g.must_roll = True
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})  # 17 -> 20 free parking
    assert ("pot", "Ann", 300, "free_parking") in transfers(ev) and g.pot == 0


def test_rent_is_a_debt_when_cash_is_short_and_paid_once_raised() -> None:
    g, ev = landed_on(39, owners={39: 1, 37: 1, 1: 0, 3: 0}, levels={39: 3, 37: 3},
                      cash={0: 1370})
    assert g.top.kind == "debt" and g.top.amount == 1400 and g.players[0].cash == 1370
    refused(g, {"do": "end_turn"}, "decision_pending")
    refused(g, {"do": "bankrupt"}, "can_still_pay")
    g, ev = ok(g, {"do": "mortgage", "square": 1})
    assert g.top is None and g.players[0].cash == 0
    assert ("Ann", "Bo", 1400, "rent") in transfers(ev)
    ok(g, {"do": "end_turn"})
