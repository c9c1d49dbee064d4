"""The rules engine's entry points: `new_game` and `apply`.

Pure and deterministic: a state and a command give a new state and events, or a Rejection
with a stable code and a human message. The old state is never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.rules import buildings, estate, tickets, turns
from companion.rules.cards import draw_card
from companion.rules.codes import Code, Rejection, RulesError
from companion.rules.commands import (
    AuctionBuilding,
    Bankrupt,
    Bid,
    Build,
    Buy,
    ChooseGift,
    ChooseSquare,
    ClaimRent,
    CloseAuction,
    Command,
    Decline,
    Draw,
    EndGame,
    EndTurn,
    Land,
    Mortgage,
    NewGame,
    Pass,
    PassGo,
    Pay,
    PayFine,
    Roll,
    SellBuilding,
    Trade,
    Unmortgage,
    UseBusTicket,
    UseCard,
    parse_command,
    resolved_as,
)
from companion.rules.dice import dice_json, shuffled
from companion.rules.edition import OWNABLE, Edition
from companion.rules.events import (
    Bought,
    Events,
    GameStarted,
    KeptMortgages,
    Transfer,
    Turn,
    Why,
    events_json,
)
from companion.rules.flow import declare_bankrupt, settle_debts
from companion.rules.money import charge, transfer
from companion.rules.options import VARIANTS
from companion.rules.standings import end_and_count
from companion.rules.state import (
    AUCTIONS,
    BANK,
    COMPILED,
    POT,
    SETTLED,
    BirthdayGiftPending,
    BuyPending,
    ChooseSquarePending,
    DebtPending,
    DrawPending,
    GameState,
    LiftMortgagesPending,
    PendingKind,
    Player,
    bare,
    player_index,
)
from companion.rules.state import actor as _actor

#: what the device decided for a command: the dice it rolled, or the card it drew
Decided = tuple[int, ...] | str | None


@dataclass(slots=True, init=False)
class Accepted:
    """An accepted command: the new state, what happened in order (typed events,
    companion.rules.events), and the command as it actually happened.

    `command` is the command as it happened: what the device decided filled in, the dice
    of a device roll and the card of a device draw; `resolved` is that command as
    table-script JSON (commands.command_to_json). Both are written only when asked for
    (most callers, the bots among them, never need them). Applying the resolved commands in
    order to the state before the first one gives the same table again without rolling or
    drawing anew (only the generator's own state, GameState.rng, is not advanced by
    entered dice). Transport fields of the command as sent (source, expect_version, note)
    are not part of it.
    """

    state: GameState
    events: Events
    sent: Command
    decided: Decided

    def __init__(self, state: GameState, events: Events, sent: Command,
                 decided: Decided = None) -> None:
        self.state = state
        self.events = events
        self.sent = sent
        self.decided = decided

    @property
    def command(self) -> Command:
        """The command as it happened (the sent one with the device's dice or card)."""
        decided = self.decided
        if decided is None:
            return self.sent
        if isinstance(decided, str):
            return resolved_as(self.sent, card=decided)
        return resolved_as(self.sent, dice=tuple(dice_json(decided)))

    @property
    def resolved(self) -> dict[str, Any]:
        """The command as it happened, as table-script JSON (a fresh dict each time)."""
        return self.command.to_json()

    def events_json(self) -> list[dict[str, Any]]:
        """The events in their JSON form (docs/state-json.md), a fresh list each time: for
        the journal, the phones and the screen, which read JSON."""
        return events_json(self.events)


Result = Accepted | Rejection
#: the longest player name: it must fit a player card on the 800x480 screen
MAX_NAME = 24


def valid_name(name: str) -> bool:
    """Whether a player's name is 1 to MAX_NAME printable characters without spaces around
    (a control, format or lone surrogate character breaks screens and journals).

    >>> valid_name("Åsa"), valid_name("Bo" + chr(0)), valid_name(" Cy"), valid_name("x" * 25)
    (True, False, False, False)
    """
    return 1 <= len(name) <= MAX_NAME and name.isprintable() and name == name.strip()


def new_game(edition: Edition, command: Command | dict[str, Any]) -> Result:
    """Start a game: deal the start cash, shuffle the decks with the seed.

    >>> from companion.editions import load_edition
    >>> r = new_game(load_edition("classic-eur"), {"do": "new_game", "edition": "classic-eur",
    ...              "players": ["Ann", "Bo"], "seed": 1})
    >>> [p.cash for p in r.state.players]
    [1500, 1500]
    """
    try:
        cmd = parse_command(command) if isinstance(command, dict) else command
        if not isinstance(cmd, NewGame):
            if type(cmd) not in _HANDLERS:
                parse_command(cmd)  # not a command at all: refused as the parser does
            raise RulesError(Code.NO_GAME, "start a game with new_game first")
        if cmd.edition != edition.id:
            raise RulesError(Code.BAD_EDITION, f"edition {cmd.edition!r} was asked for, "
                             f"{edition.id!r} given")
        names = list(cmd.players)
        for name in names:
            if not valid_name(name):
                raise RulesError(Code.BAD_NAME, f"a player's name must be 1 to {MAX_NAME} "
                                 "letters, digits or signs, without control characters")
        if not edition.min_players <= len(names) <= edition.max_players:
            raise RulesError(Code.BAD_PLAYERS, f"{edition.name} is for {edition.min_players} to "
                             f"{edition.max_players} players")
        if len({n.casefold() for n in names}) != len(names) or any(
            n.casefold() in {"bank", "pot"} for n in names
        ):
            raise RulesError(Code.BAD_PLAYERS, "player names must differ and not be bank or pot")
        options = edition.defaults.with_changes(_expand_variant(edition, cmd.options))
    except RulesError as exc:
        return Rejection(exc.code, exc.message, exc.params)
    rng = (cmd.seed * 0x2545F4914F6CDD1D + 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    decks: dict[str, list[str]] = {}
    for deck_id, cards in sorted(edition.decks.items()):
        decks[deck_id], rng = shuffled([c.id for c in cards], rng)
    n = len(edition.squares)
    g = GameState(
        edition=edition, options=options,
        players=[Player(name, options.start_cash) for name in names],
        owner=(BANK,) * n, level=(0,) * n, mortgaged=(False,) * n,
        bank_houses=edition.houses, bank_hotels=edition.hotels, rng=rng, decks=decks,
        pot=options.free_parking_pot_start if options.free_parking_pot else 0,
        bank_skyscrapers=edition.skyscrapers,
    )
    g.version = 1
    ev: Events = [GameStarted(edition.id, tuple(names))]
    for p in g.players:
        ev.append(Transfer(None, p.name, options.start_cash, "start_cash",
                           Why("start_cash", None, (("cash", options.start_cash),), "start_cash")))
    if g.pot:
        ev.append(Transfer(None, "pot", g.pot, "start_pot",
                           Why("start_pot", None, (("pot", g.pot),), "free_parking_pot_start")))
    variant = cmd.options.get("variant", "standard")
    g.extra["variant"] = variant
    if options.deal_deeds:
        _deal_deeds(g, ev, options.deal_deeds)
    ev.append(Turn(names[0], 1))
    return Accepted(g, ev, cmd)


def _expand_variant(edition: Edition, options: dict[str, Any]) -> dict[str, Any]:
    """Options with a named variant (short, timed) replaced by its rules; explicit win."""
    options = dict(options)
    name = options.pop("variant", "standard")
    presets = {**VARIANTS, **edition.raw.get("variants", {})}
    if name not in presets:
        raise RulesError(Code.BAD_OPTION, f"unknown variant {name!r} (known: "
                         f"{', '.join(sorted(presets))})")
    return {**presets[name], **options}


def _deal_deeds(g: GameState, ev: Events, per_player: int) -> None:
    """Short and timed game: each player is dealt deeds and pays their printed price."""
    deeds = [str(s.index) for s in g.edition.squares if s.kind in OWNABLE]
    order, g.rng = shuffled(deeds, g.rng)
    for round_ in range(per_player):
        for i in range(len(g.players)):
            square = int(order[round_ * len(g.players) + i])
            price = g.edition.squares[square].price
            transfer(g, ev, i, BANK, price, "dealt_deed",
                     Why("dealt_deed", square, (("price", price),), "deal_deeds"))
            g.set_owner(square, i)
            ev.append(Bought(g.players[i].name, square, price))


def apply(state: GameState, command: Command | dict[str, Any]) -> Result:
    """Apply one command to a game: the new state and events, or a Rejection.

    The given state is left as it was.
    """
    try:
        # a record is looked up by its type first: an isinstance that fails (a record is no
        # dict) costs more than the look-up, and records are what most callers send
        # (a subscript, not a `get` call: a method call costs more, and a miss is rare)
        try:
            handler = _HANDLERS[type(command)]
            cmd: Command = command  # type: ignore[assignment]  # a key of _HANDLERS: a record
        except KeyError:  # JSON, a new_game, or not a command at all
            cmd = parse_command(command) if isinstance(command, dict) else command
            found = _HANDLERS.get(type(cmd))
            if found is None:
                if not isinstance(cmd, NewGame):
                    parse_command(cmd)  # not a command at all: refused as the parser does
                if state.winner >= 0:
                    raise _game_over(state) from None
                raise RulesError(Code.NOT_NOW,
                                 f"{cmd.do.value} is not a command within a game") from None
            handler = found
        if state.winner >= 0:
            raise _game_over(state)
        if COMPILED:
            g = state.copy()
        else:  # plain_copy written out (one call less a command), the version set at once
            g = bare(GameState)
            g.edition = state.edition
            g.options = state.options
            g.players = state.players
            g.owner = state.owner
            g.level = state.level
            g.mortgaged = state.mortgaged
            g.bank_houses = state.bank_houses
            g.bank_hotels = state.bank_hotels
            g.rng = state.rng
            g.seldom = state.seldom  # shared until written (ws)
            g.seldom_own = False
            g.version = state.version + 1
            g.current = state.current
            g.turn_number = state.turn_number
            g.rolled = state.rolled
            g.must_roll = state.must_roll
            g.doubles = state.doubles
            g.dice = state.dice
            pending = state.pending
            g.pending = pending[:] if pending else []  # most commands start with none waiting
            g.winner = state.winner
            g.owned = 0
        ev: Events = []
        decided = handler(g, ev, cmd)
        pending = g.pending
        if pending and isinstance(pending[-1], SETTLED):  # what settle_debts would look at
            settle_debts(g, ev)
    except RulesError as exc:
        top = state.top
        context = {"current": state.players[state.current].name,
                   "pending": top.kind.value if top is not None else None}
        return Rejection(exc.code, exc.message, {**context, **exc.params})
    if COMPILED:
        g.version = state.version + 1
        return Accepted(g, ev, cmd, decided)
    # plain Python: the fields set on a bare record, which skips the call of __init__ (as
    # plain_copy does for the state); mypyc refuses a bare compiled record
    done: Accepted = bare(Accepted)
    done.state = g
    done.events = ev
    done.sent = cmd
    done.decided = decided
    return done


def _game_over(state: GameState) -> RulesError:
    """The refusal of any command once a player has won."""
    name = state.players[state.winner].name
    return RulesError(Code.GAME_OVER, f"the game is over: {name} won", player=name)


# --- who is acting -----------------------------------------------------------------------


def _named(g: GameState, name: str | None, default: int) -> int:
    """The player a command names ("by"), or `default` when it names nobody; the usual
    case, the default player named, without a search (player_index refuses the others)."""
    if name is None:
        return default
    expected = g.players[default]
    if expected.name == name and not expected.bankrupt:
        return default
    return player_index(g, name)


def party_index(g: GameState, name: str) -> int:
    """A player's index, or BANK / POT for "bank" / "pot"."""
    if name == "bank":
        return BANK
    if name == "pot" and g.options.free_parking_pot:
        return POT
    return player_index(g, name)


_P = TypeVar("_P", BuyPending, DrawPending, ChooseSquarePending, BirthdayGiftPending)


def _not_waiting(*kinds: PendingKind) -> RulesError:
    wanted = " or ".join(k.value for k in kinds)
    return RulesError(Code.NOT_NOW, f"the table is not waiting for a {wanted} decision")


def _expect(g: GameState, kind: type[_P]) -> _P:
    """The decision on top, which must be of this kind."""
    top = g.pending[-1] if g.pending else None  # g.top, without its call
    if not isinstance(top, kind):
        raise _not_waiting(kind.kind)
    return top


def _expect_auction(g: GameState) -> estate.AnyAuction:
    """The auction on top (of a property or of a building)."""
    top = g.pending[-1] if g.pending else None  # g.top, without its call
    if not isinstance(top, AUCTIONS):
        raise _not_waiting(PendingKind.AUCTION, PendingKind.BUILDING_AUCTION)
    return top


def square_of(g: GameState, ref: int | str | None) -> int:
    """The board index of a square reference, or a refusal naming it."""
    if type(ref) is int and 0 <= ref < len(g.edition.squares):  # square_index's usual case
        return ref
    index = None if ref is None else g.edition.square_index(ref)
    if index is None:
        raise RulesError(Code.UNKNOWN_SQUARE, f"there is no square {ref!r} on this board")
    return index


def _owner_actor(g: GameState, by: str | None, square: int) -> int:
    """For property commands "by" defaults to the square's owner."""
    if by is not None:
        owner = g.owner[square]
        if owner >= 0:  # the usual case, the owner named, without player_index's search
            p = g.players[owner]
            if p.name == by and not p.bankrupt:
                return owner
        return player_index(g, by)
    owner = g.owner[square]
    if owner < 0:
        raise RulesError(Code.NOT_OWNER, f"{g.edition.squares[square].name} belongs to the bank")
    return owner


# --- handlers ----------------------------------------------------------------------------


def _buy(g: GameState, ev: Events, cmd: Buy) -> None:
    top = g.pending[-1] if g.pending else None  # _expect's usual case, without its call
    if not isinstance(top, BuyPending):
        top = _expect(g, BuyPending)  # refused
    by = cmd.by
    if by is not None:  # else, or the expected player named and still in: actor's usual case
        expected = g.players[top.player]
        if expected.name != by or expected.bankrupt:
            _actor(g, by, top.player)  # refused
    estate.buy(g, ev, top)


def _decline(g: GameState, ev: Events, cmd: Decline) -> None:
    top = g.top
    if isinstance(top, LiftMortgagesPending):
        _actor(g, cmd.by, top.player)
        g.pending.pop()
        ev.append(KeptMortgages(g.players[top.player].name, top.squares))
        return
    if not isinstance(top, BuyPending):
        raise _not_waiting(PendingKind.BUY, PendingKind.LIFT_MORTGAGES)
    _actor(g, cmd.by, top.player)
    estate.decline(g, ev, top)


def _bid(g: GameState, ev: Events, cmd: Bid) -> None:
    top = g.pending[-1] if g.pending else None  # _expect_auction's usual case, no call
    if not isinstance(top, AUCTIONS):
        top = _expect_auction(g)  # refused
    estate.bid(g, ev, top, player_index(g, cmd.by), cmd.amount)


def _pass(g: GameState, ev: Events, cmd: Pass) -> None:
    top = _expect_auction(g)
    estate.pass_auction(g, ev, top, player_index(g, cmd.by))


def _close_auction(g: GameState, ev: Events, cmd: CloseAuction) -> None:
    _expect_auction(g)
    estate.close_auction(g, ev)


def _draw(g: GameState, ev: Events, cmd: Draw) -> str | None:
    top = g.pending[-1] if g.pending else None  # _expect's usual case, without its call
    if not isinstance(top, DrawPending):
        top = _expect(g, DrawPending)  # refused
    by = cmd.by
    if by is not None:  # else, or the expected player named and still in: actor's usual case
        expected = g.players[top.player]
        if expected.name != by or expected.bankrupt:
            _actor(g, by, top.player)  # refused
    card = draw_card(g, ev, top, cmd.card)
    return card if cmd.card is None else None


def _land(g: GameState, ev: Events, cmd: Land) -> None:
    square = square_of(g, cmd.square)
    if cmd.correction:  # the banker's: any player still in the game
        who = _named(g, cmd.by, g.current)
        turns.correct_land(g, ev, who, square, cmd.via_go, cmd.dice)
        return
    turns.land_on(g, ev, _named(g, cmd.by, g.current), square, cmd.via_go, cmd.dice)


def _pass_go(g: GameState, ev: Events, cmd: PassGo) -> None:
    who = _named(g, cmd.by, g.current)
    if cmd.correction:
        turns.correct_salary(g, ev, who)
        return
    turns.pass_go(g, ev, who)


def _pay(g: GameState, ev: Events, cmd: Pay) -> None:
    estate.pay(g, ev, party_index(g, cmd.payer), party_index(g, cmd.payee), cmd.amount)


def _build(g: GameState, ev: Events, cmd: Build) -> None:
    square = square_of(g, cmd.square)
    buildings.build_command(g, ev, _owner_actor(g, cmd.by, square), square, cmd.count,
                            cmd.building)


def _sell_building(g: GameState, ev: Events, cmd: SellBuilding) -> None:
    square = square_of(g, cmd.square)
    buildings.sell_building(g, ev, _owner_actor(g, cmd.by, square), square, cmd.count)


def _mortgage(g: GameState, ev: Events, cmd: Mortgage) -> None:
    square = square_of(g, cmd.square)
    estate.mortgage(g, ev, _owner_actor(g, cmd.by, square), square)


def _unmortgage(g: GameState, ev: Events, cmd: Unmortgage) -> None:
    square = square_of(g, cmd.square)
    estate.unmortgage(g, ev, _owner_actor(g, cmd.by, square), square)


def _leave_jail(g: GameState, ev: Events, by: str | None, by_card: bool) -> None:
    """A jailed player pays or uses a card in their turn, before its roll (turns.leave_jail)."""
    who = _named(g, by, g.current)
    turns.leave_jail(g, ev, who, by_card=by_card)


def _pay_fine(g: GameState, ev: Events, cmd: PayFine) -> None:
    _leave_jail(g, ev, cmd.by, by_card=False)


def _use_card(g: GameState, ev: Events, cmd: UseCard) -> None:
    _leave_jail(g, ev, cmd.by, by_card=True)


def _trade(g: GameState, ev: Events, cmd: Trade) -> None:
    a, b = player_index(g, cmd.payer), player_index(g, cmd.payee)
    refusal = buildings.auction_refusal(g) or buildings.mr_monopoly_refusal(
        g, a if a != g.current else b, "trading")
    if refusal is not None:
        raise refusal
    give = (cmd.give.cash, cmd.give.cards, [square_of(g, s) for s in cmd.give.squares])
    take = (cmd.take.cash, cmd.take.cards, [square_of(g, s) for s in cmd.take.squares])
    estate.trade(g, ev, a, b, give, take)


def _bankrupt(g: GameState, ev: Events, cmd: Bankrupt) -> None:
    top = g.top
    default = top.player if isinstance(top, DebtPending) else g.current
    who = _named(g, cmd.by, default)
    declare_bankrupt(g, ev, who)


def _auction_building(g: GameState, ev: Events, cmd: AuctionBuilding) -> None:
    buildings.start_building_auction(g, ev, cmd.building)


def _claim_rent(g: GameState, ev: Events, cmd: ClaimRent) -> None:
    if not g.claims:
        raise RulesError(Code.NOT_NOW, "there is no rent to claim")
    mine = [c for c in g.claims if cmd.by is None or g.players[c[1]].name == cmd.by]
    if not mine:
        raise RulesError(Code.NOT_NOW, f"{cmd.by} has no rent to claim")
    payer, owner, square, amount, _left = mine[0]
    claims = g.claims[:]  # a new list: copies of the state share the old one
    claims.remove(mine[0])
    g.claims = claims
    charge(g, ev, payer, owner, amount, "rent",
           why=Why("rent_claimed", square, (("rent", amount),), "rent_must_be_claimed"))


def _end_game(g: GameState, ev: Events, cmd: EndGame) -> None:
    end_and_count(g, ev, cmd.reason)


def _use_bus_ticket(g: GameState, ev: Events, cmd: UseBusTicket) -> None:
    who = _named(g, cmd.by, g.current)
    tickets.use_ticket(g, ev, who, square_of(g, cmd.square))


def _choose_square(g: GameState, ev: Events, cmd: ChooseSquare) -> None:
    top = _expect(g, ChooseSquarePending)
    _actor(g, cmd.by, top.player)
    tickets.choose_square(g, ev, top, square_of(g, cmd.square))


def _choose_gift(g: GameState, ev: Events, cmd: ChooseGift) -> None:
    top = _expect(g, BirthdayGiftPending)
    _actor(g, cmd.by, top.player)
    tickets.choose_gift(g, ev, top, cmd.gift)


#: each command record's handler: it changes the state and tells what happened; it returns
#: what the device decided when it did (the dice rolled, the card drawn), else None. Each
#: handler takes its own record type; the table is looked up by the command's type.
_HANDLERS: dict[type, Callable[[GameState, Events, Any], Decided]] = {
    Roll: turns.roll_command,
    Buy: _buy,
    Decline: _decline,
    Bid: _bid,
    Pass: _pass,
    CloseAuction: _close_auction,
    Draw: _draw,
    EndTurn: turns.next_turn,  # checks the command, then hands the dice on
    Land: _land,
    PassGo: _pass_go,
    Pay: _pay,
    Build: _build,
    SellBuilding: _sell_building,
    Mortgage: _mortgage,
    Unmortgage: _unmortgage,
    PayFine: _pay_fine,
    UseCard: _use_card,
    Trade: _trade,
    Bankrupt: _bankrupt,
    AuctionBuilding: _auction_building,
    ClaimRent: _claim_rent,
    EndGame: _end_game,
    UseBusTicket: _use_bus_ticket,
    ChooseSquare: _choose_square,
    ChooseGift: _choose_gift,
}

__all__ = ["Accepted", "Result", "new_game", "apply", "transfer", "valid_name", "MAX_NAME"]
