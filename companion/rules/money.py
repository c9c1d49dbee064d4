"""Money, the ledger: transfers between players, the bank and the pot, charges that become
debts, and what property is worth to the bank.

The lowest rules module above the state: it imports no other rules module that moves
tokens or runs turns. Settling debts and bankruptcy are in flow.py."""

from __future__ import annotations

from typing import Any

from companion.rules.edition import OWNABLE
from companion.rules.events import Debt, Events, Transfer, Why
from companion.rules.state import BANK, COMPILED, POT, DebtPending, GameState, bare

#: reasons whose money goes into the Free Parking pot when that house rule is on
POT_REASONS = frozenset({"tax", "jail_fine", "card"})


def party_name(g: GameState, who: int) -> str | None:
    """A player's name, "pot" for the pot, None for the bank."""
    if who == BANK:
        return None
    if who == POT:
        return "pot"
    return g.players[who].name


def transfer(g: GameState, ev: Events, payer: int, payee: int, amount: int, reason: str,
             why: Why | None = None) -> None:
    """Move money that is there: the payer's cash must cover it (checked by callers); `why`
    says how a rule set the amount."""
    if amount <= 0:
        return
    if payee == BANK and g.options.free_parking_pot and reason in POT_REASONS:
        payee = POT
    # the parties' names as party_name gives them, without its two calls (a hot path)
    if payer >= 0:
        # wp's first step written out: the payer is often the player who just moved
        p = g.players[payer] if g.owned >> payer & 1 else g.wp(payer)
        p.cash -= amount
        source: str | None = p.name
    else:
        source = None if payer == BANK else "pot"
        if payer == POT:
            g.pot -= amount
    if payee >= 0:
        p = g.players[payee] if g.owned >> payee & 1 else g.wp(payee)
        p.cash += amount
        target: str | None = p.name
    else:
        target = None if payee == BANK else "pot"
        if payee == POT:
            g.pot += amount
    if COMPILED:
        ev.append(Transfer(source, target, amount, reason, why))
        return
    # plain Python: the record's fields set on a bare instance, without the class call's
    # trip through __init__ (about 0.06 µs of 0.15: the engine's most frequent event)
    e: Any = bare(Transfer)
    e.from_ = source
    e.to = target
    e.amount = amount
    e.reason = reason
    e.why = why
    ev.append(e)


def charge(
    g: GameState, ev: Events, payer: int, payee: int, amount: int, reason: str,
    then_move: int = 0, why: Why | None = None,
) -> bool:
    """The payer owes an amount: paid now when the cash is there, else a debt to settle.

    Returns True when paid at once. A debt is settled (or ends in bankruptcy) by
    flow.settle_debts once the command's moves are done.
    """
    if amount <= 0:
        return True
    if g.players[payer].cash >= amount:
        transfer(g, ev, payer, payee, amount, reason, why)
        return True
    g.pending.append(DebtPending(payer, amount, payee, reason, why, then_move))
    ev.append(Debt(g.players[payer].name, party_name(g, payee), amount, reason, why))
    return False


def building_value(g: GameState, square: int) -> int:
    """What the bank pays for every building on a property: half their price."""
    sq = g.edition.squares[square]
    levels = g.level[square]
    value = levels * sq.house_cost // 2
    depots = g.seldom.depots
    if depots and square in depots:
        value += g.edition.depot_cost // 2
    return value


def raisable(g: GameState, player: int) -> int:
    """Cash plus everything the bank would pay: buildings at half, unmortgaged deeds."""
    total = g.players[player].cash
    squares = g.edition.squares
    mortgaged = g.mortgaged
    for s, owner in enumerate(g.owner):  # the owner first: most squares are not theirs
        if owner == player and squares[s].kind in OWNABLE:
            sq = squares[s]
            total += building_value(g, s)
            if not mortgaged[s]:
                total += sq.mortgage - mortgage_take_interest(g, sq.mortgage)
    return total


def interest(g: GameState, value: int) -> int:
    """Mortgage interest on a value, rounded as the edition rounds it."""
    raw = value * g.options.mortgage_interest_percent / 100
    step = max(1, g.options.mortgage_interest_rounding)
    return int((raw + step / 2) // step * step) if step > 1 else int(raw + 0.5)


def mortgage_take_interest(g: GameState, value: int) -> int:
    """Interest paid when a mortgage is taken (only under the "on_take" rule)."""
    return interest(g, value) if g.options.mortgage_interest == "on_take" else 0


def lift_why(g: GameState, square: int, cost: int) -> Why:
    """Why lifting a mortgage costs `cost`: the value, and the interest on top when any."""
    value = g.edition.squares[square].mortgage
    if cost == value:
        return Why("mortgage_lift_value", square, (("value", value),))
    return Why("mortgage_lift", square, (("value", value), ("interest", cost - value),
                                         ("percent", g.options.mortgage_interest_percent)),
               "mortgage_interest_percent")


def interest_why(g: GameState, squares: list[int], fee: int) -> Why:
    """Why a mortgage's interest is `fee`: a percentage of the mortgage value(s)."""
    value = sum(g.edition.squares[s].mortgage for s in squares)
    return Why("mortgage_interest", squares[0] if len(squares) == 1 else None,
               (("value", value), ("interest", fee),
                ("percent", g.options.mortgage_interest_percent), ("deeds", len(squares))),
               "mortgage_interest_percent")


def transfer_interest(g: GameState, value: int) -> int:
    """Interest a player pays at once on a mortgaged deed received from another (none when
    the table plays without interest: SV «Bestämmelserna om ränta kunna ... helt uteslutas»)."""
    return 0 if g.options.mortgage_interest == "none" else interest(g, value)


def lift_cost(g: GameState, square: int) -> int:
    """What lifting a mortgage costs normally: the value, plus interest under "on_lift" or
    when the deed was received mortgaged and kept: FR «plus tard, la valeur de l'hypothèque
    plus encore 10 % d'intérêts», SV «löser han det senare betalar han även nu 10 % ränta
    utöver kapitalskulden» (where a player's own mortgage is lifted at its value alone)."""
    value = g.edition.squares[square].mortgage
    mode = g.options.mortgage_interest
    if mode == "on_lift" or (mode != "none" and square in g.kept_mortgages):
        return value + interest(g, value)
    return value
