"""Rulebook sentences the other rule tests did not check yet (docs/rules-coverage.md).

Every expected amount is worked out here from the rulebook's sentence and the printed deed
(quoted beside it), never read back from the engine. The rulebooks: 000 Swedish, 001 Swiss
FR/DE, 002 Mega and classic euro FR/NL, 003 Polish, 004 Russian (shared/seeds/).
"""

from __future__ import annotations

import pytest
from rules_helpers import arrange, edition, ok, refused, start, transfers

from companion.rules import PendingKind
from companion.rules.edition import OWNABLE

#: the editions played on the classic 40-square board
CLASSIC_BOARD = ("classic-eur", "classic-en", "sv", "ch", "pl", "ru-monopolist")


@pytest.mark.parametrize("ed_id", CLASSIC_BOARD)
def test_the_box_holds_32_houses_12_hotels_28_deeds_and_16_cards_a_deck(ed_id: str) -> None:
    # SV «32 st bostadshus ... 12 st hotell ... 16 st chanskort, 16 st allmänna kort, 28 st
    # lagfartsbevis»; CH-DE «28 Eigentumsurkunden, 16 Chancekarten ... 32 Häuser, 12 Hotels»;
    # classic FR «28 cartes de Propriété, 16 cartes Chance, 16 cartes Caisse de
    # Communauté ... 32 Maisons, 12 Hôtels»
    ed = edition(ed_id)
    assert (ed.houses, ed.hotels) == (32, 12)
    assert sum(1 for s in ed.squares if s.kind in OWNABLE) == 28
    assert sorted(len(cards) for cards in ed.decks.values()) == [16, 16]
    g = start(edition=ed_id)
    assert (g.bank_houses, g.bank_hotels) == (32, 12)


def test_the_bank_never_runs_out_of_money() -> None:
    # FR «La banque ne fait jamais faillite : elle peut mettre en circulation autant d'argent
    # que nécessaire»: the bank pays whatever is due, from no balance of its own; eight
    # deeds mortgaged in a row are all paid at their printed values
    g = arrange(start(("Ann", "Bo")), owners={s: 0 for s in (1, 3, 5, 6, 8, 9, 12, 39)})
    paid = 0
    for s in (1, 3, 5, 6, 8, 9, 12, 39):
        g, ev = ok(g, {"do": "mortgage", "square": s})
        paid += sum(t[2] for t in transfers(ev) if t[3] == "mortgage")
    # the deeds' values: 30 + 30 + 100 + 50 + 50 + 60 + 75 + 200
    assert paid == 595 and g.players[0].cash == 1500 + 595


def test_turns_pass_to_the_left_in_the_order_the_table_gives() -> None:
    # FR «Le joueur qui fait le plus grand score joue le premier, puis c'est au tour du
    # joueur situé à sa gauche»: the table rolls for the order with its own dice and names
    # the players in that order; the device plays them in it
    g = start(("Cy", "Ann", "Bo"))
    seen = []
    for dice in ([1, 2], [1, 3], [2, 3], [2, 4]):
        seen.append(g.players[g.current].name)
        g, _ = ok(g, {"do": "roll", "dice": dice})
        while g.top is not None:
            g, _ = ok(g, {"do": "decline"} if g.top.kind is PendingKind.BUY else
                      {"do": "draw"} if g.top.kind is PendingKind.DRAW else {"do": "close_auction"})
        g, _ = ok(g, {"do": "end_turn"})
    assert seen == ["Cy", "Ann", "Bo", "Cy"]


@pytest.mark.parametrize(("ed_id", "rent"), [("classic-eur", 12), ("sv", 240), ("ch", 240),
                                             ("pl", 12), ("classic-en", 12)])
def test_a_whole_group_with_one_lot_built_still_doubles_the_unbuilt_ones(ed_id: str,
                                                                        rent: int) -> None:
    # FR «Si vous avez toutes les propriétés d'un groupe ... et que seulement une ou deux
    # d'entre elles comportent une construction, vous pouvez demander un double loyer pour la
    # ou les propriétés du groupe sans bâtiments»; NL «mag u nog steeds dubbele huur vragen»:
    # Rue de Vaugirard's (8) bare rent 6 (Sweden, Switzerland: 120), doubled; 6 has a house
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={6: 1, 8: 1, 9: 1},
                levels={6: 1}, position={0: 5})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert [t for t in transfers(ev) if t[3] == "rent"] == [("Ann", "Bo", rent, "rent")]


