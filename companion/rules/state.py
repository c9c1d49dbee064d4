"""The game state: plain mutable records that `apply` copies before changing, and the
pending decisions, one read-only record per kind (`Pending` is their union).

Only the engine changes a state, and only a fresh copy of it (see engine.apply), so every
state handed out stays as it was: callers may keep old states for undo.

The records write their `__init__` by hand (`init=False`): mypyc compiles a hand-written
constructor but leaves the one `dataclass` generates interpreted, and a state is built
for every command (see docs/bench.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Final

from companion.rules.codes import Code, RulesError
from companion.rules.edition import Edition
from companion.rules.events import Why
from companion.rules.options import RuleOptions

#: whether this module runs compiled by mypyc (its file is then the extension module)
COMPILED: Final = not __file__.endswith(".py")
#: a bare instance of a class, without its __init__ (plain Python only: mypyc refuses a
#: bare compiled record); a module global is cheaper to call than `object.__new__`
bare: Final = object.__new__

BANK = -1
POT = -2  #: the Free Parking pot (house rule), a party like the bank
NOBODY = -1
#: GameState.go_salary: the salary of the move being told in bank-only play
NO_SALARY, GO_PAID, GO_DUE = 0, 1, 2


class PendingKind(StrEnum):
    """What the table is waiting for."""

    BUY = "buy"  #: the player landed on an unowned property: buy or decline
    AUCTION = "auction"  #: the bank auctions a property; everyone may bid or pass
    DRAW = "draw"  #: the player must draw a card from the deck
    DEBT = "debt"  #: the player owes more than their cash: raise money or go bankrupt
    ROLL_FOR_RENT = "roll_for_rent"  #: a fresh roll decides a utility's rent
    LIFT_MORTGAGES = "lift_mortgages"  #: the new owner of mortgaged deeds may lift them now
    BUILDING_AUCTION = "building_auction"  #: housing shortage: the bank auctions a building
    PLACE_BUILDING = "place_building"  #: the winner of a building auction places it
    CHOOSE_SQUARE = "choose_square"  #: pick a square: where a triple goes, what is auctioned
    BIRTHDAY_GIFT = "birthday_gift"  #: take 100 from the bank or a bus ticket
    MR_MONOPOLY = "mr_monopoly"  #: then move on (speed die); runs by itself once on top
    BUS = "bus"  #: then take a bus ticket (speed die); runs by itself once on top


@dataclass(slots=True, init=False)
class Player:
    """A player's money, token and jail situation."""

    name: str
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0
    #: Get Out of Jail Free cards held (card ids); copies share the list, so the engine
    #: replaces it instead of changing it (like `bus_tickets`)
    jail_cards: list[str] = field(default_factory=list)
    bankrupt: bool = False
    #: bus tickets held (card ids), face up for everyone; a tuple, so copies share it
    bus_tickets: tuple[str, ...] = ()

    def __init__(self, name: str, cash: int, position: int = 0, in_jail: bool = False,
                 jail_turns: int = 0, jail_cards: list[str] | None = None,
                 bankrupt: bool = False, bus_tickets: tuple[str, ...] = ()) -> None:
        self.name = name
        self.cash = cash
        self.position = position
        self.in_jail = in_jail
        self.jail_turns = jail_turns
        self.jail_cards = [] if jail_cards is None else jail_cards
        self.bankrupt = bankrupt
        self.bus_tickets = bus_tickets

    def copy(self) -> Player:
        """A copy that may be changed without touching this one (the jail cards' list is
        shared: it is replaced, never changed)."""
        if not COMPILED:
            return _plain_player_copy(self)
        return Player(self.name, self.cash, self.position, self.in_jail, self.jail_turns,
                      self.jail_cards, self.bankrupt, self.bus_tickets)


# --- pending decisions: one read-only record per kind -------------------------------------
#
# Each record holds only its own kind's fields, marked `Final` and set by a hand-written
# constructor (the style of companion.rules.events, and why: a frozen dataclass sets every
# field through object.__setattr__, slow in plain Python; mypyc compiles a hand-written
# constructor). A change replaces the record on the stack (`with_bid`, `with_pass`, ...)
# instead of changing it, so a copy of the state shares the stack's records.


