"""The banker's page: undo / redo, corrections, settings, tags, new game, resume, export."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion import refusals
from companion.editions import edition_ids, player_limits
from companion.game import apply_command
from companion.rules import Rejection
from companion.session_api import Source
from web_remote.app import identity, refuse, remote
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


@bp.get("")
def page() -> BaseResponse:
    """The banker's tools."""
    denied = _banker_only()
    if denied is not None:
        return denied
    r = remote()
    state = r.session.state()
    tags = r.config.get("tags")
    games = r.config.get("games")
    template = "parts/banker.html" if request.args.get("partial") else "banker.html"
    return Response(render_template(
        template, state=state, page_name="banker", partial_url=request.full_path,
        players=[p["name"] for p in state.get("players", [])],
        money=lambda a: money(a, state.get("currency")),
        editions=[(e, edition(e), player_limits(e), players_allowed(e)) for e in edition_ids()],
        tags=tags.list() if tags is not None else None,
        registration=_registration_status(tags),
        games=games.list() if games is not None else None,
        new_file=callable(getattr(games, "start_new_game_file", None)),
        options=state.get("options", {}), journal=len(r.session.history(None, 100000)),
        undo_question=say_undo(r.session.undo_target(), state),
        auction_building=shortage_auction(state), building_names=building_names(),
        said=building_said(state.get("pending")), names=square_names(state),
    ), mimetype="text/html")


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
        return refuse("bad_edition", _("Unknown edition."), 400)
    fewest, most = player_limits(edition_id)
    if not fewest <= len(names) <= most:  # said here, before the engine refuses it
        return refuse("bad_players", players_allowed(edition_id), 400)
    pin = request.form.get("pin", "")
    if pin and not valid_pin(pin):
        return refuse("bad_pin", _("Choose a PIN of 4 to 12 digits."), 400)
    seed_text = request.form.get("seed", "0") or "0"
    if not seed_text.isdigit():
        return refuse("bad_command", _("The seed must be a whole number."), 400)
    options: dict[str, Any] = {}
    for key in ("free_parking_pot", "double_salary_on_go", "no_rent_in_jail", "bank_only"):
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
            return refuse("no_games", _("Saved games are not available here."), 404)
        checked = apply_command(None, command)  # refused now, not after a new file is made
        if isinstance(checked, Rejection):
            return _refused(checked.code.value, checked.params, checked.message)
        try:  # refused there (a full disk): back to the game played, the new file removed
            out = start_new(command, source)
        except (LookupError, RuntimeError, ValueError, OSError) as exc:  # the old one stays
            return refuse(str(getattr(exc, "code", "cannot_resume")),
                          _("That saved game cannot be opened: %(why)s", why=str(exc)), 422)
    else:
        out = r.session.submit(command, source)
    if not out.accepted:
        return _refused(out.code, out.params, out.message)
    if pin:
        r.pin.set(pin)
    return redirect(url_for("banker.page"))


def _refused(code: str | None, params: dict[str, Any], message: str | None) -> Response:
    """A refused new game, said in the phone's language (422)."""
    state = remote().session.state()
    return refuse(code or "refused", say_refusal(code, params, message, state), 422,
                  english=refusals.english(code, params, message, state))


@bp.post("/pin")
def change_pin() -> BaseResponse:
    """Change the banker PIN."""
    denied = _banker_only()
    if denied is not None:
        return denied
    pin = request.form.get("pin", "")
    if not valid_pin(pin):
        return refuse("bad_pin", _("Choose a PIN of 4 to 12 digits."), 400)
    remote().pin.set(pin)
    return redirect(url_for("banker.page"))


@bp.post("/tags")
def register_tag() -> BaseResponse:
    """Register an RFID tag's meaning through the hardware's tag registry (when there)."""
    denied = _banker_only()
    if denied is not None:
        return denied
    tags = remote().config.get("tags")
    if tags is None:
        return refuse("no_tags", _("No RFID reader is connected to this companion."), 404)
    tag, meaning = request.form.get("tag", "").strip(), request.form.get("meaning", "").strip()
    if not tag or not meaning:
        return refuse("bad_command", _("Give the tag and what it stands for."), 400)
    try:
        tags.register(tag, meaning)
    except ValueError as exc:
        return refuse("bad_command", str(exc), 400)
    return redirect(url_for("banker.page"))


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
        return refuse("no_tags", _("No RFID reader is connected to this companion."), 404)
    do = request.form.get("do", "")
    try:
        if do == "start":
            tags.start(request.form.get("kind", ""))
        elif do in ("move", "keep"):
            tags.confirm(do == "move")
        elif do in REGISTRATION_STEPS:
            getattr(tags, REGISTRATION_STEPS[do])()
        else:
            return refuse("bad_command", _("Unknown registration step."), 400)
    except ValueError as exc:
        return refuse("bad_command", str(exc), 400)
    return redirect(url_for("banker.page"))


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
        return refuse("no_games", _("Saved games are not available here."), 404)
    try:
        games.resume(request.form.get("game", ""))
    except (LookupError, RuntimeError, ValueError) as exc:  # the old game stays in use
        code = str(getattr(exc, "code", "cannot_resume"))
        missing = code in ("no_such_game", "bad_game")
        return refuse(code, _("There is no such saved game.") if missing else
                      _("That saved game cannot be opened: %(why)s", why=str(exc)),
                      404 if missing else 422)
    return redirect(url_for("banker.page"))


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
