"""What happened: one record per event kind, as the engine (and the session) tells it.

`apply` answers a command with a list of these (`Events`), in the order things happened.
Each record is immutable and typed; `to_json()` gives its JSON form (docs/state-json.md,
docs/session.md: the events of `Update.events`, of the journal and of the history API) and
`event_from_json` reads that form back, refusing anything it does not know.

The records write their `__init__` by hand and mark their fields `Final` instead of using
`dataclass(frozen=True)`: a frozen dataclass sets every field through `object.__setattr__`,
about three times the cost of a dict literal in plain Python, and the engine builds several
events per command. `Final` keeps them read-only for mypy, and the compiled engine (mypyc)
refuses writes at run time too.

Field names follow the JSON keys; `from_` and `for_` stand for the Python keywords.

>>> Moved("Ann", 3, 10).to_json()
{'kind': 'moved', 'player': 'Ann', 'from': 3, 'to': 10}
>>> event_from_json({"kind": "moved", "player": "Ann", "from": 3, "to": 10})
Moved(player='Ann', from_=3, to=10)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

JSON = dict[str, Any]


class EventError(ValueError):
    """An event's JSON form is not one this engine writes; the message says what is wrong."""


# --- a game begins and ends --------------------------------------------------------------


@dataclass(slots=True, init=False)
class GameStarted:
    """A game was dealt: its edition and players, in turn order."""

    kind: ClassVar[str] = "game_started"
    edition: Final[str]
    players: Final[tuple[str, ...]]

    def __init__(self, edition: str, players: tuple[str, ...]) -> None:
        self.edition = edition
        self.players = players

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "game_started", "edition": self.edition, "players": list(self.players)}


@dataclass(slots=True, init=False)
class Standing:
    """One player's counted wealth when a game ends by counting (part of GameEnded)."""

    name: Final[str]
    total: Final[int]
    cash: Final[int]
    deeds: Final[int]
    mortgaged: Final[int]
    buildings: Final[int]
    bankrupt: Final[bool]

    def __init__(self, name: str, total: int, cash: int, deeds: int, mortgaged: int,
                 buildings: int, bankrupt: bool) -> None:
        self.name = name
        self.total = total
        self.cash = cash
        self.deeds = deeds
        self.mortgaged = mortgaged
        self.buildings = buildings
        self.bankrupt = bankrupt

    def to_json(self) -> JSON:
        """The row as JSON (the state's `standings` rows have the same form)."""
        return {"name": self.name, "total": self.total, "cash": self.cash, "deeds": self.deeds,
                "mortgaged": self.mortgaged, "buildings": self.buildings,
                "bankrupt": self.bankrupt}


@dataclass(slots=True, init=False)
class GameEnded:
    """The game ended by counting (short or timed game, or "end now"): the standings."""

    kind: ClassVar[str] = "game_ended"
    reason: Final[str]
    standings: Final[tuple[Standing, ...]]

    def __init__(self, reason: str, standings: tuple[Standing, ...]) -> None:
        self.reason = reason
        self.standings = standings

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "game_ended", "reason": self.reason,
                "standings": [s.to_json() for s in self.standings]}


@dataclass(slots=True, init=False)
class Winner:
    """The player won the game."""

    kind: ClassVar[str] = "winner"
    player: Final[str]

    def __init__(self, player: str) -> None:
        self.player = player

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "winner", "player": self.player}


@dataclass(slots=True, init=False)
class Turn:
    """The dice passed: it is now the player's turn, the game's turn `number`."""

    kind: ClassVar[str] = "turn"
    player: Final[str]
    number: Final[int]

    def __init__(self, player: str, number: int) -> None:
        self.player = player
        self.number = number

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "turn", "player": self.player, "number": self.number}


# --- money -------------------------------------------------------------------------------


@dataclass(slots=True, init=False)
class Why:
    """Why a charge is its amount: the rule that set it, the square it was for, the figures
    it was computed from (name, value), and the rule option that governs a figure.

    >>> Why("rent_full_group", 1, (("rent", 2), ("times", 2)), "unbuilt_rent_full_group").to_json()
    {'rule': 'rent_full_group', 'square': 1, 'terms': {'rent': 2, 'times': 2}, \
'option': 'unbuilt_rent_full_group'}
    """

    rule: Final[str]
    square: Final[int | None]
    terms: Final[tuple[tuple[str, int], ...]]
    option: Final[str | None]

    def __init__(self, rule: str, square: int | None = None,
                 terms: tuple[tuple[str, int], ...] = (), option: str | None = None) -> None:
        self.rule = rule
        self.square = square
        self.terms = terms
        self.option = option

    def term(self, name: str, default: int = 0) -> int:
        """One figure by its name."""
        for key, value in self.terms:
            if key == name:
                return value
        return default

    def with_term(self, name: str, value: int) -> Why:
        """The same reason with one more figure (a card's "twice the rent")."""
        return Why(self.rule, self.square, (*self.terms, (name, value)), self.option)

    def to_json(self) -> JSON:
        """The reason as JSON; square and option only when there is one."""
        out: JSON = {"rule": self.rule}
        if self.square is not None:
            out["square"] = self.square
        out["terms"] = dict(self.terms)
        if self.option is not None:
            out["option"] = self.option
        return out


