"""The pages: Me, Table, History, Net worth, Rules. Each renders whole, or only its live
part (?partial=1) when the phone's script refreshes it after an update.
"""

from __future__ import annotations

import functools
import io
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import asdict
from types import MappingProxyType
from typing import Any

import segno
from flask import Blueprint, Response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.game.api import JSON, Source
from companion.game.table.decision import Decision
from companion.game.table.records import Setup
from companion.game.table.view import Move, TableView
from companion.inputs.entry import dice_entered
from companion.words.catalog import group_digits
from companion.words.move_words import MoveSaid
from web_remote import rulebook
from web_remote.context import asker, identity, refuse, remote
from web_remote.guard import Identity
from web_remote.i18n import (
    _,
    current_language,
    say_events,
    say_moves,
    say_news,
    say_undo,
    trades_said,
)
from web_remote.links import join_url
from web_remote.present import (
    DEED_VERBS,
    board,
    deeds,
    edition,
    events,
    group_colour,
    group_mark,
    money,
    square_names,
    transactions,
)
from web_remote.reasons import lesson_for, move_reasons, reason
from web_remote.views.fragments import fragments
from web_remote.views.shared import shared
from web_remote.worth import chart_svg, legend_entries

bp = Blueprint("pages", __name__)
QUICK_BIDS = (10, 50, 100)
#: the moves the Me page offers as one button each (nothing to choose)
SIMPLE_VERBS = ("roll", "buy", "decline", "draw", "pay_fine", "use_card", "end_turn")


def offers_key(offers: list[JSON]) -> str:
    """The offers a Me page shows, in a few characters (each one's id, and whether and why
    accepting it failed): app.js compares it with the offers of this seat's view of the
    table (GET /api/table) when the offers change, and reads the page again only when it
    differs.

    >>> offers_key([{"id": "t2"}, {"id": "t1", "error": "no", "error_code": "not_now"}])
    't1:not_now:1 t2::0'
    """
    return " ".join(sorted(f"{o.get('id')}:{o.get('error_code') or ''}:{1 if o.get('error') else 0}"
                           for o in offers))


def _json(move: Move | None) -> JSON | None:
    return move.to_json() if move is not None else None
#: the Table page's "Latest" list: how many moves, and how far back an undo there may find
#: the move it took back
LATEST = 12
LOOK_BACK = 200
#: the History page: how many of its lines (payments, and notable moves) one page of it
#: shows at least, of whole journal entries, the newest first (a link leads to the ones
#: before): what a phone on it costs after each move stays the same all game long (issue
#: 28; it read and drew up to 2 000 entries after every payment); it reads the journal
#: back HISTORY_CHUNK entries at a time, HISTORY_SCAN at most (a player's page of a player
#: seldom named)
HISTORY_LINES = 40
HISTORY_CHUNK = 50
HISTORY_SCAN = 200


def verb_labels() -> Mapping[str, str]:
    """A button label per command, in the phone's language (said once per language: every
    page has them)."""
    return _verb_labels(current_language())


@functools.lru_cache(maxsize=32)
def _verb_labels(lang: str) -> Mapping[str, str]:
    # `_` says them in the request's language, the `lang` they are kept for
    return MappingProxyType({
        "roll": _("Roll the dice"), "buy": _("Buy"), "decline": _("Decline"),
        "draw": _("Draw the card"), "end_turn": _("End my turn"),
        "pay_fine": _("Pay the jail fine"), "use_card": _("Use a jail card"),
        "bankrupt": _("Declare bankruptcy"), "pass": _("Pass"), "pass_go": _("Passed GO"),
        "close_auction": _("Close the auction"), "land": _("Landed on"),
        "build": _("Build"), "sell_building": _("Sell a building"), "mortgage": _("Mortgage"),
        "unmortgage": _("Lift the mortgage"),
        "use_bus_ticket": _("Ride the bus"), "choose_square": _("Go there"),
        "claim_rent": _("Claim the rent"),
    })


