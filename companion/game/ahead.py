"""The next move worked out ahead (issue 28): while the table is idle, the session's writer
applies the commands the table's own buttons would send now (and the auction's gavel) to
the state in force, and
keeps each result with its public state JSON; when one of those commands comes at that very
state, the writer takes the result instead of applying the command again.

The engine is pure and the dice live in the state (`GameState.rng`): `apply_command(state,
command)` is the same whenever it is called, so a result worked out ahead is the result.
A forecast is kept for the one state object it was made from (identity, and its version
as a guard) and for the command as the authority leaves it (==); any other change of the
table (another command, an undo or redo, a clock, a new game) makes a new state object and
every forecast of the old one unused. Nothing of a forecast leaves the process: it is never
journaled, told or shown; only the journaled update is (docs/session.md "The next move
worked out ahead").

Only the writer thread calls `plan`, `step` and `take`; `settled` may be waited on from
any thread (tests, tools).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.game.applying import StateJsonMemory, apply_command
from companion.game.journal import RowText, command_text, row_text
from companion.game.replaying import clean_command, resolve
from companion.game.table.buttons import buttons_of, decider
from companion.game.table.offers import Facts
from companion.game.telling.teaching import Step, Teaching
from companion.rules import Accepted, GameState, Result
from companion.rules.events import events_json

JSON = dict[str, Any]

#: the most commands worked out ahead of one state (the four game buttons at most; in an
#: auction with a bid, its one or two buttons and the gavel)
FORECASTS = 4


@dataclass
class Forecast:
    """One command worked out ahead of one state: the engine's result and, when accepted,
    the public state JSON of the state after it (`StateJsonMemory.state_json`, with
    "legal"), for the one view that takes it (it adds its extras to this very dict)."""

    command: JSON
    result: Result
    json: JSON | None
    #: a copy of `json` for the screen to prepare its frame from (`Ahead.public`): the
    #: view that takes `json` adds to that very dict
    public: JSON | None = None
    #: when accepted: the command as the engine resolved it and the generator after it
    #: (`resolve`), and the journal row's text from the command on (`row_text`: its JSON,
    #: its CRC's part); the row's seq, time and source are the commit's
    resolved: JSON | None = None
    rng: int | None = None
    row: RowText | None = None
    #: `command`'s JSON text (`command_text`) when `row` was made
    said: str | None = None
    #: when accepted and the session asked (`Ahead.step`'s `also`): the offers' facts of
    #: the state after it, and the teaching's step planned for it with the teaching's
    #: changes' count then (`Teaching.plan_ahead`)
    facts: Facts | None = None
    teaching: tuple[Teaching, int, Step] | None = None

    def row_of(self, command: JSON) -> RowText | None:
        """The row text made ahead when `command` (== this forecast's command) has this
        very JSON text, its keys in the same order: the row is then, byte for byte, the
        text a commit would make of it (an equal command with its keys in another order
        gets its own at the commit)."""
        if self.row is None or self.said is None or command_text(command) != self.said:
            return None
        return self.row


def gavel_of(public: JSON) -> JSON | None:
    """The command that closes the auction of `public` (the public state JSON) at its
    highest bid, while someone holds one: what the banker's gavel sends (the table's PASS
    GO, "Sold", companion.screen.controller) and the session's own when the auction's
    clock runs out (`GameSession._clock_job`); None otherwise.

    >>> gavel_of({"pending": {"kind": "auction", "bidder": "Bo"},
    ...           "legal": [{"do": "bid", "by": "Ann", "min": 21}, {"do": "close_auction"}]})
    {'do': 'close_auction'}
    >>> gavel_of({"pending": {"kind": "auction"}, "legal": [{"do": "close_auction"}]}) is None
    True
    """
    if not (public.get("pending") or {}).get("bidder"):
        return None
    offered = next((e for e in public.get("legal") or [] if e.get("do") == "close_auction"),
                   None)
    return clean_command(offered) if offered is not None else None


class Ahead:
    """The forecasts of the state in force (the writer's)."""

    __slots__ = ("_before", "_version", "_todo", "_made", "made", "used", "_settled")

    def __init__(self) -> None:
        self._before: GameState | None = None
        self._version = -1
        self._todo: list[JSON] = []
        self._made: list[Forecast] = []
        #: how many commands were worked out ahead, and how many of those a real command
        #: took (the hit rate: docs/bench.md)
        self.made = 0
        self.used = 0
        #: set while there is nothing left to work out ahead for the state in force
        self._settled = threading.Event()

    def of(self, state: GameState) -> bool:
        """Whether the forecasts are those of `state` (planned already)."""
        return state is self._before and state.version == self._version

    def plan(self, state: GameState, public: JSON) -> None:
        """Forget every forecast; plan those of `state`, whose public JSON (its "legal")
        is `public`: what each of the table's game buttons sends now (`buttons_of`), and
        in an auction with a bid the gavel (`gavel_of`), each command once, new games never
        (an edition's load)."""
        self._before, self._version = None, -1  # what another thread reads: `ready`
        self._made = []
        todo: list[JSON] = []
        for command in [*buttons_of(public, decider(public)).values(), gavel_of(public)]:
            if command is None or command.get("do") == "new_game":
                continue
            cleaned = clean_command(command)
            if cleaned not in todo:
                todo.append(cleaned)
        self._todo = todo[:FORECASTS]
        self._before, self._version = state, state.version

    def step(self, memory: StateJsonMemory,
             also: Callable[[Forecast], None] | None = None) -> bool:
        """Work out the next planned command (the engine, then the JSON of an accepted
        result, its row's text, and what `also` adds to an accepted forecast); whether one
        was worked out."""
        if not self._todo or self._before is None:
            return False
        command = self._todo.pop(0)
        before = self._before
        result = apply_command(before, command)
        if isinstance(result, Accepted):
            json = memory.state_json(result.state)
            resolved, rng = resolve(command, before, result)
            row = row_text(resolved, events_json(result.events), result.state.version, rng)
            forecast = Forecast(command, result, json, dict(json), resolved, rng, row,
                                command_text(command))
            if also is not None:
                also(forecast)
            self._made.append(forecast)
        else:
            self._made.append(Forecast(command, result, None))
        self.made += 1
        return True

    def plan_nothing(self, state: GameState) -> None:
        """Nothing to work out ahead of `state` (a forecast of it failed)."""
        self._todo, self._made = [], []
        self._before, self._version = state, state.version

    def ready(self, state: GameState) -> bool:
        """Whether everything planned for `state` is worked out (any thread)."""
        return self.of(state) and not self._todo

    def public(self) -> list[JSON]:
        """The public JSONs of the accepted forecasts (copies: never to be changed)."""
        return [f.public for f in list(self._made) if f.public is not None]

    def pending(self) -> bool:
        """Whether a planned command is still to be worked out."""
        return bool(self._todo)

    def take(self, before: GameState | None, command: JSON) -> Forecast | None:
        """The forecast of `command` at `before` (None: none was made there); an accepted
        one is taken once: every forecast is forgotten, as the state is about to change."""
        if before is None or not self.of(before):
            return None
        found = next((f for f in self._made if f.command == command), None)
        if found is not None:
            self.used += 1
            if isinstance(found.result, Accepted):  # its JSON is the new view's own
                self.forget()
        return found

    def forget(self) -> None:
        """Drop every forecast (the state moved on, or forecasting stopped)."""
        self._before, self._version = None, -1
        self._todo, self._made = [], []

    def busy(self) -> None:
        """The writer took a request: what is worked out ahead is not settled."""
        if self._settled.is_set():
            self._settled.clear()

    def idle(self) -> None:
        """The writer has nothing left to work out ahead and waits for a request."""
        if not self._settled.is_set():  # (a Python Condition's notify: not at every pass)
            self._settled.set()

    def settled(self, timeout: float) -> bool:
        """Wait until the writer has worked out what it will ahead of the state in force
        (tests, tools); whether it had within `timeout` seconds."""
        return self._settled.wait(timeout)
