"""Every money move says why: the engine's reason for each kind of charge, against amounts
worked out by hand from the classic euro rulebook, and said in words (issue: beyond every
banking unit, point 1)."""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import arrange, ok, start

from companion.editions import edition_ids
from companion.game.table.records import Setup
from companion.rules import view
from companion.rules.events import event_from_json
from companion.rules.state import GameState
from companion.words import catalog as i18n
from companion.words.explaining.why_words import explain, topic
from companion.words.move_words import Words

JSON = dict[str, Any]
ANN, BO = 0, 1


def money_moves(events: list[JSON]) -> list[JSON]:
    """The transfers of a command's events."""
    return [e for e in events if e["kind"] == "transfer"]


def said(event: JSON, state: GameState, lang: str = "en") -> str:
    """The reason in words, spaces made plain for comparing."""
    public = view.public_state(state)
    words = Words(Setup.of({"edition": state.edition.id, "options": state.options.to_json(),
                   "currency": i18n.edition_data(state.edition.id)["currency"], **public}),
                  lang, i18n.translator(lang))
    text = explain(event, words)
    assert text is not None, event
    return text.replace(i18n.NBSP, " ")


def only(events: list[JSON], reason: str) -> JSON:
    """The one transfer with this reason."""
    found = [e for e in money_moves(events) if e["reason"] == reason]
    assert len(found) == 1, events
    return found[0]


def test_rent_of_a_whole_group_without_houses_is_double_the_printed_rent() -> None:
    g = arrange(start(), owners={1: BO, 3: BO})
    g, events = ok(g, {"do": "roll", "dice": [1, 2]})  # Ann lands on Rue Lecourbe (rent 4)
    rent = only(events, "rent")
    assert (rent["from"], rent["to"], rent["amount"]) == ("Ann", "Bo", 8)
    assert rent["why"] == {"rule": "rent_full_group", "square": 3,
                           "terms": {"rent": 4, "times": 2},
                           "option": "unbuilt_rent_full_group"}
    assert said(rent, g) == "Rent € 8 = € 4 × 2: Bo owns the whole colour group, no houses"
    assert topic(rent) == "rent"


def test_rent_with_houses_is_the_row_of_the_deed() -> None:
    g = arrange(start(), owners={1: BO, 3: BO}, levels={1: 2, 3: 2})
    g, events = ok(g, {"do": "roll", "dice": [1, 2]})
    rent = only(events, "rent")
    assert rent["amount"] == 60  # Rue Lecourbe, two houses
    assert said(rent, g) == "Rent € 60: Rue Lecourbe with 2 houses"


def test_rent_of_a_lone_lot_and_of_a_mortgaged_group() -> None:
    g = arrange(start(), owners={3: BO})
    g, events = ok(g, {"do": "roll", "dice": [1, 2]})
    assert said(only(events, "rent"), g) == \
        "Rent € 4: the printed rent of Rue Lecourbe, no houses"


def test_station_rent_counts_the_owners_stations() -> None:
    g = arrange(start(), owners={5: BO, 15: BO})
    g, events = ok(g, {"do": "roll", "dice": [2, 3]})
    rent = only(events, "rent")
    assert rent["amount"] == 50
    assert said(rent, g) == "Rent € 50: Bo owns 2 stations"


def test_utility_rent_is_the_dice_times_the_multiplier() -> None:
    g = arrange(start(), owners={12: BO})
    g, events = ok(g, {"do": "roll", "dice": [6, 6]})
    rent = only(events, "rent")
    assert rent["amount"] == 48  # 12 on the dice × 4, one utility
    assert said(rent, g) == "Rent € 48 = 12 on the dice × 4 (1 utility)"


def test_tax_and_salary() -> None:
    g, events = ok(start(), {"do": "roll", "dice": [1, 3]})
    tax = only(events, "tax")
    assert tax["amount"] == 200
    assert said(tax, g) == "Income Tax: € 200, as printed on the square"
    g = arrange(start(), position={ANN: 38})
    g, events = ok(g, {"do": "roll", "dice": [1, 3]})
    salary = only(events, "salary")
    assert salary["amount"] == 200
    assert said(salary, g) == "Salary € 200 for passing GO"
    assert topic(salary) == "go"


