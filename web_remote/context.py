"""What every view of the remote shares: the `Remote` of the app serving a request, who holds
the phone asking (`identity`), its refusals, and the typed `TableHooks` the companion hands
the remote. The app factory and the views both import it; it imports neither.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

from flask import Response, current_app, g, jsonify, render_template, request, session

from companion.game.api import JSON, GameSessionProtocol, Outcome, Source, Update
from companion.game.pins import PinGuard, PinWarning
from companion.game.table.offers import OfferStore
from companion.game.table.records import Turn
from companion.game.table.view import (
    TableView,
    build,
    names_the_moves,
    whose_moves_changed,
)
from companion.words.table_language import TableLanguage
from web_remote import i18n
from web_remote.guard import Identity
from web_remote.hub import Hub, state_change
from web_remote.i18n import _
from web_remote.present import changes_history
from web_remote.security import JoinCodes, RateLimiter, Seats, new_token
from web_remote.store import Persister
from web_remote.worth import WorthRecorder


class SavedGames(Protocol):
    """The saved games the banker may resume (companion.game.switch.SessionHolder)."""

    def list(self) -> list[JSON]:
        """[{"id", "name", "players", "edition", "last_played", "current"}]."""

    def resume(self, game_id: str) -> object:
        """Switch to that game; raises an error with a `code` when it cannot."""


class TagList(Protocol):
    """The RFID tags the banker registers by hand."""

    def list(self, lang: str) -> list[JSON]:
        """[{"tag", "meaning"}], each meaning in `lang`'s words."""

    def register(self, tag: str, meaning: str) -> object:
        """Give a tag its meaning; ValueError when the meaning is not understood."""


