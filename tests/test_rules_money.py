"""Mortgages, trades, payments, debts and bankruptcy."""

from __future__ import annotations

from rules_helpers import arrange, ok, refused, start, transfers


def test_mortgage_pays_value_and_lifting_costs_value_plus_ten_percent() -> None:
    g = arrange(start(), owners={39: 0})
    g, ev = ok(g, {"do": "mortgage", "square": 39})
    assert g.mortgaged[39] and (None, "Ann", 200, "mortgage") in transfers(ev)
    refused(g, {"do": "mortgage", "square": 39}, "already_mortgaged")
    g, ev = ok(g, {"do": "unmortgage", "square": 39})
    assert not g.mortgaged[39] and ("Ann", None, 220, "mortgage_lift") in transfers(ev)
    refused(g, {"do": "unmortgage", "square": 39}, "not_mortgaged")


def test_no_mortgage_with_buildings_on_the_lot_but_beside_a_built_lot() -> None:
    g = arrange(start(), owners={1: 0, 3: 0}, levels={1: 1})
    refused(g, {"do": "mortgage", "square": 1}, "has_buildings")
    g, _ = ok(g, {"do": "mortgage", "square": 3})  # «les bâtiments de cette propriété»
    assert g.mortgaged[3] and g.level[1] == 1


def test_interest_paid_on_taking_rounded_then_lifting_costs_the_capital() -> None:
    g = arrange(start(mortgage_interest="on_take", mortgage_interest_rounding=50),
                owners={39: 0, 37: 0})
    g, ev = ok(g, {"do": "mortgage", "square": 39})  # 10 % of 200 = 20: rounds to 0
    assert (None, "Ann", 200, "mortgage") in transfers(ev)
    assert not [t for t in transfers(ev) if t[3] == "mortgage_interest"]
    g = arrange(start(mortgage_interest="on_take", mortgage_interest_rounding=10),
                owners={39: 0, 37: 0})
    g, ev = ok(g, {"do": "mortgage", "square": 37})  # 17.5 -> 20 at a rounding of 10
    assert ("Ann", None, 20, "mortgage_interest") in transfers(ev)
    g, ev = ok(g, {"do": "unmortgage", "square": 37})
    assert ("Ann", None, 175, "mortgage_lift") in transfers(ev)


def test_no_interest_option() -> None:
    g = arrange(start(mortgage_interest="none"), owners={39: 0}, mortgaged=[39])
    g, ev = ok(g, {"do": "unmortgage", "square": 39})
    assert ("Ann", None, 200, "mortgage_lift") in transfers(ev)


def test_trade_cash_deeds_and_cards_both_ways() -> None:
    g = arrange(start(), owners={1: 0, 6: 1}, jail_cards={1: ["chest-jail-free"]})
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo",
                   "give": {"cash": 100, "squares": [1], "cards": 0},
                   "take": {"cash": 0, "squares": ["rue-de-vaugirard"], "cards": 1}})
    assert g.owner[1] == 1 and g.owner[6] == 0
    assert g.players[0].jail_cards == ["chest-jail-free"]
    assert ("Ann", "Bo", 100, "trade") in transfers(ev)


def test_trade_refusals() -> None:
    g = arrange(start(), owners={1: 0, 3: 0, 6: 1}, levels={3: 1})
    refused(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [1]}},
            "has_buildings")
    refused(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [6]}}, "not_owner")
    refused(g, {"do": "trade", "from": "Ann", "to": "Ann", "give": {"cash": 1}}, "same_player")
    refused(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"cash": 5000}},
            "insufficient_funds")
    refused(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"cards": 1}}, "no_jail_card")
    refused(g, {"do": "trade", "from": "Ann", "to": "Zed", "give": {"cash": 1}}, "unknown_player")


def test_mortgaged_deed_changing_hands_costs_ten_percent_then_lift_at_value() -> None:
    g = arrange(start(), owners={39: 0, 37: 0}, mortgaged=[39, 37])
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo",
                   "give": {"squares": [39, 37]}, "take": {"cash": 10}})
    assert ("Bo", None, 20 + 18, "mortgage_interest") in transfers(ev)
    assert g.top.kind == "lift_mortgages" and g.top.squares == (37, 39)
    g, ev = ok(g, {"do": "unmortgage", "square": 39})
    assert ("Bo", None, 200, "mortgage_lift") in transfers(ev)  # the value only, now
    g, ev = ok(g, {"do": "decline", "by": "Bo"})  # keeps 37 mortgaged
    assert g.top is None and g.mortgaged[37]
    g, ev = ok(g, {"do": "unmortgage", "square": 37})  # later: value + 10 % again
    assert ("Bo", None, 175 + 18, "mortgage_lift") in transfers(ev)