def building_labels() -> Mapping[str, str]:
    """What a build puts up, for the build buttons and deeds (said once per language)."""
    return _building_labels(current_language())


@functools.lru_cache(maxsize=32)
def _building_labels(lang: str) -> Mapping[str, str]:
    return MappingProxyType({"house": _("a house"), "hotel": _("a hotel"),
                             "skyscraper": _("a skyscraper"), "depot": _("a train depot")})


def building_names() -> dict[str, str]:
    """A building's name alone, for the banker's choice of what the bank auctions."""
    return {"house": _("House"), "hotel": _("Hotel"), "skyscraper": _("Skyscraper")}


def building_said(decision: Decision | None) -> dict[str, str]:
    """What a building auction (housing shortage) and the placing of the building won say,
    naming the building: "auction" (its title), "mine" (the winner's own phone) and "theirs"
    (everybody else). Empty when no building is pending."""
    if decision is None or decision.kind not in ("building_auction", "place_building"):
        return {}
    building = decision.building or ""
    if decision.kind == "building_auction":
        return {"auction": {
            "house": _("Auction: one house from the bank"),
            "hotel": _("Auction: one hotel from the bank"),
            "skyscraper": _("Auction: one skyscraper from the bank"),
        }.get(building, _("Auction of a building"))}
    name = decision.player or ""
    mine = {"house": _("Place the house you won at auction"),
            "hotel": _("Place the hotel you won at auction"),
            "skyscraper": _("Place the skyscraper you won at auction")}
    theirs = {"house": _("%(name)s places the house won at auction", name=name),
              "hotel": _("%(name)s places the hotel won at auction", name=name),
              "skyscraper": _("%(name)s places the skyscraper won at auction", name=name)}
    return {"mine": mine.get(building, mine["house"]),
            "theirs": theirs.get(building, theirs["house"])}


def gift_labels() -> Mapping[str, str]:
    """The Birthday gift's choices (Mega; said once per language)."""
    return _gift_labels(current_language())


@functools.lru_cache(maxsize=32)
def _gift_labels(lang: str) -> Mapping[str, str]:
    return MappingProxyType({"money": _("Take the money"), "bus_ticket": _("Take a bus ticket")})


def reason_labels() -> dict[str, str]:
    """Why money moved, for the history page."""
    return {
        "start_cash": _("starting cash"), "salary": _("salary"), "rent": _("rent"),
        "purchase": _("purchase"), "auction": _("auction"), "tax": _("tax"),
        "jail_fine": _("jail fine"), "card": _("card"), "building": _("building"),
        "building_sold": _("building sold"), "buildings_sold": _("buildings sold"),
        "building_auction": _("building auction"), "mortgage": _("mortgage"),
        "mortgage_interest": _("mortgage interest"), "mortgage_lift": _("mortgage lifted"),
        "payment": _("payment"), "trade": _("trade"), "bankruptcy": _("bankruptcy"),
        "free_parking": _("Free Parking"), "start_pot": _("Free Parking pot"),
        "birthday_gift": _("birthday gift"), "dealt_deed": _("deed dealt"),
    }


def source_labels() -> dict[str, str]:
    """Where a command came from, when no player sent it, for the history page."""
    return {
        "banker": _("the banker"), "button": _("the buttons"), "rfid": _("a card tap"),
        "phone": _("a phone"), "script": _("a table script"), "keyboard": _("the keyboard"),
        "screen": _("the screen"), "session": _("the companion"),
        "auction": _("the auction's close"),
    }


def page(name: str, **ctx: Any) -> BaseResponse:
    """The page, or only its live part for ?partial=1."""
    who = asker()
    if who is None:
        if request.args.get("partial"):
            return refuse("not_joined", _("Scan the code on the table to join."), 401)
        return redirect(url_for("join.home"))
    ctx.setdefault("state", remote().session.state())
    template = f"parts/{name}.html" if request.args.get("partial") else f"{name}.html"
    return Response(_render(name, template, ctx), mimetype="text/html")