def test_building_between_the_other_players_turns() -> None:
    # FR «Vous pouvez acheter quand c'est votre tour de jouer ou entre les tours des autres
    # joueurs»; RU «во время своего хода или в перерыве между ходами других игроков»: Bo
    # builds on his browns while it is Ann's turn, 50 a house
    g = arrange(start(("Ann", "Bo")), owners={1: 1, 3: 1})
    assert g.current == 0
    g, ev = ok(g, {"do": "build", "by": "Bo", "square": 1})
    assert transfers(ev) == [("Bo", None, 50, "building")] and g.level[1] == 1


def test_four_houses_at_most_then_one_hotel_and_nothing_more() -> None:
    # SV «intill högst fyra hus på varje tomt»; «Endast ett hotell får byggas på varje tomt»
    g = arrange(start(("Ann", "Bo"), edition="sv"), owners={1: 0, 3: 0}, levels={1: 4, 3: 4})
    g, ev = ok(g, {"do": "build", "square": 1})  # the fifth level is the hotel: 1 000 Kr
    assert g.has_hotel(1) and transfers(ev) == [("Ann", None, 1000, "building")]
    assert g.bank_houses == 32 - 8 + 4 and g.bank_hotels == 11  # «de fyra husen» go back
    refused(g, {"do": "build", "square": 1}, "max_buildings")


@pytest.mark.parametrize("ed_id", ["classic-eur", "ch", "sv", "ru-monopolist"])
def test_free_parking_does_nothing(ed_id: str) -> None:
    # CH-DE «Hier passiert gar nichts»; FR «Il n'y a aucune pénalité pour s'arrêter sur
    # cette case»; RU «Прекрасное место для отдыха!»
    g = arrange(start(("Ann", "Bo"), edition=ed_id), position={0: 17})
    cash = [p.cash for p in g.players]
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]})
    assert g.players[0].position == 20 and not transfers(ev) and g.top is None
    assert [p.cash for p in g.players] == cash
    ok(g, {"do": "end_turn"})


def test_a_jailed_player_still_builds_trades_and_collects() -> None:
    # SV «En spelare kan köpa och bygga hus, sälja eller köpa fastighet och indriva hyror
    # fastän han är i fängelset»; CH-DE «kann Miete kassieren und Grundstücke erwerben und
    # verkaufen, sowie Häuser und/oder Hotels bauen»
    g = arrange(start(("Ann", "Bo"), edition="sv"), owners={1: 1, 3: 1, 6: 1}, jail=[1])
    g, ev = ok(g, {"do": "build", "by": "Bo", "square": 1})
    assert transfers(ev) == [("Bo", None, 1000, "building")]
    g, ev = ok(g, {"do": "trade", "from": "Bo", "to": "Ann", "give": {"squares": [6]},
                   "take": {"cash": 2500}})
    assert g.owner[6] == 0
    # and collects: Ann from 1 + 2 lands on Bo's Hornsgatan (3), bare rent 80 Kr
    g = arrange(start(("Ann", "Bo"), edition="sv"), owners={3: 1}, jail=[1], position={0: 1})
    g, ev = ok(g, {"do": "roll", "dice": [1, 1]})
    assert ("Ann", "Bo", 80, "rent") in transfers(ev)


def test_nobody_takes_a_mortgaged_deed_by_paying_the_mortgage() -> None:
    # FR «Aucun joueur ne peut l'acquérir, même en payant l'hypothèque à la Banque»; CH-DE
    # «Kein anderer Spieler kann sich ein solches Grundstück aneignen, indem er einfach die
    # Hypothek bezahlt»
    g = arrange(start(("Ann", "Bo")), owners={39: 0}, mortgaged=[39])
    refused(g, {"do": "unmortgage", "by": "Bo", "square": 39}, "not_owner")
    assert g.owner[39] == 0 and g.mortgaged[39]


