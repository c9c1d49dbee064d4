"""The command vocabulary shared by the table script, the journal, phones and hardware.

A command arrives as a JSON object (`{"do": "roll", "dice": [3, 4]}`); `parse_command`
checks its shape and gives its typed record (`Roll`, `Bid`, `Trade`, ...: `Command` is their
union), which carries only that verb's fields. Whether it is allowed now is the engine's call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Final

from companion.rules.codes import Code, RulesError

JSON = dict[str, Any]


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

    def to_json(self) -> JSON:
        """This side as table-script JSON."""
        return {"cash": self.cash, "squares": list(self.squares), "cards": self.cards}


#: the side of a trade that gives nothing (read-only, so commands share it)
NOTHING = Offer()


# --- one record per verb -----------------------------------------------------------------
#
# Each record carries only its own verb's fields, so the engine's handler for it (and mypy)
# knows exactly what a command holds. The constructors are written by hand and the fields
# marked `Final`, as the events' are (companion/rules/events.py): a frozen dataclass sets
# each field through `object.__setattr__`, which made building a command cost more than
# applying it in plain Python. `to_json()` gives the table-script form (the inverse of
# parse_command), with the keys in the order the journal has always written them.


def _by(out: JSON, by: str | None) -> JSON:
    """`out` with "by" when a player is named."""
    if by is not None:
        out["by"] = by
    return out


@dataclass(slots=True, init=False)
class NewGame:
    """Start a game: the edition, the players in turn order, the shuffle's seed, options."""

    do: ClassVar[Verb] = Verb.NEW_GAME
    edition: Final[str]
    players: Final[tuple[str, ...]]
    seed: Final[int]
    options: Final[dict[str, Any]]

    def __init__(self, edition: str, players: tuple[str, ...], seed: int = 0,
                 options: dict[str, Any] | None = None) -> None:
        self.edition = edition
        self.players = players
        self.seed = seed
        self.options = {} if options is None else options

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return {"do": "new_game", "edition": self.edition, "players": list(self.players),
                "seed": self.seed, "options": dict(self.options)}


@dataclass(slots=True, init=False)
class Roll:
    """Roll: the device's dice (`dice` None) or the physical dice entered."""

    do: ClassVar[Verb] = Verb.ROLL
    by: Final[str | None]
    dice: Final[tuple[int | str, ...] | None]

    def __init__(self, by: str | None = None,
                 dice: tuple[int | str, ...] | None = None) -> None:
        self.by = by
        self.dice = dice

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "roll"}, self.by)
        if self.dice is not None:
            out["dice"] = list(self.dice)
        return out


@dataclass(slots=True, init=False)
class Buy:
    """Buy the property the player stands on."""

    do: ClassVar[Verb] = Verb.BUY
    by: Final[str | None]

    def __init__(self, by: str | None = None) -> None:
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return _by({"do": "buy"}, self.by)


@dataclass(slots=True, init=False)
class Decline:
    """Decline to buy (an auction follows), or keep the mortgages of deeds received."""

    do: ClassVar[Verb] = Verb.DECLINE
    by: Final[str | None]

    def __init__(self, by: str | None = None) -> None:
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return _by({"do": "decline"}, self.by)


@dataclass(slots=True, init=False)
class Bid:
    """A bid in the running auction."""

    do: ClassVar[Verb] = Verb.BID
    by: Final[str]
    amount: Final[int]

    def __init__(self, by: str, amount: int) -> None:
        self.by = by
        self.amount = amount

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return {"do": "bid", "by": self.by, "amount": self.amount}


@dataclass(slots=True, init=False)
class Pass:
    """Leave the running auction."""

    do: ClassVar[Verb] = Verb.PASS
    by: Final[str]

    def __init__(self, by: str) -> None:
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return {"do": "pass", "by": self.by}


@dataclass(slots=True, init=False)
class CloseAuction:
    """The banker's gavel: the highest bid wins now."""

    do: ClassVar[Verb] = Verb.CLOSE_AUCTION

    def __init__(self) -> None:
        pass

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return {"do": "close_auction"}