def test_lifting_a_mortgage_costs_the_value_and_ten_percent() -> None:
    g = arrange(start(), owners={1: ANN}, mortgaged=[1])
    g, events = ok(g, {"do": "unmortgage", "square": 1})
    lift = only(events, "mortgage_lift")
    assert lift["amount"] == 33  # 30 + 10 %
    assert said(lift, g) == "Lift € 33 = € 30 + 10 % interest"


def test_building_and_selling_back_at_half() -> None:
    g = arrange(start(), owners={1: ANN, 3: ANN})
    g, events = ok(g, {"do": "build", "square": 1, "count": 1})
    assert said(only(events, "building"), g) == \
        "Building € 50 = 1 × € 50, the house price of Boulevard de Belleville"
    g, events = ok(g, {"do": "sell_building", "square": 1, "count": 1})
    sold = only(events, "building_sold")
    assert sold["amount"] == 25
    assert said(sold, g) == "Sold back: € 25 = half of 1 × € 50"


def test_a_house_rule_is_said_to_be_one() -> None:
    g = arrange(start(unbuilt_rent_full_group=3), owners={1: BO, 3: BO})
    g, events = ok(g, {"do": "roll", "dice": [1, 2]})
    rent = only(events, "rent")
    assert rent["amount"] == 12
    assert said(rent, g) == ("Rent € 12 = € 4 × 3: Bo owns the whole colour group, no houses"
                             " (a house rule of this table)")


def test_a_debt_paid_later_keeps_its_reason() -> None:
    g = arrange(start(), owners={1: BO, 3: BO, 39: ANN}, cash={ANN: 2})
    g, events = ok(g, {"do": "roll", "dice": [1, 2]})
    debt = next(e for e in events if e["kind"] == "debt")
    assert debt["why"]["rule"] == "rent_full_group"
    # the reason survives a snapshot (a resume from the journal)
    g = view.restore(view.snapshot(g), g.edition)
    g, events = ok(g, {"do": "mortgage", "square": 39})
    rent = only(events, "rent")
    assert rent["amount"] == 8
    assert said(rent, g) == "Rent € 8 = € 4 × 2: Bo owns the whole colour group, no houses"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_reason_is_said_in_every_language_with_its_figures(lang: str) -> None:
    g = arrange(start(), owners={1: BO, 3: BO})
    g, events = ok(g, {"do": "roll", "dice": [1, 2]})
    text = said(only(events, "rent"), g, lang)
    assert "8" in text and "4" in text and "2" in text and "{" not in text


def test_a_reason_survives_its_json_form() -> None:
    g = arrange(start(), owners={1: BO, 3: BO})
    _g, events = ok(g, {"do": "roll", "dice": [1, 2]})
    rent = only(events, "rent")
    assert event_from_json(rent).to_json() == rent
    with pytest.raises(ValueError):
        event_from_json({**rent, "why": {"rule": "rent_lot", "terms": {"rent": "4"}}})


# --- every edition: each money move carries a reason whose figures give its amount -------

