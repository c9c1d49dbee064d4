"""Houses and hotels: complete groups, even building and selling, the bank's stock."""

from __future__ import annotations

from rules_helpers import arrange, ok, refused, start, transfers

BROWN = (1, 3)
LIGHT_BLUE = (6, 8, 9)


def owning(*squares: int, **arr: object) -> object:
    return arrange(start(), owners={s: 0 for s in squares}, **arr)  # type: ignore[arg-type]


def test_build_needs_the_whole_group() -> None:
    refused(owning(1), {"do": "build", "square": 1}, "no_monopoly")
    refused(owning(5), {"do": "build", "square": 5}, "not_ownable")
    refused(owning(*BROWN), {"do": "build", "by": "Bo", "square": 1}, "not_owner")


def test_build_evenly_and_pay_house_cost() -> None:
    g = owning(*LIGHT_BLUE)
    g, ev = ok(g, {"do": "build", "square": 6})
    assert g.level[6] == 1 and ("Ann", None, 50, "building") in transfers(ev)
    refused(g, {"do": "build", "square": 6}, "uneven")
    g, _ = ok(g, {"do": "build", "square": 8}, {"do": "build", "square": 9, "count": 2})
    assert (g.level[6], g.level[8], g.level[9]) == (1, 1, 2) and g.bank_houses == 28
    refused(g, {"do": "build", "square": 9}, "uneven")


def test_nothing_built_on_a_group_with_a_mortgaged_lot() -> None:
    refused(owning(*BROWN, mortgaged=[3]), {"do": "build", "square": 1}, "group_mortgaged")


def test_hotel_after_four_houses_returns_them_to_the_bank() -> None:
    g = owning(*BROWN, levels={1: 4, 3: 4})
    assert g.bank_houses == 24
    g, ev = ok(g, {"do": "build", "square": 1})
    assert g.has_hotel(1) and g.bank_houses == 28 and g.bank_hotels == 11
    assert ("Ann", None, 50, "building") in transfers(ev)
    refused(g, {"do": "build", "square": 1}, "max_buildings")


def test_housing_shortage_refuses_building() -> None:
    g = owning(*BROWN)
    g.bank_houses = 1
    refused(g, {"do": "build", "square": 1, "count": 2}, "uneven")
    g, _ = ok(g, {"do": "build", "square": 1})
    r = refused(g, {"do": "build", "square": 3}, "housing_shortage")
    assert "0 houses" in r.message
    g2 = owning(*BROWN, levels={1: 4, 3: 4})
    g2.bank_hotels = 0
    refused(g2, {"do": "build", "square": 1}, "housing_shortage")


def test_sell_evenly_at_half_price() -> None:
    g = owning(*LIGHT_BLUE, levels={6: 2, 8: 2, 9: 1})
    refused(g, {"do": "sell_building", "square": 9}, "uneven")
    g, ev = ok(g, {"do": "sell_building", "square": 6})
    assert g.level[6] == 1 and (None, "Ann", 25, "building_sold") in transfers(ev)
    refused(g, {"do": "sell_building", "square": 6, "count": 5}, "max_buildings")


def test_hotel_breaks_into_four_houses_when_the_bank_has_them() -> None:
    g = owning(*BROWN, levels={1: 5, 3: 5})
    g, ev = ok(g, {"do": "sell_building", "square": 1})
    assert g.level[1] == 4 and g.bank_hotels == 12 - 1 and g.bank_houses == 32 - 4
    assert (None, "Ann", 25, "building_sold") in transfers(ev)


def test_hotel_sold_outright_when_the_bank_lacks_houses() -> None:
    g = owning(*BROWN, levels={1: 5, 3: 5})
    g.bank_houses = 2
    refused(g, {"do": "sell_building", "square": 1}, "housing_shortage")
    g, ev = ok(g, {"do": "sell_building", "square": 1, "count": 5})
    assert g.level[1] == 0 and (None, "Ann", 125, "building_sold") in transfers(ev)


def test_short_game_hotel_after_three_houses() -> None:
    g = arrange(start(houses_before_hotel=3), owners={1: 0, 3: 0}, levels={1: 3, 3: 3})
    g, _ = ok(g, {"do": "build", "square": 1})
    assert g.has_hotel(1) and g.bank_houses == 32 - 3


def test_uneven_building_allowed_when_house_rule_off() -> None:
    g = arrange(start(even_building=False), owners={1: 0, 3: 0})
    g, _ = ok(g, {"do": "build", "square": 1, "count": 3})
    assert g.level[1] == 3


def test_building_auction_in_a_shortage() -> None:
    g = arrange(start(), owners={1: 0, 3: 0, 6: 1, 8: 1, 9: 1})
    g.bank_houses = 1
    g, _ = ok(g, {"do": "auction_building", "building": "house"})
    refused(g, {"do": "bid", "by": "Bo", "amount": 10}, "bid_too_low")  # from 50, the lowest
    assert g.top.passed == (2,)  # Cy has no group to build on: out from the start
    g, _ = ok(g, {"do": "bid", "by": "Bo", "amount": 80}, {"do": "pass", "by": "Ann"})
    assert g.top.kind == "place_building" and g.players[1].cash == 1420
    refused(g, {"do": "build", "square": 1}, "decision_pending")
    g, ev = ok(g, {"do": "build", "square": 8})
    assert g.level[8] == 1 and g.bank_houses == 0 and g.top is None
    assert not [t for t in transfers(ev) if t[3] == "building"]


def test_legal_commands_offer_a_building_auction_only_when_someone_could_place_it() -> None:
    from companion.rules import legal_commands
    from companion.rules.commands import BuildingAuctionOffer

    def offered(g: object) -> list[str]:
        return next((c.buildings for c in legal_commands(g)  # type: ignore[arg-type]
                     if isinstance(c, BuildingAuctionOffer)), [])

    assert offered(start()) == []
    assert offered(owning(*BROWN)) == ["house"]
    assert offered(owning(*BROWN, levels={1: 4, 3: 4})) == ["hotel"]
    g = owning(*BROWN, levels={1: 4, 3: 4})
    g.bank_hotels = 0
    assert offered(g) == []


def test_a_bidder_who_can_no_longer_place_the_building_is_offered_no_bid() -> None:
    """Found by the property test: legal offered a bid the engine then refused."""
    from companion.rules import legal_commands
    from companion.rules.commands import ActOffer, BidOffer, Verb

    g, _ = ok(owning(*BROWN), {"do": "auction_building", "building": "house"},
              {"do": "mortgage", "square": 1})  # mortgaging during the auction is allowed
    legal = legal_commands(g)
    assert ActOffer(Verb.PASS, "Ann") in legal
    assert not [c for c in legal if isinstance(c, BidOffer)]
    refused(g, {"do": "bid", "by": "Ann", "amount": 50}, "not_now")
