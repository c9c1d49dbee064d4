"""The game session: owns one saved game; one queue, one writer thread, a durable journal.

Every input (buttons, RFID, phones, scripts, keyboard) calls `submit`, `undo` or `redo` from
any thread; the writer thread applies each to the engine, commits it to the SQLite journal,
and only then answers the caller; a second thread then calls the listeners, whose public
state is built once per version, by whoever reads it first. See docs/session.md.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, cast

from companion.game import authority, going_back
from companion.game.ahead import Ahead, Forecast
from companion.game.api import JSON, Hold, MeFacts, Outcome, Source, Standing, Update
from companion.game.applying import StateJsonMemory, apply_command, state_json
from companion.game.journal import Entry, Journal, JournalError, StorageError
from companion.game.limits import note_problem
from companion.game.replaying import (
    UNDO_TO,
    Stacks,
    apply_journaled,
    clean_command,
    must_snapshot,
    needs_snapshot,
    resolve,
    snapshot_of,
    stacks_of,
    state_at,
    step,
    with_rng,
    with_version,
)
from companion.game.saved_games import (
    DataDirLock,
    current_game,
    game_ids,
    journal_path,
    new_game_id,
    set_current,
)
from companion.game.table.offers import Facts, OfferStore
from companion.game.table.view import TableView, build
from companion.game.telling import story
from companion.game.telling.news import (
    AUCTION_SECONDS,
    LOOK_BACK,
    auction_clock,
    auction_key,
    card_after,
    card_from_entries,
)
from companion.game.telling.seen import (
    MarkRefused,
    NewsWindow,
    SeenNews,
    check_marks,
)
from companion.game.telling.story import Story
from companion.game.telling.teaching import Teaching
from companion.rules import Accepted, Command, GameState, Rejection
from companion.rules.commands import COMMAND_TYPES
from companion.rules.events import GameStarted, Redone, Undone

log = logging.getLogger(__name__)
#: the typed command records (companion.rules.commands) submit takes as they are
COMMAND_RECORDS = frozenset(COMMAND_TYPES.values())

#: how many journal rows `_entry` keeps once read
ENTRIES_KEPT = 8
#: how many recent states the session keeps in memory for quick undo
STATE_CACHE = 64
#: the most rows `standings_since` replays (the net-worth chart keeps no more samples)
STANDINGS_KEPT = 5000
#: a command holding the writer this long means it is frozen (the watchdog stops being fed)
WRITER_STUCK_S = 20.0
#: how long the writer waits, after a request, for the next before it works out the next
#: move ahead (companion.game.ahead): a burst of keys, a few ms apart, never meets a forecast
AHEAD_AFTER_S = 0.02


class _Done:
    """That a job is answered: a lock held from the job's making until the writer lets it
    go, waited for by the one sender. A `threading.Event` is a Condition written in Python:
    its hand-off cost about three times the CPU of a lock's, on the screen's loop and on
    the writer, inside a press's window (issue 28)."""

    __slots__ = ("_lock",)

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lock.acquire()

    def set(self) -> None:
        """The writer, once per job: the answer is there."""
        self._lock.release()

    def wait(self, timeout: float) -> bool:
        """The sender: whether the answer came within `timeout` seconds (once it did, the
        job is done with: not to be waited for again)."""
        return self._lock.acquire(timeout=timeout)


class _Told(_Done):
    """That a job is answered, for a sender that does not wait (`submit_nowait`): the
    writer calls `tell` with the outcome where it would let a waiting sender go."""

    __slots__ = ("_job", "_tell")

    def __init__(self, job: _Job, tell: Callable[[Outcome], None]) -> None:  # no lock
        self._job, self._tell = job, tell

    def set(self) -> None:
        outcome = self._job.outcome
        assert outcome is not None
        try:
            self._tell(outcome)
        except Exception:  # the sender's callback must not stop the writer
            log.exception("telling %r its outcome failed", self._tell)

    def wait(self, timeout: float) -> bool:
        raise RuntimeError("nobody waits for a job submitted without waiting")


@dataclass
class _Job:
    """One request waiting for the writer."""

    kind: str  # command, undo, redo, undo_to (command: {"seq": the move gone back to}), teaching
    source: Source
    command: JSON = field(default_factory=dict)
    expect_version: int | None = None
    #: the command as a typed record, when the sender built one (then `command` is its JSON)
    typed: Command | None = None
    done: _Done = field(default_factory=_Done)
    outcome: Outcome | None = None
    #: the thread that sent it (a leading listener's own command is answered before its
    #: frame is waited for: `Hold.thread`)
    thread: int = field(default_factory=threading.get_ident)


@dataclass(frozen=True)
class _After:
    """What the writer does after a change is journaled that nobody needs before the
    table's first frame shows it: the followers' standing, the teaching table's file."""

    fresh: bool
    save_teaching: bool
    #: the row whose state is due a snapshot only to shorten a replay, and that state
    snapshot: tuple[int, GameState] | None = None


class PublicView:
    """The public state JSON of one engine state, built at most once, by whoever asks for it
    first (a listener, a phone's request, the screen); the others wait for that build."""

    __slots__ = ("state", "_extra", "_json", "_lock", "_memory", "_prepared")

    def __init__(self, state: GameState, extra: JSON | None = None,
                 memory: StateJsonMemory | None = None, prepared: JSON | None = None) -> None:
        self.state = state
        self._extra = extra or {}  # what the session adds (the teaching table's lessons)
        self._json: JSON | None = None
        self._lock = threading.Lock()
        #: the session's: the parts of the JSON built last, reused where they still fit
        self._memory = memory
        #: the JSON of this state worked out ahead (companion.game.ahead), this view's own
        self._prepared = prepared

    @property
    def built(self) -> bool:
        """Whether the JSON has been built."""
        return self._json is not None

    def get(self) -> JSON:
        """The JSON (with "legal"), built now if nobody has yet."""
        out = self._json
        if out is None:
            with self._lock:
                if self._json is None:
                    memory = self._memory
                    built = self._prepared
                    if built is not None:  # worked out ahead while the table was idle
                        self._prepared = None
                    elif memory is None:
                        built = state_json(self.state)
                    else:
                        built = memory.state_json(self.state)
                    built.update(self._extra)  # a new dict each build: its own
                    self._json = built
                out = self._json
        return out


#: an undo's card that is news, not known without reading the journal (`_commit`)
_UNKNOWN = object()


def _refused(version: int, code: str, message: str, params: JSON | None = None) -> Outcome:
    return Outcome(accepted=False, version=version, code=code, message=message,
                   params=dict(params or {}))