@dataclass(slots=True, init=False)
class Draw:
    """Draw a card: the one the table names (`card`), or the device's (None)."""

    do: ClassVar[Verb] = Verb.DRAW
    by: Final[str | None]
    card: Final[str | None]

    def __init__(self, by: str | None = None, card: str | None = None) -> None:
        self.by = by
        self.card = card

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "draw"}, self.by)
        if self.card is not None:
            out["card"] = self.card
        return out


@dataclass(slots=True, init=False)
class EndTurn:
    """Hand the dice to the next player."""

    do: ClassVar[Verb] = Verb.END_TURN
    by: Final[str | None]

    def __init__(self, by: str | None = None) -> None:
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return _by({"do": "end_turn"}, self.by)


@dataclass(slots=True, init=False)
class Land:
    """Bank-only play: the player's token landed on a square (one per roll, doubles give
    another); GO is paid when the move from the token's square passed or reached it."""

    do: ClassVar[Verb] = Verb.LAND
    square: Final[int | str]
    by: Final[str | None]
    via_go: Final[bool]
    dice: Final[tuple[int | str, ...] | None]

    #: the banker's correction: the token put there outside the turn's move (any player,
    #: any square, GO paid when `via_go`); journaled as such
    correction: Final[bool]

    def __init__(self, square: int | str, by: str | None = None, via_go: bool = False,
                 dice: tuple[int | str, ...] | None = None, correction: bool = False) -> None:
        self.square = square
        self.by = by
        self.via_go = via_go
        self.dice = dice
        self.correction = correction

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "land"}, self.by)
        out["square"] = self.square
        if self.dice is not None:
            out["dice"] = list(self.dice)
        if self.via_go:
            out["via_go"] = True
        if self.correction:
            out["correction"] = True
        return out


@dataclass(slots=True, init=False)
class PassGo:
    """Bank-only play: the salary for the move being made, before its square is told (at
    most once per move; the square told then must be past GO)."""

    do: ClassVar[Verb] = Verb.PASS_GO
    by: Final[str | None]
    #: the banker's correction: the salary paid outside the turn's move; journaled as such
    correction: Final[bool]

    def __init__(self, by: str | None = None, correction: bool = False) -> None:
        self.by = by
        self.correction = correction

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "pass_go"}, self.by)
        if self.correction:
            out["correction"] = True
        return out


@dataclass(slots=True, init=False)
class Pay:
    """Move money between players, the bank or the pot (corrections, side deals)."""

    do: ClassVar[Verb] = Verb.PAY
    payer: Final[str]
    payee: Final[str]
    amount: Final[int]

    def __init__(self, payer: str, payee: str, amount: int) -> None:
        self.payer = payer
        self.payee = payee
        self.amount = amount

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return {"do": "pay", "amount": self.amount, "from": self.payer, "to": self.payee}


@dataclass(slots=True, init=False)
class Build:
    """Buy buildings on a lot: "house" builds whatever comes next (`count` of them);
    "hotel", "skyscraper" or "depot" also check that it is that."""

    do: ClassVar[Verb] = Verb.BUILD
    square: Final[int | str]
    by: Final[str | None]
    count: Final[int]
    building: Final[str]

    def __init__(self, square: int | str, by: str | None = None, count: int = 1,
                 building: str = "house") -> None:
        self.square = square
        self.by = by
        self.count = count
        self.building = building

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "build"}, self.by)
        out["square"] = self.square
        if self.count != 1:
            out["count"] = self.count
        if self.building != "house":
            out["building"] = self.building
        return out


@dataclass(slots=True, init=False)
class SellBuilding:
    """Sell houses or a hotel back to the bank."""

    do: ClassVar[Verb] = Verb.SELL_BUILDING
    square: Final[int | str]
    by: Final[str | None]
    count: Final[int]

    def __init__(self, square: int | str, by: str | None = None, count: int = 1) -> None:
        self.square = square
        self.by = by
        self.count = count

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "sell_building"}, self.by)
        out["square"] = self.square
        if self.count != 1:
            out["count"] = self.count
        return out


