"""A small in-memory game session implementing GameSessionProtocol, for the phone remote tests.

It applies commands through companion.game.applying.apply_command under one lock, keeps undo/redo
stacks and a journal, and calls listeners after each change, like the real session.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.game.api import JSON, MeFacts, Outcome, Source, Standing, Update
from companion.game.applying import apply_command, state_json
from companion.game.authority import as_json
from companion.game.table.offers import Facts, OfferStore
from companion.game.table.view import TableView, build
from companion.game.telling.news import auction_clock, auction_key, card_from_entries
from companion.game.telling.seen import (
    MarkRefused,
    SeenNews,
    check_marks,
    move_news,
    news_items,
)
from companion.rules import Accepted, Command, GameState


def _mentions(entry: JSON, player: str) -> bool:
    command = entry["command"]
    if player in (command.get("by"), command.get("from"), command.get("to")):
        return True
    for event in entry["events"]:
        if player in (event.get("player"), event.get("from"), event.get("to")):
            return True
    return False


class FakeSession:
    """One game in memory; thread-safe; versions only ever grow (undo bumps them too)."""

    def __init__(self, players: tuple[str, ...] = ("Ann", "Bo", "Cy"), seed: int = 1,
                 options: dict[str, Any] | None = None) -> None:
        self._lock = threading.RLock()
        self._state: GameState | None = None
        self._undo: list[tuple[GameState | None, int]] = []
        self._redo: list[tuple[GameState, int]] = []
        self._journal: list[JSON] = []
        self._listeners: list[Callable[[Update], None]] = []
        self._followers: list[Callable[[Standing], None]] = []
        self._top_version = 0
        #: the open auction and when its clock started, as the real session keeps it
        self._auction: tuple[Any, float] = (None, 0.0)
        self.submitted = 0
        self._seen = SeenNews(None)  # the news marks, in memory
        self._offers: OfferStore | None = None  # lapsed by this writer, as the real one
        if players:
            out = self.submit({"do": "new_game", "edition": "classic-eur",
                               "players": list(players), "seed": seed,
                               # a table that rolls its own dice: tests type them in
                               "options": {"physical_dice": True, **(options or {})}},
                              Source(kind="script", banker=True))
            assert out.accepted, out

    def table(self) -> TableView:
        """The typed view of the table, as GameSession builds it."""
        return build(self.state(), self._offers.open() if self._offers is not None else ())

    def keep_offers(self, offers: OfferStore) -> None:
        """Keep the table's open offers, lapsed with each change (as GameSession does)."""
        offers.follow(Facts.of_state(self._state) if self._state is not None else None)
        self._offers = offers

    @property
    def version(self) -> int:
        """The current version (0 before any game)."""
        return self._state.version if self._state is not None else 0

    def _commit(self, state: GameState | None, command: JSON, events: list[JSON],
                source: Source, kind: str = "command", target: int | None = None) -> Outcome:
        if state is not None:
            self._top_version = max(self._top_version + 1, state.version)
            state.version = self._top_version
        self._state = state
        self._journal.append({"seq": len(self._journal) + 1, "time": time.time(),
                              "kind": kind, "target": target,
                              "source": {"kind": source.kind, "player": source.player,
                                         "banker": source.banker},
                              "command": command, "events": events})
        version = self.version
        key = auction_key(state)
        if key != self._auction[0]:
            self._auction = (key, time.time())
        if state is not None and self._offers is not None:
            self._offers.lapse(Facts.of_state(state), events)
        standing = self._standing(any(e.get("kind") == "game_started" for e in events))
        for follower in list(self._followers):  # the writer's, before the answer
            follower(standing)
        if state is not None:
            update = Update(version, self._public(state), events, source)
            for listener in list(self._listeners):
                listener(update)
        return Outcome(True, version, events)

    def submit(self, command: Command | JSON, source: Source,
               expect_version: int | None = None) -> Outcome:
        """Apply a command now (this is the writer) and tell the listeners."""
        with self._lock:
            self.submitted += 1
            if expect_version is not None and expect_version != self.version:
                return Outcome(False, self.version, code="stale_version",
                               message=f"the table is at version {self.version}")
            result = apply_command(self._state, command)
            if not isinstance(result, Accepted):
                return Outcome(False, self.version, code=result.code.value,
                               message=result.message)
            self._undo.append((self._state, len(self._journal) + 1))
            self._redo.clear()
            return self._commit(result.state.copy(), dict(as_json(command)),
                                result.events_json(), source)

    def now(self) -> float:
        """The wall clock, as the real session's default."""
        return time.time()

    def state(self) -> JSON:
        """The public state JSON with "legal"."""
        with self._lock:
            if self._state is None:
                return {"version": 0, "players": [], "squares": [], "legal": []}
            return self._public(self._state)

    def _public(self, state: GameState) -> JSON:
        """The state JSON with the session's news: the card and the auction clock."""
        # the fake's own reading of its journal (not the `history` a test may be counting)
        news = card_from_entries(FakeSession.history(self, None, 60))
        out = {**state_json(state), "card_news": news}
        if self._auction[0] is not None:
            out["auction_clock"] = auction_clock(self._auction[1], time.time())
        return out

    def undo(self, source: Source) -> Outcome:
        """Go back one command."""
        with self._lock:
            if len(self._undo) <= 1:
                return Outcome(False, self.version, code="nothing_to_undo",
                               message="nothing to undo")
            owner = self._journal[self._undo[-1][1] - 1]["source"]
            if not source.banker and (source.player is None or owner["player"] != source.player):
                return Outcome(False, self.version, code="not_allowed",  # as the real session
                               message="only the banker or whoever sent it can undo that")
            previous, seq = self._undo.pop()
            assert self._state is not None
            self._redo.append((self._state, seq))
            restored = previous.copy() if previous is not None else None
            command = self._journal[seq - 1]["command"]
            return self._commit(restored, command, [{"kind": "undone", "seq": seq}], source,
                                "undo", seq)

    def set_teaching(self, on: bool, source: Source) -> Outcome:
        """The teaching table switched (a fake keeps no lessons)."""
        self.teaching = on
        return Outcome(source.banker, self.version)

    def undo_target(self) -> JSON | None:
        """The journal entry an undo would take back (None: nothing to undo)."""
        with self._lock:
            if len(self._undo) <= 1:
                return None
            return {**self._journal[self._undo[-1][1] - 1], "undone": False}

    def undo_refusal(self, source: Source) -> JSON | None:
        """Why an undo would be refused: a fake refuses only when there is nothing to undo
        (the real session's rules: tests/test_moves_kept.py)."""
        if self.undo_target() is None:
            return {"code": "nothing_to_undo", "message": "there is nothing to undo",
                    "params": {}}
        return None

    def redo(self, source: Source) -> Outcome:
        """Redo the last undone command."""
        with self._lock:
            if not self._redo:
                return Outcome(False, self.version, code="nothing_to_redo",
                               message="nothing to redo")
            state, seq = self._redo.pop()
            self._undo.append((self._state, seq))
            command = self._journal[seq - 1]["command"]
            return self._commit(state.copy(), command, [{"kind": "redone", "seq": seq}], source,
                                "redo", seq)

    def history(self, player: str | None = None, limit: int = 200,
                before: int | None = None) -> list[JSON]:
        """Journal entries, newest last (with "undone"), optionally those involving a player
        and those older than `before`."""
        with self._lock:
            undone: set[int] = set()
            for e in self._journal:
                if e["kind"] == "undo":
                    undone.add(e["target"])
                elif e["kind"] == "redo":
                    undone.discard(e["target"])
            entries = [{**e, "undone": e["kind"] == "command" and e["seq"] in undone}
                       for e in self._journal if (player is None or _mentions(e, player))
                       and (before is None or e["seq"] < before)]
            return entries[-limit:] if limit > 0 else []

    def _news_items(self, player: str) -> list[JSON]:
        with self._lock:
            moves = [move_news(seq, self._journal[seq - 1]["events"]) for _state, seq in self._undo]
        return news_items(moves).get(player, [])

    def news(self, player: str) -> list[JSON]:
        """The player's news items not seen yet, newest first, as the real session."""
        seen = self._seen.seen(player)
        return [i for i in reversed(self._news_items(player)) if i["key"] not in seen]

    def news_summary(self, player: str) -> tuple[int, str | None, str | None]:
        """How many unseen items, the newest's key and the oldest's, as the real session."""
        items = self.news(player)
        return (len(items), items[0]["key"], items[-1]["key"]) if items else (0, None, None)

    def me_facts(self, players: Sequence[str]) -> MeFacts:
        """Each player's news summary and who may undo, from the per-player questions."""
        return MeFacts({p: self.news_summary(p) for p in players},
                       frozenset(p for p in players
                                 if self.undo_refusal(Source("phone", player=p)) is None))

    def mark_seen(self, keys: Any, source: Source) -> Outcome:
        """Mark news items seen for the source's player, as the real session."""
        if source.player is None or source.kind != "phone":
            return Outcome(False, self.version, code="not_a_player", message="not a player")
        checked = check_marks(keys, self._news_items(source.player),
                              self._seen.seen(source.player))
        if isinstance(checked, MarkRefused):
            return Outcome(False, self.version, code=checked.code, message=checked.message,
                           params=checked.params)
        self._seen.mark(source.player, checked)
        return Outcome(True, self.version)

    def _standing(self, fresh: bool = False) -> Standing:
        return Standing.of(self._state, self.version, fresh)

    def standings_since(self, version: int) -> list[Standing]:
        """Nothing made again: this stand-in keeps no journal to replay."""
        return []

    def follow(self, callback: Callable[[Standing], None]) -> Callable[[], None]:
        """Tell `callback` the standing now, then after each change (as GameSession)."""
        with self._lock:
            self._followers.append(callback)
            callback(self._standing())

        def remove() -> None:
            with self._lock:
                if callback in self._followers:
                    self._followers.remove(callback)

        return remove

    def lead(self, callback: Callable[[Update], object]) -> Callable[[], None]:
        """Register a leading listener (the screen's): told before the others; this fake
        tells them all on the submitter's thread, so a hold it hands back is not waited
        for (the screen's own frame comes after its press returns)."""
        def told(update: Update) -> None:
            callback(update)

        with self._lock:
            self._listeners.insert(0, told)

        def remove() -> None:
            with self._lock:
                if told in self._listeners:
                    self._listeners.remove(told)

        return remove

    def add_listener(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        """Register a callback; returns its remover."""
        with self._lock:
            self._listeners.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return remove


# --- a phone, driving the Flask test client -----------------------------------------------

ORIGIN = "http://localhost"


class Phone:
    """A Flask test client that joins like a phone and posts like the page's script."""

    def __init__(self, app: Any) -> None:
        from web_remote import join_url

        self.app = app
        self.client = app.test_client()
        self.csrf = ""
        self._join_url = join_url

    def join(self, who: str, pin: str = "") -> Any:
        """Scan a fresh code and pick `who` ("player:Ann", "spectator", "banker")."""
        url = self._join_url(self.app, ORIGIN, fresh=True).removeprefix(ORIGIN)
        page = self.client.get(url)
        assert page.status_code == 200, page.data
        self.csrf = page_csrf(page.get_data(as_text=True))
        resp = self.client.post(url, data={"who": who, "pin": pin, "csrf_token": self.csrf},
                                headers={"Origin": ORIGIN})
        if resp.status_code == 302:
            self.refresh_csrf()
        return resp

    def refresh_csrf(self) -> None:
        """Read the CSRF token from a page, as the script does."""
        self.csrf = page_csrf(self.client.get("/", follow_redirects=True).get_data(as_text=True))

    def post(self, path: str, body: Any, csrf: str | None = None,
             origin: str | None = ORIGIN) -> Any:
        """POST JSON with the CSRF header and Origin (overridable to test refusals)."""
        headers = {"X-CSRF-Token": self.csrf if csrf is None else csrf}
        if origin is not None:
            headers["Origin"] = origin
        return self.client.post(path, json=body, headers=headers)

    def command(self, command: Any, version: int | None = None) -> Any:
        """Submit a command against the current (or a given) version."""
        if version is None:
            version = self.client.get("/api/state").get_json()["version"]
        return self.post("/api/commands", {"command": command, "version": version})


def page_csrf(html: str) -> str:
    marker = 'name="csrf-token" content="'
    start = html.index(marker) + len(marker)
    return html[start:html.index('"', start)]


def open_real_session(data_dir: Any, players: tuple[str, ...] = ("Ann", "Bo", "Cy"),
                      seed: int = 3, edition: str = "classic-eur",
                      options: JSON | None = None) -> Any:
    """The real journaled GameSession in `data_dir`, with a new game started (with these
    rule options: the table's own dice, `{"physical_dice": True}`, and the like)."""
    from companion.game.session import GameSession

    session = GameSession.open(data_dir)
    out = session.submit({"do": "new_game", "edition": edition, "players": list(players),
                          "seed": seed, **({"options": options} if options else {})},
                         Source(kind="script", banker=True))
    assert out.accepted, out
    return session


#: the table's own commands (physical dice, the banker's script), with the banker's authority
TABLE = Source(kind="script", banker=True)


def play(game: Any, *commands: JSON) -> None:
    """Submit commands from the table; each must be accepted."""
    for command in commands:
        out = game.submit(command, TABLE)
        assert out.accepted, (command, out)


def joined(app: Any, who: str) -> Phone:
    """A phone that joined as the banker ("banker", PIN 2468) or as the named player."""
    phone = Phone(app)
    if who == "banker":
        phone.join("banker", pin="2468")
    else:
        phone.join(f"player:{who}")
    return phone


def text(resp: Any) -> str:
    """A page's HTML, which must have come with 200."""
    assert resp.status_code == 200, resp.status_code
    return str(resp.get_data(as_text=True))
