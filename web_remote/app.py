"""`create_app(session, data_dir, config)`: the phone remote's Flask app factory.

The app is handed the game session; blueprints turn requests into commands and states into
pages. Everything the remote keeps (cookie secret, banker PIN, trade proposals, net worth
series) lives in `<data_dir>/web/`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, g, jsonify, request, session

from companion.game.api import GameSessionProtocol, Update
from web_remote import i18n
from web_remote.guard import Identity
from web_remote.hub import Hub
from web_remote.i18n import _
from web_remote.proposals import Proposals
from web_remote.security import (
    JoinCodes,
    PinStore,
    RateLimiter,
    load_secret,
    new_token,
    same_origin,
)
from web_remote.store import Persister
from web_remote.worth import WorthRecorder

DEFAULTS: dict[str, Any] = {
    "keepalive_s": 15.0,  # SSE keep-alive comment interval
    "rate_per_s": 20.0,  # requests per second a phone may sustain
    "burst": 60.0,  # requests a phone may send at once
    "auction_seconds": 10,  # the auction countdown shown on phones (UI only)
    "default_language": "en",
    "banker_pin": None,  # set the banker PIN at start (else on the first banker join)
    "join_ttl_s": 15 * 60.0,
    "on_join": None,  # called (on a request thread) after a phone spent its join link
}


@dataclass
class Remote:
    """Everything the views share: the session and the remote's own small stores."""

    session: GameSessionProtocol
    data_dir: Path
    config: dict[str, Any]
    hub: Hub
    joins: JoinCodes
    pin: PinStore
    proposals: Proposals
    worth: WorthRecorder
    limiter: RateLimiter
    persister: Persister
    cleanup: list[Any] = field(default_factory=list)

    def on_update(self, update: Update) -> None:
        """The session's listener (writer thread): hand the update over, never block."""
        new_game = any(e.get("kind") in ("game_started", "game_switched")
                       for e in update.events)
        if new_game:
            self.proposals.clear()
            self.hub.publish("trades", {"version": update.version})
        elif self.proposals.prune(update.state):
            self.hub.publish("trades", {"version": update.version})
        self.worth.record(update.state, new_game)
        self.hub.publish("state", {"version": update.version, "state": update.state,
                                   "events": update.events}, ident=update.version)

    def close(self) -> None:
        """Stop listening and end every live stream."""
        for remove in self.cleanup:
            remove()
        self.cleanup.clear()
        self.hub.close()
        self.persister.stop()


def remote() -> Remote:
    """The Remote of the app serving this request."""
    r: Remote = current_app.extensions["web_remote"]
    return r


def identity() -> Identity | None:
    """Who holds the phone making this request (None: not joined)."""
    role = session.get("role")
    if role not in ("player", "spectator", "banker"):
        return None
    player = session.get("player")
    return Identity(role=role, player=player if isinstance(player, str) else None,
                    banker=bool(session.get("banker")), device=str(session.get("dev", "")))


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


def refuse(code: str, message: str, status: int, english: str | None = None) -> Response:
    """A refusal as JSON (API) or a small page. `message` is in the phone's language; the
    JSON keeps the English one as `message_en` for logs (`english`, else the source text a
    translated message remembers, else the message itself)."""
    from flask import render_template

    if wants_json():
        message_en = english or getattr(message, "english", None) or str(message)
        resp = jsonify({"ok": False, "code": code, "message": str(message),
                        "message_en": message_en})
    else:
        resp = Response(render_template("error.html", code=code, message=message),
                        mimetype="text/html")
    resp.status_code = status
    return resp


def _before() -> Response | None:
    r = remote()
    g.lang = i18n.pick_language(r.config["default_language"])
    if request.path.startswith("/static/"):
        return None
    key = str(session.get("dev") or f"ip:{request.remote_addr}")
    if not r.limiter.allow(key):
        return refuse("rate_limited", _("Too many requests: wait a moment."), 429)
    if request.method == "POST":
        if not same_origin(request.headers.get("Origin"), request.headers.get("Referer"),
                           request.host_url):
            return refuse("bad_origin", _("This request did not come from the remote's pages."),
                          403)
        sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
        expected = session.get("csrf")
        if not isinstance(expected, str) or not secrets.compare_digest(str(sent), expected):
            return refuse("bad_csrf", _("The page is out of date: reload it and try again."), 403)
    return None


def _after(resp: Response) -> Response:
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "same-origin")
    resp.headers.setdefault("X-Frame-Options", "DENY")
    resp.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self'")
    return resp


def create_app(session_: GameSessionProtocol, data_dir: Path,
               config: dict[str, Any] | None = None) -> Flask:
    """The phone remote for this game session, keeping its files in `data_dir / "web"`."""
    cfg = {**DEFAULTS, **(config or {})}
    web_dir = Path(data_dir) / "web"
    web_dir.mkdir(parents=True, exist_ok=True)
    app = Flask(__name__)
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
    hub = Hub()
    persister = Persister()
    on_join = cfg["on_join"]

    def joined() -> None:
        hub.publish("joined", {})
        if on_join is not None:
            on_join()  # the table screen shows the next one-time link

    r = Remote(
        session=session_, data_dir=Path(data_dir), config=cfg, hub=hub,
        joins=JoinCodes(ttl=float(cfg["join_ttl_s"]),
                        on_spent=joined),
        pin=PinStore(web_dir / "banker.json"),
        proposals=Proposals(web_dir / "proposals.json", persister),
        worth=WorthRecorder(web_dir / "networth.json", persister),
        limiter=RateLimiter(float(cfg["rate_per_s"]), float(cfg["burst"])),
        persister=persister,
    )
    if cfg["banker_pin"]:
        r.pin.set(str(cfg["banker_pin"]))
    app.extensions["web_remote"] = r
    state = session_.state()
    if state.get("players"):
        r.worth.record(state)
    r.cleanup.append(session_.add_listener(r.on_update))

    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n._, i18n.ngettext, newstyle=True)
    app.before_request(_before)
    app.after_request(_after)

    from web_remote.views import api, banker, join, pages

    app.register_blueprint(join.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(banker.bp)

    @app.context_processor
    def _globals() -> dict[str, Any]:
        return {"me": identity(), "csrf_token": csrf_token, "lang": i18n.current_language(),
                "languages": i18n.LANGUAGES}

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
