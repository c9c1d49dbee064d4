"""Joining: a one-time link from the table's QR code; the phone picks its player (or
watches, or becomes the banker with the PIN) and gets a signed session cookie.
"""

from __future__ import annotations

import math
import secrets
from urllib.parse import urlsplit

from flask import Blueprint, Response, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.game.pins import PinVerdict, valid_pin
from web_remote import i18n
from web_remote.context import identity, make_banker, refuse, remote
from web_remote.i18n import _, ngettext

bp = Blueprint("join", __name__)


def _players() -> list[str]:
    return [p.name for p in remote().session.table().players if not p.bankrupt]


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
    r = remote()
    who = identity()
    mine = who.player if who is not None else None  # this phone may take its own seat again
    held = [name for name in r.seats.held(_players()) if name != mine]
    return Response(render_template("join.html", code=code, players=_players(), held=held,
                                    pin_set=r.pin.store.is_set), mimetype="text/html")


def pin_refusal(verdict: PinVerdict) -> tuple[str, str, int]:
    """A PIN not accepted, as (code, message, status): wrong (403), or the table waits
    before it checks another (429, saying how long)."""
    if verdict.result == "wait":
        seconds = max(1, math.ceil(verdict.wait))
        return "rate_limited", ngettext(
            "Too many banker PIN attempts at this table: wait %(num)d second.",
            "Too many banker PIN attempts at this table: wait %(num)d seconds.", seconds), 429
    return "bad_pin", _("Wrong banker PIN."), 403


def pin_refused(verdict: PinVerdict) -> Response:
    """A PIN not accepted, as the refusal the phone reads (`wait`: seconds the table now
    waits before it checks another PIN)."""
    code, message, status = pin_refusal(verdict)
    return refuse(code, message, status, wait=math.ceil(verdict.wait))


def seat_taken(name: str) -> Response:
    """A fresh link for a seat another phone holds."""
    return refuse("not_yours", _("%(name)s's seat is held by another phone. Lost phone? "
                                 "The banker gives the seat a new link.", name=name), 409)


@bp.post("/join/<code>")
def join(code: str) -> BaseResponse:
    """Spend the code and give this phone its role. A wrong PIN spends the code too."""
    r = remote()
    who = request.form.get("who", "")
    pin = request.form.get("pin", "")
    players = _players()
    if not (who in ("spectator", "banker") or who.startswith("player:")):
        return refuse("bad_join", _("Pick a player, the banker or watch."), 400)
    name = who.removeprefix("player:") if who.startswith("player:") else None
    if name is not None and name not in players:
        return refuse("unknown_player", _("%(name)s is not playing.", name=name), 400)
    if not r.joins.valid(code):
        return refuse("bad_join", _("This join link was used or has expired: scan the code "
                                    "on the table again."), 403)
    before = identity()  # the same phone joining again keeps its device
    device = before.device if before is not None and before.player == name and name \
        else secrets.token_urlsafe(9)
    holder = r.seats.holder(name) if name is not None else None
    if holder is not None and holder != device:
        return seat_taken(str(name))
    wants_banker = who == "banker" or (name is not None and bool(pin))
    if wants_banker and r.pin.store.is_set:
        verdict = r.pin.check(pin)
        if verdict.result == "wrong":
            r.joins.spend(code, joined=False)  # one guess per link: next, the new code
        if not verdict.right:
            return pin_refused(verdict)
    elif wants_banker:
        if not valid_pin(pin):
            return refuse("bad_pin", _("Choose a PIN of 4 to 12 digits."), 400)
        r.pin.store.set(pin)
    if not r.joins.spend(code):
        return refuse("bad_join", _("This join link was used or has expired: scan the code "
                                    "on the table again."), 403)
    if name is not None and not r.seats.take(name, device):
        return seat_taken(name)  # another phone took it a moment ago
    if before is not None and before.player not in (None, name):
        r.seats.release(str(before.player))  # this phone leaves the seat it held
    session.clear()
    session.permanent = True
    session["dev"] = device
    session["csrf"] = secrets.token_urlsafe(24)
    session["role"] = "player" if name else ("banker" if wants_banker else "spectator")
    session["player"] = name
    session["banker"] = False
    if wants_banker:
        make_banker()
    return redirect(url_for("pages.table" if who == "spectator" else "pages.me"))


@bp.post("/unlock")
def unlock() -> BaseResponse:
    """A joined phone becomes the banker with the PIN (and keeps its player)."""
    r = remote()
    who = identity()
    if who is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    verdict = r.pin.check(request.form.get("pin", ""))
    if not verdict.right:
        return pin_refused(verdict)
    make_banker()
    if who.role == "spectator":
        session["role"] = "banker"
    return redirect(url_for("banker.page"))


@bp.post("/lock")
def lock() -> BaseResponse:
    """Leave the banker role: every banker session ends, on this phone and any other (a
    player's phone goes back to being just theirs)."""
    who = identity()
    if who is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    if who.banker:
        remote().pin.store.end_sessions()
    session["banker"] = False
    if who.role == "banker":
        session["role"] = "player" if who.player else "spectator"
    return redirect(url_for("join.home"))


@bp.get("/lang/<code>")
def language(code: str) -> BaseResponse:
    """Pick this phone's language (a cookie; harmless to set by a link)."""
    resp = redirect(same_site_path(request.args.get("next", "/")))
    if code in i18n.LANGUAGES:
        resp.set_cookie(i18n.COOKIE, code, max_age=365 * 86400, samesite="Lax")
    return resp


def same_site_path(target: str) -> str:
    r"""`target` when it is a path on this site, else "/". Browsers drop tabs and newlines
    from a URL and read a backslash as a slash, so "/\t/evil.example" or "/\evil.example"
    would lead off-site: any whitespace, control character or backslash is refused.

    >>> same_site_path("/me?tab=deeds"), same_site_path("/\t/evil.example")
    ('/me?tab=deeds', '/')
    """
    if (not target.startswith("/") or target.startswith("//") or "\\" in target
            or any(ch.isspace() or not ch.isprintable() for ch in target)):
        return "/"
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else "/"
