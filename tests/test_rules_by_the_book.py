"""Each edition's own rules, checked by hand against its rulebook.

One short scripted game per edition (entered dice, a board arranged by hand): the amounts
asserted were worked out from the rulebooks in shared/seeds beside the checkout (or
RULES.md, their digest), not taken from the engine. Each comment names the rule with a
short quote (the rulebooks: 000 Swedish, 001 Swiss FR/DE, 002 Mega and classic euro FR/NL,
003 Polish, 004 Russian).
"""

from __future__ import annotations

from rules_helpers import arrange, ok, refused, start, transfers

from companion.rules import GameState, PendingKind
from companion.rules.state import BANK


def cash(g: GameState) -> list[int]:
    """Every player's cash, in seat order."""
    return [p.cash for p in g.players]


# --- classic-eur (002, RÈGLE ÉDITION CLASSIQUE) ----------------------------------------------


def test_classic_eur_double_rent_mortgage_interest_and_a_mortgaged_deed_sold() -> None:
    g = start(("Ann", "Bo"))
    assert cash(g) == [1500, 1500]
    # Ann owns both browns (Boulevard de Belleville 1, Rue Lecourbe 3); Rue Lecourbe is
    # mortgaged; Bo stands on Rue de la Paix (39)
    g = arrange(g, owners={1: 0, 3: 0}, mortgaged=[3], position={1: 39})
    g, _ = ok(g, {"do": "roll", "dice": [4, 6]}, {"do": "end_turn"})  # Ann: just visiting
    g, ev = ok(g, {"do": "roll", "dice": [1, 1]})  # Bo: 39 + 2 -> 1, past GO
    # "recevez 200" for passing GO; "un propriétaire qui possède tout un groupe ne peut
    # recevoir de loyer pour le terrain hypothéqué, mais toujours un double loyer pour les
    # terrains non-hypothéqués": 2 x 2 = 4 on Boulevard de Belleville
    assert (None, "Bo", 200, "salary") in transfers(ev)
    assert ("Bo", "Ann", 4, "rent") in transfers(ev)
    assert cash(g) == [1504, 1696]
    # "lever l'hypothèque ... cette valeur additionnée de 10 % d'intérêts": 30 + 3 = 33
    g, ev = ok(g, {"do": "unmortgage", "square": 3})
    assert transfers(ev) == [("Ann", None, 33, "mortgage_lift")]
    assert cash(g) == [1471, 1696]
    # Ann mortgages Boulevard de Belleville (value 30) and sells it to Bo for 50: "il paie
    # aussitôt les 10 % d'intérêts à la Banque et puis, plus tard, la valeur de l'hypothèque
    # plus encore 10 % d'intérêts": 3 now, 30 + 3 later
    g, _ = ok(g, {"do": "mortgage", "square": 1})
    assert cash(g) == [1501, 1696]
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [1]},
                   "take": {"cash": 50}})
    assert ("Bo", None, 3, "mortgage_interest") in transfers(ev)
    assert cash(g) == [1551, 1643]
    assert g.top is not None and g.top.kind is PendingKind.LIFT_MORTGAGES
    g, _ = ok(g, {"do": "decline", "by": "Bo"})  # keeps the mortgage for now
    g, ev = ok(g, {"do": "unmortgage", "square": 1})
    assert transfers(ev) == [("Bo", None, 33, "mortgage_lift")]
    assert cash(g) == [1551, 1610]


# --- classic-en (the classic-eur rules with London names, edition rulebook_notes) -------------


def test_classic_en_utility_rent_by_the_dice_and_income_tax() -> None:
    g = start(("Ann", "Bo"), edition="classic-en")
    # Bo owns both utilities (Electric Company 12, Water Works 28); Ann stands on Chance (7)
    g = arrange(g, owners={12: 1, 28: 1}, position={0: 7})
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]})  # Ann: 7 + 5 -> Electric Company
    # 002 / RULES.md: utility rent "4x / 10x dice"; both owned: 10 x 5 = 50
    assert transfers(ev) == [("Ann", "Bo", 50, "rent")]
    g, _ = ok(g, {"do": "end_turn"})
    g, ev = ok(g, {"do": "roll", "dice": [1, 3]})  # Bo: 0 + 4 -> Income Tax
    # the tax square's amount, 200 ("Impôts sur le revenu" on the classic board)
    assert transfers(ev) == [("Bo", None, 200, "tax")]
    assert cash(g) == [1450, 1350]


# --- sv (000, Swedish) ------------------------------------------------------------------------