def _render(name: str, template: str, ctx: dict[str, Any]) -> str:
    """The template with what every page has besides its own: money and square names in
    the phone's language, the verbs' labels, the groups' colours, all from the table's
    typed view of the page's state (`view`: its setup says the edition and the currency),
    and the session's clock as the page is drawn (`now`: the view is built once per
    version, a countdown is told as it stands). The page's state JSON itself is not handed
    to the template: it draws the view's records."""
    ctx = dict(ctx)
    state = ctx.pop("state")
    lang = current_language()
    view: TableView = ctx["view"] if "view" in ctx else remote().table(state)
    setup = view.setup
    # `now` given: the page was keyed on what it shows of the clocks at that moment
    ctx.setdefault("now", remote().session.now())
    ctx.update(view=view,
               money=lambda a: money(a, setup.currency, lang), labels=verb_labels(),
               names=square_names(view, lang), page_name=name,
               colour=lambda grp: group_colour(setup.edition, grp),
               partial_url=request.full_path,
               group_mark=lambda grp: group_mark(setup.edition, grp))
    return render_template(template, **ctx)


def shared_page(name: str, state: dict[str, Any], key: tuple[Any, ...],
                build: Callable[[], dict[str, Any]]) -> BaseResponse:
    """A page every phone of one language sees alike, but for what `key` names (the
    banker's links, a filter): its live part is rendered once per state of the table and
    handed to every phone that asks for it (views/shared.py); `build` gives the page's own
    values, only when it is rendered. The whole page, and a phone not joined, as `page`."""
    who = identity()
    if who is None or not request.args.get("partial"):
        return page(name, state=state, **build())
    html = shared().get(state, (name, current_language(), who.banker, *key),
                        lambda: _render(name, f"parts/{name}.html", {**build(), "state": state}))
    return Response(html, mimetype="text/html")


def _acting_for(table: TableView, who: Identity | None) -> str | None:
    """The player whose Me page the phone of `who` reads: its own seat's, or for the
    banker's phone any player's (`?as=`), the current player's at first."""
    players = table.names()
    if who is None:
        return None
    if who.banker:
        wanted = request.args.get("as") or who.player or table.current
        return wanted if wanted in players else None
    return who.player if who.player in players else None


