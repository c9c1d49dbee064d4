"""The journal as history: who did what, when, and who paid whom, for phones and screens."""

from __future__ import annotations

from typing import Any

from companion.game.journal import Entry, Journal
from companion.game.replaying import Stacks
from companion.rules.events import parties

JSON = dict[str, Any]

#: the rows that make a move of their own (an undo or a redo only takes one back or again)
MOVE_KINDS = ("command", "undo_to")
#: the command fields that may name a player
_NAME_FIELDS = ("player", "by", "from", "to", "bidder", "winner", "creditor")


def mentions(entry: Entry, player: str) -> bool:
    """Whether the entry concerns the player: sent by them, naming them, or paying them."""
    if entry.source.player == player:
        return True
    if any(entry.command.get(f) == player for f in _NAME_FIELDS):
        return True
    return any(player in parties(e) for e in entry.events)


def undone_commands(journal: Journal) -> set[int]:
    """The command rows (and the banker's jumps back) that stand undone now, as the undo
    stacks follow them (companion.game.replaying.Stacks.undone; a jump back takes several
    at once)."""
    stacks = Stacks()
    for seq, kind, target in journal.scan():
        stacks.record(seq, kind, target)
    return set(stacks.undone)


def history(journal: Journal, player: str | None = None, limit: int = 200,
            undone: set[int] | None = None, before: int | None = None) -> list[JSON]:
    """Journal entries, newest last, each with "undone" (true for a command undone now);
    with `before`, only those older than that seq (a page of the history further back).

    Reads the journal backwards a page at a time by seq, so the cost grows with `limit`
    (and, for one player, with how far back their entries lie), not with the journal;
    `undone` is the session's own set (None: worked out by scanning the journal)."""
    if undone is None:
        undone = undone_commands(journal)
    last = journal.last_seq()
    if before is not None:
        last = max(0, min(last, before - 1))
    out: list[JSON] = []
    upto = last
    # every entry counts when no player filters them: read no more than asked (the Table
    # page asks for its 12 latest after every move)
    chunk = min(limit, 500) if player is None else max(min(limit, 500), 50)
    while upto > 0 and len(out) < limit:
        start = max(0, upto - chunk)
        batch = [e for e in journal.entries(after=start, upto=upto)
                 if player is None or mentions(e, player)]
        for e in reversed(batch):
            item = e.to_json()
            item["undone"] = e.kind in MOVE_KINDS and e.seq in undone
            out.append(item)
            if len(out) >= limit:
                break
        upto = start
    out.reverse()
    return out
