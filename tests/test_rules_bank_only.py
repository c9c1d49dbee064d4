"""Bank-only play: the table moves the tokens and says where they landed."""

from __future__ import annotations

from rules_helpers import arrange, ok, refused, start, transfers


def test_land_on_an_owned_lot_pays_rent_and_turn_ends_without_a_roll() -> None:
    g = arrange(start(bank_only=True), owners={6: 1})
    g, ev = ok(g, {"do": "land", "by": "Ann", "square": "rue-de-vaugirard"})
    assert ("Ann", "Bo", 6, "rent") in transfers(ev) and g.players[0].position == 6
    g, _ = ok(g, {"do": "end_turn"})
    assert g.current == 1


def test_land_via_go_pays_salary_and_offers_the_purchase() -> None:
    g = start(bank_only=True)
    refused(g, {"do": "land", "by": "Bo", "square": 3, "via_go": True}, "not_your_turn")
    g, ev = ok(g, {"do": "land", "by": "Ann", "square": 3, "via_go": True})
    assert (None, "Ann", 200, "salary") in transfers(ev)
    assert g.top.kind == "buy" and g.top.player == 0
    refused(g, {"do": "land", "by": "Ann", "square": 5, "via_go": True}, "decision_pending")
    g, _ = ok(g, {"do": "buy", "by": "Ann"})
    assert g.owner[3] == 0


def test_pass_go_pays_salary() -> None:
    g = start(bank_only=True)
    refused(g, {"do": "pass_go", "by": "Cy"}, "not_your_turn")  # a player crediting himself
    g, ev = ok(g, {"do": "pass_go", "by": "Ann"})
    assert transfers(ev) == [(None, "Ann", 200, "salary")]


def test_utility_in_bank_only_play_asks_for_the_dice_unless_given() -> None:
    g = arrange(start(bank_only=True), owners={12: 1, 28: 1})
    g2, _ = ok(g, {"do": "land", "square": 12})
    assert g2.top.kind == "roll_for_rent"
    g2, ev = ok(g2, {"do": "roll", "dice": [2, 3]})
    assert ("Ann", "Bo", 50, "rent") in transfers(ev)
    g3, ev = ok(g, {"do": "land", "square": 28, "dice": [6, 6]})
    assert ("Ann", "Bo", 120, "rent") in transfers(ev)


def test_land_on_go_to_jail_and_on_a_card_square() -> None:
    g, ev = ok(start(bank_only=True), {"do": "land", "square": 30})
    assert g.players[0].in_jail
    g, _ = ok(start(bank_only=True), {"do": "land", "square": 7})
    assert g.top.kind == "draw"


def test_land_refused_on_unknown_square_and_while_deciding() -> None:
    refused(start(bank_only=True), {"do": "land", "square": 40}, "unknown_square")
    refused(start(bank_only=True), {"do": "land", "square": "nowhere"}, "unknown_square")
    g, _ = ok(start(bank_only=True), {"do": "land", "square": 6})
    refused(g, {"do": "land", "square": 8}, "decision_pending")


def test_normal_tables_must_roll_before_ending_a_turn() -> None:
    refused(start(), {"do": "end_turn"}, "must_roll")
