"""Turns, moving, salary, doubles, three doubles, jail."""

from __future__ import annotations

import pytest
from rules_helpers import arrange, ok, refused, start, transfers

JAIL = 10


def test_new_game_deals_start_cash_and_first_player_starts() -> None:
    g = start(("Ann", "Bo"))
    assert [p.cash for p in g.players] == [g.options.start_cash] * 2
    assert g.current == 0 and g.must_roll and g.version == 1


@pytest.mark.parametrize(
    ("players", "code"),
    [(["Ann"], "bad_players"), (["Ann", "ann"], "bad_players"), (["Ann", "bank"], "bad_players"),
     ([f"P{i}" for i in range(9)], "bad_players")],
)
def test_new_game_refuses_bad_player_lists(players: list[str], code: str) -> None:
    from companion.game.applying import apply_command

    r = apply_command(None, {"do": "new_game", "edition": "classic-eur", "players": players})
    assert getattr(r, "code", None) is not None and r.code.value == code  # type: ignore[union-attr]


def test_roll_moves_by_the_dice_and_ends_turn_only_after() -> None:
    g = start()
    refused(g, {"do": "end_turn"}, "must_roll")
    g, ev = ok(g, {"do": "roll", "dice": [2, 2]})  # doubles: community chest at 4? no: tax
    assert g.players[0].position == 4
    assert ("Ann", None, 200, "tax") in transfers(ev)
    refused(g, {"do": "end_turn"}, "must_roll")
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    assert g.players[0].position == 7
    assert g.top is not None and g.top.kind == "draw"
    refused(g, {"do": "end_turn"}, "decision_pending")


def test_salary_on_passing_go_and_on_landing_on_go() -> None:
    g = arrange(start(), position={0: 36})
    g, ev = ok(g, {"do": "roll", "dice": [3, 4]})  # 36 + 7 = 43 -> 3
    assert g.players[0].position == 3
    assert (None, "Ann", 200, "salary") in transfers(ev)
    g = arrange(start(), position={0: 35})
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]})  # lands on GO exactly
    assert g.players[0].position == 0
    assert [t for t in transfers(ev) if t[3] == "salary"] == [(None, "Ann", 200, "salary")]


def test_double_salary_on_go_house_rule() -> None:
    g = arrange(start(double_salary_on_go=True), position={0: 35})
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]})
    assert (None, "Ann", 400, "salary") in transfers(ev)


def test_three_doubles_go_to_jail_without_moving_or_salary() -> None:
    g = arrange(start(), position={0: 20}, owners={22: 0, 24: 0, 26: 0})
    # 20 -> 22 (chance) would draw: use squares that do nothing: own them all.
    g = arrange(g, owners={21: 0, 23: 0, 25: 0, 27: 0})
    g, _ = ok(g, {"do": "roll", "dice": [1, 1]})  # 22 chance -> draw
    g, _ = ok(g, {"do": "draw", "card": "chance-dividend"})
    g, _ = ok(g, {"do": "roll", "dice": [2, 2]})  # 26, own
    before = g.players[0].cash
    g, ev = ok(g, {"do": "roll", "dice": [3, 3]})  # third doubles: jail, no move
    p = g.players[0]
    assert p.in_jail and p.position == JAIL and p.cash == before
    assert not any(e["kind"] == "moved" and e["to"] != JAIL for e in ev)
    refused(g, {"do": "roll", "dice": [1, 2]}, "already_rolled")
    g, _ = ok(g, {"do": "end_turn"})
    assert g.current == 1


def test_go_to_jail_square_sends_to_jail_without_salary_and_no_reroll_on_doubles() -> None:
    g = arrange(start(), position={0: 26})
    g, ev = ok(g, {"do": "roll", "dice": [2, 2]})
    assert g.players[0].in_jail and g.players[0].position == JAIL
    assert not any(t[3] == "salary" for t in transfers(ev))
    g, _ = ok(g, {"do": "end_turn"})


def test_just_visiting_is_no_jail() -> None:
    g = arrange(start(), position={0: 6})
    g, _ = ok(g, {"do": "roll", "dice": [1, 3]})
    assert g.players[0].position == JAIL and not g.players[0].in_jail


def test_jail_pay_fine_then_roll_normally() -> None:
    g = arrange(start(), jail=[0])
    g, ev = ok(g, {"do": "pay_fine"})
    assert ("Ann", None, 50, "jail_fine") in transfers(ev)
    assert not g.players[0].in_jail
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    assert g.players[0].position == 13