@dataclass(slots=True, init=False)
class BuyPending:
    """The player landed on an unowned property: buy it at its printed price or decline."""

    kind: ClassVar[PendingKind] = PendingKind.BUY
    player: Final[int]
    square: Final[int]

    def __init__(self, player: int, square: int) -> None:
        self.player = player
        self.square = square


@dataclass(slots=True, init=False)
class AuctionPending:
    """The bank auctions a property; everyone still in may bid or pass. `queue`: the
    properties auctioned after it (a bankrupt's deeds returned to the bank)."""

    kind: ClassVar[PendingKind] = PendingKind.AUCTION
    player: Final[int]  #: always NOBODY: anyone may answer
    square: Final[int]
    highest: Final[int]
    bidder: Final[int]
    passed: Final[tuple[int, ...]]
    queue: Final[tuple[int, ...]]
    min_bid: Final[int]

    def __init__(self, square: int, highest: int = 0, bidder: int = NOBODY,
                 passed: tuple[int, ...] = (), queue: tuple[int, ...] = (),
                 min_bid: int = 0) -> None:
        self.player = NOBODY
        self.square = square
        self.highest = highest
        self.bidder = bidder
        self.passed = passed
        self.queue = queue
        self.min_bid = min_bid

    def with_bid(self, player: int, amount: int) -> AuctionPending:
        """The auction after the player's bid."""
        if COMPILED:
            return AuctionPending(self.square, amount, player, self.passed, self.queue,
                                  self.min_bid)
        # plain Python: the fields on a bare record (as plain_copy makes the state), without
        # the class call's trip through __init__: a bid is the most frequent auction step
        new: Any = bare(AuctionPending)
        new.player = NOBODY
        new.square = self.square
        new.highest = amount
        new.bidder = player
        new.passed = self.passed
        new.queue = self.queue
        new.min_bid = self.min_bid
        return new  # type: ignore[no-any-return]

    def with_pass(self, player: int) -> AuctionPending:
        """The auction after the player left it."""
        return AuctionPending(self.square, self.highest, self.bidder, (*self.passed, player),
                              self.queue, self.min_bid)


@dataclass(slots=True, init=False)
class BuildingAuctionPending:
    """Housing shortage: the bank auctions one building, from `min_bid`; players who could
    not place it are `passed` from the start."""

    kind: ClassVar[PendingKind] = PendingKind.BUILDING_AUCTION
    player: Final[int]  #: always NOBODY: anyone may answer
    building: Final[str]
    highest: Final[int]
    bidder: Final[int]
    passed: Final[tuple[int, ...]]
    min_bid: Final[int]

    def __init__(self, building: str, highest: int = 0, bidder: int = NOBODY,
                 passed: tuple[int, ...] = (), min_bid: int = 0) -> None:
        self.player = NOBODY
        self.building = building
        self.highest = highest
        self.bidder = bidder
        self.passed = passed
        self.min_bid = min_bid

    def with_bid(self, player: int, amount: int) -> BuildingAuctionPending:
        """The auction after the player's bid."""
        return BuildingAuctionPending(self.building, amount, player, self.passed, self.min_bid)

    def with_pass(self, player: int) -> BuildingAuctionPending:
        """The auction after the player left it."""
        return BuildingAuctionPending(self.building, self.highest, self.bidder,
                                      (*self.passed, player), self.min_bid)


@dataclass(slots=True, init=False)
class DrawPending:
    """The player must draw a card from the deck (a bus ticket from the bus pile)."""

    kind: ClassVar[PendingKind] = PendingKind.DRAW
    player: Final[int]
    deck: Final[str]

    def __init__(self, player: int, deck: str) -> None:
        self.player = player
        self.deck = deck


@dataclass(slots=True, init=False)
class DebtPending:
    """The player owes more than their cash: raise money or go bankrupt. `why`: why the
    debt is its amount, told again when it is paid; `then_move`: the steps a paid jail fine
    releases."""

    kind: ClassVar[PendingKind] = PendingKind.DEBT
    player: Final[int]
    amount: Final[int]
    creditor: Final[int]
    reason: Final[str]
    why: Final[Why | None]
    then_move: Final[int]

    def __init__(self, player: int, amount: int, creditor: int, reason: str,
                 why: Why | None = None, then_move: int = 0) -> None:
        self.player = player
        self.amount = amount
        self.creditor = creditor
        self.reason = reason
        self.why = why
        self.then_move = then_move


