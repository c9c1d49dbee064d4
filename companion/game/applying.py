"""One entry point for applying a command (a typed record or its JSON) to a game, `new_game`
included.

The rules engine cannot read files; this wrapper loads the edition a `new_game` names. The
session, the replay command and the benchmarks all go through `apply_command`.
"""

from __future__ import annotations

import threading
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
from companion.rules.edition import BUS_DECK, Edition
from companion.rules.legal import PropertyOffers, property_key, property_offers
from companion.rules.options import RuleOptions
from companion.rules.state import Player
from companion.rules.view import ViewParts, bank_json, board_json, player_json

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


class StateJsonMemory:
    """The public state JSON (`state_json`) of a game's states one after another, each
    built from what changed since the state built before it: the parts of the JSON whose
    inputs are the same as that state's (`companion.rules.view.ViewParts`) are its very
    objects, the rest is built anew. A session keeps one (`PublicView`); the engine keeps
    no memory of its own.

    Each kept part's key is every input its function reads (companion/rules/view.py says
    which), compared by value, or by identity where the object cannot change (the edition,
    the frozen options, a player record of a state handed out: the engine copies a record
    before it changes one, `GameState.wp`): "squares" and the deeds' worths on the
    edition, the options, the players' names and the owner, level, mortgaged and depots
    tuples; a player's row on its record and net worth; "options" on the options; the
    currency and whether there are bus tickets on the edition; "bank" on its figures; the
    offers to build, sell, mortgage and lift (the costliest part of "legal") on
    `companion.rules.legal.property_key`, which the rules keep beside them. So
    any state may follow any other (an undo, a redo, a jump back, another game) and get
    the JSON `state_json` builds, == and key for key (tests/test_state_json_memory.py).
    The parts are shared by the JSONs of several versions: nobody may change them.

    Thread-safe: whoever builds a view first (the listeners' thread, a phone's request,
    the screen) builds it here, one at a time.
    """

    __slots__ = ("_lock", "_edition", "_currency", "_tickets", "_options", "_options_json",
                 "_board_key", "_squares", "_deeds", "_rows", "_bank_key", "_bank",
                 "_property_key", "_property")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._edition: Edition | None = None
        self._currency: JSON = {}
        self._tickets = False
        self._options: RuleOptions | None = None
        self._options_json: JSON = {}
        #: (names, owner, level, mortgaged, depots) of the kept squares and deeds, or None
        self._board_key: tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...],
                               tuple[bool, ...], tuple[int, ...]] | None = None
        self._squares: list[JSON] = []
        self._deeds: list[int] = []
        #: per seat: the record, its net worth and its row
        self._rows: list[tuple[Player, int, JSON]] = []
        self._bank_key: tuple[int, ...] | None = None
        self._bank: JSON = {}
        self._property_key: tuple[object, ...] | None = None
        self._property: PropertyOffers = ([], None)

    def state_json(self, state: GameState, with_legal: bool = True) -> JSON:
        """What `state_json(state, with_legal)` gives, from the kept parts where they fit."""
        legal = None
        if with_legal:
            owned = None
            if state.winner < 0:  # else legal_commands asks nothing
                key = property_key(state)
                with self._lock:
                    if key == self._property_key:
                        owned = self._property
                if owned is None:
                    owned = property_offers(state)
                    with self._lock:
                        self._property_key, self._property = key, owned
            legal = legal_commands(state, owned)
        with self._lock:
            parts = self._parts(state)
        return public_state(state, legal, parts)

    def _parts(self, g: GameState) -> ViewParts:
        """The state's ViewParts: the kept ones whose inputs are the same, the rest anew
        (and kept). Holds the lock."""
        edition, options = g.edition, g.options
        if edition is not self._edition:
            self._edition, self._currency = edition, dict(edition.currency)
            self._tickets = BUS_DECK in edition.decks
            # the squares' rows, the worths, a player's row (bus tickets or not), the bank's
            # figures: the edition's
            self._board_key = self._bank_key = None
            self._rows = []
        if options is not self._options:
            self._options, self._options_json = options, options.to_json()
            self._board_key = None  # the rents and the hotel level are the options'
        players = g.players
        names = tuple([p.name for p in players])
        seldom = g.seldom
        key = (names, g.owner, g.level, g.mortgaged, seldom.depots)
        if key != self._board_key:
            self._squares, self._deeds = board_json(g, list(names))
            self._board_key = key
        deeds, tickets = self._deeds, self._tickets
        kept = self._rows
        rows: list[JSON] = []
        new_kept: list[tuple[Player, int, JSON]] = []
        for i, p in enumerate(players):
            worth = p.cash + deeds[i]
            if i < len(kept):
                was, was_worth, row = kept[i]
                if was is not p or was_worth != worth:
                    row = player_json(p, worth, tickets)
            else:
                row = player_json(p, worth, tickets)
            rows.append(row)
            new_kept.append((p, worth, row))
        self._rows = new_kept
        bank_key = (g.bank_houses, g.bank_hotels, seldom.bank_skyscrapers, len(seldom.depots),
                    len(seldom.decks[BUS_DECK]) if tickets else -1)
        if bank_key != self._bank_key:
            self._bank, self._bank_key = bank_json(g), bank_key
        return ViewParts(self._squares, rows, self._options_json, self._currency, self._bank)


def restore_snapshot(data: dict[str, Any]) -> GameState:
    """Rebuild a state from a journal snapshot (loading its edition)."""
    return restore(data, load_edition(str(data.get("edition"))))