def worked_out(why: JSON, options: JSON) -> int | None:
    """The amount a reason's figures give, as the rulebooks compute it (None: an agreed
    amount, a trade or a payment, has no arithmetic)."""
    t = why["terms"]
    rule = why["rule"]
    times = t.get("card_times", 1)
    if rule in ("trade", "payment"):
        return None
    if rule in ("rent_full_group", "rent_all_but_one", "rent_station_depot"):
        return t["rent"] * t["times"] * times
    if rule.startswith("rent_utility"):
        return t["dice"] * t["times"] * times
    if rule.startswith("rent_"):
        return t["rent"] * times
    if rule == "mortgage_interest":
        # rounded per deed as the edition rounds: within half a step per deed of the rate
        step = max(1, options.get("mortgage_interest_rounding", 1))
        assert abs(t["interest"] - t["value"] * t["percent"] / 100) <= t["deeds"] * step / 2
        assert t["percent"] == options["mortgage_interest_percent"]
        return t["interest"]
    if rule == "mortgage_lift":
        return t["value"] + t["interest"]
    if rule == "build":
        return t["count"] * t["cost"]
    if rule == "sell_building":
        return t["count"] * t["cost"] // 2
    if rule == "sell_depot":
        return t["cost"] // 2
    if rule == "sell_group_hotels":
        return t["lots"] * (t["count"] * t["cost"] // 2)
    if rule == "rebalance":
        return abs(t["up"] * t["cost"] - t["down"] * (t["cost"] // 2))
    if rule == "card_repairs":
        return t["houses"] * t["per_house"] + t["hotels"] * t["per_hotel"] + \
            t.get("skyscrapers", 0) * t.get("per_skyscraper", 0)
    if rule == "salary_on_go":
        return t["salary"] * t["times"]
    single = {"salary": "salary", "tax": "tax", "free_parking": "pot", "birthday_gift": "gift",
              "jail_fine": "fine", "jail_fine_forced": "fine", "purchase": "price",
              "auction": "bid", "building_auction": "bid", "mortgage": "value",
              "mortgage_lift_value": "value", "build_depot": "cost", "card": "amount",
              "card_each_player": "amount", "card_pay_each_player": "amount",
              "bankruptcy": "cash", "bankrupt_buildings": "value",
              "start_cash": "cash", "start_pot": "pot", "dealt_deed": "price"}
    assert rule in single, f"a reason this test does not know: {rule}"
    return int(t[single[rule]])


def _bot_money(edition: str, seed: int, players: int) -> list[tuple[JSON, JSON]]:
    """(state JSON, money move) of every transfer and debt of one bot game."""
    from companion.bots import Bots
    from companion.game.applying import apply_command
    from companion.rules import Accepted, apply

    r = apply_command(None, {"do": "new_game", "edition": edition, "seed": seed,
                             "players": [f"P{i + 1}" for i in range(players)]})
    assert isinstance(r, Accepted)
    out = [(view.public_state(r.state), e) for e in r.events_json()
           if e["kind"] in ("transfer", "debt")]
    g, bots = r.state, Bots()
    for _ in range(1500):
        if g.winner >= 0:
            break
        r = apply(g, bots.choose(g))
        if not isinstance(r, Accepted):
            break
        g = r.state
        public = view.public_state(g)
        out += [(public, e) for e in r.events_json() if e["kind"] in ("transfer", "debt")]
    return out


@pytest.mark.parametrize("edition", edition_ids())
def test_every_money_move_of_every_edition_says_why_and_its_figures_add_up(
        edition: str) -> None:
    rules: set[str] = set()
    for seed, players in ((1, 2), (2, 4), (3, 5)):
        for state, event in _bot_money(edition, seed, players):
            why = event.get("why")
            assert why is not None, f"{edition}: a money move without its reason: {event}"
            rules.add(why["rule"])
            expected = worked_out(why, state["options"])
            if expected is not None:
                assert expected == event["amount"], (edition, event)
            for lang in ("en", state.get("language") or "en"):
                text = explain(event, Words(Setup.of(state), lang, i18n.translator(lang)))
                assert text and "{" not in text, (edition, lang, event)
    assert {"start_cash", "salary", "purchase"} <= rules
    assert any(r.startswith("rent_") for r in rules), rules


def test_the_rules_page_marks_a_house_rule_of_an_edition_feature(tmp_path: Any) -> None:
    """A table that sets an option the edition leaves at its neutral value (rent of a whole
    group times 3) sees it marked as a house rule, as the reasons say it."""
    from html import unescape

    from web_fakes import TABLE, joined

    from companion.game.session import GameSession
    from web_remote import create_app

    session = GameSession.open(tmp_path / "game")
    try:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"],
                               "options": {"unbuilt_rent_full_group": 3}}, TABLE).accepted
        app = create_app(session, tmp_path / "game", {"banker_pin": "2468"})
        try:
            html = unescape(joined(app, "Ann").client.get("/rules?partial=1")
                            .get_data(as_text=True))
            row = html[html.index("Unbuilt rent with the whole group (times)"):]
            row = row[:row.index("</tr>")]
            assert "3" in row and "(house rule)" in row, row
        finally:
            app.extensions["web_remote"].close()
    finally:
        session.close()
