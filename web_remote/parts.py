"""A phone's live part sent on its stream: after a move the page's new live part reaches the
phone with the news, where it used to be told only which pages changed and then ask for its
part again (`GET /me?partial=1`), one request per phone and move.

A page that shows a live part (the Me, Table, History, Net worth and Rules pages) opens its
stream with `?part=` its own address (web_remote/static/app.js). After every move the
pusher judges, for each such stream, whether its page changed, by the very rule the page
applies to the stream's "state" event (`unchanged`: the pages and players the move names),
and renders the part of each page that did as its phone would have read it: the phone's own
cookie, the same view, the same checks of who is asking (a seat released since, a banker
PIN changed: the part shows what that phone may see now, never more). The Table, History,
Worth and Rules parts are rendered once per state for every phone (views/shared.py), and
the same bytes are one message for all of them. On a Pi Zero 2 W a page read cost about as
much in the HTTP server and Flask's request handling as in drawing the page (issue 28,
docs/bench.md); here only the drawing is left.

The pusher is one thread of the remote's, started by the first stream that asks for parts;
moves that come while it renders are judged together and the pages rendered once, at the
newest state. The page still reads its part itself when no part comes (app.js: a stream
without parts, a part that does not come in time, the trades and news events).
"""

from __future__ import annotations

import html
import io
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import Flask
from flask.ctx import RequestContext
from werkzeug.http import parse_cookie

from web_remote.context import JUDGED_PAGES, Remote, identity_of, settle_asker
from web_remote.hub import Client, Hub, Message, wake_all
from web_remote.part_change import change, units

log = logging.getLogger(__name__)

JSON = dict[str, Any]

#: the pages whose live part a stream may carry, by their address: the view that draws it
PART_VIEWS = {"/me": "pages.me", "/table": "pages.table", "/history": "pages.history",
              "/worth": "pages.worth", "/rules": "pages.rules"}
#: the longest `?part=` address taken (a page's own address is short)
PART_MAX = 300
#: the stream request's environ keys a part's rendering keeps: who is asking (the cookie,
#: the address) and how the table was reached (its links); nothing of the stream's own
KEPT_ENVIRON = ("HTTP_COOKIE", "HTTP_HOST", "HTTP_ACCEPT_LANGUAGE", "REMOTE_ADDR",
                "REMOTE_PORT", "SERVER_NAME", "SERVER_PORT", "SERVER_PROTOCOL",
                "wsgi.url_scheme", "SCRIPT_NAME")

#: the spectators' pages (address and query) rendered per move at most: their streams ask
#: for any page and filter (a laptop's many streams, each its own History filter), and a
#: page past these is read by its phone, under the rate limit of every read
SPECTATOR_PAGES = 8
#: how long the pusher waits for the phones' streams to be told of a move before it
#: renders their parts anyway (s)
WRITTEN_WAIT_S = 0.25

_PART_TAG = re.compile(r'<div class="part[^"]*" data-version="(\d+)"([^>]*)>')
_PLAYER = re.compile(r'data-player="([^"]*)"')


@dataclass
class Part:
    """What one stream's page shows: its address, the environ its part is rendered in,
    and, as far as the pusher knows, the version and player (a Me page's) it shows."""

    page: str  # "me", "table", "history", "worth", "rules"
    endpoint: str
    environ: dict[str, Any]
    shown: int | None
    player: str | None = None
    #: the part this stream sent last, whole, as UTF-16 units: the next is sent as a change
    #: of it (web_remote.part_change; None: none sent yet on this stream)
    sent: bytes | None = None
    #: the request its parts are rendered in, made once per stream (the stream's cookie,
    #: read and checked once, its address routed once) and pushed for every part: who
    #: is asking is worked out again at every push (`settle_asker`: the seats, the banker
    #: sessions' generation), in a fresh application context (`g`)
    context: RequestContext | None = None