class CardRegistration(Protocol):
    """The guided card registration (companion.inputs.registrar.Registrar)."""

    def status(self, lang: str) -> JSON:
        """The run as it stands, names in `lang`."""

    def start(self, kind: str) -> object:
        """Start registering the cards of one kind."""

    def confirm(self, yes: bool) -> object:
        """Answer whether to move a card already registered."""

    def skip(self) -> object:
        """Skip this card."""

    def back(self) -> object:
        """Go back one card."""

    def cancel(self) -> object:
        """Stop the run."""

    def add_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Be told whenever the run moves on; returns the remover."""


@dataclass(frozen=True)
class TableHooks:
    """What the companion hands the remote besides the session; each part is optional.

    on_join: a join link was spent, by a phone that joined (True) or by a wrong banker PIN
    (False): the screen shows the next one, and says a phone joined only when one did;
    games / new_game_file: the banker's saved games, and starting a new game in a new file;
    tags / registration: the card reader's tags and guided registration;
    pin_guard: the table's one banker PIN guard, shared with the screen (companion.game.pins;
    None: the remote makes its own over `<data_dir>/web/banker.json`);
    on_pin_warning: wrong banker PINs were typed (the screen may warn the banker);
    offers: the table's one store of open offers (companion.game.table.offers), which the
    screen, a headless table and the card readers read too (None: the remote keeps its own
    over `<data_dir>/web/proposals.json`);
    pace_writes: called on the remote's file writer before it writes (the net-worth chart's
    lines, the offers): the table screen returns once its frame with the game's version is
    flipped, bounded (None: written at once; web_remote.store.Persister)."""

    on_join: Callable[[bool], None] | None = None
    games: SavedGames | None = None
    new_game_file: Callable[[JSON, Source], Outcome] | None = None
    tags: TagList | None = None
    registration: CardRegistration | None = None
    pin_guard: PinGuard | None = None
    on_pin_warning: Callable[[PinWarning], None] | None = None
    offers: OfferStore | None = None
    pace_writes: Callable[[], None] | None = None


#: the parts of the state no Me page shows (the dice are on the Table page)
UNSEEN_ON_ME = frozenset({"version", "dice"})
#: the parts of the turn a Me page shows only as its headline's "roll again" (doubles
#: rolled and the roll still owed, companion.words.news.headline) and through the players'
#: own moves (judged player by player): a roll without doubles changes no other player's page
TURN_SHOWN_AS_ROLL_AGAIN = frozenset({"rolled", "must_roll", "doubles", "number"})
#: the parts of the state the Rules page shows (the edition's book, the options in force)
RULES_READ = frozenset({"options", "edition"})
#: the pages whose change the stream judges ("pages"; the Me page by its player, "me");
#: any other page reads its live part again whenever the version changed
JUDGED_PAGES = ("table", "history", "worth", "rules")


@dataclass
class Remote:
    """Everything the views share: the session, the hooks and the remote's own stores."""

    #: the game; a move is answered once journaled, and what a page reads next was made
    #: by the session's writer before that answer (the offers' lapse, the chart's sample)
    session: GameSessionProtocol
    data_dir: Path
    config: dict[str, Any]
    hooks: TableHooks
    hub: Hub
    joins: JoinCodes
    pin: PinGuard
    seats: Seats
    proposals: OfferStore
    worth: WorthRecorder
    limiter: RateLimiter
    persister: Persister
    #: the table's one language (companion.words.table_language), the screen's too
    table_language: TableLanguage
    cleanup: list[Callable[[], None]] = field(default_factory=list)
    #: renders and sends each stream's live part after a move (web_remote.parts.PartPusher;
    #: None: the pages read their parts themselves)
    parts: Any = None
    #: the version and state JSON the phones' streams were last told of (the listener's
    #: alone: what the next update's pages are judged against)
    sent: tuple[int, JSON] | None = None
    #: the offers' generation the phones were last told of
    _offers_told: int = 0
    #: each player's unseen news keys, and who may undo the last move with their Me page's
    #: button, as the last update left them (the listener's alone: `_me_changed`)
    _news: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    _undoers: frozenset[str] = frozenset()
    #: the table's hardware warnings shown now (companion.power: under-voltage, heat), by
    #: code, with their English; replaced whole, so a request reads it without a lock
    warnings: dict[str, str] = field(default_factory=dict)

    def post_warning(self, code: str, source: str, message: str, active: bool = True) -> None:
        """A table warning starts (`active`) or ends, as the screen is told of it (its
        post_warning; `source` says who warns): every phone's page shows it (app.js, on the
        stream's "warnings"), a page opened later with it."""
        shown = dict(self.warnings)
        if active:
            shown[code] = message
        else:
            shown.pop(code, None)
        if shown != self.warnings:
            self.warnings = shown
            self.hub.publish("warnings", {"shown": sorted(shown)})

    def on_update(self, update: Update) -> None:
        """The session's listener (its listeners' thread, after the move was answered):
        tell every phone's stream which pages the move changed; never block. Nothing a page
        reads waits for it: the session's writer lapsed the offers and gave the chart its
        sample before it answered the move."""
        fresh = any(e.get("kind") in ("game_started", "game_switched") for e in update.events)
        state = update.state  # read once: each read adds the clocks as they stand
        if self.proposals.generation != self._offers_told:
            self._offers_told = self.proposals.generation
            self.hub.publish("trades", {"version": update.version})
        if self.hub.count:
            told = self._told(update, state, fresh)
            self.hub.publish("state", told, ident=update.version)
            if self.parts is not None:
                self.parts.told(update.version, told)
        else:  # nobody follows: what the next change is told against
            self.sent = (update.version, state)
            self._me_changed(state, [])

    def _told(self, update: Update, state: JSON, fresh: bool) -> JSON:
        """What every phone's stream is told of this update, once for all of them: which
        pages changed since the version told before ("from"): "pages", the shared pages
        among `JUDGED_PAGES` that changed, and "me", the players whose Me page may show
        something new (None: anybody's). A page showing version "from" reads its live part
        again only when it is named; any other reads it again. After a game dealt or
        switched to, "game" (every page reads again, whatever version it shows); after a
        gap in the versions, the version alone. docs/phone-remote.md."""
        before, self.sent = self.sent, (update.version, state)
        if fresh:
            self._me_changed(state, [])
            return {"version": update.version, "game": True}
        if before is None or before[0] != update.version - 1:
            self._me_changed(state, [])
            return {"version": update.version}
        change = state_change(before[1], state)
        pages = ["table"]  # its list of the latest moves has this one
        if changes_history(update.events):
            pages.append("history")
        if self.table(state).players:  # the chart has a sample of every version
            pages.append("worth")
        if any(not step[0] or step[0][0] in RULES_READ for step in change):
            pages.append("rules")
        return {"version": update.version, "from": before[0], "pages": pages,
                "me": self._me_changed(state, change, before[1])}

    def _me_changed(self, state: JSON, change: list[Any],
                    before: JSON | None = None) -> list[str] | None:
        """The players whose Me page may show something new at this version, None for
        anybody's: a change of the state beyond some players' own entries (their cash, their
        square...) may touch every page, but for the turn's parts every page shows only as
        "roll again" (`TURN_SHOWN_AS_ROLL_AGAIN`: only when that changes); else the pages
        of those players, of players whose unseen news changed, and of the players whose
        own move the undo button takes back, before and after. A phone on another player's
        Me page keeps it (app.js); tests/test_web_me_changed.py renders every page to hold
        this to account."""
        players = self.table(state).names()
        touched: set[str] = set()
        anybody = moved = turned = False
        for step in change:
            path = step[0]
            if path and path[0] in UNSEEN_ON_ME:
                continue
            if len(path) == 2 and path[0] == "turn" and path[1] in TURN_SHOWN_AS_ROLL_AGAIN \
                    and before is not None:
                turned = True  # every headline's "roll again": below
                continue
            if names_the_moves(path) and before is not None:
                moved = True  # the players whose own moves changed: below
                continue
            if len(path) >= 3 and path[0] == "players" and isinstance(path[1], int) \
                    and path[2] not in ("name", "bankrupt") and path[1] < len(players):
                touched.add(players[path[1]])
                continue
            anybody = True
        if moved and before is not None:
            touched |= whose_moves_changed(before, state, players)
        if turned and before is not None \
                and Turn.of(before).roll_again != Turn.of(state).roll_again:
            anybody = True
        # every player's unseen news, and whose Me page offers "Undo my last move", before
        # and after (its sender, and a player it paid: a result seen is kept, theirs to
        # give back): asked of the session once for all of them
        facts = self.session.me_facts(players)
        news = facts.news
        touched.update(p for p, keys in news.items() if self._news.get(p) != keys)
        self._news = news
        touched.update(self._undoers | facts.undoers)
        self._undoers = facts.undoers
        return None if anybody else sorted(touched)

    def table(self, state: JSON) -> TableView:
        """The session's view of the table for the state a page shows: the session's own
        when it is of that version (built once per version for every phone), else that
        state's as the table layer builds it (a move landed between the two reads)."""
        view = self.session.table()
        if view.version == int(state.get("version") or 0):
            return view
        return build(state, self.proposals.open())

    def close(self) -> None:
        """Stop listening and end every live stream."""
        for remove in self.cleanup:
            remove()
        self.cleanup.clear()
        if self.parts is not None:
            self.parts.close()
        self.hub.close()
        self.persister.stop()


