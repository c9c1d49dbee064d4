"""Choosing a square on the board: where a triple goes, which property the Auction square
puts up, where a bus ticket rides to (the Mega edition).

Pure: from the session's view of the table (companion.game.table.view: the pending
decision's record and its answers, the moves, the players; and whether a bus ride was
asked for, and the square in focus) to the `Pick` on offer, its candidates in board order
from the token onwards, and the focused one. How the inputs move the focus and choose is
companion.inputs.entry's: the screen and the hardware use the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game.table.view import TableView, build
from companion.rules.commands import Command, square_command

#: what the inputs read the table from: the session's view, or a bare public state JSON
#: (a test's, a phone page's), which is read into one
Table = TableView | Mapping[str, Any]


def view_of(table: Table) -> TableView:
    """The session's view of the table as it is; a public state JSON read into one."""
    return table if isinstance(table, TableView) else build(table)


@dataclass(frozen=True)
class Pick:
    """A square to choose: the verb that takes it, who chooses, what for ("triple",
    "auction" or "bus"), the candidates from the token onwards and the focused one."""

    verb: str
    by: str
    purpose: str
    squares: tuple[int, ...]
    focus: int

    def command(self, square: int | None = None) -> Command:
        """The command choosing `square` (default: the focused one)."""
        return square_command(self.verb, self.focus if square is None else square, self.by)

    def step(self, steps: int) -> int:
        """The candidate `steps` places after the focused one (negative: before), wrapping.

        >>> Pick("choose_square", "A", "triple", (5, 9, 2), 9).step(1)
        2
        >>> Pick("choose_square", "A", "triple", (5, 9, 2), 9).step(-2)
        2
        """
        if not self.squares:
            return self.focus
        here = self.squares.index(self.focus) if self.focus in self.squares else 0
        return self.squares[(here + steps) % len(self.squares)]


def _position(table: TableView, name: str | None) -> int:
    player = table.player(name)
    return player.position if player is not None else 0


def ahead_order(squares: list[int], position: int, size: int) -> tuple[int, ...]:
    """`squares` in the order the token meets them going forward from `position`.

    >>> ahead_order([1, 3, 30, 39], 29, 40)
    (30, 39, 1, 3)
    """
    return tuple(sorted(squares, key=lambda s: (s - position - 1) % max(size, 1)))


def board_size(table: Table) -> int:
    """How many squares the edition's board has (40 on the classic board): the view's
    setup says it."""
    return view_of(table).setup.board_size


def current_pick(table: Table, bus_ride: bool = False, focus: int | None = None,
                 size: int | None = None) -> Pick | None:
    """The square choice the table is making now, if any: a pending `choose_square` (its
    answer's squares), or a bus ride the player asked for (`bus_ride`) while
    `use_bus_ticket` is offered. `focus`: the square in focus (the first candidate when it
    is not one); `size`: the board's (default: the edition's)."""
    view = view_of(table)
    decision = view.decision
    by: str | None
    offered: tuple[int, ...] = ()
    if decision is not None and decision.kind == "choose_square":
        by = decision.player
        answer = decision.answer("choose_square", by)
        offered = answer.squares if answer is not None else ()
        # where a triple or the Auction square sends the token
        verb, purpose = "choose_square", decision.purpose or "triple"
    elif bus_ride and decision is None:
        by = view.current
        move = view.move("use_bus_ticket", by)
        offered = move.squares if move is not None else ()
        verb, purpose = "use_bus_ticket", "bus"
    else:
        return None
    if not offered or by is None:
        return None
    squares = ahead_order(list(offered), _position(view, by), size or board_size(view))
    chosen = focus if focus in squares else squares[0]
    return Pick(verb, str(by), purpose, squares, int(chosen))
