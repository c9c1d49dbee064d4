"""Editions as data: the board, rents, decks and defaults, validated when loaded.

The engine never names an edition; everything that differs between rulebooks is here or in
RuleOptions. Parsing takes an already-read JSON object, so this module does no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from companion.rules.options import RuleOptions


class SquareKind(StrEnum):
    """What a square on the board is."""

    GO = "go"  #: the start square; salary on passing or landing
    LOT = "lot"  #: a street in a colour group, can carry houses and a hotel
    STATION = "station"  #: rent by the number of stations the owner has
    UTILITY = "utility"  #: rent by the dice times a multiplier
    TAX = "tax"  #: pay a fixed amount to the bank
    CHANCE = "chance"  #: draw a Chance card
    COMMUNITY_CHEST = "community_chest"  #: draw a Community Chest card
    JAIL = "jail"  #: jail, or just visiting
    FREE_PARKING = "free_parking"  #: nothing happens (or the pot, as a house rule)
    GO_TO_JAIL = "go_to_jail"  #: straight to jail
    AUCTION = "auction"  #: the lander picks an unowned property for the bank to auction
    BIRTHDAY_GIFT = "birthday_gift"  #: the lander takes 100 from the bank or a bus ticket
    BUS_TICKET = "bus_ticket"  #: the lander takes a bus ticket, if any is left


#: the kinds the hot paths (landing, rent, building) compare with, as module constants: a
#: member read through its class (`SquareKind.LOT`) goes through EnumType's attribute hook,
#: a call of about 0.13 µs in plain Python and in the compiled engine alike
KIND_LOT: Final = SquareKind.LOT
KIND_STATION: Final = SquareKind.STATION
KIND_UTILITY: Final = SquareKind.UTILITY
KIND_TAX: Final = SquareKind.TAX
KIND_GO_TO_JAIL: Final = SquareKind.GO_TO_JAIL
KIND_FREE_PARKING: Final = SquareKind.FREE_PARKING
#: the Mega edition's squares that board.land_on_extra_square handles
EXTRA_SQUARES = frozenset({SquareKind.AUCTION, SquareKind.BIRTHDAY_GIFT, SquareKind.BUS_TICKET})
OWNABLE = frozenset({SquareKind.LOT, SquareKind.STATION, SquareKind.UTILITY})
DECK_OF_KIND = {SquareKind.CHANCE: "chance", SquareKind.COMMUNITY_CHEST: "community_chest"}
#: the pile of bus tickets, kept as a deck of cards (some tickets say more than others)
BUS_DECK = "bus_tickets"
#: squares that hand out bus tickets, so need the bus ticket pile
_BUS_SQUARES = frozenset({SquareKind.BIRTHDAY_GIFT, SquareKind.BUS_TICKET})
CARD_EFFECTS = frozenset(
    {"advance", "move_back", "nearest", "money", "each_player", "repairs", "jail_free",
     "go_to_jail", "take_bus_ticket", "bus_ticket"}
)


class EditionError(ValueError):
    """Edition data that does not make a playable game."""


@dataclass(frozen=True, slots=True)
class Square:
    """One square of the board, with everything printed on it and its deed."""

    index: int
    id: str
    kind: SquareKind
    name: str
    group: str = ""
    price: int = 0
    rent: tuple[int, ...] = ()
    house_cost: int = 0
    mortgage: int = 0
    multipliers: tuple[int, ...] = ()
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Card:
    """A Chance or Community Chest card: its id, text and effect with parameters."""

    id: str
    deck: str
    text: str
    effect: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Edition:
    """A whole edition: board, groups, decks, money and rule defaults."""

    id: str
    name: str
    language: str
    currency: dict[str, str]
    squares: tuple[Square, ...]
    groups: dict[str, tuple[int, ...]]
    group_info: dict[str, dict[str, str]]
    decks: dict[str, tuple[Card, ...]]
    deck_names: dict[str, str]
    banknotes: dict[int, int]
    houses: int
    hotels: int
    min_players: int
    max_players: int
    defaults: RuleOptions
    jail_index: int
    square_ids: dict[str, int]
    cards: dict[str, Card]
    raw: dict[str, Any]
    #: skyscrapers in the box (0: a hotel is the last building)
    skyscrapers: int = 0
    #: train depots in the box, and what one costs (sold back at half)
    depots: int = 0
    depot_cost: int = 0
    #: bus tickets in the pile at the start (the BUS_DECK's cards)
    bus_tickets: int = 0

    def square_index(self, ref: int | str) -> int | None:
        """The board index named by an index or a square id, or None."""
        if isinstance(ref, bool):
            return None
        if isinstance(ref, int):
            return ref if 0 <= ref < len(self.squares) else None
        return self.square_ids.get(ref)


def _int(obj: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise EditionError(f"{where}: {key!r} must be a whole number >= 0, not {value!r}")
    return value


def _ints(obj: dict[str, Any], key: str, where: str, length: int | None = None) -> tuple[int, ...]:
    value = obj.get(key)
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value
    ):
        raise EditionError(f"{where}: {key!r} must be a list of whole numbers")
    if length is not None and len(value) != length:
        raise EditionError(f"{where}: {key!r} must have {length} numbers, has {len(value)}")
    return tuple(value)


def parse_edition(data: dict[str, Any]) -> Edition:
    """Validate edition JSON and build the Edition; raises EditionError naming the problem."""
    ed_id = data.get("id")
    if not isinstance(ed_id, str) or not ed_id:
        raise EditionError("edition: 'id' must be a non-empty string")
    raw_squares = data.get("squares")
    if not isinstance(raw_squares, list) or len(raw_squares) < 8:
        raise EditionError(f"{ed_id}: 'squares' must list the board")
    skyscrapers = _int(data, "skyscrapers", ed_id, 0)
    rent_steps = 7 if skyscrapers else 6  # bare lot, 1-4 houses, hotel (, skyscraper)
    squares: list[Square] = []
    ids: dict[str, int] = {}
    for index, sq in enumerate(raw_squares):
        where = f"{ed_id} square {index}"
        if not isinstance(sq, dict):
            raise EditionError(f"{where}: must be an object")
        try:
            kind = SquareKind(str(sq.get("kind")))
        except ValueError:
            raise EditionError(f"{where}: unknown kind {sq.get('kind')!r}") from None
        sq_id = sq.get("id")
        if not isinstance(sq_id, str) or not sq_id or sq_id in ids:
            raise EditionError(f"{where}: 'id' must be a unique non-empty string")
        ids[sq_id] = index
        name = str(sq.get("name", sq_id))
        if kind is SquareKind.LOT:
            if not isinstance(sq.get("group"), str):
                raise EditionError(f"{where}: a lot needs a 'group'")
            square = Square(index, sq_id, kind, name, group=sq["group"],
                            price=_int(sq, "price", where),
                            rent=_ints(sq, "rent", where, rent_steps),
                            house_cost=_int(sq, "house_cost", where),
                            mortgage=_int(sq, "mortgage", where))
        elif kind is SquareKind.STATION:
            square = Square(index, sq_id, kind, name, group=sq.get("group", "station"),
                            price=_int(sq, "price", where), rent=_ints(sq, "rent", where),
                            mortgage=_int(sq, "mortgage", where))
        elif kind is SquareKind.UTILITY:
            square = Square(index, sq_id, kind, name, group=sq.get("group", "utility"),
                            price=_int(sq, "price", where),
                            multipliers=_ints(sq, "multipliers", where),
                            mortgage=_int(sq, "mortgage", where))
        elif kind in (SquareKind.TAX, SquareKind.BIRTHDAY_GIFT):
            square = Square(index, sq_id, kind, name, amount=_int(sq, "amount", where))
        else:
            square = Square(index, sq_id, kind, name)
        squares.append(square)
    kinds = [s.kind for s in squares]
    if kinds[0] is not SquareKind.GO:
        raise EditionError(f"{ed_id}: square 0 must be GO")
    if kinds.count(SquareKind.JAIL) != 1:
        raise EditionError(f"{ed_id}: the board needs exactly one jail")
    groups: dict[str, list[int]] = {}
    for s in squares:
        if s.kind in OWNABLE:
            groups.setdefault(s.group, []).append(s.index)
    stations = [s for s in squares if s.kind is SquareKind.STATION]
    for s in stations:
        if len(s.rent) < len(groups[s.group]):
            raise EditionError(f"{ed_id}: station {s.id} needs a rent for each station count")
    for s in squares:
        if s.kind is SquareKind.UTILITY and len(s.multipliers) < len(groups[s.group]):
            raise EditionError(f"{ed_id}: utility {s.id} needs a multiplier per utility count")
    group_info = data.get("groups", {})
    for g, members in groups.items():
        if squares[members[0]].kind is SquareKind.LOT and g not in group_info:
            raise EditionError(f"{ed_id}: colour group {g!r} is not described in 'groups'")
    decks: dict[str, tuple[Card, ...]] = {}
    deck_names: dict[str, str] = {}
    cards: dict[str, Card] = {}
    for deck_id, deck in (data.get("decks") or {}).items():
        if not isinstance(deck, dict) or not isinstance(deck.get("cards"), list):
            raise EditionError(f"{ed_id}: deck {deck_id!r} needs 'cards'")
        deck_names[deck_id] = str(deck.get("name", deck_id))
        parsed = []
        for raw in deck["cards"]:
            card = _parse_card(ed_id, deck_id, raw, ids, kinds)
            if card.id in cards:
                raise EditionError(f"{ed_id}: card id {card.id!r} is used twice")
            cards[card.id] = card
            parsed.append(card)
        decks[deck_id] = tuple(parsed)
    for s in squares:
        deck_id = DECK_OF_KIND.get(s.kind)
        if deck_id is not None and not decks.get(deck_id):
            raise EditionError(f"{ed_id}: square {s.id} draws from empty deck {deck_id!r}")
    speed_die = _check_mega_parts(ed_id, data, squares, decks)
    banknotes_raw = data.get("banknotes", {})
    banknotes = {int(k): int(v) for k, v in banknotes_raw.items()}
    start_cash = _int(data, "start_cash", ed_id)
    if banknotes and sum(k * v for k, v in banknotes.items()) != start_cash:
        raise EditionError(f"{ed_id}: the banknotes dealt do not add up to the start cash")
    players = data.get("players", {"min": 2, "max": 8})
    defaults = RuleOptions(start_cash=start_cash, salary=_int(data, "salary", ed_id),
                           jail_fine=_int(data, "jail_fine", ed_id), speed_die=speed_die)
    try:
        defaults = defaults.with_changes(data.get("options", {}))
    except ValueError as exc:
        raise EditionError(f"{ed_id}: {exc}") from None
    return Edition(
        id=ed_id, name=str(data.get("name", ed_id)), language=str(data.get("language", "en")),
        currency=dict(data.get("currency", {"symbol": "", "pattern": "{amount}"})),
        squares=tuple(squares), groups={g: tuple(m) for g, m in groups.items()},
        group_info=group_info, decks=decks, deck_names=deck_names, banknotes=banknotes,
        houses=_int(data, "houses", ed_id, 32), hotels=_int(data, "hotels", ed_id, 12),
        min_players=int(players.get("min", 2)), max_players=int(players.get("max", 8)),
        defaults=defaults, jail_index=kinds.index(SquareKind.JAIL), square_ids=ids,
        cards=cards, raw=data, skyscrapers=skyscrapers, depots=_int(data, "depots", ed_id, 0),
        depot_cost=_int(data, "depot_cost", ed_id, 0), bus_tickets=len(decks.get(BUS_DECK, ())),
    )


def _check_mega_parts(
    ed_id: str, data: dict[str, Any], squares: list[Square], decks: dict[str, tuple[Card, ...]]
) -> bool:
    """Check the speed die, depots and bus tickets; whether the edition rolls the speed die.

    Bus tickets need the pile and a board of four equal sides (a ticket moves along one side);
    the speed die's bus face needs the pile and, once it is empty, a Chance or Community Chest
    square to go to.
    """
    dice = data.get("dice", {"white": 2})
    if not isinstance(dice, dict) or dice.get("white", 2) != 2:
        raise EditionError(f"{ed_id}: 'dice' must be two white dice, optionally with the "
                           "speed die: {\"white\": 2, \"speed\": true}")
    speed = dice.get("speed", False)
    if not isinstance(speed, bool):
        raise EditionError(f"{ed_id}: dice 'speed' must be true or false")
    kinds = {s.kind for s in squares}
    if _int(data, "depots", ed_id, 0):
        if not _int(data, "depot_cost", ed_id, 0):
            raise EditionError(f"{ed_id}: train depots need a 'depot_cost'")
        if SquareKind.STATION not in kinds:
            raise EditionError(f"{ed_id}: train depots need stations on the board")
    for deck_id, cards in decks.items():
        for card in cards:
            if (card.effect == "bus_ticket") != (deck_id == BUS_DECK):
                raise EditionError(f"{ed_id} card {card.id}: bus tickets, and only they, go in "
                                   f"the {BUS_DECK!r} deck")
    uses_tickets = speed or bool(kinds & _BUS_SQUARES) or any(
        c.effect == "take_bus_ticket" for cards in decks.values() for c in cards)
    if uses_tickets and not decks.get(BUS_DECK):
        raise EditionError(f"{ed_id}: the speed die, bus ticket squares and cards need a "
                           f"{BUS_DECK!r} deck of tickets")
    if BUS_DECK in decks and len(squares) % 4:
        raise EditionError(f"{ed_id}: bus tickets move along a side: the board needs 4 equal "
                           f"sides, not {len(squares)} squares")
    if speed and not kinds & set(DECK_OF_KIND):
        raise EditionError(f"{ed_id}: the speed die's bus needs a Chance or Community Chest square")
    return speed


def _parse_card(
    ed_id: str, deck_id: str, raw: Any, ids: dict[str, int], kinds: list[SquareKind]
) -> Card:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        raise EditionError(f"{ed_id} deck {deck_id}: every card needs an 'id'")
    where = f"{ed_id} card {raw['id']}"
    effect = raw.get("effect")
    if effect not in CARD_EFFECTS:
        raise EditionError(f"{where}: unknown effect {effect!r}")
    params = {k: v for k, v in raw.items() if k not in {"id", "text", "effect"}}
    if effect == "advance" and params.get("to") not in ids:
        raise EditionError(f"{where}: 'to' must name a square id")
    if effect == "nearest":
        kind = params.get("kind")
        if kind not in {"station", "utility"} or SquareKind(kind) not in kinds:
            raise EditionError(f"{where}: 'kind' must be a square kind on the board")
    if effect in {"money", "each_player"} and not isinstance(params.get("amount"), int):
        raise EditionError(f"{where}: 'amount' must be a whole number")
    if effect == "move_back":
        _int(params, "spaces", where)
    if effect == "repairs":
        _int(params, "house", where)
        _int(params, "hotel", where)
        _int(params, "skyscraper", where, 0)
    if effect == "bus_ticket" and not isinstance(params.get("expire_others", False), bool):
        raise EditionError(f"{where}: 'expire_others' must be true or false")
    return Card(id=raw["id"], deck=deck_id, text=str(raw.get("text", "")), effect=effect,
                params=params)
