"""Rule options: every place the rulebooks differ, and the house rules, as data."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from operator import attrgetter
from typing import Any, Final

from companion.rules.codes import Code, RulesError


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """The rules in force for one game: the edition's defaults with the table's choices."""

    start_cash: int = 1500
    salary: int = 200
    jail_fine: int = 50
    #: salary paid twice when landing exactly on GO (house rule)
    double_salary_on_go: bool = False
    #: lots of a complete group still pay double while another lot of it is mortgaged
    double_rent_with_mortgaged_lot: bool = True
    #: "on_lift": value + interest to lift; "on_take": interest paid when mortgaging; "none"
    mortgage_interest: str = "on_lift"
    mortgage_interest_percent: int = 10
    #: interest is rounded to a multiple of this (Swedish rules: 50)
    mortgage_interest_rounding: int = 1
    #: "fee_then_choice": new owner pays the interest at once, then may lift at the value;
    #: "redeem_at_once": new owner must lift at once (value + interest)
    mortgaged_transfer: str = "fee_then_choice"
    #: houses on each lot before a hotel (short game: 3)
    houses_before_hotel: int = 4
    even_building: bool = True
    #: the bank auctions a declined property
    auctions: bool = True
    #: owners in jail collect no rent (house rule; the rulebooks say they do)
    no_rent_in_jail: bool = False
    #: taxes and fines go to a pot on Free Parking that the lander takes (house rule)
    free_parking_pot: bool = False
    free_parking_pot_start: int = 0
    #: a player on Free Parking is exempt from cards that collect money from players
    free_parking_exempt_from_collect_cards: bool = False
    #: a card that sends a player to a utility asks for a fresh roll for the rent
    utility_card_rolls_again: bool = True
    #: failed rolls in jail before the fine must be paid
    max_jail_rolls: int = 3
    #: the owner must claim rent in time (off: the device collects at once)
    rent_must_be_claimed: bool = False
    #: a claim is lost when this many other players have started their turn (Swedish and
    #: Swiss rules: 1, before the next player rolls; classic euro: 2, before the second)
    rent_claim_turns: int = 1
    #: a jailed player may pay the fine before this many failed rolls (Swedish rules: before
    #: the first or second roll, 2; elsewhere before any, up to the last)
    jail_fine_before_rolls: int = 3
    #: all hotels of a group are sold back together (Swiss French rules)
    sell_group_hotels_together: bool = False
    #: bank-only play: tokens are not tracked, turns may end without a roll
    bank_only: bool = False
    #: a player who cannot pay the jail fine (or a tax) is bankrupt at once (Polish rules)
    bankrupt_if_fine_unpayable: bool = False
    #: how a creditor takes mortgaged deeds from a bankrupt (see mortgaged_transfer)
    mortgaged_bankruptcy_transfer: str = "fee_then_choice"
    #: a lot may be mortgaged once its own buildings are sold, while the other lots of its
    #: group keep theirs (every rulebook; off, a house rule: the whole group sold first)
    mortgage_strips_only_lot: bool = True
    #: every utility rent is thrown for with a fresh roll (not the move's dice)
    utility_rent_fresh_roll: bool = False
    #: deeds dealt to each player at the start, paid at the printed price (short/timed game)
    deal_deeds: int = 0
    #: the game ends at this bankruptcy and the rest are ranked (short game: 2; 0: play on)
    end_after_bankruptcies: int = 0
    #: the table agreed on a time limit in minutes (timed game; the session keeps the clock)
    time_limit_minutes: int = 0
    #: how mortgaged deeds count in a ranking: "half" their price, or the full "price"
    standings_mortgaged: str = "half"
    #: a third die, the speed die (1, 2, 3, bus, Mr. Monopoly twice): Mr. Monopoly and bus
    #: moves, triples; doubles count on the white dice only (Mega edition)
    speed_die: bool = False
    #: houses and hotels may be built when the owner has all lots of a group of 3 or more
    #: but one (Mega edition)
    build_with_all_but_one: bool = False
    #: an unbuilt lot's rent times this when its owner has all lots of its group of 3 or
    #: more but one (Mega: 2)
    unbuilt_rent_all_but_one: int = 1
    #: an unbuilt lot's rent times this when its owner has the whole group (classic: double)
    unbuilt_rent_full_group: int = 2
    #: the table rolls its own dice and enters them (chosen at setup); otherwise only the
    #: companion rolls, and a player's typed dice are refused (bank-only play enters its own)
    physical_dice: bool = False
    #: the table draws from its own Chance and Community Chest decks and names (taps) the card
    #: drawn; otherwise only the companion draws, and a player's named card is refused
    physical_deck: bool = False

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object.

        Options of features only some editions have are listed only when they differ from
        their neutral default, so an edition without them shows the same options as before.
        """
        # every field read by one C call (asdict deep-copies: 10x slower; a getattr a name
        # in a comprehension: twice as slow as this)
        out = dict(zip(_NAMES, _READ_ALL(self), strict=True))
        for name, neutral in _LISTED_WHEN_SET.items():
            if out[name] == neutral:
                del out[name]
        return out

    def with_changes(self, changes: dict[str, Any]) -> RuleOptions:
        """A copy with the given options changed; unknown names or wrong types are refused.

        >>> RuleOptions().with_changes({"salary": 400}).salary
        400
        >>> RuleOptions().with_changes({"salary": "x"})
        Traceback (most recent call last):
        ...
        companion.rules.codes.RulesError: option 'salary' must be a whole number
        """
        if not changes:  # the usual game: the edition's defaults as they are (read-only)
            return self
        for name, value in changes.items():
            if name not in _KNOWN:
                raise RulesError(Code.BAD_OPTION, f"unknown rule option {name!r}")
            current = getattr(self, name)
            if isinstance(current, bool):
                if not isinstance(value, bool):
                    raise RulesError(Code.BAD_OPTION, f"option {name!r} must be true or false")
            elif isinstance(current, int):
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise RulesError(Code.BAD_OPTION, f"option {name!r} must be a whole number")
            elif isinstance(current, str):
                allowed = _CHOICES.get(name)
                if not isinstance(value, str) or (allowed and value not in allowed):
                    raise RulesError(
                        Code.BAD_OPTION, f"option {name!r} must be one of {sorted(allowed or [])}"
                    )
        return replace(self, **changes)


