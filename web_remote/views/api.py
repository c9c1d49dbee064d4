"""The JSON API: state, commands (the table-script vocabulary), the live stream, history,
trade proposals, undo and redo.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, jsonify, request
from flask.json.provider import DefaultJSONProvider

from companion.game.api import Outcome, Source
from companion.game.limits import InputTooComplex, loads_bounded
from companion.game.table.view import TableView
from companion.words import refusals
from web_remote.context import asker, identity, refuse, remote
from web_remote.guard import Identity, Refusal, authorize, check_offer
from web_remote.hub import STREAM_SLOT, Message
from web_remote.i18n import _, current_language, say_refusal, say_undo, trades_said
from web_remote.parts import part_of
from web_remote.present import board_size, money, square_names

bp = Blueprint("api", __name__, url_prefix="/api")
F = TypeVar("F", bound=Callable[..., Any])


def joined(view: F) -> F:
    """Only phones that joined may use the API."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if asker() is None:
            return refuse("not_joined", _("Scan the code on the table to join."), 401)
        return view(*args, **kwargs)

    return cast(F, wrapper)


#: JSON as Flask's `jsonify` writes it (its provider's defaults: sorted keys, compact,
#: ASCII, its `default` for dates and dataclasses), by one encoder made once
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"),
                            default=DefaultJSONProvider.default)


def json_answer(data: Any) -> Response:
    """`jsonify(data)`'s answer, without gathering the encoder's options per call: the
    accepted move's answer, which every phone's move waits for (issue 28)."""
    return Response(_ENCODER.encode(data) + "\n", mimetype="application/json")


def accepted_body(out: Outcome) -> str:
    """The JSON text of an accepted move's answer (`outcome_response`'s, and the move's own
    path's: web_remote.app.MoveFastPath)."""
    return _ENCODER.encode({"ok": True, "version": out.version, "events": out.events}) + "\n"


def outcome_response(out: Outcome, state: dict[str, Any] | None = None) -> Response:
    """An Outcome as the API's answer: 200, 409 (stale: refresh) or 422 (refused).

    A refusal keeps its code and params; `message` says it in the phone's language (square
    names and money from `state`, the table now), `message_en` in English for logs."""
    if out.accepted:
        return Response(accepted_body(out), mimetype="application/json")
    stale = out.code == "stale_version"
    if state is None:
        state = remote().session.state()
    resp = jsonify({"ok": False, "code": out.code, "version": out.version, "refresh": stale,
                    "message": say_refusal(out.code, out.params, out.message, state),
                    "message_en": refusals.english(out.code, out.params, out.message, state),
                    "params": out.params})
    resp.status_code = 409 if stale else 422
    return resp


def source_of(who: Identity) -> Source:
    """The session Source of a phone."""
    return Source(kind="phone", player=who.player, banker=who.banker)


def _body() -> dict[str, Any]:
    """The request's JSON object, read with bounded nesting and number size (a body nested
    20 000 deep is a 400, not a RecursionError)."""
    if not request.is_json:
        raise Refusal("bad_json", _("The request must be a JSON object."))
    try:
        data = loads_bounded(request.get_data(cache=True))
    except InputTooComplex as exc:
        raise Refusal("bad_json", _("The request is nested too deeply or holds a number "
                                    "too large."), english=str(exc)) from None
    except ValueError:  # not JSON, or not UTF-8
        data = None
    if not isinstance(data, dict):
        raise Refusal("bad_json", _("The request must be a JSON object."))
    return data


def seen_version(body: dict[str, Any]) -> int | None:
    """The version of the table a command's body says the phone saw (None: none, or not a
    whole number)."""
    version = body.get("version")
    return None if isinstance(version, bool) or not isinstance(version, int) else version


def _version(body: dict[str, Any]) -> int:
    version = seen_version(body)
    if version is None:
        raise Refusal("bad_version", _("Say which version of the table you saw."))
    return version


@bp.errorhandler(Refusal)
def _refusal(exc: Refusal) -> Response:
    return refuse(exc.code, exc.message, exc.status, english=exc.english)


@bp.get("/state")
@joined
def state() -> Response:
    """The public state JSON (docs/state-json.md)."""
    return jsonify(remote().session.state())


