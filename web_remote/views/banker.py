"""The banker's page: undo / redo, corrections, settings, tags, new game, resume, export.

Its forms (new game, PIN, tags, card registration, resume) are plain POSTs that go back to
the page. A refusal is said beside the form that was sent, keeping what was typed: the
page's script sends the form itself and asks for JSON (`Accept: application/json`), then
shows the message in the form's `[data-form-error]`; without the script the POST answers
with the banker page again (the refusal's status), the message beside the form and the
form filled in as it was sent.
"""

from __future__ import annotations

import io
import json
import math
import time
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response as BaseResponse

from companion.editions import edition_ids, player_limits
from companion.game.api import JSON, SavedGame, Source
from companion.game.applying import apply_command
from companion.game.limits import MAX_DIGITS, fresh_seed
from companion.game.pins import PinWarning, valid_pin
from companion.game.table.view import TableView
from companion.rules import Rejection
from companion.speech import settings as speech_settings
from companion.words import catalog as i18n_words
from companion.words import refusals
from companion.words.input_texts import input_text
from web_remote.context import banker_only, identity, make_banker, refuse, remote, wants_json
from web_remote.guard import Refusal, check_names
from web_remote.i18n import _, current_language, ngettext, say_refusal, say_undo
from web_remote.present import edition, money, square_names
from web_remote.views.join import pin_refusal
from web_remote.views.pages import building_names, building_said

bp = Blueprint("banker", __name__, url_prefix="/banker")



#: the house rules the new-game form offers
HOUSE_RULES = ("free_parking_pot", "double_salary_on_go", "no_rent_in_jail", "bank_only",
               "physical_dice", "physical_deck")


@bp.get("")
def page() -> BaseResponse:
    """The banker's tools."""
    denied = banker_only()
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
    tags = r.hooks.tags
    games = r.hooks.games
    registration = (r.hooks.registration.status(current_language())
                    if r.hooks.registration is not None else None)
    game_list = [{**g, "name": game_label(SavedGame.of(g))} for g in games.list()] \
        if games is not None else None
    shown = {"new_game": True, "pin": True, "seats": True, "teaching": True, "language": True,
             "voice": True,
             "tags": tags is not None, "registration": registration is not None,
             "resume": game_list is not None}
    if refused is not None and not shown.get(refused["form"]):
        refused = {**refused, "form": "page"}  # a form this page does not have: said on top
    lang = current_language()
    view = r.table(state)
    players = list(view.names())
    template = "parts/banker.html" if request.args.get("partial") else "banker.html"
    return Response(render_template(
        template, view=view, now=r.session.now(), page_name="banker",
        partial_url=url_for("banker.page"),
        players=players, money=lambda a: money(a, view.setup.currency, lang),
        editions=[(e, edition(e), player_limits(e), players_allowed(e)) for e in edition_ids()],
        tags=tags.list(current_language()) if tags is not None else None, registration=registration,
        games=game_list, new_file=r.hooks.new_game_file is not None,
        options=view.setup.options,
        journal=int((r.session.history(None, 1) or [{}])[-1].get("seq") or 0),  # one row read
        undo_question=say_undo(r.session.undo_target(), state),
        auction_building=shortage_auction(view),
        # the banker's calls, as the view of the table offers them now
        can_close=view.move("close_auction") is not None,
        can_end=view.move("end_game") is not None,
        building_names=building_names(),
        said=building_said(view.decision), names=square_names(view, lang),
        refused=refused, typed=_typed(refused, sent, view, players),
        pin_set=r.pin.store.is_set, pin_warning=pin_warning_said(r.pin.warning()),
        seats=r.seats.held(players), edition_name=edition_name,
        table_lang=r.table_language.resolve(view.setup.edition),
        voice=speech_settings.load(r.data_dir),
    ), mimetype="text/html")


def default_edition(lang: str) -> str:
    """The edition a new table starts with: the classic edition of the phone's language
    when there is one (English: classic-en), else that language's own edition (Swedish,
    Polish, Russian), else the classic euro edition.

    >>> default_edition("en"), default_edition("sv"), default_edition("de")
    ('classic-en', 'sv', 'classic-eur')
    """
    ids = edition_ids()
    spoken = [e for e in ids if (ed := edition(e)) is not None and ed.language == lang]
    for pick in (*(e for e in spoken if e.startswith("classic")), *spoken):
        return pick
    return "classic-eur" if "classic-eur" in ids else ids[0]


