"""The banker's "undo to here": a line of the History page, what going back there takes
back (said move by move, the companion's own dice and cards named), and the one step.

`GET /back/<seq>` asks (the banker's phone only); `POST /back/<seq>` (the form's CSRF
token and the version the banker saw) goes back in one journaled step
(companion.game.going_back), which the banker's Undo takes back whole.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.game.api import Source
from web_remote.context import banker_only, identity, refuse, remote, wants_json
from web_remote.i18n import _, current_language, ngettext, say_moves, say_refusal
from web_remote.present import money, square_names

bp = Blueprint("back", __name__, url_prefix="/back")



def device_said(entry: dict[str, Any]) -> str | None:
    """What the companion itself rolled or drew in a move taken back, or None."""
    if not entry.get("device"):
        return None
    if (entry.get("command") or {}).get("do") == "draw":
        return _("the companion drew this card")
    return _("the companion rolled these dice")


def _ask(seq: int, refused: str | None = None, status: int = 200) -> Response:
    """The question: the move gone back to, every move taken back, and the button."""
    session = remote().session
    state = session.state()
    plan = session.undo_to_plan(seq)
    lang = current_language()
    here = [plan["here"]] if plan.get("here") else []
    taken = plan.get("taken") or []
    said = say_moves(taken, state) if taken else []
    moves = [{"seq": e["seq"], "said": s, "device": device_said(e)}
             for e, s in zip(taken, said, strict=True)]
    problem = refused or (say_refusal(plan.get("code"), plan.get("params"), plan.get("message"),
                                      state) if "code" in plan else None)
    view = remote().table(state)
    resp = Response(render_template(
        "going_back.html", view=view, page_name="history",
        seq=seq,
        here=say_moves(here, state)[0] if here else None, moves=moves, problem=problem,
        heading=ngettext("Going back takes back %(num)d move:",
                         "Going back takes back these %(num)d moves, the newest first:",
                         len(moves)),
        devices=any(m["device"] for m in moves),
        money=lambda a: money(a, view.setup.currency, lang), names=square_names(view, lang),
    ), mimetype="text/html")
    resp.status_code = status
    return resp


@bp.get("/<int:seq>")
def ask(seq: int) -> BaseResponse:
    """Ask before going back to just after move `seq`."""
    return banker_only() or _ask(seq)


@bp.post("/<int:seq>")
def go(seq: int) -> BaseResponse:
    """Go back to just after move `seq` in one journaled step."""
    denied = banker_only()
    if denied is not None:
        return denied
    who = identity()
    assert who is not None
    version = request.form.get("version", "")
    out = remote().session.undo_to(seq, Source("phone", player=who.player, banker=True),
                                   int(version) if version.isdigit() else None)
    if not out.accepted:
        said = say_refusal(out.code, out.params, out.message, remote().session.state())
        if wants_json():
            return refuse(str(out.code), said, 409)
        return _ask(seq, said, 409)
    if wants_json():
        return Response('{"ok": true}', mimetype="application/json")
    return redirect(url_for("pages.history"))
