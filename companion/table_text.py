"""The table as plain text, for terminals and for `companion replay` without --json."""

from __future__ import annotations

from companion.rules import GameState, net_worth
from companion.rules.edition import OWNABLE
from companion.rules.money import money_text
from companion.rules.view import pending_json


def render_table(g: GameState) -> str:
    """Players, their money and deeds, whose turn it is and what the table waits for."""
    ed = g.edition
    lines = [f"{ed.name} — turn {g.turn_number}, version {g.version}"]
    for i, p in enumerate(g.players):
        marks = []
        if i == g.current and g.winner < 0:
            marks.append("to play")
        if p.in_jail:
            marks.append("in jail")
        if p.bankrupt:
            marks.append("bankrupt")
        if p.jail_cards:
            marks.append(f"{len(p.jail_cards)} jail card(s)")
        where = ed.squares[p.position].name
        lines.append(f"  {p.name:<12} {money_text(g, p.cash):>12}  on {where}"
                     + (f"  ({', '.join(marks)})" if marks else "")
                     + f"  worth {money_text(g, net_worth(g, i))}")
        deeds = []
        for sq in ed.squares:
            if sq.kind in OWNABLE and g.owner[sq.index] == i:
                extra = ""
                if g.has_hotel(sq.index):
                    extra = " +hotel"
                elif g.level[sq.index]:
                    extra = f" +{g.level[sq.index]}h"
                if g.mortgaged[sq.index]:
                    extra += " (mortgaged)"
                deeds.append(sq.name + extra)
        if deeds:
            lines.append("      " + "; ".join(deeds))
    lines.append(f"  bank: {g.bank_houses} houses, {g.bank_hotels} hotels")
    if g.dice:
        lines.append(f"  dice: {' '.join(str(d) for d in g.dice)}")
    if g.winner >= 0:
        lines.append(f"  winner: {g.players[g.winner].name}")
    elif g.pending:
        pj = pending_json(g, g.pending[-1])
        detail = ", ".join(f"{k}={v}" for k, v in pj.items() if k not in {"kind"})
        lines.append(f"  waiting for: {pj['kind']} ({detail})")
    return "\n".join(lines)
