"""The Mega edition: its board and material, the speed die, bus tickets, the new squares,
building with all lots but one, skyscrapers, train depots, and rebalancing a group.

Squares by their Mega index (13 a side): GO 0, brown 1 3 4, station 6, light blue 7 8 11 12,
chance 9 28 46, jail 13, Auction 14, pink 15 16 18 19, station 20, Free Parking 26,
Bus ticket 32, station 33, Go to jail 39, Birthday gift 47, dark blue 48 49 51.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from rules_helpers import MEGA, arrange, edition, ok, refused, start, transfers

from companion.rules import Accepted, GameState, apply, legal_commands, public_state, snapshot
from companion.rules.commands import GiftOffer, SquaresOffer, Verb
from companion.rules.edition import EditionError, SquareKind, parse_edition

BROWN = (1, 3, 4)
LIGHT_BLUE = (7, 8, 11, 12)
PINK = (15, 16, 18, 19)
STATIONS = (6, 20, 33, 45)
JAIL, AUCTION, BUS_SQUARE, BIRTHDAY = 13, 14, 32, 47


def mega(**options: Any) -> GameState:
    """A fresh Mega game for Ann, Bo and Cy; Ann to play."""
    return start(edition=MEGA, **options)


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


# --- the edition's data --------------------------------------------------------------------


def test_board_is_the_classic_one_with_a_lot_more_per_group_and_three_new_squares() -> None:
    ed = edition(MEGA)
    classic = edition()
    assert len(ed.squares) == 52
    count = Counter(s.kind for s in ed.squares)
    assert count[SquareKind.LOT] == 30 and count[SquareKind.STATION] == 4
    assert count[SquareKind.UTILITY] == 3
    assert count[SquareKind.AUCTION] == count[SquareKind.BIRTHDAY_GIFT] == 1
    assert count[SquareKind.BUS_TICKET] == 1
    lot_groups = {g: m for g, m in ed.groups.items() if ed.squares[m[0]].kind is SquareKind.LOT}
    for group, members in lot_groups.items():
        assert len(members) == len(classic.groups[group]) + 1, group
    corners = [s.index for s in ed.squares if s.kind in (
        SquareKind.GO, SquareKind.JAIL, SquareKind.FREE_PARKING, SquareKind.GO_TO_JAIL)]
    assert corners == [0, 13, 26, 39]
    classic_ids = {s.id for s in classic.squares}
    assert classic_ids <= set(ed.square_ids)


def test_material_and_money_follow_the_rulebook() -> None:
    ed = edition(MEGA)
    assert ed.defaults.start_cash == 2500 == sum(v * n for v, n in ed.banknotes.items())
    assert ed.banknotes == {1000: 1, 500: 2, 100: 4, 50: 1, 20: 1, 10: 2, 5: 1, 1: 5}
    assert (ed.houses, ed.hotels, ed.skyscrapers, ed.depots) == (32, 12, 8, 4)
    assert ed.depot_cost == 100 and ed.bus_tickets == 16
    assert (ed.defaults.salary, ed.defaults.jail_fine) == (200, 50)
    assert len(ed.decks["chance"]) == len(ed.decks["community_chest"]) == 16
    assert any(c.params.get("expire_others") for c in ed.decks["bus_tickets"])
    assert {c.effect for c in ed.decks["bus_tickets"]} == {"bus_ticket"}
    assert any(c.effect == "take_bus_ticket" for c in ed.cards.values())


def test_deeds_have_seven_rents_ascending_and_half_price_mortgages() -> None:
    ed = edition(MEGA)
    for s in ed.squares:
        if s.kind is SquareKind.LOT:
            assert len(s.rent) == 7 and list(s.rent) == sorted(s.rent), s.id
            assert s.house_cost > 0
        if s.kind in (SquareKind.LOT, SquareKind.STATION, SquareKind.UTILITY):
            assert s.price > 0 and s.mortgage * 2 == s.price, s.id
    assert all(s.multipliers == (4, 10, 20) for s in ed.squares if s.kind is SquareKind.UTILITY)


def test_dutch_names_cover_every_square_card_and_deck_and_notes_are_kept() -> None:
    ed = edition(MEGA)
    nl = ed.raw["localized"]["nl"]
    assert set(nl["squares"]) == set(ed.square_ids)
    assert set(nl["cards"]) == set(ed.cards) and set(nl["decks"]) == set(ed.decks)
    assert all(v.strip() for v in nl["squares"].values())
    assert len(ed.raw["rulebook_notes"]) >= 10


def test_mega_rules_are_options_that_leave_other_editions_alone() -> None:
    mega_opts, classic_opts = edition(MEGA).defaults, edition().defaults
    assert mega_opts.speed_die and mega_opts.build_with_all_but_one
    assert (mega_opts.unbuilt_rent_all_but_one, mega_opts.unbuilt_rent_full_group) == (2, 3)
    assert not classic_opts.speed_die and not classic_opts.build_with_all_but_one
    assert (classic_opts.unbuilt_rent_all_but_one, classic_opts.unbuilt_rent_full_group) == (1, 2)
    classic_json = public_state(start())
    assert "speed_die" not in classic_json["options"]
    assert "skyscrapers" not in classic_json["bank"]
    assert "skyscraper" not in classic_json["squares"][0]
    assert public_state(mega())["options"]["speed_die"] is True


def _broken(change: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(edition(MEGA).raw))
    change(data)
    return data


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(dice={"white": 3}), "two white dice"),
    (lambda d: d.update(dice={"white": 2, "speed": "yes"}), "'speed' must be true or false"),
    (lambda d: d.update(depot_cost=0), "depot_cost"),
    (lambda d: d["decks"].pop("bus_tickets"), "'bus_tickets' deck"),
    (lambda d: d["squares"].pop(14), "4 equal sides"),
    (lambda d: d["squares"][1]["rent"].pop(), "must have 7 numbers"),
    (lambda d: d["decks"]["chance"]["cards"][0].update(effect="bus_ticket"), "only they"),
    (lambda d: d["squares"][47].pop("amount"), "'amount'"),
])
def test_edition_validation_names_the_problem(change: Any, message: str) -> None:
    with pytest.raises(EditionError, match=message):
        parse_edition(_broken(change))


# --- the speed die -------------------------------------------------------------------------


def test_numbers_on_all_three_dice_move_the_sum() -> None:
    g, ev = ok(mega(), {"do": "roll", "dice": [3, 4, 2]})
    assert g.players[0].position == 9 and not g.must_roll
    assert [e["dice"] for e in ev if e["kind"] == "rolled"] == [[3, 4, 2]]


@pytest.mark.parametrize(("dice", "code"), [
    ([3, 4], "bad_dice"), ([3, 4, 4], "bad_dice"), ([0, 4, 1], "bad_dice"),
    ([3, 7, "bus"], "bad_dice"), ([3, 4, "bus", 1], "bad_dice"), ([3, 4, "taxi"], "bad_command"),
    (["bus", 4, 1], "bad_dice"),
])
def test_speed_dice_must_be_two_white_dice_and_a_speed_face(dice: list[Any], code: str) -> None:
    refused(mega(), {"do": "roll", "dice": dice}, code)


def test_classic_editions_still_take_two_dice() -> None:
    refused(start(), {"do": "roll", "dice": [1, 2, 3]}, "bad_dice")
    refused(start(), {"do": "roll", "dice": [1, 2, "bus"]}, "bad_dice")


def test_device_rolls_three_dice_with_the_speed_faces_by_name() -> None:
    faces: Counter[Any] = Counter()
    for seed in range(150):
        _, ev = ok(mega(seed=seed), {"do": "roll"})
        dice = next(e["dice"] for e in ev if e["kind"] == "rolled")
        assert len(dice) == 3 and all(1 <= d <= 6 for d in dice[:2])
        faces[dice[2]] += 1
    assert set(faces) == {1, 2, 3, "bus", "mr_monopoly"}
    assert faces["mr_monopoly"] > faces["bus"]  # two faces of six


def test_state_json_names_the_speed_face() -> None:
    g, _ = ok(arrange(mega(), owners={3: 0}), {"do": "roll", "dice": [1, 2, "bus"]})
    assert public_state(g)["dice"] == [1, 2, "bus"]
    assert public_state(g)["turn"]["mr_monopoly"] is False


def test_doubles_count_on_the_white_dice_only() -> None:
    g = arrange(mega(), owners={7: 0})
    g2, _ = ok(g, {"do": "roll", "dice": [2, 2, 3]})
    assert g2.players[0].position == 7 and g2.must_roll and g2.doubles == 1
    g3, _ = ok(arrange(mega(), owners={4: 0}), {"do": "roll", "dice": [1, 2, 1]})
    assert g3.players[0].position == 4 and not g3.must_roll


def test_three_white_doubles_go_to_jail() -> None:
    g = arrange(mega(), owners={4: 0, 11: 0})
    g, _ = ok(g, {"do": "roll", "dice": [1, 1, 2]}, {"do": "roll", "dice": [2, 2, 3]})
    g, ev = ok(g, {"do": "roll", "dice": [3, 3, 1]})
    assert g.players[0].in_jail and "three_doubles" in kinds(ev)


@pytest.mark.parametrize("face", [1, 2, 3])
def test_a_triple_goes_to_any_square_ahead_without_a_reroll(face: int) -> None:
    g = arrange(mega(), position={0: 40})
    g, ev = ok(g, {"do": "roll", "dice": [face, face, face]})
    assert "triple" in kinds(ev) and not g.must_roll
    assert g.top is not None and g.top.kind == "choose_square"
    assert public_state(g)["pending"]["for"] == "triple"
    refused(g, {"do": "choose_square", "square": 40}, "unreachable")
    refused(g, {"do": "choose_square", "by": "Bo", "square": 3}, "not_your_turn")
    g, ev = ok(g, {"do": "choose_square", "square": 3})
    assert g.players[0].position == 3 and (None, "Ann", 200, "salary") in transfers(ev)
    assert g.top is not None and g.top.kind == "buy"
    g, _ = ok(g, {"do": "buy"})
    refused(g, {"do": "roll", "dice": [1, 2, 3]}, "already_rolled")
    ok(g, {"do": "end_turn"})


def test_a_triple_after_two_doubles_is_no_jail() -> None:
    g = arrange(mega(), owners={4: 0, 11: 0})
    g, _ = ok(g, {"do": "roll", "dice": [1, 1, 2]}, {"do": "roll", "dice": [2, 2, 3]})
    g, ev = ok(g, {"do": "roll", "dice": [2, 2, 2]})
    assert not g.players[0].in_jail and "three_doubles" not in kinds(ev)
    g, _ = ok(g, {"do": "choose_square", "square": 26})
    assert g.players[0].position == 26 and not g.must_roll
    ok(g, {"do": "end_turn"})


def test_mr_monopoly_acts_on_the_white_dice_square_then_goes_to_the_next_unowned() -> None:
    g, ev = ok(mega(), {"do": "roll", "dice": [2, 3, "mr_monopoly"]})
    assert ("Ann", None, 200, "tax") in transfers(ev)  # square 5 first
    assert "mr_monopoly" in kinds(ev) and g.players[0].position == 6
    assert g.top is not None and g.top.kind == "buy" and g.top.square == 6
    g, ev = ok(mega(), {"do": "roll", "dice": [1, 2, "mr_monopoly"]})
    assert g.players[0].position == 3 and g.top is not None and g.top.square == 3
    assert [p["kind"] for p in public_state(g)["waiting"]] == ["mr_monopoly"]
    g, ev = ok(g, {"do": "buy"})  # then on to square 4
    assert g.players[0].position == 4 and g.top is not None and g.top.square == 4


def _all_owned_by_bo(g: GameState, **more: Any) -> GameState:
    owners = {s.index: 1 for s in g.edition.squares if s.kind in (
        SquareKind.LOT, SquareKind.STATION, SquareKind.UTILITY)}
    owners.update(more.pop("owners", {}))
    return arrange(g, owners=owners, **more)


def test_mr_monopoly_once_all_is_owned_goes_to_the_next_rent_owed() -> None:
    g = _all_owned_by_bo(mega(), owners={3: 0})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2, "mr_monopoly"]})
    assert g.players[0].position == 4
    assert ("Ann", "Bo", 6 * 2, "rent") in transfers(ev)  # Bo has brown but one: double


def test_mr_monopoly_stays_when_that_property_is_mortgaged() -> None:
    g = _all_owned_by_bo(mega(), owners={3: 0}, mortgaged=[4])
    g, ev = ok(g, {"do": "roll", "dice": [1, 2, "mr_monopoly"]})
    assert g.players[0].position == 3 and "mr_monopoly_stays" in kinds(ev)
    assert not [t for t in transfers(ev) if t[3] == "rent"]


def test_mr_monopoly_move_ends_in_jail() -> None:
    g = arrange(mega(), position={0: 36})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2, "mr_monopoly"]})
    assert g.players[0].in_jail and g.pending == []


def test_nobody_else_builds_lifts_or_trades_in_a_mr_monopoly_turn() -> None:
    g = arrange(mega(), owners={7: 1, 8: 1, 11: 1, 15: 1, 1: 0, 3: 0}, mortgaged=[15])
    g, _ = ok(g, {"do": "roll", "dice": [1, 2, "mr_monopoly"]})  # 3 is Ann's: on to 4
    g, _ = ok(g, {"do": "buy"})
    assert g.mr_monopoly
    refused(g, {"do": "build", "by": "Bo", "square": 7}, "mr_monopoly_turn")
    refused(g, {"do": "unmortgage", "by": "Bo", "square": 15}, "mr_monopoly_turn")
    trade = {"do": "trade", "from": "Ann", "to": "Bo", "give": {"cash": 10}, "take": {}}
    refused(g, trade, "mr_monopoly_turn")
    assert not [c for c in legal_commands(g) if c.do is Verb.TRADE]
    ok(g, {"do": "build", "by": "Ann", "square": 1})  # the player of the turn may
    g, _ = ok(g, {"do": "end_turn"})
    ok(g, {"do": "build", "by": "Bo", "square": 7}, {"do": "unmortgage", "by": "Bo", "square": 15})


def test_a_building_won_at_auction_is_placed_even_in_a_mr_monopoly_turn() -> None:
    from companion.rules.state import PlaceBuildingPending

    g = arrange(mega(), owners={7: 1, 8: 1, 11: 1, 1: 0, 3: 0})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2, "mr_monopoly"]}, {"do": "buy"})
    g.pending.append(PlaceBuildingPending(1, "house"))
    g, _ = ok(g, {"do": "build", "by": "Bo", "square": 7})
    assert g.level[7] == 1 and g.top is None


def test_bus_face_moves_by_the_white_dice_then_takes_a_ticket() -> None:
    g = arrange(mega(), owners={3: 0})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2, "bus"]})
    assert g.players[0].position == 3
    assert g.top is not None and g.top.kind == "draw" and g.top.deck == "bus_tickets"
    g, ev = ok(g, {"do": "draw", "card": "bus-ticket-3"})
    assert g.players[0].bus_tickets == ("bus-ticket-3",) and len(g.decks["bus_tickets"]) == 15
    assert public_state(g)["players"][0]["bus_tickets"] == 1
    assert public_state(g)["bank"]["bus_tickets"] == 15


@pytest.mark.parametrize(("start_at", "target"), [(0, 9), (14, 22), (33, 43)])
def test_bus_face_without_tickets_goes_to_the_nearest_chance_or_chest(
    start_at: int, target: int
) -> None:
    g = arrange(mega(), position={0: start_at})
    g.decks["bus_tickets"] = []
    g = arrange(g, owners={start_at + 3: 0})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2, "bus"]})
    assert g.players[0].position == target and "no_bus_ticket" in kinds(ev)
    assert g.top is not None and g.top.kind == "draw" and g.top.deck != "bus_tickets"


def test_in_jail_only_the_white_dice_all_three_after_paying() -> None:
    g = arrange(mega(), jail=[0])
    refused(g, {"do": "roll", "dice": [1, 2, 3]}, "bad_dice")
    g2, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    assert g2.players[0].in_jail and g2.players[0].jail_turns == 1
    g3, ev = ok(g, {"do": "roll", "dice": [2, 2]})
    assert g3.players[0].position == JAIL + 4 and not g3.must_roll
    g4, _ = ok(g, {"do": "pay_fine"})
    refused(g4, {"do": "roll", "dice": [1, 2]}, "bad_dice")
    g4, _ = ok(g4, {"do": "roll", "dice": [1, 2, 3]})
    assert g4.players[0].position == JAIL + 6


# --- bus tickets -----------------------------------------------------------------------------


def with_ticket(g: GameState, who: int = 0, ticket: str = "bus-ticket-1") -> GameState:
    return arrange(g, bus_tickets={who: [ticket]})


@pytest.mark.parametrize(("at", "reachable", "unreachable"), [
    (0, [1, 13], [14]),  # GO is a corner: the whole first side, up to the jail
    (5, [6, 13], [14, 4]),
    (13, [14, 26], [27]),  # the jail corner starts the second side
    (40, [41, 0], [1]),  # the last side ends on GO
])
def test_a_bus_ticket_rides_to_a_square_ahead_on_this_side(
    at: int, reachable: list[int], unreachable: list[int]
) -> None:
    g = with_ticket(arrange(mega(), position={0: at}))
    for square in unreachable:
        refused(g, {"do": "use_bus_ticket", "square": square}, "unreachable")
    for square in reachable:
        g2, ev = ok(g, {"do": "use_bus_ticket", "square": square})
        assert g2.players[0].position == square and not g2.must_roll
        assert g2.players[0].bus_tickets == () and len(g2.decks["bus_tickets"]) == 15
        assert any(t[3] == "salary" for t in transfers(ev)) == (square == 0)
    legal = [c for c in legal_commands(g) if isinstance(c, SquaresOffer)
             and c.do is Verb.USE_BUS_TICKET]
    assert legal and set(reachable) <= set(legal[0].squares)
    assert not set(unreachable) & set(legal[0].squares)


def test_bus_ticket_rules_who_and_when() -> None:
    refused(mega(), {"do": "use_bus_ticket", "square": 5}, "no_bus_ticket")
    g = with_ticket(mega(), who=1)
    refused(g, {"do": "use_bus_ticket", "by": "Bo", "square": 5}, "not_your_turn")
    g = arrange(with_ticket(mega()), owners={7: 0})
    g, _ = ok(g, {"do": "roll", "dice": [3, 1, 3]})
    refused(g, {"do": "use_bus_ticket", "square": 9}, "already_rolled")
    refused(arrange(with_ticket(mega()), jail=[0]), {"do": "use_bus_ticket", "square": 14},
            "not_now")


def test_a_bus_ticket_may_replace_a_doubles_reroll() -> None:
    g = arrange(with_ticket(mega()), owners={4: 0})
    g, _ = ok(g, {"do": "roll", "dice": [1, 1, 2]})
    assert g.must_roll
    g, _ = ok(g, {"do": "use_bus_ticket", "square": 12})
    assert g.players[0].position == 12 and not g.must_roll


def test_a_ticket_taken_this_turn_is_used_from_the_next() -> None:
    g = arrange(mega(), position={0: 28}, owners={4: 1, 8: 2})
    g, _ = ok(g, {"do": "roll", "dice": [1, 1, 2]}, {"do": "draw", "card": "bus-ticket-2"})
    assert g.players[0].position == BUS_SQUARE and g.must_roll
    refused(g, {"do": "use_bus_ticket", "square": 33}, "no_bus_ticket")
    assert not [c for c in legal_commands(g) if c.do is Verb.USE_BUS_TICKET]
    g = arrange(g, owners={36: 0})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2, 1]}, {"do": "end_turn"},
              {"do": "roll", "dice": [1, 2, 1]}, {"do": "end_turn"},
              {"do": "roll", "dice": [3, 4, 1]}, {"do": "end_turn"})
    g, _ = ok(g, {"do": "use_bus_ticket", "square": 38})
    assert g.players[0].position == 38 and g.players[0].bus_tickets == ()


def test_the_expire_ticket_sends_every_other_ticket_to_the_bank() -> None:
    g = arrange(mega(), position={0: 28},
                bus_tickets={0: ["bus-ticket-1"], 1: ["bus-ticket-2", "bus-ticket-3"]})
    g, _ = ok(g, {"do": "roll", "dice": [1, 3, "bus"]})  # to 32, then the bus face's ticket
    g, _ = ok(g, {"do": "draw", "card": "bus-ticket-4"})  # the Bus ticket square's
    g, ev = ok(g, {"do": "draw", "card": "bus-ticket-expire-1"})  # the bus face's
    assert g.players[0].bus_tickets == ("bus-ticket-expire-1",)
    assert g.players[1].bus_tickets == ()
    assert [e["count"] for e in ev if e["kind"] == "bus_tickets_expired"] == [4]
    assert len(g.decks["bus_tickets"]) == 16 - 3 - 2  # expired tickets never come back


def test_the_bus_ticket_square_takes_one_or_nothing() -> None:
    g = arrange(mega(), position={0: 28})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2, 1]})
    assert g.top is not None and g.top.deck == "bus_tickets"
    g = arrange(mega(), position={0: 28})
    g.decks["bus_tickets"] = []
    g, ev = ok(g, {"do": "roll", "dice": [1, 2, 1]})
    assert g.pending == [] and "no_bus_ticket" in kinds(ev)


def test_chance_can_hand_out_a_bus_ticket() -> None:
    g, _ = ok(mega(), {"do": "roll", "dice": [3, 4, 2]},
              {"do": "draw", "card": "chance-bus-ticket"})
    assert g.top is not None and g.top.deck == "bus_tickets"
    g, _ = ok(g, {"do": "draw"})
    assert len(g.players[0].bus_tickets) == 1 and "chance-bus-ticket" in g.decks["chance"]


# --- the Birthday gift and Auction squares -------------------------------------------------------


def test_birthday_gift_money_or_a_ticket() -> None:
    g = arrange(mega(), position={0: 40})
    g, _ = ok(g, {"do": "roll", "dice": [2, 3, 2]})
    assert g.players[0].position == BIRTHDAY
    assert {c.gift for c in legal_commands(g) if isinstance(c, GiftOffer)} == {
        "money", "bus_ticket"}
    refused(g, {"do": "end_turn"}, "decision_pending")
    g2, ev = ok(g, {"do": "choose_gift", "gift": "money"})
    assert (None, "Ann", 100, "birthday_gift") in transfers(ev) and g2.pending == []
    g3, _ = ok(g, {"do": "choose_gift", "gift": "bus_ticket"}, {"do": "draw"})
    assert len(g3.players[0].bus_tickets) == 1 and g3.players[0].cash == 2500


def test_birthday_gift_is_money_once_the_tickets_are_gone() -> None:
    g = arrange(mega(), position={0: 40})
    g.decks["bus_tickets"] = []
    g, ev = ok(g, {"do": "roll", "dice": [2, 3, 2]})
    assert (None, "Ann", 100, "birthday_gift") in transfers(ev) and g.pending == []
    refused(g, {"do": "choose_gift", "gift": "bus_ticket"}, "not_now")


def test_the_auction_square_auctions_a_property_the_lander_picks() -> None:
    g = arrange(mega(), position={0: 10}, owners={3: 1})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2, 1]})
    assert g.players[0].position == AUCTION
    choice = next(c for c in legal_commands(g) if isinstance(c, SquaresOffer)
                  and c.do is Verb.CHOOSE_SQUARE)
    assert 3 not in choice.squares and 51 in choice.squares
    refused(g, {"do": "choose_square", "square": 3}, "not_ownable")
    refused(g, {"do": "choose_square", "square": 5}, "not_ownable")
    g, _ = ok(g, {"do": "choose_square", "square": 51}, {"do": "bid", "by": "Cy", "amount": 300},
              {"do": "pass", "by": "Ann"}, {"do": "pass", "by": "Bo"})
    assert g.owner[51] == 2 and g.players[2].cash == 2200


def test_the_auction_square_once_all_is_owned_goes_to_the_dearest_rent() -> None:
    g = _all_owned_by_bo(arrange(mega(), position={0: 10}))
    g2, ev = ok(g, {"do": "roll", "dice": [1, 2, 1]})
    assert g2.players[0].position == 20  # 4 stations: 200, the nearest of them
    assert ("Ann", "Bo", 200, "rent") in transfers(ev)
    g3, ev = ok(arrange(g, levels={40: 5, 41: 5, 42: 5, 44: 5}), {"do": "roll", "dice": [1, 2, 1]})
    assert g3.players[0].position == 44 and ("Ann", "Bo", 1400, "rent") in transfers(ev)


# --- building ----------------------------------------------------------------------------------


def test_houses_with_all_lots_of_a_group_but_one() -> None:
    g = arrange(mega(), owners={7: 0, 8: 0, 11: 0, 12: 1, 1: 0, 3: 0, 15: 0, 16: 0})
    g2, _ = ok(g, {"do": "build", "square": 7}, {"do": "build", "square": 1})
    refused(g2, {"do": "build", "square": 7}, "uneven")
    ok(g2, {"do": "build", "square": 8})
    r = refused(g, {"do": "build", "square": 15}, "no_monopoly")
    assert "all lots of the colour group but one" in r.message
    refused(arrange(g, mortgaged=[11]), {"do": "build", "square": 7}, "group_mortgaged")
    ok(arrange(g, mortgaged=[12]), {"do": "build", "square": 7})  # Bo's lot is his


def test_all_but_one_is_an_option_classic_tables_may_switch_on() -> None:
    refused(arrange(start(), owners={6: 0, 8: 0}), {"do": "build", "square": 6}, "no_monopoly")
    g = arrange(start(build_with_all_but_one=True), owners={6: 0, 8: 0, 1: 0})
    ok(g, {"do": "build", "square": 6})
    refused(g, {"do": "build", "square": 1}, "no_monopoly")  # one of two is not all but one


@pytest.mark.parametrize(("owned", "rent"), [((16,), 10), ((15, 16), 10), ((15, 16, 18), 20),
                                              ((15, 16, 18, 19), 30)])
def test_unbuilt_rent_double_with_all_but_one_triple_with_the_group(
    owned: tuple[int, ...], rent: int
) -> None:
    g = arrange(mega(), position={0: 10}, owners={s: 1 for s in owned})
    g, ev = ok(g, {"do": "roll", "dice": [2, 3, 1]})
    assert g.players[0].position == 16 and ("Ann", "Bo", rent, "rent") in transfers(ev)


def test_a_mortgaged_lot_of_the_group_keeps_the_multiplier_as_in_classic_eur() -> None:
    g = arrange(mega(), position={0: 10}, owners={s: 1 for s in PINK}, mortgaged=[19])
    g, ev = ok(g, {"do": "roll", "dice": [2, 3, 1]})
    assert ("Ann", "Bo", 30, "rent") in transfers(ev)


def skyscraper_ready(**more: Any) -> GameState:
    """Ann has brown with a hotel on every lot (levels and owners may add to that)."""
    owners = {**{s: 0 for s in BROWN}, **more.pop("owners", {})}
    levels = {**{s: 5 for s in BROWN}, **more.pop("levels", {})}
    return arrange(mega(), owners=owners, levels=levels, **more)


def test_a_skyscraper_replaces_a_hotel_on_a_whole_group_with_hotels() -> None:
    g = skyscraper_ready()
    g, ev = ok(g, {"do": "build", "square": 1})
    assert g.has_skyscraper(1) and not g.has_hotel(1)
    assert (g.bank_skyscrapers, g.bank_hotels) == (7, 12 - 2)
    assert ("Ann", None, 50, "building") in transfers(ev)
    refused(g, {"do": "build", "square": 1}, "max_buildings")
    refused(g, {"do": "build", "square": 1, "building": "skyscraper"}, "not_now")
    g, _ = ok(g, {"do": "build", "square": 3, "building": "skyscraper"})
    row = next(r for r in public_state(g)["squares"] if r["index"] == 1)
    assert row["skyscraper"] and not row["hotel"] and row["houses"] == 0
    assert row["rent"] == edition(MEGA).squares[1].rent[6]
    assert public_state(g)["bank"]["skyscrapers"] == 6


def test_skyscraper_needs_the_whole_group_and_a_hotel_on_every_lot() -> None:
    refused(skyscraper_ready(levels={4: 4}), {"do": "build", "square": 1}, "uneven")
    g = arrange(mega(), owners={7: 0, 8: 0, 11: 0}, levels={7: 5, 8: 5, 11: 5})
    r = refused(g, {"do": "build", "square": 7}, "no_monopoly")
    assert "skyscraper" in r.message
    refused(arrange(mega(), owners={s: 0 for s in BROWN}, levels={1: 4, 3: 4, 4: 4}),
            {"do": "build", "square": 1, "building": "skyscraper"}, "not_now")
    g = skyscraper_ready()
    g.bank_skyscrapers = 0
    refused(g, {"do": "build", "square": 1}, "housing_shortage")
    classic = arrange(start(), owners={1: 0, 3: 0}, levels={1: 5, 3: 5})
    r = refused(classic, {"do": "build", "square": 1}, "max_buildings")
    assert "hotel" in r.message


def test_the_last_skyscraper_goes_to_auction_and_its_winner_places_it() -> None:
    g = skyscraper_ready(owners={s: 1 for s in LIGHT_BLUE}, levels={s: 5 for s in LIGHT_BLUE})
    g.bank_skyscrapers = 1
    cash = g.players[0].cash
    g, ev = ok(g, {"do": "auction_building", "building": "skyscraper"})
    assert g.top.kind == "building_auction" and g.top.building == "skyscraper"
    assert {"kind": "auction_started", "building": "skyscraper"} in ev
    assert g.top.passed == (2,)  # Cy has nowhere to put it: out of the auction from the start
    r = refused(g, {"do": "bid", "by": "Cy", "amount": 500}, "not_now")
    assert r.message == "Cy has nowhere to place a skyscraper"
    g, _ = ok(g, {"do": "bid", "by": "Bo", "amount": 120}, {"do": "bid", "by": "Ann",
              "amount": 130}, {"do": "pass", "by": "Bo"})
    assert g.top.kind == "place_building" and g.top.player == 0 and g.top.building == "skyscraper"
    assert g.players[0].cash == cash - 130
    refused(g, {"do": "build", "by": "Bo", "square": 7}, "decision_pending")
    hotels = g.bank_hotels
    g, ev = ok(g, {"do": "build", "square": 4})
    assert g.has_skyscraper(4) and g.bank_skyscrapers == 0 and g.bank_hotels == hotels + 1
    assert g.top is None and not [t for t in transfers(ev) if t[3] == "building"]


def test_a_skyscraper_won_goes_only_where_a_skyscraper_may_stand() -> None:
    g = skyscraper_ready(owners={s: 1 for s in LIGHT_BLUE}, levels={s: 4 for s in LIGHT_BLUE})
    g, _ = ok(g, {"do": "auction_building", "building": "skyscraper"})
    refused(g, {"do": "bid", "by": "Bo", "amount": 100}, "not_now")  # 4 houses: a hotel next
    g, _ = ok(g, {"do": "bid", "by": "Ann", "amount": 100})  # the only one who can: won at once
    assert g.top.kind == "place_building" and g.top.player == 0
    g = skyscraper_ready(owners={s: 0 for s in LIGHT_BLUE}, levels={s: 4 for s in LIGHT_BLUE})
    g, _ = ok(g, {"do": "auction_building", "building": "skyscraper"},
              {"do": "bid", "by": "Ann", "amount": 100})
    r = refused(g, {"do": "build", "by": "Ann", "square": 7}, "not_now")  # 4 houses: a hotel next
    assert "place the skyscraper won" in r.message
    assert g.top.kind == "place_building"
    g, _ = ok(g, {"do": "build", "by": "Ann", "square": 1})
    assert g.has_skyscraper(1)


def test_no_building_auction_nobody_could_place() -> None:
    r = refused(start(), {"do": "auction_building", "building": "house"}, "not_now")
    assert r.message == "nobody could place a house now"
    refused(skyscraper_ready(levels={1: 4}), {"do": "auction_building",
                                              "building": "skyscraper"}, "not_now")


def test_no_skyscraper_auction_without_skyscrapers() -> None:
    refused(start(), {"do": "auction_building", "building": "skyscraper"}, "not_now")
    g = skyscraper_ready()
    g.bank_skyscrapers = 0
    refused(g, {"do": "auction_building", "building": "skyscraper"}, "housing_shortage")
    refused(g, {"do": "auction_building", "building": "depot"}, "bad_command")


def test_selling_a_skyscraper_gives_half_its_price_and_a_hotel_back() -> None:
    g = skyscraper_ready(levels={1: 6, 3: 6, 4: 6})
    assert g.bank_hotels == 12 and g.bank_skyscrapers == 5
    g2, ev = ok(g, {"do": "sell_building", "square": 1})
    assert g2.has_hotel(1) and (g2.bank_hotels, g2.bank_skyscrapers) == (11, 6)
    assert (None, "Ann", 25, "building_sold") in transfers(ev)
    g.bank_hotels = 0
    refused(g, {"do": "sell_building", "square": 1}, "housing_shortage")
    g3, ev = ok(g, {"do": "sell_building", "square": 1, "count": 2})  # down to 4 houses
    assert g3.level[1] == 4 and g3.bank_houses == 28 and (None, "Ann", 50, "building_sold") in \
        transfers(ev)


def test_repairs_count_skyscrapers_at_their_own_price() -> None:
    g = skyscraper_ready(levels={1: 6, 3: 5, 4: 4}, position={0: 5})
    g, ev = ok(g, {"do": "roll", "dice": [2, 1, 1]}, {"do": "draw", "card": "chance-repairs"})
    assert ("Ann", None, 4 * 25 + 100 + 150, "card") in transfers(ev)


# --- train depots --------------------------------------------------------------------------------


def test_a_train_depot_doubles_a_station_rent_one_station_is_enough() -> None:
    g = arrange(mega(), owners={6: 1})
    g, ev = ok(g, {"do": "build", "by": "Bo", "square": 6, "building": "depot"})
    assert g.depots == (6,) and ("Bo", None, 100, "building") in transfers(ev)
    refused(g, {"do": "build", "by": "Bo", "square": 6}, "max_buildings")
    refused(g, {"do": "build", "by": "Bo", "square": 6, "building": "skyscraper"}, "not_ownable")
    assert public_state(g)["bank"]["depots"] == 3
    assert next(r for r in public_state(g)["squares"] if r["index"] == 6)["depot"]
    g2, ev = ok(g, {"do": "roll", "dice": [2, 3, 1]})
    assert ("Ann", "Bo", 50, "rent") in transfers(ev)
    g3, ev = ok(g, {"do": "sell_building", "by": "Bo", "square": 6})
    assert g3.depots == () and (None, "Bo", 50, "building_sold") in transfers(ev)


def test_a_depot_must_go_before_mortgaging_or_trading_and_not_on_a_mortgaged_station() -> None:
    g = arrange(mega(), owners={6: 1, 20: 1}, depots=[6], mortgaged=[20])
    refused(g, {"do": "mortgage", "by": "Bo", "square": 6}, "has_buildings")
    trade = {"do": "trade", "from": "Bo", "to": "Ann", "give": {"squares": [6]}, "take": {}}
    refused(g, trade, "has_buildings")
    refused(g, {"do": "build", "by": "Bo", "square": 20}, "group_mortgaged")
    refused(arrange(start(), owners={5: 0}), {"do": "build", "square": 5}, "not_ownable")
    refused(arrange(mega(), owners={1: 0, 3: 0}), {"do": "build", "square": 1,
                                                   "building": "depot"}, "not_ownable")


def test_bankruptcy_returns_skyscrapers_depots_and_tickets_to_the_bank() -> None:
    from companion.rules.state import DebtPending

    g = skyscraper_ready(levels={1: 6, 3: 6, 4: 6}, owners={6: 0}, depots=[6],
                         bus_tickets={0: ["bus-ticket-1"]})
    g.pending.append(DebtPending(0, 10 ** 6, 1, "rent"))
    g, ev = ok(g, {"do": "bankrupt"})
    assert g.depots == () and g.bank_skyscrapers == 8 and g.bank_hotels == 12
    assert g.owner[6] == 1 and g.players[0].bus_tickets == ()
    assert len(g.decks["bus_tickets"]) == 15
    assert ("Ann", "Bo", 2500 + 3 * 6 * 50 // 2 + 50, "bankruptcy") in transfers(ev)


# --- the last lot of a built group -----------------------------------------------------------


def built_light_blue(cash: int, level: int = 3, **more: Any) -> GameState:
    """Ann has 7, 8 and 11 built to `level`, stands on 8 and has `cash` after buying 12."""
    return arrange(mega(), owners={7: 0, 8: 0, 11: 0, **more.pop("owners", {})},
                   levels={7: level, 8: level, 11: level}, position={0: 8},
                   cash={0: cash + 120}, **more)


@pytest.mark.parametrize(("cash", "levels", "paid"), [
    (1000, {7: 3, 8: 3, 11: 3, 12: 2}, 100),  # builds the new lot up evenly
    (50, {7: 3, 8: 3, 11: 2, 12: 2}, 50),  # one house bought, one moved
    (0, {7: 3, 8: 2, 11: 2, 12: 2}, 0),  # two houses moved
])
def test_buying_the_last_lot_of_a_built_group_rebalances_it(
    cash: int, levels: dict[int, int], paid: int
) -> None:
    g, ev = ok(built_light_blue(cash), {"do": "roll", "dice": [1, 2, 1]}, {"do": "buy"})
    assert g.owner[12] == 0 and {s: g.level[s] for s in LIGHT_BLUE} == levels
    assert g.players[0].cash == cash - paid
    assert sum(g.level[s] for s in LIGHT_BLUE) + g.bank_houses == 32
    assert "rebalanced" in kinds(ev)


def test_rebalancing_turns_hotels_back_into_houses_when_money_is_short() -> None:
    g, ev = ok(built_light_blue(0, level=5), {"do": "roll", "dice": [1, 2, 1]}, {"do": "buy"})
    assert {s: g.level[s] for s in LIGHT_BLUE} == {7: 4, 8: 4, 11: 4, 12: 3}
    assert (g.bank_hotels, g.bank_houses) == (12, 32 - 15)


def test_a_mortgaged_last_lot_is_lifted_at_once_then_the_group_rebalanced() -> None:
    g = built_light_blue(1000, owners={12: 1}, mortgaged=[12])
    trade = {"do": "trade", "from": "Ann", "to": "Bo", "give": {"cash": 200},
             "take": {"squares": [12]}}
    g, ev = ok(g, trade)
    assert not g.mortgaged[12] and g.level[12] == 2
    assert ("Ann", None, 66, "mortgage_lift") in transfers(ev)
    assert g.top is None  # no lift-or-keep choice: it had to be lifted
    assert g.players[0].cash == 1120 - 200 - 66 - 100


def test_the_lone_lot_of_another_player_may_be_traded_and_mortgaged() -> None:
    g = built_light_blue(0, owners={12: 1})
    ok(g, {"do": "mortgage", "by": "Bo", "square": 12})
    refused(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [7]},
                "take": {}}, "has_buildings")


# --- legal commands and snapshots --------------------------------------------------------------


def test_snapshot_restores_tickets_depots_skyscrapers_and_the_turn() -> None:
    from companion.game.applying import restore_snapshot

    g = skyscraper_ready(levels={1: 6, 3: 6, 4: 6}, owners={6: 0}, depots=[6],
                         bus_tickets={1: ["bus-ticket-5"]})
    g, _ = ok(g, {"do": "roll", "dice": [2, 3, "mr_monopoly"]})
    assert snapshot(restore_snapshot(snapshot(g))) == snapshot(g)
    assert restore_snapshot(snapshot(g)).mr_monopoly


def test_whole_bot_games_end_with_a_winner() -> None:
    from companion.bots import play_bot_game

    for seed in range(3):
        g, turns, _commands, capped = play_bot_game(seed, edition=MEGA)
        assert not capped and g.winner >= 0, (seed, turns)


def test_legal_commands_are_accepted() -> None:
    g = arrange(mega(), position={0: 10}, bus_tickets={0: ["bus-ticket-1"]})
    for offer in legal_commands(g):
        if isinstance(offer, SquaresOffer) and offer.do is Verb.USE_BUS_TICKET:
            for square in offer.squares:
                assert isinstance(apply(g, {"do": "use_bus_ticket", "square": square}), Accepted)


def test_the_documented_mega_opening_replays_without_a_refusal() -> None:
    from pathlib import Path

    from companion.app.replay import read_script, replay_lines

    doc = (Path(__file__).resolve().parent.parent / "docs" / "table-script.md").read_text("utf-8")
    block = doc.split("A valid opening", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    state, rejected = replay_lines(read_script(block))
    assert rejected == [] and state is not None
    assert state.owner[12] == 2 and state.players[2].bus_tickets == ()
