"""What the pages compute once per state of the table for every phone that sees the same.

After a move every phone's page reads its live part again (web_remote/static/app.js); the
Table page of one language, the History and Net worth pages look the same on every phone
but the banker's (whose pages carry the banker's links), so each is rendered once per state
and language and handed to the others as it is. The cache holds the values of one state
only: a state that differs in anything (a new version, the teaching table switched) drops
them all, but for the table's clocks as they stood when the state was read (`CLOCKS`: the
session adds them to every read, and an auction's second changes them): a tick keeps
History and Worth, which show no clock. A page that shows a clock names what it shows in
its key (the Table page: the auction's seconds left), so it is drawn again once a second at
most, not on every request. A key names everything the value depends on besides the state
(the page, the language, whether the banker asks, a filter, a clock shown); a page that
differs per player (Me) is never cached whole here.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import current_app

T = TypeVar("T")
JSON = dict[str, Any]
SLOT = "web_remote.shared"


#: the parts of the state JSON that are the table's clocks as they stood when it was read
#: (companion.game.session: the auction's and the timed game's), not a change of the table
CLOCKS = frozenset({"auction_clock", "clock"})


def settled(state: JSON) -> JSON:
    """The state without its clocks' readings (`CLOCKS`): what the cache keeps values for."""
    return {k: v for k, v in state.items() if k not in CLOCKS}


class PerState:
    """Values built at most once per state (its clocks' readings aside) and key, shared by
    every request."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # held while building: a second asker waits for it
        self._state: JSON | None = None
        self._settled: JSON | None = None
        self._values: dict[Hashable, Any] = {}
        #: how many times each kind of value (a key's first item) was built: the tests
        #: count renders with it
        self.built: Counter[Hashable] = Counter()

    def get(self, state: JSON, key: tuple[Hashable, ...], build: Callable[[], T]) -> T:
        """The value of `key` for this state: built now by `build` when no request built it
        for an equal state before (its clocks' readings aside: a value that shows a clock
        names what it shows in `key`)."""
        with self._lock:
            if self._state is not state:
                calm = settled(state)
                if calm != self._settled:
                    self._settled, self._values = calm, {}
                self._state = state
            if key in self._values:
                value: T = self._values[key]
                return value
            value = build()
            self._values[key] = value
            self.built[key[0]] += 1
            return value


def shared() -> PerState:
    """The serving app's cache (made on first use)."""
    cache: PerState = current_app.extensions.setdefault(SLOT, PerState())
    return cache
