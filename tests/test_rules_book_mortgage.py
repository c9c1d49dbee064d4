"""Mortgages by the rulebooks: taking, lifting, deeds changing hands, buildings beside them.

Every expected amount is worked out here from the rulebook's sentence and the printed deed
(quoted beside it), never read back from the engine. The rulebooks: 000 Swedish, 001 Swiss
FR/DE, 002 Mega and classic euro FR/NL, 003 Polish, 004 Russian (shared/seeds/).
"""

from __future__ import annotations

import pytest
from rules_helpers import arrange, ok, refused, start, transfers

from companion.rules import PendingKind
from companion.rules.view import restore, snapshot

# --- a mortgaged deed received from another player, kept, lifted later ---------------------

#: edition -> (the deed: Rue Lecourbe / Hornsgatan, 3; its mortgage value; the interest due
#: at once on receiving it; what lifting it later costs), worked out from the rulebook:
KEPT = {
    # classic FR «il paie aussitôt les 10 % d'intérêts ... puis, plus tard, la valeur de
    # l'hypothèque plus encore 10 % d'intérêts»: value 30, 3 now, 30 + 3 later
    "classic-eur": (30, 3, 33),
    "classic-en": (30, 3, 33),
    # CH-DE «Kündigt er bei Erhalt der Besitzrechtkarte die Hypothek nicht, muss er trotzdem
    # die fälligen 10% Zinsen bezahlen. Hebt er die Hypothek später auf, zahlt er weitere 10%
    # zusätzlich zur Hypothekensumme»: value 600, 60 now, 600 + 60 later
    "ch": (600, 60, 660),
    # NL «kiezen om uitsluitend de 10% rente te betalen (dat is verplicht) en de hypotheek te
    # behouden. Wanneer de hypotheek later wordt afgelost, moet de eigenaar de
    # hypotheekwaarde plus opnieuw 10% rente betalen» (the Mega deed of Rue Lecourbe: 30)
    "mega": (30, 3, 33),
    # SV «Löser han ej lånet, betalar han likväl 10 % ränta, löser han det senare betalar
    # han även nu 10 % ränta utöver kapitalskulden»; «Beloppet avrundas till närmaste
    # 50-talet kronor»: value 600, 10 % = 60 rounds to 50, later 600 + 50 = 650
    "sv": (600, 50, 650),
}


@pytest.mark.parametrize("ed_id", sorted(KEPT))
def test_a_mortgaged_deed_bought_kept_and_lifted_later_costs_the_interest_again(
        ed_id: str) -> None:
    value, now, later = KEPT[ed_id]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={3: 0}, mortgaged=[3])
    cash = [p.cash for p in g.players]
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [3]},
                   "take": {"cash": 100}})
    assert ("Bo", None, now, "mortgage_interest") in transfers(ev)
    assert g.top is not None and g.top.kind is PendingKind.LIFT_MORTGAGES
    g, _ = ok(g, {"do": "decline", "by": "Bo"})  # keeps the mortgage
    g, ev = ok(g, {"do": "unmortgage", "by": "Bo", "square": 3})
    assert transfers(ev) == [("Bo", None, later, "mortgage_lift")]
    assert [p.cash for p in g.players] == [cash[0] + 100, cash[1] - 100 - now - later]
    assert value + now == later  # the interest twice in all: once now, once on lifting


@pytest.mark.parametrize("ed_id", sorted(KEPT))
def test_a_mortgaged_deed_bought_and_lifted_at_once_costs_value_and_interest_once(
        ed_id: str) -> None:
    # FR «L'acquéreur peut alors décider de faire lever l'hypothèque immédiatement en payant
    # la valeur de l'hypothèque plus les 10 % d'intérêts»; SV «får den nye ägaren lösa lånet
    # genast, om han så vill, men måste betala 10 % ränta»
    value, now, _ = KEPT[ed_id]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={3: 0}, mortgaged=[3])
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [3]}})
    g, ev2 = ok(g, {"do": "unmortgage", "by": "Bo", "square": 3})
    assert ("Bo", None, now, "mortgage_interest") in transfers(ev)
    assert transfers(ev2) == [("Bo", None, value, "mortgage_lift")]
    # lifted, the deed is the owner's like any other: mortgaged again by Bo himself, the
    # edition's own rule applies (Sweden: interest on taking, capital only on lifting)
    g, ev = ok(g, {"do": "mortgage", "by": "Bo", "square": 3})
    g, ev = ok(g, {"do": "unmortgage", "by": "Bo", "square": 3})
    assert transfers(ev) == [("Bo", None, value if ed_id == "sv" else value + now,
                              "mortgage_lift")]


