"""`create_app(session, data_dir, config, hooks)`: the phone remote's Flask app factory.

The app is handed the game session and the companion's `TableHooks`; blueprints turn
requests into commands and states into pages, sharing `web_remote.context`. Everything the
remote keeps (cookie secret, banker PIN, seats, trade proposals, net worth series) lives in
`<data_dir>/web/`.
"""

from __future__ import annotations

import io
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

from flask import Flask, Request, Response, g, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, want_bytes
from werkzeug.http import parse_cookie

from companion.game.api import JSON, GameSessionProtocol, Outcome
from companion.game.limits import loads_bounded
from companion.game.pins import PIN_FILE, PinGuard, PinStore
from companion.game.table.offers import OfferStore
from companion.words.table_language import TableLanguage
from web_remote import i18n
from web_remote.context import (
    Remote,
    TableHooks,
    asker,
    csrf_token,
    identity,
    identity_of,
    refuse,
    remote,
    settle_asker,
)
from web_remote.guard import Identity, Refusal, authorize
from web_remote.hub import MAX_STREAMS, PER_DEVICE, SPECTATORS, SPECTATORS_PER_ADDRESS, Hub
from web_remote.i18n import _
from web_remote.parts import PartPusher
from web_remote.present import board_size
from web_remote.security import (
    SEATS_FILE,
    TABLE_SLOT,
    JoinCodes,
    RateLimiter,
    Seats,
    load_secret,
    same_origin,
    table_names,
    table_origin_keys,
)
from web_remote.store import Persister
from web_remote.template_cache import keep_compiled
from web_remote.views import api, banker, going_back, join, pages, story
from web_remote.views.fragments import fragment, fragment_each
from web_remote.worth import WorthRecorder

DEFAULTS: dict[str, Any] = {
    "keepalive_s": 15.0,  # SSE keep-alive comment interval
    "rate_per_s": 20.0,  # requests per second a phone may sustain
    "burst": 60.0,  # requests a phone may send at once
    "default_language": "en",
    "banker_pin": None,  # set the banker PIN at start (else on the first banker join)
    "join_ttl_s": 15 * 60.0,
    "streams_max": MAX_STREAMS,  # live streams at once (past it: 503, the page retries)
    "streams_per_device": PER_DEVICE,  # a newer stream of a phone ends its oldest
    "streams_spectators": SPECTATORS,  # spectators' streams, all together
    "streams_spectators_per_address": SPECTATORS_PER_ADDRESS,  # ... and from one address
    "table_url": None,  # the address phones are given (else the one they reached)
    "table_names": None,  # names the table answers to (else its host name and <name>.local)
}
#: what used to be hooks in the config: now fields of TableHooks
HOOK_KEYS = frozenset({"on_join", "games", "tags"})


#: the session's own field: the day (since the epoch) its cookie was last signed
SIGNED_DAY = "signed_day"


#: cookies whose signature was checked, kept with what they hold (DailyCookie.open_session)
OPENED_COOKIES = 256
#: what a session may hold for its opened cookie to be kept: values that a copy of the dict
#: copies whole (a list or a dict inside would be shared by the requests that read it)
_SCALARS = (str, int, float, bool, type(None))