def test_sv_interest_when_mortgaging_rounded_to_50_and_the_jail_fine_window() -> None:
    g = start(("Ann", "Bo"), edition="sv")
    assert cash(g) == [30000, 30000]  # "Kr. 30.000"
    g = arrange(g, owners={1: 0}, jail=[1])  # Ann owns Västerlånggatan; Bo is in jail
    # "Räntan är 10 % och betalas när lånet erhålls. Beloppet avrundas till närmaste
    # 50-talet kronor": value 600, 10 % = 60, rounded to 50
    g, ev = ok(g, {"do": "mortgage", "square": 1})
    assert transfers(ev) == [(None, "Ann", 600, "mortgage"), ("Ann", None, 50,
                                                                  "mortgage_interest")]
    assert cash(g) == [30550, 30000]
    g, _ = ok(g, {"do": "roll", "dice": [4, 6]}, {"do": "end_turn"})  # Ann: 10, a visit
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"})  # Bo: first roll fails
    # the interest was paid when the loan was taken: lifting costs the capital, 600
    g, ev = ok(g, {"do": "unmortgage", "square": 1})
    assert transfers(ev) == [("Ann", None, 600, "mortgage_lift")]
    g, _ = ok(g, {"do": "roll", "dice": [4, 6]}, {"do": "end_turn"})  # Ann: Free Parking
    g, _ = ok(g, {"do": "roll", "dice": [1, 3]}, {"do": "end_turn"})  # Bo: second fails
    g, _ = ok(g, {"do": "roll", "dice": [6, 4]}, {"do": "end_turn"})  # Ann: Go to Jail
    # "betalar kr. 1.000 i böter INNAN han kastar första eller andra kastet": not now
    refused(g, {"do": "pay_fine", "by": "Bo"}, "not_now")
    # "Omedelbart efter tredje kastet måste han betala kr. 1.000": 10 + 5 -> Centralstationen
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]})
    assert transfers(ev) == [("Bo", None, 1000, "jail_fine")]
    assert g.players[1].position == 15 and not g.players[1].in_jail
    assert cash(g) == [29950, 29000]


def test_sv_a_bought_mortgaged_lot_lifted_later_costs_another_ten_percent() -> None:
    g = arrange(start(("Ann", "Bo"), edition="sv"), owners={1: 0}, mortgaged=[1])
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [1]},
                   "take": {"cash": 1000}})
    # "Löser han ej lånet, betalar han likväl 10 % ränta": 60, rounded to 50
    assert ("Bo", None, 50, "mortgage_interest") in transfers(ev)
    g, _ = ok(g, {"do": "decline", "by": "Bo"})
    # "löser han det senare betalar han även nu 10 % ränta utöver kapitalskulden": 650
    g, ev = ok(g, {"do": "unmortgage", "square": 1})
    assert transfers(ev) == [("Bo", None, 650, "mortgage_lift")]


# --- ch (001, Swiss French and German) ---------------------------------------------------------


def test_ch_utilities_80_and_200_times_and_no_double_rent_with_a_mortgaged_lot() -> None:
    g = start(("Ann", "Bo"), edition="ch")
    # Bo owns the Usine électrique (12) only; Ann owns both browns, one mortgaged
    g = arrange(g, owners={12: 1, 1: 0, 3: 0}, mortgaged=[3], position={0: 7, 1: 39})
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]}, {"do": "end_turn"})  # Ann: 7 + 5 -> 12
    # "Si le propriétaire a seulement un des deux services publics, le loyer sera le total
    # de vos dés multiplié par 80": 80 x 5 = 400
    assert ("Ann", "Bo", 400, "rent") in transfers(ev)
    g, ev = ok(g, {"do": "roll", "dice": [1, 1]})  # Bo: 39 + 2 -> Chur Kornplatz (1)
    # "vous recevez Fr. 4'000.-" at Start; "un propriétaire qui possède tout un groupe ne peut
    # pas recevoir ce double loyer si une des propriétés est hypothéquée": 40, not 80
    assert transfers(ev) == [(None, "Bo", 4000, "salary"), ("Bo", "Ann", 40, "rent")]
    assert cash(g) == [29640, 34360]
    # Ann's turn again with both works now Bo's: "200 fois le total des dés"
    g = arrange(g, owners={28: 1}, position={0: 26})
    # Bo threw doubles: again, 1 + 9 -> a visit in jail (10)
    g, _ = ok(g, {"do": "roll", "dice": [4, 5]}, {"do": "end_turn"})
    g, ev = ok(g, {"do": "roll", "dice": [1, 1]})  # Ann: 26 + 2 -> Service des eaux
    assert ("Ann", "Bo", 400, "rent") in transfers(ev)  # 200 x 2


