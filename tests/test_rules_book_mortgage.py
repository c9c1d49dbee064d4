"""Mortgages by the rulebooks: taking, lifting, deeds changing hands, buildings beside them.

Every expected amount is worked out here from the rulebook's sentence and the printed deed
(quoted beside it), never read back from the engine. The rulebooks: 000 Swedish, 001 Swiss
FR/DE, 002 Mega and classic euro FR/NL, 003 Polish, 004 Russian (shared/seeds/).
"""

from __future__ import annotations

import pytest
from rules_helpers import arrange, ok, start, transfers

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
