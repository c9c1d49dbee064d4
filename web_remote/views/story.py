"""The game's story on the phones: `/story` (a page of the remote) and `/story.html` (the
same story as one self-contained HTML page to keep: inline CSS and SVG, no script, no
address outside it, so it opens offline years later).

The figures are the session's (companion.game.telling.story, from the journal), handed as its
typed record (`Story`); here they are said in the phone's language: names of squares as
the edition names them, money as it writes it, the colour groups by their printed colour
and their properties' names (the table view's `setup`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, render_template
from werkzeug.wrappers import Response as BaseResponse

from companion.game.table.view import TableView
from companion.game.telling.story import Story
from companion.words.catalog import group_digits, localized_name
from companion.words.move_words import Words, trade_lines
from web_remote.context import identity, refuse, remote
from web_remote.i18n import _, catalog, current_language
from web_remote.present import edition, group_colour, group_mark, money, square_names
from web_remote.views.pages import page
from web_remote.worth import chart_svg

bp = Blueprint("story", __name__)
#: the phone's stylesheet, inlined into the page to keep
CSS = Path(__file__).resolve().parent.parent / "static" / "app.css"


def told(story: Story, view: TableView, inline: bool = False) -> dict[str, Any]:
    """The story's figures (the game layer's typed record) said in the phone's language,
    ready for the template; the squares named, money written and groups coloured as the
    table `view`'s edition does."""
    lang = current_language()
    cur = view.setup.currency
    names = square_names(view, lang)
    ed = edition(story.edition)
    table_edition = view.setup.edition
    words = Words(view.setup, lang, catalog(lang))

    def cash(amount: int) -> str:
        return money(amount, cur, lang)

    samples = [{"v": p.turn, "n": p.turn, "w": list(p.worth)} for p in story.worth]
    svg = chart_svg(list(story.players), samples, _("Net worth at the start of each turn"),
                    money=cash, digits=lambda a: group_digits(a, cur),
                    turn=lambda n: str(_("Turn %(number)d", number=n)))
    if inline:  # inside HTML the namespace is implied: no address at all in the page
        svg = svg.replace(' xmlns="http://www.w3.org/2000/svg"', "")
    groups = ed.groups if ed is not None else {}
    trade = story.biggest_trade
    trade_said: list[str] = []
    if trade:
        event = {"from": trade.giver, "to": trade.receiver,
                 "give": {"cash": trade.give_cash, "squares": list(trade.give_squares)},
                 "take": {"cash": trade.take_cash, "squares": list(trade.take_squares)}}
        trade_said = trade_lines(event, words)
    auctions = []
    for a in story.auctions:
        what = names.get(a.square, "?") if a.square is not None else \
            words.say(f"building_{a.building}") or str(a.building)
        auctions.append(_("%(what)s: %(name)s for %(amount)s", what=what, name=a.winner,
                          amount=cash(a.amount)) if a.winner
                        else _("%(what)s: nobody bid", what=what))
    return {
        "svg": svg, "edition": localized_name(ed.id, ed.id, lang) if ed is not None
        else story.edition,
        "players": ", ".join(story.players), "winner": story.winner,
        "over": story.over, "time": story.clock, "turns": story.turns,
        "final": [(name, cash(worth)) for name, worth in story.final],
        "rent": [{"name": names.get(f.square, "?"), "amount": cash(f.amount),
                  "owner": f.owner, "colour": group_colour(table_edition, f.group),
                  "mark": group_mark(table_edition, f.group)}
                 for f in story.rent_by_square],
        "groups": [{"names": ", ".join(names.get(i, "?") for i in groups.get(g.group, ())),
                    "amount": cash(g.amount), "colour": group_colour(table_edition, g.group),
                    "mark": group_mark(table_edition, g.group)}
                   for g in story.rent_by_group],
        "landed": [{"name": names.get(f.square, "?"), "count": f.count,
                    "colour": group_colour(table_edition, f.group) if f.group else None,
                    "mark": group_mark(table_edition, f.group)}
                   for f in story.landed],
        "trade": trade_said, "trades": story.trades, "auctions": auctions,
    }


@bp.get("/story")
def story() -> BaseResponse:
    """The game's story so far (the whole of it at the end)."""
    state = remote().session.state()
    found = remote().session.story()
    return page("story", state=state,
                story=told(found, remote().table(state)) if found else None)


@bp.get("/story.html")
def download() -> BaseResponse:
    """The story as one HTML page to keep (inline CSS and SVG, nothing fetched)."""
    if identity() is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    found = remote().session.story()
    if found is None:
        return refuse("no_game", _("There is no game yet."), 404)
    css = re.sub(r"url\([^)]*\)", "none", CSS.read_text(encoding="utf-8"))
    view = remote().table(remote().session.state())
    html = render_template("story_page.html", view=view, story=told(found, view, True),
                           css=css)
    resp = Response(html, mimetype="text/html")
    resp.headers["Content-Disposition"] = 'attachment; filename="story.html"'
    return resp
