"""Bus tickets, and the squares the Mega edition adds: Auction, Birthday gift, Bus ticket.

The pile of bus tickets is a deck (edition.BUS_DECK): taking a ticket is drawing from it,
so the table names the ticket it took (or lets the device draw) and a ticket that makes all
the others expire is seen. Tickets are held face up (Player.bus_tickets). One taken in a
turn is usable from a later turn (GameState.fresh_tickets); a used one goes to the bank for
good. A ticket, used instead of rolling, moves the token forward to any square of the side
it stands on (a corner belongs to both sides).
"""

from __future__ import annotations

from companion.rules.board import move_to, rent_for, turn_starts_moving
from companion.rules.codes import Code, RulesError
from companion.rules.dice import moved_total
from companion.rules.edition import BUS_DECK, OWNABLE, Card, Square, SquareKind
from companion.rules.estate import start_auction
from companion.rules.money import Events, transfer
from companion.rules.state import BANK, GameState, Pending, PendingKind


def take_ticket(g: GameState, ev: Events, player: int) -> None:
    """The player takes the top ticket of the pile (a draw), if any is left."""
    if g.decks.get(BUS_DECK):
        g.pending.append(Pending(PendingKind.DRAW, player, deck=BUS_DECK))
    else:
        ev.append({"kind": "no_bus_ticket", "player": g.players[player].name})


def keep_ticket(g: GameState, ev: Events, player: int, card: Card) -> None:
    """The drawn ticket is the player's; one that says so makes every other ticket expire."""
    if card.params.get("expire_others"):
        expired = 0
        for i, q in enumerate(g.players):
            if q.bus_tickets:
                expired += len(q.bus_tickets)
                g.wp(i).bus_tickets = ()
        g.fresh_tickets = 0
        ev.append({"kind": "bus_tickets_expired", "count": expired})
    p = g.wp(player)
    p.bus_tickets = (*p.bus_tickets, card.id)
    if player == g.current:
        g.fresh_tickets += 1
    ev.append({"kind": "bus_ticket", "player": p.name, "card": card.id})


def usable_tickets(g: GameState, player: int) -> int:
    """Tickets the player may use now: not those taken this turn."""
    held = len(g.players[player].bus_tickets)
    return held - g.fresh_tickets if player == g.current else held


def bus_targets(g: GameState, position: int) -> list[int]:
    """The squares ahead on the token's side, up to the next corner; from a corner, the
    whole next side (the corner is also the last square of the side before)."""
    n = len(g.edition.squares)
    side = n // 4
    end = position + side if position % side == 0 else (position // side + 1) * side
    return [s % n for s in range(position + 1, end + 1)]


def use_ticket(g: GameState, ev: Events, player: int, square: int) -> None:
    """Instead of rolling (or of a doubles re-roll): ride to a square ahead on this side."""
    if g.pending:
        raise RulesError(Code.DECISION_PENDING, "answer the pending decision first")
    if player != g.current:
        raise RulesError(Code.NOT_YOUR_TURN, f"it is {g.players[g.current].name}'s turn",
                         player=g.players[g.current].name)
    p = g.players[player]
    if p.in_jail:
        raise RulesError(Code.NOT_NOW, f"{p.name} must leave jail before taking the bus")
    if not g.must_roll:
        raise RulesError(Code.ALREADY_ROLLED,
                         f"{p.name} has moved already: a bus ticket replaces a roll",
                         player=p.name)
    if usable_tickets(g, player) < 1:
        raise RulesError(Code.NO_BUS_TICKET, f"{p.name} has no bus ticket to use now"
                         + (" (one taken this turn is used from the next)" if p.bus_tickets
                            else ""))
    if square not in bus_targets(g, p.position):
        raise RulesError(Code.UNREACHABLE, f"the bus goes forward to a square on this side of "
                         f"the board, up to the corner: not to {g.edition.squares[square].name}")
    turn_starts_moving(g, ev, player)
    p = g.wp(player)
    ticket = p.bus_tickets[0]
    p.bus_tickets = p.bus_tickets[1:]
    ev.append({"kind": "bus_ticket_used", "player": p.name, "card": ticket, "square": square})
    g.rolled = True
    g.must_roll = False
    move_to(g, ev, player, square)


def auction_choices(g: GameState) -> list[int]:
    """The properties nobody owns: what the Auction square may put up for auction."""
    return [s.index for s in g.edition.squares if s.kind in OWNABLE and g.owner[s.index] == BANK]


def choose_square(g: GameState, ev: Events, pending: Pending, square: int) -> None:
    """Answer a CHOOSE_SQUARE: where the triple goes, or which property the bank auctions."""
    player = pending.player
    name = g.edition.squares[square].name
    if pending.reason == "triple":
        if square == g.players[player].position:
            raise RulesError(Code.UNREACHABLE, f"a triple moves on: pick a square other than "
                             f"{name}")
        g.pending.pop()
        ev.append({"kind": "chose_square", "player": g.players[player].name, "square": square,
                   "for": "triple"})
        move_to(g, ev, player, square)
        return
    if square not in auction_choices(g):
        raise RulesError(Code.NOT_OWNABLE, f"the bank auctions a property nobody owns, not "
                         f"{name}")
    g.pending.pop()
    ev.append({"kind": "chose_square", "player": g.players[player].name, "square": square,
               "for": "auction"})
    start_auction(g, ev, square)


def choose_gift(g: GameState, ev: Events, pending: Pending, gift: str) -> None:
    """Birthday gift: the money from the bank, or a bus ticket while any is left."""
    if gift == "bus_ticket":
        if not g.decks.get(BUS_DECK):
            raise RulesError(Code.NOT_NOW, "no bus ticket is left: take the money")
        g.pending.pop()
        g.pending.append(Pending(PendingKind.DRAW, pending.player, deck=BUS_DECK))
        return
    g.pending.pop()
    transfer(g, ev, BANK, pending.player, pending.amount, "birthday_gift")


def land_on_extra_square(g: GameState, ev: Events, player: int, sq: Square) -> None:
    """What the Auction, Birthday gift and Bus ticket squares do."""
    if sq.kind is SquareKind.BUS_TICKET:
        take_ticket(g, ev, player)
    elif sq.kind is SquareKind.BIRTHDAY_GIFT:
        if g.decks.get(BUS_DECK):
            g.pending.append(Pending(PendingKind.BIRTHDAY_GIFT, player, square=sq.index,
                                     amount=sq.amount))
        else:
            transfer(g, ev, BANK, player, sq.amount, "birthday_gift")
    elif auction_choices(g):
        if g.options.auctions:
            g.pending.append(Pending(PendingKind.CHOOSE_SQUARE, player, square=sq.index,
                                     reason="auction"))
    else:
        dearest_rent(g, ev, player)


def dearest_rent(g: GameState, ev: Events, player: int) -> None:
    """Every property is owned: on to the one of another player whose rent is highest now
    (utilities by this move's dice), the nearest on ties; stay if none would cost anything."""
    squares = g.edition.squares
    n = len(squares)
    here = g.players[player].position
    dice = moved_total(g.dice) if g.dice else 0
    best, best_rent = -1, 0
    for k in range(1, n):
        s = (here + k) % n
        if squares[s].kind in OWNABLE and g.owner[s] not in (BANK, player):
            rent = rent_for(g, s, dice)
            if rent > best_rent:
                best, best_rent = s, rent
    if best < 0:
        ev.append({"kind": "auction_square_stays", "player": g.players[player].name})
        return
    move_to(g, ev, player, best)