@dataclass(slots=True, init=False)
class Transfer:
    """Money moved: from and to a player's name, "pot", or None for the bank; `why` says how
    the amount came about when a rule set it."""

    kind: ClassVar[str] = "transfer"
    from_: Final[str | None]
    to: Final[str | None]
    amount: Final[int]
    reason: Final[str]
    why: Final[Why | None]

    def __init__(self, from_: str | None, to: str | None, amount: int, reason: str,
                 why: Why | None = None) -> None:
        self.from_ = from_
        self.to = to
        self.amount = amount
        self.reason = reason
        self.why = why

    def to_json(self) -> JSON:
        """The event as JSON."""
        out: JSON = {"kind": "transfer", "from": self.from_, "to": self.to,
                     "amount": self.amount, "reason": self.reason}
        if self.why is not None:
            out["why"] = self.why.to_json()
        return out


@dataclass(slots=True, init=False)
class Debt:
    """The player owes more than their cash: a debt to the creditor (None: the bank)."""

    kind: ClassVar[str] = "debt"
    player: Final[str]
    creditor: Final[str | None]
    amount: Final[int]
    reason: Final[str]
    why: Final[Why | None]

    def __init__(self, player: str, creditor: str | None, amount: int, reason: str,
                 why: Why | None = None) -> None:
        self.player = player
        self.creditor = creditor
        self.amount = amount
        self.reason = reason
        self.why = why

    def to_json(self) -> JSON:
        """The event as JSON."""
        out: JSON = {"kind": "debt", "player": self.player, "creditor": self.creditor,
                     "amount": self.amount, "reason": self.reason}
        if self.why is not None:
            out["why"] = self.why.to_json()
        return out


@dataclass(slots=True, init=False)
class Bankrupt:
    """The player went bankrupt to the creditor (None: the bank)."""

    kind: ClassVar[str] = "bankrupt"
    player: Final[str]
    creditor: Final[str | None]

    def __init__(self, player: str, creditor: str | None) -> None:
        self.player = player
        self.creditor = creditor

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "bankrupt", "player": self.player, "creditor": self.creditor}


@dataclass(slots=True, init=False)
class DeedsTransferred:
    """A bankrupt player's deeds went to the player they owed."""

    kind: ClassVar[str] = "deeds_transferred"
    from_: Final[str]
    to: Final[str]
    squares: Final[tuple[int, ...]]

    def __init__(self, from_: str, to: str, squares: tuple[int, ...]) -> None:
        self.from_ = from_
        self.to = to
        self.squares = squares

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "deeds_transferred", "from": self.from_, "to": self.to,
                "squares": list(self.squares)}


@dataclass(slots=True, init=False)
class PassGo:
    """The player passed or landed on GO and collects the salary."""

    kind: ClassVar[str] = "pass_go"
    player: Final[str]
    amount: Final[int]

    def __init__(self, player: str, amount: int) -> None:
        self.player = player
        self.amount = amount

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "pass_go", "player": self.player, "amount": self.amount}


@dataclass(slots=True, init=False)
class RentClaimable:
    """The owner may claim this rent from the payer (house rule: rent must be asked for)."""

    kind: ClassVar[str] = "rent_claimable"
    player: Final[str]
    payer: Final[str]
    square: Final[int]
    amount: Final[int]

    def __init__(self, player: str, payer: str, square: int, amount: int) -> None:
        self.player = player
        self.payer = payer
        self.square = square
        self.amount = amount

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "rent_claimable", "player": self.player, "payer": self.payer,
                "square": self.square, "amount": self.amount}


@dataclass(slots=True, init=False)
class RentForfeited:
    """The owner did not claim the rent in time: it is lost."""

    kind: ClassVar[str] = "rent_forfeited"
    player: Final[str]
    payer: Final[str]
    square: Final[int]
    amount: Final[int]

    def __init__(self, player: str, payer: str, square: int, amount: int) -> None:
        self.player = player
        self.payer = payer
        self.square = square
        self.amount = amount

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "rent_forfeited", "player": self.player, "payer": self.payer,
                "square": self.square, "amount": self.amount}


# --- dice, moves and jail ----------------------------------------------------------------


