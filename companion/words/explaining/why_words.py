"""Why a money move was its amount, in words: the engine's reason (the `why` of a transfer or
debt event, companion.rules.events.Why) said in the caller's language, with the topic of the
rulebook it comes from.

The engine works out the reason where it works out the amount (one implementation of each
rule); this module only says it. A house rule that changed a figure from the edition's book
is said as such.

>>> from companion.words import catalog as i18n
>>> from companion.game.table.records import Setup
>>> from companion.words.move_words import Words
>>> state = {"edition": "classic-eur", "currency": i18n.edition_data("classic-eur")["currency"],
...          "options": {"unbuilt_rent_full_group": 2}}
>>> event = {"kind": "transfer", "from": "Bo", "to": "Ann", "amount": 8, "reason": "rent",
...          "why": {"rule": "rent_full_group", "square": 3, "terms": {"rent": 4, "times": 2},
...                  "option": "unbuilt_rent_full_group"}}
>>> explain(event, Words(Setup.of(state), "en", i18n.translator("en"))).replace(i18n.NBSP, " ")
'Rent € 8 = € 4 × 2: Ann owns the whole colour group, no houses'
>>> topic(event)
'rent'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from companion.editions import load_edition
from companion.game.table.records import Setup
from companion.words.explaining.why_texts import WHY
from companion.words.move_words import Words

#: figures that are money (said as the edition writes money); the others are counts
MONEY_TERMS = frozenset({"rent", "salary", "tax", "pot", "gift", "fine", "price", "bid",
                         "value", "interest", "cost", "refund", "amount", "per_house",
                         "per_hotel", "per_skyscraper", "cash"})

#: the rulebook section (an id of the rules page, docs/phone-remote.md) each rule is in
TOPICS: dict[str, str] = {
    "salary": "go", "salary_on_go": "go", "tax": "taxes",
    "birthday_gift": "squares", "jail_fine": "jail", "jail_fine_forced": "jail",
    "purchase": "buying", "auction": "auctions", "building_auction": "buildings",
    "mortgage": "mortgages", "mortgage_interest": "mortgages", "mortgage_lift": "mortgages",
    "mortgage_lift_value": "mortgages", "build": "buildings", "build_depot": "buildings",
    "sell_building": "selling", "sell_depot": "selling", "sell_group_hotels": "selling",
    "rebalance": "buildings", "card": "cards", "card_each_player": "cards",
    "card_pay_each_player": "cards", "card_repairs": "cards", "rent_utility_card": "cards",
    "bankruptcy": "debts", "bankrupt_buildings": "debts",
    "start_cash": "setup", "start_pot": "setup", "dealt_deed": "setup", "trade": "trading",
}

#: the sentence of the rulebook that produced the amount (`{#topic}` before a sentence of
#: companion/data/rules/), the most precise first; the section's topic comes after these
SENTENCES: dict[str, tuple[str, ...]] = {
    "rent_lot": ("rent_lot",), "rent_full_group": ("rent_group",),
    "rent_all_but_one": ("rent_all_but_one",),
    "rent_group_mortgaged": ("rent_group_mortgaged", "rent_lot"),
    "rent_houses": ("rent_buildings",), "rent_hotel": ("rent_buildings",),
    "rent_skyscraper": ("skyscraper", "rent_buildings"),
    "rent_station": ("rent_station",), "rent_station_depot": ("depot", "rent_station"),
    "rent_utility": ("rent_utility",), "rent_claimed": ("rent_claim",),
    "salary_on_go": ("salary_on_go",), "birthday_gift": ("birthday",),
    "free_parking": ("free_parking",),
    "jail_fine": ("jail_fine",), "jail_fine_forced": ("jail_fine_forced",),
    "building_auction": ("building_auction",), "mortgage_interest": ("mortgage_interest",),
    "mortgage_lift": ("mortgage_lift",),
    "mortgage_lift_value": ("mortgage_lift_value", "mortgage_lift"),
    "build_depot": ("depot",), "sell_depot": ("depot",), "rebalance": ("built_group",),
}


def topic(event: Mapping[str, Any]) -> str | None:
    """The rulebook section a money move's reason comes from, if it has one."""
    why = event.get("why")
    if not isinstance(why, Mapping):
        return None
    rule = str(why.get("rule", ""))
    return TOPICS.get(rule) or ("rent" if rule.startswith("rent_") else None)


def citations(event: Mapping[str, Any]) -> tuple[str, ...]:
    """The topics a reason may quote, the most precise first: the rule's own sentence, then
    its section (companion.words.explaining.rulebook.cite takes the first the book has)."""
    why = event.get("why")
    rule = str(why.get("rule", "")) if isinstance(why, Mapping) else ""
    section = topic(event)
    return SENTENCES.get(rule, ()) + ((section,) if section else ())


@cache
def _book_value(edition: str, option: str) -> Any:
    """An option's value in the edition's own rules (None when unknown)."""
    try:
        return getattr(load_edition(edition).defaults, option, None)
    except (OSError, ValueError, KeyError):
        return None


def house_rule(why: Mapping[str, Any], setup: Setup) -> bool:
    """Whether the table's house rule, not the edition's book, set a figure of the reason."""
    option = why.get("option")
    options = setup.options
    if not isinstance(option, str) or option not in options:
        return False
    book = _book_value(setup.edition, option)
    return book is not None and options[option] != book


def explain(event: Mapping[str, Any], words: Words) -> str | None:
    """Why a transfer or debt event is its amount, or None when it carries no reason."""
    why = event.get("why")
    if not isinstance(why, Mapping) or f"why_{why.get('rule')}" not in WHY:
        return None
    raw = why.get("terms")
    terms: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    fields: dict[str, Any] = {k: (words.money(v) if k in MONEY_TERMS else v)
                              for k, v in terms.items() if isinstance(v, int)}
    amount = int(event.get("amount", 0))
    card_times = terms.get("card_times")
    base = amount // card_times if isinstance(card_times, int) and card_times > 1 else amount
    fields.update(amount=words.money(base), square=words.square(why.get("square")),
                  owner=event.get("to") or event.get("creditor") or "")
    rule = str(why["rule"])
    if rule == "card_repairs" and "skyscrapers" in terms:
        rule = "card_repairs_skyscrapers"
    text = words.say(f"why_{rule}", **fields)
    if text is None:
        return None
    if base != amount:
        text = words.say("why_card_times", reason=text, card_times=card_times,
                         amount=words.money(amount)) or text
    if house_rule(why, words.setup):
        text = words.say("why_house_rule", reason=text) or text
    return text

