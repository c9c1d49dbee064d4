"""Short and timed games, ending and counting, and the edition rule options of RULES.md."""

from __future__ import annotations

import pytest
from rules_helpers import arrange, ok, refused, start, transfers

from companion.game.applying import apply_command


def test_short_game_deals_two_deeds_paid_at_price_and_hotel_after_three() -> None:
    g = start(("Ann", "Bo", "Cy"), variant="short")
    for i, p in enumerate(g.players):
        owned = [s for s in range(40) if g.owner[s] == i]
        assert len(owned) == 2
        assert p.cash == 1500 - sum(g.edition.squares[s].price for s in owned)
    assert g.options.houses_before_hotel == 3 and g.options.end_after_bankruptcies == 2


def test_explicit_options_override_the_variant() -> None:
    g = start(variant="short", deal_deeds=0)
    assert all(o == -1 for o in g.owner) and g.options.houses_before_hotel == 3


def test_unknown_variant_is_refused() -> None:
    r = apply_command(None, {"do": "new_game", "edition": "classic-eur", "players": ["A", "B"],
                             "options": {"variant": "blitz"}})
    assert getattr(r, "code", None) is not None and r.code.value == "bad_option"  # type: ignore


def test_short_game_ends_at_second_bankruptcy_with_standings() -> None:
    g = arrange(start(("Ann", "Bo", "Cy"), variant="short", deal_deeds=0,
                      standings_mortgaged="half"),
                owners={37: 1, 39: 1, 6: 0, 8: 0}, levels={37: 4, 39: 4}, mortgaged=[8],
                position={0: 36, 2: 36}, cash={0: 100, 2: 50})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "bankrupt"})
    assert g.winner < 0 and g.players[0].bankrupt and g.current == 1
    assert g.owner[6] == 1 and g.owner[8] == 1  # handed to the creditor
    g, _ = ok(g, {"do": "decline", "by": "Bo"})  # keeps Courcelles mortgaged
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    g = arrange(g, position={2: 36})
    g, _ = ok(g, *([{"do": "buy"}] if g.top else []), {"do": "end_turn"})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "bankrupt"})
    assert g.winner == 1 and g.standings[0]["name"] == "Bo"
    bo = g.standings[0]
    assert bo["total"] == bo["cash"] + bo["deeds"] + bo["mortgaged"] + bo["buildings"]
    assert bo["mortgaged"] == 50  # Courcelles (100) mortgaged counts at half
    assert bo["buildings"] == 2 * 4 * 200  # two hotels at cost incl. their 3 houses each
    refused(g, {"do": "roll"}, "game_over")


@pytest.mark.parametrize(("rule", "expected"), [("half", 50), ("price", 100)])
def test_counting_rule_for_mortgaged_deeds(rule: str, expected: int) -> None:
    g = arrange(start(standings_mortgaged=rule), owners={8: 0}, mortgaged=[8])
    g, ev = ok(g, {"do": "end_game"})
    ann = next(r for r in g.standings if r["name"] == "Ann")
    assert ann["mortgaged"] == expected and g.winner == 0
    assert any(e["kind"] == "game_ended" and e["reason"] == "agreement" for e in ev)


def test_timed_game_end_by_time_ranks_by_wealth() -> None:
    g = start(("Ann", "Bo"), variant="timed")
    assert g.options.time_limit_minutes == 90 and g.options.deal_deeds == 2
    g, ev = ok(g, {"do": "end_game", "reason": "time"})
    totals = [r["total"] for r in g.standings]
    assert totals == sorted(totals, reverse=True) and g.winner >= 0


def test_polish_bankrupt_at_once_when_bail_cannot_be_paid() -> None:
    g = arrange(start(("Ann", "Bo", "Cy"), edition="pl"), jail=[0], owners={6: 0},
                cash={0: 10})
    g.players[0].jail_turns = 2
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert g.players[0].bankrupt and g.top.kind == "auction"  # the bank takes the deeds
    assert any(e["kind"] == "bankrupt" for e in ev)


def test_russian_creditor_keeps_mortgage_but_buyer_redeems_at_once() -> None:
    g = arrange(start(edition="ru-monopolist"), owners={39: 0, 8: 0}, mortgaged=[39])
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [39]}})
    assert not g.mortgaged[39] and ("Bo", None, 220, "mortgage_lift") in transfers(ev)
    g = arrange(start(edition="ru-monopolist"), owners={37: 1, 39: 1, 6: 0}, mortgaged=[6],
                levels={37: 5, 39: 5}, position={0: 36}, cash={0: 0})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "bankrupt"})
    assert g.mortgaged[6] and g.top.kind == "lift_mortgages"