@dataclass(slots=True, init=False)
class Rolled:
    """The player rolled: the dice as the table script writes them (speed die by name);
    `double` for a move roll, `for_rent` when the roll only decides a utility's rent (its
    JSON then says "for": "rent" and no double)."""

    kind: ClassVar[str] = "rolled"
    player: Final[str]
    dice: Final[tuple[int | str, ...]]
    double: Final[bool]
    for_rent: Final[bool]

    def __init__(self, player: str, dice: tuple[int | str, ...], double: bool = False,
                 for_rent: bool = False) -> None:
        self.player = player
        self.dice = dice
        self.double = double
        self.for_rent = for_rent

    def to_json(self) -> JSON:
        """The event as JSON."""
        if self.for_rent:
            return {"kind": "rolled", "player": self.player, "dice": list(self.dice),
                    "for": "rent"}
        return {"kind": "rolled", "player": self.player, "dice": list(self.dice),
                "double": self.double}


@dataclass(slots=True, init=False)
class Moved:
    """The player's token moved from one square to another."""

    kind: ClassVar[str] = "moved"
    player: Final[str]
    from_: Final[int]
    to: Final[int]

    def __init__(self, player: str, from_: int, to: int) -> None:
        self.player = player
        self.from_ = from_
        self.to = to

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "moved", "player": self.player, "from": self.from_, "to": self.to}


@dataclass(slots=True, init=False)
class ThreeDoubles:
    """The player rolled a third double in a row (and goes to jail)."""

    kind: ClassVar[str] = "three_doubles"
    player: Final[str]

    def __init__(self, player: str) -> None:
        self.player = player

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "three_doubles", "player": self.player}


@dataclass(slots=True, init=False)
class Jailed:
    """The player was sent to jail."""

    kind: ClassVar[str] = "jailed"
    player: Final[str]

    def __init__(self, player: str) -> None:
        self.player = player

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "jailed", "player": self.player}


@dataclass(slots=True, init=False)
class LeftJail:
    """The player left jail: how is "doubles", "fine" or "card" (then the card used)."""

    kind: ClassVar[str] = "left_jail"
    player: Final[str]
    how: Final[str]
    card: Final[str | None]

    def __init__(self, player: str, how: str, card: str | None = None) -> None:
        self.player = player
        self.how = how
        self.card = card

    def to_json(self) -> JSON:
        """The event as JSON."""
        if self.card is None:
            return {"kind": "left_jail", "player": self.player, "how": self.how}
        return {"kind": "left_jail", "player": self.player, "how": self.how, "card": self.card}


# --- cards -------------------------------------------------------------------------------


@dataclass(slots=True, init=False)
class CardDrawn:
    """The player drew a card from a deck (JSON kind "card"): its id and printed text."""

    kind: ClassVar[str] = "card"
    player: Final[str]
    deck: Final[str]
    card: Final[str]
    text: Final[str]

    def __init__(self, player: str, deck: str, card: str, text: str) -> None:
        self.player = player
        self.deck = deck
        self.card = card
        self.text = text

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "card", "player": self.player, "deck": self.deck, "card": self.card,
                "text": self.text}


# --- properties and buildings ------------------------------------------------------------


@dataclass(slots=True, init=False)
class Bought:
    """The player bought a property from the bank (or was dealt it) at this price."""

    kind: ClassVar[str] = "bought"
    player: Final[str]
    square: Final[int]
    price: Final[int]

    def __init__(self, player: str, square: int, price: int) -> None:
        self.player = player
        self.square = square
        self.price = price

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "bought", "player": self.player, "square": self.square,
                "price": self.price}


@dataclass(slots=True, init=False)
class Declined:
    """The player did not buy the property they landed on."""

    kind: ClassVar[str] = "declined"
    player: Final[str]
    square: Final[int]

    def __init__(self, player: str, square: int) -> None:
        self.player = player
        self.square = square

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "declined", "player": self.player, "square": self.square}


@dataclass(slots=True, init=False)
class KeptMortgages:
    """The new owner of mortgaged deeds kept them mortgaged."""

    kind: ClassVar[str] = "kept_mortgages"
    player: Final[str]
    squares: Final[tuple[int, ...]]

    def __init__(self, player: str, squares: tuple[int, ...]) -> None:
        self.player = player
        self.squares = squares

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "kept_mortgages", "player": self.player, "squares": list(self.squares)}


@dataclass(slots=True, init=False)
class Mortgaged:
    """The player mortgaged a property."""

    kind: ClassVar[str] = "mortgaged"
    player: Final[str]
    square: Final[int]

    def __init__(self, player: str, square: int) -> None:
        self.player = player
        self.square = square

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "mortgaged", "player": self.player, "square": self.square}


