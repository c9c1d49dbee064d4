"""Engine events as short lines for the recent-moves panel, and what an undo does to them.

The words are companion.words.move_words' (`event_line`), shared with the phone remote's list of
the latest moves; the screen says them in its own language, names squares as its board
does and colours each line by the player it is about. An undo strikes through the lines of
the move it took back, as the phones do; a redo of it restores them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.screen import texts
from companion.screen.ui_state import LogLine, UiState
from companion.screen.views.board_map import player_colors
from companion.screen.views.prompt import square_name, table_of
from companion.words import catalog as i18n
from companion.words.explaining.why_words import explain
from companion.words.move_words import Words, event_line

#: the events the panel shows (money moves, purchases, jail, bankruptcy, Mega's moves)
SHOWN = frozenset({
    "transfer", "bought", "jailed", "bankrupt", "auction_closed", "triple", "mr_monopoly",
    "mr_monopoly_stays", "bus_ticket", "no_bus_ticket", "rebalanced", "auction_square_stays",
    "bus_tickets_expired", "bus_ticket_used", "chose_square", "built", "sold_building",
})


#: how many moves in force the screen remembers for undo (more than the panel shows)
MOVES_KEPT = 200


def record_moves(ui: UiState, events: Sequence[Mapping[str, Any]],
                 state: Mapping[str, Any]) -> None:
    """Take one update into the recent moves: a command adds its lines as a new move; an
    undo strikes through the newest move in force (the session undoes its newest command);
    a redo of a move still listed restores it, else adds its lines like a command."""
    first = events[0] if events else {}
    kind = first.get("kind")
    if any(e.get("kind") == "game_started" for e in events):
        ui.moves.clear()
        ui.taken_back.clear()
    if kind == "undone" or _jump(events):  # an undo, or the banker's jump back (several)
        for event in events:
            _take_back(ui, event)
        return
    if kind == "redone":
        seq = int(first.get("seq") or 0)
        if seq in ui.taken_back:
            back = ui.taken_back.pop(seq)
            ui.moves.append(back)
            _strike(ui, back, False)
            return
    else:
        ui.taken_back.clear()  # a new command: what was taken back cannot come back
    ui.last_move += 1
    move = ui.last_move
    ui.moves = (ui.moves + [move])[-MOVES_KEPT:]
    ui.log.extend(log_lines(events, state, ui, move))


def _jump(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether an update undoes or redoes the banker's jump back to an earlier move."""
    return any(e.get("kind") in ("undone", "redone")
               and (e.get("command") or {}).get("do") == "undo_to" for e in events)


def _take_back(ui: UiState, event: Mapping[str, Any]) -> None:
    """One undone move struck through, one redone move restored (a jump itself is none)."""
    if (event.get("command") or {}).get("do") == "undo_to":
        return
    seq = int(event.get("seq") or 0)
    if event.get("kind") == "undone" and ui.moves:
        move = ui.moves.pop()
        ui.taken_back[seq] = move
        _strike(ui, move, True)
    elif event.get("kind") == "redone" and seq in ui.taken_back:
        back = ui.taken_back.pop(seq)
        ui.moves.append(back)
        _strike(ui, back, False)


def resume_moves(ui: UiState, entries: Sequence[Mapping[str, Any]],
                 state: Mapping[str, Any]) -> None:
    """Refill the recent moves from the newest journal entries (a resumed game): each
    command a move, struck through when it stands undone; an undo or a redo of a listed
    command adds nothing (the command's own "undone" says where it stands)."""
    listed = {e.get("seq") for e in entries if e.get("kind", "command") == "command"}
    for entry in entries:
        kind = entry.get("kind", "command")
        jump = (entry.get("command") or {}).get("do") == "undo_to"
        if kind in ("undo", "undo_to") or jump or (kind == "redo"
                                                    and entry.get("target") in listed):
            continue
        events = [e for e in entry.get("events") or [] if e.get("kind") != "redone"]
        record_moves(ui, events, state)
        if entry.get("undone") and ui.moves:
            move = ui.moves.pop()
            ui.taken_back[int(entry.get("seq") or 0)] = move
            _strike(ui, move, True)


def _strike(ui: UiState, move: int, undone: bool) -> None:
    for line in ui.log:
        if line.move == move:
            line.undone = undone


def log_lines(events: Iterable[Mapping[str, Any]], state: Mapping[str, Any],
              ui: UiState, move: int | None = None) -> list[LogLine]:
    """One line per event worth showing (money moves, purchases, jail, bankruptcy).

    >>> from companion.screen.texts import use_language
    >>> from companion.screen.ui_state import UiState
    >>> use_language("en")
    'en'
    >>> state = {"players": [{"name": "Ann"}], "currency": {"pattern": "€ {amount}"}}
    >>> [l.text for l in log_lines([{"kind": "transfer", "from": "Ann", "to": None,
    ...                              "amount": 200, "reason": "tax"}], state, UiState())]
    ['Ann → Bank €\xa0200']
    """
    colors = player_colors(state, ui)
    lang = texts.language()
    words = Words(table_of(state, ui).setup, lang, i18n.translator(lang),
                  square_name=lambda index: square_name(state, ui, index))
    out: list[LogLine] = []
    for event in events:
        kind = event.get("kind")
        if kind not in SHOWN or (kind == "auction_closed" and event.get("square") is None):
            continue
        line = event_line(event, words)
        if not line:
            continue
        who = event.get("player")
        if kind == "transfer":
            who = event.get("from")
        elif kind == "auction_closed":
            who = event.get("winner")
        why = explain(event, words) if kind == "transfer" else None
        out.append(LogLine(line, colors.get(str(who)) if who else None, move, why=why))
    return out
