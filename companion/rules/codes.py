"""Rejection codes: why the engine refused a command, stable for scripts and phones."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final


class Code(StrEnum):
    """A refusal's stable code; the member's docstring-like comment says when it is used."""

    BAD_COMMAND = "bad_command"  #: the command is malformed (unknown verb, wrong field types)
    UNKNOWN_PLAYER = "unknown_player"  #: a name that is not a player of this game
    UNKNOWN_SQUARE = "unknown_square"  #: a square index or id not on this board
    UNKNOWN_CARD = "unknown_card"  #: a card id not in the deck being drawn from
    GAME_OVER = "game_over"  #: the game has a winner; nothing more can happen
    NO_GAME = "no_game"  #: no game has been started yet
    NOT_YOUR_TURN = "not_your_turn"  #: the player may not act now (another player's turn)
    NOT_NOW = "not_now"  #: the command does not answer what the table is waiting for
    DECISION_PENDING = "decision_pending"  #: a decision must be answered first
    MUST_ROLL = "must_roll"  #: a roll (first or doubles re-roll) is still owed
    ALREADY_ROLLED = "already_rolled"  #: the player has rolled and has no re-roll
    BAD_DICE = "bad_dice"  #: dice values outside 1..6 or the wrong number of dice
    INSUFFICIENT_FUNDS = "insufficient_funds"  #: not enough cash for this
    NOT_OWNER = "not_owner"  #: the square is not the player's
    NOT_OWNABLE = "not_ownable"  #: the square cannot be owned, built on or mortgaged
    NO_MONOPOLY = "no_monopoly"  #: building needs the whole colour group
    GROUP_MORTGAGED = "group_mortgaged"  #: a lot of the group is mortgaged
    UNEVEN = "uneven"  #: building or selling would break even building
    MAX_BUILDINGS = "max_buildings"  #: the lot already has a hotel / nothing to sell
    HOUSING_SHORTAGE = "housing_shortage"  #: the bank lacks the houses or hotels
    #: buildings must be sold first (params: the square and `on`: its lot, group or depot)
    HAS_BUILDINGS = "has_buildings"
    ALREADY_MORTGAGED = "already_mortgaged"  #: the property is mortgaged already
    NOT_MORTGAGED = "not_mortgaged"  #: the property is not mortgaged
    BID_TOO_LOW = "bid_too_low"  #: a bid must beat the highest bid
    ALREADY_PASSED = "already_passed"  #: the bidder left this auction
    NOT_IN_JAIL = "not_in_jail"  #: only a jailed player can do this
    NO_JAIL_CARD = "no_jail_card"  #: the player holds no Get Out of Jail Free card
    NOT_IN_DEBT = "not_in_debt"  #: bankruptcy is declared only on an unpayable debt
    CAN_STILL_PAY = "can_still_pay"  #: selling buildings and mortgaging would cover the debt
    SAME_PLAYER = "same_player"  #: a trade or payment with oneself
    BANKRUPT_PLAYER = "bankrupt_player"  #: the player is out of the game
    BAD_OPTION = "bad_option"  #: an unknown rule option or a bad value for one
    BAD_EDITION = "bad_edition"  #: the edition is unknown
    BAD_PLAYERS = "bad_players"  #: too few or too many players, or duplicate names
    BAD_NAME = "bad_name"  #: a player's name is empty, too long or holds control characters
    NO_BUS_TICKET = "no_bus_ticket"  #: the player holds no bus ticket usable now
    UNREACHABLE = "unreachable"  #: the square cannot be reached that way (bus, triple)
    MR_MONOPOLY_TURN = "mr_monopoly_turn"  #: another player's Mr. Monopoly turn is running
    DEVICE_MOVES = "device_moves"  #: the device moves the tokens and pays GO (a dice game)
    ALREADY_MOVED = "already_moved"  #: this roll's move was told already (bank-only play)
    NOT_PAST_GO = "not_past_go"  #: the move told did not pass or reach GO
    SALARY_PAID = "salary_paid"  #: the salary for this move was paid already
    IN_JAIL = "in_jail"  #: a jailed player leaves jail first (fine, card, or a roll)


#: the codes of the refusals `legal_commands` builds for nearly every state, as module
#: constants: a member read through its class (`Code.NO_MONOPOLY`) goes through EnumType's
#: attribute hook, about 0.13 µs in plain Python (as `edition.KIND_LOT` says)
CODE_NO_MONOPOLY: Final = Code.NO_MONOPOLY
CODE_NOT_OWNABLE: Final = Code.NOT_OWNABLE
CODE_NOT_NOW: Final = Code.NOT_NOW
CODE_MAX_BUILDINGS: Final = Code.MAX_BUILDINGS
CODE_HAS_BUILDINGS: Final = Code.HAS_BUILDINGS
CODE_NOT_IN_JAIL: Final = Code.NOT_IN_JAIL
CODE_DEVICE_MOVES: Final = Code.DEVICE_MOVES
CODE_MUST_ROLL: Final = Code.MUST_ROLL
CODE_NO_BUS_TICKET: Final = Code.NO_BUS_TICKET
CODE_UNEVEN: Final = Code.UNEVEN
CODE_ALREADY_ROLLED: Final = Code.ALREADY_ROLLED
CODE_GROUP_MORTGAGED: Final = Code.GROUP_MORTGAGED
CODE_INSUFFICIENT_FUNDS: Final = Code.INSUFFICIENT_FUNDS
CODE_DECISION_PENDING: Final = Code.DECISION_PENDING


@dataclass(frozen=True, slots=True)
class Rejection:
    """A refused command: nothing changed. `message` is for people (in English), `code` for
    programs; `params` hold the facts of the message (player, square, amounts) so that a
    screen or phone can say it in the table's language.

    The message writes amounts as plain numbers ("400 needed, 250 in hand"): money written
    as the edition writes it is the words layer's (companion/words/catalog.format_money)."""

    code: Code
    message: str
    params: dict[str, Any] = field(default_factory=dict)


class RulesError(ValueError):
    """Raised inside the engine to refuse a command; turned into a Rejection by `apply`."""

    def __init__(self, code: Code, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params