@dataclass(slots=True, init=False)
class Unmortgaged:
    """The player lifted a mortgage; `forced` when a rule made them (Mega's last lot)."""

    kind: ClassVar[str] = "unmortgaged"
    player: Final[str]
    square: Final[int]
    forced: Final[bool]

    def __init__(self, player: str, square: int, forced: bool = False) -> None:
        self.player = player
        self.square = square
        self.forced = forced

    def to_json(self) -> JSON:
        """The event as JSON."""
        if self.forced:
            return {"kind": "unmortgaged", "player": self.player, "square": self.square,
                    "forced": True}
        return {"kind": "unmortgaged", "player": self.player, "square": self.square}


@dataclass(slots=True, init=False)
class Built:
    """The player built on a property: the new level, or a train depot; what it cost."""

    kind: ClassVar[str] = "built"
    player: Final[str]
    square: Final[int]
    level: Final[int | None]
    building: Final[str | None]
    cost: Final[int]

    def __init__(self, player: str, square: int, level: int | None, building: str | None,
                 cost: int) -> None:
        self.player = player
        self.square = square
        self.level = level
        self.building = building
        self.cost = cost

    def to_json(self) -> JSON:
        """The event as JSON."""
        if self.building is not None:
            return {"kind": "built", "player": self.player, "square": self.square,
                    "building": self.building, "cost": self.cost}
        return {"kind": "built", "player": self.player, "square": self.square,
                "level": self.level, "cost": self.cost}


@dataclass(slots=True, init=False)
class SoldBuilding:
    """The player sold buildings back to the bank: the level left, or a train depot; the
    refund."""

    kind: ClassVar[str] = "sold_building"
    player: Final[str]
    square: Final[int]
    level: Final[int | None]
    building: Final[str | None]
    refund: Final[int]

    def __init__(self, player: str, square: int, level: int | None, building: str | None,
                 refund: int) -> None:
        self.player = player
        self.square = square
        self.level = level
        self.building = building
        self.refund = refund

    def to_json(self) -> JSON:
        """The event as JSON."""
        if self.building is not None:
            return {"kind": "sold_building", "player": self.player, "square": self.square,
                    "building": self.building, "refund": self.refund}
        return {"kind": "sold_building", "player": self.player, "square": self.square,
                "level": self.level, "refund": self.refund}


@dataclass(slots=True, init=False)
class Rebalanced:
    """A group's buildings were evened out (Mega's last lot): each lot's level, the cost."""

    kind: ClassVar[str] = "rebalanced"
    player: Final[str]
    levels: Final[tuple[tuple[int, int], ...]]
    cost: Final[int]

    def __init__(self, player: str, levels: tuple[tuple[int, int], ...], cost: int) -> None:
        self.player = player
        self.levels = levels
        self.cost = cost

    def to_json(self) -> JSON:
        """The event as JSON (levels keyed by the square's index as a string)."""
        return {"kind": "rebalanced", "player": self.player,
                "levels": {str(square): level for square, level in self.levels},
                "cost": self.cost}


# --- auctions ----------------------------------------------------------------------------


@dataclass(slots=True, init=False)
class AuctionStarted:
    """The bank auctions a property (`square`) or a building in a shortage (`building`)."""

    kind: ClassVar[str] = "auction_started"
    square: Final[int | None]
    building: Final[str | None]

    def __init__(self, square: int | None = None, building: str | None = None) -> None:
        self.square = square
        self.building = building

    def to_json(self) -> JSON:
        """The event as JSON."""
        if self.building is not None:
            return {"kind": "auction_started", "building": self.building}
        return {"kind": "auction_started", "square": self.square}


@dataclass(slots=True, init=False)
class Bid:
    """The player bid this amount in the auction."""

    kind: ClassVar[str] = "bid"
    player: Final[str]
    amount: Final[int]

    def __init__(self, player: str, amount: int) -> None:
        self.player = player
        self.amount = amount

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "bid", "player": self.player, "amount": self.amount}


@dataclass(slots=True, init=False)
class Passed:
    """The player passed in the auction."""

    kind: ClassVar[str] = "passed"
    player: Final[str]

    def __init__(self, player: str) -> None:
        self.player = player

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "passed", "player": self.player}


@dataclass(slots=True, init=False)
class AuctionClosed:
    """The auction of a square or a building closed: the winner (None: no bid) and price."""

    kind: ClassVar[str] = "auction_closed"
    square: Final[int | None]
    building: Final[str | None]
    winner: Final[str | None]
    amount: Final[int]

    def __init__(self, square: int | None, building: str | None, winner: str | None,
                 amount: int) -> None:
        self.square = square
        self.building = building
        self.winner = winner
        self.amount = amount

    def to_json(self) -> JSON:
        """The event as JSON."""
        if self.building is not None:
            return {"kind": "auction_closed", "building": self.building, "winner": self.winner,
                    "amount": self.amount}
        return {"kind": "auction_closed", "square": self.square, "winner": self.winner,
                "amount": self.amount}