def part_of(address: str, environ: dict[str, Any], shown: str | None) -> Part | None:
    """The part a stream asked for with `?part=address` (a page's own address, as its
    live part's `data-partial` says it) from the stream request's `environ`; None when the
    address is not one whose part a stream carries (the stream is then a plain one)."""
    if not address or len(address) > PART_MAX:
        return None
    split = urlsplit(address)
    endpoint = PART_VIEWS.get(split.path)
    if endpoint is None or split.scheme or split.netloc:
        return None
    query = [(k, v) for k, v in parse_qsl(split.query, keep_blank_values=True)
             if k != "partial"]
    kept = {k: environ[k] for k in KEPT_ENVIRON if k in environ}
    kept.update({"REQUEST_METHOD": "GET", "PATH_INFO": split.path,
                 "QUERY_STRING": urlencode([*query, ("partial", "1")]),
                 "wsgi.input": io.BytesIO(b""), "wsgi.errors": environ.get("wsgi.errors"),
                 "wsgi.version": (1, 0), "wsgi.multithread": True,
                 "wsgi.multiprocess": False, "wsgi.run_once": False})
    seen = int(shown) if shown is not None and shown.isdigit() else None
    return Part(split.path[1:], endpoint, kept, seen)


def shown_in(text: str) -> tuple[int | None, str | None]:
    """The version a live part shows and its player (a Me page's; None: none), read from
    its first `<div class="part" ...>` as app.js reads them."""
    found = _PART_TAG.search(text)
    if found is None:
        return None, None
    player = _PLAYER.search(found.group(2))
    name = html.unescape(player.group(1)) if player is not None else None
    return int(found.group(1)), name or None


def unchanged(told: JSON, part: Part) -> bool:
    """Whether a page showing `part` keeps it after the stream's "state" event `told`: the
    rule of app.js's `unchangedHere`, which the page applies to the same event."""
    pages = told.get("pages")
    if not isinstance(pages, list) or told.get("from") != part.shown:
        return False
    if part.page in JUDGED_PAGES:
        return part.page not in pages
    if part.page == "me":
        named = told.get("me")
        return part.player is not None and isinstance(named, list) \
            and part.player not in named
    return False