@dataclass(slots=True, init=False)
class Mortgage:
    """Mortgage a property to the bank."""

    do: ClassVar[Verb] = Verb.MORTGAGE
    square: Final[int | str]
    by: Final[str | None]

    def __init__(self, square: int | str, by: str | None = None) -> None:
        self.square = square
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "mortgage"}, self.by)
        out["square"] = self.square
        return out


@dataclass(slots=True, init=False)
class Unmortgage:
    """Lift a mortgage."""

    do: ClassVar[Verb] = Verb.UNMORTGAGE
    square: Final[int | str]
    by: Final[str | None]

    def __init__(self, square: int | str, by: str | None = None) -> None:
        self.square = square
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "unmortgage"}, self.by)
        out["square"] = self.square
        return out


@dataclass(slots=True, init=False)
class PayFine:
    """Pay the jail fine and leave jail."""

    do: ClassVar[Verb] = Verb.PAY_FINE
    by: Final[str | None]

    def __init__(self, by: str | None = None) -> None:
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return _by({"do": "pay_fine"}, self.by)


@dataclass(slots=True, init=False)
class UseCard:
    """Use a Get Out of Jail Free card."""

    do: ClassVar[Verb] = Verb.USE_CARD
    by: Final[str | None]

    def __init__(self, by: str | None = None) -> None:
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return _by({"do": "use_card"}, self.by)


@dataclass(slots=True, init=False)
class Trade:
    """An agreed exchange: `payer` gives `give` and receives `take` from `payee`."""

    do: ClassVar[Verb] = Verb.TRADE
    payer: Final[str]
    payee: Final[str]
    give: Final[Offer]
    take: Final[Offer]

    def __init__(self, payer: str, payee: str, give: Offer = NOTHING,
                 take: Offer = NOTHING) -> None:
        self.payer = payer
        self.payee = payee
        self.give = give
        self.take = take

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return {"do": "trade", "from": self.payer, "to": self.payee,
                "give": self.give.to_json(), "take": self.take.to_json()}


@dataclass(slots=True, init=False)
class Bankrupt:
    """Declare bankruptcy on an unpayable debt."""

    do: ClassVar[Verb] = Verb.BANKRUPT
    by: Final[str | None]

    def __init__(self, by: str | None = None) -> None:
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return _by({"do": "bankrupt"}, self.by)


@dataclass(slots=True, init=False)
class AuctionBuilding:
    """A shortage: the banker auctions a "house", "hotel" or "skyscraper"."""

    do: ClassVar[Verb] = Verb.AUCTION_BUILDING
    building: Final[str]

    def __init__(self, building: str = "house") -> None:
        self.building = building

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return {"do": "auction_building", "building": self.building}


@dataclass(slots=True, init=False)
class ClaimRent:
    """The owner claims rent in time (when rent must be claimed)."""

    do: ClassVar[Verb] = Verb.CLAIM_RENT
    by: Final[str | None]

    def __init__(self, by: str | None = None) -> None:
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return _by({"do": "claim_rent"}, self.by)


@dataclass(slots=True, init=False)
class EndGame:
    """End now and count: by "agreement", or at the timed game's end ("time")."""

    do: ClassVar[Verb] = Verb.END_GAME
    reason: Final[str]

    def __init__(self, reason: str = "agreement") -> None:
        self.reason = reason

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        return {"do": "end_game", "reason": self.reason}


@dataclass(slots=True, init=False)
class UseBusTicket:
    """Instead of rolling: ride to a square on this side of the board."""

    do: ClassVar[Verb] = Verb.USE_BUS_TICKET
    square: Final[int | str]
    by: Final[str | None]

    def __init__(self, square: int | str, by: str | None = None) -> None:
        self.square = square
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "use_bus_ticket"}, self.by)
        out["square"] = self.square
        return out


