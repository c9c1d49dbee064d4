"""Chance and Community Chest: every card of both decks, both drawing modes."""

from __future__ import annotations

import pytest
from rules_helpers import arrange, edition, ok, refused, start, transfers

ED = edition()
ALL_CARDS = [c for deck in ED.decks.values() for c in deck]
CHANCE_AT = 7  # chance square, Ann comes from 4 with 1+2
CHEST_AT = 2


def drawing(card_id: str, **arr: object) -> object:
    """Ann on the card's deck square, about to draw."""
    card = ED.cards[card_id]
    square = CHANCE_AT if card.deck == "chance" else CHEST_AT
    g = arrange(start(), position={0: (square - 3) % 40}, **arr)  # type: ignore[arg-type]
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    assert g.top.kind == "draw" and g.top.deck == card.deck
    return g


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda c: c.id)
def test_every_card_applies_and_goes_under_its_deck(card: object) -> None:
    g = drawing(card.id)  # type: ignore[attr-defined]
    before = sum(p.cash for p in g.players)
    g, ev = ok(g, {"do": "draw", "card": card.id})  # type: ignore[attr-defined]
    assert any(e["kind"] == "card" and e["card"] == card.id for e in ev)  # type: ignore
    deck = g.decks[card.deck]  # type: ignore[attr-defined]
    if card.effect == "jail_free":  # type: ignore[attr-defined]
        assert card.id not in deck and g.players[0].jail_cards == [card.id]  # type: ignore
    else:
        assert deck[-1] == card.id  # type: ignore[attr-defined]
    moved = sum(t[2] if t[0] is None else (-t[2] if t[1] is None else 0) for t in transfers(ev))
    assert sum(p.cash for p in g.players) == before + moved


def test_device_draws_the_top_card_and_puts_it_under() -> None:
    g = drawing("chance-dividend")
    top = g.decks["chance"][0]
    g2, ev = ok(g, {"do": "draw"})
    assert [e["card"] for e in ev if e["kind"] == "card"] == [top]
    if ED.cards[top].effect != "jail_free":
        assert g2.decks["chance"][-1] == top and g2.decks["chance"][0] != top


def test_a_card_of_the_other_deck_is_refused() -> None:
    refused(drawing("chance-dividend"), {"do": "draw", "card": "chest-doctor"}, "unknown_card")
    refused(drawing("chance-dividend"), {"do": "draw", "card": "nope"}, "unknown_card")


def test_advance_to_go_pays_salary_once_and_twice_after_passing_go() -> None:
    g = drawing("chance-go")
    g, ev = ok(g, {"do": "draw", "card": "chance-go"})
    assert g.players[0].position == 0
    assert [t for t in transfers(ev) if t[3] == "salary"] == [(None, "Ann", 200, "salary")]
    # passing GO on the roll, then "advance to GO" from the chance at 2: two salaries
    g = arrange(start(), position={0: 39})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "draw", "card": "chest-go"})
    assert [t[2] for t in transfers(ev) if t[3] == "salary"] == [200, 200]


def test_advance_passing_go_pays_salary() -> None:
    g = arrange(start(), position={0: 33})  # chance at 36
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "draw", "card": "chance-villette"})
    assert g.players[0].position == 11 and (None, "Ann", 200, "salary") in transfers(ev)
    assert g.top.kind == "buy"


def test_go_back_three_lands_and_acts() -> None:
    g = drawing("chance-back-3")
    g, ev = ok(g, {"do": "draw", "card": "chance-back-3"})
    assert g.players[0].position == 4 and ("Ann", None, 200, "tax") in transfers(ev)
    g = arrange(start(), position={0: 33})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "draw", "card": "chance-back-3"})
    assert g.players[0].position == 33 and g.top.kind == "draw"
    assert g.top.deck == "community_chest"


def test_nearest_station_pays_double_or_offers_it() -> None:
    g = drawing("chance-station-1", owners={15: 1})
    g, ev = ok(g, {"do": "draw", "card": "chance-station-1"})
    assert g.players[0].position == 15 and ("Ann", "Bo", 50, "rent") in transfers(ev)
    g = drawing("chance-station-1")
    g, _ = ok(g, {"do": "draw", "card": "chance-station-1"})
    assert g.top.kind == "buy" and g.top.square == 15


