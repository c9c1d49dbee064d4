"""The banker's "undo to here": which moves going back to an earlier move takes back.

A jump back is one journal row ("undo_to", target N: back to just after the move whose
command row is N), so that one undo brings every move back and a redo takes them again
(companion.game.replaying.Stacks follows it). `plan` says, before anything changes, what
the jump would take back: the journal entries of those moves, newest first, each marked
when the companion itself rolled its dice or drew its card (the generator and the decks go
back too, so those come out the same when played again), or why the jump is refused.
Who may take back one move is companion.game.authority's (`UNDO_RIGHTS`, `undo_refused`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.game.journal import Entry, Journal
from companion.game.replaying import UNDO_TO, Item, Stacks
from companion.rules.events import Event, Redone, Undone

JSON = dict[str, Any]


@dataclass(frozen=True)
class Plan:
    """What going back to move `target` does: the row whose state the table returns to
    (`applied`), and the moves taken back, newest first (journal entries as `history`
    gives them, each with "device": whether the companion rolled or drew in it), and
    `here`, the entry of the move gone back to."""

    target: int
    applied: int
    taken: list[JSON] = field(default_factory=list)
    here: JSON = field(default_factory=dict)


@dataclass(frozen=True)
class Refusal:
    """Why the table cannot go back there: a session refusal code and its message."""

    code: str
    message: str
    params: JSON = field(default_factory=dict)


def find(stacks: Stacks, seq: int) -> int | None:
    """The undo stack's position of the move a history line shows: a command (or a jump)
    in force, or the redo row that brought one back; None for any other line."""
    for i in range(len(stacks.undo) - 1, -1, -1):
        applied, move = stacks.undo[i]
        if seq in (applied, move):
            return i
    return None


def plan(journal: Journal, stacks: Stacks, seq: int) -> Plan | Refusal:
    """What going back to just after history line `seq` would take back, or why not."""
    params = {"seq": seq}
    at = find(stacks, seq) if seq > 0 else None
    if at is None:
        return Refusal("not_in_line", f"move {seq} is not one of the moves in force: pick "
                       "a move that has not been undone", params)
    if at == len(stacks.undo) - 1:
        return Refusal("last_move", f"move {seq} is the last move: there is nothing "
                       "after it to take back", params)
    entries = _entries(journal, [move for _applied, move in stacks.undo[at:]])
    items = stacks.undo[at + 1:]
    taken: list[JSON] = []
    for _applied, move in reversed(items):
        entry = entries[move]
        if entry.command.get("do") == "new_game":
            return Refusal("before_game_start", f"move {seq} was before this game began: "
                           "start a new game instead, or undo the new game itself", params)
        item = entry.to_json()
        item["device"] = entry.rng is not None
        taken.append(item)
    applied, move = stacks.undo[at]
    return Plan(move, applied, taken, entries[move].to_json())


def _entries(journal: Journal, seqs: list[int]) -> dict[int, Entry]:
    """The journal entries of these rows, by seq (read in one pass over their span)."""
    if not seqs:
        return {}
    wanted = set(seqs)
    return {e.seq: e for e in journal.entries(after=min(seqs) - 1, upto=max(seqs))
            if e.seq in wanted}


def command(target: int) -> JSON:
    """The command an undo_to row keeps (and its undo and redo rows name)."""
    return {"do": UNDO_TO, "seq": target}


def taken_back(journal: Journal, items: list[Item]) -> list[Event]:
    """Undone events for moves a jump takes back, newest first."""
    entries = _entries(journal, [move for _applied, move in items])
    return [Undone(move, entries[move].command) for _applied, move in reversed(items)]


def brought_back(journal: Journal, items: list[Item]) -> list[Event]:
    """Redone events for moves an undone jump brings back, oldest first."""
    entries = _entries(journal, [move for _applied, move in items])
    return [Redone(move, entries[move].command) for _applied, move in items]


__all__ = ["Plan", "Refusal", "brought_back", "command", "find", "plan", "taken_back"]