def edition_name(edition_id: str) -> str:
    """An edition's name in the phone's language (as the edition names itself there)."""
    try:
        return i18n_words.localized_name(edition_id, edition_id, current_language())
    except (KeyError, OSError, ValueError):
        return edition_id


def game_label(game: SavedGame) -> str:
    """One saved game as the banker's list names it, in the phone's language: players,
    edition, turn or winner, when last played (companion.game.switch.describe's facts)."""
    parts = [", ".join(game.players) or str(_("no game started"))]
    if game.edition:
        parts.append(edition_name(game.edition))
    if game.winner:
        parts.append(str(_("%(name)s wins!", name=game.winner)))
    elif game.turn:
        parts.append(str(_("Turn %(number)d", number=game.turn)))
    if game.last_played:
        parts.append(game.last_played)
    return " · ".join(parts)


def _clock_time(stamp: float) -> str:
    """A wall-clock time of today as the table reads it ("14:05")."""
    return time.strftime("%H:%M", time.localtime(stamp))


def pin_warning_said(warning: PinWarning | None) -> str | None:
    """The banker's warning of wrong PINs, in the phone's language (None: none typed)."""
    if warning is None:
        return None
    said = str(ngettext("%(num)d wrong banker PIN typed, the last at %(last)s.",
                        "%(num)d wrong banker PINs typed, the last at %(last)s.",
                        warning.wrong, last=_clock_time(warning.last)))
    if warning.wait >= 1:
        said += " " + ngettext("The table checks no PIN for %(num)d second.",
                               "The table checks no PIN for %(num)d seconds.",
                               math.ceil(warning.wait))
    return said