@dataclass(slots=True, init=False)
class RollForRentPending:
    """A fresh roll decides a utility's rent (times `multiplier` when a card says so)."""

    kind: ClassVar[PendingKind] = PendingKind.ROLL_FOR_RENT
    player: Final[int]
    square: Final[int]
    multiplier: Final[int]

    def __init__(self, player: int, square: int, multiplier: int = 0) -> None:
        self.player = player
        self.square = square
        self.multiplier = multiplier


@dataclass(slots=True, init=False)
class LiftMortgagesPending:
    """The new owner of mortgaged deeds may lift them now at their value alone."""

    kind: ClassVar[PendingKind] = PendingKind.LIFT_MORTGAGES
    player: Final[int]
    squares: Final[tuple[int, ...]]

    def __init__(self, player: int, squares: tuple[int, ...]) -> None:
        self.player = player
        self.squares = squares


@dataclass(slots=True, init=False)
class PlaceBuildingPending:
    """The winner of a building auction places the building."""

    kind: ClassVar[PendingKind] = PendingKind.PLACE_BUILDING
    player: Final[int]
    building: Final[str]

    def __init__(self, player: int, building: str) -> None:
        self.player = player
        self.building = building


@dataclass(slots=True, init=False)
class ChooseSquarePending:
    """Pick a square: where a triple goes (`reason` "triple"), or which property the bank
    auctions ("auction", `square`: the Auction square landed on)."""

    kind: ClassVar[PendingKind] = PendingKind.CHOOSE_SQUARE
    player: Final[int]
    reason: Final[str]
    square: Final[int]

    def __init__(self, player: int, reason: str, square: int = -1) -> None:
        self.player = player
        self.reason = reason
        self.square = square


@dataclass(slots=True, init=False)
class BirthdayGiftPending:
    """Take `amount` from the bank or a bus ticket (the Birthday gift square)."""

    kind: ClassVar[PendingKind] = PendingKind.BIRTHDAY_GIFT
    player: Final[int]
    square: Final[int]
    amount: Final[int]

    def __init__(self, player: int, square: int, amount: int) -> None:
        self.player = player
        self.square = square
        self.amount = amount


@dataclass(slots=True, init=False)
class MrMonopolyPending:
    """Then move on (speed die): runs by itself once on top of the stack."""

    kind: ClassVar[PendingKind] = PendingKind.MR_MONOPOLY
    player: Final[int]

    def __init__(self, player: int) -> None:
        self.player = player


@dataclass(slots=True, init=False)
class BusPending:
    """Then take a bus ticket (speed die): runs by itself once on top of the stack."""

    kind: ClassVar[PendingKind] = PendingKind.BUS
    player: Final[int]

    def __init__(self, player: int) -> None:
        self.player = player


#: a decision the table is waiting for; `player` must answer it (NOBODY: anyone)
Pending = (BuyPending | AuctionPending | BuildingAuctionPending | DrawPending | DebtPending
           | RollForRentPending | LiftMortgagesPending | PlaceBuildingPending
           | ChooseSquarePending | BirthdayGiftPending | MrMonopolyPending | BusPending)
#: the two auctions, which share bidding and passing (for isinstance)
AUCTIONS = (AuctionPending, BuildingAuctionPending)
#: pending steps that need no answer: they run as soon as everything above them is settled
FOLLOW_UPS = (MrMonopolyPending, BusPending)
#: what flow.settle_debts acts on when it is on top: a debt, or a follow-up
SETTLED = (DebtPending, MrMonopolyPending, BusPending)