def test_ch_all_hotels_of_a_group_are_sold_together() -> None:
    g = arrange(start(("Ann", "Bo"), edition="ch"), owners={1: 0, 3: 0}, levels={1: 5, 3: 5})
    # "la banque paiera la moitié du prix de l'hôtel, plus la moitié du prix des quatre
    # maisons ... Tous les hôtels d'un même groupe doivent être vendus en même temps":
    # house and hotel 1000 each on the browns, (500 + 4 x 500) x 2 hotels = 5000
    g, ev = ok(g, {"do": "sell_building", "square": 1, "count": 5})
    assert transfers(ev) == [(None, "Ann", 5000, "building_sold")]
    assert g.level[1] == g.level[3] == 0 and g.bank_hotels == g.edition.hotels
    assert cash(g) == [35000, 30000]


# --- pl (003, Polish) ---------------------------------------------------------------------------


def test_pl_a_tax_that_cash_cannot_pay_is_bankruptcy_to_the_bank() -> None:
    g = start(("Ann", "Bo", "Cy"), edition="pl")
    # Ann has 150 and both browns (each mortgageable for 30: 210 could be raised)
    g = arrange(g, owners={1: 0, 3: 0}, cash={0: 150})
    g, ev = ok(g, {"do": "roll", "dice": [1, 3]})  # 0 + 4 -> Podatek dochodowy, 200
    # "Gracz, który nie ma z czego zapłacić podatków, zostaje bankrutem, a jego
    # nieruchomości przejmuje bank": no raising money first
    ann = g.players[0]
    assert ann.bankrupt and ann.cash == 0
    assert ("Ann", None, 150, "bankruptcy") in transfers(ev)
    assert g.owner[1] == g.owner[3] == BANK
    # the bank auctions the deeds (the classic euro rule, where 003 is silent)
    assert g.top is not None and g.top.kind is PendingKind.AUCTION and g.top.square == 1
    assert cash(g)[1:] == [1500, 1500] and g.players[g.current].name == "Bo"
    # the same roll under the classic euro rules is a debt to settle, not a bankruptcy
    c = arrange(start(("Ann", "Bo", "Cy")), owners={1: 0, 3: 0}, cash={0: 150})
    c, _ = ok(c, {"do": "roll", "dice": [1, 3]})
    assert c.top is not None and c.top.kind is PendingKind.DEBT and c.top.amount == 200
    assert not c.players[0].bankrupt


# --- ru-monopolist (004, Russian) --------------------------------------------------------------


def test_ru_rent_card_dice_thrown_for_utility_rent_and_mortgaged_deed_redeemed() -> None:
    g = start(("Ann", "Bo", "Cy"), edition="ru-monopolist")
    # Ann owns the light blues (Школьная 6, Лесная 8, Речная 9) and the Электростанция (12);
    # Bo owns Садовая улица (1), mortgaged
    g = arrange(g, owners={6: 0, 8: 0, 9: 0, 12: 0, 1: 1}, mortgaged=[1],
                position={1: 1, 2: 7})
    g, _ = ok(g, {"do": "roll", "dice": [4, 6]})  # Ann: just visiting
    # "Постройка дома М 50" on the sample card: one house on each lot, evenly, 150
    for lot in (6, 8, 9):
        g, _ = ok(g, {"do": "build", "square": lot})
    assert cash(g)[0] == 1350
    g, _ = ok(g, {"do": "end_turn"})
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]}, {"do": "end_turn"})  # Bo: 1 + 5 -> 6
    # Школьная улица "1 дом М 30"
    assert transfers(ev) == [("Bo", "Ann", 30, "rent")]
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]})  # Cy: 7 + 5 -> Электростанция
    # "количество очков на кубиках, которые вы обязаны бросить": the rent waits for a roll
    assert g.top is not None and g.top.kind is PendingKind.ROLL_FOR_RENT
    assert not transfers(ev)
    g, ev = ok(g, {"do": "roll", "dice": [6, 5]})
    # "рента равно сумме выпавших на кубиках очков, умноженной на 4": 4 x 11 = 44
    assert transfers(ev) == [("Cy", "Ann", 44, "rent")]
    assert cash(g) == [1424, 1470, 1456]
    # Bo sells Садовая (mortgage value 30) to Cy for 40: "Игрок, приобретающий заложенную
    # собственность, должен выкупить её у банка": the redemption price, 30 + 10 % = 33
    g, ev = ok(g, {"do": "trade", "from": "Bo", "to": "Cy", "give": {"squares": [1]},
                   "take": {"cash": 40}})
    assert ("Cy", None, 33, "mortgage_lift") in transfers(ev)
    assert not g.mortgaged[1] and g.owner[1] == 2
    assert cash(g) == [1424, 1510, 1383]
    # "Вы можете полностью освободить только участок, подлежащий залогу, а на остальных
    # участках этого цвета оставить по одному дому": sell Школьная's house (25), mortgage
    # it (50) while Лесная and Речная keep theirs
    g, _ = ok(g, {"do": "sell_building", "square": 6}, {"do": "mortgage", "square": 6})
    assert g.mortgaged[6] and g.level[8] == g.level[9] == 1
    assert cash(g)[0] == 1424 + 25 + 50