def test_nearest_utility_rolls_again_for_ten_times() -> None:
    g = drawing("chance-utility", owners={12: 1})
    g, _ = ok(g, {"do": "draw", "card": "chance-utility"})
    assert g.players[0].position == 12 and g.top.kind == "roll_for_rent"
    refused(g, {"do": "end_turn"}, "decision_pending")
    g, ev = ok(g, {"do": "roll", "dice": [5, 6]})
    assert ("Ann", "Bo", 110, "rent") in transfers(ev)
    assert g.players[0].position == 12  # the rent roll does not move the token
    g = arrange(start(), position={0: 33}, owners={12: 1})  # from 36: next utility is 12
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "draw", "card": "chance-utility"})
    assert g.players[0].position == 12 and (None, "Ann", 200, "salary") in transfers(ev)


def test_pay_each_player_and_collect_from_each() -> None:
    g = drawing("chance-chairman")
    g, ev = ok(g, {"do": "draw", "card": "chance-chairman"})
    assert ("Ann", "Bo", 50, "card") in transfers(ev) and ("Ann", "Cy", 50, "card") in transfers(ev)
    g = drawing("chest-birthday")
    g, ev = ok(g, {"do": "draw", "card": "chest-birthday"})
    assert ("Bo", "Ann", 10, "card") in transfers(ev) and ("Cy", "Ann", 10, "card") in transfers(ev)


def test_collecting_card_exemption_on_free_parking_option() -> None:
    g = arrange(start(free_parking_exempt_from_collect_cards=True), position={0: 63 % 40, 1: 20})
    g = arrange(g, position={0: 39})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "draw", "card": "chest-birthday"})
    assert ("Cy", "Ann", 10, "card") in transfers(ev)
    assert not [t for t in transfers(ev) if t[0] == "Bo"]


def test_repairs_count_houses_and_hotels() -> None:
    g = drawing("chance-repairs", owners={1: 0, 3: 0, 37: 0, 39: 0}, levels={1: 2, 3: 2, 37: 5,
                                                                             39: 5})
    g, ev = ok(g, {"do": "draw", "card": "chance-repairs"})
    assert ("Ann", None, 4 * 25 + 2 * 100, "card") in transfers(ev)


def test_card_to_jail_goes_without_salary() -> None:
    g = drawing("chance-jail")
    g, ev = ok(g, {"do": "draw", "card": "chance-jail"})
    assert g.players[0].in_jail and not any(t[3] == "salary" for t in transfers(ev))


def test_held_jail_card_cannot_be_drawn_again_and_can_be_sold() -> None:
    g = drawing("chance-jail-free", jail_cards={1: ["chance-jail-free"]})
    refused(g, {"do": "draw", "card": "chance-jail-free"}, "unknown_card")
    g, _ = ok(g, {"do": "draw", "card": "chance-dividend"})
    g, ev = ok(g, {"do": "trade", "from": "Bo", "to": "Ann", "give": {"cards": 1},
                   "take": {"cash": 30}})
    assert g.players[0].jail_cards == ["chance-jail-free"] and g.players[1].jail_cards == []
    assert ("Ann", "Bo", 30, "trade") in transfers(ev)


def test_jail_cards_drawn_used_and_traded_leave_the_earlier_states_as_they_were() -> None:
    """Copies share a player's jail cards' list (the engine replaces it): drawing, using and
    trading a card must leave every earlier state, kept for undo, with its own cards."""
    before_draw = drawing("chance-jail-free", jail_cards={1: ["chest-jail-free"]})
    drawn, _ = ok(before_draw, {"do": "draw", "card": "chance-jail-free"})
    assert before_draw.players[0].jail_cards == [] and drawn.players[0].jail_cards == [
        "chance-jail-free"]
    traded, _ = ok(drawn, {"do": "trade", "from": "Bo", "to": "Ann", "give": {"cards": 1},
                           "take": {"cards": 1}})
    assert [p.jail_cards for p in traded.players[:2]] == [["chest-jail-free"],
                                                           ["chance-jail-free"]]
    assert [p.jail_cards for p in drawn.players[:2]] == [["chance-jail-free"],
                                                         ["chest-jail-free"]]
    jailed = arrange(traded, jail=[0])
    jailed.rolled = False
    jailed.must_roll = True
    freed, _ = ok(jailed, {"do": "use_card"})
    assert freed.players[0].jail_cards == [] and not freed.players[0].in_jail
    assert jailed.players[0].jail_cards == ["chest-jail-free"]
    assert traded.players[0].jail_cards == ["chest-jail-free"]
