"""The game's story on the phones: `/story` (a page of the remote) and `/story.html` (the
same story as one self-contained HTML page to keep: inline CSS and SVG, no script, no
address outside it, so it opens offline years later).

The figures are the session's (companion.game.telling.story, from the journal); here they are said
in the phone's language: names of squares as the edition names them, money as it writes
it, the colour groups by their printed colour and their properties' names.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, render_template
from werkzeug.wrappers import Response as BaseResponse

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


def clock(seconds: int) -> str:
    """Time played as hours and minutes, "1:05".

    >>> clock(3900), clock(59)
    ('1:05', '0:00')
    """
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}"


def told(story: dict[str, Any], state: dict[str, Any], inline: bool = False) -> dict[str, Any]:
    """The story's figures said in the phone's language, ready for the template."""
    lang = current_language()
    cur = state.get("currency")
    names = square_names(state, lang)
    ed = edition(str(story.get("edition", "")))
    words = Words(state, lang, catalog(lang))

    def cash(amount: int) -> str:
        return money(amount, cur, lang)

    samples = [{"v": p["turn"], "n": p["turn"], "w": p["worth"]} for p in story["worth"]]
    svg = chart_svg(list(story["players"]), samples, _("Net worth at the start of each turn"),
                    money=cash, digits=lambda a: group_digits(a, cur),
                    turn=lambda n: str(_("Turn %(number)d", number=n)))
    if inline:  # inside HTML the namespace is implied: no address at all in the page
        svg = svg.replace(' xmlns="http://www.w3.org/2000/svg"', "")
    groups = ed.groups if ed is not None else {}
    trade = story.get("biggest_trade")
    trade_said: list[str] = []
    if trade:
        event = {"from": trade["giver"], "to": trade["receiver"],
                 "give": {"cash": trade["give_cash"], "squares": trade["give_squares"]},
                 "take": {"cash": trade["take_cash"], "squares": trade["take_squares"]}}
        trade_said = trade_lines(event, words)
    auctions = []
    for a in story.get("auctions", []):
        what = names.get(a["square"], "?") if a.get("square") is not None else \
            words.say(f"building_{a.get('building')}") or str(a.get("building"))
        auctions.append(_("%(what)s: %(name)s for %(amount)s", what=what, name=a["winner"],
                          amount=cash(a["amount"])) if a.get("winner")
                        else _("%(what)s: nobody bid", what=what))
    return {
        "svg": svg, "edition": localized_name(ed.id, ed.id, lang) if ed is not None
        else story.get("edition"),
        "players": ", ".join(story["players"]), "winner": story.get("winner"),
        "over": story.get("over"), "time": clock(int(story.get("seconds", 0))),
        "turns": story.get("turns", 0),
        "final": list(zip(story["players"], (cash(w) for w in story["worth"][-1]["worth"]),
                          strict=False)) if story["worth"] else [],
        "rent": [{"name": names.get(f["square"], "?"), "amount": cash(f["amount"]),
                  "owner": f.get("owner"), "colour": group_colour(state, f["group"]),
                  "mark": group_mark(state, f["group"])}
                 for f in story.get("rent_by_square", [])],
        "groups": [{"names": ", ".join(names.get(i, "?") for i in groups.get(g["group"], ())),
                    "amount": cash(g["amount"]), "colour": group_colour(state, g["group"]),
                    "mark": group_mark(state, g["group"])}
                   for g in story.get("rent_by_group", [])],
        "landed": [{"name": names.get(f["square"], "?"), "count": f["count"],
                    "colour": group_colour(state, f["group"]) if f["group"] else None,
                    "mark": group_mark(state, f["group"])}
                   for f in story.get("landed", [])],
        "trade": trade_said, "trades": story.get("trades", 0), "auctions": auctions,
    }


@bp.get("/story")
def story() -> BaseResponse:
    """The game's story so far (the whole of it at the end)."""
    state = remote().session.state()
    found = remote().session.story()
    return page("story", state=state, story=told(found, state) if found else None)


@bp.get("/story.html")
def download() -> BaseResponse:
    """The story as one HTML page to keep (inline CSS and SVG, nothing fetched)."""
    if identity() is None:
        return refuse("not_joined", _("Scan the code on the table to join."), 401)
    state = remote().session.state()
    found = remote().session.story()
    if found is None:
        return refuse("no_game", _("There is no game yet."), 404)
    css = re.sub(r"url\([^)]*\)", "none", CSS.read_text(encoding="utf-8"))
    html = render_template("story_page.html", state=state, story=told(found, state, True),
                           css=css)
    resp = Response(html, mimetype="text/html")
    resp.headers["Content-Disposition"] = 'attachment; filename="story.html"'
    return resp
