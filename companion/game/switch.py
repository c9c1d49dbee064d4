"""A session holder: one GameSessionProtocol for the whole run, whose saved game can change.

`companion run` opens one game session for the data directory; the screen, the readers and
the phone remote all hold on to it. To let the banker resume another saved game (or start a
fresh game file) without restarting the companion, they hold a `SessionHolder` instead: it
forwards every call to the current `companion.game.session.GameSession`, keeps the listeners it
was given, and on a switch closes the old session (which releases the data directory's
lock), opens the other game, re-registers every listener there and sends each one an Update
of the new state, so screens and phones redraw at once.

Only one game is open at a time: the data directory's lock is per open session, so the old
one must be closed before the next one opens. When the other game cannot be opened
(damaged journal, storage error) the holder reopens the game it had and says why.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from companion.game.api import JSON, Hold, MeFacts, Outcome, Source, Standing, Update
from companion.game.journal import JournalError
from companion.game.saved_games import check_game_id, delete_game, game_ids, new_game_id
from companion.game.session import GameSession
from companion.game.table.offers import OfferStore
from companion.game.table.view import TableView
from companion.game.telling.story import Story
from companion.rules.commands import Command
from companion.rules.events import GameSwitched

T = TypeVar("T")

log = logging.getLogger(__name__)

#: who switched, when the caller does not say (the banker's authority: only they may switch)
SWITCHER = Source(kind="script", banker=True)

Opener = Callable[[Path, str | None], GameSession]


class SwitchError(RuntimeError):
    """A switch that did not happen; `code` says why (no_such_game, bad_game, cannot_open).

    The holder still serves the game it had.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _nothing() -> None:
    """The remover of a listener that is registered nowhere."""


class _Attached(Generic[T]):
    """A listener or follower given to the holder and how to detach it from the current
    session."""

    __slots__ = ("callback", "detach")

    def __init__(self, callback: Callable[[T], Any]) -> None:
        self.callback = callback
        self.detach: Callable[[], None] = _nothing


def _open(data_dir: Path, game_id: str | None) -> GameSession:
    return GameSession.open(data_dir, game_id)


def _when(stamp: float | None) -> str | None:
    return None if stamp is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def describe(game_id: str, state: JSON | None, last: float | None,
             current: bool) -> JSON:
    """One saved game as the banker's list shows it.

    >>> describe("g1", {"edition": "mega", "players": [{"name": "Ann"}], "turn":
    ...     {"number": 3}, "winner": None}, None, True)["name"]
    'Ann · mega · turn 3'
    """
    players = [str(p["name"]) for p in (state or {}).get("players") or []]
    edition = (state or {}).get("edition")
    turn = ((state or {}).get("turn") or {}).get("number")
    winner = (state or {}).get("winner")
    parts = [", ".join(players) or "(no game started)"]
    if edition:
        parts.append(str(edition))
    if winner:
        parts.append(f"won by {winner}")
    elif turn:
        parts.append(f"turn {turn}")
    if last is not None:
        parts.append(str(_when(last)))
    return {"id": game_id, "players": players, "edition": edition, "turn": turn,
            "winner": winner, "last_played": _when(last), "last_played_ts": last,
            "current": current, "status": "ok", "name": " · ".join(parts)}


