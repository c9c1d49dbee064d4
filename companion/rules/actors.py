"""Who is acting: a named player's index, and the player a command must come from.

Below the rules modules that take commands (engine.py's handlers, turns.py's roll and end
of turn), so that each can check the player a command names without importing the engine.
"""

from __future__ import annotations

from companion.rules.codes import Code, RulesError
from companion.rules.state import GameState


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
