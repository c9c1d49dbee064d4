"""Bus tickets in use, and the answers the Mega edition's squares ask for (which property
the Auction square puts up, the Birthday gift); landing on those squares is in board.py.

The pile of bus tickets is a deck (edition.BUS_DECK): taking a ticket is drawing from it,
so the table names the ticket it took (or lets the device draw) and a ticket that makes all
the others expire is seen. Tickets are held face up (Player.bus_tickets). One taken in a
turn is usable from a later turn (GameState.fresh_tickets); a used one goes to the bank for
good. A ticket, used instead of rolling, moves the token forward to any square of the side
it stands on (a corner belongs to both sides).
"""

from __future__ import annotations

from companion.rules.board import auction_choices, move_to, turn_starts_moving
from companion.rules.codes import CODE_ALREADY_ROLLED, CODE_NO_BUS_TICKET, Code, RulesError
from companion.rules.edition import BUS_DECK
from companion.rules.estate import start_auction
from companion.rules.events import BusTicketUsed, ChoseSquare, Events, Why
from companion.rules.money import transfer
from companion.rules.speed import triple_targets
from companion.rules.state import (
    BANK,
    BirthdayGiftPending,
    ChooseSquarePending,
    DrawPending,
    GameState,
)


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


def ticket_refusal(g: GameState, player: int, square: int | None) -> RulesError | None:
    """Why the player cannot ride the bus to the square now (None: they can); with no
    square, why they cannot ride at all."""
    if g.pending:
        return RulesError(Code.DECISION_PENDING, "answer the pending decision first")
    if player != g.current:
        return RulesError(Code.NOT_YOUR_TURN, f"it is {g.players[g.current].name}'s turn",
                          player=g.players[g.current].name)
    p = g.players[player]
    if p.in_jail:
        return RulesError(Code.NOT_NOW, f"{p.name} must leave jail before taking the bus")
    if not g.must_roll:
        return RulesError(CODE_ALREADY_ROLLED,
                          f"{p.name} has moved already: a bus ticket replaces a roll",
                          player=p.name)
    if usable_tickets(g, player) < 1:
        return RulesError(CODE_NO_BUS_TICKET, f"{p.name} has no bus ticket to use now"
                          + (" (one taken this turn is used from the next)" if p.bus_tickets
                             else ""))
    if square is not None and square not in bus_targets(g, p.position):
        return RulesError(Code.UNREACHABLE, f"the bus goes forward to a square on this side "
                          f"of the board, up to the corner: not to "
                          f"{g.edition.squares[square].name}")
    return None


def use_ticket(g: GameState, ev: Events, player: int, square: int) -> None:
    """Instead of rolling (or of a doubles re-roll): ride to a square ahead on this side."""
    refusal = ticket_refusal(g, player, square)
    if refusal is not None:
        raise refusal
    turn_starts_moving(g, ev, player)
    p = g.wp(player)
    ticket = p.bus_tickets[0]
    p.bus_tickets = p.bus_tickets[1:]
    ev.append(BusTicketUsed(p.name, ticket, square))
    g.rolled = True
    g.must_roll = False
    move_to(g, ev, player, square)


def square_choices(g: GameState, pending: ChooseSquarePending) -> list[int]:
    """The squares a CHOOSE_SQUARE may be answered with: where a triple may go (any other
    square), or the properties nobody owns for the Auction square."""
    return triple_targets(g, pending.player) if pending.reason == "triple" \
        else auction_choices(g)


def choose_square_refusal(g: GameState, pending: ChooseSquarePending,
                          square: int) -> RulesError | None:
    """Why the square does not answer the CHOOSE_SQUARE (None: it does)."""
    name = g.edition.squares[square].name
    if pending.reason == "triple":
        if square == g.players[pending.player].position:
            return RulesError(Code.UNREACHABLE, f"a triple moves on: pick a square other than "
                              f"{name}")
    elif square not in auction_choices(g):
        return RulesError(Code.NOT_OWNABLE, f"the bank auctions a property nobody owns, not "
                          f"{name}")
    return None


def choose_square(g: GameState, ev: Events, pending: ChooseSquarePending, square: int) -> None:
    """Answer a CHOOSE_SQUARE: where the triple goes, or which property the bank auctions."""
    refusal = choose_square_refusal(g, pending, square)
    if refusal is not None:
        raise refusal
    player = pending.player
    if pending.reason == "triple":
        g.pending.pop()
        ev.append(ChoseSquare(g.players[player].name, square, "triple"))
        move_to(g, ev, player, square)
        return
    g.pending.pop()
    ev.append(ChoseSquare(g.players[player].name, square, "auction"))
    start_auction(g, ev, square)


def gift_refusal(g: GameState, gift: str) -> RulesError | None:
    """Why the Birthday gift cannot be this one (None: it can): a bus ticket while any is
    left; the money always."""
    if gift == "bus_ticket" and not g.decks.get(BUS_DECK):
        return RulesError(Code.NOT_NOW, "no bus ticket is left: take the money")
    return None


def choose_gift(g: GameState, ev: Events, pending: BirthdayGiftPending, gift: str) -> None:
    """Birthday gift: the money from the bank, or a bus ticket while any is left."""
    refusal = gift_refusal(g, gift)
    if refusal is not None:
        raise refusal
    if gift == "bus_ticket":
        g.pending.pop()
        g.pending.append(DrawPending(pending.player, BUS_DECK))
        return
    g.pending.pop()
    transfer(g, ev, BANK, pending.player, pending.amount, "birthday_gift",
             Why("birthday_gift", pending.square, (("gift", pending.amount),)))
