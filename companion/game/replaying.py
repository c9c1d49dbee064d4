"""From journal rows to game states: resolving device dice, stepping, resuming.

The journal keeps commands as the engine resolved them (device dice and cards filled in) and
the generator's state after a device roll, so a replay is exact and never rolls anew.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.game.applying import apply_command, restore_snapshot
from companion.game.journal import Entry, Journal, JournalCorrupt
from companion.rules import Accepted, Command, GameState, Rejection, command_to_json, snapshot

JSON = dict[str, Any]

#: a snapshot is written with every this many entries, so a resume replays fewer than this
SNAPSHOT_EVERY = 100
#: fields a caller may send that are not part of the game's record
_TRANSPORT_FIELDS = ("source", "expect_version")


def clean_command(command: JSON) -> JSON:
    """The command without transport fields, as a fresh dict."""
    return {k: v for k, v in command.items() if k not in _TRANSPORT_FIELDS}


def resolve(command: JSON, before: GameState | None, result: Accepted) -> tuple[JSON, int | None]:
    """The command as the engine resolved it, and the generator after it if it moved.

    A device roll gets the dice rolled, a device draw the card drawn: replaying the resolved
    command gives the same table without rolling again.
    """
    out = dict(command)
    do = out.get("do")
    if do in ("roll", "land", "draw"):  # the engine names what the device rolled or drew
        happened = result.resolved
        for key in ("dice", "card"):
            if out.get(key) is None and happened.get(key) is not None:
                out[key] = happened[key]
    rng = None
    if before is not None and do != "new_game" and result.state.rng != before.rng:
        rng = result.state.rng
    return out, rng


def with_rng(state: GameState, rng: int | None) -> GameState:
    """The state with the journaled generator (a copy; the given state is not changed)."""
    if rng is None or state.rng == rng:
        return state
    fixed = state.copy()
    fixed.rng = rng
    return fixed


def with_version(state: GameState, version: int) -> GameState:
    """A copy of the state with another version number (undo keeps versions increasing)."""
    fixed = state.copy()
    fixed.version = version
    return fixed


#: refusals of the movement checks (issue 26) that a `land` or `pass_go` journaled before
#: them was never met with: such a row is replayed as the banker's correction, which is the
#: rule it was accepted under (any square, the salary when asked)
_MOVE_CHECKS = frozenset({"device_moves", "already_moved", "not_past_go", "salary_paid",
                          "in_jail", "not_your_turn"})


def apply_journaled(state: GameState | None, command: JSON) -> Accepted | Rejection:
    """A journaled command applied again (a replay, a redo): as the engine takes it now, and
    a move told before moves were checked as the correction it then was."""
    result = apply_command(state, command)
    if (isinstance(result, Rejection) and result.code.value in _MOVE_CHECKS
            and command.get("do") in ("land", "pass_go") and not command.get("correction")):
        again = apply_command(state, {**command, "correction": True})
        if isinstance(again, Accepted):
            return again
    assert isinstance(result, (Accepted, Rejection))
    return result


def step(state: GameState | None, entry: Entry) -> GameState:
    """The state after a command or redo entry; JournalCorrupt if it no longer replays."""
    result = apply_journaled(state, entry.command)
    if isinstance(result, Rejection):
        raise JournalCorrupt(f"entry {entry.seq} no longer applies: {result.code.value}: "
                             f"{result.message}")
    assert isinstance(result, Accepted)
    g = with_rng(result.state, entry.rng)
    if g.version != entry.version:
        raise JournalCorrupt(f"entry {entry.seq} replays to version {g.version}, "
                             f"journaled {entry.version}")
    return g


def needs_snapshot(entry: Entry, last_snapshot: int) -> bool:
    """Rows whose state is not the engine's answer to a command always get one (an undo,
    the banker's jump back and its redo); others every SNAPSHOT_EVERY."""
    return must_snapshot(entry) or entry.seq - last_snapshot >= SNAPSHOT_EVERY


def must_snapshot(entry: Entry) -> bool:
    """Whether the row's snapshot belongs in the row's own transaction: its state is not
    the engine's answer to a command (an undo, the banker's jump back and its redo), so
    replay cannot make it. The others' snapshots only shorten a replay: the session
    writes them in a transaction of their own after the row (`Journal.add_snapshot`)."""
    return entry.kind in ("undo", "undo_to") or entry.command.get("do") == UNDO_TO