@dataclass(slots=True, init=False)
class ChooseSquare:
    """Where a triple goes, or which property the Auction square auctions."""

    do: ClassVar[Verb] = Verb.CHOOSE_SQUARE
    square: Final[int | str]
    by: Final[str | None]

    def __init__(self, square: int | str, by: str | None = None) -> None:
        self.square = square
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "choose_square"}, self.by)
        out["square"] = self.square
        return out


@dataclass(slots=True, init=False)
class ChooseGift:
    """The Birthday gift: "money" from the bank or a "bus_ticket"."""

    do: ClassVar[Verb] = Verb.CHOOSE_GIFT
    gift: Final[str]
    by: Final[str | None]

    def __init__(self, gift: str, by: str | None = None) -> None:
        self.gift = gift
        self.by = by

    def to_json(self) -> JSON:
        """The command as table-script JSON."""
        out = _by({"do": "choose_gift"}, self.by)
        out["gift"] = self.gift
        return out


#: a parsed command: one record per verb
Command = (NewGame | Roll | Buy | Decline | Bid | Pass | CloseAuction | Draw | EndTurn | Land
           | PassGo | Pay | Build | SellBuilding | Mortgage | Unmortgage | PayFine | UseCard
           | Trade | Bankrupt | AuctionBuilding | ClaimRent | EndGame | UseBusTicket
           | ChooseSquare | ChooseGift)
#: every verb's record type (Command's members, by verb)
COMMAND_TYPES: dict[Verb, type[Command]] = {
    t.do: t for t in (NewGame, Roll, Buy, Decline, Bid, Pass, CloseAuction, Draw, EndTurn,
                      Land, PassGo, Pay, Build, SellBuilding, Mortgage, Unmortgage, PayFine,
                      UseCard, Trade, Bankrupt, AuctionBuilding, ClaimRent, EndGame,
                      UseBusTicket, ChooseSquare, ChooseGift)
}


# --- offers: what legal_commands says the table may send now -----------------------------
#
# One record per shape of offer, the choices in their own field; `to_json()` gives the
# entry of the public state's "legal" list (docs/state-json.md). An offer is built afresh
# for each state, and its JSON shares the offer's lists (nobody keeps both). The verb's
# name is read as `_value_`: the enum's `value` property costs five times more in plain
# Python, and every commit builds these for the screen and the phones.


@dataclass(slots=True, init=False)
class ActOffer:
    """A verb with nothing to choose, offered to one player (`by`; None when nobody is
    named): buy, decline, pass, draw, roll, bankrupt, pay_fine, use_card, end_turn,
    pass_go, claim_rent."""

    do: Final[Verb]
    by: Final[str | None]

    def __init__(self, do: Verb, by: str | None) -> None:
        self.do = do
        self.by = by

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        return {"do": self.do._value_, "by": self.by}


@dataclass(slots=True, init=False)
class BareOffer:
    """A verb anyone at the table may send, with nothing to fill in: close_auction,
    end_game."""

    do: Final[Verb]

    def __init__(self, do: Verb) -> None:
        self.do = do

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        return {"do": self.do._value_}


@dataclass(slots=True, init=False)
class BidOffer:
    """A bid `by` a player: any whole amount from `min` to `max` (their cash)."""

    do: ClassVar[Verb] = Verb.BID
    by: Final[str]
    min: Final[int]
    max: Final[int]

    def __init__(self, by: str, min: int, max: int) -> None:  # noqa: A002 (the JSON keys)
        self.by = by
        self.min = min
        self.max = max

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        return {"do": "bid", "by": self.by, "min": self.min, "max": self.max}


@dataclass(slots=True, init=False)
class SquaresOffer:
    """A verb naming one of `squares` (board indexes), `by` a player: build,
    sell_building, mortgage, unmortgage, land, use_bus_ticket, choose_square."""

    do: Final[Verb]
    by: Final[str | None]
    squares: Final[list[int]]

    def __init__(self, do: Verb, by: str | None, squares: list[int]) -> None:
        self.do = do
        self.by = by
        self.squares = squares

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        return {"do": self.do._value_, "by": self.by, "squares": self.squares}


