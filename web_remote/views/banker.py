"""The banker's page: undo / redo, corrections, settings, tags, new game, resume, export.

Its forms (new game, PIN, tags, card registration, resume) are plain POSTs that go back to
the page. A refusal is said beside the form that was sent, keeping what was typed: the
page's script sends the form itself and asks for JSON (`Accept: application/json`), then
shows the message in the form's `[data-form-error]`; without the script the POST answers
with the banker page again (the refusal's status), the message beside the form and the
form filled in as it was sent.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response as BaseResponse

from companion.editions import edition_ids, player_limits
from companion.game.api import Source
from companion.game.applying import apply_command
from companion.rules import Rejection
from companion.words import refusals
from web_remote.app import identity, refuse, remote, wants_json
from web_remote.i18n import _, current_language, ngettext, say_refusal, say_undo
from web_remote.present import edition, money, square_names
from web_remote.security import valid_pin
from web_remote.views.pages import building_names, building_said

bp = Blueprint("banker", __name__, url_prefix="/banker")


def _banker_only() -> Response | None:
    who = identity()
    if who is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    if not who.banker:
        return refuse("banker_only", _("Only the banker can do that."), 403)
    return None


#: the house rules the new-game form offers
HOUSE_RULES = ("free_parking_pot", "double_salary_on_go", "no_rent_in_jail", "bank_only")


@bp.get("")
def page() -> BaseResponse:
    """The banker's tools."""
    denied = _banker_only()
    if denied is not None:
        return denied
    return _render()


def _render(refused: dict[str, str] | None = None,
            sent: MultiDict[str, str] | None = None) -> Response:
    """The banker's page (its live part for ?partial=1); after a refused form sent without
    the page's script, with the refusal (`refused`: "form", "code", "message") beside that
    form and the form filled in with what was `sent`."""
    r = remote()
    state = r.session.state()
    tags = r.config.get("tags")
    games = r.config.get("games")
    registration = _registration_status(tags)
    game_list = games.list() if games is not None else None
    shown = {"new_game": True, "pin": True, "tags": tags is not None,
             "registration": registration is not None, "resume": game_list is not None}
    if refused is not None and not shown.get(refused["form"]):
        refused = {**refused, "form": "page"}  # a form this page does not have: said on top
    players = [p["name"] for p in state.get("players", [])]
    lang = current_language()
    template = "parts/banker.html" if request.args.get("partial") else "banker.html"
    return Response(render_template(
        template, state=state, page_name="banker", partial_url=url_for("banker.page"),
        players=players, money=lambda a: money(a, state.get("currency"), lang),
        editions=[(e, edition(e), player_limits(e), players_allowed(e)) for e in edition_ids()],
        tags=tags.list() if tags is not None else None, registration=registration,
        games=game_list, new_file=callable(getattr(games, "start_new_game_file", None)),
        options=state.get("options", {}), journal=len(r.session.history(None, 100000)),
        undo_question=say_undo(r.session.undo_target(), state),
        auction_building=shortage_auction(state), building_names=building_names(),
        said=building_said(state.get("pending")), names=square_names(state, lang),
        refused=refused, typed=_typed(refused, sent, state, players),
    ), mimetype="text/html")


