"""The rules page: our own rulebook (companion.words.explaining.rulebook) searchable, and
the house rules in force from the options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.words.explaining.rulebook import (
    GENERAL,
    Section,
    available,
    cite,
    rulebook,
    rules_page,
    section_about,
)
from web_remote.i18n import _

__all__ = ["GENERAL", "Section", "available", "cite", "rulebook", "rules_page", "section_about",
           "search",
           "option_texts", "house_rules"]


def search(sections: list[Section], query: str) -> list[Section]:
    """The sections containing every word of the query."""
    words = [w.casefold() for w in query.split() if w]
    return [s for s in sections if s.matches(words)] if words else list(sections)


def option_texts() -> dict[str, str]:
    """A phrase per rule option, for the house rules list."""
    return {
        "start_cash": _("Starting cash"),
        "salary": _("Salary for passing GO"),
        "jail_fine": _("Jail fine"),
        "double_salary_on_go": _("Double salary when landing exactly on GO"),
        "double_rent_with_mortgaged_lot": _("A complete group earns double rent even with a "
                                            "mortgaged lot"),
        "mortgage_interest": _("When mortgage interest is paid"),
        "mortgage_interest_percent": _("Mortgage interest (percent)"),
        "mortgage_interest_rounding": _("Interest rounded to a multiple of"),
        "mortgaged_transfer": _("Mortgaged deeds changing hands"),
        "houses_before_hotel": _("Houses before a hotel"),
        "even_building": _("Build and sell evenly"),
        "auctions": _("Declined properties are auctioned"),
        "no_rent_in_jail": _("No rent collected while in jail"),
        "free_parking_pot": _("Taxes and fines go to a Free Parking pot"),
        "free_parking_pot_start": _("The Free Parking pot starts with"),
        "free_parking_exempt_from_collect_cards": _("Free Parking protects from collect cards"),
        "utility_card_rolls_again": _("A card sending you to a utility means a fresh roll"),
        "max_jail_rolls": _("Rolls in jail before the fine is due"),
        "rent_must_be_claimed": _("Rent must be claimed before the next roll"),
        "bank_only": _("Bank-only play (tokens not tracked)"),
        "bankrupt_if_fine_unpayable": _("An unpayable fine or tax means bankruptcy"),
        "mortgaged_bankruptcy_transfer": _("Mortgaged deeds of a bankrupt player"),
        "mortgage_strips_only_lot": _("Mortgaging strips only the lot mortgaged"),
        "utility_rent_fresh_roll": _("Utility rent is rolled afresh"),
        "deal_deeds": _("Deeds dealt at the start"),
        "end_after_bankruptcies": _("The game ends after this many bankruptcies"),
        "time_limit_minutes": _("Time limit (minutes)"),
        "standings_mortgaged": _("Mortgaged deeds count at the end as"),
        "rent_claim_turns": _("Turns of others before an unclaimed rent is lost"),
        "jail_fine_before_rolls": _("The jail fine may be paid before this many rolls"),
        "sell_group_hotels_together": _("All hotels of a group are sold together"),
        "speed_die": _("Speed die (Mega): three dice"),
        "build_with_all_but_one": _("Build with all lots of a group but one"),
        "unbuilt_rent_all_but_one": _("Unbuilt rent with all lots but one (times)"),
        "unbuilt_rent_full_group": _("Unbuilt rent with the whole group (times)"),
        "physical_dice": _("The table rolls its own dice and enters them"),
        "physical_deck": _("The table draws from its own Chance and Community Chest cards"),
    }


def choice_texts() -> dict[str, str]:
    """A phrase per value of the options that choose among ways (never the raw value)."""
    return {
        "on_lift": _("with the lifting (value + interest)"),
        "on_take": _("when mortgaging"),
        "none": _("no interest"),
        "fee_then_choice": _("interest at once, lift later at the value"),
        "redeem_at_once": _("lifted at once (value + interest)"),
        "half": _("half their price"),
        "price": _("their full price"),
    }


def value_text(value: Any) -> str:
    """An option's value for people."""
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    if isinstance(value, str):
        return choice_texts().get(value, value)
    return str(value)


def house_rules(options: Mapping[str, Any], defaults: dict[str, Any]) -> list[dict[str, Any]]:
    """Every option: its phrase, value, and whether the table changed it from the edition."""
    texts = option_texts()
    return [{"name": k, "text": texts.get(k, k), "value": value_text(v),
             "changed": k in defaults and defaults[k] != v}
            for k, v in options.items()]