@dataclass(slots=True, init=False)
class GiftOffer:
    """One Birthday gift `by` may choose (one offer per gift on offer)."""

    do: ClassVar[Verb] = Verb.CHOOSE_GIFT
    by: Final[str | None]
    gift: Final[str]

    def __init__(self, by: str | None, gift: str) -> None:
        self.by = by
        self.gift = gift

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        return {"do": "choose_gift", "by": self.by, "gift": self.gift}


@dataclass(slots=True, init=False)
class BuildingAuctionOffer:
    """The banker's call in a shortage: the `buildings` the bank could auction now."""

    do: ClassVar[Verb] = Verb.AUCTION_BUILDING
    buildings: Final[list[str]]

    def __init__(self, buildings: list[str]) -> None:
        self.buildings = buildings

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        return {"do": "auction_building", "buildings": self.buildings}


@dataclass(slots=True, init=False)
class PayOffer:
    """Money may move from any of `payers` to any of `payees` (names, "bank")."""

    do: ClassVar[Verb] = Verb.PAY
    payers: Final[list[str]]
    payees: Final[list[str]]

    def __init__(self, payers: list[str], payees: list[str]) -> None:
        self.payers = payers
        self.payees = payees

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        return {"do": "pay", "from": self.payers, "to": self.payees}


@dataclass(slots=True, init=False)
class TradeOffer:
    """Any two of `players` may trade."""

    do: ClassVar[Verb] = Verb.TRADE
    players: Final[list[str]]

    def __init__(self, players: list[str]) -> None:
        self.players = players

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        return {"do": "trade", "players": self.players}


@dataclass(slots=True, init=False)
class LandOffer:
    """Bank-only play: where `by` may tell their token landed (`squares`), and of those the
    ones whose move passed or reached GO (`via_go`: landing there pays the salary)."""

    do: ClassVar[Verb] = Verb.LAND
    by: Final[str]
    squares: Final[list[int]]
    via_go: Final[list[int]]

    def __init__(self, by: str, squares: list[int], via_go: list[int]) -> None:
        self.by = by
        self.squares = squares
        self.via_go = via_go

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        return {"do": "land", "by": self.by, "squares": self.squares, "via_go": self.via_go}


@dataclass(slots=True, init=False)
class CorrectionOffer:
    """The banker's correction of a move (land or pass_go with "correction": true): for any
    of `players`, on any of `squares` (land). Nobody is named: the session lets only the
    banker send it."""

    do: Final[Verb]
    players: Final[list[str]]
    squares: Final[list[int] | None]

    def __init__(self, do: Verb, players: list[str], squares: list[int] | None = None) -> None:
        self.do = do
        self.players = players
        self.squares = squares

    def to_json(self) -> JSON:
        """The offer as an entry of the public state's "legal" list."""
        out: JSON = {"do": self.do._value_, "correction": True, "players": self.players}
        if self.squares is not None:
            out["squares"] = self.squares
        return out


#: what legal_commands offers: one record per shape of offer
LegalOffer = (ActOffer | BareOffer | BidOffer | SquaresOffer | GiftOffer | BuildingAuctionOffer
              | PayOffer | TradeOffer | LandOffer | CorrectionOffer)


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
    Verb.LAND: {"by", "square", "via_go", "dice", "correction"},
    Verb.PASS_GO: {"by", "correction"},
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