def test_mortgage_strips_only_the_lot_option() -> None:
    refused(arrange(start(mortgage_strips_only_lot=False), owners={6: 0, 8: 0, 9: 0},
                    levels={8: 1, 9: 1}), {"do": "mortgage", "square": 6}, "has_buildings")
    g = arrange(start(mortgage_strips_only_lot=True), owners={6: 0, 8: 0, 9: 0},
                levels={8: 1, 9: 1})
    g, _ = ok(g, {"do": "mortgage", "square": 6})
    assert g.mortgaged[6] and g.level[8] == 1
    refused(g, {"do": "build", "square": 8}, "group_mortgaged")
    g2 = arrange(start(mortgage_strips_only_lot=True), owners={6: 0, 8: 0, 9: 0},
                 levels={6: 2, 8: 2, 9: 2})
    refused(g2, {"do": "mortgage", "square": 6}, "has_buildings")


def test_utility_rent_fresh_roll_option() -> None:
    g = arrange(start(utility_rent_fresh_roll=True), owners={12: 1}, position={0: 9})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    assert g.top.kind == "roll_for_rent"
    g, ev = ok(g, {"do": "roll", "dice": [6, 5]})
    assert ("Ann", "Bo", 44, "rent") in transfers(ev)


def test_rent_must_be_claimed_before_the_next_player_rolls() -> None:
    g = arrange(start(rent_must_be_claimed=True, rent_claim_turns=1), owners={6: 1, 8: 1},
                position={0: 3, 2: 5})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert not transfers(ev) and len(g.claims) == 1
    refused(g, {"do": "claim_rent", "by": "Cy"}, "not_now")
    g2, ev = ok(g, {"do": "claim_rent", "by": "Bo"})
    assert ("Ann", "Bo", 6, "rent") in transfers(ev) and not g2.claims
    g3, ev = ok(g, {"do": "end_turn"}, {"do": "roll", "dice": [1, 2]})  # Bo rolls: forfeited
    assert any(e["kind"] == "rent_forfeited" for e in ev) and not g3.claims
    refused(g3, {"do": "claim_rent", "by": "Bo"}, "not_now")


def test_classic_claim_window_lasts_until_the_second_player_after_rolls() -> None:
    g = arrange(start(rent_must_be_claimed=True, rent_claim_turns=2), owners={6: 2, 23: 0},
                position={0: 3, 1: 27, 2: 20})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})  # Bo, the next player: to jail, still owed
    assert len(g.claims) == 1 and not any(e["kind"] == "rent_forfeited" for e in ev)
    g2, ev = ok(g, {"do": "claim_rent", "by": "Cy"})
    assert ("Ann", "Cy", 6, "rent") in transfers(ev)
    g3, ev = ok(g, {"do": "end_turn"}, {"do": "roll", "dice": [1, 2]})  # Cy herself rolls
    assert [e["square"] for e in ev if e["kind"] == "rent_forfeited"] == [6]
    assert [c[2] for c in g3.claims] == [23]  # her own landing on Ann's lot is a new claim


def test_jail_fine_only_before_the_first_or_second_roll_when_the_edition_says_so() -> None:
    g = arrange(start(jail_fine_before_rolls=2), jail=[0])
    g.players[0].jail_turns = 1
    ok(g, {"do": "pay_fine"})
    g.players[0].jail_turns = 2
    refused(g, {"do": "pay_fine"}, "not_now")
    ok(g, {"do": "use_card"} if g.players[0].jail_cards else {"do": "roll", "dice": [1, 2]})


def test_swiss_french_hotels_of_a_group_go_back_together() -> None:
    g = arrange(start(sell_group_hotels_together=True), owners={6: 0, 8: 0, 9: 0},
                levels={6: 5, 8: 5, 9: 5})
    g, ev = ok(g, {"do": "sell_building", "square": 8})
    assert [g.level[s] for s in (6, 8, 9)] == [4, 4, 4] and g.bank_hotels == 12
    assert (None, "Ann", 3 * 25, "building_sold") in transfers(ev)
    assert g.bank_houses == 32 - 12
    g = arrange(start(), owners={6: 0, 8: 0, 9: 0}, levels={6: 5, 8: 5, 9: 5})
    g, _ = ok(g, {"do": "sell_building", "square": 8})  # elsewhere one at a time
    assert [g.level[s] for s in (6, 8, 9)] == [5, 4, 5]


def test_engine_messages_state_plain_amounts_and_params_carry_them() -> None:
    # money as people read it ("Fr. 4'000.–") is the words layer's; the engine's English
    # message states the numbers, and the params hold them for that layer
    g = arrange(start(edition="ch"), cash={1: 12000})
    r = refused(g, {"do": "pay", "from": "Bo", "to": "Ann", "amount": 15000},
                "insufficient_funds")
    assert r.message == "Bo has only 12000"
    assert r.params["needed"] == 15000 and r.params["cash"] == 12000
    assert "Fr." not in r.message and "'" not in r.message