def test_jail_fine_only_before_rolling() -> None:
    g = arrange(start(), jail=[0])
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    refused(g, {"do": "pay_fine"}, "not_now")


def test_jail_doubles_leave_and_move_without_reroll() -> None:
    g = arrange(start(), jail=[0], owners={16: 1})
    g, _ = ok(g, {"do": "roll", "dice": [3, 3]})
    assert not g.players[0].in_jail and g.players[0].position == 16
    refused(g, {"do": "roll", "dice": [1, 2]}, "already_rolled")
    ok(g, {"do": "end_turn"})


def test_jail_three_failed_rolls_pay_fine_and_move() -> None:
    g = arrange(start(("Ann", "Bo")), jail=[0], owners={15: 1, 17: 1})
    for turn in range(2):
        g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
        assert g.players[0].in_jail and g.players[0].jail_turns == turn + 1
        g, _ = ok(g, {"do": "end_turn"}, {"do": "roll", "dice": [1, 3]}, {"do": "end_turn"})
        g = arrange(g, position={1: 0})
    g, ev = ok(g, {"do": "roll", "dice": [1, 4]})
    assert ("Ann", None, 50, "jail_fine") in transfers(ev)
    assert not g.players[0].in_jail and g.players[0].position == 15


def test_jail_third_failed_roll_without_cash_is_a_debt_then_moves() -> None:
    g = arrange(start(("Ann", "Bo")), jail=[0], owners={15: 1, 1: 0})
    g.players[0].jail_turns = 2
    g = arrange(g, cash={0: 20})
    g, _ = ok(g, {"do": "roll", "dice": [1, 4]})
    assert g.top is not None and g.top.kind == "debt" and g.top.amount == 50
    assert g.players[0].position == JAIL
    g, ev = ok(g, {"do": "mortgage", "square": 1})  # +30 -> 50: the fine is paid, then moves
    assert ("Ann", None, 50, "jail_fine") in transfers(ev)
    assert g.players[0].position == 15 and g.players[0].cash == 0
    assert g.top is not None and g.top.kind == "debt" and g.top.reason == "rent"


def test_get_out_of_jail_card_kept_used_and_returned_under_its_deck() -> None:
    g = arrange(start(), position={0: 5}, owners={3: 0, 6: 0})
    g, _ = ok(g, {"do": "roll", "dice": [1, 1]}, {"do": "draw", "card": "chance-jail-free"})
    assert g.players[0].jail_cards == ["chance-jail-free"]
    assert "chance-jail-free" not in g.decks["chance"]
    g = arrange(g, jail=[0])
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"})  # fails, still in jail
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"})
    assert g.current == 0
    g, _ = ok(g, {"do": "use_card"})
    assert not g.players[0].in_jail and g.players[0].jail_cards == []
    assert g.decks["chance"][-1] == "chance-jail-free"


def test_device_dice_are_seeded_and_recorded() -> None:
    a, ev_a = ok(start(seed=5), {"do": "roll"})
    b, ev_b = ok(start(seed=5), {"do": "roll"})
    c, _ = ok(start(seed=6), {"do": "roll"})
    assert ev_a == ev_b and a.dice == b.dice
    assert all(1 <= d <= 6 for d in a.dice or ())
    assert c.rng != a.rng


@pytest.mark.parametrize("dice", [[0, 3], [7, 1], [3], [1, 2, 3]])
def test_bad_dice_refused(dice: list[int]) -> None:
    refused(start(), {"do": "roll", "dice": dice}, "bad_dice")


def test_other_players_cannot_roll_or_end_the_turn() -> None:
    g = start()
    refused(g, {"do": "roll", "by": "Bo", "dice": [1, 2]}, "not_your_turn")
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    refused(g, {"do": "end_turn", "by": "Bo"}, "not_your_turn")


def test_refusals_carry_their_facts_for_translation() -> None:
    g, _ = ok(arrange(start(), position={0: 36}, cash={0: 100}), {"do": "roll", "dice": [1, 2]})
    r = refused(g, {"do": "buy"}, "insufficient_funds")
    assert r.params == {"current": "Ann", "pending": "buy", "player": "Ann", "purpose": "buy",
                        "square": 39, "needed": 400, "cash": 100}
    r = refused(start(), {"do": "end_turn"}, "must_roll")
    assert r.params["player"] == "Ann" and r.params["again"] is False