#: the verbs parse_command picks the record by, as module constants: a member read
#: through its class (`Verb.PAY`) costs a call of EnumType's attribute hook
#: (about 0.13 µs in plain Python, as `edition.KIND_LOT` says)
_V_NEW_GAME: Final = Verb.NEW_GAME
_V_ROLL: Final = Verb.ROLL
_V_BUY: Final = Verb.BUY
_V_DECLINE: Final = Verb.DECLINE
_V_BID: Final = Verb.BID
_V_PASS: Final = Verb.PASS
_V_CLOSE_AUCTION: Final = Verb.CLOSE_AUCTION
_V_DRAW: Final = Verb.DRAW
_V_END_TURN: Final = Verb.END_TURN
_V_LAND: Final = Verb.LAND
_V_PASS_GO: Final = Verb.PASS_GO
_V_PAY: Final = Verb.PAY
_V_BUILD: Final = Verb.BUILD
_V_SELL_BUILDING: Final = Verb.SELL_BUILDING
_V_MORTGAGE: Final = Verb.MORTGAGE
_V_UNMORTGAGE: Final = Verb.UNMORTGAGE
_V_PAY_FINE: Final = Verb.PAY_FINE
_V_USE_CARD: Final = Verb.USE_CARD
_V_TRADE: Final = Verb.TRADE
_V_BANKRUPT: Final = Verb.BANKRUPT
_V_AUCTION_BUILDING: Final = Verb.AUCTION_BUILDING
_V_CLAIM_RENT: Final = Verb.CLAIM_RENT
_V_END_GAME: Final = Verb.END_GAME
_V_USE_BUS_TICKET: Final = Verb.USE_BUS_TICKET
_V_CHOOSE_SQUARE: Final = Verb.CHOOSE_SQUARE


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
    """Check a command object's shape and give its record; raises RulesError(BAD_COMMAND)
    saying what is wrong.

    >>> cmd = parse_command({"do": "roll", "dice": [3, 4]})
    >>> type(cmd).__name__, cmd.dice
    ('Roll', (3, 4))
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
    # the fields are checked in this order, whatever the verb, so a command with several
    # faults is refused for the same one as ever
    by = None
    if "by" in obj and obj["by"] is not None:
        by = _name(obj["by"], "by")
    square: int | str = 0
    if "square" in obj:
        square = _square_ref(obj["square"])
    amount = 0
    if "amount" in obj:
        amount = _whole(obj["amount"], "amount", 1)
    count = 1
    if "count" in obj:
        count = _whole(obj["count"], "count", 1)
    dice: tuple[int | str, ...] | None = None
    if obj.get("dice") is not None:
        listed = obj["dice"]
        if not isinstance(listed, list) or not all(
            (isinstance(d, int) and not isinstance(d, bool)) or d in _SPEED_SYMBOLS
            for d in listed
        ):
            raise _bad("'dice' must be a list of whole numbers (the speed die may show "
                       "\"bus\" or \"mr_monopoly\")")
        dice = tuple(listed)
    card = None
    if obj.get("card") is not None:
        if not isinstance(obj["card"], str):
            raise _bad("'card' must be a card id")
        card = obj["card"]
    payer = payee = ""
    if "from" in obj:
        payer = _name(obj["from"], "from")
    if "to" in obj:
        payee = _name(obj["to"], "to")
    via_go = False
    if "via_go" in obj:
        if not isinstance(obj["via_go"], bool):
            raise _bad("'via_go' must be true or false")
        via_go = obj["via_go"]
    correction = False
    if "correction" in obj:
        if not isinstance(obj["correction"], bool):
            raise _bad("'correction' must be true or false")
        correction = obj["correction"]
    if verb is _V_TRADE:
        give = _offer(obj.get("give"), "give")
        take = _offer(obj.get("take"), "take")
        return Trade(payer, payee, give, take)
    reason = "agreement"
    if "reason" in obj:
        if not isinstance(obj["reason"], str) or obj["reason"] not in {"agreement", "time"}:
            raise _bad("'reason' must be \"agreement\" or \"time\"")
        reason = obj["reason"]
    building = "house"
    if "building" in obj:
        allowed_buildings = BUILDINGS if verb is _V_BUILD else BUILDINGS[:3]
        if not isinstance(obj["building"], str) or obj["building"] not in allowed_buildings:
            raise _bad(f"'building' must be one of {', '.join(allowed_buildings)}")
        building = obj["building"]
    gift = ""
    if "gift" in obj:
        if not isinstance(obj["gift"], str) or obj["gift"] not in GIFTS:
            raise _bad("'gift' must be \"money\" or \"bus_ticket\"")
        gift = obj["gift"]
    if verb is _V_NEW_GAME:
        if not isinstance(obj["edition"], str):
            raise _bad("'edition' must be an edition id")
        players = obj["players"]
        if not isinstance(players, list):
            raise _bad("'players' must be a list of names")
        names = tuple(_name(p, "players") for p in players)
        seed = _whole(obj.get("seed", 0), "seed")
        options = obj.get("options", {})
        if not isinstance(options, dict):
            raise _bad("'options' must be an object")
        return NewGame(obj["edition"], names, seed, dict(options))
    if verb is _V_ROLL:
        return Roll(by, dice)
    if verb is _V_END_TURN:
        return EndTurn(by)
    if verb is _V_BUY:
        return Buy(by)
    if verb is _V_DECLINE:
        return Decline(by)
    if verb is _V_BID or verb is _V_PASS:
        if by is None:  # required, and named: a bid or a pass is one player's
            raise _bad("'by' must be a player's name")
        return Bid(by, amount) if verb is _V_BID else Pass(by)
    if verb is _V_CLOSE_AUCTION:
        return CloseAuction()
    if verb is _V_DRAW:
        return Draw(by, card)
    if verb is _V_LAND:
        return Land(square, by, via_go, dice, correction)
    if verb is _V_PASS_GO:
        return PassGo(by, correction)
    if verb is _V_PAY:
        return Pay(payer, payee, amount)
    if verb is _V_BUILD:
        return Build(square, by, count, building)
    if verb is _V_SELL_BUILDING:
        return SellBuilding(square, by, count)
    if verb is _V_MORTGAGE:
        return Mortgage(square, by)
    if verb is _V_UNMORTGAGE:
        return Unmortgage(square, by)
    if verb is _V_PAY_FINE:
        return PayFine(by)
    if verb is _V_USE_CARD:
        return UseCard(by)
    if verb is _V_BANKRUPT:
        return Bankrupt(by)
    if verb is _V_AUCTION_BUILDING:
        return AuctionBuilding(building)
    if verb is _V_CLAIM_RENT:
        return ClaimRent(by)
    if verb is _V_END_GAME:
        return EndGame(reason)
    if verb is _V_USE_BUS_TICKET:
        return UseBusTicket(square, by)
    if verb is _V_CHOOSE_SQUARE:
        return ChooseSquare(square, by)
    return ChooseGift(gift, by)


#: the verbs that name one square, each with its record (all take the square, then "by")
SQUARE_COMMANDS: dict[str, Callable[[int | str, str | None], Command]] = {
    "build": Build, "sell_building": SellBuilding, "mortgage": Mortgage,
    "unmortgage": Unmortgage, "land": Land, "use_bus_ticket": UseBusTicket,
    "choose_square": ChooseSquare,
}


def square_command(verb: str, square: int | str, by: str | None = None) -> Command:
    """The command of a per-square verb (a SquaresOffer's) naming one of its squares.

    >>> square_command("mortgage", 3, "Bo").to_json()
    {'do': 'mortgage', 'by': 'Bo', 'square': 3}
    """
    make = SQUARE_COMMANDS.get(verb)
    if make is None:
        raise _bad(f"{verb!r} does not name a square")
    return make(square, by)


def resolved_as(cmd: Command, dice: tuple[int | str, ...] | None = None,
                card: str | None = None) -> Command:
    """The command with what the device decided filled in: the dice rolled (a Roll), the
    card drawn (a Draw); any other command is already as it happened.

    >>> resolved_as(Draw(), card="ch-go").to_json()
    {'do': 'draw', 'card': 'ch-go'}
    """
    if isinstance(cmd, Roll) and dice is not None:
        return Roll(cmd.by, dice)
    if isinstance(cmd, Draw) and card is not None:
        return Draw(cmd.by, card)
    return cmd


def command_to_json(cmd: Command) -> dict[str, Any]:
    """The table-script form of a command (the inverse of parse_command): `cmd.to_json()`.

    >>> command_to_json(parse_command({"do": "bid", "by": "Bo", "amount": 120}))
    {'do': 'bid', 'by': 'Bo', 'amount': 120}
    """
    return cmd.to_json()
