"""The game so far, rebuilt from the session's history: the net-worth curve of the game-over
chart, on resume and whatever undos and redos the journal holds.

The history lists every journal entry with its "kind" (command, undo or redo) and, for a
command, whether it stands "undone" now. The commands that made the game as it is are the
commands not undone, from the last new game on (as the phone remote's export reads them);
replaying them through the engine gives the net worth of every player after each.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

log = logging.getLogger(__name__)


def effective_commands(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The commands that made the game as it is, undone ones left out.

    >>> effective_commands([
    ...     {"kind": "command", "command": {"do": "new_game"}},
    ...     {"kind": "command", "command": {"do": "roll"}, "undone": True},
    ...     {"kind": "undo", "command": {"do": "roll"}},
    ...     {"kind": "command", "command": {"do": "end_turn"}}])
    [{'do': 'new_game'}, {'do': 'end_turn'}]
    """
    done: list[dict[str, Any]] = []
    for entry in entries:
        if entry.get("kind", "command") != "command" or entry.get("undone"):
            continue
        command = entry.get("command")
        if not isinstance(command, dict):
            continue
        if command.get("do") == "new_game":
            done.clear()
        done.append(dict(command))
    return done


def networth_series(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, int]]:
    """Net worth of every player after each command that stands, by replaying them."""
    try:
        from companion.game.applying import apply_command
        from companion.rules import Accepted, net_worths
    except ImportError:  # a build without the engine beside the screen
        return []
    series: list[dict[str, int]] = []
    state = None
    for command in effective_commands(entries):
        command.pop("source", None)
        result = apply_command(state, command)
        if not isinstance(result, Accepted):
            log.info("history: %s refused on replay", command.get("do"))
            continue
        state = result.state
        series.append(dict(zip((p.name for p in state.players), net_worths(state),
                                  strict=True)))
    return series
