"""The command vocabulary shared by the table script, the journal, phones and hardware.

A command arrives as a JSON object (`{"do": "roll", "dice": [3, 4]}`); `parse_command`
checks its shape and gives a typed Command. Whether it is allowed now is the engine's call.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from companion.rules.codes import Code, RulesError


class Verb(StrEnum):
    """Every command the engine understands."""

    NEW_GAME = "new_game"  #: start a game: edition, players, seed, options
    ROLL = "roll"  #: roll (device dice) or enter the physical dice
    BUY = "buy"  #: buy the property the player stands on
    DECLINE = "decline"  #: decline to buy (auction follows), or keep mortgages
    BID = "bid"  #: bid in the running auction
    PASS = "pass"  #: leave the running auction
    CLOSE_AUCTION = "close_auction"  #: the banker's gavel: the highest bid wins now
    DRAW = "draw"  #: draw a card (named by the table, or by the device)
    END_TURN = "end_turn"  #: hand the dice to the next player
    LAND = "land"  #: bank-only play: the player landed on (or was moved to) a square
    PASS_GO = "pass_go"  #: pay the salary for passing GO
    PAY = "pay"  #: move money between players or the bank (corrections, side deals)
    BUILD = "build"  #: buy houses / a hotel on a lot
    SELL_BUILDING = "sell_building"  #: sell houses / a hotel back to the bank
    MORTGAGE = "mortgage"  #: mortgage a property to the bank
    UNMORTGAGE = "unmortgage"  #: lift a mortgage
    PAY_FINE = "pay_fine"  #: pay the jail fine and leave jail
    USE_CARD = "use_card"  #: use a Get Out of Jail Free card
    TRADE = "trade"  #: an agreed exchange of cash, deeds and jail cards
    BANKRUPT = "bankrupt"  #: declare bankruptcy on an unpayable debt
    AUCTION_BUILDING = "auction_building"  #: shortage: auction a house, hotel or skyscraper
    CLAIM_RENT = "claim_rent"  #: the owner claims rent in time (when rent must be claimed)
    END_GAME = "end_game"  #: end now and count (by agreement, or the timed game's end)
    USE_BUS_TICKET = "use_bus_ticket"  #: instead of rolling: ride to a square on this side
    CHOOSE_SQUARE = "choose_square"  #: where a triple goes, or which property is auctioned
    CHOOSE_GIFT = "choose_gift"  #: Birthday gift: "money" from the bank or a "bus_ticket"


@dataclass(slots=True, init=False)
class Offer:
    """One side of a trade: cash, deeds (square refs) and Get Out of Jail Free cards."""

    cash: Final[int]
    squares: Final[tuple[int | str, ...]]
    cards: Final[int]

    def __init__(self, cash: int = 0, squares: tuple[int | str, ...] = (),
                 cards: int = 0) -> None:
        self.cash = cash
        self.squares = squares
        self.cards = cards


#: the side of a trade that gives nothing (read-only, so commands share it)
NOTHING = Offer()


@dataclass(slots=True, init=False)
class Command:
    """A parsed command; fields a verb does not use stay at their defaults.

    Read-only (`Final`): the constructor is written by hand, as the events' are, because a
    frozen dataclass sets each of its 19 fields through `object.__setattr__`, which made
    building a command cost more than applying it in plain Python.
    """

    do: Final[Verb]
    by: Final[str | None]
    square: Final[int | str | None]
    amount: Final[int | None]
    count: Final[int]
    dice: Final[tuple[int | str, ...] | None]
    card: Final[str | None]
    payer: Final[str | None]
    payee: Final[str | None]
    via_go: Final[bool]
    give: Final[Offer]
    take: Final[Offer]
    #: auction_building: "house", "hotel" or "skyscraper"; build: "house" (the default)
    #: builds whatever comes next, "hotel", "skyscraper" or "depot" also check that it is that
    building: Final[str]
    reason: Final[str]
    edition: Final[str]
    players: Final[tuple[str, ...]]
    seed: Final[int]
    options: Final[dict[str, Any]]
    gift: Final[str]

    def __init__(self, do: Verb, by: str | None = None, square: int | str | None = None,
                 amount: int | None = None, count: int = 1,
                 dice: tuple[int | str, ...] | None = None, card: str | None = None,
                 payer: str | None = None, payee: str | None = None, via_go: bool = False,
                 give: Offer = NOTHING, take: Offer = NOTHING, building: str = "house",
                 reason: str = "agreement", edition: str = "", players: tuple[str, ...] = (),
                 seed: int = 0, options: dict[str, Any] | None = None, gift: str = "") -> None:
        self.do = do
        self.by = by
        self.square = square
        self.amount = amount
        self.count = count
        self.dice = dice
        self.card = card
        self.payer = payer
        self.payee = payee
        self.via_go = via_go
        self.give = give
        self.take = take
        self.building = building
        self.reason = reason
        self.edition = edition
        self.players = players
        self.seed = seed
        self.options = {} if options is None else options
        self.gift = gift


#: what `build` may name: houses and a hotel come by count, a skyscraper on a hotel, a depot
#: on a station; `auction_building` auctions houses, hotels and skyscrapers (not depots)
BUILDINGS = ("house", "hotel", "skyscraper", "depot")
GIFTS = ("money", "bus_ticket")

_FIELDS: dict[Verb, set[str]] = {
    Verb.NEW_GAME: {"edition", "players", "seed", "options"},
    Verb.ROLL: {"by", "dice"},
    Verb.BUY: {"by"},
    Verb.DECLINE: {"by"},
    Verb.BID: {"by", "amount"},
    Verb.PASS: {"by"},
    Verb.CLOSE_AUCTION: set(),
    Verb.DRAW: {"by", "card"},
    Verb.END_TURN: {"by"},
    Verb.LAND: {"by", "square", "via_go", "dice"},
    Verb.PASS_GO: {"by"},
    Verb.PAY: {"from", "to", "amount"},
    Verb.BUILD: {"by", "square", "count", "building"},
    Verb.SELL_BUILDING: {"by", "square", "count"},
    Verb.MORTGAGE: {"by", "square"},
    Verb.UNMORTGAGE: {"by", "square"},
    Verb.PAY_FINE: {"by"},
    Verb.USE_CARD: {"by"},
    Verb.TRADE: {"from", "to", "give", "take"},
    Verb.BANKRUPT: {"by"},
    Verb.AUCTION_BUILDING: {"building"},
    Verb.CLAIM_RENT: {"by"},
    Verb.END_GAME: {"reason"},
    Verb.USE_BUS_TICKET: {"by", "square"},
    Verb.CHOOSE_SQUARE: {"by", "square"},
    Verb.CHOOSE_GIFT: {"by", "gift"},
}
_REQUIRED: dict[Verb, set[str]] = {
    Verb.NEW_GAME: {"edition", "players"},
    Verb.BID: {"by", "amount"},
    Verb.PASS: {"by"},
    Verb.LAND: {"square"},
    Verb.PAY: {"from", "to", "amount"},
    Verb.BUILD: {"square"},
    Verb.SELL_BUILDING: {"square"},
    Verb.MORTGAGE: {"square"},
    Verb.UNMORTGAGE: {"square"},
    Verb.TRADE: {"from", "to"},
    Verb.USE_BUS_TICKET: {"square"},
    Verb.CHOOSE_SQUARE: {"square"},
    Verb.CHOOSE_GIFT: {"gift"},
}
#: every verb by its name (a dict lookup: calling the enum with a value is slow)
_VERBS: dict[str, Verb] = {verb.value: verb for verb in Verb}
#: fields every command may carry without meaning to the engine (who sent it, versions)
_IGNORED = {"do", "source", "expect_version", "note"}


#: the speed die's symbols as a table script names them (dice.SPEED_NAMES)
_SPEED_SYMBOLS = ("bus", "mr_monopoly")


def _bad(message: str) -> RulesError:
    return RulesError(Code.BAD_COMMAND, message)


def _whole(value: Any, name: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{name!r} must be a whole number")
    if value < minimum:
        raise _bad(f"{name!r} must be at least {minimum}")
    return value


def _square_ref(value: Any, name: str = "square") -> int | str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise _bad(f"{name!r} must be a board index or a square id")
    return value


def _name(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise _bad(f"{name!r} must be a player's name")
    return value


def _offer(value: Any, name: str) -> Offer:
    if value is None:
        return Offer()
    if not isinstance(value, dict):
        raise _bad(f"{name!r} must be an object with cash, squares and cards")
    unknown = set(value) - {"cash", "squares", "cards"}
    if unknown:
        raise _bad(f"{name!r} has unknown fields: {', '.join(sorted(unknown))}")
    squares = value.get("squares", [])
    if not isinstance(squares, list):
        raise _bad(f"{name}.squares must be a list")
    return Offer(cash=_whole(value.get("cash", 0), f"{name}.cash"),
                 squares=tuple(_square_ref(s, f"{name}.squares") for s in squares),
                 cards=_whole(value.get("cards", 0), f"{name}.cards"))


def parse_command(obj: Any) -> Command:
    """Check a command object's shape; raises RulesError(BAD_COMMAND) saying what is wrong.

    >>> parse_command({"do": "roll", "dice": [3, 4]}).dice
    (3, 4)
    >>> parse_command({"do": "fly"})
    Traceback (most recent call last):
    ...
    companion.rules.codes.RulesError: unknown command 'fly'
    """
    if not isinstance(obj, dict):
        raise _bad("a command must be a JSON object")
    verb = _VERBS.get(str(obj.get("do")))
    if verb is None:
        raise _bad(f"unknown command {obj.get('do')!r}")
    allowed = _FIELDS[verb]
    unknown = set(obj) - allowed - _IGNORED
    if unknown:
        raise _bad(f"{verb.value}: unknown fields: {', '.join(sorted(unknown))}")
    missing = _REQUIRED.get(verb, set()) - set(obj)
    if missing:
        raise _bad(f"{verb.value}: missing {', '.join(sorted(missing))}")
    kw: dict[str, Any] = {}
    if "by" in obj and obj["by"] is not None:
        kw["by"] = _name(obj["by"], "by")
    if "square" in obj:
        kw["square"] = _square_ref(obj["square"])
    if "amount" in obj:
        kw["amount"] = _whole(obj["amount"], "amount", 1 if verb is Verb.BID else 1)
    if "count" in obj:
        kw["count"] = _whole(obj["count"], "count", 1)
    if obj.get("dice") is not None:
        dice = obj["dice"]
        if not isinstance(dice, list) or not all(
            (isinstance(d, int) and not isinstance(d, bool)) or d in _SPEED_SYMBOLS for d in dice
        ):
            raise _bad("'dice' must be a list of whole numbers (the speed die may show "
                       "\"bus\" or \"mr_monopoly\")")
        kw["dice"] = tuple(dice)
    if obj.get("card") is not None:
        if not isinstance(obj["card"], str):
            raise _bad("'card' must be a card id")
        kw["card"] = obj["card"]
    if "from" in obj:
        kw["payer"] = _name(obj["from"], "from")
    if "to" in obj:
        kw["payee"] = _name(obj["to"], "to")
    if "via_go" in obj:
        if not isinstance(obj["via_go"], bool):
            raise _bad("'via_go' must be true or false")
        kw["via_go"] = obj["via_go"]
    if verb is Verb.TRADE:
        kw["give"] = _offer(obj.get("give"), "give")
        kw["take"] = _offer(obj.get("take"), "take")
    if "reason" in obj:
        if obj["reason"] not in {"agreement", "time"}:
            raise _bad("'reason' must be \"agreement\" or \"time\"")
        kw["reason"] = obj["reason"]
    if "building" in obj:
        allowed_buildings = BUILDINGS if verb is Verb.BUILD else BUILDINGS[:3]
        if obj["building"] not in allowed_buildings:
            raise _bad(f"'building' must be one of {', '.join(allowed_buildings)}")
        kw["building"] = obj["building"]
    if "gift" in obj:
        if obj["gift"] not in GIFTS:
            raise _bad("'gift' must be \"money\" or \"bus_ticket\"")
        kw["gift"] = obj["gift"]
    if verb is Verb.NEW_GAME:
        if not isinstance(obj["edition"], str):
            raise _bad("'edition' must be an edition id")
        players = obj["players"]
        if not isinstance(players, list):
            raise _bad("'players' must be a list of names")
        kw["edition"] = obj["edition"]
        kw["players"] = tuple(_name(p, "players") for p in players)
        kw["seed"] = _whole(obj.get("seed", 0), "seed")
        options = obj.get("options", {})
        if not isinstance(options, dict):
            raise _bad("'options' must be an object")
        kw["options"] = dict(options)
    return Command(do=verb, **kw)


def resolved_as(cmd: Command, dice: tuple[int | str, ...] | None = None,
                card: str | None = None) -> Command:
    """The command with what the device decided filled in: the dice rolled, the card drawn.

    >>> resolved_as(parse_command({"do": "draw"}), card="ch-go").card
    'ch-go'
    """
    return Command(
        do=cmd.do, by=cmd.by, square=cmd.square, amount=cmd.amount, count=cmd.count,
        dice=cmd.dice if dice is None else dice, card=cmd.card if card is None else card,
        payer=cmd.payer, payee=cmd.payee, via_go=cmd.via_go, give=cmd.give, take=cmd.take,
        building=cmd.building, reason=cmd.reason, edition=cmd.edition, players=cmd.players,
        seed=cmd.seed, options=cmd.options, gift=cmd.gift,
    )


def command_to_json(cmd: Command) -> dict[str, Any]:
    """The table-script form of a command (the inverse of parse_command).

    >>> command_to_json(parse_command({"do": "bid", "by": "Bo", "amount": 120}))
    {'do': 'bid', 'by': 'Bo', 'amount': 120}
    """
    out: dict[str, Any] = {"do": cmd.do.value}
    allowed = _FIELDS[cmd.do]
    if "by" in allowed and cmd.by is not None:
        out["by"] = cmd.by
    if "square" in allowed and cmd.square is not None:
        out["square"] = cmd.square
    if "amount" in allowed and cmd.amount is not None:
        out["amount"] = cmd.amount
    if "count" in allowed and cmd.count != 1:
        out["count"] = cmd.count
    if "dice" in allowed and cmd.dice is not None:
        out["dice"] = list(cmd.dice)
    if "card" in allowed and cmd.card is not None:
        out["card"] = cmd.card
    if "from" in allowed and cmd.payer is not None:
        out["from"] = cmd.payer
    if "to" in allowed and cmd.payee is not None:
        out["to"] = cmd.payee
    if "via_go" in allowed and cmd.via_go:
        out["via_go"] = True
    if cmd.do is Verb.TRADE:
        for name, offer in (("give", cmd.give), ("take", cmd.take)):
            out[name] = {"cash": offer.cash, "squares": list(offer.squares), "cards": offer.cards}
    if "building" in allowed and (cmd.do is not Verb.BUILD or cmd.building != "house"):
        out["building"] = cmd.building
    if "gift" in allowed:
        out["gift"] = cmd.gift
    if "reason" in allowed:
        out["reason"] = cmd.reason
    if cmd.do is Verb.NEW_GAME:
        out.update(edition=cmd.edition, players=list(cmd.players), seed=cmd.seed,
                   options=dict(cmd.options))
    return out
