"""The flow of money trouble: settling debts, bankruptcy, and the follow-up moves that wait
under a debt (a jail fine's released move, the speed die's Mr. Monopoly and bus).

Above the modules it drives (board, speed, turns, buildings, estate) so that money.py stays
the ledger at the bottom; the engine calls settle_debts after every command.
"""

from __future__ import annotations

from companion.rules.board import move_steps
from companion.rules.buildings import after_acquiring
from companion.rules.codes import Code, RulesError
from companion.rules.edition import OWNABLE
from companion.rules.estate import receive_mortgaged, start_auction
from companion.rules.events import Bankrupt, DeedsTransferred, Events, Why
from companion.rules.money import building_value, party_name, raisable, transfer
from companion.rules.speed import run_follow_up
from companion.rules.state import BANK, FOLLOW_UPS, DebtPending, GameState
from companion.rules.turns import after_player_left

#: debts that end the game for a player who cannot pay them in cash, where the edition says
#: so (bankrupt_if_fine_unpayable): no raising money for bail or tax
CASH_ONLY_REASONS = frozenset({"jail_fine", "tax"})


def settle_debts(g: GameState, ev: Events) -> None:
    """Pay every debt on top of the stack whose debtor now has the cash, and run the
    follow-up moves (speed die) that come to the top.

    A bail or tax the debtor's cash does not cover is a bankruptcy at once under
    bankrupt_if_fine_unpayable.
    """
    while g.pending:
        debt = g.pending[-1]
        if isinstance(debt, DebtPending):
            if g.players[debt.player].cash < debt.amount:
                if not _cash_only(g, debt):
                    return
                declare_bankrupt(g, ev, debt.player, forced=True)
                continue
            g.pending.pop()
            transfer(g, ev, debt.player, debt.creditor, debt.amount, debt.reason, debt.why)
            if debt.then_move:  # a paid jail fine releases the move
                move_steps(g, ev, debt.player, debt.then_move)
        elif isinstance(debt, FOLLOW_UPS):
            g.pending.pop()
            run_follow_up(g, ev, debt)
        else:
            return


def bankrupt_refusal(g: GameState, player: int, forced: bool = False) -> RulesError | None:
    """Why the player cannot declare bankruptcy (None: they can): only on the debt due,
    and only when selling and mortgaging everything would not cover it (unless forced)."""
    top = g.top
    if not isinstance(top, DebtPending) or top.player != player:
        return RulesError(Code.NOT_IN_DEBT, "bankruptcy is declared only on a debt that is due")
    if forced:
        return None
    can = raisable(g, player)
    if can >= top.amount:
        return RulesError(
            Code.CAN_STILL_PAY,
            f"{g.players[player].name} can still raise {can} by selling buildings"
            f" and mortgaging, enough for the {top.amount} owed",
            player=g.players[player].name, can=can, owed=top.amount,
        )
    return None


def declare_bankrupt(g: GameState, ev: Events, player: int, forced: bool = False) -> None:
    """The top debt cannot be paid: hand everything over and leave the game."""
    refusal = bankrupt_refusal(g, player, forced)
    if refusal is not None:
        raise refusal
    top = g.top
    assert isinstance(top, DebtPending)
    creditor = top.creditor
    p = g.wp(player)
    owners = g.owner  # the owner first: most squares are not theirs
    owned = [s.index for s in g.edition.squares if owners[s.index] == player and s.kind in OWNABLE]
    ev.append(Bankrupt(p.name, party_name(g, creditor)))
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
                transfer(g, ev, BANK, player, value, "buildings_sold",
                         Why("bankrupt_buildings", s, (("value", value),)))
        elif g.depots and s in g.depots and creditor >= 0:
            transfer(g, ev, BANK, player, value, "buildings_sold",
                     Why("bankrupt_buildings", s, (("value", value),)))
    if g.depots:
        g.depots = tuple(s for s in g.depots if s not in owned)
    p.bus_tickets = ()  # tickets of a bankrupt go to the bank for good
    if creditor >= 0:
        transfer(g, ev, player, creditor, p.cash, "bankruptcy",
                 Why("bankruptcy", None, (("cash", p.cash),)))
        mortgaged = []
        for s in owned:
            g.set_owner(s, creditor)
            if g.mortgaged[s]:
                mortgaged.append(s)
        ev.append(DeedsTransferred(p.name, g.players[creditor].name, tuple(owned)))
        heir = g.wp(creditor)
        heir.jail_cards = [*heir.jail_cards, *p.jail_cards]  # a new list: copies share it
        p.jail_cards = []
        if g.options.build_with_all_but_one:
            after_acquiring(g, ev, creditor, owned)
        receive_mortgaged(g, ev, creditor, [s for s in mortgaged if g.mortgaged[s]],
                          g.options.mortgaged_bankruptcy_transfer)
    else:
        transfer(g, ev, player, BANK, p.cash, "bankruptcy",
                 Why("bankruptcy", None, (("cash", p.cash),)))
        for s in owned:
            g.set_owner(s, BANK)
            g.set_mortgaged(s, False)
        for card_id in p.jail_cards:
            g.wdeck(g.edition.cards[card_id].deck).append(card_id)
        p.jail_cards = []
        last = g.options.end_after_bankruptcies
        game_ends = last > 0 and sum(q.bankrupt for q in g.players) + 1 >= last
        if owned and g.options.auctions and not game_ends:
            start_auction(g, ev, owned[0], queue=owned[1:])
    p.bankrupt = True
    p.in_jail = False
    after_player_left(g, ev, player)




def _cash_only(g: GameState, debt: DebtPending) -> bool:
    """Whether the debt must be paid from cash, or bankrupts the player."""
    return g.options.bankrupt_if_fine_unpayable and debt.reason in CASH_ONLY_REASONS