#: every option's name, in order (to_json: the values are plain numbers, flags and words)
_NAMES = tuple(f.name for f in fields(RuleOptions))
#: the same as a set, for with_changes
_KNOWN = frozenset(_NAMES)
#: every option's value, in the order of _NAMES, by one call (to_json)
_READ_ALL: Final = attrgetter(*_NAMES)

#: options listed in to_json only when set (name -> neutral value): added with the Mega
#: edition (and the table's own dice and deck), they would otherwise change the state JSON
#: of every other edition and game
_LISTED_WHEN_SET: dict[str, object] = {
    "speed_die": False,
    "build_with_all_but_one": False,
    "unbuilt_rent_all_but_one": 1,
    "unbuilt_rent_full_group": 2,
    "physical_dice": False,
    "physical_deck": False,
}

_CHOICES: dict[str, set[str]] = {
    "mortgage_interest": {"on_lift", "on_take", "none"},
    "mortgaged_transfer": {"fee_then_choice", "redeem_at_once"},
    "mortgaged_bankruptcy_transfer": {"fee_then_choice", "redeem_at_once"},
    "standings_mortgaged": {"half", "price"},
}

#: rule presets a table can name with {"variant": ...} in new_game's options; an edition
#: may override them with its own "variants" block
VARIANTS: dict[str, dict[str, Any]] = {
    "standard": {},
    "short": {"deal_deeds": 2, "houses_before_hotel": 3, "end_after_bankruptcies": 2},
    "timed": {"deal_deeds": 2, "time_limit_minutes": 90},
}
