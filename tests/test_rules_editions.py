"""Every RULES.md difference, played with the edition that has it (its own data and options).

The option mechanics are tested on the classic board in test_rules_variants.py; here each
edition's defaults must give its rulebook's behaviour, so a wrong default in a data file
fails a test.
"""

from __future__ import annotations

from rules_helpers import arrange, edition, ok, refused, start, transfers


def lot_pair(ed_id: str, group_size: int = 2) -> tuple[int, ...]:
    """The first colour group with `group_size` lots on the edition's board."""
    ed = edition(ed_id)
    return next(m for g, m in ed.groups.items()
                if ed.squares[m[0]].kind == "lot" and len(m) == group_size)


def landing(ed_id: str, square: int, **arr: object) -> object:
    g = arrange(start(edition=ed_id), position={0: (square - 3) % len(edition(ed_id).squares)},
                **arr)  # type: ignore[arg-type]
    return ok(g, {"do": "roll", "dice": [1, 2]})


# --- double rent on a complete group while a lot of it is mortgaged ----------------------

def test_doubling_kept_with_a_mortgaged_lot_in_classic_euro_and_lost_in_swiss_and_russian(
) -> None:
    for ed_id, doubled in (("classic-eur", True), ("classic-en", True), ("sv", True),
                           ("ch", False), ("ru-monopolist", False)):
        a, b = lot_pair(ed_id)
        g, ev = landing(ed_id, b, owners={a: 1, b: 1}, mortgaged=[a])
        base = edition(ed_id).squares[b].rent[0]
        assert ("Ann", "Bo", base * (2 if doubled else 1), "rent") in transfers(ev), ed_id


# --- mortgages --------------------------------------------------------------------------

def test_swedish_interest_is_paid_when_mortgaging_rounded_to_50_kr_and_lifting_costs_capital(
) -> None:
    a, b = lot_pair("sv")
    value = edition("sv").squares[b].mortgage  # 600 Kr for Hornsgatan
    g, ev = ok(arrange(start(edition="sv"), owners={b: 0}), {"do": "mortgage", "square": b})
    interest = round(value * 0.10 / 50) * 50
    assert (None, "Ann", value, "mortgage") in transfers(ev)
    assert ("Ann", None, interest, "mortgage_interest") in transfers(ev) and interest % 50 == 0
    g, ev = ok(g, {"do": "unmortgage", "square": b})
    assert ("Ann", None, value, "mortgage_lift") in transfers(ev)


def test_classic_swiss_and_russian_lifting_costs_value_plus_ten_percent() -> None:
    for ed_id in ("classic-eur", "ch", "ru-monopolist", "pl"):
        a, b = lot_pair(ed_id)
        value = edition(ed_id).squares[b].mortgage
        g = arrange(start(edition=ed_id), owners={b: 0}, mortgaged=[b])
        g, ev = ok(g, {"do": "unmortgage", "square": b})
        assert ("Ann", None, value + round(value * 0.1), "mortgage_lift") in transfers(ev), ed_id


def test_mortgaged_deed_sold_russian_buyer_redeems_at_once_others_pay_ten_percent() -> None:
    for ed_id, redeem in (("classic-eur", False), ("sv", False), ("ch", False),
                          ("ru-monopolist", True)):
        a, b = lot_pair(ed_id)
        value = edition(ed_id).squares[b].mortgage
        g = arrange(start(edition=ed_id), owners={b: 0}, mortgaged=[b])
        g, ev = ok(g, {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [b]}})
        if redeem:
            assert not g.mortgaged[b] and g.top is None, ed_id
        else:
            assert g.mortgaged[b] and g.top.kind == "lift_mortgages", ed_id
            assert any(t[0] == "Bo" and t[3] == "mortgage_interest" for t in transfers(ev))
        del value


def test_every_edition_mortgage_strips_only_the_lot() -> None:
    for ed_id in ("ru-monopolist", "classic-eur", "classic-en", "sv", "ch", "pl", "mega"):
        ed = edition(ed_id)
        group = next(m for m in ed.groups.values()
                     if ed.squares[m[0]].kind == "lot" and len(m) == 3)
        g = arrange(start(edition=ed_id), owners={s: 0 for s in group},
                    levels={group[1]: 1, group[2]: 1})
        g, _ = ok(g, {"do": "mortgage", "square": group[0]})
        assert g.mortgaged[group[0]] and g.level[group[1]] == 1, ed_id


# --- buildings --------------------------------------------------------------------------

def test_swiss_french_hotels_go_back_together_classic_one_by_one() -> None:
    for ed_id, together in (("ch", True), ("classic-eur", False)):
        a, b = lot_pair(ed_id)
        g = arrange(start(edition=ed_id), owners={a: 0, b: 0}, levels={a: 5, b: 5})
        g, _ = ok(g, {"do": "sell_building", "square": a})
        assert (g.level[a], g.level[b]) == ((4, 4) if together else (4, 5)), ed_id


