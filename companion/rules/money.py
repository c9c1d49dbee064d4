"""Money: transfers between players, the bank and the pot; debts; bankruptcy."""

from __future__ import annotations

from typing import Any

from companion.rules.codes import Code, RulesError
from companion.rules.edition import OWNABLE, SquareKind
from companion.rules.state import BANK, POT, GameState, Pending, PendingKind

Events = list[dict[str, Any]]

#: reasons whose money goes into the Free Parking pot when that house rule is on
POT_REASONS = frozenset({"tax", "jail_fine", "card"})


def party_name(g: GameState, who: int) -> str | None:
    """A player's name, "pot" for the pot, None for the bank."""
    if who == BANK:
        return None
    if who == POT:
        return "pot"
    return g.players[who].name


def money_text(g: GameState, amount: int) -> str:
    """An amount as the edition writes it, e.g. "€ 1.500"."""
    cur = g.edition.currency
    sep = cur.get("group_separator", " ")
    grouping = int(cur.get("minimum_grouping_digits", 1))
    digits = f"{amount:,}".replace(",", sep) if amount >= 10 ** (2 + grouping) else str(amount)
    pattern = cur.get("display_pattern") or cur.get("pattern", "{amount}")
    return str(pattern).replace("{amount}", digits)


def transfer(g: GameState, ev: Events, payer: int, payee: int, amount: int, reason: str) -> None:
    """Move money that is there: the payer's cash must cover it (checked by callers)."""
    if amount <= 0:
        return
    if payee == BANK and g.options.free_parking_pot and reason in POT_REASONS:
        payee = POT
    if payer >= 0:
        g.wp(payer).cash -= amount
    elif payer == POT:
        g.pot -= amount
    if payee >= 0:
        g.wp(payee).cash += amount
    elif payee == POT:
        g.pot += amount
    ev.append({"kind": "transfer", "from": party_name(g, payer), "to": party_name(g, payee),
               "amount": amount, "reason": reason})


def charge(
    g: GameState, ev: Events, payer: int, payee: int, amount: int, reason: str,
    then_move: int = 0,
) -> bool:
    """The payer owes an amount: paid now when the cash is there, else a debt to settle.

    Returns True when paid at once.
    """
    if amount <= 0:
        return True
    if g.players[payer].cash >= amount:
        transfer(g, ev, payer, payee, amount, reason)
        return True
    g.pending.append(Pending(PendingKind.DEBT, payer, amount=amount, creditor=payee,
                             reason=reason, then_move=then_move))
    ev.append({"kind": "debt", "player": g.players[payer].name,
               "creditor": party_name(g, payee), "amount": amount, "reason": reason})
    if g.options.bankrupt_if_fine_unpayable and reason in ("jail_fine", "tax"):
        declare_bankrupt(g, ev, payer, forced=True)  # no raising money for bail or tax
    return False


def building_value(g: GameState, square: int) -> int:
    """What the bank pays for every building on a property: half their price."""
    sq = g.edition.squares[square]
    levels = g.level[square]
    value = levels * sq.house_cost // 2
    if g.depots and square in g.depots:
        value += g.edition.depot_cost // 2
    return value


def raisable(g: GameState, player: int) -> int:
    """Cash plus everything the bank would pay: buildings at half, unmortgaged deeds."""
    total = g.players[player].cash
    for sq in g.edition.squares:
        if sq.kind in OWNABLE and g.owner[sq.index] == player:
            total += building_value(g, sq.index)
            if not g.mortgaged[sq.index]:
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


def lift_cost(g: GameState, square: int) -> int:
    """What lifting a mortgage costs normally: the value, plus interest under "on_lift"."""
    value = g.edition.squares[square].mortgage
    return value + (interest(g, value) if g.options.mortgage_interest == "on_lift" else 0)


def settle_debts(g: GameState, ev: Events) -> None:
    """Pay every debt on top of the stack whose debtor now has the cash, and run the
    follow-up moves (speed die) that come to the top."""
    while g.pending:
        debt = g.pending[-1]
        if debt.kind is PendingKind.DEBT:
            if g.players[debt.player].cash < debt.amount:
                return
            g.pending.pop()
            transfer(g, ev, debt.player, debt.creditor, debt.amount, debt.reason)
            if debt.then_move:
                from companion.rules.board import move_steps  # a paid jail fine releases a move

                move_steps(g, ev, debt.player, debt.then_move)
        elif debt.kind is PendingKind.MR_MONOPOLY or debt.kind is PendingKind.BUS:
            from companion.rules.speed import run_follow_up

            g.pending.pop()
            run_follow_up(g, ev, debt)
        else:
            return