@dataclass(slots=True, init=False)
class Seldom:
    """The fields of a state that a turn seldom writes, in one record that the state's
    copies share until one of them is written (`GameState.ws`): a copy then stores 12 fields
    fewer (docs/bench.md, issue 28, seventh pass). Read and written through the state's
    properties of the same names (`g.pot`, `g.claims = ...`); the engine's hot paths read
    `g.seldom` directly."""

    #: the decks' cards, top first; a copy shares the dict and its lists (`wdeck`
    #: replaces the dict and the deck it changes)
    decks: dict[str, list[str]]
    #: the Free Parking pot (house rule)
    pot: int
    #: the card drawn last
    last_card: str
    #: set when a game is dealt (the variant), never changed after
    extra: dict[str, Any]
    #: the ranking once the game was ended and counted (short/timed game, by
    #: agreement)
    standings: list[dict[str, Any]]
    #: rents owners may still claim: (payer, owner, square, amount, turns left)
    claims: list[tuple[int, int, int, int, int]]
    #: skyscrapers the bank still has (editions with skyscrapers)
    bank_skyscrapers: int
    #: stations with a train depot, in board order
    depots: tuple[int, ...]
    #: bus tickets the current player took this turn: usable only from a later turn
    fresh_tickets: int
    #: the current player rolled Mr. Monopoly this turn: nobody else builds, lifts
    #: or trades
    mr_monopoly: bool
    #: mortgaged deeds received from another player (a trade, a bankruptcy) and kept
    #: mortgaged, in board order: lifting one later costs its value plus the
    #: interest again, whatever the edition's rule for a player's own mortgages (SV
    #: «löser han det senare betalar han även nu 10 % ränta utöver kapitalskulden»);
    #: set_mortgaged clears it
    kept_mortgages: tuple[int, ...]
    #: bank-only play, the salary of the move being told: GO_PAID (PASS GO before
    #: its square was told: the square must be past GO, no second salary), GO_DUE
    #: (the square told was past GO without the salary: PASS GO pays it), else
    #: NO_SALARY
    go_salary: int

    def __init__(self, decks: dict[str, list[str]], pot: int, last_card: str,
                 extra: dict[str, Any], standings: list[dict[str, Any]],
                 claims: list[tuple[int, int, int, int, int]], bank_skyscrapers: int,
                 depots: tuple[int, ...], fresh_tickets: int, mr_monopoly: bool,
                 kept_mortgages: tuple[int, ...], go_salary: int) -> None:
        self.decks = decks
        self.pot = pot
        self.last_card = last_card
        self.extra = extra
        self.standings = standings
        self.claims = claims
        self.bank_skyscrapers = bank_skyscrapers
        self.depots = depots
        self.fresh_tickets = fresh_tickets
        self.mr_monopoly = mr_monopoly
        self.kept_mortgages = kept_mortgages
        self.go_salary = go_salary

    def copy(self) -> Seldom:
        """A copy that may be changed without touching this one (its lists and dicts are
        shared: the engine replaces them, never changes them)."""
        if not COMPILED:
            return _plain_seldom_copy(self)
        return Seldom(self.decks, self.pot, self.last_card, self.extra, self.standings,
                      self.claims, self.bank_skyscrapers, self.depots, self.fresh_tickets,
                      self.mr_monopoly, self.kept_mortgages, self.go_salary)


