"""The test oracle for `legal_commands`: every candidate tried through `apply` itself.

This is how `legal_commands` was computed before it became direct predicates per verb
(companion/rules/legal.py). Slow (a parse, a state copy and a refusal per candidate), but
it cannot disagree with the engine: tests compare the two on random states. It gives the
JSON form (the public state's "legal" list), so the comparison also checks that the typed
offers' `to_json` writes exactly what the phones and the screen have always read.
"""

from __future__ import annotations

from typing import Any

from companion.rules import apply
from companion.rules.buildings import build, places
from companion.rules.codes import Rejection, RulesError
from companion.rules.commands import GIFTS
from companion.rules.edition import OWNABLE, SquareKind
from companion.rules.state import GameState, PendingKind
from companion.rules.tickets import bus_targets, usable_tickets
from companion.rules.view import pending_json

JSON = dict[str, Any]


def _ok(g: GameState, command: JSON) -> bool:
    return not isinstance(apply(g, command), Rejection)


def _can_place_by_trial(g: GameState, player: int, building: str) -> bool:
    """Whether a won building could go on one of the player's lots: each lot where one more
    level is that building is tried by building on a scratch copy."""
    for s, sq in enumerate(g.edition.squares):
        if sq.kind is not SquareKind.LOT or g.owner[s] != player or not places(g, building, s):
            continue
        try:
            build(g.copy(), [], player, s, 1, True)
        except RulesError:
            continue
        return True
    return False


def legal_by_trial(g: GameState) -> list[JSON]:
    """Commands accepted now as JSON, with "by" filled in; per-square verbs list their
    "squares"."""
    if g.winner >= 0:
        return []
    out: list[JSON] = []
    active = [p.name for p in g.players if not p.bankrupt]
    top = g.top
    if top is not None:
        who = g.players[top.player].name if top.player >= 0 else None
        k = top.kind
        if k is PendingKind.BUY:
            for verb in ("buy", "decline"):
                if _ok(g, {"do": verb, "by": who}):
                    out.append({"do": verb, "by": who})
        elif k in (PendingKind.AUCTION, PendingKind.BUILDING_AUCTION):
            floor = max(top.highest + 1, top.min_bid, 1)
            for i, p in enumerate(g.players):
                if p.bankrupt:
                    continue
                # the lowest and the highest bid accepted: then every bid between them is
                if ((floor == 1 or not _ok(g, {"do": "bid", "by": p.name, "amount": floor - 1}))
                        and _ok(g, {"do": "bid", "by": p.name, "amount": floor})
                        and _ok(g, {"do": "bid", "by": p.name, "amount": p.cash})
                        and not _ok(g, {"do": "bid", "by": p.name, "amount": p.cash + 1})):
                    # a building is bid for only by who could still place it
                    assert k is PendingKind.AUCTION or _can_place_by_trial(g, i, top.building)
                    out.append({"do": "bid", "by": p.name, "min": floor, "max": p.cash})
                if _ok(g, {"do": "pass", "by": p.name}):
                    out.append({"do": "pass", "by": p.name})
            if _ok(g, {"do": "close_auction"}):
                out.append({"do": "close_auction"})
        elif k is PendingKind.DRAW:
            if _ok(g, {"do": "draw", "by": who}):
                out.append({"do": "draw", "by": who})
        elif k is PendingKind.ROLL_FOR_RENT:
            if _ok(g, {"do": "roll", "by": who}):
                out.append({"do": "roll", "by": who})
        elif k is PendingKind.LIFT_MORTGAGES:
            squares = [s for s in top.squares if _ok(g, {"do": "unmortgage", "by": who,
                                                          "square": s})]
            if squares:
                out.append({"do": "unmortgage", "by": who, "squares": squares})
            out.append({"do": "decline", "by": who})
        elif k is PendingKind.DEBT and _ok(g, {"do": "bankrupt", "by": who}):
            out.append({"do": "bankrupt", "by": who})
        elif k is PendingKind.CHOOSE_SQUARE:
            squares = [s for s in pending_json(g, top)["squares"]
                       if _ok(g, {"do": "choose_square", "by": who, "square": s})]
            out.append({"do": "choose_square", "by": who, "squares": squares})
        elif k is PendingKind.BIRTHDAY_GIFT:
            for gift in GIFTS:
                if _ok(g, {"do": "choose_gift", "by": who, "gift": gift}):
                    out.append({"do": "choose_gift", "by": who, "gift": gift})
    else:
        cur = g.players[g.current].name
        for verb in ("roll", "pay_fine", "use_card", "end_turn"):
            if _ok(g, {"do": verb, "by": cur}):
                out.append({"do": verb, "by": cur})
        if usable_tickets(g, g.current) > 0:
            rides = bus_targets(g, g.players[g.current].position)
            if _ok(g, {"do": "use_bus_ticket", "by": cur, "square": rides[0]}):
                out.append({"do": "use_bus_ticket", "by": cur, "squares": rides})
        for name in active:
            if name != cur:
                for verb in ("pay_fine", "use_card"):
                    if _ok(g, {"do": verb, "by": name}):
                        out.append({"do": verb, "by": name})
        every = list(range(len(g.edition.squares)))
        squares = [s for s in every if _ok(g, {"do": "land", "by": cur, "square": s})]
        if squares:
            via_go = [s for s in squares if _ok(g, {"do": "land", "by": cur, "square": s,
                                                     "via_go": True})]
            out.append({"do": "land", "by": cur, "squares": squares, "via_go": via_go})
        if _ok(g, {"do": "pass_go", "by": cur}):
            out.append({"do": "pass_go", "by": cur})
        out.append({"do": "land", "correction": True, "players": active,
                    "squares": [s for s in every if _ok(g, {"do": "land", "by": cur,
                                                             "square": s, "correction": True})]})
        out.append({"do": "pass_go", "correction": True, "players": [
            name for name in active if _ok(g, {"do": "pass_go", "by": name,
                                                "correction": True})]})
        # the banker's call in a shortage: what the bank still has to auction one by one
        kinds = [b for b in ("house", "hotel", "skyscraper")
                 if _ok(g, {"do": "auction_building", "building": b})]
        if kinds:
            out.append({"do": "auction_building", "buildings": kinds})
    for i, p in enumerate(g.players):
        if p.bankrupt:
            continue
        owned = [s.index for s in g.edition.squares if s.kind in OWNABLE and g.owner[s.index] == i]
        for verb in ("build", "sell_building", "mortgage", "unmortgage"):
            # the deeds just received with their mortgages are lifted in that answer
            answered = set(top.squares) if top is not None and top.player == i and \
                top.kind is PendingKind.LIFT_MORTGAGES and verb == "unmortgage" else set()
            squares = [s for s in owned if s not in answered
                       and _ok(g, {"do": verb, "by": p.name, "square": s})]
            if squares:
                out.append({"do": verb, "by": p.name, "squares": squares})
    for owner in dict.fromkeys(c[1] for c in g.claims):
        out.append({"do": "claim_rent", "by": g.players[owner].name})
    payers = [p.name for p in g.players if not p.bankrupt and p.cash > 0]
    if payers:
        out.append({"do": "pay", "from": payers + ["bank"], "to": active + ["bank"]})
    out.append({"do": "end_game"})
    if len(active) >= 2 and not g.mr_monopoly and (
            top is None or top.kind not in (PendingKind.AUCTION, PendingKind.BUILDING_AUCTION)):
        out.append({"do": "trade", "players": active})
    return out