class SessionHolder:
    """The game session of a data directory, switchable between its saved games.

    Implements companion.game.api.GameSessionProtocol by forwarding to the current
    GameSession; also the phone remote's `games` hook (`list()`, `resume(id)`,
    `start_new_game_file(command, source)`).
    """

    def __init__(self, data_dir: Path, session: GameSession | None = None,
                 opener: Opener = _open) -> None:
        self.data_dir = Path(data_dir)
        self._opener = opener
        self._session = session if session is not None else opener(self.data_dir, None)
        self._switch_lock = threading.RLock()
        #: each listener given to the holder, with its remover on the current session
        self._listeners: list[_Attached[Update]] = []
        #: the leading listeners given to the holder (`lead`: the screen), likewise
        self._leads: list[_Attached[Update]] = []
        #: each follower of the writer given to the holder (`follow`), likewise
        self._followers: list[_Attached[Standing]] = []
        #: the table's open offers, kept by whichever game is in use (none survive a switch)
        self._offers: OfferStore | None = None

    @classmethod
    def open(cls, data_dir: Path, game_id: str | None = None) -> SessionHolder:
        """Open the data directory's current game (or `game_id`) in a holder."""
        return cls(data_dir, GameSession.open(data_dir, game_id))

    # --- the protocol, forwarded -----------------------------------------------------------

    @property
    def session(self) -> GameSession:
        """The GameSession in use now (waits while a switch is under way), but for a
        listener of the game in use asking about it on that game's listeners' thread: it is
        served by its game, since a switch closes the game, which waits for its listeners,
        so waiting for the switch would wait for itself."""
        current = self._session
        if current.telling():
            return current
        with self._switch_lock:
            return self._session

    @property
    def game_id(self) -> str:
        """The id of the saved game in use."""
        return self.session.game_id

    @property
    def version(self) -> int:
        """The current game's version."""
        return self.session.version

    @property
    def fault(self) -> str | None:
        """The current session's last storage failure (None when writing works)."""
        return self.session.fault

    def healthy(self) -> bool:
        """Whether the current game's writer runs and is not stuck (the watchdog's food)."""
        return self.session.healthy()

    def submit(self, command: Command | JSON, source: Source,
               expect_version: int | None = None) -> Outcome:
        """Submit to the current game (docs/session.md)."""
        return self.session.submit(command, source, expect_version)

    def state(self) -> JSON:
        """The current game's public state JSON."""
        return self.session.state()

    def now(self) -> float:
        """The current game's clock."""
        return self.session.now()

    def undo(self, source: Source) -> Outcome:
        """Undo in the current game."""
        return self.session.undo(source)

    def redo(self, source: Source) -> Outcome:
        """Redo in the current game."""
        return self.session.redo(source)

    def undo_to(self, seq: int, source: Source, expect_version: int | None = None) -> Outcome:
        """Go back to just after move `seq` of the current game, in one step."""
        return self.session.undo_to(seq, source, expect_version)

    def undo_to_plan(self, seq: int) -> JSON:
        """What going back to move `seq` of the current game would take back."""
        return self.session.undo_to_plan(seq)

    def story(self) -> Story | None:
        """The story of the current game."""
        return self.session.story()

    def standings_since(self, version: int) -> list[Standing]:
        """Of the current game: where the players stood at each version after `version`."""
        return self.session.standings_since(version)

    def set_teaching(self, on: bool, source: Source) -> Outcome:
        """Switch the current game's teaching table (the banker's call)."""
        return self.session.set_teaching(on, source)

    def undo_target(self) -> JSON | None:
        """What an undo would take back in the current game (None: nothing)."""
        return self.session.undo_target()

    def undo_refusal(self, source: Source) -> JSON | None:
        """Why an undo by `source` would be refused in the current game (None: it would
        not)."""
        return self.session.undo_refusal(source)

    def history(self, player: str | None = None, limit: int = 200,
                before: int | None = None) -> list[JSON]:
        """The current game's journal entries, newest last (older than `before`)."""
        return self.session.history(player, limit, before)

    def news(self, player: str) -> list[JSON]:
        """The current game's news items `player` has not seen yet, newest first."""
        return self.session.news(player)

    def news_summary(self, player: str) -> tuple[int, str | None, str | None]:
        """Of the current game's unseen news of `player`: how many, the newest, the oldest."""
        return self.session.news_summary(player)

    def mark_seen(self, keys: Any, source: Source) -> Outcome:
        """The player of `source` saw these news items of the current game."""
        return self.session.mark_seen(keys, source)

    def me_facts(self, players: Sequence[str]) -> MeFacts:
        """Of each of `players` in the current game: unseen news and who may undo."""
        return self.session.me_facts(players)

    def game_state(self) -> Any:
        """The current game's engine state (for tools; do not change it)."""
        return self.session.game_state()

    def table(self) -> TableView:
        """The typed view of the table of the game in use."""
        return self._session.table()

    def ahead_states(self, version: int,
                     wake: Callable[[], None] | None = None) -> list[JSON] | None:
        """The game in use's next states worked out ahead (GameSession.ahead_states)."""
        return self._session.ahead_states(version, wake)

    def undo_ahead(self, version: int) -> JSON | None:
        """The state the game in use's UNDO would bring, built ahead (GameSession.undo_ahead)."""
        return self._session.undo_ahead(version)

    def keep_offers(self, offers: OfferStore) -> None:
        """The table's open offers, kept by the game in use and by every game switched to
        (a switch clears them: they were offers in the other game)."""
        with self._switch_lock:
            self._offers = offers
            self._session.keep_offers(offers)

    def add_listener(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        """Listen to whichever game is current, now and after every switch."""
        return self._attach(self._listeners, _Attached(callback),
                            lambda: self._session.add_listener(callback))

    def lead(self, callback: Callable[[Update], Hold | None]) -> Callable[[], None]:
        """Lead the listeners of whichever game is current, now and after every switch."""
        return self._attach(self._leads, _Attached(callback),
                            lambda: self._session.lead(callback))

    def follow(self, callback: Callable[[Standing], None]) -> Callable[[], None]:
        """Follow whichever game is current on its writer, now and after every switch (a
        game switched to is told `fresh`)."""
        return self._attach(self._followers, _Attached(callback),
                            lambda: self._session.follow(callback))

    def _attach(self, entries: list[_Attached[T]], entry: _Attached[T],
                attach: Callable[[], Callable[[], None]]) -> Callable[[], None]:
        """Attach `entry` to the current session and keep it for the next; returns remove()."""
        with self._switch_lock:
            entry.detach = attach()
            entries.append(entry)

        def remove() -> None:
            with self._switch_lock:
                if entry in entries:
                    entries.remove(entry)
                entry.detach()
                entry.detach = _nothing

        return remove

    def close(self) -> None:
        """Close the current session (the listeners are dropped with it)."""
        with self._switch_lock:
            self._session.close()

    # --- the saved games ---------------------------------------------------------------------

    def games(self) -> list[JSON]:
        """Every saved game, the most recently played first: id, players, edition, turn,
        winner, last_played, current, status ("ok" or "damaged" with a message), name."""
        from companion.game.reading import read_game

        with self._switch_lock:
            current = self._session
        out = []
        for gid in game_ids(self.data_dir):
            if gid == current.game_id:
                out.append(describe(gid, current.state(), _last_time(current), True))
                continue
            try:
                saved = read_game(self.data_dir, gid)
            except JournalError as exc:
                out.append({"id": gid, "status": "damaged", "message": str(exc),
                            "current": False, "players": [], "edition": None,
                            "last_played": None, "last_played_ts": None,
                            "name": f"{gid} (damaged)"})
                continue
            try:
                g = saved.state
                state = None if g is None else {
                    "edition": g.edition.id, "players": [{"name": p.name} for p in g.players],
                    "turn": {"number": g.turn_number},
                    "winner": g.players[g.winner].name if g.winner >= 0 else None}
                out.append(describe(gid, state, saved.journal.last_time(), False))
            finally:
                saved.close()
        out.sort(key=lambda item: (item["current"], item.get("last_played_ts") or 0),
                 reverse=True)
        return out

    def switch(self, game_id: str, source: Source = SWITCHER) -> JSON:
        """Make another saved game the one in use; returns its state.

        Every listener is moved to the new session and sent an Update of its state (event
        `game_switched`). Raises SwitchError (the old game stays in use) when the id is not
        a saved game or the game cannot be opened.
        """
        try:
            check_game_id(game_id)
        except JournalError as exc:
            raise SwitchError("bad_game", str(exc)) from None
        if game_id not in game_ids(self.data_dir):
            raise SwitchError("no_such_game", f"there is no saved game {game_id!r}")
        return self._switch_to(game_id, source)

    def new_game_file(self, source: Source = SWITCHER) -> str:
        """Start a fresh, empty saved game and switch to it (the old one stays saved);
        returns its id. The table then starts the game with `new_game`."""
        gid = new_game_id()
        while gid in game_ids(self.data_dir):
            gid = new_game_id()
        self._switch_to(gid, source)
        return gid

    def start_new_game_file(self, command: JSON, source: Source = SWITCHER) -> Outcome:
        """Start a game in a fresh saved file, the game in use staying saved as it is: make
        the file, switch to it and submit `command` (the table's `new_game`) there.

        Accepted: the new file is the game in use. Refused (a full disk, or the engine): the
        holder goes back to the game it had and removes the new file, which never held a
        game, so the saved games keep no "(no game started)" entry; the Outcome says why.
        Raises SwitchError, nothing changed, when the new file cannot be made.
        """
        with self._switch_lock:  # nothing reaches the new file before its first game
            previous = self._session.game_id
            game_id = self.new_game_file(source)
            outcome = self._session.submit(command, source)
            if not outcome.accepted:
                self._forget_new_file(game_id, previous, source)
            return outcome

    def _forget_new_file(self, game_id: str, back_to: str, source: Source) -> None:
        """Back to the game `back_to`, then remove the new file `game_id` if it holds no
        entry (an empty journal is all it is: see docs/session.md)."""
        empty = not self._session.history(None, 1)
        try:
            self._switch_to(back_to, source)
        except SwitchError as exc:  # still on the new file: it stays, being in use
            log.warning("cannot go back to saved game %s: %s", back_to, exc)
            return
        if not empty:
            return
        try:
            delete_game(self.data_dir, game_id)
        except JournalError as exc:
            log.warning("cannot remove the new saved game %s: %s", game_id, exc)

    def _switch_to(self, game_id: str, source: Source) -> JSON:
        with self._switch_lock:
            old = self._session
            if old.game_id == game_id:
                return old.state()
            for entry in [*self._leads, *self._listeners]:
                entry.detach()
                entry.detach = _nothing
            for follower in self._followers:
                follower.detach()
                follower.detach = _nothing
            old.close()
            try:
                new = self._opener(self.data_dir, game_id)
            except JournalError as exc:
                log.warning("cannot switch to %s: %s", game_id, exc)
                new = self._opener(self.data_dir, old.game_id)  # back to the game we had
                self._session = new
                self._attach_all()
                raise SwitchError("cannot_open", str(exc)) from exc
            self._session = new
            self._attach_all(fresh=True)
            leads = [entry.callback for entry in self._leads]
            listeners = [entry.callback for entry in self._listeners]
            state = new.state()
        update = Update(int(state.get("version") or 0), state,
                        [GameSwitched(game_id, old.game_id).to_json()],
                        source)
        holds: list[Hold] = []
        for lead in leads:  # the screen first; the others once its frame shows the game
            try:
                hold = lead(update)
            except Exception:
                log.exception("leading listener %r failed on the switch", lead)
                continue
            if isinstance(hold, Hold):
                holds.append(hold)
        for hold in holds:
            try:
                hold.wait()
            except Exception:
                log.exception("hold %r failed on the switch", hold)
        for callback in listeners:
            try:
                callback(update)
            except Exception:  # one broken listener must not hide the switch from the rest
                log.exception("listener %r failed on the switch", callback)
        return state

    def _attach_all(self, fresh: bool = False) -> None:
        """Everything given to the holder, on the session now in use; `fresh`: another game
        than before (its followers start a new record)."""
        if self._offers is not None:
            self._offers.clear()
            self._session.keep_offers(self._offers)
        for follower in self._followers:
            follower.detach = self._session.follow(follower.callback, fresh)
        for entry in self._leads:
            entry.detach = self._session.lead(entry.callback)
        for entry in self._listeners:
            entry.detach = self._session.add_listener(entry.callback)

    # --- the phone remote's `games` hook -----------------------------------------------------

    def list(self) -> list[JSON]:
        """The saved games for the banker page (see games())."""
        return self.games()

    def resume(self, game_id: str) -> JSON:
        """The banker page's "resume": switch to that saved game."""
        return self.switch(game_id)


def _last_time(session: GameSession) -> float | None:
    """When the session's game was last played (its journal's last entry)."""
    entries = session.history(None, 1)
    return float(entries[-1]["time"]) if entries and entries[-1].get("time") else None