def test_swedish_creditor_after_a_bankruptcy_pays_ten_percent_then_capital_later_again() -> None:
    # SV «Om en bankrutterad spelare till sin fordringsägare överlämnar intecknad tomt måste
    # den nye ägaren genast betala till banken 10 % ränta på lånet. Samtidigt kan han, om han
    # så vill, lösa inteckningen genom att betala kapitalskulden». Kept and lifted later:
    # the sale's rule (silent here on later: the engine follows «löser han det senare
    # betalar han även nu 10 % ränta utöver kapitalskulden»): 600 + 50
    g = arrange(start(("Ann", "Bo", "Cy"), edition="sv"), owners={3: 0, 37: 1, 39: 1},
                levels={37: 5, 39: 5}, mortgaged=[3], cash={0: 100}, position={0: 36})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})  # Ann on Bo's Ö. Långgatan with a hotel
    assert g.top is not None and g.top.kind is PendingKind.DEBT
    g, ev = ok(g, {"do": "bankrupt"})
    assert ("Bo", None, 50, "mortgage_interest") in transfers(ev)
    g, _ = ok(g, {"do": "decline", "by": "Bo"})
    g, ev = ok(g, {"do": "unmortgage", "by": "Bo", "square": 3})
    assert transfers(ev) == [("Bo", None, 650, "mortgage_lift")]


def test_without_interest_a_received_mortgaged_deed_costs_nothing_now_and_its_value_later(
) -> None:
    # SV «(Obs. Bestämmelserna om ränta kunna, särskilt för nybörjare, helt uteslutas!)»
    g = arrange(start(("Ann", "Bo"), edition="sv", mortgage_interest="none"), owners={3: 0},
                mortgaged=[3])
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [3]}})
    assert not [t for t in transfers(ev) if t[3] == "mortgage_interest"]
    g, _ = ok(g, {"do": "decline", "by": "Bo"})
    g, ev = ok(g, {"do": "unmortgage", "by": "Bo", "square": 3})
    assert transfers(ev) == [("Bo", None, 600, "mortgage_lift")]


def test_a_kept_mortgage_survives_a_snapshot_and_is_forgotten_once_lifted() -> None:
    g = arrange(start(("Ann", "Bo"), edition="sv"), owners={3: 0}, mortgaged=[3])
    g, _ = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [3]}},
              {"do": "decline", "by": "Bo"})
    again = restore(snapshot(g), g.edition)
    g2, ev = ok(again, {"do": "unmortgage", "by": "Bo", "square": 3})
    assert transfers(ev) == [("Bo", None, 650, "mortgage_lift")]
    assert "kept_mortgages" not in snapshot(g2)


def test_the_bank_taking_a_bankrupts_deeds_clears_their_kept_mortgages() -> None:
    # Bo kept a mortgaged deed, then cannot pay a tax: «övertar banken alla hans tillgångar
    # och säljer genom auktion till den högstbjudande»; the deed goes up for auction
    # unmortgaged and owes nothing more
    g = arrange(start(("Ann", "Bo", "Cy"), edition="sv"), owners={3: 0}, mortgaged=[3])
    g, _ = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [3]}},
              {"do": "decline", "by": "Bo"})
    assert g.kept_mortgages == (3,)
    g = arrange(g, cash={1: 10}, position={1: 1})
    g, _ = ok(g, {"do": "roll", "dice": [4, 6]}, {"do": "end_turn"},
              {"do": "roll", "dice": [1, 2]})  # Bo: 1 + 3 -> Inkomstskatt (4)
    g, _ = ok(g, {"do": "bankrupt", "by": "Bo"})
    assert g.owner[3] < 0 and not g.mortgaged[3] and g.kept_mortgages == ()
    assert g.top is not None and g.top.kind is PendingKind.AUCTION and g.top.square == 3


# --- mortgaging a lot of a built group --------------------------------------------------------

# Only the lot's own buildings go back first: SV «Alla byggnader på en tomt måste säljas
# tillbaka till banken innan tomten kan intecknas»; CH-DE «Alle Gebäude auf einem Grundstück
# müssen an die Bank zurückverkauft werden, ehe dieses Grundstück hypothekarisch belastet
# werden darf»; classic and Mega FR «vendez tout d'abord les bâtiments de cette propriété»;
# NL «Verkoop eerst alle eventuele bebouwingen»; RU «Вы можете полностью освободить только
# участок, подлежащий залогу, а на остальных участках этого цвета оставить по одному дому».
# Poland is silent (the classic rule applies).