class DailyCookie(SecureCookieSessionInterface):
    """Flask's signed cookie, a joined phone's (permanent) one signed and sent again once a
    day instead of with every answer: signing it (tagged JSON, zlib, HMAC) was a third of
    what Flask spends on a page read, and a table's phones read after every move (issue 28).
    A changed session is sent at once as before; the cookie's 30 days run from the last day
    the phone was used, as they did from its last request.

    Opening it is checked once per cookie, not per request: a phone sends the same cookie
    all day, and its signature's check (HMAC, zlib, base64, tagged JSON) was a fifth of what
    Flask spent on a phone's move (issue 28). A cookie whose signature was good under this
    app's key stays good (the check is a function of the bytes and the key); its age is
    checked on every request as itsdangerous does, so a cookie past its 30 days (or signed
    in the future) goes through the whole check again and is refused there. Only cookies
    that checked out are kept, at most OPENED_COOKIES, the oldest forgotten first."""

    def __init__(self) -> None:
        self._opened: dict[tuple[str, bytes], tuple[dict[str, Any], int]] = {}
        self._opened_lock = threading.Lock()

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The phone's session from its cookie (an empty one when it has none, or a bad or
        expired one), its signature checked the first time this app sees the cookie."""
        if not app.secret_key:  # as get_signing_serializer: no key, no session
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (value, want_bytes(app.secret_key))
        data = self.kept(app, value)
        if data is not None:
            return self.session_class(data)  # a copy: its values are immutable
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        try:
            data, when = signer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        if isinstance(data, dict) and all(isinstance(v, _SCALARS) for v in data.values()):
            with self._opened_lock:
                self._opened.pop(key, None)
                self._opened[key] = (dict(data), int(when.timestamp()))
                while len(self._opened) > OPENED_COOKIES:
                    del self._opened[next(iter(self._opened))]
        return self.session_class(data)

    def kept(self, app: Flask, value: str) -> dict[str, Any] | None:
        """What the cookie `value` holds (a copy) when its signature was checked already
        under this app's key and it is within its 30 days now; None otherwise (then only
        `open_session`'s whole check can say)."""
        if not app.secret_key or not value:
            return None
        with self._opened_lock:
            kept = self._opened.get((value, want_bytes(app.secret_key)))
        if kept is None:
            return None
        data, signed = kept
        max_age = int(app.permanent_session_lifetime.total_seconds())
        if 0 <= int(time.time()) - signed <= max_age:  # itsdangerous' own test of age
            return dict(data)
        return None

    def resigns(self, app: Flask, data: Mapping[str, Any]) -> bool:
        """Whether an answer to a phone whose cookie holds `data` (and leaves it as it is)
        would carry the cookie signed again (`should_set_cookie`: not signed yet today)."""
        return bool(data.get("_permanent")) and bool(
            app.config["SESSION_REFRESH_EACH_REQUEST"]) and \
            data.get(SIGNED_DAY) != int(time.time() // 86_400)

    def should_set_cookie(self, app: Flask, session_: SessionMixin) -> bool:
        """Changed, or a permanent session not signed yet today (marked so now)."""
        if session_.modified:
            return True
        if not (session_.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        today = int(time.time() // 86_400)
        if session_.get(SIGNED_DAY) == today:
            return False
        session_[SIGNED_DAY] = today
        return True


def _before() -> Response | None:
    """Every request: its language, the rate limits (per phone, and per address for a
    phone that may not act), the table's mark on a player's or the banker's request, and
    for a POST the origin and CSRF checks. Who is asking is worked out once here and kept
    on `g.who` for the request's view (`asker()`); the request and the session are read
    through their objects, not the proxies (a phone's move passes here, issue 28)."""
    r = remote()
    req: Request = cast(Any, request)._get_current_object()
    g.lang = i18n.pick_language(r.table_language.spoken, r.config["default_language"])
    if req.path.startswith("/static/"):
        return None
    environ = req.environ
    address = req.remote_addr
    key = str(session.get("dev") or f"ip:{address}")
    who = g.who = identity()
    if not r.limiter.allow(key) or ((who is None or not who.can_act) and not r.limiter.allow(
            f"address:{address}")):  # new cookies share their address's bucket
        return refuse("rate_limited", _("Too many requests: wait a moment."), 429)
    scope = environ.get("asgi.scope")
    if who is not None and who.can_act and isinstance(scope, dict):
        scope[TABLE_SLOT] = True  # the serving loop keeps this address's connections first
    if req.method == "POST":
        config = r.config
        ours = table_origin_keys(
            req.scheme, str(environ.get("SERVER_NAME") or ""),
            str(environ.get("SERVER_PORT") or ""), tuple(config["table_names"]),
            config.get("table_url") or None)
        headers = req.headers
        if not same_origin(headers.get("Origin"), headers.get("Referer"), ours):
            return refuse("bad_origin", _("This request did not come from the remote's pages."),
                          403)
        sent = headers.get("X-CSRF-Token") or req.form.get("csrf_token", "")
        expected = session.get("csrf")
        if not isinstance(expected, str) or not secrets.compare_digest(str(sent), expected):
            return refuse("bad_csrf", _("The page is out of date: reload it and try again."), 403)
    return None


log = logging.getLogger(__name__)

#: the headers every answer carries, unless its view set its own
GUARD_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy",
     "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
     "script-src 'self'"),
)


def _after(resp: Response) -> Response:
    headers = resp.headers
    present = {name.lower() for name, _value in headers}  # one pass, not one per header
    for name, value in GUARD_HEADERS:
        if name.lower() not in present:
            headers.add(name, value)
    return resp


#: what the move's own path answers an accepted move with, besides its length: the headers
#: Flask's answer carries (its JSON type, the guard headers, and `Vary: Cookie` for an
#: answer that read the cookie), in Flask's order
_MOVE_HEADERS = [("Content-Type", "application/json")]
_MOVE_AFTER = [*GUARD_HEADERS, ("Vary", "Cookie")]
#: the move's route
MOVE_PATH = "/api/commands"


class MoveFastPath:
    """A phone's move (`POST /api/commands`) answered without Flask's request machinery
    when nothing about it is out of the ordinary: Flask's request and app contexts, the
    cookie's session object, the URL map, the hooks and the response object were about
    half of the Flask call's CPU on a move, which every phone waits for (issue 28).

    Every check Flask's path makes is made, in the same functions: the cookie (its
    signature checked before, by `DailyCookie`, and within its 30 days), who holds the phone
    and that they may act (`identity_of`), the table's origin and the CSRF token, the size
    and type of the body, its JSON read with bounded nesting, the version, the command
    authorized for the phone's own seat (`guard.authorize`) and not one to confirm first,
    and the phone's rate limit, which is the one check that counts and so comes last. At the
    first check that does not pass, or anything unusual (a cookie not seen yet or to be
    signed again today, a form's CSRF field, a command to confirm), the request goes to
    Flask whole, untouched (its body put back), which answers it as before: refusals are
    always Flask's, in the phone's language. A move the game refuses after it was submitted
    is answered by Flask's own `outcome_response` in a request context of its own; an
    accepted one with Flask's very bytes and headers (tests/test_web_move_path.py)."""

    def __init__(self, app: Flask, inner: Any) -> None:
        self.app = app
        self.inner = inner
        #: moves answered here (the rest went to Flask): for the tests
        self.answered = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("PATH_INFO") == MOVE_PATH and environ.get("REQUEST_METHOD") == "POST":
            with self.app.app_context():
                answer = self._move(environ, start_response)
            if answer is not None:
                return answer
        return self.inner(environ, start_response)

    def _checked(self, environ: dict[str, Any]) -> tuple[Remote, Identity, JSON, int] | None:
        """The remote, who asks, the command as it will be submitted and the version the
        phone saw, its rate limit taken; None when Flask must answer (nothing was changed)."""
        app, r = self.app, remote()
        interface = app.session_interface
        if not isinstance(interface, DailyCookie):
            return None
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        held = interface.kept(app, cookies.get(app.config["SESSION_COOKIE_NAME"], ""))
        if held is None or interface.resigns(app, held):
            return None
        who = identity_of(held, r)
        if who is None or not who.can_act:
            return None
        config = r.config
        ours = table_origin_keys(
            str(environ.get("wsgi.url_scheme") or "http"), str(environ.get("SERVER_NAME") or ""),
            str(environ.get("SERVER_PORT") or ""), tuple(config["table_names"]),
            config.get("table_url") or None)
        if not same_origin(environ.get("HTTP_ORIGIN"), environ.get("HTTP_REFERER"), ours):
            return None
        sent, expected = environ.get("HTTP_X_CSRF_TOKEN"), held.get("csrf")
        if not sent or not isinstance(expected, str) or not secrets.compare_digest(
                str(sent), expected):
            return None
        kind = str(environ.get("CONTENT_TYPE") or "").split(";", 1)[0].strip().lower()
        length = str(environ.get("CONTENT_LENGTH") or "")
        limit = app.config["MAX_CONTENT_LENGTH"]
        if kind != "application/json" or not length.isdigit() or (
                limit is not None and int(length) > limit):
            return None
        raw = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(raw)  # Flask reads it again where it answers
        try:
            body = loads_bounded(raw)
        except ValueError:  # not JSON, nested too deep (InputTooComplex), not UTF-8
            return None
        if not isinstance(body, dict):
            return None
        version, command = api.seen_version(body), body.get("command")
        if version is None:
            return None
        if isinstance(command, dict) and not isinstance(command.get("by"), str | None):
            return None
        view = r.table(r.session.state())
        try:
            checked = authorize(command, who, view, board_size(view))
        except Refusal:
            return None
        if api.confirm_question(checked, who, view) is not None:
            return None
        if not r.limiter.allow(str(held.get("dev") or f"ip:{environ.get('REMOTE_ADDR')}")):
            return None  # Flask's hook refuses it (a refused take takes nothing)
        return r, who, checked, version

    def _move(self, environ: dict[str, Any], start_response: Any) -> Any:
        """The answer's body, once `start_response` was called; None: Flask answers."""
        checked = self._taken(environ)
        if checked is None:
            return None
        r, who, command, version = checked
        try:
            result: Outcome | Exception = r.session.submit(
                command, api.source_of(who), expect_version=version)
        except Exception as exc:  # as Flask answers an error of its view
            result = exc
        return self.answer(result, environ, start_response)

    def _taken(self, environ: dict[str, Any]) -> tuple[Remote, Identity, JSON, int] | None:
        """`_checked`, its failure left to Flask, and the request marked the table's and
        counted when the move is this path's to submit."""
        try:
            checked = self._checked(environ)
        except Exception:  # Flask's path meets it too, and answers as it does
            log.debug("the move's own path left a request to Flask", exc_info=True)
            return None
        if checked is None:
            return None
        scope = environ.get("asgi.scope")
        if isinstance(scope, dict):
            scope[TABLE_SLOT] = True  # a player's or the banker's request, as `_before` says
        self.answered += 1
        return checked

    def begin(self, environ: dict[str, Any],
              tell: Callable[[Outcome | Exception], None]) -> Any:
        """On the phones' serving loop (web_remote.serving), a move whose body is here:
        the same checks as `_move`, then the command queued to the session's writer without
        a thread waiting for it (`GameSession.submit_nowait`): `tell` is called once with
        its outcome (on the writer's thread, once the row is durable), or with the error
        `submit` would have raised, and `answer` makes the phone's answer from it. Returned:
        the game session it was queued to (its `healthy` says whether its writer still
        runs), or None: nothing was checked, taken nor queued, and the request goes to the
        pool's threads as any other (not a move; a session without `submit_nowait`;
        anything Flask must answer). A table whose session is a `SessionHolder` asks it
        for the game in use, as every call of `_checked` does (which waits while the
        banker switches games)."""
        if environ.get("PATH_INFO") != MOVE_PATH or environ.get("REQUEST_METHOD") != "POST":
            return None
        held: Any = self.app.extensions["web_remote"].session
        if getattr(held, "submit_nowait", None) is None:
            held = getattr(held, "session", None)  # a SessionHolder: its game in use
            if getattr(held, "submit_nowait", None) is None:
                return None
        with self.app.app_context():
            checked = self._taken(environ)
        if checked is None:
            return None
        _r, who, command, version = checked
        try:
            refused = held.submit_nowait(command, api.source_of(who), version, tell)
        except Exception as exc:  # as Flask answers an error of its view
            tell(exc)
            return held
        if refused is not None:  # not queued (the session closed): `tell` is not called
            tell(refused)
        return held

    def answer(self, result: Outcome | Exception, environ: dict[str, Any],
               start_response: Any) -> Any:
        """The answer to a move this path submitted, from its outcome (or the error its
        submit raised): an accepted one's bytes here, anything else by Flask's own
        functions (the phone's language, its hooks, its cookie)."""
        if isinstance(result, Exception):
            error = result
            return self._in_flask(environ, start_response,
                                  lambda: self.app.handle_exception(error))
        out = result
        if not out.accepted:
            return self._in_flask(environ, start_response,
                                  lambda: self.app.process_response(api.outcome_response(out)))
        data = api.accepted_body(out).encode()
        start_response("200 OK", [*_MOVE_HEADERS, ("Content-Length", str(len(data))),
                                  *_MOVE_AFTER])
        return [data]

    def _in_flask(self, environ: dict[str, Any], start_response: Any,
                  answer: Callable[[], Response]) -> Any:
        """An answer made by Flask's own functions in a request context of this request
        (the phone's language, its hooks after the view, its cookie)."""
        with self.app.request_context(environ):
            settle_asker()  # read from the cookie, as `_before` does (`Vary: Cookie`)
            resp = answer()
        return resp(environ, start_response)


def create_app(session_: GameSessionProtocol, data_dir: Path,
               config: dict[str, Any] | None = None, hooks: TableHooks | None = None) -> Flask:
    """The phone remote for this game session, keeping its files in `data_dir / "web"`;
    `config` holds settings (DEFAULTS), `hooks` what the companion connects to it."""
    misplaced = HOOK_KEYS & set(config or {})
    if misplaced:
        raise TypeError(f"pass {', '.join(sorted(misplaced))} as TableHooks, not config")
    cfg = {**DEFAULTS, **(config or {})}
    if cfg["table_names"] is None:
        cfg["table_names"] = table_names()
    hooks = hooks or TableHooks()
    web_dir = Path(data_dir) / "web"
    web_dir.mkdir(parents=True, exist_ok=True)
    app = Flask(__name__)
    app.session_interface = DailyCookie()
    app.config.update(
        SECRET_KEY=load_secret(web_dir / "secret_key"),
        SESSION_COOKIE_NAME="companion",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
    )
    app.config.update({k: v for k, v in cfg.items() if k.isupper()})
    hub = Hub(int(cfg["streams_max"]), int(cfg["streams_per_device"]),
              int(cfg["streams_spectators"]), int(cfg["streams_spectators_per_address"]))
    persister = Persister(pace=hooks.pace_writes)
    on_join = hooks.on_join

    def joined(phone_joined: bool) -> None:
        if phone_joined:
            hub.publish("joined", {})
        if on_join is not None:
            on_join(phone_joined)  # the table screen shows the next one-time link

    guard = hooks.pin_guard or PinGuard(PinStore(Path(data_dir) / PIN_FILE),
                                        on_warning=hooks.on_pin_warning)
    pins = guard.store
    # the table's one store of open offers (the screen's and the readers' too), else the
    # remote's own, kept by the session's writer when it can
    offers = hooks.offers or OfferStore(web_dir / "proposals.json")
    offers.persist_with(persister.save)
    if hooks.offers is None:  # the table's store is kept by the session already
        session_.keep_offers(offers)
    r = Remote(
        session=session_, data_dir=Path(data_dir), config=cfg, hooks=hooks,
        hub=hub,
        joins=JoinCodes(ttl=float(cfg["join_ttl_s"]),
                        on_spent=joined),
        pin=guard,
        seats=Seats(Path(data_dir) / SEATS_FILE),
        proposals=offers,
        worth=WorthRecorder(web_dir / "networth.jsonl", persister,
                            since=session_.standings_since),
        limiter=RateLimiter(float(cfg["rate_per_s"]), float(cfg["burst"])),
        persister=persister,
        table_language=TableLanguage.at(Path(data_dir)),
    )
    if cfg["banker_pin"] and not pins.check(str(cfg["banker_pin"])):
        pins.set(str(cfg["banker_pin"]))  # the same PIN again keeps the banker sessions
    app.extensions["web_remote"] = r
    r.parts = PartPusher(app, r, hub)  # its thread starts with the first stream of parts
    state = session_.state()
    r.sent = (r.table(state).version, state)  # the first change is from this state
    # the chart's sample of every version, made on the session's writer before it answers
    # the move (told where the game stands now first)
    r.cleanup.append(session_.follow(r.worth.record))
    r.cleanup.append(session_.add_listener(r.on_update))
    if hooks.registration is not None:  # phones on the banker page follow the run live
        r.cleanup.append(hooks.registration.add_listener(
            lambda: hub.publish("trades", {"registration": True})))

    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n._, i18n.ngettext, newstyle=True)
    app.jinja_env.globals["fragment"] = fragment  # parts drawn again only when changed
    app.jinja_env.globals["fragment_each"] = fragment_each
    keep_compiled(app.jinja_env, Path(data_dir))  # compiled once per install, not per start
    app.wsgi_app = MoveFastPath(app, app.wsgi_app)  # type: ignore[method-assign]
    app.before_request(_before)
    app.after_request(_after)

    app.register_blueprint(join.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(banker.bp)
    app.register_blueprint(going_back.bp)
    app.register_blueprint(story.bp)

    @app.context_processor
    def _globals() -> dict[str, Any]:
        return {"me": asker(), "csrf_token": csrf_token, "lang": i18n.current_language(),
                "languages": i18n.LANGUAGES,
                "table_warnings": lambda: i18n.say_warnings(remote().warnings)}

    @app.errorhandler(404)
    def _not_found(_exc: Exception) -> Response:
        return refuse("not_found", _("There is no such page."), 404)

    @app.errorhandler(405)
    def _bad_method(_exc: Exception) -> Response:
        return refuse("bad_method", _("That is not allowed here."), 405)

    @app.errorhandler(413)
    def _too_big(_exc: Exception) -> Response:
        return refuse("too_large", _("That request is too large."), 413)

    return app


def post_warning(app: Flask, code: str, source: str, message: str,
                 active: bool = True) -> None:
    """A table warning (companion.power's under-voltage) starts or ends on every phone, as
    the screen's post_warning does on the screen (web_remote.context.Remote.post_warning)."""
    found: Remote = app.extensions["web_remote"]
    found.post_warning(code, source, message, active)