def receive_mortgaged(
    g: GameState, ev: Events, player: int, squares: list[int], how: str | None = None
) -> None:
    """A player received mortgaged deeds: interest at once, then lift now or keep."""
    if not squares:
        return
    if (how or g.options.mortgaged_transfer) == "redeem_at_once":
        for s in squares:
            charge(g, ev, player, BANK, lift_cost(g, s), "mortgage_lift")
            g.set_mortgaged(s, False)
            ev.append({"kind": "unmortgaged", "player": g.players[player].name, "square": s})
        return
    fee = sum(interest(g, g.edition.squares[s].mortgage) for s in squares)
    g.pending.append(Pending(PendingKind.LIFT_MORTGAGES, player, squares=sorted(squares)))
    charge(g, ev, player, BANK, fee, "mortgage_interest")


def declare_bankrupt(g: GameState, ev: Events, player: int, forced: bool = False) -> None:
    """The top debt cannot be paid: hand everything over and leave the game."""
    from companion.rules.turns import after_player_left

    top = g.top
    if top is None or top.kind is not PendingKind.DEBT or top.player != player:
        raise RulesError(Code.NOT_IN_DEBT, "bankruptcy is declared only on a debt that is due")
    can = raisable(g, player)
    if can >= top.amount and not forced:
        raise RulesError(
            Code.CAN_STILL_PAY,
            f"{g.players[player].name} can still raise {money_text(g, can)} by selling buildings"
            f" and mortgaging, enough for the {money_text(g, top.amount)} owed",
            player=g.players[player].name, can=can, owed=top.amount,
        )
    creditor = top.creditor
    p = g.wp(player)
    owned = [s.index for s in g.edition.squares if s.kind in OWNABLE and g.owner[s.index] == player]
    ev.append({"kind": "bankrupt", "player": p.name, "creditor": party_name(g, creditor)})
    g.pending = [x for x in g.pending if x.player != player]
    for s in owned:
        value = building_value(g, s)
        if g.level[s]:
            if g.has_hotel(s):
                g.bank_hotels += 1
            elif g.has_skyscraper(s):
                g.bank_skyscrapers += 1
            else:
                g.bank_houses += g.level[s]
            g.set_level(s, 0)
            if creditor >= 0:
                transfer(g, ev, BANK, player, value, "buildings_sold")
        elif g.depots and s in g.depots and creditor >= 0:
            transfer(g, ev, BANK, player, value, "buildings_sold")
    if g.depots:
        g.depots = tuple(s for s in g.depots if s not in owned)
    p.bus_tickets = ()  # tickets of a bankrupt go to the bank for good
    if creditor >= 0:
        transfer(g, ev, player, creditor, p.cash, "bankruptcy")
        mortgaged = []
        for s in owned:
            g.set_owner(s, creditor)
            if g.mortgaged[s]:
                mortgaged.append(s)
        ev.append({"kind": "deeds_transferred", "from": p.name, "to": g.players[creditor].name,
                   "squares": owned})
        g.wp(creditor).jail_cards.extend(p.jail_cards)
        p.jail_cards = []
        if g.options.build_with_all_but_one:
            from companion.rules.buildings import after_acquiring

            after_acquiring(g, ev, creditor, owned)
        receive_mortgaged(g, ev, creditor, [s for s in mortgaged if g.mortgaged[s]],
                          g.options.mortgaged_bankruptcy_transfer)
    else:
        transfer(g, ev, player, BANK, p.cash, "bankruptcy")
        for s in owned:
            g.set_owner(s, BANK)
            g.set_mortgaged(s, False)
        for card_id in p.jail_cards:
            g.wdeck(g.edition.cards[card_id].deck).append(card_id)
        p.jail_cards = []
        last = g.options.end_after_bankruptcies
        game_ends = last > 0 and sum(q.bankrupt for q in g.players) + 1 >= last
        if owned and g.options.auctions and not game_ends:
            from companion.rules.estate import start_auction

            start_auction(g, ev, owned[0], queue=owned[1:])
    p.bankrupt = True
    p.in_jail = False
    after_player_left(g, ev, player)


def owns_kind(g: GameState, player: int, kind: SquareKind) -> int:
    """How many squares of a kind the player owns."""
    return sum(1 for s in g.edition.squares if s.kind is kind and g.owner[s.index] == player)