class PartPusher:
    """Renders the live part of every stream that asks for it (`follow`) after each move
    (`told`), on a thread of its own, and queues it on that stream."""

    def __init__(self, app: Flask, remote: Remote, hub: Hub) -> None:
        self._app = app
        self._remote = remote
        self._hub = hub
        self._cond = threading.Condition()
        self._told: list[tuple[int, JSON]] = []  # (version, what the streams were told)
        self._fresh: list[tuple[Client, int]] = []  # new streams, the table's version then
        self._thread: threading.Thread | None = None
        self._stopped = False
        #: live parts rendered, and queued on streams: the tests count them
        self.rendered = 0
        self.sent = 0
        self._through = 0  # the newest version whose parts were sent (`caught_up`)

    def follow(self, client: Client, part: Part) -> None:
        """The stream `client` carries its page's part from now on: sent at once when the
        page shows another version than the table's now."""
        client.part = part
        now = self._remote.session.table().version  # what the page is judged against
        with self._cond:
            if self._stopped:
                return
            self._fresh.append((client, now))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="web-parts",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def told(self, version: int, payload: JSON) -> None:
        """Every phone's stream was told `payload` (Remote._told's) of `version`: judge and
        render the parts after it (never blocks; nothing to do while no stream asked for
        parts)."""
        with self._cond:
            if self._thread is None or self._stopped:
                return
            self._told.append((version, payload))
            self._cond.notify_all()

    def close(self) -> None:
        """Stop the thread (the remote is closing)."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(5)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not (self._told or self._fresh or self._stopped):
                    self._cond.wait()
                if self._stopped:
                    return
                told, self._told = self._told, []
                fresh, self._fresh = self._fresh, []
            try:
                self._push(told, fresh)
            except Exception:  # the pages read their parts themselves (app.js)
                log.exception("the phones' live parts could not be sent")
            with self._cond:
                self._through = max([self._through, *(version for version, _ in told),
                                     *(version for _, version in fresh)])
                self._cond.notify_all()

    def caught_up(self, version: int, timeout: float) -> bool:
        """Wait (at most `timeout` seconds) until the parts after the move to `version`
        (or for the streams that began following at it) were sent or judged unchanged;
        False when they were not in time. For the tests."""
        with self._cond:
            return self._cond.wait_for(lambda: self._through >= version, timeout)

    def _push(self, told: list[tuple[int, JSON]], fresh: list[tuple[Client, int]]) -> None:
        """Judge every part stream against the moves told (in order), render the parts of
        the pages that changed at the table's state now, and queue each on its stream."""
        streams = [c for c in self._hub.clients() if c.part is not None and not c.ended]
        due: list[Client] = []
        then = dict(fresh)
        for client in streams:
            part = client.part
            assert part is not None
            if client in then and part.shown != then[client]:  # a page behind
                due.append(client)
                continue
            for version, payload in told:
                if payload.get("game"):  # another game dealt or switched to: its versions
                    due.append(client)  # may be lower than the page's
                    break
                if part.shown is not None and version <= part.shown:
                    continue
                if unchanged(payload, part):
                    part.shown = version
                else:
                    due.append(client)
                    break
        if not due:
            return
        # every phone told of the move first: rendering would otherwise take the
        # interpreter from the serving loop while it writes the news (up to Python's switch
        # interval, 5 ms, each time)
        self._hub.written(WRITTEN_WAIT_S)
        # one rendering per page address and phone (its tabs share it), or per page and
        # kind of phone for the pages every phone sees alike (`_key`); one message per
        # text (every spectator's Table part is the same bytes, encoded once); each sent
        # as soon as it is rendered, the table's own phones first
        groups: dict[tuple[str, ...], list[Client]] = {}
        watched: set[tuple[str, str]] = set()  # the spectators' pages rendered this round
        due.sort(key=lambda c: not c.seated)
        for client in due:
            part = client.part
            assert part is not None
            query = str(part.environ.get("QUERY_STRING"))
            if not client.seated and (part.endpoint, query) not in watched:
                if len(watched) >= SPECTATOR_PAGES:  # read by the phone (its rate limit)
                    continue
                watched.add((part.endpoint, query))
            groups.setdefault(self._key(part, query), []).append(client)
        messages: dict[tuple[str, bytes | None], Message] = {}
        for clients in groups.values():
            first = clients[0].part
            assert first is not None
            try:
                text = self._render(first)
            except Exception:  # these pages' phones read them themselves (and meet the error)
                log.exception("a phone's live part could not be rendered")
                continue
            shown, player = shown_in(text) if text is not None else (None, None)
            if text is None or shown is None:  # no live part: the page reads it itself
                continue
            wakers: list[Callable[[], None]] = []
            sent = units(text)
            for client in clients:
                part = client.part
                assert part is not None
                # as a change of what this stream sent last: one message for every stream
                # that sent the same before (the spectators' Table page)
                key = (text, part.sent)
                message = messages.get(key)
                if message is None:
                    message = messages[key] = Message(
                        "part", {"version": shown, **change(part.sent, text, sent)})
                    message.encode()  # here, not on the serving loop
                part.shown, part.player, part.sent = shown, player, sent
                kept, waker = client.queue(message)
                self.sent += 1
                if waker is not None:
                    wakers.append(waker)
                if not kept:
                    self._hub.unsubscribe(client)
            wake_all(wakers)

    def _key(self, part: Part, query: str) -> tuple[str, ...]:
        """What a part's rendering depends on: its address and query, and who asks: for the
        Table, History, Worth and Rules pages only whether the phone is joined and whether
        it is the banker's (views/pages.shared_page: the table's one language), read from
        its cookie as every request reads it (its signature checked before, by the app's
        DailyCookie); anything else, or a cookie not checked yet, by the cookie itself."""
        cookie = str(part.environ.get("HTTP_COOKIE", ""))
        kept = getattr(self._app.session_interface, "kept", None)
        if part.page not in JUDGED_PAGES or kept is None:
            return (part.endpoint, query, cookie)
        held = kept(self._app, parse_cookie(cookie).get(
            self._app.config["SESSION_COOKIE_NAME"], ""))
        if held is None:
            return (part.endpoint, query, cookie)
        who = identity_of(held, self._remote)
        return (part.endpoint, query, "nobody" if who is None else
                "banker" if who.banker else "joined")

    def _render(self, part: Part) -> str | None:
        """The part as the stream's phone would read it now (None: its view did not answer
        with a page: the phone reads it itself). Its request is the stream's own, made at
        its first part (`Part.context`): making one for every part (the request object, the
        cookie's session, the routing) was a tenth of a Me page's drawing."""
        app = self._app
        ctx = part.context
        if ctx is None:
            environ = dict(part.environ)
            environ["wsgi.input"] = io.BytesIO(b"")
            ctx = part.context = app.request_context(environ)
        with ctx:
            settle_asker()
            view: Callable[[], Any] = app.view_functions[part.endpoint]
            answer = app.make_response(view())
        self.rendered += 1
        if answer.status_code != 200 or answer.mimetype != "text/html":
            return None
        return answer.get_data(as_text=True)