@bp.get("/table")
@joined
def table() -> Response:
    """The session's typed view of the table for this phone (companion.game.table.view,
    `TableView.for_seat`): whose turn, the clocks, whom the table waits for, and what this
    phone's player is asked and may send now (the moves, what each panel button would send
    for them, the offers they made or were made), with "undo": whether their Me page's
    undo would be taken now. A spectator sees the public part; the banker every move and
    offer. A seat is the phone's own, never one named in the request."""
    who = asker()
    assert who is not None
    r = remote()
    state = r.session.state()
    view = r.table(state)
    out = view.for_seat(who.player if who.role == "player" or who.banker else None,
                        banker=who.banker, now=r.session.now())
    out["undo"] = r.session.undo_target() is not None and (
        who.banker or who.player is not None) and \
        r.session.undo_refusal(source_of(who)) is None
    return jsonify(out)


@bp.post("/commands")
@joined
def commands() -> Response:
    """Submit one command: {"command": {...}, "version": N}; a slip that is hard to take back
    (selling a building, a mortgage, a large correction) needs `"confirmed": true` too."""
    who = asker()
    assert who is not None
    body = _body()
    version = _version(body)
    r = remote()
    current = r.session.state()
    by = body["command"].get("by") if isinstance(body.get("command"), dict) else None
    if by is not None and not isinstance(by, str):  # a list or an object names nobody
        raise Refusal("unknown_player", _("%(field)s: %(name)s is not playing.", field="by",
                                          name=repr(by)[:40]))
    view = r.table(current)
    command = authorize(body.get("command"), who, view, board_size(view))
    question = confirm_question(command, who, view)
    if question is not None and body.get("confirmed") is not True:
        return confirm_first(question)
    return outcome_response(r.session.submit(command, source_of(who), expect_version=version))


def confirm_first(question: str) -> Response:
    """Not a refusal but a question (409, nothing done): the page asks it and sends the
    command again with `"confirmed": true`."""
    resp = jsonify({"ok": False, "confirm": True, "question": str(question),
                    "message": str(question),
                    "message_en": getattr(question, "english", None) or str(question)})
    resp.status_code = 409
    return resp


def confirm_threshold(options: Mapping[str, Any]) -> int:
    """Corrections above this amount ask first: the config's `confirm_above`, else the
    edition's salary for passing GO (of the rule `options` in force)."""
    configured = remote().config.get("confirm_above")
    if isinstance(configured, int) and not isinstance(configured, bool):
        return configured
    salary = options.get("salary")
    return int(salary) if isinstance(salary, int) and salary > 0 else 200


def confirm_question(command: dict[str, Any], who: Identity,
                     table: TableView) -> str | None:
    """What to ask before a command that is easy to send by a slip and costly to undo (None:
    send it at once): selling a building, a mortgage, and a banker's payment (a correction)
    above the threshold. In the phone's language."""
    lang = current_language()
    verb = command.get("do")
    square = command.get("square")
    deed = table.deed(square) if isinstance(square, int) else None
    owner = deed.owner if deed is not None else None
    if verb in ("sell_building", "mortgage") and isinstance(square, int) \
            and owner is not None and owner == command.get("by"):  # else the engine refuses
        name = square_names(table, lang).get(square, str(square))
        if verb == "sell_building":
            return _("Sell a building on %(square)s?", square=name)
        return _("Mortgage %(square)s?", square=name)
    amount = command.get("amount")
    if verb == "pay" and who.banker and isinstance(amount, int) \
            and amount > confirm_threshold(table.setup.options):
        def party(name: Any) -> str:
            return str(_("the bank")) if name == "bank" else str(name)

        return _("Pay %(amount)s from %(from)s to %(to)s?",
                 amount=money(amount, table.setup.currency, lang),
                 **{"from": party(command.get("from")), "to": party(command.get("to"))})
    return None