# --- mega (002, RÈGLES ÉDITION MÉGA) --------------------------------------------------------


def test_mega_speed_die_mr_monopoly_bus_and_double_rent_on_all_lots_but_one() -> None:
    g = start(("Ann", "Bo", "Cy"), edition="mega")
    assert cash(g) == [2500, 2500, 2500]  # RULES.md: "Start: €2 500"
    g = arrange(g, owners={1: 0, 3: 0})  # Ann: two of the three browns (1, 3, 4)
    # "Si des points apparaissent sur les trois dés : Avancez d'autant de cases que le
    # nombre de points indiqués sur les trois dés": 1 + 2 + 3 -> Gare Montparnasse (6)
    g, _ = ok(g, {"do": "roll", "dice": [1, 2, 3]}, {"do": "buy"}, {"do": "end_turn"})
    assert g.players[0].position == 6 and g.owner[6] == 0
    # Mr Monopoly: "déplacez-vous d'autant de cases que le nombre de points indiqués sur les
    # deux dés blancs" (3 -> Rue Lecourbe, Ann's), "puis ... arrêtez-vous sur la première
    # propriété non encore achetée" (Rue de Ménilmontant, 4); "si vous possédez tous les
    # terrains d'un même groupe, sauf un, ... un loyer double": 2 x 4 = 8
    g, ev = ok(g, {"do": "roll", "dice": [1, 2, "mr_monopoly"]})
    assert ("Bo", "Ann", 8, "rent") in transfers(ev)
    assert g.players[1].position == 4 and g.top is not None and g.top.kind is PendingKind.BUY
    g, _ = ok(g, {"do": "buy"}, {"do": "end_turn"})
    # the bus: move by the white dice (3 -> Rue Lecourbe, 8 again), then "prenez la carte
    # TICKET DE BUS située au-dessus du paquet"
    g, ev = ok(g, {"do": "roll", "dice": [2, 1, "bus"]})
    assert ("Cy", "Ann", 8, "rent") in transfers(ev)
    assert g.top is not None and g.top.kind is PendingKind.DRAW and g.top.deck == "bus_tickets"
    g, _ = ok(g, {"do": "draw"})
    assert len(g.players[2].bus_tickets) == 1
    assert cash(g) == [2500 - 200 + 16, 2500 - 8 - 80, 2500 - 8]


def test_pl_a_bail_that_cash_cannot_pay_after_the_third_roll_is_bankruptcy() -> None:
    # Ann is in jail with 40 and Ul. Konopacka (mortgageable for 30: 70 could be raised)
    g = arrange(start(("Ann", "Bo"), edition="pl"), jail=[0], cash={0: 40}, owners={1: 0})
    for ann, bo in (([1, 2], [4, 6]), ([1, 3], [4, 6])):  # two failed rolls; Bo moves on
        g, _ = ok(g, {"do": "roll", "dice": ann}, {"do": "end_turn"},
                  {"do": "roll", "dice": bo}, {"do": "end_turn"})
    assert g.players[0].in_jail and g.players[0].cash == 40
    # "Gracz, któremu przez trzy kolejne rundy nie uda się wyrzucić dubletu, płaci kaucję i
    # wychodzi. Jeśli nie ma z czego zapłacić kaucji, staje się bankrutem": 50 > 40
    g, ev = ok(g, {"do": "roll", "dice": [2, 3]})
    assert g.players[0].bankrupt and ("Ann", None, 40, "bankruptcy") in transfers(ev)
    assert g.owner[1] == BANK  # "a jego nieruchomości przejmuje bank"
    assert g.winner == 1  # the last player not bankrupt
