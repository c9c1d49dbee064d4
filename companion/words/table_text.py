"""The table as plain text, for terminals and for `companion replay` without --json.

The Mega edition's things are written out in words: skyscrapers and train depots on the
deeds, bus tickets held and left in the pile, and the speed die's faces ("bus",
"Mr. Monopoly").
"""

from __future__ import annotations

from companion.rules import GameState, net_worth
from companion.rules.dice import SPEED_BUS, SPEED_MR_MONOPOLY
from companion.rules.edition import BUS_DECK, OWNABLE
from companion.rules.view import pending_json
from companion.words.catalog import format_money


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
        if p.bus_tickets:
            marks.append(f"{len(p.bus_tickets)} bus ticket(s)")
        where = ed.squares[p.position].name
        lines.append(f"  {p.name:<12} {format_money(p.cash, g.edition.currency):>12}  on {where}"
                     + (f"  ({', '.join(marks)})" if marks else "")
                     + f"  worth {format_money(net_worth(g, i), g.edition.currency)}")
        deeds = []
        for sq in ed.squares:
            if sq.kind in OWNABLE and g.owner[sq.index] == i:
                extra = ""
                if g.has_skyscraper(sq.index):
                    extra = " +skyscraper"
                elif g.has_hotel(sq.index):
                    extra = " +hotel"
                elif g.level[sq.index]:
                    extra = f" +{g.level[sq.index]}h"
                if sq.index in g.depots:
                    extra += " +train depot"
                if g.mortgaged[sq.index]:
                    extra += " (mortgaged)"
                deeds.append(sq.name + extra)
        if deeds:
            lines.append("      " + "; ".join(deeds))
    bank = f"  bank: {g.bank_houses} houses, {g.bank_hotels} hotels"
    if ed.skyscrapers:
        bank += f", {g.bank_skyscrapers} skyscrapers"
    if ed.depots:
        bank += f", {ed.depots - len(g.depots)} train depots"
    if BUS_DECK in ed.decks:
        bank += f", {len(g.decks.get(BUS_DECK, ()))} bus tickets"
    lines.append(bank)
    if g.dice:
        lines.append(f"  dice: {dice_text(g.dice)}")
    if g.winner >= 0:
        lines.append(f"  winner: {g.players[g.winner].name}")
    elif g.pending:
        pj = pending_json(g, g.pending[-1])
        detail = ", ".join(f"{k}={v}" for k, v in pj.items() if k not in {"kind"})
        lines.append(f"  waiting for: {pj['kind']} ({detail})")
    return "\n".join(lines)


def dice_text(dice: tuple[int, ...]) -> str:
    """The dice in words; the third is the speed die.

    >>> dice_text((3, 4)), dice_text((3, 4, 2))
    ('3 4', '3 4 + speed die 2')
    >>> dice_text((3, 4, SPEED_BUS)), dice_text((1, 1, SPEED_MR_MONOPOLY))
    ('3 4 + speed die bus', '1 1 + speed die Mr. Monopoly')
    """
    whites = " ".join(str(d) for d in dice[:2])
    if len(dice) < 3:
        return whites
    speed = {SPEED_BUS: "bus", SPEED_MR_MONOPOLY: "Mr. Monopoly"}.get(dice[2], str(dice[2]))
    return f"{whites} + speed die {speed}"