def _typed(refused: dict[str, str] | None, sent: MultiDict[str, str] | None,
           view: TableView, players: list[str]) -> dict[str, Any]:
    """What each form shows in its fields: the values sent with a refused form, else the
    defaults (the new game: the edition and players of the game in play)."""
    mine = sent if refused is not None and sent is not None else MultiDict()
    form = refused["form"] if refused is not None else ""
    new_game = mine if form == "new_game" else MultiDict()
    return {
        "new_game": {
            "edition": new_game.get("edition") or view.setup.edition
            or default_edition(current_language()),
            "players": new_game.get("players", ", ".join(players)),
            "seed": new_game.get("seed", ""), "pin": new_game.get("pin", ""),
            # the table's language, else the one the dealer reads: dealing keeps it
            "language": new_game.get("language") or remote().table_language.spoken()
            or current_language(),
            "rules": {key for key in HOUSE_RULES if new_game.get(key)},
            # the teaching table: as typed, else on for a table's first game (no game: None)
            # or as it is now
            "teaching": bool(new_game.get("teaching")) if form == "new_game"
            else view.teaching_on is not False,
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


def shortage_auction(view: TableView) -> JSON | None:
    """The banker's call in a housing shortage: the bank auctions one of `buildings`
    (the move the view of the table offers the banker), offered only for a building the
    bank has fewer of than there are players who may build now (with 31 houses in the bank
    nobody needs an auction)."""
    call = view.move("auction_building")
    if call is None or not call.buildings:
        return None
    builders = view.senders("build")
    short = [b for b in call.buildings if view.bank.stock(b) < len(builders)]
    return call.command(buildings=short) if short else None


def players_allowed(edition_id: str) -> str:
    """"Monopoly Sverige is for 2 to 6 players.", in the phone's language."""
    ed = edition(edition_id)
    fewest, most = player_limits(edition_id)
    return ngettext("%(edition)s is for %(min)d to %(num)d player.",
                    "%(edition)s is for %(min)d to %(num)d players.", most,
                    edition=edition_name(edition_id) if ed is not None else edition_id,
                    min=fewest)


@bp.post("/new-game")
def new_game() -> BaseResponse:
    """Start a new game with the given players (and set the banker PIN when given).

    With `file=new` (the second button) the game starts in a new saved file through the
    `games` hook's `start_new_game_file(command, source)`: the game being played stays
    saved, to be resumed from the saved-games list, and a game that cannot be saved leaves
    no new file behind; otherwise it starts in the current file (where undo brings the
    previous game back)."""
    denied = banker_only()
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
    try:
        check_names(names)  # the engine takes any text as a name: bounded here
    except Refusal as exc:
        return _form_refused("new_game", exc.code, exc.message, exc.status)
    pin = request.form.get("pin", "")
    if pin and not valid_pin(pin):
        return _form_refused("new_game", "bad_pin", _("Choose a PIN of 4 to 12 digits."), 400)
    if pin and r.pin.store.is_set:  # a PIN is changed only with the old one
        old = request.form.get("old_pin", "")
        if not old:
            return _form_refused("new_game", "bad_pin", _("Type the old PIN to change it."),
                                 403)
        verdict = r.pin.check(old, lane="banker")  # its own door: never kept waiting
        if not verdict.right:
            return _form_refused("new_game", *pin_refusal(verdict))
    seed_text = request.form.get("seed", "").strip()  # none typed: new dice every evening
    if seed_text and not (seed_text.isascii() and seed_text.isdigit()
                          and len(seed_text) <= MAX_DIGITS):
        return _form_refused("new_game", "bad_command", _("The seed must be a whole number."),
                             400)
    seed = int(seed_text) if seed_text else fresh_seed()
    options: dict[str, Any] = {}
    for key in HOUSE_RULES:
        if request.form.get(key):
            options[key] = True
    command = {"do": "new_game", "edition": edition_id, "players": names,
               "seed": seed, "options": options,
               "teaching": bool(request.form.get("teaching"))}
    who = identity()
    assert who is not None
    source = Source(kind="phone", player=who.player, banker=True)
    if request.form.get("file") == "new":
        start_new = r.hooks.new_game_file
        if start_new is None:
            return _form_refused("new_game", "no_games",
                                 _("Saved games are not available here."), 404)
        # refused now, not after a new file is made ("teaching" is the session's, not a rule)
        checked = apply_command(None, {k: v for k, v in command.items() if k != "teaching"})
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
    # the game is dealt in the language chosen on the form: the table's from now on
    r.table_language.choose(request.form.get("language", "") or current_language())
    if pin:
        make_banker(r.pin.store.set(pin))
    return _done()


def _refused(code: str | None, params: dict[str, Any], message: str | None) -> Response:
    """A refused new game, said in the phone's language (422) beside the form."""
    state = remote().session.state()
    return _form_refused("new_game", code or "refused",
                         say_refusal(code, params, message, state), 422,
                         english=refusals.english(code, params, message, state))


@bp.post("/pin")
def change_pin() -> BaseResponse:
    """Change the banker PIN, given the old one: every other banker session ends, this phone
    stays the banker."""
    denied = banker_only()
    if denied is not None:
        return denied
    r = remote()
    pin = request.form.get("pin", "")
    if not valid_pin(pin):
        return _form_refused("pin", "bad_pin", _("Choose a PIN of 4 to 12 digits."), 400)
    old = request.form.get("old_pin", "")
    if not old:
        return _form_refused("pin", "bad_pin", _("Type the old PIN to change it."), 403)
    verdict = r.pin.check(old, lane="banker")  # its own door: never kept waiting
    if not verdict.right:
        return _form_refused("pin", *pin_refusal(verdict))
    make_banker(r.pin.store.set(pin))
    return _done()


@bp.post("/seat")
def release_seat() -> BaseResponse:
    """Release a player's seat (a lost phone): the phone holding it is signed out at once,
    and the next join link gives the seat to a new phone."""
    denied = banker_only()
    if denied is not None:
        return denied
    name = request.form.get("player", "")
    if not remote().seats.release(name):
        return _form_refused("seats", "not_found", _("No phone holds that seat."), 404)
    return _done()


@bp.post("/teaching")
def teaching() -> BaseResponse:
    """The teaching table on or off for this game (lessons the first time a rule applies)."""
    denied = banker_only()
    if denied is not None:
        return denied
    who = identity()
    assert who is not None
    out = remote().session.set_teaching(request.form.get("on") == "1",
                                        Source(kind="phone", player=who.player, banker=True))
    if not out.accepted:
        return _form_refused("teaching", out.code or "not_allowed", out.message or "", 403)
    return _done()


@bp.post("/language")
def table_language() -> BaseResponse:
    """The table's one language (the screen's, and every phone's that picked none): the
    banker's call, kept for the next games whoever deals them."""
    denied = banker_only()
    if denied is not None:
        return denied
    if not remote().table_language.choose(request.form.get("language", "")):
        return _form_refused("language", "bad_language", _("Unknown language."), 400)
    return _done()


@bp.post("/voice")
def voice() -> BaseResponse:
    """The table's voice (companion.speech): on or off, its volume, its quiet hours; kept
    in the data directory's speech.json, which the announcer reads again when it changed."""
    denied = banker_only()
    if denied is not None:
        return denied
    try:
        volume = int(request.form.get("volume", "80"))
        quiet = [int(request.form.get(k, "0") or 0) for k in ("quiet_from", "quiet_until")]
    except ValueError:
        volume, quiet = -1, [0, 0]
    if not 0 <= volume <= 100 or not all(0 <= hour <= 23 for hour in quiet):
        return _form_refused("voice", "bad_voice",
                             _("The volume goes from 0 to 100, the hours from 0 to 23."), 400)
    speech_settings.save(remote().data_dir, speech_settings.SpeechSettings(
        on=request.form.get("on") == "1", volume=volume, quiet_from=quiet[0],
        quiet_until=quiet[1]))
    return _done()


@bp.post("/warning")
def warning_seen() -> BaseResponse:
    """The banker saw the wrong-PIN warning: it goes."""
    denied = banker_only()
    if denied is not None:
        return denied
    remote().pin.seen()
    return _done()


@bp.post("/tags")
def register_tag() -> BaseResponse:
    """Register an RFID tag's meaning through the hardware's tag registry (when there)."""
    denied = banker_only()
    if denied is not None:
        return denied
    tags = remote().hooks.tags
    if tags is None:
        return _form_refused("tags", "no_tags",
                             _("No RFID reader is connected to this companion."), 404)
    tag, meaning = request.form.get("tag", "").strip(), request.form.get("meaning", "").strip()
    if not tag or not meaning:
        return _form_refused("tags", "bad_command", _("Give the tag and what it stands for."),
                             400)
    try:
        tags.register(tag, meaning)
    except ValueError:  # said in the banker's language (the hook's own words are English)
        return _form_refused("tags", "bad_command",
                             input_text("reg_bad_meaning", current_language()), 400,
                             english=input_text("reg_bad_meaning", "en"))
    return _done()


# -- guided card registration: the registration hook's start(kind) / status() / cancel() --

@bp.post("/registration")
def registration() -> BaseResponse:
    """Start a registration run ("do": "start" with "kind"), or skip, go back, stop it,
    or answer whether to move a card ("move" / "keep"). The taps happen on the reader."""
    denied = banker_only()
    if denied is not None:
        return denied
    run = remote().hooks.registration
    if run is None:
        return _form_refused("registration", "no_tags",
                             _("No RFID reader is connected to this companion."), 404)
    do = request.form.get("do", "")
    try:
        if do == "start":
            run.start(request.form.get("kind", ""))
        elif do in ("move", "keep"):
            run.confirm(do == "move")
        elif do == "skip":
            run.skip()
        elif do == "back":
            run.back()
        elif do == "cancel":
            run.cancel()
        else:
            return _form_refused("registration", "bad_command",
                                 _("Unknown registration step."), 400)
    except ValueError:  # a kind of cards this board does not have
        return _form_refused("registration", "bad_command",
                             input_text("reg_kind_missing", current_language()), 400,
                             english=input_text("reg_kind_missing", "en"))
    return _done()


@bp.post("/resume")
def resume() -> BaseResponse:
    """Resume a saved game through the companion's game list (when there)."""
    denied = banker_only()
    if denied is not None:
        return denied
    games = remote().hooks.games
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
    denied = banker_only()
    if denied is not None:
        return denied
    entries = remote().session.history(None, 1_000_000)
    lines = [json.dumps(c, ensure_ascii=False) for c in effective_commands(entries)]
    resp = Response("\n".join(lines) + "\n", mimetype="application/x-ndjson")
    resp.headers["Content-Disposition"] = "attachment; filename=game.jsonl"
    return resp


@bp.get("/backup")
def backup() -> BaseResponse:
    """Every saved game and the table's settings as one file to keep off the table
    (companion.game.backup: a consistent copy while the game goes on)."""
    denied = banker_only()
    if denied is not None:
        return denied
    from companion.game.backup import default_name, write_backup

    packed = io.BytesIO()  # an evening's journal is well under a megabyte
    write_backup(remote().data_dir, packed)
    resp = Response(packed.getvalue(), mimetype="application/gzip")
    resp.headers["Content-Disposition"] = f"attachment; filename={default_name()}"
    resp.headers["Cache-Control"] = "no-store"
    return resp
