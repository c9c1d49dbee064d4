"""The house rules in force, as the screen shows them so nobody is surprised.

`active_house_rules` lists the rules that differ from the rulebook (shown on the board's
centre during the game); `house_rule_states` lists every house rule the setup offers with
its setting (the MENU's "House rules"). Both read the state JSON's "options" only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.screen.texts import text
from companion.screen.views.setup import HOUSE_RULES

# (option, value that departs from the rulebook, message id)
DEPARTURES: tuple[tuple[str, Any, str], ...] = (
    ("free_parking_pot", True, "hr_free_parking_pot"),
    ("double_salary_on_go", True, "hr_double_salary_on_go"),
    ("auctions", False, "hr_no_auctions"),
    ("no_rent_in_jail", True, "hr_no_rent_in_jail"),
    ("bank_only", True, "hr_bank_only"),
)
RULEBOOK_HOUSES_BEFORE_HOTEL = 4


def active_house_rules(options: Mapping[str, Any] | None) -> list[str]:
    """Short names of the house rules in force, in the screen's language.

    >>> from companion.screen.texts import use_language
    >>> use_language("en")
    'en'
    >>> active_house_rules({"free_parking_pot": True, "auctions": False,
    ...                     "houses_before_hotel": 3, "time_limit_minutes": 90})
    ['Free Parking pot', 'no auctions', 'hotel after 3 houses', '90-minute game']
    >>> active_house_rules({"auctions": True, "houses_before_hotel": 4})
    []
    """
    opts = options or {}
    out = [text(msg) for option, value, msg in DEPARTURES
           if option in opts and opts[option] == value]
    houses = opts.get("houses_before_hotel", RULEBOOK_HOUSES_BEFORE_HOTEL)
    if isinstance(houses, int) and houses != RULEBOOK_HOUSES_BEFORE_HOTEL:
        out.append(text("hr_houses_before_hotel", houses=houses))
    minutes = opts.get("time_limit_minutes")
    if isinstance(minutes, int) and minutes > 0:
        out.append(text("hr_time_limit", minutes=minutes))
    return out


def house_rules_line(options: Mapping[str, Any] | None) -> str:
    """One line for the board: "House rules: Free Parking pot · no auctions", or ""."""
    rules = active_house_rules(options)
    return text("house_rules", rules=" · ".join(rules)) if rules else ""


def house_rule_states(options: Mapping[str, Any] | None) -> list[str]:
    """Every house rule of the setup form with its setting: "Auctions: on"."""
    opts = options or {}
    out = []
    for msg, option, on, _off in HOUSE_RULES:
        state = "setup_on" if opts.get(option) == on else "setup_off"
        out.append(text("rule_state", rule=text(msg), state=text(state)))
    return out