def _typed(refused: dict[str, str] | None, sent: MultiDict[str, str] | None,
           state: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """What each form shows in its fields: the values sent with a refused form, else the
    defaults (the new game: the edition and players of the game in play)."""
    mine = sent if refused is not None and sent is not None else MultiDict()
    form = refused["form"] if refused is not None else ""
    new_game = mine if form == "new_game" else MultiDict()
    return {
        "new_game": {
            "edition": new_game.get("edition") or state.get("edition"),
            "players": new_game.get("players", ", ".join(players)),
            "seed": new_game.get("seed", "0"), "pin": new_game.get("pin", ""),
            "rules": {key for key in HOUSE_RULES if new_game.get(key)},
        },
        "pin": mine.get("pin", "") if form == "pin" else "",
        "tag": mine.get("tag", "") if form == "tags" else "",
        "meaning": mine.get("meaning", "") if form == "tags" else "",
        "kind": mine.get("kind", "") if form == "registration" else "",
        "game": mine.get("game", "") if form == "resume" else "",
    }


def _form_refused(form: str, code: str, message: str, status: int,
                  english: str | None = None) -> Response:
    """A banker form refused, said beside the form: JSON for the page's script (the form
    keeps what was typed), else the banker page again with what was sent."""
    if wants_json():
        return refuse(code, message, status, english=english)
    resp = _render({"form": form, "code": code, "message": str(message)}, request.form)
    resp.status_code = status
    return resp


def _done() -> BaseResponse:
    """A banker form did what it asked: back to the banker page (the page's script, which
    asked for JSON, refreshes it in place)."""
    if wants_json():
        return jsonify({"ok": True})
    return redirect(url_for("banker.page"))


def shortage_auction(state: dict[str, Any]) -> dict[str, Any] | None:
    """The banker's call in a housing shortage, when `legal` offers it: the bank auctions
    one of `buildings` (docs/state-json.md)."""
    return next((c for c in state.get("legal", []) if c.get("do") == "auction_building"
                 and "by" not in c and c.get("buildings")), None)


def players_allowed(edition_id: str) -> str:
    """"Monopoly Sverige is for 2 to 6 players.", in the phone's language."""
    ed = edition(edition_id)
    fewest, most = player_limits(edition_id)
    return ngettext("%(edition)s is for %(min)d to %(num)d player.",
                    "%(edition)s is for %(min)d to %(num)d players.", most,
                    edition=ed.name if ed is not None else edition_id, min=fewest)


@bp.post("/new-game")
def new_game() -> BaseResponse:
    """Start a new game with the given players (and set the banker PIN when given).

    With `file=new` (the second button) the game starts in a new saved file through the
    `games` hook's `start_new_game_file(command, source)`: the game being played stays
    saved, to be resumed from the saved-games list, and a game that cannot be saved leaves
    no new file behind; otherwise it starts in the current file (where undo brings the
    previous game back)."""
    denied = _banker_only()
    if denied is not None:
        return denied
    r = remote()
    names = [n.strip() for n in request.form.get("players", "").replace("\n", ",").split(",")
             if n.strip()]
    edition_id = request.form.get("edition", "classic-eur")
    if edition_id not in edition_ids():
        return _form_refused("new_game", "bad_edition", _("Unknown edition."), 400)
    fewest, most = player_limits(edition_id)
    if not fewest <= len(names) <= most:  # said here, before the engine refuses it
        return _form_refused("new_game", "bad_players", players_allowed(edition_id), 400)
    pin = request.form.get("pin", "")
    if pin and not valid_pin(pin):
        return _form_refused("new_game", "bad_pin", _("Choose a PIN of 4 to 12 digits."), 400)
    seed_text = request.form.get("seed", "0") or "0"
    if not seed_text.isdigit():
        return _form_refused("new_game", "bad_command", _("The seed must be a whole number."),
                             400)
    options: dict[str, Any] = {}
    for key in HOUSE_RULES:
        if request.form.get(key):
            options[key] = True
    command = {"do": "new_game", "edition": edition_id, "players": names,
               "seed": int(seed_text), "options": options}
    who = identity()
    assert who is not None
    source = Source(kind="phone", player=who.player, banker=True)
    if request.form.get("file") == "new":
        start_new = getattr(r.config.get("games"), "start_new_game_file", None)
        if not callable(start_new):
            return _form_refused("new_game", "no_games",
                                 _("Saved games are not available here."), 404)
        checked = apply_command(None, command)  # refused now, not after a new file is made
        if isinstance(checked, Rejection):
            return _refused(checked.code.value, checked.params, checked.message)
        try:  # refused there (a full disk): back to the game played, the new file removed
            out = start_new(command, source)
        except (LookupError, RuntimeError, ValueError, OSError) as exc:  # the old one stays
            return _form_refused("new_game", str(getattr(exc, "code", "cannot_resume")),
                                 _("That saved game cannot be opened: %(why)s", why=str(exc)),
                                 422)
    else:
        out = r.session.submit(command, source)
    if not out.accepted:
        return _refused(out.code, out.params, out.message)
    if pin:
        r.pin.set(pin)
    return _done()


def _refused(code: str | None, params: dict[str, Any], message: str | None) -> Response:
    """A refused new game, said in the phone's language (422) beside the form."""
    state = remote().session.state()
    return _form_refused("new_game", code or "refused",
                         say_refusal(code, params, message, state), 422,
                         english=refusals.english(code, params, message, state))


@bp.post("/pin")
def change_pin() -> BaseResponse:
    """Change the banker PIN."""
    denied = _banker_only()
    if denied is not None:
        return denied
    pin = request.form.get("pin", "")
    if not valid_pin(pin):
        return _form_refused("pin", "bad_pin", _("Choose a PIN of 4 to 12 digits."), 400)
    remote().pin.set(pin)
    return _done()


@bp.post("/tags")
def register_tag() -> BaseResponse:
    """Register an RFID tag's meaning through the hardware's tag registry (when there)."""
    denied = _banker_only()
    if denied is not None:
        return denied
    tags = remote().config.get("tags")
    if tags is None:
        return _form_refused("tags", "no_tags",
                             _("No RFID reader is connected to this companion."), 404)
    tag, meaning = request.form.get("tag", "").strip(), request.form.get("meaning", "").strip()
    if not tag or not meaning:
        return _form_refused("tags", "bad_command", _("Give the tag and what it stands for."),
                             400)
    try:
        tags.register(tag, meaning)
    except ValueError as exc:
        return _form_refused("tags", "bad_command", str(exc), 400)
    return _done()


# -- guided card registration: the "tags" hook's start(kind) / status() / cancel() --------

REGISTRATION_STEPS = {"skip": "skip", "back": "back", "cancel": "cancel"}


def _registration_status(tags: Any) -> dict[str, Any] | None:
    """The registration run as the hook tells it, names in the phone's language (None:
    the hook has no guided registration)."""
    status = getattr(tags, "status", None)
    if status is None:
        return None
    try:
        found: dict[str, Any] = status(current_language())
    except TypeError:  # a hook whose status() takes no language
        found = status()
    return found


@bp.post("/registration")
def registration() -> BaseResponse:
    """Start a registration run ("do": "start" with "kind"), or skip, go back, stop it,
    or answer whether to move a card ("move" / "keep"). The taps happen on the reader."""
    denied = _banker_only()
    if denied is not None:
        return denied
    tags = remote().config.get("tags")
    if tags is None or not hasattr(tags, "start"):
        return _form_refused("registration", "no_tags",
                             _("No RFID reader is connected to this companion."), 404)
    do = request.form.get("do", "")
    try:
        if do == "start":
            tags.start(request.form.get("kind", ""))
        elif do in ("move", "keep"):
            tags.confirm(do == "move")
        elif do in REGISTRATION_STEPS:
            getattr(tags, REGISTRATION_STEPS[do])()
        else:
            return _form_refused("registration", "bad_command",
                                 _("Unknown registration step."), 400)
    except ValueError as exc:
        return _form_refused("registration", "bad_command", str(exc), 400)
    return _done()


@bp.record_once
def _live_registration(setup: Any) -> None:
    """Phones on the banker page refresh whenever the registration run moves on (a tap on
    the reader, a button at the table): the hook's listener publishes a refresh."""
    r = setup.app.extensions.get("web_remote")
    listen = getattr(getattr(r, "config", {}).get("tags"), "add_listener", None)
    if r is None or listen is None:
        return
    r.cleanup.append(listen(lambda: r.hub.publish("trades", {"registration": True})))


@bp.post("/resume")
def resume() -> BaseResponse:
    """Resume a saved game through the companion's game list (when there)."""
    denied = _banker_only()
    if denied is not None:
        return denied
    games = remote().config.get("games")
    if games is None:
        return _form_refused("resume", "no_games", _("Saved games are not available here."),
                             404)
    try:
        games.resume(request.form.get("game", ""))
    except (LookupError, RuntimeError, ValueError) as exc:  # the old game stays in use
        code = str(getattr(exc, "code", "cannot_resume"))
        missing = code in ("no_such_game", "bad_game")
        return _form_refused("resume", code, _("There is no such saved game.") if missing else
                             _("That saved game cannot be opened: %(why)s", why=str(exc)),
                             404 if missing else 422)
    return _done()


def effective_commands(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The commands that made the game as it is: from the last new game, undone ones left
    out (an undo or redo row names its target; the target row says whether it stands undone).
    """
    done: list[dict[str, Any]] = []
    for entry in entries:
        if entry.get("kind", "command") != "command" or entry.get("undone"):
            continue
        command = entry.get("command") or {}
        if command.get("do") == "new_game":
            done.clear()
        done.append(command)
    return done


@bp.get("/export")
def export() -> BaseResponse:
    """The game as a table script (JSON Lines) to download."""
    denied = _banker_only()
    if denied is not None:
        return denied
    entries = remote().session.history(None, 1_000_000)
    lines = [json.dumps(c, ensure_ascii=False) for c in effective_commands(entries)]
    resp = Response("\n".join(lines) + "\n", mimetype="application/x-ndjson")
    resp.headers["Content-Disposition"] = "attachment; filename=game.jsonl"
    return resp
