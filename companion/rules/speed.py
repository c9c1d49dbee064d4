"""The speed die: three dice, triples, and the Mr. Monopoly and bus faces (Mega edition).

Two white dice and the speed die (1, 2, 3, bus, Mr. Monopoly twice). Numbers on all three
move the sum. Doubles count on the white dice only; a triple (1-1-1, 2-2-2, 3-3-3) lets the
player pick any square ahead and ends the rolling, even after two doubles. Mr. Monopoly and
the bus move by the white dice first; what follows waits on the pending stack (a follow-up)
and runs by itself once the square landed on is dealt with.
"""

from __future__ import annotations

from companion.rules.board import count_doubles, move_steps, move_to
from companion.rules.codes import Code, RulesError
from companion.rules.dice import SPEED_BUS, SPEED_CODES, SPEED_FACES, roll_die
from companion.rules.edition import BUS_DECK, DECK_OF_KIND, OWNABLE
from companion.rules.events import Events, MrMonopoly, MrMonopolyStays, NoBusTicket, Triple
from companion.rules.state import (
    BANK,
    BusPending,
    ChooseSquarePending,
    DrawPending,
    GameState,
    MrMonopolyPending,
)


def read_speed_dice(g: GameState, dice: tuple[int | str, ...] | None) -> tuple[int, ...]:
    """The three entered dice (checked) or the device's roll; the speed die as stored.

    The speed die is entered as 1, 2, 3, "bus" or "mr_monopoly" and stored as 1-3,
    dice.SPEED_BUS or dice.SPEED_MR_MONOPOLY.
    """
    if dice is None:
        rolled = []
        for _ in range(3):
            value, g.rng = roll_die(g.rng)
            rolled.append(value)
        return rolled[0], rolled[1], SPEED_FACES[rolled[2] - 1]
    if len(dice) == 3:
        whites = [d for d in dice[:2] if isinstance(d, int) and 1 <= d <= 6]
        speed = dice[2]
        code = SPEED_CODES.get(speed, 0) if isinstance(speed, str) else (
            speed if 1 <= speed <= 3 else 0)
        if len(whites) == 2 and code:
            return whites[0], whites[1], code
    raise RulesError(Code.BAD_DICE, "enter 3 dice: two white dice from 1 to 6 and the speed die "
                     "(1, 2, 3, \"bus\" or \"mr_monopoly\")")


def speed_roll(g: GameState, ev: Events, player: int, values: tuple[int, ...]) -> None:
    """Act on a roll of all three dice by a player not in jail."""
    white1, white2, speed = values
    p = g.players[player]
    if speed <= 3 and white1 == white2 == speed:
        g.must_roll = False
        ev.append(Triple(p.name))
        g.pending.append(ChooseSquarePending(player, "triple"))
        return
    if count_doubles(g, ev, player, white1 == white2):
        return
    if speed <= 3:
        move_steps(g, ev, player, white1 + white2 + speed)
        return
    if speed == SPEED_BUS:
        g.pending.append(BusPending(player))
    else:
        g.mr_monopoly = True
        ev.append(MrMonopoly(p.name))
        g.pending.append(MrMonopolyPending(player))
    move_steps(g, ev, player, white1 + white2)


def triple_targets(g: GameState, player: int) -> list[int]:
    """Where a triple may take the player: any other square (going forward)."""
    here = g.players[player].position
    return [s for s in range(len(g.edition.squares)) if s != here]


def run_follow_up(g: GameState, ev: Events,
                  pending: MrMonopolyPending | BusPending) -> None:
    """Run a follow-up step that has come to the top of the pending stack."""
    if isinstance(pending, MrMonopolyPending):
        mr_monopoly_move(g, ev, pending.player)
    else:
        bus_face(g, ev, pending.player)


def mr_monopoly_move(g: GameState, ev: Events, player: int) -> None:
    """On to the next unowned property; once all are owned, to the next one whose rent is
    owed to another player, or nowhere if that one is mortgaged."""
    squares = g.edition.squares
    n = len(squares)
    here = g.players[player].position
    ahead = [(here + k) % n for k in range(1, n)]
    target = next((s for s in ahead if squares[s].kind in OWNABLE and g.owner[s] == BANK), -1)
    if target < 0:
        target = next((s for s in ahead if squares[s].kind in OWNABLE
                       and g.owner[s] not in (BANK, player)), -1)
        if target >= 0 and g.mortgaged[target]:
            target = -1
    if target < 0:
        ev.append(MrMonopolyStays(g.players[player].name))
        return
    move_to(g, ev, player, target)


def bus_face(g: GameState, ev: Events, player: int) -> None:
    """Take a bus ticket; none left: on to the nearest Chance or Community Chest ahead."""
    if g.decks.get(BUS_DECK):
        g.pending.append(DrawPending(player, BUS_DECK))
        return
    squares = g.edition.squares
    n = len(squares)
    here = g.players[player].position
    target = next((here + k) % n for k in range(1, n + 1)
                  if squares[(here + k) % n].kind in DECK_OF_KIND)
    ev.append(NoBusTicket(g.players[player].name))
    move_to(g, ev, player, target)
