"""Building by the rulebooks: the housing shortage's auction, and building beside mortgages.

Every expected amount is worked out here from the rulebook's sentence and the printed deeds
(quoted beside it), never read back from the engine. The rulebooks: 000 Swedish, 001 Swiss
FR/DE, 002 Mega and classic euro FR/NL, 003 Polish, 004 Russian (shared/seeds/).
"""

from __future__ import annotations

import pytest
from rules_helpers import arrange, ok, refused, start

# The shortage auction opens at the lowest price printed on the deeds in question, the lots
# where the auctioned building could go up now: classic FR «L'enchère commence au prix le
# plus bas indiqué sur une des Cartes de Propriété en question»; CH-FR «L'enchère commence
# au prix le plus bas indiqué sur la carte "Titres de propriété"»; CH-DE «Als Mindestgebot
# gilt der niedrigste, gedruckte Preis auf einer der entsprechenden Eigentumsurkunden»; NL
# «De veiling begint bij de laagste prijs van een huis op één van de eigendomsbewijzen in
# kwestie»; RU «минимальная стоимость постройки из документов на право собственности на
# участки, на которых предполагается строительство». Sweden and Poland name no opening
# price (the classic rule applies where they are silent).

#: edition -> (Ann's whole group, Ann's lone lot, Bo's group, the house price on Ann's and
#: Bo's groups' deeds, the house price on the lone lot's deed)
SHORTAGE = {
    # the classic deeds: the greens (31, 32, 34) and dark blues (37, 39) 200 a house, the
    # browns (1, 3) 50
    "classic-eur": ((31, 32, 34), 1, (37, 39), 200, 50),
    "classic-en": ((31, 32, 34), 1, (37, 39), 200, 50),
    "pl": ((31, 32, 34), 1, (37, 39), 200, 50),
    "ru-monopolist": ((31, 32, 34), 1, (37, 39), 200, 50),
    # the Swedish and Swiss deeds x 20: 4 000 and 1 000
    "sv": ((31, 32, 34), 1, (37, 39), 4000, 1000),
    "ch": ((31, 32, 34), 1, (37, 39), 4000, 1000),
    # Mega: building with all lots of a group but one; greens 40, 41, 42 (of 40-44) and dark
    # blues 48, 49 (of 48-51) at 200, brown 1 (of 1, 3, 4) at 50
    "mega": ((40, 41, 42), 1, (48, 49), 200, 50),
}


@pytest.mark.parametrize("ed_id", sorted(SHORTAGE))
def test_the_shortage_auction_opens_at_the_lowest_price_of_the_lots_that_could_take_it(
        ed_id: str) -> None:
    mine, lone, bos, price, _lone_price = SHORTAGE[ed_id]
    g = arrange(start(("Ann", "Bo", "Cy"), edition=ed_id),
                owners={**{s: 0 for s in (*mine, lone)}, **{s: 1 for s in bos}})
    g.bank_houses = 1
    g, _ = ok(g, {"do": "auction_building", "building": "house"})
    # the lone lot (no group to build on) is not a deed in question: it does not lower it
    assert g.top is not None and g.top.min_bid == price
    r = refused(g, {"do": "bid", "by": "Bo", "amount": price - 1}, "bid_too_low")
    assert r.params["minimum"] == price
    # Cy owns nothing to build on: out of the auction from the start
    assert g.top.passed == (2,)
    ok(g, {"do": "bid", "by": "Bo", "amount": price})


@pytest.mark.parametrize("ed_id", sorted(SHORTAGE))
def test_a_cheap_group_that_could_take_the_house_opens_the_auction_at_its_price(
        ed_id: str) -> None:
    mine, lone, bos, _price, lone_price = SHORTAGE[ed_id]
    ed_group = {"mega": (1, 3, 4)}.get(ed_id, (1, 3))  # the browns, all of them
    g = arrange(start(("Ann", "Bo"), edition=ed_id),
                owners={**{s: 0 for s in (*mine, *ed_group)}, **{s: 1 for s in bos}})
    g, _ = ok(g, {"do": "auction_building", "building": "house"})
    assert g.top is not None and g.top.min_bid == lone_price


@pytest.mark.parametrize("ed_id", ["classic-eur", "ch", "ru-monopolist"])
def test_a_group_with_a_mortgaged_lot_is_not_in_question(ed_id: str) -> None:
    # the browns are whole but one is mortgaged: «Aucune maison ne peut être construite sur
    # une propriété si une des propriétés du groupe est hypothéquée» (FR), «Ist ein
    # Grundstück einer Farbgruppe mit einer Hypothek beliehen, darf auf der ganzen
    # Farbgruppe nicht gebaut werden» (CH-DE), «Строительство приостанавливается, если хотя
    # бы один участок из группы участков одного цвета заложен» (RU): the greens' price opens
    mine, _lone, bos, price, _ = SHORTAGE[ed_id]
    g = arrange(start(("Ann", "Bo"), edition=ed_id),
                owners={**{s: 0 for s in (*mine, 1, 3)}, **{s: 1 for s in bos}},
                mortgaged=[3])
    g, _ = ok(g, {"do": "auction_building", "building": "house"})
    assert g.top is not None and g.top.min_bid == price


def test_a_hotel_auction_opens_at_the_price_of_the_lots_ready_for_a_hotel() -> None:
    # Ann: browns with four houses each (a hotel may go there, 50 on the deed), greens bare
    # (only a house may go there, 200 on the deed). A hotel is in question on the browns
    # only, a house on the greens only
    g = arrange(start(("Ann", "Bo")), owners={1: 0, 3: 0, 31: 0, 32: 0, 34: 0},
                levels={1: 4, 3: 4})
    hotel, _ = ok(g, {"do": "auction_building", "building": "hotel"})
    assert hotel.top is not None and hotel.top.min_bid == 50
    house, _ = ok(g, {"do": "auction_building", "building": "house"})
    assert house.top is not None and house.top.min_bid == 200