#: edition -> (a whole group, the lot to mortgage, its house price, its mortgage value, the
#: interest paid on taking the loan), from the printed deeds
GROUPS = {
    # Rue de Vaugirard (6) of the light blues 6, 8, 9: house 50, mortgage 50
    "classic-eur": ((6, 8, 9), 6, 50, 50, 0),
    "classic-en": ((6, 8, 9), 6, 50, 50, 0),
    "ru-monopolist": ((6, 8, 9), 6, 50, 50, 0),
    # PL «Pożyczka wynosi wtedy połowę ceny obiektu»: half of 100
    "pl": ((6, 8, 9), 6, 50, 50, 0),
    # x 20: house 1 000, mortgage 1 000; SV «Räntan är 10 % och betalas när lånet erhålls»:
    # 100 (already a multiple of 50)
    "ch": ((6, 8, 9), 6, 1000, 1000, 0),
    "sv": ((6, 8, 9), 6, 1000, 1000, 100),
    # Mega: the browns 1, 3, 4, the whole group; Boulevard de Belleville (1): house 50,
    # mortgage 30
    "mega": ((1, 3, 4), 1, 50, 30, 0),
}


@pytest.mark.parametrize("ed_id", sorted(GROUPS))
def test_a_lot_is_mortgaged_once_its_own_houses_are_sold_the_others_keep_theirs(
        ed_id: str) -> None:
    group, lot, house, value, fee = GROUPS[ed_id]
    others = [s for s in group if s != lot]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={s: 0 for s in group},
                levels={s: 1 for s in group})
    cash = g.players[0].cash
    refused(g, {"do": "mortgage", "square": lot}, "has_buildings")
    # the lot's house back to the bank at half its price, then the loan
    g, ev = ok(g, {"do": "sell_building", "square": lot}, {"do": "mortgage", "square": lot})
    assert (None, "Ann", house // 2, "building_sold") in transfers(ev)
    assert (None, "Ann", value, "mortgage") in transfers(ev)
    assert g.mortgaged[lot] and [g.level[s] for s in others] == [1] * len(others)
    assert g.players[0].cash == cash + house // 2 + value - fee
    # no new house in a group with a mortgaged lot: FR «Aucune maison ne peut être
    # construite sur une propriété si une des propriétés du groupe est hypothéquée»; CH-DE
    # «darf auf der ganzen Farbgruppe nicht gebaut werden»; RU «строительство на всех
    # участках этой группы приостанавливается до момента выкупа»; PL «nie może ... stawiać
    # domów i hoteli w dzielnicy»
    refused(g, {"do": "build", "square": others[0]}, "group_mortgaged")


@pytest.mark.parametrize("ed_id", sorted(GROUPS))
def test_even_building_still_holds_when_stripping_a_lot_to_mortgage_it(ed_id: str) -> None:
    # FR «La vente des maisons doit elle aussi se faire uniformément»; with two houses on
    # every lot the lot goes down to one, not to none, while the others keep two
    group, lot, _, _, _ = GROUPS[ed_id]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={s: 0 for s in group},
                levels={s: 2 for s in group})
    g, _ = ok(g, {"do": "sell_building", "square": lot})
    refused(g, {"do": "sell_building", "square": lot}, "uneven")
    refused(g, {"do": "mortgage", "square": lot}, "has_buildings")


@pytest.mark.parametrize("ed_id", sorted(GROUPS))
def test_building_starts_again_once_the_groups_mortgage_is_lifted(ed_id: str) -> None:
    # FR «Quand il n'y a plus d'hypothèques sur aucun des terrains d'un groupe, le
    # propriétaire peut recommencer à construire»; NL «Er mogen pas huizen gekocht worden
    # wanneer alle hypotheek van een kleur zijn afgelost»
    group, lot, house, _, _ = GROUPS[ed_id]
    others = [s for s in group if s != lot]
    g = arrange(start(("Ann", "Bo"), edition=ed_id), owners={s: 0 for s in group},
                levels={s: 1 for s in others}, mortgaged=[lot])
    refused(g, {"do": "build", "square": lot}, "group_mortgaged")
    g, _ = ok(g, {"do": "unmortgage", "square": lot})
    cash = g.players[0].cash
    g, ev = ok(g, {"do": "build", "square": lot})
    assert transfers(ev) == [("Ann", None, house, "building")]
    assert g.players[0].cash == cash - house and g.level[lot] == 1


def test_the_whole_group_stripped_first_as_a_house_rule() -> None:
    # off (a table's house rule), the engine's former rule: no mortgage while any lot of the
    # group has a building
    g = arrange(start(("Ann", "Bo"), mortgage_strips_only_lot=False),
                owners={6: 0, 8: 0, 9: 0}, levels={8: 1, 9: 1})
    refused(g, {"do": "mortgage", "square": 6}, "has_buildings")
    g = arrange(g, levels={8: 0, 9: 0})
    ok(g, {"do": "mortgage", "square": 6})