@bp.get("/me")
def me() -> BaseResponse:
    """My balance, deeds, jail cards, trades, and the buttons for what I can do now."""
    r = remote()
    state = r.session.state()
    view = r.table(state)  # what the table says this player may do now
    who = asker()
    player = _acting_for(view, who)
    if who is not None and player is None and not request.args.get("partial"):
        if who.role == "spectator":
            return redirect(url_for("pages.table"))
        if who.banker and not view.players:
            return redirect(url_for("banker.page"))  # no game yet: the banker sets one up
    moves = view.moves_of(player)
    mine = [m.to_json() for m in moves]

    def offered(verb: str) -> JSON | None:
        move = next((m for m in moves if m.do == verb), None)
        return move.to_json() if move is not None else None

    seat = view.player(player)
    decision = view.decision
    bid = offered("bid")
    quick: list[tuple[int, int]] = []
    if bid is not None and decision is not None:
        floor = int(bid["min"])
        for step in QUICK_BIDS:
            amount = max(floor, decision.highest + step)
            # from a high opening bid (a building auction starts at the lowest house price)
            # two steps may come to the same amount: one button for it
            if amount <= int(bid["max"]) and amount not in (a for _s, a in quick):
                quick.append((step, amount))
    open_offers = r.proposals.open(player) if player else []
    trades = trades_said(open_offers, state)
    simple = [m.to_json() for m in moves if m.do in SIMPLE_VERBS and not m.squares]
    lift_offer = decision is not None and decision.kind == "lift_mortgages" \
        and decision.player == player
    others = [p.name for p in view.players if p.name != player and not p.bankrupt]
    roll = offered("roll")
    in_jail = seat is not None and seat.jailed
    speed = bool(view.setup.options.get("speed_die"))
    placing = decision is not None and decision.kind == "place_building" \
        and decision.player == player
    target = r.session.undo_target()
    mine_to_undo = who is not None and who.player == player and target is not None \
        and r.session.undo_refusal(Source("phone", player=who.player)) is None
    # the player's news not seen yet; only their own phone marks it seen (parts/news.html)
    # (and as the phone's own voice says it, when its voice is on: app.js asks ?say=1)
    news = say_news(state, player, r.session.news(player)
                    if seat is not None and player else None,
                    spoken=request.args.get("say") == "1")
    news["markable"] = who is not None and who.player is not None and who.player == player
    return page("me", state=state, view=view, player=player, seat=seat, moves=mine, news=news,
                lesson=lesson_for(state, player),  # the teaching table's, for this phone
                undo_mine=say_undo(target, state) if mine_to_undo else None,
                said=building_said(decision), placing=placing,
                place=offered("build") if placing else None,
                roll=roll, speed_die=speed and not in_jail and decision is None,
                entered_dice=dice_entered(state),  # the table's own dice, chosen at setup
                choose=offered("choose_square"), bus=offered("use_bus_ticket"),
                gifts=[m.to_json() for m in moves if m.do == "choose_gift"],
                gift_labels=gift_labels(), buildings=building_labels(),
                mr_monopoly=view.turn.mr_monopoly,
                # the deed cards, made only when their part is drawn (parts/me.html) from
                # what they show: the player's deeds and their moves on deeds
                my_deeds=tuple(d for d in view.deeds if d.owner == player) if player else (),
                deed_moves=[m for m in moves if m.do in DEED_VERBS],
                deed_cards=lambda: deeds(view, player, moves, current_language()),
                simple=simple, bid=bid,
                quick=quick,
                offers_key=offers_key(open_offers),
                can_pass=offered("pass"), bankrupt=offered("bankrupt"),
                land=offered("land"), pass_go=offered("pass_go"), trades=trades,
                correct=_json(view.correction_for(player)) if who is not None and who.banker
                else None,
                others=others, lift_offer=lift_offer,
                can_trade=offered("trade") is not None,
                all_deeds=[d for d in view.deeds if d.owner in others],
                players=list(view.names()))


