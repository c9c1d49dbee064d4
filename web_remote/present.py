"""From the session's view of the table and the edition to what a page shows: deeds as
cards with what may be done to each now (the typed records and moves of
companion.game.table.view, not the state JSON's dicts), building previews, the board, and
the transaction list.

Money and square names are said as the Table page's "Latest" list says them
(companion.words.move_words), so no page shows the same thing two ways: money by
companion.words.catalog.format_money (the edition's display form: "Fr. 30'000.–"), squares by
companion.words.refusals.square_name (as the edition names them in the phone's language).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache, lru_cache
from typing import Any

from companion.editions import group_letters, load_edition
from companion.game.table.records import Currency, Deed
from companion.game.table.view import Move, TableView
from companion.rules import Edition, EditionError, SquareKind
from companion.rules.edition import Square
from companion.words import catalog as edition_words
from companion.words.refusals import square_name
from web_remote.worth import PALETTE  # a player's colour: the same as on the chart

JSON = dict[str, Any]


@cache
def edition(edition_id: str) -> Edition | None:
    """The edition of a state (None if unknown: pages then show less)."""
    try:
        return load_edition(edition_id)
    except EditionError:
        return None


def board_size(table: TableView) -> int:
    """How many squares the board has (the view's setup says it)."""
    return table.setup.board_size


def money(amount: int | None, currency: Currency, lang: str) -> str:
    """An amount as the edition writes it ("€ 1.500", "Fr. 30'000.–", "М1500"), the same
    as the moves say it: companion.words.catalog.format_money ("" for none)."""
    if amount is None:
        return ""
    return edition_words.format_money(int(amount), currency, lang)


def square_names(table: TableView, lang: str) -> dict[int, str]:
    """Every square's name by index, as the edition names it in `lang` (the lookup the
    moves use: companion.words.refusals.square_name); a square it cannot name keeps the state's
    name."""
    ed = edition(table.setup.edition)
    if ed is None:
        return {d.index: d.name for d in table.deeds}
    return dict(_edition_square_names(ed.id, lang))


@cache
def _edition_square_names(edition_id: str, lang: str) -> tuple[tuple[int, str], ...]:
    """(index, name in `lang`) of every square of the edition's board."""
    ed = edition(edition_id)
    names = []
    for sq in ed.squares if ed is not None else ():
        try:
            names.append((sq.index, square_name(sq.index, {"edition": edition_id}, lang)))
        except LookupError:
            names.append((sq.index, sq.name))
    return tuple(names)


def group_colour(edition_id: str, group: str | None) -> str:
    """The printed colour of a group of edition `edition_id` (the view's `setup.edition`;
    "#888" for stations and utilities)."""
    ed = edition(edition_id)
    if ed is None or not group:
        return "#888888"
    return ed.group_info.get(group, {}).get("color", "#888888")


def group_mark(edition_id: str, group: str | None) -> str:
    """The letter of a street's colour group of edition `edition_id` (the view's
    `setup.edition`; companion.editions.group_letters), "" for stations, utilities and
    other squares."""
    return group_letters(edition_id).get(group or "", "")


def luminance(colour: str) -> float:
    """The relative luminance of "#rrggbb" (WCAG 2)."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    try:
        rgb = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    except ValueError:
        return 0.0
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21.

    >>> round(contrast("#000000", "#ffffff"), 1), round(contrast("#777777", "#ffffff"), 2)
    (21.0, 4.48)
    """
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@lru_cache(maxsize=256)
def ink_on(colour: str) -> str:
    """The text colour on a group's colour: black or white, whichever contrasts more (an
    edition has a few colours: each worked out once, not for every square of every page)."""
    return "#000000" if contrast(colour, "#000000") >= contrast(colour, "#ffffff") \
        else "#ffffff"


def _interest(value: int, options: Mapping[str, Any]) -> int:
    raw = value * int(options.get("mortgage_interest_percent", 10)) / 100
    step = max(1, int(options.get("mortgage_interest_rounding", 1)))
    return int((raw + step / 2) // step * step) if step > 1 else int(raw + 0.5)


def lift_cost(value: int, options: Mapping[str, Any]) -> int:
    """What lifting a mortgage of this value costs under the options in force."""
    extra = _interest(value, options) if options.get("mortgage_interest") == "on_lift" else 0
    return value + extra


#: the moves a deed card offers on its square
DEED_VERBS = ("build", "sell_building", "mortgage", "unmortgage")


def squares_for(moves: Sequence[Move], verb: str) -> set[int]:
    """The squares a per-square verb (build, mortgage...) may name now, of these moves."""
    return {s for m in moves if m.do == verb for s in m.squares}


def level_label(deed: Deed) -> str:
    """A lot's buildings in one mark: "S" skyscraper, "H" hotel, else the houses."""
    if deed.skyscraper:
        return "S"
    if deed.hotel:
        return "H"
    return str(deed.houses)


def next_building(deed: Deed, options: Mapping[str, Any]) -> str:
    """What `build` puts on this square next: house, hotel, skyscraper or depot."""
    if deed.kind == "station":
        return "depot"
    if deed.hotel:
        return "skyscraper"
    if deed.houses >= int(options.get("houses_before_hotel", 4)):
        return "hotel"
    return "house"


def _after_build(deed: Deed, options: Mapping[str, Any]) -> Deed:
    """The square as it stands after one more building (a preview: no rule, the printed
    order of buildings)."""
    kind = next_building(deed, options)
    if kind == "skyscraper":
        return replace(deed, hotel=False, skyscraper=True)
    if kind == "hotel":
        return replace(deed, houses=0, hotel=True)
    return replace(deed, houses=deed.houses + 1)


def _ladder(sq: Square, cur: Currency, lang: str) -> list[tuple[str, str]]:
    """The deed's printed rents: (label key, amount) from the bare lot up."""
    if sq.kind is SquareKind.LOT:
        labels = ["rent", "1", "2", "3", "4", "hotel", "skyscraper"]
        return [(labels[k] if k < len(labels) else str(k), money(r, cur, lang))
                for k, r in enumerate(sq.rent)]
    if sq.kind is SquareKind.STATION:
        return [(str(k + 1), money(r, cur, lang)) for k, r in enumerate(sq.rent)]
    return [(str(k + 1), f"× {m}") for k, m in enumerate(sq.multipliers)]


def deeds(table: TableView, player: str | None, moves: Sequence[Move],
          lang: str) -> list[JSON]:
    """The player's deeds as cards: rent ladder, costs, buildings (houses, hotel, Mega's
    skyscraper and train depot), and what can be done now (the player's `moves`, as the
    view of the table offers them); names and money as the phone's language `lang` says
    them."""
    setup = table.setup
    ed = edition(setup.edition)
    options = setup.options
    cur = setup.currency
    names = square_names(table, lang)

    def said(amount: int) -> str:
        return money(amount, cur, lang)

    verbs = {v: squares_for(moves, v) for v in DEED_VERBS}
    depot_cost = ed.depot_cost if ed is not None else 0
    cards = []
    for d in table.deeds:
        if d.owner != player or player is None:
            continue
        i = d.index
        sq = ed.squares[i] if ed is not None else None
        house_cost = sq.house_cost if sq is not None else 0
        mortgage = sq.mortgage if sq is not None else 0
        ladder = _ladder(sq, cur, lang) if sq is not None else []
        # the builder's own lots of the group (Mega: all lots but one may be enough)
        group = [g for g in (table.deed(n) for n in (ed.groups.get(d.group or "", ())
                                                      if ed else ()))
                 if g is not None and g.owner == player]
        building = next_building(d, options)
        cost = depot_cost if building == "depot" else house_cost
        preview = None
        if i in verbs["build"]:
            after = [level_label(_after_build(g, options) if g.index == i else g)
                     for g in group] if d.kind == "lot" else []
            preview = {"after": after, "cost": said(cost), "building": building}
        sell = depot_cost // 2 if d.depot else house_cost // 2
        colour = group_colour(setup.edition, d.group)
        cards.append({
            "index": i, "name": names.get(i, d.name),
            "colour": colour, "ink": ink_on(colour),
            "group_mark": group_mark(setup.edition, d.group),
            "kind": d.kind, "price": said(d.price), "ladder": ladder,
            "house_cost": said(house_cost) if house_cost else "",
            "depot_cost": said(depot_cost) if depot_cost and d.kind == "station" else "",
            "sell_value": said(sell) if sell else "",
            "mortgage": said(mortgage), "lift": said(lift_cost(mortgage, options)),
            "houses": d.houses, "hotel": d.hotel, "mortgaged": d.mortgaged,
            "skyscraper": d.skyscraper, "depot": d.depot,
            "rent": said(d.rent) if d.kind != "utility" else f"× {d.rent}",
            "can": {v: i in sq_set for v, sq_set in verbs.items()},
            "group_levels": [level_label(g) for g in group], "preview": preview,
        })
    return cards


def _party(name: Any) -> str:
    return "bank" if name is None else str(name)


def transactions(entries: list[JSON], player: str | None) -> list[JSON]:
    """Every money transfer in the journal entries, newest first, optionally one player's;
    transfers of undone commands are kept and marked."""
    rows = []
    for entry in entries:
        if entry.get("kind", "command") != "command":
            continue  # undo rows move no money of their own; redo rows repeat their target
        command = entry.get("command") or {}
        source = entry.get("source") or {}
        for n, event in enumerate(entry.get("events", [])):
            if event.get("kind") != "transfer":
                continue
            payer, payee = _party(event.get("from")), _party(event.get("to"))
            if player is not None and player not in (payer, payee):
                continue
            reason = str(event.get("reason", ""))
            # an auction's price is paid by its close, not by whoever passed or bid last
            auction = reason in ("auction", "building_auction")
            rows.append({"seq": entry.get("seq"), "n": n, "time": entry.get("time"), "from": payer,
                         "to": payee, "amount": int(event.get("amount", 0)),
                         "reason": reason,
                         "why": event.get("why"),
                         "command": str(command.get("do", "")),
                         "by": "" if auction else source.get("player") or "",
                         "by_kind": "auction" if auction else "banker" if source.get(
                             "banker") and not source.get("player") else str(
                                 source.get("kind", "")),
                         "undone": bool(entry.get("undone"))})
    rows.reverse()
    return rows


#: the journal events the History page lists besides money: moves and buildings that a
#: table wants to look back on (Mega's speed die, bus tickets and rebalancing included)
EVENT_KINDS = frozenset({
    "triple", "chose_square", "mr_monopoly", "mr_monopoly_stays", "bus_ticket",
    "bus_ticket_used", "bus_tickets_expired", "no_bus_ticket", "auction_square_stays",
    "rebalanced", "built", "sold_building", "three_doubles", "jailed", "bankrupt",
})


#: the events of a journal entry that change what History lists besides its own rows: an
#: undo (going back too) marks rows taken back, a redo marks them in force again
MARKS_KINDS = frozenset({"undone", "redone", "game_started", "game_switched"})


def changes_history(entry_events: list[JSON]) -> bool:
    """Whether a journal entry with these events changes the History page: it adds a row
    (a transfer, an event of EVENT_KINDS) or marks rows (MARKS_KINDS). A phone showing
    History reads it again only then (web_remote/static/app.js)."""
    return any(e.get("kind") == "transfer" or e.get("kind") in EVENT_KINDS
               or e.get("kind") in MARKS_KINDS for e in entry_events)


def events(entries: list[JSON], player: str | None) -> list[JSON]:
    """The notable events of the journal entries (EVENT_KINDS), newest first, optionally
    one player's; events of undone commands are kept and marked."""
    rows = []
    for entry in entries:
        if entry.get("kind", "command") != "command":
            continue
        for event in entry.get("events", []):
            if event.get("kind") not in EVENT_KINDS:
                continue
            if player is not None and event.get("player") not in (player, None):
                continue
            rows.append({**event, "seq": entry.get("seq"), "undone": bool(entry.get("undone"))})
    rows.reverse()
    return rows


def board_cell(index: int, size: int) -> tuple[int, int]:
    """(row, column), from 1, of a square on a square board of `size` squares drawn as the
    box shows it: GO at the bottom right, play going left along the bottom, up, right along
    the top and down; 40 squares make an 11 × 11 grid, Mega's 52 a 14 × 14 one.

    >>> [board_cell(i, 40) for i in (0, 10, 20, 30, 39)]
    [(11, 11), (11, 1), (1, 1), (1, 11), (10, 11)]
    >>> board_cell(13, 52), board_cell(26, 52)
    ((14, 1), (1, 1))
    """
    side = size // 4
    edge, step = divmod(index, side)
    if edge == 0:
        return side + 1, side + 1 - step
    if edge == 1:
        return side + 1 - step, 1
    if edge == 2:
        return 1, 1 + step
    return 1 + step, side + 1


def board(table: TableView, lang: str) -> JSON:
    """The Table page's board: every square with its place in the grid, its name in the
    phone's language `lang`, colour, owner, buildings and the tokens on it."""
    ed = edition(table.setup.edition)
    if ed is None:
        return {"side": 0, "cells": []}
    names = square_names(table, lang)
    size = len(ed.squares)
    players = table.players
    colours = {p.name: PALETTE[k % len(PALETTE)] for k, p in enumerate(players)}
    cells = []
    for sq in ed.squares:
        row, col = board_cell(sq.index, size)
        deed = table.deed(sq.index)
        tokens = [{"name": p.name, "colour": colours[p.name], "jail": p.jailed}
                  for p in players if p.position == sq.index and not p.bankrupt]
        mark = level_label(deed) if deed is not None and deed.kind == "lot" else ""
        owner = deed.owner if deed is not None else None
        cells.append({
            "index": sq.index, "row": row, "col": col, "name": names[sq.index],
            "kind": sq.kind.value,
            "colour": group_colour(ed.id, sq.group) if sq.group else "",
            "ink": ink_on(group_colour(ed.id, sq.group)),
            "group_mark": group_mark(ed.id, sq.group),
            "owner": owner, "owner_colour": colours.get(owner or ""),
            "mark": "" if mark == "0" else mark,
            "depot": deed is not None and deed.depot,
            "mortgaged": deed is not None and deed.mortgaged, "tokens": tokens,
            "corner": sq.index % (size // 4) == 0,
        })
    return {"side": size // 4 + 1, "cells": cells, "colours": colours}