def test_redeem_at_once_option() -> None:
    g = arrange(start(mortgaged_transfer="redeem_at_once"), owners={39: 0}, mortgaged=[39])
    g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [39]}})
    assert not g.mortgaged[39] and ("Bo", None, 220, "mortgage_lift") in transfers(ev)
    assert g.top is None


def test_pay_between_players_and_the_bank_never_on_credit() -> None:
    g, ev = ok(start(), {"do": "pay", "from": "Ann", "to": "Bo", "amount": 50},
               {"do": "pay", "from": "bank", "to": "Cy", "amount": 20})
    assert [p.cash for p in g.players] == [1450, 1550, 1520]
    refused(g, {"do": "pay", "from": "Ann", "to": "Bo", "amount": 5000}, "insufficient_funds")
    refused(g, {"do": "pay", "from": "Ann", "to": "Bo", "amount": 0}, "bad_command")


def debt_to_bo(amount: int = 2000, **arr: object) -> object:
    """Ann lands on Bo's Rue de la Paix with a hotel and owes more than she has."""
    arr.setdefault("owners", {})
    arr["owners"].update({37: 1, 39: 1})  # type: ignore[attr-defined]
    arr.setdefault("levels", {})
    arr["levels"].update({37: 5, 39: 5})  # type: ignore[attr-defined]
    g = arrange(start(), position={0: 36}, **arr)  # type: ignore[arg-type]
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    assert g.top.kind == "debt" and g.top.amount == amount
    return g


def test_bankrupt_to_a_player_hands_everything_over() -> None:
    g = debt_to_bo(owners={1: 0, 3: 0, 6: 0}, levels={1: 1, 3: 1}, mortgaged=[6], cash={0: 300},
                   jail_cards={0: ["chance-jail-free"]})
    refused(g, {"do": "bankrupt", "by": "Bo"}, "not_in_debt")
    g, ev = ok(g, {"do": "bankrupt"})
    ann, bo = g.players[0], g.players[1]
    assert ann.bankrupt and ann.cash == 0 and bo.jail_cards == ["chance-jail-free"]
    assert g.owner[1] == g.owner[3] == g.owner[6] == 1 and g.level[1] == g.level[3] == 0
    assert ("Ann", "Bo", 300 + 50, "bankruptcy") in transfers(ev)  # cash + buildings at half
    assert ("Bo", None, 5, "mortgage_interest") in transfers(ev)
    assert g.top.kind == "lift_mortgages" and g.top.player == 1
    assert g.current == 1


def test_bankrupt_to_the_bank_auctions_every_deed() -> None:
    g = arrange(start(), position={0: 1}, owners={6: 0, 8: 0}, mortgaged=[8], cash={0: 10},
                jail_cards={0: ["chest-jail-free"]})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})  # income tax 200
    assert g.top.kind == "debt" and g.top.creditor == -1
    g, ev = ok(g, {"do": "bankrupt"})
    assert g.players[0].bankrupt and g.decks["community_chest"][-1] == "chest-jail-free"
    assert g.top.kind == "auction" and g.top.square == 6 and g.top.queue == (8,)
    assert not g.mortgaged[6] and not g.mortgaged[8]
    g, _ = ok(g, {"do": "bid", "by": "Cy", "amount": 30}, {"do": "pass", "by": "Bo"})
    assert g.owner[6] == 2 and g.top.square == 8
    g, _ = ok(g, {"do": "pass", "by": "Bo"}, {"do": "pass", "by": "Cy"})
    assert g.owner[8] == -1 and g.top is None


def test_last_player_standing_wins_and_the_game_is_over() -> None:
    g = arrange(start(("Ann", "Bo")), position={0: 36}, owners={37: 1, 39: 1},
                levels={37: 5, 39: 5})
    g, _ = ok(g, {"do": "roll", "dice": [1, 2]})
    g, ev = ok(g, {"do": "bankrupt"})
    assert g.winner == 1 and {"kind": "winner", "player": "Bo"} in ev
    refused(g, {"do": "roll"}, "game_over")


def test_money_is_conserved_through_a_bankruptcy() -> None:
    g = debt_to_bo(owners={1: 0, 3: 0}, levels={1: 2, 3: 2}, cash={0: 100})
    before = sum(p.cash for p in g.players)
    g2, ev = ok(g, {"do": "bankrupt"})
    bank_out = sum(t[2] for t in transfers(ev) if t[0] is None)
    bank_in = sum(t[2] for t in transfers(ev) if t[1] is None)
    assert sum(p.cash for p in g2.players) == before + bank_out - bank_in