@dataclass(slots=True, init=False)
class GameState:
    """Everything about one game at one moment."""

    edition: Edition
    options: RuleOptions
    players: list[Player]
    #: per square, read-only tuples shared by copies: change them with set_owner/level/mortgaged
    owner: tuple[int, ...]
    level: tuple[int, ...]
    mortgaged: tuple[bool, ...]
    bank_houses: int
    bank_hotels: int
    rng: int
    #: the seldom-written fields (`Seldom`), shared with the state copied from until this
    #: state writes one (`ws`); `seldom_own`: this state has its own
    seldom: Seldom
    version: int = 0
    current: int = 0
    turn_number: int = 1
    rolled: bool = False
    must_roll: bool = True
    doubles: int = 0
    dice: tuple[int, ...] | None = None
    #: the decisions waiting, the one on top answered first; the records are read-only and
    #: shared by copies (a change replaces one), the list is the state's own
    pending: list[Pending] = field(default_factory=list)
    winner: int = NOBODY
    seldom_own: bool = field(default=False, repr=False, compare=False)
    #: which Player records this state owns (may change), one bit per player index; the
    #: others are shared, read-only, and so is the list while no bit is set
    owned: int = field(default=0, repr=False, compare=False)

    def __init__(self, edition: Edition, options: RuleOptions, players: list[Player],
                 owner: tuple[int, ...], level: tuple[int, ...], mortgaged: tuple[bool, ...],
                 bank_houses: int,
                 bank_hotels: int, rng: int, decks: dict[str, list[str]], version: int = 0,
                 current: int = 0, turn_number: int = 1, rolled: bool = False,
                 must_roll: bool = True, doubles: int = 0, dice: tuple[int, ...] | None = None,
                 pending: list[Pending] | None = None, last_card: str = "", pot: int = 0,
                 winner: int = NOBODY, extra: dict[str, Any] | None = None,
                 standings: list[dict[str, Any]] | None = None,
                 claims: list[tuple[int, int, int, int, int]] | None = None,
                 bank_skyscrapers: int = 0, depots: tuple[int, ...] = (),
                 fresh_tickets: int = 0, mr_monopoly: bool = False,
                 kept_mortgages: tuple[int, ...] = (), owned: int = 0,
                 go_salary: int = 0, seldom: Seldom | None = None) -> None:
        self.edition = edition
        self.options = options
        self.players = players
        self.owner = owner
        self.level = level
        self.mortgaged = mortgaged
        self.bank_houses = bank_houses
        self.bank_hotels = bank_hotels
        self.rng = rng
        if seldom is not None:  # a copy's: shared until written (ws), the fields above unread
            self.seldom = seldom
            self.seldom_own = False
        else:
            self.seldom = Seldom(decks, pot, last_card, {} if extra is None else extra,
                                 [] if standings is None else standings,
                                 [] if claims is None else claims, bank_skyscrapers, depots,
                                 fresh_tickets, mr_monopoly, kept_mortgages, go_salary)
            self.seldom_own = True
        self.version = version
        self.current = current
        self.turn_number = turn_number
        self.rolled = rolled
        self.must_roll = must_roll
        self.doubles = doubles
        self.dice = dice
        self.pending = [] if pending is None else pending
        self.winner = winner
        self.owned = owned

    def copy(self) -> GameState:
        """A copy that may be changed without touching this one.

        The player records and their list are shared until the engine asks to change one
        (`wp`), and so are
        the decks (`wdeck` replaces the dict and the deck it changes), the squares' tuples
        (`set_owner` and the like replace them), the rent claims and the standings (the
        engine replaces those lists, never changes them), `extra` (set when a game is
        dealt) and the pending records (read-only: the stack's list is copied, not the
        records), which keeps a copy cheap: most commands change one or two players, draw no
        card and change no square.
        """
        if not COMPILED:
            return plain_copy(self)
        seldom = self.seldom  # shared until written (ws)
        return GameState(
            self.edition, self.options, self.players, self.owner, self.level,
            self.mortgaged, self.bank_houses, self.bank_hotels, self.rng, seldom.decks,
            self.version, self.current, self.turn_number, self.rolled, self.must_roll,
            self.doubles, self.dice, self.pending[:], winner=self.winner, seldom=seldom)

    def ws(self) -> Seldom:
        """The seldom-written fields, made this state's own so that they may be changed."""
        if self.seldom_own:
            return self.seldom
        seldom = self.seldom = self.seldom.copy()
        self.seldom_own = True
        return seldom

    @property
    def decks(self) -> dict[str, list[str]]:
        """`Seldom.decks`."""
        return self.seldom.decks

    @decks.setter
    def decks(self, value: dict[str, list[str]]) -> None:
        self.ws().decks = value

    @property
    def pot(self) -> int:
        """`Seldom.pot`."""
        return self.seldom.pot

    @pot.setter
    def pot(self, value: int) -> None:
        self.ws().pot = value

    @property
    def last_card(self) -> str:
        """`Seldom.last_card`."""
        return self.seldom.last_card

    @last_card.setter
    def last_card(self, value: str) -> None:
        self.ws().last_card = value

    @property
    def extra(self) -> dict[str, Any]:
        """`Seldom.extra`."""
        return self.seldom.extra

    @extra.setter
    def extra(self, value: dict[str, Any]) -> None:
        self.ws().extra = value

    @property
    def standings(self) -> list[dict[str, Any]]:
        """`Seldom.standings`."""
        return self.seldom.standings

    @standings.setter
    def standings(self, value: list[dict[str, Any]]) -> None:
        self.ws().standings = value

    @property
    def claims(self) -> list[tuple[int, int, int, int, int]]:
        """`Seldom.claims`."""
        return self.seldom.claims

    @claims.setter
    def claims(self, value: list[tuple[int, int, int, int, int]]) -> None:
        self.ws().claims = value

    @property
    def bank_skyscrapers(self) -> int:
        """`Seldom.bank_skyscrapers`."""
        return self.seldom.bank_skyscrapers

    @bank_skyscrapers.setter
    def bank_skyscrapers(self, value: int) -> None:
        self.ws().bank_skyscrapers = value

    @property
    def depots(self) -> tuple[int, ...]:
        """`Seldom.depots`."""
        return self.seldom.depots

    @depots.setter
    def depots(self, value: tuple[int, ...]) -> None:
        self.ws().depots = value

    @property
    def fresh_tickets(self) -> int:
        """`Seldom.fresh_tickets`."""
        return self.seldom.fresh_tickets

    @fresh_tickets.setter
    def fresh_tickets(self, value: int) -> None:
        self.ws().fresh_tickets = value

    @property
    def mr_monopoly(self) -> bool:
        """`Seldom.mr_monopoly`."""
        return self.seldom.mr_monopoly

    @mr_monopoly.setter
    def mr_monopoly(self, value: bool) -> None:
        self.ws().mr_monopoly = value

    @property
    def kept_mortgages(self) -> tuple[int, ...]:
        """`Seldom.kept_mortgages`."""
        return self.seldom.kept_mortgages

    @kept_mortgages.setter
    def kept_mortgages(self, value: tuple[int, ...]) -> None:
        self.ws().kept_mortgages = value

    @property
    def go_salary(self) -> int:
        """`Seldom.go_salary`."""
        return self.seldom.go_salary

    @go_salary.setter
    def go_salary(self, value: int) -> None:
        self.ws().go_salary = value

    def wp(self, index: int) -> Player:
        """The player record at `index`, made this state's own so that it may be changed."""
        bit = 1 << index
        owned = self.owned
        players = self.players
        if owned & bit:
            return players[index]
        if not owned:  # the first player changed: the list too (copies share it until then)
            players = self.players = players[:]
        old = players[index]
        if COMPILED:
            p = old.copy()
        else:  # _plain_player_copy written out: one call less on a hot path
            p = bare(Player)
            p.name = old.name
            p.cash = old.cash
            p.position = old.position
            p.in_jail = old.in_jail
            p.jail_turns = old.jail_turns
            p.jail_cards = old.jail_cards  # shared: replaced, never changed
            p.bankrupt = old.bankrupt
            p.bus_tickets = old.bus_tickets
        players[index] = p
        self.owned = owned | bit
        return p

    def set_owner(self, square: int, player: int) -> None:
        """Give a square to a player (BANK: back to the bank)."""
        changed = list(self.owner)  # then one tuple: fewer objects than slices joined
        changed[square] = player
        self.owner = tuple(changed)

    def set_level(self, square: int, level: int) -> None:
        """Set a lot's buildings (see hotel_level)."""
        changed = list(self.level)  # then one tuple: fewer objects than slices joined
        changed[square] = level
        self.level = tuple(changed)

    def set_mortgaged(self, square: int, mortgaged: bool) -> None:
        """Mortgage or lift a property (a lifted one is no longer a kept mortgage)."""
        changed = list(self.mortgaged)  # then one tuple: fewer objects than slices joined
        changed[square] = mortgaged
        self.mortgaged = tuple(changed)
        if not mortgaged and self.kept_mortgages:
            self.kept_mortgages = tuple(s for s in self.kept_mortgages if s != square)

    def wdeck(self, deck_id: str) -> list[str]:
        """A deck's card list, made this state's own so that it may be changed."""
        seldom = self.ws()
        deck = seldom.decks[deck_id][:]
        seldom.decks = {**seldom.decks, deck_id: deck}  # the dict too: copies share it
        return deck

    @property
    def hotel_level(self) -> int:
        """The level that stands for a hotel (one more than the houses before a hotel)."""
        return self.options.houses_before_hotel + 1

    @property
    def top(self) -> Pending | None:
        """The decision being waited for now, if any."""
        return self.pending[-1] if self.pending else None

    def houses_on(self, square: int) -> int:
        """Houses standing on a lot (0 when it has a hotel or a skyscraper)."""
        lvl = self.level[square]
        return 0 if lvl >= self.hotel_level else lvl

    def has_hotel(self, square: int) -> bool:
        """Whether a hotel stands on the lot (a skyscraper replaced its hotel)."""
        return self.level[square] == self.hotel_level

    def has_skyscraper(self, square: int) -> bool:
        """Whether a skyscraper stands on the lot: the level above the hotel."""
        return self.level[square] > self.hotel_level

    def buildings_at(self, level: int) -> tuple[int, int, int]:
        """(houses, hotels, skyscrapers) that a lot at this level holds."""
        hotel = self.options.houses_before_hotel + 1  # hotel_level, without its call
        if level < hotel:
            return level, 0, 0
        return (0, 1, 0) if level == hotel else (0, 0, 1)