# --- utilities --------------------------------------------------------------------------

def test_utility_multipliers_per_edition() -> None:
    for ed_id, one, both in (("classic-eur", 4, 10), ("ch", 80, 200), ("sv", 80, 200)):
        ed = edition(ed_id)
        u1, u2 = [s.index for s in ed.squares if s.kind == "utility"]
        g, ev = landing(ed_id, u1, owners={u1: 1})
        assert ("Ann", "Bo", one * 3, "rent") in transfers(ev), ed_id
        g, ev = landing(ed_id, u1, owners={u1: 1, u2: 1})
        assert ("Ann", "Bo", both * 3, "rent") in transfers(ev), ed_id


def test_russian_utility_rent_is_thrown_for() -> None:
    ed = edition("ru-monopolist")
    u1 = next(s.index for s in ed.squares if s.kind == "utility")
    g, ev = landing("ru-monopolist", u1, owners={u1: 1})
    assert g.top.kind == "roll_for_rent" and not transfers(ev)
    g, ev = ok(g, {"do": "roll", "dice": [6, 6]})
    assert ("Ann", "Bo", 4 * 12, "rent") in transfers(ev)


# --- jail -------------------------------------------------------------------------------

def test_swedish_fine_before_the_first_or_second_roll_only() -> None:
    g = arrange(start(edition="sv"), jail=[0])
    g.players[0].jail_turns = 2
    refused(g, {"do": "pay_fine"}, "not_now")
    g = arrange(start(edition="classic-eur"), jail=[0])
    g.players[0].jail_turns = 2
    ok(g, {"do": "pay_fine"})


def test_polish_bail_or_tax_unpayable_is_bankruptcy() -> None:
    ed = edition("pl")
    tax = next(s for s in ed.squares if s.kind == "tax")
    g, ev = landing("pl", tax.index, cash={0: 10}, owners={1: 0})
    assert g.players[0].bankrupt and any(e["kind"] == "bankrupt" for e in ev)
    g, ev = landing("classic-eur", 4, cash={0: 10}, owners={1: 0})
    assert not g.players[0].bankrupt and g.top.kind == "debt"


# --- Free Parking, cards ----------------------------------------------------------------

def test_russian_free_parking_exempts_from_collecting_cards() -> None:
    ed = edition("ru-monopolist")
    birthday = next(c for c in ed.cards.values() if c.effect == "each_player"
                    and c.params["amount"] > 0)
    parking = next(s.index for s in ed.squares if s.kind == "free_parking")
    chest = next(s.index for s in ed.squares if s.kind == birthday.deck)
    g = arrange(start(edition="ru-monopolist"), position={0: chest - 3, 1: parking})
    g, ev = ok(g, {"do": "roll", "dice": [1, 2]}, {"do": "draw", "card": birthday.id})
    payers = {t[0] for t in transfers(ev) if t[1] == "Ann"}
    assert "Bo" not in payers and "Cy" in payers


# --- ending and counting ----------------------------------------------------------------

def test_counting_mortgaged_deeds_per_edition() -> None:
    for ed_id, half in (("classic-eur", False), ("ch", True), ("ru-monopolist", True),
                        ("pl", True)):
        a, b = lot_pair(ed_id)
        price = edition(ed_id).squares[b].price
        g, _ = ok(arrange(start(edition=ed_id), owners={b: 0}, mortgaged=[b]),
                  {"do": "end_game"})
        ann = next(r for r in g.standings if r["name"] == "Ann")
        assert ann["mortgaged"] == (price // 2 if half else price), ed_id


def test_swedish_short_game_only_deals_deeds_classic_short_game_changes_more() -> None:
    sv = start(edition="sv", variant="short")
    assert sum(1 for o in sv.owner if o >= 0) == 2 * len(sv.players)
    assert sv.options.houses_before_hotel == 4 and sv.options.end_after_bankruptcies == 0
    eur = start(edition="classic-eur", variant="short")
    assert eur.options.houses_before_hotel == 3 and eur.options.end_after_bankruptcies == 2


def test_start_cash_salary_and_fine_per_edition() -> None:
    for ed_id, cash, salary, fine in (("classic-eur", 1500, 200, 50), ("sv", 30000, 4000, 1000),
                                      ("ch", 30000, 4000, 1000), ("pl", 1500, 200, 50),
                                      ("ru-monopolist", 1500, 200, 50), ("mega", 2500, 200, 50)):
        g = start(edition=ed_id)
        assert (g.players[0].cash, g.options.salary, g.options.jail_fine) == (
            cash, salary, fine), ed_id