# --- trades ------------------------------------------------------------------------------


@dataclass(slots=True, init=False)
class Goods:
    """One side of a trade as it happened: cash, jail cards (a count) and deeds."""

    cash: Final[int]
    cards: Final[int]
    squares: Final[tuple[int, ...]]

    def __init__(self, cash: int, cards: int, squares: tuple[int, ...]) -> None:
        self.cash = cash
        self.cards = cards
        self.squares = squares

    def to_json(self) -> JSON:
        """The side as JSON."""
        return {"cash": self.cash, "cards": self.cards, "squares": list(self.squares)}


@dataclass(slots=True, init=False)
class Traded:
    """Two players traded: what the first gave and what they took."""

    kind: ClassVar[str] = "traded"
    from_: Final[str]
    to: Final[str]
    give: Final[Goods]
    take: Final[Goods]

    def __init__(self, from_: str, to: str, give: Goods, take: Goods) -> None:
        self.from_ = from_
        self.to = to
        self.give = give
        self.take = take

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "traded", "from": self.from_, "to": self.to,
                "give": self.give.to_json(), "take": self.take.to_json()}


# --- Mega: the speed die, bus tickets, chosen squares ------------------------------------


@dataclass(slots=True, init=False)
class Triple:
    """The player rolled a triple with the speed die: they choose any square."""

    kind: ClassVar[str] = "triple"
    player: Final[str]

    def __init__(self, player: str) -> None:
        self.player = player

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "triple", "player": self.player}


@dataclass(slots=True, init=False)
class MrMonopoly:
    """The speed die showed Mr. Monopoly: the player moves on after this move."""

    kind: ClassVar[str] = "mr_monopoly"
    player: Final[str]

    def __init__(self, player: str) -> None:
        self.player = player

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "mr_monopoly", "player": self.player}


@dataclass(slots=True, init=False)
class MrMonopolyStays:
    """Mr. Monopoly found nothing to move to: the player stays."""

    kind: ClassVar[str] = "mr_monopoly_stays"
    player: Final[str]

    def __init__(self, player: str) -> None:
        self.player = player

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "mr_monopoly_stays", "player": self.player}


@dataclass(slots=True, init=False)
class BusTicket:
    """The player took a bus ticket."""

    kind: ClassVar[str] = "bus_ticket"
    player: Final[str]
    card: Final[str]

    def __init__(self, player: str, card: str) -> None:
        self.player = player
        self.card = card

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "bus_ticket", "player": self.player, "card": self.card}


@dataclass(slots=True, init=False)
class NoBusTicket:
    """The player should take a bus ticket but none is left."""

    kind: ClassVar[str] = "no_bus_ticket"
    player: Final[str]

    def __init__(self, player: str) -> None:
        self.player = player

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "no_bus_ticket", "player": self.player}


@dataclass(slots=True, init=False)
class BusTicketsExpired:
    """The "all other tickets expire" ticket was drawn: this many tickets went back."""

    kind: ClassVar[str] = "bus_tickets_expired"
    count: Final[int]

    def __init__(self, count: int) -> None:
        self.count = count

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "bus_tickets_expired", "count": self.count}


@dataclass(slots=True, init=False)
class BusTicketUsed:
    """The player rode a bus ticket to a square instead of rolling."""

    kind: ClassVar[str] = "bus_ticket_used"
    player: Final[str]
    card: Final[str]
    square: Final[int]

    def __init__(self, player: str, card: str, square: int) -> None:
        self.player = player
        self.card = card
        self.square = square

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "bus_ticket_used", "player": self.player, "card": self.card,
                "square": self.square}


@dataclass(slots=True, init=False)
class ChoseSquare:
    """The player chose a square: where a triple goes, or what the Auction square sells
    (`for_` is "triple" or "auction")."""

    kind: ClassVar[str] = "chose_square"
    player: Final[str]
    square: Final[int]
    for_: Final[str]

    def __init__(self, player: str, square: int, for_: str) -> None:
        self.player = player
        self.square = square
        self.for_ = for_

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "chose_square", "player": self.player, "square": self.square,
                "for": self.for_}


@dataclass(slots=True, init=False)
class AuctionSquareStays:
    """The Auction square found nothing to auction or move to: the player stays."""

    kind: ClassVar[str] = "auction_square_stays"
    player: Final[str]

    def __init__(self, player: str) -> None:
        self.player = player

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "auction_square_stays", "player": self.player}


# --- the session's own events (undo, redo, switching games) ------------------------------


@dataclass(slots=True, init=False)
class Undone:
    """The session undid the command of journal entry `seq` (the command as journaled)."""

    kind: ClassVar[str] = "undone"
    seq: Final[int]
    command: Final[JSON]

    def __init__(self, seq: int, command: JSON) -> None:
        self.seq = seq
        self.command = command

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "undone", "seq": self.seq, "command": self.command}