def plain_copy(g: GameState) -> GameState:
    """GameState.copy in plain Python: the fields set one by one on a bare instance, which
    skips binding 28 arguments (about a quarter of a copy's cost there). mypyc refuses a
    bare instance of a compiled class, and its constructor is cheap: the compiled engine
    takes the constructor. `engine.apply` writes the same steps out (a call less a
    command); tests/test_rules_copy_on_write.py holds the two to the same fields."""
    new: GameState = bare(GameState)
    new.edition = g.edition
    new.options = g.options
    new.players = g.players
    new.owner = g.owner
    new.level = g.level
    new.mortgaged = g.mortgaged
    new.bank_houses = g.bank_houses
    new.bank_hotels = g.bank_hotels
    new.rng = g.rng
    new.seldom = g.seldom  # shared until written (ws)
    new.seldom_own = False
    new.version = g.version
    new.current = g.current
    new.turn_number = g.turn_number
    new.rolled = g.rolled
    new.must_roll = g.must_roll
    new.doubles = g.doubles
    new.dice = g.dice
    pending = g.pending
    new.pending = pending[:] if pending else []  # most commands start with none waiting
    new.winner = g.winner
    new.owned = 0
    return new


def _plain_seldom_copy(s: Seldom) -> Seldom:
    """Seldom.copy in plain Python, as plain_copy does it for the state."""
    new: Seldom = bare(Seldom)
    new.decks = s.decks
    new.pot = s.pot
    new.last_card = s.last_card
    new.extra = s.extra
    new.standings = s.standings
    new.claims = s.claims
    new.bank_skyscrapers = s.bank_skyscrapers
    new.depots = s.depots
    new.fresh_tickets = s.fresh_tickets
    new.mr_monopoly = s.mr_monopoly
    new.kept_mortgages = s.kept_mortgages
    new.go_salary = s.go_salary
    return new


