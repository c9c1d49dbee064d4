"""Choosing a square on the board: where a triple goes, which property the Auction square
puts up, where a bus ticket rides to (the Mega edition).

Pure: from the moves the table layer reads in the state JSON (companion.game.table.view;
and whether a bus ride was asked for, and the square in focus) to the `Pick` on offer,
its candidates in board order from the token onwards, and the focused one. How the inputs move the
focus and choose is companion.inputs.entry's: the screen and the hardware use the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game.table.records import Turn, seat
from companion.game.table.view import Move, moves_of_state
from companion.rules.commands import Command, square_command
from companion.words import catalog


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


def _entry(state: Mapping[str, Any], verb: str, by: str | None) -> Move | None:
    """The engine's offer of `verb` to `by`, as the table layer reads it."""
    return next((m for m in moves_of_state(state) if m.do == verb and m.by == by
                 and not m.correction), None)


def _position(state: Mapping[str, Any], name: str | None) -> int:
    player = seat(state, name)
    return player.position if player is not None else 0


def ahead_order(squares: list[int], position: int, size: int) -> tuple[int, ...]:
    """`squares` in the order the token meets them going forward from `position`.

    >>> ahead_order([1, 3, 30, 39], 29, 40)
    (30, 39, 1, 3)
    """
    return tuple(sorted(squares, key=lambda s: (s - position - 1) % max(size, 1)))


def board_size(state: Mapping[str, Any]) -> int:
    """How many squares the edition's board has (40 on the classic board)."""
    squares = catalog.edition_data(str(state.get("edition") or "")).get("squares") or []
    return len(squares) or 40


def current_pick(state: Mapping[str, Any], bus_ride: bool = False, focus: int | None = None,
                 size: int | None = None) -> Pick | None:
    """The square choice the table is making now, if any: a pending `choose_square`, or a
    bus ride the player asked for (`bus_ride`) while `use_bus_ticket` is legal. `focus`:
    the square in focus (the first candidate when it is not one); `size`: the board's
    (default: the edition's)."""
    turn = Turn.of(state)
    by: str | None
    if turn.pending == "choose_square":
        by = turn.pending_player
        entry = _entry(state, "choose_square", by)
        purpose = (state.get("pending") or {}).get("for")  # where a triple or the Auction
        verb, purpose = "choose_square", str(purpose or "triple")  # square sends the token
    elif bus_ride and turn.pending is None:
        by = turn.current
        entry = _entry(state, "use_bus_ticket", by)
        verb, purpose = "use_bus_ticket", "bus"
    else:
        return None
    if entry is None or not entry.squares or by is None:
        return None
    squares = ahead_order(list(entry.squares), _position(state, by),
                          size or board_size(state))
    chosen = focus if focus in squares else squares[0]
    return Pick(verb, str(by), purpose, squares, int(chosen))