def latest_moves(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The Table page's "Latest" list, newest first: each journal entry of this game said in
    the phone's language ("said": its sentence, the lines of what else happened, whether it
    stands undone), with its "seq" and "kind" (command, undo, redo)."""
    session = remote().session
    latest = session.history(None, LATEST)
    for i in range(len(latest) - 1, -1, -1):  # before the game in play began: another game
        entry = latest[i]
        if (entry.get("command") or {}).get("do") == "new_game" and not entry.get("undone") \
                and entry.get("kind", "command") in ("command", "redo"):
            latest = latest[i:]
            break
    seqs = {e.get("seq") for e in latest}
    lost = any(e.get("kind") == "undo" and e.get("target") not in seqs for e in latest)
    # each entry said once in each language (kept with the page's parts: after a move only
    # its own line is new), from the entry as the journal has it and the game's setup
    kept, lang = fragments(), current_language()
    setup, spoken = Setup.of(state), remote().table_language.spoken()
    targets: list[JSON] = []  # where an undo finds the move it took back: read when said

    def said(entry: dict[str, Any]) -> tuple[MoveSaid, list[dict[str, Any]]]:
        if not targets:
            targets.extend(session.history(None, LOOK_BACK) if lost else latest)
        return (say_moves([entry], state, targets)[0],
                move_reasons(entry, state) if entry.get("kind", "command") == "command" else [])

    moves = []
    for e in reversed(latest):
        sentence, reasons = kept.kept("table.said", ("table.said", e.get("seq"), lang),
                                      (e, setup, spoken), functools.partial(said, e))
        moves.append({"seq": e.get("seq"), "kind": e.get("kind", "command"), "said": sentence,
                      "reasons": reasons})
    return moves


@bp.get("/table")
def table() -> BaseResponse:
    """Everything the big screen shows, so a laptop can be the screen."""
    state = remote().session.state()
    view = remote().table(state)
    # the auction's countdown it shows (whole seconds): drawn again when that changes, as
    # it stands at `now`; the rest of the state's clocks are not on the page
    now = remote().session.now()
    left = view.auction_left(now)

    def build() -> dict[str, Any]:
        faces = {"bus": _("Bus"), "mr_monopoly": _("Mr. M.")}
        return dict(moves=latest_moves(state), news=say_news(state, None), view=view,
                    now=now,
                    lesson=lesson_for(state, None),  # the teaching table's, any player's
                    board=board(view, current_language()),
                    said=building_said(view.decision),
                    speed_face=lambda d: faces.get(d, d) if isinstance(d, str) else d,
                    tickets=view.bank.bus_tickets is not None)

    return shared_page("table", state, (left,), build)


def history_page(player: str | None, before: int | None
                 ) -> tuple[list[JSON], list[JSON], int | None]:
    """A page of History: the payments ("rows") and the notable events of the journal
    entries before `before` (None: the newest), of `player` (None: everybody's), newest
    first; from the newest entry back to the one whose lines make HISTORY_LINES, and the
    seq of that one (the page further back shows the entries before it; None: there is
    none). A page ends where its lines do, not where the journal does: an entry with no
    line of the page's (a roll, another player's move) changes nothing of it, so a
    phone's stream names History only when a move adds or marks a line
    (present.changes_history)."""
    session = remote().session
    rows: list[JSON] = []
    listed: list[JSON] = []
    lines = read = 0
    upto = before
    last_line: int | None = None  # the seq of the oldest entry with a line of the page
    while read < HISTORY_SCAN:
        chunk = session.history(None, min(HISTORY_CHUNK, HISTORY_SCAN - read), upto)
        if not chunk:  # the journal's first entry read: no page further back
            return rows, listed, None
        read += len(chunk)
        chunk_rows, chunk_listed = transactions(chunk, player), events(chunk, player)
        per_entry = Counter(r["seq"] for r in chunk_rows)
        per_entry.update(e["seq"] for e in chunk_listed)
        for entry in reversed(chunk):
            seq = entry["seq"]
            if per_entry[seq]:
                if lines >= HISTORY_LINES:  # this entry's lines begin the next page
                    rows += [r for r in chunk_rows if r["seq"] > seq]
                    listed += [e for e in chunk_listed if e["seq"] > seq]
                    return rows, listed, last_line
                lines += per_entry[seq]
                last_line = seq
        rows += chunk_rows
        listed += chunk_listed
        upto = int(chunk[0]["seq"])
    # HISTORY_SCAN entries read, not HISTORY_LINES lines: the next page begins below them
    further = last_line if last_line is not None else upto
    return rows, listed, further if further is not None and further > 1 else None


@bp.get("/history")
def history() -> BaseResponse:
    """The payments and notable moves of the latest journal entries (`history_page`),
    filterable by player; `?before=<seq>` shows the page of the entries before that one."""
    state = remote().session.state()
    player = request.args.get("player") or None
    asked = request.args.get("before", "")
    before = int(asked) if asked.isdigit() and 0 < int(asked) < 1 << 62 else None
    if before is not None and before > max((int(e["seq"]) for e in
                                            remote().session.history(None, 1)), default=0):
        before = None  # past the newest entry: the latest page itself

    def build() -> dict[str, Any]:
        rows, listed, older = history_page(player, before)
        moves = [{**e, "text": said} for e, said in zip(listed, say_events(listed, state),
                                                        strict=True) if said]
        return dict(rows=rows, player=player, reasons=reason_labels(),
                    sources=source_labels(), moves=moves,
                    players=list(remote().table(state).names()),
                    before=before, older=older,
                    # a row's reason is said only when its row is drawn (a fragment kept
                    # from an earlier move is not): in the phone's language, quoting the
                    # rulebook in the table's spoken one
                    spoken=remote().table_language.spoken(),
                    said_why=lambda row: reason({"amount": row["amount"], "to": row["to"],
                                                 "why": row["why"]}, state))

    return shared_page("history", state, (player, before), build)


def worth_chart(view: TableView, legend: bool = True,
                series: tuple[list[str], list[dict[str, Any]]] | None = None) -> str:
    """The net worth chart (of `series`, else the recorder's now), amounts written as the
    table's edition writes money (`view.setup.currency`)."""
    players, samples = series or remote().worth.series()
    cur = view.setup.currency
    lang = current_language()
    return chart_svg(players, samples, _("Net worth over time"),
                     money=lambda a: money(a, cur, lang),
                     digits=lambda a: group_digits(a, cur),
                     turn=lambda n: _("Turn %(number)d", number=n), legend=legend)


@bp.get("/worth")
def worth() -> BaseResponse:
    """Net worth over time for every player (SVG drawn here)."""
    state = remote().session.state()
    # the chart's samples are recorded by the remote's listener, which may not have had
    # this state yet: the cached chart is the one of its samples
    players, samples = remote().worth.series()
    last = (len(samples), samples[-1].get("v") if samples else None)

    def build() -> dict[str, Any]:
        lang = current_language()
        # the names and figures as a list under the chart: inside the drawing they shrank
        # to a few pixels on a phone and ran off its edge
        view = remote().table(state)
        legend = legend_entries(players, samples,
                                lambda a: money(a, view.setup.currency, lang))
        return dict(svg=worth_chart(view, legend=False, series=(players, samples)),
                    players=players, samples=samples, legend=legend)

    return shared_page("worth", state, last, build)


@bp.get("/worth.svg")
def worth_svg() -> BaseResponse:
    """The chart alone, as an SVG image."""
    if identity() is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    return Response(worth_chart(remote().table(remote().session.state())),
                    mimetype="image/svg+xml")


@bp.get("/rules")
def rules() -> BaseResponse:
    """The edition's rulebook, searchable, with the house rules in force."""
    state = remote().session.state()
    setup = remote().table(state).setup
    ed_id = setup.edition or "classic-eur"
    ed = edition(ed_id)
    # the table's edition decides the rules; a phone whose language that rulebook is not
    # written in reads it in the table's language, else the classic rules in its own, else
    # in English (companion.words.explaining.rulebook.rulebook)
    table = remote().table_language.spoken() or "en"
    lang, sections = rulebook.rules_page(ed_id, current_language(), table)
    query = request.args.get("q", "")[:100]
    # every option of the edition's book (to_json leaves out unset edition features, which a
    # table may still have set as a house rule)
    defaults = asdict(ed.defaults) if ed is not None else {}
    return page("rules", state=state, sections=rulebook.search(sections, query), query=query,
                rules_lang=lang, total=len(sections),
                house=rulebook.house_rules(setup.options, defaults))


def table_url() -> str:
    """The table's own address as this phone reached it: the configured `table_url`, else
    the address and port of this server's end of the connection. Never the request's Host
    header, which the sender writes (a link built from it would lead anywhere)."""
    configured = remote().config.get("table_url")
    if isinstance(configured, str) and configured:
        return configured
    host = str(request.environ.get("SERVER_NAME") or "127.0.0.1")
    port = str(request.environ.get("SERVER_PORT") or "80")
    host = f"[{host}]" if ":" in host else host
    return f"{request.scheme}://{host}:{port}/"


@bp.get("/qr.svg")
def qr() -> BaseResponse:
    """The join QR code, for the banker's phone only (its page, and the table page of a
    laptop serving as the screen with the banker's PIN): join codes are shown by the banker
    and the table screen, never by a player's or a spectator's phone."""
    who = identity()
    if who is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    if not who.banker:
        return refuse("banker_only", _("Only the banker's phone and the table screen show "
                                       "join codes."), 403)
    url = join_url(remote(), table_url())
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=6, xmldecl=False, title=url)
    resp = Response(buf.getvalue(), mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "no-store"
    return resp