@dataclass(slots=True, init=False)
class Redone:
    """The session applied the undone command of entry `seq` again (its events follow)."""

    kind: ClassVar[str] = "redone"
    seq: Final[int]
    command: Final[JSON]

    def __init__(self, seq: int, command: JSON) -> None:
        self.seq = seq
        self.command = command

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "redone", "seq": self.seq, "command": self.command}


@dataclass(slots=True, init=False)
class GameSwitched:
    """The table switched from one saved game to another."""

    kind: ClassVar[str] = "game_switched"
    game: Final[str]
    from_: Final[str]

    def __init__(self, game: str, from_: str) -> None:
        self.game = game
        self.from_ = from_

    def to_json(self) -> JSON:
        """The event as JSON."""
        return {"kind": "game_switched", "game": self.game, "from": self.from_}


Event = (
    GameStarted | GameEnded | Winner | Turn
    | Transfer | Debt | Bankrupt | DeedsTransferred | PassGo | RentClaimable | RentForfeited
    | Rolled | Moved | ThreeDoubles | Jailed | LeftJail | CardDrawn
    | Bought | Declined | KeptMortgages | Mortgaged | Unmortgaged | Built | SoldBuilding
    | Rebalanced | AuctionStarted | Bid | Passed | AuctionClosed | Traded
    | Triple | MrMonopoly | MrMonopolyStays | BusTicket | NoBusTicket | BusTicketsExpired
    | BusTicketUsed | ChoseSquare | AuctionSquareStays
    | Undone | Redone | GameSwitched
)
#: what one command did, in order
Events = list[Event]

#: events that name the player they concern in `player`
PLAYER_EVENTS = (
    Winner, Turn, Debt, Bankrupt, PassGo, RentClaimable, RentForfeited, Rolled, Moved,
    ThreeDoubles, Jailed, LeftJail, CardDrawn, Bought, Declined, KeptMortgages, Mortgaged,
    Unmortgaged, Built, SoldBuilding, Rebalanced, Bid, Passed, Triple, MrMonopoly,
    MrMonopolyStays, BusTicket, NoBusTicket, BusTicketUsed, ChoseSquare, AuctionSquareStays,
)


def events_json(events: list[Event]) -> list[JSON]:
    """Events in their JSON form, in order."""
    return [e.to_json() for e in events]


def parties(event: Event) -> tuple[str | None, ...]:
    """Every party the event names: players, "pot", None for the bank."""
    if isinstance(event, (Transfer, DeedsTransferred, Traded)):
        return (event.from_, event.to)
    if isinstance(event, (Debt, Bankrupt)):
        return (event.player, event.creditor)
    if isinstance(event, (RentClaimable, RentForfeited)):
        return (event.player, event.payer)
    if isinstance(event, PLAYER_EVENTS):
        return (event.player,)
    if isinstance(event, AuctionClosed):
        return (event.winner,)
    if isinstance(event, GameStarted):
        return event.players
    return ()


# --- reading the JSON form back ----------------------------------------------------------