def remote() -> Remote:
    """The Remote of the app serving this request."""
    r: Remote = current_app.extensions["web_remote"]
    return r


def identity() -> Identity | None:
    """Who holds the phone making this request (None: not joined, or signed out).

    Checked on every request against what the server keeps: a player's phone must still
    hold the seat (the banker may have released it), and a banker cookie must be of the
    banker sessions' generation now (locking a banker phone or changing the PIN ends the
    others)."""
    return identity_of(session, remote())


_UNSEEN = object()


def asker() -> Identity | None:
    """Who holds the phone making this request: as the app's request hook found it for this
    request (`g.who`, `settle_asker`), while the request left the phone's cookie as it was;
    else worked out now (`identity`: a phone that just joined or unlocked the banker)."""
    who = g.get("who", _UNSEEN)
    if who is _UNSEEN or session.modified:
        return identity()
    return cast(Identity | None, who)


def settle_asker() -> None:
    """Who is asking and in which language, on `g` for the views (`g.who`, `g.lang`), as a
    request's `_before` hook works them out: for an answer made outside Flask's own request
    handling (the move's own path's refusals, a live part sent on a stream)."""
    r = remote()
    g.lang = i18n.pick_language(r.table_language.spoken, r.config["default_language"])
    g.who = identity()


def identity_of(held: Mapping[str, Any], r: Remote) -> Identity | None:
    """`identity` from what a phone's cookie holds (`held`), for the remote `r`: the one
    reading of a cookie, which the move's own path (web_remote.app.MoveFastPath) shares."""
    role = held.get("role")
    if role not in ("player", "spectator", "banker"):
        return None
    device = str(held.get("dev", ""))
    player = held.get("player")
    player = player if isinstance(player, str) else None
    if player is not None and not r.seats.holds(player, device):
        return None
    banker = bool(held.get("banker")) and held.get("bgen") == r.pin.store.generation
    if role == "banker" and not banker:
        role = "spectator"
    return Identity(role=role, player=player, banker=banker, device=device)


def make_banker(generation: int | None = None) -> None:
    """This phone is the banker, of the banker sessions' generation now (or `generation`)."""
    session["banker"] = True
    session["bgen"] = remote().pin.store.generation if generation is None else generation


def csrf_token() -> str:
    """This phone's CSRF token (created with its cookie)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = new_token()
        session["csrf"] = token
        session.setdefault("dev", secrets.token_urlsafe(9))
    return token


def wants_json() -> bool:
    """API routes answer in JSON, pages in HTML; a page's script sending a form asks for
    JSON (`Accept: application/json`) to say a refusal beside the form."""
    if request.path.startswith("/api/"):
        return True
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == \
        "application/json"


def refuse(code: str, message: str, status: int, english: str | None = None,
           **extra: Any) -> Response:
    """A refusal as JSON (API) or a small page. `message` is in the phone's language; the
    JSON keeps the English one as `message_en` for logs (`english`, else the source text a
    translated message remembers, else the message itself), and any `extra` fields."""
    if wants_json():
        message_en = english or getattr(message, "english", None) or str(message)
        resp = jsonify({"ok": False, "code": code, "message": str(message),
                        "message_en": message_en, **extra})
    else:
        resp = Response(render_template("error.html", code=code, message=message),
                        mimetype="text/html")
    resp.status_code = status
    return resp


def banker_only() -> Response | None:
    """The refusal for a request that needs the banker's phone (None: it is the banker's)."""
    who = identity()
    if who is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    if not who.banker:
        return refuse("banker_only", _("Only the banker can do that."), 403)
    return None