class GameSession:
    """One saved game, one serialized writer; thread-safe for any number of callers.

    Open with `GameSession.open(data_dir, game_id)` (creates or resumes); close with
    `close()` or use it as a context manager.
    """

    def __init__(self, data_dir: Path, game_id: str, journal: Journal, lock: DataDirLock,
                 state: GameState | None, stacks: Stacks, seq: int,
                 clock: Callable[[], float] = time.time) -> None:
        self.data_dir = data_dir
        self.game_id = game_id
        self._clock = clock  # wall-clock seconds: journal times, the timed game's clock
        self._journal = journal
        self._lock = lock
        self._state = state
        self._stacks = stacks
        self._seq = seq
        self._states: OrderedDict[int, GameState | None] = OrderedDict([(seq, state)])
        self._listeners: list[Callable[[Update], None]] = []
        #: told first, on the writer, as soon as a change is journaled (`lead`)
        self._leads: list[Callable[[Update], Hold | None]] = []
        self._listeners_lock = threading.Lock()
        #: the after-work of the change the writer committed last (`_commit`), taken by `_run`
        self._after: _After | None = None
        #: told on the writer's thread before a change is answered (`follow`); the lock is
        #: held while they are told, so that a new follower starts from a standing in order
        self._followers: list[Callable[[Standing], None]] = []
        self._followers_lock = threading.Lock()
        self._view: PublicView | None = None  # set once the teaching table is known, below
        #: the state JSON's parts built last, for the next view's (PublicView)
        self._json_memory = StateJsonMemory()
        self._story: tuple[int, Story | None] | None = None
        #: the story told on move by move (`story`), and the command rows in force it
        #: was told (the undo stack's moves, in order)
        self._teller = story.Teller()
        self._story_told: list[int] = []
        #: one teller at a time: readers asking together (the screen and the phones when a
        #: finished game is resumed) wait for the one story, told and saved once
        self._story_lock = threading.Lock()
        #: the requests (SimpleQueue, in C: queue.Queue's Condition in Python cost the
        #: press's hand-off to the writer CPU on both threads, issue 28)
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        #: for the listeners' thread, in order: a view to build while the writer waits for
        #: the disk, an accepted change to tell the listeners of once the holds of the
        #: leading listeners are let go, None to stop
        self._notices: queue.SimpleQueue[tuple[Update, list[Hold]] | PublicView | None] = \
            queue.SimpleQueue()
        self._submit_lock = threading.Lock()
        self._closed = False
        #: when the writer took the job it works on (monotonic), None while it waits
        self._busy_since: float | None = None
        #: when the listeners' thread began telling the listeners of a change, None between
        self._telling_since: float | None = None
        #: the last storage failure shown to the table, None once a write succeeds again
        self.fault: str | None = journal.readonly_reason
        #: when the game was dealt (journal time), for the timed game's clock
        self._started = journal.game_started() if state is not None else None
        #: the card that is news (companion.game.telling.news), kept by the writer thread only
        self._card: JSON | None = self._card_in_force() if state is not None else None
        #: the card that was news after each row of `_states` (`self._card` then): an undo
        #: goes back to the state after such a row, and to its card, without reading the
        #: journal's recent rows again (`_card_in_force`: 5 ms of a press's window here)
        self._cards: OrderedDict[int, JSON | None] = OrderedDict([(seq, self._card)])
        #: the JSON of the state the table's UNDO would bring, built ahead (`undo_ahead`):
        #: (the state in force then, the state gone back to, its JSON); the writer's `_undo`
        #: takes it while both are still those
        self._undo_json: tuple[GameState, GameState, JSON] | None = None
        #: the open auction and when its clock (re)started: the one clock of the table
        self._auction: tuple[tuple[object, ...] | None, float] = (auction_key(state),
                                                                   clock())
        #: seconds an auction waits for a new highest bid before the table closes it; None:
        #: no auction clock at this table (the banker closes auctions, a script does)
        self.auction_seconds: float | None = AUCTION_SECONDS
        #: the clock that rang last and what for (the version, the auction): a refused ring
        #: is not tried again until the table moves on
        self._rung: tuple[str, object] | None = None
        #: the teaching table: lessons the first time a rule applies (on for a first game)
        self._teaching = Teaching.beside(
            journal.path, first_game=not [g for g in game_ids(data_dir) if g != game_id])
        self._teach_next: bool | None = None  # teaching as the new_game being applied chose
        #: who saw which news (companion.game.telling.seen), beside the journal
        self._seen = SeenNews.beside(journal.path)
        #: every player's news of the last NEWS_MOVES moves in force, followed move by move
        #: (companion.game.telling.seen.NewsWindow) as of journal row `_news_at`; the lock
        #: also holds the undo stack and `_seq` still while the news follow them; the events
        #: of the row committed last, so that following it reads nothing back
        self._news = NewsWindow(self._seen)
        self._news_at = -1
        self._news_lock = threading.Lock()
        self._marks_lock = threading.Lock()
        self._news_fresh: tuple[int, list[JSON]] | None = None
        #: the journal rows read last (`_entry`)
        self._entries: OrderedDict[int, Entry] = OrderedDict()
        self._entries_lock = threading.Lock()
        self._view = self._view_of(state) if state is not None else None
        #: the table's open offers (companion.game.table.offers), lapsed by this writer
        self._offers: OfferStore | None = None
        #: the typed view of the table (companion.game.table.view) and what it was built for
        self._table: tuple[PublicView | None, int, TableView] | None = None
        #: the next move worked out ahead while the writer is idle (companion.game.ahead),
        #: while a leading listener (the table's screen) is there
        self._ahead = Ahead()
        #: whether the writer works out the table's next move ahead (off: every command is
        #: applied when it comes, as before)
        self.forecasting = True
        #: the writer's wait, after a request, before it works ahead (AHEAD_AFTER_S)
        self.ahead_after_s = AHEAD_AFTER_S
        #: called once the forecasts asked for before they were there are (`ahead_states`)
        self._ahead_wake: Callable[[], None] | None = None
        self._writer = threading.Thread(target=self._run, name=f"session-{game_id}",
                                         daemon=True)
        self._writer.start()
        self._notifier = threading.Thread(target=self._tell, name=f"listeners-{game_id}",
                                          daemon=True)
        self._notifier.start()

    # --- opening and closing -------------------------------------------------------------

    @classmethod
    def open(cls, data_dir: Path, game_id: str | None = None,
             clock: Callable[[], float] = time.time,
             checked: Callable[[], int] | None = None) -> GameSession:
        """Resume a saved game (the current one when no id is given), or create it.

        `checked`, when given, says up to which row the journal's rows were checked against
        their CRCs already (`companion run` checks them in a child process while it starts;
        it raises JournalCorrupt when that check found damage); the rows after it are
        checked here, as every row is without it.

        Raises JournalLocked when another process has the data directory, JournalCorrupt
        when the game's journal is damaged (the file is left as it is), StorageError when
        the directory cannot be used.
        """
        lock = DataDirLock(data_dir).acquire()
        journal: Journal | None = None
        try:
            gid = game_id or current_game(data_dir) or new_game_id()
            path = journal_path(data_dir, gid)
            journal = Journal.open(path) if path.exists() else Journal.create(path, gid)
            stacks = stacks_of(journal, None if checked is None else checked())
            seq = journal.last_seq()
            stacks.last_snapshot = journal.last_snapshot_seq()
            state = state_at(journal, seq)
            try:
                set_current(data_dir, gid)
            except StorageError as exc:  # a read-only directory still shows the game
                log.warning("%s", exc)
            return cls(data_dir, gid, journal, lock, state, stacks, seq, clock)
        except BaseException:
            if journal is not None:
                journal.close()
            lock.release()
            raise

    def close(self) -> None:
        """Finish the queued requests, stop the writer, close the journal, unlock."""
        with self._submit_lock:
            if self._closed:
                return
            self._closed = True
            self._queue.put(None)
        if threading.current_thread() is not self._writer:
            self._writer.join()
        self._notices.put(None)  # after the writer's last notice
        if threading.current_thread() is not self._notifier:
            self._notifier.join()
        self._journal.close()
        self._lock.release()

    def __enter__(self) -> GameSession:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # --- the protocol --------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The current state version (0 before the first game)."""
        return self._state.version if self._state is not None else 0

    def submit(self, command: Command | JSON, source: Source,
               expect_version: int | None = None) -> Outcome:
        """Queue a command and wait until it is journaled (or refused).

        A typed record (companion.rules.commands) goes to the engine as it is and is
        journaled as its JSON; a JSON object (a phone's, a script's) is read by the engine's
        one parser, which refuses a malformed one saying what is wrong.
        """
        if isinstance(command, dict):
            return self._enqueue(_Job("command", source, dict(command), expect_version))
        if type(command) in COMMAND_RECORDS:
            return self._enqueue(_Job("command", source, command.to_json(), expect_version,
                                      command))
        return _refused(self.version, "bad_command", "a command must be a JSON object")

    def submit_nowait(self, command: JSON, source: Source, expect_version: int | None,
                      done: Callable[[Outcome], None]) -> Outcome | None:
        """Queue a command (a JSON object, as `submit` reads it) without waiting: `done` is
        called once with its outcome, on the writer's thread, exactly where `submit` would
        return it (the row journaled durably first, the change told to nobody before what
        must precede the answer is done). `done` must be quick and never block (the phones'
        serving loop hands the outcome to itself: `loop.call_soon_threadsafe`). Returned: a
        refusal when the command could not be queued (the session closed; then `done` is
        never called), else None. The writer thread and the listeners' may not call it."""
        if threading.current_thread() in (self._writer, self._notifier):
            raise RuntimeError("a listener may not submit to the session it listens to")
        job = _Job("command", source, dict(command), expect_version)
        job.done = _Told(job, done)
        with self._submit_lock:
            if self._closed:
                return _refused(self.version, "session_closed", "the game session is closed")
            self._queue.put(job)
        return None

    def undo(self, source: Source) -> Outcome:
        """Undo the last command (journaled itself); device-rolled dice are never re-rolled."""
        return self._enqueue(_Job("undo", source))

    def redo(self, source: Source) -> Outcome:
        """Redo the last undone command."""
        return self._enqueue(_Job("redo", source))

    def undo_to(self, seq: int, source: Source, expect_version: int | None = None) -> Outcome:
        """The banker's "undo to here": go back to just after history line `seq` in one
        journaled step (itself undone and redone like a command); see `undo_to_plan`."""
        return self._enqueue(_Job("undo_to", source, {"seq": seq}, expect_version))

    def undo_to_plan(self, seq: int) -> JSON:
        """What `undo_to(seq)` would take back now: {"seq", "taken": [journal entries,
        newest first, each with "device"], "here": the entry gone back to}, or {"code",
        "message", "params"} when it would be refused. Read-only; safe from any thread."""
        try:
            found = going_back.plan(self._journal, self._stacks_copy(), seq)
        except JournalError as exc:
            return {"code": "storage_error", "message": str(exc), "params": {}}
        if isinstance(found, going_back.Refusal):
            return {"code": found.code, "message": found.message, "params": found.params}
        return {"seq": found.target, "taken": found.taken, "here": found.here}

    def _stacks_copy(self) -> Stacks:
        stacks = self._stacks
        return Stacks(list(stacks.undo), list(stacks.redo), stacks.last_snapshot,
                      dict(stacks.taken), dict(stacks.back))

    def undo_target(self) -> JSON | None:
        """What an undo would take back now: the journal entry of that command (as in
        `history`), or None when there is nothing to undo (the first game of a journal
        cannot be undone). Read-only; safe from any thread."""
        try:
            applied, target = self._stacks.undo[-1]
        except IndexError:
            return None
        if applied <= 1:  # undoing the journal's first entry would leave no game at all
            return None
        try:
            entry = self._entry(target).to_json()
        except (JournalError, StopIteration):
            return None
        entry["undone"] = False  # in force, or undo would not reach it
        return entry

    def now(self) -> float:
        """The session's wall clock (epoch seconds; injected in tests): the one the table's
        clocks run on, for a face that tells how long is left."""
        return self._clock()

    def state(self) -> JSON:
        """The public state JSON (docs/state-json.md), including "legal"."""
        view = self._view
        if view is None:
            return {"version": 0, "game": None, "legal": [{"do": "new_game"}]}
        return self._clocked(view)

    def _clocked(self, view: PublicView) -> JSON:
        """The view's JSON, with the timed game's clock as it stands now."""
        out = view.get()
        g = view.state
        key, since = self._auction
        seconds = self.auction_seconds
        if key is not None and seconds is not None:  # the one auction clock, as it stands now
            out = {**out, "auction_clock": auction_clock(since, self._clock(), seconds)}
        ends = self._ends_at(g)
        if ends is None:
            return out
        left = max(0, int(ends - self._clock() + 0.999))
        return {**out, "clock": {"limit_minutes": g.options.time_limit_minutes,
                                 "ends_at": ends, "seconds_left": left}}

    def _view_of(self, state: GameState) -> PublicView:
        """The public view of a state as it stands, with the teaching table as it is now."""
        return PublicView(state, {"teaching": self._teaching.public(state.version),
                                  "card_news": self._card}, self._json_memory)

    def _ends_at(self, g: GameState | None = None) -> float | None:
        """The timed game's end (epoch seconds), or None when no clock runs."""
        if g is None:
            g = self._state
        if g is None or self._started is None or g.winner >= 0:
            return None
        minutes = g.options.time_limit_minutes
        return self._started + minutes * 60 if minutes > 0 else None

    def keep_offers(self, offers: OfferStore) -> None:
        """Keep the table's open offers with this game: the writer lapses them with every
        change before anyone sees it, and a player's `trade` is taken only as the answer to
        one of them (companion.game.authority)."""
        g = self._state
        offers.follow(Facts.of_state(g) if g is not None else None)
        self._offers = offers

    def telling(self) -> bool:
        """Whether the caller is this session's listeners' thread (a listener being told of
        one of its changes)."""
        return threading.current_thread() is self._notifier

    def standing(self, fresh: bool = False) -> Standing:
        """Where the players stand now (no players before the first game)."""
        return Standing.of(self._state, self.version, fresh, self.game_id)

    def standings_since(self, version: int) -> list[Standing]:
        """Where the players stood at each journal row after version `version`, up to the
        row in force (the last STANDINGS_KEPT at most): a command's row replayed from the
        state before it, an undo's from its snapshot. Any thread (the journal is read as
        `state_at` reads it)."""
        now = self._seq
        first = max(version, now - STANDINGS_KEPT, 0)
        if first >= now:
            return []
        found: list[Standing] = []
        try:
            state = self._state_after(first)
            if first and (state is None or state.version != first):
                return []  # versions are not the journal's rows here: nothing to say
            for entry in self._journal.entries(after=first, upto=now):
                if entry.kind == "command" or (entry.kind == "redo"
                                               and entry.command.get("do") != UNDO_TO):
                    state = step(state, entry)
                else:
                    state = self._state_after(entry.seq)
                found.append(Standing.of(
                    state, entry.version,
                    any(isinstance(e, GameStarted) for e in entry.events), self.game_id))
        except JournalError as exc:
            log.warning("cannot replay the standings after version %d: %s", version, exc)
            return []
        return found

    def follow(self, callback: Callable[[Standing], None],
               fresh: bool = False) -> Callable[[], None]:
        """Tell `callback` where the game stands now (`fresh`: another saved game was
        switched to), then after each change on the writer's thread, before the change is
        answered (cheap: it delays every answer); returns remove(). Any thread."""
        with self._followers_lock:
            self._followers.append(callback)
            self._tell_follower(callback, self.standing(fresh))

        def remove() -> None:
            with self._followers_lock:
                if callback in self._followers:
                    self._followers.remove(callback)

        return remove

    @staticmethod
    def _tell_follower(callback: Callable[[Standing], None], standing: Standing) -> None:
        try:
            callback(standing)
        except Exception:  # a face's record must not stop the game
            log.exception("session follower %r failed", callback)

    def _tell_followers(self, fresh: bool) -> None:
        """The writer, after a commit: every follower has the new standing."""
        with self._followers_lock:
            if not self._followers:
                return
            standing = self.standing(fresh)
            for callback in list(self._followers):
                self._tell_follower(callback, standing)

    def table(self) -> TableView:
        """The typed view of the table every face renders (companion.game.table.view):
        built once per version and change of the open offers, by whoever asks first. Any
        thread."""
        offers = self._offers
        generation = offers.generation if offers is not None else -1
        # the public view it is built from, not only its version: switching the teaching
        # table makes a new one of the same version, which the banker's page shows
        public = self._view
        cached = self._table
        if cached is not None and cached[0] is public and cached[1] == generation:
            return cached[2]
        state = self._clocked(public) if public is not None else self.state()
        view = build(state, offers.open() if offers is not None else ())
        self._table = (public, generation, view)
        return view

    def _offered(self, trade: Mapping[str, Any]) -> bool:
        offers = self._offers
        return offers is not None and offers.matches(trade) is not None

    def game_state(self) -> GameState | None:
        """The engine state itself, for tools (replay checks, screenshots); do not change it."""
        return self._state

    def story(self) -> Story | None:
        """The story of the game in play (the companion.game.telling.story.Story record the
        faces read), None before a game; once the game is over it is also saved beside the
        journal as JSON. One record per version, shared (it is frozen). Any thread."""
        with self._story_lock:
            version = self.version
            cached = self._story
            if cached is not None and cached[0] == version:
                return cached[1]
            told = self._tell_on()
            if told is not None and told.over and not self._journal.readonly:
                try:
                    story.save(self._journal.path, told)
                except OSError as exc:
                    log.warning("cannot save the story of %s: %s", self.game_id, exc)
            self._story = (version, told)
            return told

    def _tell_on(self) -> Story | None:
        """The story of the moves in force now (under the story's lock): told on from the
        moves told before when they are still in force, else from the start (after an undo
        or a jump back). The moves in force are the undo stack's, whose items change only
        at its top: one still at its place holds the same moves below it (an undo pops it;
        what comes back, a redo or an undone jump back, comes back in the order it left;
        a new move is a new row)."""
        told = self._story_told
        with self._news_lock:  # the stack and the rows as one (the writer's `_commit`)
            stack = self._stacks.undo
            kept = len(told) <= len(stack) and (not told or stack[len(told) - 1][1] == told[-1])
            if not kept:
                told.clear()
                self._teller = story.Teller()
            new = [move for _applied, move in stack[len(told):]]
        if new:
            wanted = set(new)
            rows = {e.seq: e for e in self._journal.entries(after=min(new) - 1, upto=max(new))
                    if e.seq in wanted and e.kind == "command"}
            self._teller.more(rows[move] for move in new if move in rows)
            told.extend(new)
        return self._teller.story()

    def set_teaching(self, on: bool, source: Source) -> Outcome:
        """Switch the teaching table on or off for this game: the banker's call."""
        if not source.banker:
            return _refused(self.version, "not_allowed",
                            "only the banker switches the teaching table")
        return self._enqueue(_Job("teaching", source, {"on": bool(on)}))

    def history(self, player: str | None = None, limit: int = 200,
                before: int | None = None) -> list[JSON]:
        """Journal entries, newest last: seq, time, source, command, events, undone; with
        `before`, only those older than that seq."""
        from companion.game.history import history

        return history(self._journal, player, limit, set(self._stacks.undone), before)

    def _card_in_force(self) -> JSON | None:
        """The card that is news, from the journal's recent rows that applied a move in
        force: a redo row whose move was undone again is not (history() marks only command
        rows undone), nor a command row whose move a redo row applies now."""
        applied = {row for row, _move in self._stacks.undo}
        return card_from_entries([{**e, "undone": e.get("seq") not in applied}
                                  for e in self.history(None, LOOK_BACK)])

    def news(self, player: str) -> list[JSON]:
        """The news items of `player` they have not seen yet, newest first: {"key", "seq",
        "event"} (companion.game.telling.seen), from the moves in force of the game in play,
        NEWS_MOVES moves back at most. Read-only; safe from any thread."""
        with self._news_lock:
            self._news_follow()
            return self._news.unseen(player)

    def news_summary(self, player: str) -> tuple[int, str | None, str | None]:
        """Of `player`'s unseen news: how many, the newest item's key and the oldest's (what
        a Me page's news part changes with), without listing them. Safe from any thread."""
        with self._news_lock:
            self._news_follow()
            return self._news.summary(player)

    def mark_seen(self, keys: Any, source: Source) -> Outcome:
        """The player of `source`, on their own phone, has seen these news items (keys from
        `news`): kept for every phone of theirs and after a restart. Refused as a whole,
        changing nothing, unless each key is news of theirs not seen yet. Not a move: the
        version stays, nothing is journaled."""
        player = source.player
        if player is None or source.kind != "phone":
            return _refused(self.version, "not_a_player",
                            "only a player's own phone marks their news seen")
        with self._marks_lock:  # one marking at a time: the same key twice is refused
            with self._news_lock:
                self._news_follow()
                checked = check_marks(keys, self._news.items(player), self._seen.seen(player))
            if isinstance(checked, MarkRefused):
                return _refused(self.version, checked.code, checked.message, checked.params)
            # saved outside the news' lock (the writer takes it at every commit, and the file
            # is synced to the card); a move meanwhile asks the marks of the items it brings
            dropped = self._seen.mark(player, checked)
            with self._news_lock:
                self._news.marked(player, checked, dropped)
        return Outcome(True, self.version)

    def _news_follow(self) -> None:
        """Bring the news window up to the journal row in force (under `_news_lock`): the
        moves made, undone or redone since it last looked, each read from the journal once
        (the row committed last is at hand) and the move leaving the window dropped."""
        seq = self._seq
        if self._news_at == seq:
            return
        fresh = self._news_fresh

        def read(rows: Sequence[int]) -> dict[int, list[JSON]]:
            found: dict[int, list[JSON]] = {}
            wanted = set(rows)
            if fresh is not None and fresh[0] in wanted:
                found[fresh[0]] = fresh[1]
                wanted.discard(fresh[0])
            for first, last in _runs(sorted(wanted)):
                for entry in self._journal.entries(after=first - 1, upto=last):
                    if entry.seq in wanted:
                        found[entry.seq] = entry.events_json()
            return found

        try:
            done = self._news.sync(self._stacks.undo, read)
        except JournalError as exc:  # the news waits; the game goes on
            log.warning("cannot read the news: %s", exc)
            return
        if done:
            self._news_at = seq

    def add_listener(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        """Call back on the listeners' thread after each change (after the leading
        listeners' frames, `lead`); returns remove()."""
        with self._listeners_lock:
            self._listeners.append(callback)

        def remove() -> None:
            with self._listeners_lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return remove

    def lead(self, callback: Callable[[Update], Hold | None]) -> Callable[[], None]:
        """Call back first, on the writer's thread as soon as a change is journaled (the
        table's screen: queue it and wake the loop, never block); the Hold it hands back
        holds the other listeners, and for its own command the followers too, until its
        frame shows the change. Returns remove()."""
        with self._listeners_lock:
            self._leads.append(callback)
        with self._submit_lock:  # the writer, idle, works out the next move ahead now
            if not self._closed:
                self._ahead.busy()
                self._queue.put(_Job("wake", Source("session")))

        def remove() -> None:
            with self._listeners_lock:
                if callback in self._leads:
                    self._leads.remove(callback)

        return remove

    # --- the writer ----------------------------------------------------------------------

    def healthy(self, stuck_after: float = WRITER_STUCK_S) -> bool:
        """Whether the writer and the listeners' thread run and neither has been held by one
        command or one change `stuck_after` seconds: what the service watchdog is fed on (a
        frozen writer or listener gets the process restarted, and the game resumes from its
        journal)."""
        now = time.monotonic()
        return self._writer.is_alive() and self._notifier.is_alive() and all(
            since is None or now - since < stuck_after
            for since in (self._busy_since, self._telling_since))

    def _enqueue(self, job: _Job) -> Outcome:
        if threading.current_thread() in (self._writer, self._notifier):
            raise RuntimeError("a listener may not submit to the session it listens to")
        with self._submit_lock:
            if self._closed:
                return _refused(self.version, "session_closed", "the game session is closed")
            self._queue.put(job)
        while not job.done.wait(1.0):
            if not self._writer.is_alive():
                return _refused(self.version, "session_closed", "the game session stopped")
        assert job.outcome is not None
        return job.outcome

    def _gavel_at(self) -> float | None:
        """When the open auction's clock runs out (wall-clock seconds), while someone holds
        the highest bid; None otherwise (an auction nobody bid in waits for its bidders)."""
        g = self._state
        key, since = self._auction
        seconds = self.auction_seconds
        if key is None or g is None or not g.pending or seconds is None:
            return None
        top = g.pending[-1]
        if getattr(top, "bidder", -1) < 0 or self._rung == ("gavel", key):
            return None
        return since + seconds

    def _end_at(self) -> float | None:
        """When the writer ends the timed game (None: no clock, or its end was refused at
        this version and waits for the table to move on)."""
        return None if self._rung == ("end", self.version) else self._ends_at()

    def _clock_job_due(self) -> bool:
        """Whether a clock of the table has run out (without ringing it)."""
        due = [t for t in (self._end_at(), self._gavel_at()) if t is not None]
        return bool(due) and self._clock() >= min(due)  # no clock armed: the time not asked

    def _clock_job(self) -> _Job | None:
        """The table's clocks, on the writer: the timed game's end, else the auction's
        gavel, when its time has come (None: not yet)."""
        ends, gavel = self._end_at(), self._gavel_at()
        if ends is None and gavel is None:
            return None  # no clock armed: the time is not even asked
        now = self._clock()
        if ends is not None and now >= ends:  # the timed game's time is up: end and count
            self._rung = ("end", self.version)
            return _Job("command", Source("session", banker=True),
                        {"do": "end_game", "reason": "time"})
        if gavel is not None and now >= gavel:  # nobody outbid the highest bid: sold
            self._rung = ("gavel", self._auction[0])
            return _Job("command", Source("session"), {"do": "close_auction"})
        return None

    def _run(self) -> None:
        # before the first request: what its row's commit would do inside a press's window
        self._journal.ready_for_rows()
        held: _Job | None = None  # a request that came after a clock ran out: next
        #: when the writer finished its last request (monotonic): it works ahead once
        #: `ahead_after_s` passed since with no request
        quiet_since = time.monotonic() - self.ahead_after_s
        while True:
            clocked = self._clock_job()  # a clock that ran out rings before what came later
            if clocked is not None:
                job: _Job | None = clocked
            elif held is not None:
                job, held = held, None
            else:
                ahead = self._ahead_due()
                grace = quiet_since + self.ahead_after_s - time.monotonic()
                if ahead and grace <= 0 and self._queue.empty():
                    self._work_ahead()
                    continue  # one command worked out ahead: a request first, if one came
                if not ahead:
                    self._ahead.idle()
                    self._tell_ahead()
                wake = [t for t in (self._end_at(), self._gavel_at()) if t is not None]
                timeout = None if not wake \
                    else min(60.0, max(0.0, min(wake) - self._clock()))
                if ahead:  # the next move ahead once no request came for a while (a
                    # request already queued, its grace over: at once, never a negative wait)
                    timeout = max(0.0, grace if timeout is None else min(timeout, grace))
                try:
                    job = self._queue.get(timeout=timeout)
                except queue.Empty:  # a clock of the table may have run out, or the wait
                    continue
                if job is not None and job.kind == "wake":  # a screen came: work ahead
                    continue
                if job is not None and self._clock_job_due():
                    held = job  # rings first: the request is answered right after
                    continue
            if job is None:
                return
            if self._leads:  # (a list read: headless, nothing of the forecasts per request)
                self._ahead.busy()
            update: Update | None = None
            self._busy_since = time.monotonic()
            self._after = None
            try:
                job.outcome, update = self._process(job)
            except Exception as exc:  # a bug must not stop the table: refuse and go on
                log.exception("session writer failed on %s", job)
                job.outcome = _refused(self.version, "internal_error", f"internal error: {exc}")
            self._finish(job, update, self._after)
            self._busy_since = None
            quiet_since = time.monotonic()

    def _ahead_due(self) -> bool:
        """Whether the writer has something to work out ahead of the state in force: a
        leading listener (the table's screen) is there, and the state's forecasts are not
        all made."""
        if not self.forecasting:
            return False
        state, view = self._state, self._view
        if state is None or view is None or view.state is not state:
            return False
        if not self._leads:  # read without the lock: a list's truth is one read
            return False
        return not self._ahead.of(state) or self._ahead.pending()

    def _work_ahead(self) -> bool:
        """The writer, idle with no request waiting for `ahead_after_s` (`_ahead_due`):
        plan the forecasts of the state in force, or work out one more of the commands the
        table's buttons would send there (companion.game.ahead); whether it did any work
        (then it looks at the queue again before the next). A request never waits for more
        than one command's forecast."""
        state, view = self._state, self._view
        if state is None or view is None:
            return False
        ahead = self._ahead
        try:
            if not ahead.of(state):
                ahead.plan(state, view.get())
                return ahead.pending()
            return ahead.step(self._json_memory, self._ahead_extras)
        except Exception:  # a forecast's failure costs its use, never the game
            log.exception("working out the next move ahead failed")
            ahead.plan_nothing(state)
            return False

    def _ahead_extras(self, forecast: Forecast) -> None:
        """The writer, for an accepted forecast: what its commit reads of the state after
        it, made now (the offers' facts, the teaching's step); the commit takes them only
        while they hold (`_commit`). The screen's copy of the forecast's JSON gets the
        extras the commit would add as they stand now (the card that is news, the
        teaching's lessons when planned), so that a move bringing news finds its first
        frame prepared too; a guess that no longer holds at the commit finds nothing."""
        assert isinstance(forecast.result, Accepted)
        after = forecast.result.state
        if self._offers is not None:
            forecast.facts = Facts.of_state(after)
        teaching = self._teaching
        planned = teaching.plan_ahead(
            after.version, forecast.result.events, after,
            new_game=any(isinstance(e, GameStarted) for e in forecast.result.events))
        extras: JSON = {"card_news": card_after(self._card, forecast.result.events)}
        if planned is not None:
            forecast.teaching = (teaching, *planned)
            extras["teaching"] = Teaching.public_of(planned[1])
        if forecast.public is not None:
            forecast.public.update(extras)

    def ahead_states(self, version: int,
                     wake: Callable[[], None] | None = None) -> list[JSON] | None:
        """The public JSONs (without the clocks; with the session's other extras as the
        commit would add them now, the teaching's when it could be planned: `_ahead_extras`)
        of the states the table's game buttons would bring from version `version`, once
        the writer has worked them out ahead; None while it has not (then `wake` is called,
        once, on the writer, when it has), or when `version` is not the version in force.
        For the table's screen to prepare what such a press's first frame would draw anew;
        never to show, tell or send: they are no move (companion.game.ahead). Any
        thread."""
        if not self.forecasting:
            return []
        self._ahead_wake = wake  # before looking: the writer calls it if it finishes after
        state = self._state
        if state is None or state.version != version or not self._ahead.ready(state):
            return None
        self._ahead_wake = None
        return self._ahead.public()

    def _tell_ahead(self) -> None:
        """The writer, with nothing left to work out ahead: wake whoever asked for the
        forecasts before they were there (`ahead_states`)."""
        wake, self._ahead_wake = self._ahead_wake, None
        if wake is not None:
            try:
                wake()
            except Exception:  # a face's bug must not stop the game
                log.exception("waking %r for the forecasts failed", wake)

    def undo_ahead(self, version: int) -> JSON | None:
        """The public JSON (without the clocks; with the card that is news and the teaching's
        lessons as the commit would add them) of the state an UNDO would bring at `version`:
        the state before the move on top of the undo stack, when this process keeps it and
        the card that was news in it; None otherwise, or when `version` is not in force.
        For the table's screen to prepare that UNDO's first frame while its question is
        open (issue 28: the one press nothing was worked out ahead for); never to show, tell
        or send: it is no move. The writer's `_undo` takes the JSON built here while the
        table did not change since. Any thread: it reads what the writer keeps, and gives
        up when the writer moved on meanwhile."""
        if not self.forecasting:
            return None
        state = self._state
        if state is None or state.version != version:
            return None
        try:
            applied, target = self._stacks.undo[-1]
        except IndexError:  # nothing to undo (or the writer took it back just now)
            return None
        if self._stacks.taken.get(target):  # moves brought back with it: the journal's
            return None
        before = self._states.get(applied - 1)
        card = self._cards.get(applied - 1, _UNKNOWN)
        if before is None or card is _UNKNOWN:
            return None
        after = with_version(before, version + 1)
        built = self._json_memory.state_json(after)
        step = self._teaching.plan(after.version, [], after)
        if self._state is not state:  # the writer moved on: what was read may not fit
            return None
        self._undo_json = (state, before, built)
        return {**built, "teaching": Teaching.public_of(step), "card_news": card}

    def ahead_settled(self, timeout: float) -> bool:
        """Wait until the writer has worked out ahead what it will of the state in force
        (tests, tools); whether it had within `timeout` seconds."""
        return self._ahead.settled(timeout)

    def ahead_counts(self) -> tuple[int, int]:
        """How many commands the writer worked out ahead, and how many of those a real
        command took (the hit rate)."""
        return self._ahead.made, self._ahead.used

    def _finish(self, job: _Job, update: Update | None, after: _After | None) -> None:
        """Answer a job and tell its change: the leading listeners at once (the screen:
        its first frame begins now), then the row's acknowledgement mark, the followers
        and the teaching's file, the answer, and the other listeners once the leads'
        frames show the change. The screen's own command is answered before its frame is
        waited for, and the rest (the mark first) follows that frame (bounded by the
        hold): nothing but the frame's own work runs between the screen's press and its
        first frame, and nothing of the change is told to anybody else before what
        follows it is done. The row itself was durable before the leads were told."""
        holds = self._tell_leads(update) if update is not None else []
        if any(hold.thread == job.thread for hold in holds):
            job.done.set()  # the screen's own press: its frame first
            for hold in holds:
                self._wait(hold)
            holds = []
            self._mark()
            self._after_work(after)
        else:
            self._mark()
            self._after_work(after)  # before the answer: a phone's next read has it
            job.done.set()
        if update is not None:
            self._notices.put((update, holds))
        self._checkpoint()  # answered, shown and told: the WAL's turn (once in 500 rows)

    def _mark(self) -> None:
        """The writer, once the leads have the change (for the screen's own press, once
        its frame shows it) and before anybody else is told: the acknowledgement mark of
        the row committed (`Journal.mark`: what finds a lost WAL at the next start,
        docs/session.md). One that cannot be written stops the journal (JournalBroken:
        every later change is refused) and is shown as the table's fault; the change
        stands, its row is durable."""
        try:
            self._journal.mark()
        except JournalError as exc:
            self.fault = str(exc)
            log.error("%s", exc)

    def _checkpoint(self) -> None:
        """The writer, after a change is answered (and, for the screen's press, shown): the
        journal's WAL copied into its file when enough rows came since the last time
        (`Journal.checkpoint`), instead of SQLite's automatic checkpoint inside a commit."""
        try:
            self._journal.checkpoint()
        except JournalError as exc:  # the rows are durable in the WAL; tried again later
            log.warning("%s", exc)

    def _tell_leads(self, update: Update) -> list[Hold]:
        """The writer: each leading listener told of a journaled change; their holds."""
        with self._listeners_lock:
            leads = list(self._leads)
        holds: list[Hold] = []
        for callback in leads:
            try:
                hold = callback(update)
            except Exception:
                log.exception("session leading listener %r failed", callback)
                continue
            if hold is not None:
                holds.append(hold)
        return holds

    @staticmethod
    def _wait(hold: Hold) -> None:
        try:
            hold.wait()
        except Exception:  # a face's bug must not stop the game
            log.exception("session hold %r failed", hold)

    def _after_work(self, after: _After | None) -> None:
        """What a journaled change leaves for after its first frame, on the writer before
        the next change: the followers' standing, the teaching table's file and a
        snapshot that only shortens a replay."""
        if after is None:
            return
        self._tell_followers(after.fresh)
        if after.save_teaching:
            self._teaching.save()
        if after.snapshot is not None:
            seq, state = after.snapshot
            try:
                self._journal.add_snapshot(seq, snapshot_of(state))
            except JournalError as exc:  # a longer replay at the next start, no more
                log.warning("snapshot of row %d not saved: %s", seq, exc)
            else:
                self._stacks.last_snapshot = max(self._stacks.last_snapshot, seq)

    def _tell(self) -> None:
        """The listeners' thread: each accepted change in order, while the writer goes on
        with the next request."""
        while True:
            notice = self._notices.get()
            if notice is None:
                return
            if isinstance(notice, PublicView):
                try:
                    notice.get()
                except Exception:  # built again (and reported) by whoever reads it
                    log.exception("building the public state failed")
                continue
            update, holds = notice
            # a listener that never returns starves the watchdog, as a stuck writer does
            self._telling_since = time.monotonic()
            try:
                for hold in holds:  # the table's frame first (bounded)
                    self._wait(hold)
                self._notify(update)
            finally:
                self._telling_since = None

    def _notify(self, update: Update) -> None:
        with self._listeners_lock:
            listeners = list(self._listeners)
        for callback in listeners:
            try:
                callback(update)
            except Exception:
                log.exception("session listener %r failed", callback)

    def _process(self, job: _Job) -> tuple[Outcome, Update | None]:
        if job.expect_version is not None and job.expect_version != self.version:
            return _refused(self.version, "stale_version",
                            f"the table is at version {self.version}, not "
                            f"{job.expect_version}: refresh"), None
        if job.kind == "command":
            return self._command(job)
        if job.kind == "undo":
            return self._undo(job)
        if job.kind == "undo_to":
            return self._undo_to(job)
        if job.kind == "teaching":  # not a move: the view shows the switch, nothing is journaled
            self._teaching.switch(bool(job.command.get("on")))
            if self._state is not None:
                self._view = self._view_of(self._state)
            return Outcome(True, self.version), None
        return self._redo(job)

    def _command(self, job: _Job) -> tuple[Outcome, Update | None]:
        problem = note_problem(job.command)
        if problem is not None:
            return _refused(self.version, "bad_command", problem), None
        command = clean_command(job.command)
        teach = command.pop("teaching", None) if command.get("do") == "new_game" else None
        if teach is not None and not isinstance(teach, bool):
            return _refused(self.version, "bad_command", "'teaching' must be true or false"), None
        allowed = authority.check(job.source, command, self._state, self._offered)
        if not isinstance(allowed, authority.Refused):  # moves and results (issue 26)
            allowed = authority.correction(job.source, allowed, self._state)
        if not isinstance(allowed, authority.Refused):
            allowed = authority.entered_refusal(job.source, allowed, self._state) or allowed
        if isinstance(allowed, authority.Refused):
            return _refused(self.version, allowed.code, allowed.message, allowed.params), None
        # a typed command the authority left as it is goes to the engine unparsed
        typed = job.typed if job.typed is not None and allowed is command else None
        command = allowed
        before = self._state
        # the same command at the same state worked out ahead: the engine's very result
        forecast = self._ahead.take(before, command)
        result = forecast.result if forecast is not None \
            else apply_command(before, command if typed is None else typed)
        if isinstance(result, Rejection):
            return _refused(self.version, result.code.value, result.message, result.params), None
        assert isinstance(result, Accepted)
        # its row's text too, when the command is the forecast's to the byte
        row = forecast.row_of(command) if forecast is not None else None
        if row is not None and forecast is not None and forecast.resolved is not None:
            resolved, rng = forecast.resolved, forecast.rng
        else:
            resolved, rng = resolve(command, before, result)
        entry = Entry(self._seq + 1, self._clock(), "command", None, job.source, resolved,
                      result.events, result.state.version, rng)
        if row is not None:
            entry.written_as(row)
        self._teach_next = teach
        outcome, update = self._commit(entry, result.state, forecast)
        if outcome.accepted and command.get("do") == "new_game":
            self._started = entry.time  # before anyone reads the view: the clock shows
        return outcome, update

    def _permitted(self, source: Source, target: int, what: str) -> Outcome | None:
        if source.banker:
            return None
        if target in self._stacks.back:  # the banker's jump back is the banker's alone
            return _refused(self.version, "banker_only",
                            f"only the banker can {what} going back to an earlier move")
        owner = self._journal.sources([target]).get(target)
        if source.player is not None and owner is not None and owner.player == source.player:
            return None
        who = f"{owner.player}, who sent it," if owner is not None and owner.player else "nobody"
        return _refused(self.version, "not_allowed",
                        f"only the banker or {who} can {what} that command")

    def _state_after(self, seq: int) -> GameState | None:
        if seq in self._states:
            return self._states[seq]
        return state_at(self._journal, seq)

    def _entry(self, seq: int) -> Entry:
        """Journal row `seq` (rows never change: the last few read are kept, since after
        every move each phone asks who may undo it, and each Me page what it would undo;
        the writer keeps the row it committed, `_keep_entry`, so the newest is never read
        back)."""
        with self._entries_lock:
            found = self._entries.get(seq)
        if found is None:
            found = next(iter(self._journal.entries(after=seq - 1, upto=seq)))
            self._keep_entry(found)
        return found

    def _keep_entry(self, entry: Entry) -> None:
        """Keep a journal row for `_entry` (the last ENTRIES_KEPT)."""
        with self._entries_lock:
            self._entries[entry.seq] = entry
            while len(self._entries) > ENTRIES_KEPT:
                self._entries.popitem(last=False)

    def undo_refusal(self, source: Source) -> JSON | None:
        """Why an undo by `source` would be refused now ({"code", "message", "params"}),
        None when it would not. Read-only; safe from any thread."""
        nothing = {"code": "nothing_to_undo", "message": "there is nothing to undo",
                   "params": {}}
        try:
            applied, target = self._stacks.undo[-1]
        except IndexError:
            return nothing
        if applied <= 1:  # the journal's first game (as undo_target says)
            return nothing
        try:
            refused = self._undo_refused(source, target)
        except (JournalError, StopIteration):
            return nothing
        if refused is None:
            return None
        return {"code": refused.code, "message": refused.message, "params": refused.params}

    def me_facts(self, players: Sequence[str]) -> MeFacts:
        """Of each of `players`: their unseen news as `news_summary` gives it, and whether
        `undo_refusal(Source("phone", player=p))` is None, from one look at the news window
        and one at the undo stack's top and its row (the remote asks after every move, for
        every player: eight times each question cost a third of the listeners' thread,
        issue 28). Read-only; safe from any thread."""
        with self._news_lock:
            self._news_follow()
            news = {p: self._news.summary(p) for p in players}
        undoers: frozenset[str] = frozenset()
        try:
            applied, target = self._stacks.undo[-1]
        except IndexError:
            applied = 0
        if applied > 1:  # as undo_refusal: the journal's first game is nobody's to undo
            try:
                entry = self._entry(target)
            except (JournalError, StopIteration):
                entry = None
            if entry is not None:
                may = authority.undoers(entry, target in self._stacks.back)
                undoers = frozenset(p for p in players if p in may)
        return MeFacts(news, undoers)

    def _undo_refused(self, source: Source, target: int) -> Outcome | None:
        """Who may take back move `target`: the one table's say (companion.game.authority
        UNDO_RIGHTS: a result seen is a result kept; the banker's jump back the banker's)."""
        if source.banker:
            return None
        found = authority.undo_refused(source, self._entry(target),
                                       jump=target in self._stacks.back)
        if found is None:
            return None
        return _refused(self.version, found.code, found.message, found.params)

    def _undo(self, job: _Job) -> tuple[Outcome, Update | None]:
        if not self._stacks.undo:
            return _refused(self.version, "nothing_to_undo", "there is nothing to undo"), None
        applied, target = self._stacks.undo[-1]
        refusal = self._undo_refused(job.source, target)
        if refusal is not None:
            return refusal, None
        before = self._state_after(applied - 1)
        if before is None:
            return _refused(self.version, "nothing_to_undo",
                            "the first game cannot be undone: start a new one"), None
        after = with_version(before, self.version + 1)
        undone = self._entry(target)
        back = going_back.brought_back(self._journal, self._stacks.taken.get(target, []))
        entry = Entry(self._seq + 1, self._clock(), "undo", target, job.source, undone.command,
                      [Undone(target, undone.command), *back], after.version, None)
        # the card that was news in the state gone back to, when this process had it; a
        # move brought back with it (a jump's) may change it: then read from the journal
        kept, self._undo_json = self._undo_json, None
        built = kept[2] if kept is not None and kept[0] is self._state and kept[1] is before \
            and not back else None  # its JSON built ahead (`undo_ahead`) while nothing changed
        return self._commit(entry, after,
                            card=self._cards.get(applied - 1, _UNKNOWN) if not back else _UNKNOWN,
                            built=built)

    def _undo_to(self, job: _Job) -> tuple[Outcome, Update | None]:
        seq = job.command.get("seq")
        if not job.source.banker:
            return _refused(self.version, "banker_only",
                            "only the banker can go back to an earlier move"), None
        if not isinstance(seq, int) or isinstance(seq, bool):
            return _refused(self.version, "bad_command", "'seq' must be a journal line"), None
        found = going_back.plan(self._journal, self._stacks, seq)
        if isinstance(found, going_back.Refusal):
            return _refused(self.version, found.code, found.message, found.params), None
        before = self._state_after(found.applied)
        assert before is not None  # a move in force after it: a game was dealt by then
        after = with_version(before, self.version + 1)
        at = going_back.find(self._stacks, seq)
        assert at is not None
        taken = going_back.taken_back(self._journal, self._stacks.undo[at + 1:])
        entry = Entry(self._seq + 1, self._clock(), "undo_to", found.target, job.source,
                      going_back.command(found.target), taken, after.version, None)
        return self._commit(entry, after)

    def _redo(self, job: _Job) -> tuple[Outcome, Update | None]:
        if not self._stacks.redo:
            return _refused(self.version, "nothing_to_redo", "there is nothing to redo"), None
        target = self._stacks.redo[-1]
        refusal = self._permitted(job.source, target, "redo")
        if refusal is not None:
            return refusal, None
        original = self._entry(target)
        if original.kind == "undo_to":  # the jump again: the state it went back to
            again = self._state_after(target)
            assert again is not None
            at = going_back.find(self._stacks, int(original.target or 0))
            items = self._stacks.undo[at + 1:] if at is not None else []
            entry = Entry(self._seq + 1, self._clock(), "redo", target, job.source,
                          original.command, [Redone(target, original.command),
                                             *going_back.taken_back(self._journal, items)],
                          self.version + 1, None)
            return self._commit(entry, with_version(again, self.version + 1))
        result = apply_journaled(self._state, original.command)
        if isinstance(result, Rejection):
            return _refused(self.version, result.code.value, result.message, result.params), None
        assert isinstance(result, Accepted)
        after = with_rng(result.state, original.rng)
        entry = Entry(self._seq + 1, self._clock(), "redo", target, job.source, original.command,
                      [Redone(target, original.command), *result.events], after.version,
                      original.rng)
        return self._commit(entry, after)

    def _commit(self, entry: Entry, after: GameState, forecast: Forecast | None = None,
                card: object = _UNKNOWN, built: JSON | None = None
                ) -> tuple[Outcome, Update | None]:
        """Journal the entry; only when that succeeded does the table move on. `forecast`:
        the command's worked out ahead (companion.game.ahead), whose result `after` is:
        its public JSON, and the offers' facts and the teaching's step it holds (the
        teaching's only while the teaching did not change since). `card`: of an undo, the
        card that is news in the state it goes back to, when known (`_cards`); else, as
        for a redo or a jump, it is read from the journal once the row is in it. `built`:
        of an undo, the public JSON of `after` built ahead (`undo_ahead`), without extras."""
        due = needs_snapshot(entry, self._stacks.last_snapshot)
        # a snapshot replay cannot make goes in the row; one that shortens a replay after it
        snap = snapshot_of(after) if due and must_snapshot(entry) else None
        planned = forecast.teaching if forecast is not None else None
        if planned is not None and planned[0] is self._teaching and self._teach_next is None \
                and planned[2].version == after.version and planned[0].unchanged(planned[1]):
            step = planned[2]
        else:
            step = self._teaching.plan(
                after.version, entry.events if entry.kind != "undo" else [], after,
                new_game=any(isinstance(e, GameStarted) for e in entry.events)
                and entry.kind != "undo", choose=self._teach_next)
        self._teach_next = None
        # the card that is news after a command, from its events; after an undo, the card of
        # the state it goes back to when known (`_cards`); else (a redo, a jump) it is read
        # from the journal once the row is in it, below
        known = entry.kind == "command" or (entry.kind == "undo" and card is not _UNKNOWN)
        if entry.kind == "command":
            news = card_after(self._card, entry.events)
        else:
            news = cast("JSON | None", card) if known else self._card
        prepared = forecast.json if forecast is not None else built
        view = PublicView(after, {"teaching": Teaching.public_of(step), "card_news": news},
                          self._json_memory, prepared)
        with self._listeners_lock:
            wanted = bool(self._listeners or self._leads)
        if wanted and prepared is None:  # built on the listeners' thread while this one
            # waits for the disk; worked out ahead, it only takes the extras: whoever reads
            # it first adds them (waking that thread for it cost CPU in a press's window)
            self._notices.put(view)
        try:
            self._journal.append(entry, snap, mark=False)  # its mark: `_finish`
        except StorageError as exc:
            if not self._landed(entry.seq):
                self.fault = str(exc)
                log.error("%s", exc)
                return _refused(self.version, "storage_error", str(exc)), None
        except JournalError as exc:
            self.fault = str(exc)
            return _refused(self.version, "storage_error", str(exc)), None
        self.fault = None
        self._teaching.apply(step, save=False)  # once per game, an undo gives none
        if snap is not None:
            self._stacks.last_snapshot = entry.seq
        self._keep_entry(entry)  # every phone asks who may undo it: never read back
        events = entry.events_json()  # the transports' form: phones, screen, CLI
        with self._news_lock:  # the news follow the stack and the row as one
            self._stacks.record(entry.seq, entry.kind, entry.target)
            self._seq = entry.seq
            self._news_fresh = (entry.seq, events)
        self._state = after
        if known:
            self._card = news
        else:  # the view is built again with the card the journal now gives
            self._card = self._card_in_force()
            view = PublicView(after, {"teaching": Teaching.public_of(step),
                                      "card_news": self._card}, self._json_memory)
        key = auction_key(after)
        if key != self._auction[0]:
            self._auction = (key, entry.time)
        if self._offers is not None:  # before anyone sees the state that ends them
            facts = forecast.facts if forecast is not None else None
            self._offers.lapse(facts if facts is not None else Facts.of_state(after), events)
        self._view = view
        self._states[entry.seq] = after
        self._cards[entry.seq] = self._card
        while len(self._states) > STATE_CACHE:
            self._states.popitem(last=False)
        while len(self._cards) > STATE_CACHE:
            self._cards.popitem(last=False)
        # the followers and the teaching's file before the answer, or for the screen's own
        # press after its first frame (`_run`): before the next change either way
        self._after = _After(any(isinstance(e, GameStarted) for e in entry.events),
                             step.save, (entry.seq, after) if due and snap is None else None)
        outcome = Outcome(True, after.version, events)
        update = Update(after.version, lambda: self._clocked(view), events, entry.source) \
            if wanted else None
        return outcome, update

    def _landed(self, seq: int) -> bool:
        """After a failed commit: whether the row is in the journal after all."""
        try:
            return self._journal.last_seq() >= seq
        except JournalError:
            return False


def _runs(rows: Sequence[int], gap: int = 64) -> list[tuple[int, int]]:
    """Sorted journal rows as ranges to read, a range ending where the next row is more
    than `gap` rows further (the moves in force after a jump back are far apart).

    >>> _runs([3, 4, 9, 500, 501])
    [(3, 9), (500, 501)]
    """
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and row - runs[-1][1] <= gap:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def open_session(data_dir: Path, game_id: str | None = None) -> GameSession:
    """Shorthand for GameSession.open."""
    return GameSession.open(data_dir, game_id)


__all__ = ["GameSession", "open_session", "Source", "Outcome", "Update"]