class _Fields:
    """An event's JSON object read field by field, each checked for its type."""

    def __init__(self, kind: str, data: Mapping[str, Any]) -> None:
        self.kind = kind
        self.data = data
        self.read: set[str] = {"kind"}

    def _get(self, key: str) -> Any:
        if key not in self.data:
            raise EventError(f"a {self.kind!r} event needs {key!r}")
        self.read.add(key)
        return self.data[key]

    def _wrong(self, key: str, what: str) -> EventError:
        return EventError(f"{key!r} of a {self.kind!r} event must be {what}, "
                          f"not {self.data.get(key)!r}")

    def has(self, key: str) -> bool:
        """Whether the object holds the key (for the optional ones)."""
        return key in self.data

    def num(self, key: str) -> int:
        """A whole number."""
        value = self._get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._wrong(key, "a whole number")
        return value

    def text(self, key: str) -> str:
        """A string."""
        value = self._get(key)
        if not isinstance(value, str):
            raise self._wrong(key, "a string")
        return value

    def party(self, key: str) -> str | None:
        """A name, or null (the bank)."""
        value = self._get(key)
        if value is not None and not isinstance(value, str):
            raise self._wrong(key, "a string or null")
        return value

    def flag(self, key: str) -> bool:
        """true or false."""
        value = self._get(key)
        if not isinstance(value, bool):
            raise self._wrong(key, "true or false")
        return value

    def nums(self, key: str) -> tuple[int, ...]:
        """A list of whole numbers."""
        value = self._get(key)
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self._wrong(key, "a list of whole numbers")
        return tuple(value)

    def texts(self, key: str) -> tuple[str, ...]:
        """A list of strings."""
        value = self._get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._wrong(key, "a list of strings")
        return tuple(value)

    def dice(self, key: str) -> tuple[int | str, ...]:
        """Dice as the table script writes them: numbers, the speed die's symbols by name."""
        value = self._get(key)
        if not isinstance(value, list) or not value or not all(
                isinstance(v, (int, str)) and not isinstance(v, bool) for v in value):
            raise self._wrong(key, "a list of dice")
        return tuple(value)

    def obj(self, key: str) -> JSON:
        """A JSON object."""
        value = self._get(key)
        if not isinstance(value, dict):
            raise self._wrong(key, "an object")
        return value

    def goods(self, key: str) -> Goods:
        """One side of a trade."""
        side = _Fields(f"{self.kind}.{key}", self.obj(key))
        side.read.clear()
        goods = Goods(side.num("cash"), side.num("cards"), side.nums("squares"))
        side.done()
        return goods

    def why(self, key: str) -> Why | None:
        """The reason of a charge, when the event has one."""
        if not self.has(key):
            return None
        f = _Fields(f"{self.kind}.{key}", self.obj(key))
        f.read.clear()
        terms = f.obj("terms")
        if not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                   for k, v in terms.items()):
            raise f._wrong("terms", "names with whole numbers")
        why = Why(f.text("rule"), f.num("square") if f.has("square") else None,
                  tuple(terms.items()), f.text("option") if f.has("option") else None)
        f.done()
        return why

    def levels(self, key: str) -> tuple[tuple[int, int], ...]:
        """Levels keyed by square indexes written as strings."""
        value = self.obj(key)
        out: list[tuple[int, int]] = []
        for square, level in value.items():
            if not (isinstance(square, str) and square.isdigit() and str(int(square)) == square
                    and isinstance(level, int) and not isinstance(level, bool)):
                raise self._wrong(key, "square indexes with their levels")
            out.append((int(square), level))
        return tuple(out)

    def standings(self, key: str) -> tuple[Standing, ...]:
        """The rows of a count."""
        value = self._get(key)
        if not isinstance(value, list) or not all(isinstance(row, dict) for row in value):
            raise self._wrong(key, "a list of objects")
        out: list[Standing] = []
        for row in value:
            f = _Fields(f"{self.kind}.{key}", row)
            f.read.clear()
            out.append(Standing(f.text("name"), f.num("total"), f.num("cash"), f.num("deeds"),
                                f.num("mortgaged"), f.num("buildings"), f.flag("bankrupt")))
            f.done()
        return tuple(out)

    def done(self) -> None:
        """Refuse fields this kind of event does not have (they would be lost)."""
        extra = sorted(set(self.data) - self.read)
        if extra:
            raise EventError(f"a {self.kind!r} event has no {', '.join(map(repr, extra))}")


def _rolled(f: _Fields) -> Rolled:
    if f.has("for"):
        if f.text("for") != "rent":
            raise EventError("a roll is only ever \"for\" a utility's \"rent\"")
        return Rolled(f.text("player"), f.dice("dice"), for_rent=True)
    return Rolled(f.text("player"), f.dice("dice"), f.flag("double"))


def _built(f: _Fields) -> Built:
    if f.has("building"):
        return Built(f.text("player"), f.num("square"), None, f.text("building"), f.num("cost"))
    return Built(f.text("player"), f.num("square"), f.num("level"), None, f.num("cost"))


def _sold(f: _Fields) -> SoldBuilding:
    if f.has("building"):
        return SoldBuilding(f.text("player"), f.num("square"), None, f.text("building"),
                            f.num("refund"))
    return SoldBuilding(f.text("player"), f.num("square"), f.num("level"), None,
                        f.num("refund"))


def _auction_started(f: _Fields) -> AuctionStarted:
    if f.has("building"):
        return AuctionStarted(building=f.text("building"))
    return AuctionStarted(square=f.num("square"))


def _auction_closed(f: _Fields) -> AuctionClosed:
    if f.has("building"):
        return AuctionClosed(None, f.text("building"), f.party("winner"), f.num("amount"))
    return AuctionClosed(f.num("square"), None, f.party("winner"), f.num("amount"))


def _unmortgaged(f: _Fields) -> Unmortgaged:
    forced = f.flag("forced") if f.has("forced") else False
    if f.has("forced") and not forced:
        raise EventError("an 'unmortgaged' event says \"forced\" only when it was")
    return Unmortgaged(f.text("player"), f.num("square"), forced)


def _left_jail(f: _Fields) -> LeftJail:
    return LeftJail(f.text("player"), f.text("how"), f.text("card") if f.has("card") else None)