@bp.get("/stream")
@joined
def stream() -> Response:
    """Server-Sent Events: "state" after every change (which pages it changed, not the
    state), "trades", "joined", "warnings" (the table's hardware warnings shown now, also
    sent first); keep-alives. With `?part=` a page's address (and `&shown=` the version it
    shows), "parts" first, then "part" (the page's live part: its version and HTML) after
    each move that changed the page (web_remote.parts).
    Served by web_remote.serving, the event loop writes the stream (no thread held);
    past the hub's cap the phone is told to try again (503)."""
    who = identity()
    assert who is not None
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if request.method != "GET":  # HEAD: no body will be read, so no stream is opened
        return Response(b"", mimetype="text/event-stream", headers=headers)
    r = remote()
    client = r.hub.subscribe(who.device, seated=who.can_act,
                             address=str(request.remote_addr or ""))
    if client is None:
        resp = refuse("rate_limited", _("Too many phones follow the table live: this page "
                                        "tries again in a moment."), 503)
        resp.headers["Retry-After"] = "10"
        return resp
    version = r.session.table().version
    # the version as it is now: a page that shows another reads its live part again (the
    # state itself is /api/state's, for a client that wants it)
    first = [Message("state", {"version": version}, version),
             # the table's warnings as they are now: one may have come or gone since the
             # page was rendered
             Message("warnings", {"shown": sorted(r.warnings)})]
    # a page's live part, rendered and sent after each move that changed it
    # (web_remote.parts), when the page asks for it (`?part=` its address, `&shown=` the
    # version it shows) and the remote sends parts
    part = part_of(request.args.get("part", ""), request.environ, request.args.get("shown")) \
        if r.parts is not None else None
    if part is not None:
        first.insert(0, Message("parts", {"page": part.page}))  # before the version
    keepalive = float(r.config["keepalive_s"])
    for message in first:
        message.encode()  # here, on a pool thread, not on the serving loop
    if part is not None:
        r.parts.follow(client, part)
    scope = request.environ.get("asgi.scope")
    if isinstance(scope, dict) and STREAM_SLOT in scope:  # the serving loop writes it
        scope[STREAM_SLOT] = (client, first, keepalive)
        return Response(iter(()), mimetype="text/event-stream", headers=headers)
    return Response(r.hub.stream(client, first, keepalive), mimetype="text/event-stream",
                    headers=headers)


@bp.get("/history")
@joined
def history() -> Response:
    """Journal entries, newest last; ?player= and ?limit= filter them."""
    player = request.args.get("player") or None
    limit = request.args.get("limit", "200")
    if not limit.isdigit():
        raise Refusal("bad_request", _("limit must be a whole number"))
    return jsonify(remote().session.history(player, min(int(limit), 2000)))


@bp.get("/undo")
@joined
def undo_target() -> Response:
    """What an undo would take back now: {"target": journal entry or null, "question":
    "Undo: Ann bought Rue de la Paix?" in the phone's language (null: nothing to undo)}."""
    r = remote()
    target = r.session.undo_target()
    return jsonify({"ok": True, "target": target,
                    "question": say_undo(target, r.session.state())})


@bp.post("/undo")
@joined
def undo() -> Response:
    """The banker undoes the last command; a player takes back their own last move, while
    nobody has acted after it, or gives back money a move paid them (the session decides:
    a device roll or a card drawn only the banker)."""
    who = identity()
    assert who is not None
    if who.banker:
        return _banker_journal_step("undo")
    r = remote()
    # the session's rule (a result seen is kept: its own refusal, said in words, below)
    refused = r.session.undo_refusal(source_of(who))
    if refused is not None and refused.get("code") != "result_kept":
        raise Refusal("not_allowed", _("You can only take back your own last move, before "
                                         "anybody acts after it."), 403)
    if _version(_body()) != r.session.table().version:
        return refuse("stale_version", _("The table has changed: look again."), 409)
    return outcome_response(r.session.undo(source_of(who)))


@bp.post("/redo")
@joined
def redo() -> Response:
    """The banker redoes the last undone command."""
    return _banker_journal_step("redo")


def _banker_journal_step(step: str) -> Response:
    """Undo or redo for the banker, against the version the phone saw."""
    who = identity()
    assert who is not None
    if not who.banker:
        raise Refusal("banker_only", _("Only the banker can do that."), 403)
    r = remote()
    if _version(_body()) != r.session.table().version:
        return refuse("stale_version", _("The table has changed: look again."), 409)
    act = r.session.undo if step == "undo" else r.session.redo
    return outcome_response(act(source_of(who)))


# --- news seen -----------------------------------------------------------------------------


