"""Bounds on what any input may hand the game: JSON nesting and number size, notes.

Every transport (a table script, the phone API) reads JSON through `loads_bounded`, so a
line nested 20 000 deep or a 5 000-digit number is a clear refusal, not a traceback.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

#: deeper than any command (a trade's offer is three levels) and far from the recursion limit
MAX_DEPTH = 16
#: digits of a whole number: amounts and seeds fit, nonsense does not
MAX_DIGITS = 18
#: characters of the free-text `note` a command may carry into the journal
MAX_NOTE = 200


#: the seeds a table deals with: below 2**31, well within MAX_DIGITS
SEED_LIMIT = 1 << 31


def fresh_seed() -> int:
    """A new random seed for a game dealt at the table (the screen's setup, the banker's
    phone form): the device's dice and the decks differ every evening. It goes into the
    journaled new_game command, so that replay and export stay exact; scripts name their own.
    """
    return secrets.randbelow(SEED_LIMIT)


class InputTooComplex(ValueError):
    """JSON nested too deeply or holding a number too large; nothing was read."""


def _depth(text: str) -> int:
    """The deepest nesting of [ and { outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise InputTooComplex(f"a number has more than {MAX_DIGITS} digits")
    return int(digits)


def _real(digits: str) -> float:
    if len(digits) > MAX_DIGITS + 8:
        raise InputTooComplex(f"a number has more than {MAX_DIGITS} digits")
    return float(digits)


def loads_bounded(text: str | bytes) -> Any:
    """`json.loads`, refusing deep nesting and huge numbers with InputTooComplex.

    >>> loads_bounded('{"do": "bid", "amount": 120}')
    {'do': 'bid', 'amount': 120}
    >>> loads_bounded("[" * 20 + "]" * 20)
    Traceback (most recent call last):
    ...
    companion.game.limits.InputTooComplex: nested deeper than 16 levels
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if _depth(text) > MAX_DEPTH:
        raise InputTooComplex(f"nested deeper than {MAX_DEPTH} levels")
    return json.loads(text, parse_int=_whole, parse_float=_real)


def note_problem(command: dict[str, Any]) -> str | None:
    """Why a command's `note` cannot be journaled, or None."""
    note = command.get("note")
    if note is None:
        return None
    if not isinstance(note, str):
        return "a note must be text"
    if len(note) > MAX_NOTE:
        return f"a note may hold at most {MAX_NOTE} characters"
    if not all(ch.isprintable() for ch in note):
        return "a note may not hold control characters"
    return None