#: how each kind is read from its JSON form
_READERS: dict[str, Callable[[_Fields], Event]] = {
    "game_started": lambda f: GameStarted(f.text("edition"), f.texts("players")),
    "game_ended": lambda f: GameEnded(f.text("reason"), f.standings("standings")),
    "winner": lambda f: Winner(f.text("player")),
    "turn": lambda f: Turn(f.text("player"), f.num("number")),
    "transfer": lambda f: Transfer(f.party("from"), f.party("to"), f.num("amount"),
                                   f.text("reason"), f.why("why")),
    "debt": lambda f: Debt(f.text("player"), f.party("creditor"), f.num("amount"),
                           f.text("reason"), f.why("why")),
    "bankrupt": lambda f: Bankrupt(f.text("player"), f.party("creditor")),
    "deeds_transferred": lambda f: DeedsTransferred(f.text("from"), f.text("to"),
                                                    f.nums("squares")),
    "pass_go": lambda f: PassGo(f.text("player"), f.num("amount")),
    "rent_claimable": lambda f: RentClaimable(f.text("player"), f.text("payer"),
                                              f.num("square"), f.num("amount")),
    "rent_forfeited": lambda f: RentForfeited(f.text("player"), f.text("payer"),
                                              f.num("square"), f.num("amount")),
    "rolled": _rolled,
    "moved": lambda f: Moved(f.text("player"), f.num("from"), f.num("to")),
    "three_doubles": lambda f: ThreeDoubles(f.text("player")),
    "jailed": lambda f: Jailed(f.text("player")),
    "left_jail": _left_jail,
    "card": lambda f: CardDrawn(f.text("player"), f.text("deck"), f.text("card"),
                                f.text("text")),
    "bought": lambda f: Bought(f.text("player"), f.num("square"), f.num("price")),
    "declined": lambda f: Declined(f.text("player"), f.num("square")),
    "kept_mortgages": lambda f: KeptMortgages(f.text("player"), f.nums("squares")),
    "mortgaged": lambda f: Mortgaged(f.text("player"), f.num("square")),
    "unmortgaged": _unmortgaged,
    "built": _built,
    "sold_building": _sold,
    "rebalanced": lambda f: Rebalanced(f.text("player"), f.levels("levels"), f.num("cost")),
    "auction_started": _auction_started,
    "bid": lambda f: Bid(f.text("player"), f.num("amount")),
    "passed": lambda f: Passed(f.text("player")),
    "auction_closed": _auction_closed,
    "traded": lambda f: Traded(f.text("from"), f.text("to"), f.goods("give"), f.goods("take")),
    "triple": lambda f: Triple(f.text("player")),
    "mr_monopoly": lambda f: MrMonopoly(f.text("player")),
    "mr_monopoly_stays": lambda f: MrMonopolyStays(f.text("player")),
    "bus_ticket": lambda f: BusTicket(f.text("player"), f.text("card")),
    "no_bus_ticket": lambda f: NoBusTicket(f.text("player")),
    "bus_tickets_expired": lambda f: BusTicketsExpired(f.num("count")),
    "bus_ticket_used": lambda f: BusTicketUsed(f.text("player"), f.text("card"),
                                               f.num("square")),
    "chose_square": lambda f: ChoseSquare(f.text("player"), f.num("square"), f.text("for")),
    "auction_square_stays": lambda f: AuctionSquareStays(f.text("player")),
    "undone": lambda f: Undone(f.num("seq"), f.obj("command")),
    "redone": lambda f: Redone(f.num("seq"), f.obj("command")),
    "game_switched": lambda f: GameSwitched(f.text("game"), f.text("from")),
}

#: every event kind, by the name its JSON form gives it
KINDS: frozenset[str] = frozenset(_READERS)


def event_from_json(data: Any) -> Event:
    """The event a JSON object describes; EventError (a ValueError) when it is not one
    this engine writes: an unknown kind, a missing, mistyped or unknown field.

    >>> event_from_json({"kind": "teleported", "player": "Ann"})
    Traceback (most recent call last):
    ...
    companion.rules.events.EventError: unknown event kind 'teleported'
    """
    if not isinstance(data, Mapping):
        raise EventError(f"an event must be a JSON object, not {data!r}")
    kind = data.get("kind")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise EventError(f"unknown event kind {kind!r}")
    fields = _Fields(str(kind), data)
    event = reader(fields)
    fields.done()
    return event


def why_from_json(data: Any) -> Why | None:
    """A charge's reason from its JSON form (None stays None); EventError when malformed."""
    if data is None:
        return None
    return _Fields("why", {"why": data}).why("why")


def events_from_json(data: Any) -> Events:
    """A JSON list of events, each read by event_from_json."""
    if not isinstance(data, list):
        raise EventError(f"events must be a JSON list, not {data!r}")
    return [event_from_json(item) for item in data]
