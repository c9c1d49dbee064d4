"""What every input and output (screen, buttons, RFID, phones, scripts) may ask of a game.

The game session (companion.game.session) implements this protocol; everything else codes
against it, never against the engine's state objects. Commands are dicts in the table-script
vocabulary (docs/table-script.md); states are dicts in the state JSON format
(docs/state-json.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from companion.rules import GameState, net_worths
from companion.rules.commands import Command

if TYPE_CHECKING:
    from companion.game.table.offers import OfferStore
    from companion.game.table.view import TableView
    from companion.game.telling.story_record import Story

JSON = dict[str, Any]


@dataclass(frozen=True)
class Source:
    """Who sent a command: kind is button, rfid, phone, script, keyboard or screen."""

    kind: str
    player: str | None = None  # the player acting (a phone's player, a tapped bank card)
    banker: bool = False  # sent with the banker's authority (PIN, banker card, script)


@dataclass(frozen=True)
class Outcome:
    """The settled result of one submitted command.

    accepted: committed to the journal and applied; events say what happened.
    Otherwise code/message say why it was refused, and nothing changed.
    """

    accepted: bool
    version: int
    events: list[JSON] = field(default_factory=list)
    code: str | None = None
    message: str | None = None
    #: the facts of a refusal (player, square, amounts...) for saying it in any language
    params: JSON = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One saved game as the banker's list shows it: the facts of
    companion.game.switch.describe, typed for the faces (the words are theirs).

    >>> SavedGame.of({"id": "g1", "players": ["Ann", "Bo"], "edition": "mega", "turn": 3})
    SavedGame(id='g1', players=('Ann', 'Bo'), edition='mega', turn=3, winner=None, \
last_played=None, current=False)
    """

    id: str
    players: tuple[str, ...]
    #: the edition's id (None: no game started in it)
    edition: str | None
    #: the turn's number (None: no game started)
    turn: int | None
    winner: str | None
    #: when it was last played, as the table's clock writes it ("14:05", a date)
    last_played: str | None
    #: whether it is the game on the table
    current: bool

    @classmethod
    def of(cls, raw: JSON) -> SavedGame:
        """The record of one entry of the `games` hook's list."""
        def text(key: str) -> str | None:
            value = raw.get(key)
            return str(value) if value else None

        players, turn = raw.get("players"), raw.get("turn")
        return cls(str(raw.get("id") or ""),
                   tuple(str(p) for p in players) if isinstance(players, list) else (),
                   text("edition"),
                   turn if isinstance(turn, int) and not isinstance(turn, bool) else None,
                   text("winner"), text("last_played"), bool(raw.get("current")))


class Update:
    """Pushed to listeners after every accepted command, undo or redo.

    `state` may be handed over as a function that builds it: it is then built when a
    listener first reads it (once per version, shared by every listener, off the caller's
    path), not by the session's writer before it answers."""

    __slots__ = ("version", "events", "source", "_state")

    def __init__(self, version: int, state: JSON | Callable[[], JSON], events: list[JSON],
                 source: Source) -> None:
        self.version = version
        self.events = events
        self.source = source
        self._state = state

    @property
    def state(self) -> JSON:
        """The public state JSON of this version (docs/state-json.md)."""
        state = self._state
        return state() if callable(state) else state

    def __repr__(self) -> str:
        return f"Update(version={self.version}, events={self.events!r}, source={self.source!r})"


@dataclass(frozen=True)
class Hold:
    """What a leading listener (`GameSessionProtocol.lead`: the table's screen) hands back
    for one update: `wait()` returns once a frame shows it (or a bound ran out), and the
    session's other listeners and its after-work (the followers, files) wait for it, so
    that the first frame's CPU is the screen's; `thread` draws that frame: a command it
    sent itself is answered before the wait (its frame cannot come while it waits)."""

    wait: Callable[[], object]
    thread: int | None = None


@dataclass(frozen=True)
class Standing:
    """Where the players stand at one version: what the session's writer tells its
    followers (`GameSessionProtocol.follow`) of each change after journaling it and before
    answering it, so that a face's own record of the game (the phones' net-worth chart) is
    up to date for the very next read, with no wait on the listeners' thread. Cheap to make
    on the writer: the names, each player's net worth, the turn."""

    version: int
    turn: int
    players: tuple[str, ...]
    #: each player's net worth (companion.rules.net_worth), in the order of `players`
    worth: tuple[int, ...]
    #: a game was dealt (or dealt again by a redo), or another saved game switched to: what
    #: was recorded before is another game's
    fresh: bool = False
    #: the saved game's id ("": not said): a record kept across a restart is of this game
    #: only when it says the same id (a restart may open another saved game)
    game: str = ""

    @classmethod
    def of(cls, state: GameState | None, version: int, fresh: bool = False,
           game: str = "") -> Standing:
        """Where the players of `state` stand (no players before the first game, at the
        session's `version`), in saved game `game`."""
        if state is None:
            return cls(version, 0, (), (), fresh, game)
        return cls(state.version, state.turn_number, tuple(p.name for p in state.players),
                   net_worths(state), fresh, game)


