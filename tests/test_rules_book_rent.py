"""Rent by the rulebooks: stations and utilities, mortgaged deeds among them.

Every expected amount is worked out here from the rulebook's sentence and the printed deed
(quoted beside it), never read back from the engine. The rulebooks: 000 Swedish, 001 Swiss
FR/DE, 002 Mega and classic euro FR/NL, 003 Polish, 004 Russian (shared/seeds/).
"""

from __future__ import annotations

import pytest
from rules_helpers import arrange, ok, start, transfers

# A mortgaged deed is still its owner's: classic FR «Si vous hypothéquez une propriété, vous
# êtes toujours en sa possession»; NL «Een stuk grond dat met hypotheek bezwaard is, blijft
# in het bezit van de eigenaar»; CH-DE «Mit Hypotheken belastete Grundstücke bleiben im
# Besitz des Eigentümers»; RU «Распоряжаться заложенной собственностью можете только вы».
# So a station's rent counts every station the owner holds, mortgaged or not: classic FR
# «Ce montant variera suivant le nombre de gares détenues par ce joueur»; NL «Het
# huurbedrag is afhankelijk van het aantal stations dat de eigenaar in zijn/haar bezit
# heeft»; CH-DE «sie hängt davon ab, wie viele Bahnhöfe der Eigentümer besitzt». Sweden and
# Poland name only the deed's amount (the classic rule applies where they are silent).

#: edition -> (Ann's start square, her dice, the station she lands on, Bo's other
#: (mortgaged) station, the printed rent for two stations)
STATIONS = {
    # the classic deed: 25 / 50 / 100 / 200 for 1-4 stations
    "classic-eur": (0, [2, 3], 5, 15, 50),
    "classic-en": (0, [2, 3], 5, 15, 50),
    "pl": (0, [2, 3], 5, 15, 50),
    # RULES.md: the Russian deed's 90/250/... is a misprint, the classic 25/50/... kept
    "ru-monopolist": (0, [2, 3], 5, 15, 50),
    # the Swedish and Swiss deeds are the classic ones x 20: 500 / 1 000 / 2 000 / 4 000
    "sv": (0, [2, 3], 5, 15, 1000),
    "ch": (0, [2, 3], 5, 15, 1000),
    # Mega (52 squares): stations on 6 and 20; the speed die shows 1: 2 + 3 + 1 = 6
    "mega": (0, [2, 3, 1], 6, 20, 50),
}


@pytest.mark.parametrize("ed_id", sorted(STATIONS))
def test_a_mortgaged_station_still_counts_for_the_rent_of_its_owners_other_station(
        ed_id: str) -> None:
    here, dice, station, other, rent = STATIONS[ed_id]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={station: 1, other: 1},
                mortgaged=[other], position={0: here})
    g, ev = ok(g, {"do": "roll", "dice": dice})
    assert g.players[0].position == station
    assert [t for t in transfers(ev) if t[3] == "rent"] == [("Ann", "Bo", rent, "rent")]


@pytest.mark.parametrize("ed_id", sorted(STATIONS))
def test_the_mortgaged_station_itself_earns_nothing(ed_id: str) -> None:
    # classic FR «Aucun loyer ne sera payé pour une propriété hypothéquée»; SV «Om tomten är
    # intecknad får ägaren icke någon hyra för den»; RU «За остановку на заложенных участках
    # арендная плата не взимается»; PL «nie może pobierać czynszu z zastawionej
    # nieruchomości»
    here, dice, station, other, _ = STATIONS[ed_id]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={station: 1, other: 1},
                mortgaged=[station], position={0: here})
    g, ev = ok(g, {"do": "roll", "dice": dice})
    assert g.players[0].position == station
    assert not [t for t in transfers(ev) if t[3] == "rent"]


# Utilities: classic FR «si le propriétaire a les deux en sa possession, vous devez payer 10
# fois le total des dés»; CH-FR «Mais si le propriétaire a les deux en sa possession, vous
# devez payer 200 fois le total des dés»; NL «als hij/zij beide nutsbedrijven bezit, dan
# moet u 10 maal het aantal ogen van uw worp betalen»; RU «если двумя — количество очков,
# умноженное на десять». Both held, one mortgaged: the other still earns the both-held rate.

#: edition -> (Ann's start, her dice, the utility she lands on, Bo's other (mortgaged)
#: utility, the rent: the both-held multiple of her dice, worked out by hand)
UTILITIES = {
    "classic-eur": (7, [2, 3], 12, 28, 10 * 5),
    "classic-en": (7, [2, 3], 12, 28, 10 * 5),
    "pl": (7, [2, 3], 12, 28, 10 * 5),
    "sv": (7, [2, 3], 12, 28, 200 * 5),  # the Swedish board is the Swiss one: 80 / 200
    "ch": (7, [2, 3], 12, 28, 200 * 5),
    # Mega: three utilities (10, 17, 36); two of them held: the second rate, 10 x the dice
    # moved by (Mega is silent on which dice count: the engine takes all three, 1 + 2 + 1)
    "mega": (6, [1, 2, 1], 10, 17, 10 * 4),
}


@pytest.mark.parametrize("ed_id", sorted(UTILITIES))
def test_a_mortgaged_utility_still_counts_for_the_rent_of_its_owners_other_one(
        ed_id: str) -> None:
    here, dice, utility, other, rent = UTILITIES[ed_id]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={utility: 1, other: 1},
                mortgaged=[other], position={0: here})
    g, ev = ok(g, {"do": "roll", "dice": dice})
    assert g.players[0].position == utility
    assert [t for t in transfers(ev) if t[3] == "rent"] == [("Ann", "Bo", rent, "rent")]


def test_russian_utility_rent_is_thrown_for_and_a_mortgaged_second_utility_counts() -> None:
    # RU «вы должны заплатить её владельцу арендную плату в соответствии с количеством очков
    # на кубиках, которые вы обязаны бросить»: the lander throws; Bo holds both, the
    # Водопровод (28) mortgaged: «если двумя — ... умноженное на десять»: 10 x (6 + 5) = 110
    g = arrange(start(("Ann", "Bo"), edition="ru-monopolist"), owners={12: 1, 28: 1},
                mortgaged=[28], position={0: 7})
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]})
    assert g.players[0].position == 12 and not transfers(ev)
    g, ev = ok(g, {"do": "roll", "dice": [6, 5]})
    assert transfers(ev) == [("Ann", "Bo", 110, "rent")]