def state_at(journal: Journal, seq: int) -> GameState | None:
    """The state after entry `seq` (None before the first): nearest snapshot, then replay."""
    if seq <= 0:
        return None
    found = journal.snapshot_at_or_before(seq)
    state: GameState | None = None
    start = 0
    if found is not None:
        start, data = found
        try:
            state = restore_snapshot(data)
        except (ValueError, KeyError, TypeError) as exc:
            raise JournalCorrupt(f"{journal.path}: snapshot {start} is damaged: {exc}") from None
    for entry in journal.entries(after=start, upto=seq):
        if entry.kind != "command" and (entry.kind != "redo"
                                        or entry.command.get("do") == UNDO_TO):
            raise JournalCorrupt(f"{journal.path}: {entry.kind} entry {entry.seq} has no "
                                 "snapshot")
        state = step(state, entry)
    return state


#: the command of an "undo_to" row (the banker went back to an earlier row)
UNDO_TO = "undo_to"
#: one move in force: (seq of the row that applied it, seq of the command or undo_to row)
Item = tuple[int, int]


@dataclass
class Stacks:
    """Undo and redo stacks of the moves in force, as (seq of the row that applied it, seq
    of the command row); a jump back ("undo_to" row N: back to just after the move whose
    command row is N) is one move in force itself, and `taken` keeps the moves it took
    back, so that undoing it brings them back in one step and redoing it takes them again.
    `undone` follows the move rows (commands and jumps) that stand undone now, so that
    history pages never rescan the journal."""

    undo: list[Item] = field(default_factory=list)
    redo: list[int] = field(default_factory=list)
    last_snapshot: int = 0
    taken: dict[int, list[Item]] = field(default_factory=dict)
    back: dict[int, int] = field(default_factory=dict)
    undone: set[int] = field(default_factory=set)

    def record(self, seq: int, kind: str, target: int | None) -> None:
        """Follow one journal row."""
        if kind == "command":
            self.undo.append((seq, seq))
            self.redo.clear()
        elif kind == "undo_to":
            taken = self.after(int(target or 0), seq)
            self.taken[seq] = taken
            self.undone.update(move for _applied, move in taken)
            self.back[seq] = int(target or 0)
            self.undo.append((seq, seq))
            self.redo.clear()
        elif kind == "undo":
            if not self.undo or self.undo[-1][1] != target:
                raise JournalCorrupt(f"undo entry {seq} does not undo the last command")
            self.undo.pop()
            restored = self.taken.get(int(target or 0), ())
            self.undo.extend(restored)
            self.undone.difference_update(move for _applied, move in restored)
            self.redo.append(int(target or 0))
            self.undone.add(int(target or 0))
        elif kind == "redo":
            if not self.redo or self.redo[-1] != target:
                raise JournalCorrupt(f"redo entry {seq} does not redo the last undone command")
            self.redo.pop()
            if target in self.back:
                taken = self.after(self.back[target], seq)
                self.taken[target] = taken
                self.undone.update(move for _applied, move in taken)
            self.undo.append((seq, int(target or 0)))
            self.undone.discard(int(target or 0))

    def position(self, move: int) -> int | None:
        """Where the move whose command row is `move` stands on the undo stack, or None
        when it is not in force."""
        for i in range(len(self.undo) - 1, -1, -1):
            if self.undo[i][1] == move:
                return i
        return None

    def after(self, move: int, seq: int) -> list[Item]:
        """Take the moves made after move `move` off the undo stack (row `seq` does so);
        JournalCorrupt when `move` is not in force or is the last move."""
        at = self.position(move)
        if at is None or at == len(self.undo) - 1:
            raise JournalCorrupt(f"entry {seq} does not go back to a move in force")
        taken = self.undo[at + 1:]
        del self.undo[at + 1:]
        return taken


def stacks_of(journal: Journal, checked: int | None = None) -> Stacks:
    """The undo and redo stacks after every journal row, each row checked against its CRC
    (those up to `checked` were checked already, elsewhere)."""
    stacks = Stacks()
    undo, redo = stacks.undo, stacks.redo
    if checked is not None:  # the command rows between the others, in one step each run
        following = 1
        for seq, kind, target in journal.other_rows(checked) + [(checked + 1, "", None)]:
            if seq > following:
                undo.extend(zip(range(following, seq), range(following, seq), strict=True))
                redo.clear()
            if kind:
                stacks.record(seq, kind, target)
            following = seq + 1
    for seq, kind, target in journal.scan(after=checked or 0):
        if kind == "command":  # most rows: `record`'s first case, without the call
            undo.append((seq, seq))
            if redo:
                redo.clear()
        else:
            stacks.record(seq, kind, target)
    return stacks


def snapshot_of(state: GameState) -> JSON:
    """The journal snapshot of a state."""
    return snapshot(state)


def command_dict(cmd: Command) -> JSON:
    """A typed engine Command back as a table-script dict (bots, benchmarks, tests)."""
    return command_to_json(cmd)