def _plain_player_copy(p: Player) -> Player:
    """Player.copy in plain Python, as plain_copy does it for the state."""
    new: Player = bare(Player)
    new.name = p.name
    new.cash = p.cash
    new.position = p.position
    new.in_jail = p.in_jail
    new.jail_turns = p.jail_turns
    new.jail_cards = p.jail_cards  # shared: replaced, never changed
    new.bankrupt = p.bankrupt
    new.bus_tickets = p.bus_tickets
    return new


# --- who is acting: below the modules that take commands (engine.py's handlers, turns.py's
# roll and end of turn), so that each can check the player a command names ----------------


def player_index(g: GameState, name: str) -> int:
    """The index of a named player still in the game."""
    for i, p in enumerate(g.players):
        if p.name == name:
            if p.bankrupt:
                raise RulesError(Code.BANKRUPT_PLAYER, f"{name} is out of the game")
            return i
    raise RulesError(Code.UNKNOWN_PLAYER, f"{name!r} is not playing")


def actor(g: GameState, by: str | None, default: int) -> int:
    """The acting player: "by", which must match `default` when that is fixed."""
    if by is None:
        return default
    expected = g.players[default]
    if expected.name == by and not expected.bankrupt:  # the usual case, without a search
        return default
    who = player_index(g, by)
    if who != default:
        raise RulesError(Code.NOT_YOUR_TURN,
                         f"{g.players[default].name} must do this, not {by}",
                         player=g.players[default].name)
    return who
