"""Joining: a one-time link from the table's QR code; the phone picks its player (or
watches, or becomes the banker with the PIN) and gets a signed session cookie.
"""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from web_remote import i18n
from web_remote.app import identity, refuse, remote
from web_remote.i18n import _
from web_remote.security import valid_pin

bp = Blueprint("join", __name__)


def _players() -> list[str]:
    return [p["name"] for p in remote().session.state().get("players", []) if not p["bankrupt"]]


@bp.get("/")
def home() -> BaseResponse:
    """Joined phones go to their page; others are told to scan the table's code."""
    who = identity()
    if who is None:
        return Response(render_template("welcome.html"), mimetype="text/html")
    return redirect(url_for("pages.table" if who.role == "spectator" else "pages.me"))


@bp.get("/join/<code>")
def join_form(code: str) -> BaseResponse:
    """The join page: pick a player, watch, or be the banker."""
    if not remote().joins.valid(code):
        return refuse("bad_join", _("This join link was used or has expired: scan the code "
                                    "on the table again."), 403)
    return Response(render_template("join.html", code=code, players=_players(),
                                    pin_set=remote().pin.is_set), mimetype="text/html")


@bp.post("/join/<code>")
def join(code: str) -> BaseResponse:
    """Spend the code and give this phone its role."""
    r = remote()
    who = request.form.get("who", "")
    pin = request.form.get("pin", "")
    players = _players()
    if not (who in ("spectator", "banker") or who.startswith("player:")):
        return refuse("bad_join", _("Pick a player, the banker or watch."), 400)
    name = who.removeprefix("player:") if who.startswith("player:") else None
    if name is not None and name not in players:
        return refuse("unknown_player", _("%(name)s is not playing.", name=name), 400)
    wants_banker = who == "banker" or (name is not None and bool(pin))
    if wants_banker:
        if not r.limiter.allow(f"pin:{request.remote_addr}", 5.0):
            return refuse("rate_limited", _("Too many PIN attempts: wait a moment."), 429)
        if r.pin.is_set and not r.pin.check(pin):
            return refuse("bad_pin", _("Wrong banker PIN."), 403)
        if not r.pin.is_set:
            if not valid_pin(pin):
                return refuse("bad_pin", _("Choose a PIN of 4 to 12 digits."), 400)
            r.pin.set(pin)
    if not r.joins.spend(code):
        return refuse("bad_join", _("This join link was used or has expired: scan the code "
                                    "on the table again."), 403)
    session.clear()
    session.permanent = True
    session["dev"] = secrets.token_urlsafe(9)
    session["csrf"] = secrets.token_urlsafe(24)
    session["role"] = "player" if name else ("banker" if wants_banker else "spectator")
    session["player"] = name
    session["banker"] = wants_banker
    return redirect(url_for("pages.table" if who == "spectator" else "pages.me"))


@bp.post("/unlock")
def unlock() -> BaseResponse:
    """A joined phone becomes the banker with the PIN (and keeps its player)."""
    r = remote()
    who = identity()
    if who is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    if not r.limiter.allow(f"pin:{who.device}", 5.0):
        return refuse("rate_limited", _("Too many PIN attempts: wait a moment."), 429)
    if not r.pin.check(request.form.get("pin", "")):
        return refuse("bad_pin", _("Wrong banker PIN."), 403)
    session["banker"] = True
    if who.role == "spectator":
        session["role"] = "banker"
    return redirect(url_for("banker.page"))


@bp.post("/lock")
def lock() -> BaseResponse:
    """Leave the banker role (a player's phone goes back to being just theirs)."""
    who = identity()
    if who is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    session["banker"] = False
    if who.role == "banker":
        session["role"] = "player" if who.player else "spectator"
    return redirect(url_for("join.home"))


@bp.get("/lang/<code>")
def language(code: str) -> BaseResponse:
    """Pick this phone's language (a cookie; harmless to set by a link)."""
    target = request.args.get("next", "/")
    if not target.startswith("/") or target.startswith("//"):
        target = "/"
    resp = redirect(target)
    if code in i18n.LANGUAGES:
        resp.set_cookie(i18n.COOKIE, code, max_age=365 * 86400, samesite="Lax")
    return resp