def test_a_debt_paid_partly_in_a_deed_the_creditor_accepts() -> None:
    # SV «Om en spelare är skyldig mera i hyra än han kan betala kontant kan han erlägga
    # betalning dels i kontanter, dels i tomter»; FR «Le créancier peut alors choisir une ou
    # plusieurs propriétés (même si elles sont hypothéquées)». Ann owes Bo 175 (Avenue des
    # Champs-Élysées, 37, one house) and has 100: she hands Bo her mortgaged Rue Lecourbe
    # (3), which he takes for the 75 missing
    g = arrange(start(("Ann", "Bo")), owners={37: 1, 39: 1, 3: 0}, levels={37: 1, 39: 1},
                mortgaged=[3], cash={0: 100}, position={0: 34})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    assert g.top is not None and g.top.kind is PendingKind.DEBT and g.top.amount == 175
    # the deed for 75: Bo gives 75, which settles the debt with Ann's 100
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [3]},
                   "take": {"cash": 75}})
    # Bo took a mortgaged deed: 10 % of its value 30 at once, 3; he keeps the mortgage,
    # and Ann's debt is paid from the cash she now has
    assert ("Bo", None, 3, "mortgage_interest") in transfers(ev)
    g, ev = ok(g, {"do": "decline", "by": "Bo"})
    assert transfers(ev) == [("Ann", "Bo", 175, "rent")] and g.top is None
    assert g.owner[3] == 1 and g.players[0].cash == 0
    assert g.players[1].cash == 1500 - 75 + 175 - 3


def test_no_deed_is_sold_to_the_bank() -> None:
    # FR «Une propriété hypothéquée ne peut pas être vendue à la Banque, mais seulement à
    # d'autres joueurs»: the bank buys buildings back, never a deed; a bare lot has nothing
    # to sell
    g = arrange(start(("Ann", "Bo")), owners={39: 0}, mortgaged=[39])
    refused(g, {"do": "sell_building", "square": 39}, "max_buildings")
    g, _ = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [39]},
                  "take": {"cash": 50}})
    assert g.owner[39] == 1


def test_swedish_building_on_a_lifted_lot_costs_the_capital_then_the_full_house_price() -> None:
    # SV «Vill en spelare bygga på intecknad tomt måste han lösa inteckningen plus 10 %
    # ränta, och köpa nytt hus av banken till fulla priset». The same rulebook has the
    # interest paid when the loan is taken («Räntan är 10 % och betalas när lånet
    # erhålls»): the engine follows that rule and does not ask the interest twice for a
    # player's own mortgage. Lifting Hornsgatan (3, value 600) costs 600, the house 1 000
    g = arrange(start(("Ann", "Bo"), edition="sv"), owners={1: 0, 3: 0}, mortgaged=[3])
    refused(g, {"do": "build", "square": 1}, "group_mortgaged")
    g, ev = ok(g, {"do": "unmortgage", "square": 3}, {"do": "build", "square": 3})
    assert transfers(ev) == [("Ann", None, 600, "mortgage_lift"),
                             ("Ann", None, 1000, "building")]


def test_tokens_share_a_square_and_a_hotel_goes_on_any_lot_of_the_group() -> None:
    # SV «En eller flera brickor kunna samtidigt ligga på samma ruta»; «Har han detta, får
    # han köpa ett hotell från banken och uppföra det på vilken tomt som helst inom
    # färggruppen»: Hornsgatan (3) before Västerlånggatan (1), 1 000 Kr
    g = arrange(start(("Ann", "Bo"), edition="sv"), position={0: 7, 1: 7},
                owners={1: 1, 3: 1}, levels={1: 4, 3: 4})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"},
              {"do": "roll", "dice": [2, 1]})
    assert g.players[0].position == g.players[1].position == 10
    g, ev = ok(g, {"do": "build", "by": "Bo", "square": 3})
    assert g.has_hotel(3) and g.level[1] == 4
    assert transfers(ev) == [("Bo", None, 1000, "building")]
