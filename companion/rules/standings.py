"""Ending a game by counting: the short game, the timed game, or "end now and count"."""

from __future__ import annotations

from typing import Any

from companion.rules.edition import OWNABLE
from companion.rules.events import Events, GameEnded, Standing, Winner
from companion.rules.state import GameState


def capital(g: GameState, player: int) -> dict[str, Any]:
    """A player's wealth by the edition's counting rule, with the parts it was counted from.

    Cash; deeds at their printed price (mortgaged ones at half, or at the price, as the
    edition says); houses at cost; hotels (and skyscrapers) at cost including the buildings
    given for them; train depots at cost.
    """
    deeds = mortgaged = buildings = 0
    half = g.options.standings_mortgaged == "half"
    for sq in g.edition.squares:
        if sq.kind in OWNABLE and g.owner[sq.index] == player:
            if g.mortgaged[sq.index]:
                mortgaged += sq.price // 2 if half else sq.price
            else:
                deeds += sq.price
            buildings += g.level[sq.index] * sq.house_cost
            if g.depots and sq.index in g.depots:
                buildings += g.edition.depot_cost
    cash = g.players[player].cash
    return {"name": g.players[player].name, "total": cash + deeds + mortgaged + buildings,
            "cash": cash, "deeds": deeds, "mortgaged": mortgaged, "buildings": buildings,
            "bankrupt": g.players[player].bankrupt}


def end_and_count(g: GameState, ev: Events, reason: str) -> None:
    """Rank the players still in the game (bankrupt ones after them); the richest wins."""
    rows = [capital(g, i) for i in range(len(g.players))]
    order = sorted(range(len(rows)), key=lambda i: (rows[i]["bankrupt"], -rows[i]["total"],
                                                     -rows[i]["cash"], i))
    g.standings = [rows[i] for i in order]
    g.winner = order[0]
    g.pending = []
    ev.append(GameEnded(reason, tuple(Standing(**row) for row in g.standings)))
    ev.append(Winner(g.players[order[0]].name))
