"""One entry point for applying a command (a typed record or its JSON) to a game, `new_game`
included.

The rules engine cannot read files; this wrapper loads the edition a `new_game` names. The
session, the replay command and the benchmarks all go through `apply_command`.
"""

from __future__ import annotations

from typing import Any

from companion.editions import load_edition
from companion.rules import (
    Accepted,
    Code,
    EditionError,
    GameState,
    Rejection,
    Result,
    apply,
    legal_commands,
    new_game,
    public_state,
    restore,
)
from companion.rules.commands import Command, NewGame

JSON = dict[str, Any]


def apply_command(state: GameState | None, command: Command | JSON) -> Result:
    """Apply a command, a typed record or its JSON (which the engine parses, refusing a
    malformed one); `new_game` starts a fresh game (replacing any running one)."""
    if isinstance(command, NewGame) or (isinstance(command, dict)
                                        and command.get("do") == "new_game"):
        edition_id = command.edition if isinstance(command, NewGame) else command.get("edition")
        if not isinstance(edition_id, str):
            return Rejection(Code.BAD_COMMAND, "'edition' must be an edition id")
        try:
            edition = load_edition(edition_id)
        except EditionError as exc:
            return Rejection(Code.BAD_EDITION, str(exc))
        result = new_game(edition, command)
        if isinstance(result, Accepted) and state is not None:
            result.state.version = state.version + 1
        return result
    if state is None:
        return Rejection(Code.NO_GAME, "no game yet: start one with new_game")
    return apply(state, command)


def state_json(state: GameState, with_legal: bool = True) -> dict[str, Any]:
    """The public state JSON, with the legal commands."""
    return public_state(state, legal_commands(state) if with_legal else None)


def restore_snapshot(data: dict[str, Any]) -> GameState:
    """Rebuild a state from a journal snapshot (loading its edition)."""
    return restore(data, load_edition(str(data.get("edition"))))