@dataclass(frozen=True)
class MeFacts:
    """What the players' Me pages show besides the state, for several players at once
    (`GameSessionProtocol.me_facts`): the remote asks it after every move to tell the
    phones whose Me page changed. Each player's answer is what the per-player questions
    give: `news[p]` is `news_summary(p)`, and `p in undoers` is `undo_refusal(Source(
    "phone", player=p)) is None` (their own phone may take back the last move)."""

    #: of each player asked: unseen news items, the newest one's key, the oldest one's
    news: dict[str, tuple[int, str | None, str | None]]
    #: the players asked whose own phone may undo the last move now
    undoers: frozenset[str]


class GameSessionProtocol(Protocol):
    """One game, one serialized writer; thread-safe for any number of callers."""

    def submit(self, command: Command | JSON, source: Source,
               expect_version: int | None = None) -> Outcome:
        """Queue a command, a typed record or its JSON form, and wait until it is journaled
        (or refused).

        expect_version: refuse with code "stale_version" unless it equals the current version.
        """
        ...

    def state(self) -> JSON:
        """The public state JSON (docs/state-json.md), including "legal"."""
        ...

    def now(self) -> float:
        """The wall clock the table's clocks run on (epoch seconds)."""
        ...

    def table(self) -> TableView:
        """The typed view of the table (companion.game.table.view): whose turn, what each
        person is asked, the offers, the clocks, what each button sends now."""
        ...

    def undo(self, source: Source) -> Outcome:
        """Undo the last command (journaled itself); device-rolled dice are never re-rolled."""
        ...

    def redo(self, source: Source) -> Outcome:
        """Redo the last undone command."""
        ...

    def undo_to(self, seq: int, source: Source, expect_version: int | None = None) -> Outcome:
        """The banker's "undo to here": back to just after history line `seq` in one
        journaled step, undone and redone whole (docs/session.md)."""
        ...

    def undo_to_plan(self, seq: int) -> JSON:
        """What `undo_to(seq)` would take back: {"seq", "taken": [entries, newest first,
        each with "device"]}, or the refusal's {"code", "message", "params"}."""
        ...

    def story(self) -> Story | None:
        """The story of the game in play (the companion.game.telling.story.Story record; its
        JSON is only the saved file's), or None."""
        ...

    def set_teaching(self, on: bool, source: Source) -> Outcome:
        """Switch the teaching table (lessons the first time a rule applies) on or off for
        this game; only with the banker's authority."""
        ...

    def undo_target(self) -> JSON | None:
        """What an undo would take back now: the journal entry of that command (seq, time,
        kind, source, command, events, version, as `history` gives it), or None when there
        is nothing to undo. Read-only: for asking "Undo: Ann bought ...?" first."""
        ...

    def undo_refusal(self, source: Source) -> JSON | None:
        """Why an undo by `source` would be refused now ({"code", "message", "params"}), or
        None: a result seen is a result kept (companion.game.authority's UNDO_RIGHTS)."""
        ...

    def history(self, player: str | None = None, limit: int = 200,
                before: int | None = None) -> list[JSON]:
        """Journal entries, newest last: seq, time, source, command, events; with
        `before`, only those older than that seq."""
        ...

    def news(self, player: str) -> list[JSON]:
        """The news items of `player` not seen yet, newest first: {"key", "seq", "event"}
        (companion.game.telling.seen)."""
        ...

    def news_summary(self, player: str) -> tuple[int, str | None, str | None]:
        """Of `player`'s unseen news: how many, the newest item's key and the oldest's (what
        a Me page's news part changes with), without listing them."""
        ...

    def mark_seen(self, keys: Any, source: Source) -> Outcome:
        """The player of `source` saw these news items on their own phone (refused as a
        whole unless each key is news of theirs not seen yet; not a move)."""
        ...

    def me_facts(self, players: Sequence[str]) -> MeFacts:
        """Of each of `players` at once: their unseen news (`news_summary`) and whether
        their own phone may undo the last move now (`undo_refusal`), each as the
        per-player question answers it, from one read of the news and the undo stack."""
        ...

    def add_listener(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        """Call back (on the listeners' thread, after the change was answered; keep it
        short) after each change; returns remove()."""
        ...

    def lead(self, callback: Callable[[Update], Hold | None]) -> Callable[[], None]:
        """Tell `callback` of each change first, on the writer's thread as soon as it is
        journaled (it must never block: queue the update, wake a loop); the `Hold` it may
        hand back holds the followers and the other listeners until its frame shows the
        change (docs/session.md). Returns remove()."""
        ...

    def follow(self, callback: Callable[[Standing], None]) -> Callable[[], None]:
        """Tell `callback` where the game stands now, then after each change, on the
        writer's thread before the change is answered (it must be cheap and never block:
        append to a list, hand over to a thread); a game switched to is told `fresh`.
        When a leading listener holds the change for its frame (`lead`) and the change is
        that listener's own, the followers are told after that frame (bounded), before the
        next change and before any other listener. Returns remove()."""
        ...

    def standings_since(self, version: int) -> list[Standing]:
        """Where the players stood at each version after `version`, up to the version in
        force, made again from the journal (at most the last 5 000): what a follower's
        record lost to a power cut (the net-worth chart's lines are not synced one by one,
        issue 28). [] when `version` is not behind, or the journal cannot say."""
        ...

    def keep_offers(self, offers: OfferStore) -> None:
        """Keep the table's open offers with this game: the writer lapses them with every
        change before anyone sees it (companion.game.table.offers)."""
        ...
