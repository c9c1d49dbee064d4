"""The rules every classic-board edition shares, played in each with its own amounts.

The amounts are the rulebooks' and the printed boards' (written out here by hand): the
classic euro, English, Polish and Russian boards in 200s (FR «vous recevez € 200», PL
«pobiera z banku 200 złotych», RU «банк выплачивает вам M200»), the Swedish and Swiss
boards ×20 (SV «Kr. 4.000 i avlöning», CH «Fr. 4'000.-»).
"""

from __future__ import annotations

import pytest
from rules_helpers import arrange, ok, start, transfers

#: edition -> (salary, jail fine, Income Tax (4), Rue de la Paix's (39) price, its house
#: price, its bare rent, its hotel rent)
AMOUNTS = {
    "classic-eur": (200, 50, 200, 400, 200, 50, 2000),
    "classic-en": (200, 50, 200, 400, 200, 50, 2000),
    "pl": (200, 50, 200, 400, 200, 50, 2000),  # «na drugim 200»: Income Tax
    "ru-monopolist": (200, 50, 200, 400, 200, 50, 2000),
    "sv": (4000, 1000, 4000, 8000, 4000, 1000, 40000),  # «kr. 1.000 i böter»
    "ch": (4000, 1000, 4000, 8000, 4000, 1000, 40000),  # «Geldbusse von Fr. 1'000.-»
}
EDITIONS = sorted(AMOUNTS)


@pytest.mark.parametrize("ed_id", EDITIONS)
def test_passing_or_landing_on_go_pays_the_salary_once(ed_id: str) -> None:
    # SV «Varje gång en spelare hamnar på eller passerar rutan "GÅ" ... Kr. 4.000»
    salary = AMOUNTS[ed_id][0]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), position={0: 36})
    g, ev = ok(g, {"do": "roll", "dice": [3, 4]})  # 36 + 7 = 43: past GO to 3
    assert [t for t in transfers(ev) if t[3] == "salary"] == [(None, "Ann", salary, "salary")]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), position={0: 35})
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]})  # exactly on GO
    assert transfers(ev) == [(None, "Ann", salary, "salary")]


@pytest.mark.parametrize("ed_id", EDITIONS)
def test_the_jail_fine_paid_before_rolling_frees_the_player(ed_id: str) -> None:
    # CH-DE «eine Geldbusse von Fr. 1'000.- zahlt, bevor man würfelt»; RU «В следующий свой
    # ход заплатите М50 и продолжайте игру»
    fine = AMOUNTS[ed_id][1]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), jail=[0])
    g, ev = ok(g, {"do": "pay_fine"})
    assert transfers(ev) == [("Ann", None, fine, "jail_fine")] and not g.players[0].in_jail
    g, _ = ok(g, {"do": "roll", "dice": [2, 3]})  # then plays: 10 + 5
    assert g.players[0].position == 15


@pytest.mark.parametrize("ed_id", EDITIONS)
def test_the_third_failed_roll_in_jail_pays_the_fine_and_moves_by_it(ed_id: str) -> None:
    # SV «Omedelbart efter tredje kastet måste han betala kr. 1.000 i böter ... flyttar som
    # vanligt enligt tärningarna»; NL «gebruik hiervoor het aantal ogen van uw derde en
    # laatste dobbelsteenworp en 50 boete betalen»
    fine = AMOUNTS[ed_id][1]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), jail=[0])
    g.players[0].jail_turns = 2  # two failed rolls behind her
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert transfers(ev)[0] == ("Ann", None, fine, "jail_fine")
    assert g.players[0].position == 13 and not g.players[0].in_jail


@pytest.mark.parametrize("ed_id", EDITIONS)
def test_the_tax_square_takes_its_amount_for_the_bank(ed_id: str) -> None:
    # FR «payez le montant indiqué à la banque»; PL «Na jednym z nich jest pobierane 100
    # złotych, na drugim 200»
    tax = AMOUNTS[ed_id][2]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), position={0: 1})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert transfers(ev) == [("Ann", None, tax, "tax")]


@pytest.mark.parametrize("ed_id", EDITIONS)
def test_three_doubles_send_to_jail_without_the_third_move(ed_id: str) -> None:
    # SV «Slår han lika tre gånger i följd får han däremot icke flytta brickan vid tredje
    # slaget, utan måste genast gå i fängelse»; PL «bez przechodzenia przez start»
    g = arrange(start(("Ann", "Bo"), edition=ed_id), position={0: 3}, owners={5: 1, 9: 1})
    g, _ = ok(g, {"do": "roll", "dice": [1, 1]}, {"do": "roll", "dice": [2, 2]})
    assert g.players[0].position == 9  # 3 + 2 + 4, on Bo's station and lot
    g, ev = ok(g, {"do": "roll", "dice": [3, 3]})
    assert g.players[0].in_jail and g.players[0].position == 10
    assert not [t for t in transfers(ev) if t[3] in ("salary", "rent")]


@pytest.mark.parametrize("ed_id", EDITIONS)
def test_a_whole_group_doubles_the_bare_rent_then_a_hotel_takes_the_hotel_rent(
        ed_id: str) -> None:
    # SV «dubbel hyra för obebyggda tomter inom gruppen»; the deed's hotel rent
    _, _, _, _, _, bare, hotel = AMOUNTS[ed_id]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={37: 1, 39: 1}, position={0: 36})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert [t for t in transfers(ev) if t[3] == "rent"] == [("Ann", "Bo", 2 * bare, "rent")]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={37: 1, 39: 1},
                levels={37: 5, 39: 5}, position={0: 36}, cash={0: 50000})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert [t for t in transfers(ev) if t[3] == "rent"] == [("Ann", "Bo", hotel, "rent")]


@pytest.mark.parametrize("ed_id", EDITIONS)
def test_a_house_costs_the_deeds_price_and_goes_back_at_half(ed_id: str) -> None:
    # SV «Priset för varje särskilt hus står angivet på hans lagfartsbevis»; «banken skall
    # betala halva det ursprungliga priset»
    price, house = AMOUNTS[ed_id][3], AMOUNTS[ed_id][4]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={37: 0}, position={0: 36})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})  # Rue de la Paix, 39
    assert ("Ann", None, price, "purchase") in transfers(ev)
    g, ev = ok(g, {"do": "build", "square": 37}, {"do": "build", "square": 39})
    assert transfers(ev) == [("Ann", None, house, "building"), ("Ann", None, house, "building")]
    g, ev = ok(g, {"do": "sell_building", "square": 39})
    assert transfers(ev) == [(None, "Ann", house // 2, "building_sold")]
