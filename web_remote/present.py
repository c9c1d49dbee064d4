"""From the state JSON and the edition to what a page shows: deeds as cards, the actions a
phone may take now (from "legal" only), building previews, and the transaction list.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from companion.editions import load_edition
from companion.rules import Edition, EditionError, SquareKind

JSON = dict[str, Any]


@cache
def edition(edition_id: str) -> Edition | None:
    """The edition of a state (None if unknown: pages then show less)."""
    try:
        return load_edition(edition_id)
    except EditionError:
        return None


def board_size(state: JSON) -> int:
    """How many squares the board has."""
    ed = edition(str(state.get("edition", "")))
    return len(ed.squares) if ed is not None else 40


def money(amount: int | None, currency: JSON | None) -> str:
    """An amount as the edition prints it: "€ 1.500"."""
    if amount is None:
        return ""
    cur = currency or {}
    digits = f"{abs(amount):,}".replace(",", str(cur.get("group_separator", " ")))
    text = str(cur.get("pattern", "{amount}")).replace("{amount}", digits)
    return f"−{text}" if amount < 0 else text


def square_names(state: JSON) -> dict[int, str]:
    """Every square's name by index."""
    ed = edition(str(state.get("edition", "")))
    if ed is None:
        return {int(s["index"]): str(s["name"]) for s in state.get("squares", [])}
    return {s.index: s.name for s in ed.squares}


def group_colour(state: JSON, group: str | None) -> str:
    """The printed colour of a group ("#888" for stations and utilities)."""
    ed = edition(str(state.get("edition", "")))
    if ed is None or not group:
        return "#888888"
    return ed.group_info.get(group, {}).get("color", "#888888")


def _interest(value: int, options: JSON) -> int:
    raw = value * int(options.get("mortgage_interest_percent", 10)) / 100
    step = max(1, int(options.get("mortgage_interest_rounding", 1)))
    return int((raw + step / 2) // step * step) if step > 1 else int(raw + 0.5)


def lift_cost(value: int, options: JSON) -> int:
    """What lifting a mortgage of this value costs under the options in force."""
    extra = _interest(value, options) if options.get("mortgage_interest") == "on_lift" else 0
    return value + extra


def legal_for(state: JSON, player: str | None) -> list[JSON]:
    """The legal commands a player may send (those with their name, and auction/trade)."""
    out = []
    for cmd in state.get("legal", []):
        by = cmd.get("by")
        if by == player or (by is None and cmd["do"] == "trade" and player in cmd["players"]):
            out.append(cmd)
    return out


def squares_for(legal: list[JSON], verb: str) -> set[int]:
    """The squares a per-square verb (build, mortgage...) may name now."""
    return {s for c in legal if c["do"] == verb for s in c.get("squares", [])}


def deeds(state: JSON, player: str | None, legal: list[JSON]) -> list[JSON]:
    """The player's deeds as cards: rent ladder, costs, state, and what can be done now."""
    ed = edition(str(state.get("edition", "")))
    options = state.get("options", {})
    cur = state.get("currency")
    verbs = {v: squares_for(legal, v) for v in ("build", "sell_building", "mortgage",
                                                  "unmortgage")}
    levels = {s["index"]: (5 if s["hotel"] else s["houses"]) for s in state.get("squares", [])}
    cards = []
    for s in state.get("squares", []):
        if s.get("owner") != player or player is None:
            continue
        i = int(s["index"])
        sq = ed.squares[i] if ed is not None else None
        ladder: list[tuple[str, str]] = []
        house_cost = mortgage = 0
        if sq is not None:
            house_cost, mortgage = sq.house_cost, sq.mortgage
            if sq.kind is SquareKind.LOT:
                labels = ["rent", "1", "2", "3", "4", "hotel"]
                ladder = [(labels[k] if k < len(labels) else str(k), money(r, cur))
                          for k, r in enumerate(sq.rent)]
            elif sq.kind is SquareKind.STATION:
                ladder = [(str(k + 1), money(r, cur)) for k, r in enumerate(sq.rent)]
            else:
                ladder = [(str(k + 1), f"× {m}") for k, m in enumerate(sq.multipliers)]
        group = [x for x in (ed.groups.get(s.get("group") or "", ()) if ed else ())]
        preview = None
        if i in verbs["build"] and group:
            after = {g: levels.get(g, 0) + (1 if g == i else 0) for g in group}
            preview = {"after": [after[g] for g in group], "cost": money(house_cost, cur)}
        cards.append({
            "index": i, "name": s["name"], "colour": group_colour(state, s.get("group")),
            "kind": s["kind"], "price": money(s["price"], cur), "ladder": ladder,
            "house_cost": money(house_cost, cur) if house_cost else "",
            "sell_value": money(house_cost // 2, cur) if house_cost else "",
            "mortgage": money(mortgage, cur), "lift": money(lift_cost(mortgage, options), cur),
            "houses": s["houses"], "hotel": s["hotel"], "mortgaged": s["mortgaged"],
            "rent": money(s["rent"], cur) if s["kind"] != "utility" else f"× {s['rent']}",
            "can": {v: i in sq_set for v, sq_set in verbs.items()},
            "group_levels": [levels.get(g, 0) for g in group], "preview": preview,
        })
    return cards


def find(legal: list[JSON], verb: str) -> JSON | None:
    """The legal command with this verb, if any."""
    return next((c for c in legal if c["do"] == verb), None)


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
        for event in entry.get("events", []):
            if event.get("kind") != "transfer":
                continue
            payer, payee = _party(event.get("from")), _party(event.get("to"))
            if player is not None and player not in (payer, payee):
                continue
            rows.append({"seq": entry.get("seq"), "time": entry.get("time"), "from": payer,
                         "to": payee, "amount": int(event.get("amount", 0)),
                         "reason": str(event.get("reason", "")),
                         "command": str(command.get("do", "")),
                         "by": source.get("player") or source.get("kind", ""),
                         "undone": bool(entry.get("undone"))})
    rows.reverse()
    return rows
