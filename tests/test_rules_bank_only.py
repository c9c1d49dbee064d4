"""Bank-only play: the table moves the tokens and says where they landed; every move told
is checked against the board (issue 26: one square per roll, the salary once per move and
only when the move passed or reached GO). Where the device rolls, it moves the tokens and
pays GO itself: land and pass_go are the banker's corrections there."""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import arrange, ok, refused, start, transfers

from companion.rules import legal_commands


def offers(g: Any, verb: str, corrections: bool = False) -> list[dict[str, Any]]:
    """The offers of a verb: a player's, or the banker's corrections."""
    return [o for o in (x.to_json() for x in legal_commands(g))
            if o["do"] == verb and bool(o.get("correction")) is corrections]


def salaries(ev: list[dict[str, Any]]) -> int:
    return sum(1 for t in transfers(ev) if t[3] == "salary")


def test_land_on_an_owned_lot_pays_rent_and_turn_ends_without_a_roll() -> None:
    g = arrange(start(bank_only=True), owners={6: 1})
    g, ev = ok(g, {"do": "land", "by": "Ann", "square": "rue-de-vaugirard"})
    assert ("Ann", "Bo", 6, "rent") in transfers(ev) and g.players[0].position == 6
    g, _ = ok(g, {"do": "end_turn"})
    assert g.current == 1


def test_one_square_per_roll_and_doubles_give_another() -> None:
    mine = {6: 0, 9: 0, 11: 0}  # Ann's own lots: landing there asks nothing
    g = arrange(start(bank_only=True), owners=mine)
    g, _ = ok(g, {"do": "land", "square": 6})
    refused(g, {"do": "land", "square": 9}, "already_moved")  # no second move on one roll
    refused(g, {"do": "pass_go"}, "already_moved")
    refused(g, {"do": "roll"}, "already_rolled")  # nor the device's dice on top
    assert not offers(g, "land") and not offers(g, "pass_go")
    g = arrange(start(bank_only=True), owners=mine)
    g, _ = ok(g, {"do": "land", "square": 6, "dice": [3, 3]})  # doubles: another move
    g, _ = ok(g, {"do": "land", "square": 9, "dice": [1, 2]})
    refused(g, {"do": "land", "square": 11}, "already_moved")


def test_third_doubles_told_go_to_jail_not_to_the_square() -> None:
    g = arrange(start(bank_only=True), owners={8: 0, 12: 0})
    g, _ = ok(g, {"do": "land", "square": 4, "dice": [2, 2]},
              {"do": "land", "square": 8, "dice": [2, 2]})
    g, ev = ok(g, {"do": "land", "square": 12, "dice": [2, 2]})
    assert g.players[0].in_jail and g.players[0].position == 10
    assert any(e["kind"] == "three_doubles" for e in ev)


def test_land_via_go_only_where_the_move_passed_go() -> None:
    g = start(bank_only=True)  # Ann stands on GO: no move of one roll passes it
    refused(g, {"do": "land", "by": "Bo", "square": 3, "via_go": True}, "not_your_turn")
    r = refused(g, {"do": "land", "by": "Ann", "square": 3, "via_go": True}, "not_past_go")
    assert r.params["start"] == 0 and r.params["square"] == 3
    g = arrange(start(bank_only=True), position={0: 36})
    g, ev = ok(g, {"do": "land", "by": "Ann", "square": 3, "via_go": True})
    assert (None, "Ann", 200, "salary") in transfers(ev) and salaries(ev) == 1
    assert g.top.kind == "buy" and g.top.player == 0
    refused(g, {"do": "land", "by": "Ann", "square": 5, "via_go": True}, "decision_pending")
    g, _ = ok(g, {"do": "buy", "by": "Ann"})
    assert g.owner[3] == 0


def test_a_square_told_past_go_leaves_the_salary_due_once() -> None:
    g = arrange(start(bank_only=True), position={0: 38})
    g, ev = ok(g, {"do": "land", "square": 5})  # round the board, told without the salary
    assert salaries(ev) == 0 and g.top.kind == "buy"
    g, _ = ok(g, {"do": "decline"}, {"do": "close_auction"})
    g, ev = ok(g, {"do": "pass_go"})  # PASS GO after the square: the salary due, once
    assert salaries(ev) == 1
    refused(g, {"do": "pass_go"}, "already_moved")
    g = arrange(start(bank_only=True), position={0: 5}, owners={11: 0})
    g, _ = ok(g, {"do": "land", "square": 11})
    refused(g, {"do": "pass_go"}, "already_moved")  # that move did not pass GO


def test_no_salary_in_jail_nor_a_jailed_token_moved_by_hand() -> None:
    g = arrange(start(bank_only=True), jail=[0])
    refused(g, {"do": "pass_go"}, "in_jail")
    refused(g, {"do": "land", "square": 15}, "in_jail")
    assert not offers(g, "pass_go") and not offers(g, "land")
    g, _ = ok(g, {"do": "roll", "dice": [4, 4]})  # doubles: out, the device moves it
    assert g.players[0].position == 18 and not g.players[0].in_jail


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


@pytest.mark.parametrize("command", [
    {"do": "pass_go"}, {"do": "land", "square": 5}, {"do": "land", "square": 5, "via_go": True},
])
def test_where_the_device_rolls_moves_are_not_a_players_to_tell(command: Any) -> None:
    g = start()
    r = refused(g, command, "device_moves")
    assert "banker" in r.message
    assert not offers(g, command["do"]) and offers(g, command["do"], corrections=True)


def test_the_bankers_correction_is_offered_and_journaled_as_such() -> None:
    g = start()
    land = next(o for o in offers(g, "land", corrections=True))
    assert land["correction"] is True and land["players"] == ["Ann", "Bo", "Cy"]
    assert "by" not in land  # named for nobody: the session lets only the banker send it
    g, ev = ok(g, {"do": "pass_go", "by": "Bo", "correction": True})
    assert transfers(ev) == [(None, "Bo", 200, "salary")]
    g, ev = ok(g, {"do": "land", "by": "Cy", "square": 5, "via_go": True, "correction": True})
    assert (None, "Cy", 200, "salary") in transfers(ev) and g.players[2].position == 5
    refused(g, {"do": "pass_go", "by": "Ann", "correction": True}, "decision_pending")
    refused(start(), {"do": "pass_go", "correction": "yes"}, "bad_command")