@bp.post("/news/seen")
@joined
def news_seen() -> Response:
    """The player's own phone has shown these news items long enough: {"keys": [...]} (keys
    from the Me page's news list). Only a player's phone marks, and only its own player's
    news; a key that is not their news now, or was already seen, refuses the whole request
    (400, nothing marked). Every phone is then told ("news" on the live stream), so the
    player's other phones drop the items."""
    who = identity()
    assert who is not None
    if who.player is None:
        raise Refusal("not_a_player", _("Only a player's own phone can mark their news as "
                                         "seen."), 403)
    body = _body()
    keys = body.get("keys")
    r = remote()
    out = r.session.mark_seen(keys, source_of(who))
    if not out.accepted:
        return refuse(str(out.code), _("This news cannot be marked as seen: it is not yours, "
                                       "no longer stands or was seen already."), 400,
                      english=out.message, params=out.params)
    r.hub.publish("news", {"player": who.player, "keys": keys})
    return jsonify({"ok": True, "keys": keys})


# --- trade proposals ----------------------------------------------------------------------


@bp.get("/trades")
@joined
def trades() -> Response:
    """Open proposals (a player sees those involving them; banker and spectators all)."""
    who = identity()
    assert who is not None
    mine = None if who.banker or who.role == "spectator" else who.player
    r = remote()
    return jsonify(trades_said(r.proposals.open(mine), r.session.state()))


@bp.post("/trades")
@joined
def propose() -> Response:
    """Propose a trade: {"to", "give", "take", "version"} (the banker may add "from")."""
    who = identity()
    assert who is not None
    r = remote()
    body = _body()
    version = _version(body)
    current = r.session.state()
    view = r.table(current)
    if version != view.version:
        return refuse("stale_version", _("The table has changed: look again."), 409)
    sender = body.get("from", who.player) if who.banker else who.player
    names = {p.name for p in view.players if not p.bankrupt}
    if not who.can_act or sender is None or sender not in names:
        raise Refusal("not_a_player", _("You are not a player of this game."), 403)
    receiver = body.get("to")
    if receiver not in names or receiver == sender:
        raise Refusal("unknown_player", _("Choose another player to trade with."))
    size = board_size(view)
    give = check_offer(body.get("give"), sender, view, size, "give")
    take = check_offer(body.get("take"), str(receiver), view, size, "take")
    if not any(give.values()) and not any(take.values()):
        raise Refusal("empty_trade", _("A trade must exchange something."))
    turn = view.turn.number
    if r.proposals.turn is not None and turn != r.proposals.turn:
        return refuse("stale_version", _("The table has changed: look again."), 409)
    item = r.proposals.add(sender, str(receiver), give, take, version, turn)
    if item is None:
        raise Refusal("too_many", _("You have too many open proposals."), 429)
    r.hub.publish("trades", {"id": item["id"]})  # the screen reads the same store
    return jsonify({"ok": True, "proposal": item})


@bp.post("/trades/<pid>/accept")
@joined
def accept(pid: str) -> Response:
    """The player it is offered to accepts, from their own phone: the trade is submitted
    to the game now. Nobody accepts for them, not even the banker."""
    who = identity()
    assert who is not None
    r = remote()
    body = _body()
    version = _version(body)
    item = r.proposals.get(pid)
    if item is None:
        raise Refusal("no_proposal", _("That proposal is no longer open."), 404)
    if not (who.role == "player" and who.player == item["to"]):
        raise Refusal("not_yours", _("Only %(name)s can accept this.", name=item["to"]), 403)
    command = {"do": "trade", "from": item["from"], "to": item["to"], "give": item["give"],
               "take": item["take"]}
    out = r.session.submit(command, Source(kind="phone", player=who.player),
                           expect_version=version)
    if out.accepted:
        r.proposals.remove(pid)
    elif out.code != "stale_version":
        state = r.session.state()
        r.proposals.note_error(pid, refusals.english(out.code, out.params, out.message, state),
                               out.code, out.params)
    r.hub.publish("trades", {"id": pid})
    return outcome_response(out)


@bp.post("/trades/<pid>/decline")
@joined
def decline(pid: str) -> Response:
    """Either player (or the banker) drops the proposal."""
    who = identity()
    assert who is not None
    r = remote()
    _body()
    item = r.proposals.get(pid)
    if item is None:
        raise Refusal("no_proposal", _("That proposal is no longer open."), 404)
    if not (who.banker or (who.role == "player" and who.player in (item["from"], item["to"]))):
        raise Refusal("not_yours", _("You can only answer your own trades."), 403)
    r.proposals.remove(pid)
    r.hub.publish("trades", {"id": pid})
    return jsonify({"ok": True})


