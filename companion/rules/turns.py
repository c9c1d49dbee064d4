"""Turns: rolling, doubles, jail, ending a turn, and a player leaving the game."""

from __future__ import annotations

from typing import Any

from companion.rules.board import (
    cannot_afford,
    count_doubles,
    land,
    move_steps,
    pay_salary,
    turn_starts_moving,
    utility_rent,
)
from companion.rules.codes import (
    CODE_ALREADY_ROLLED,
    CODE_DEVICE_MOVES,
    CODE_MUST_ROLL,
    CODE_NOT_IN_JAIL,
    CODE_NOT_NOW,
    Code,
    RulesError,
)
from companion.rules.commands import EndTurn, Roll
from companion.rules.dice import dice_json, two_dice
from companion.rules.events import Events, LeftJail, Moved, Rolled, Turn, Why, Winner
from companion.rules.money import charge, transfer
from companion.rules.speed import read_speed_dice, speed_roll
from companion.rules.standings import end_and_count
from companion.rules.state import (
    BANK,
    COMPILED,
    GO_DUE,
    GO_PAID,
    NO_SALARY,
    NOBODY,
    GameState,
    RollForRentPending,
    actor,
    bare,
    player_index,
)

WHITE_DICE = 2


def _fine_why(g: GameState, forced: bool = False) -> Why:
    """Why the jail fine is due: paid to leave, or owed after the last roll in jail."""
    if forced:
        return Why("jail_fine_forced", g.edition.jail_index,
                   (("fine", g.options.jail_fine), ("rolls", g.options.max_jail_rolls)),
                   "max_jail_rolls")
    return Why("jail_fine", g.edition.jail_index, (("fine", g.options.jail_fine),), "jail_fine")


def read_dice(g: GameState, dice: tuple[int | str, ...] | None,
              white_only: bool = False) -> tuple[int, ...]:
    """The entered physical dice (checked), or the device's seeded roll.

    With the speed die, a move rolls three dice; jail and a utility's rent roll the white
    dice only (`white_only`).
    """
    if g.options.speed_die and not white_only:
        return read_speed_dice(g, dice)
    if dice is None:  # the two white dice (WHITE_DICE), one after the other
        first, second, g.rng = two_dice(g.rng)
        return first, second
    whites = tuple(d for d in dice if isinstance(d, int) and 1 <= d <= 6)
    if len(dice) != WHITE_DICE or len(whites) != WHITE_DICE:
        raise RulesError(Code.BAD_DICE, f"enter {WHITE_DICE} dice, each from 1 to 6")
    return whites


def roll_refusal(g: GameState, player: int) -> RulesError | None:
    """Why the player may not roll now (None: they may): the turn's roll, or a utility's
    rent when a fresh roll is owed."""
    top = g.top
    if top is not None:
        if isinstance(top, RollForRentPending):
            if player != top.player:
                name = g.players[top.player].name
                return RulesError(Code.NOT_YOUR_TURN, f"{name} rolls for the rent", player=name)
            return None
        return RulesError(Code.DECISION_PENDING, "answer the pending decision first")
    if player != g.current:
        return RulesError(Code.NOT_YOUR_TURN, f"it is {g.players[g.current].name}'s turn",
                          player=g.players[g.current].name)
    if not g.must_roll:
        return RulesError(CODE_ALREADY_ROLLED, f"{g.players[player].name} has rolled already",
                          player=g.players[player].name)
    if g.go_salary == GO_PAID:  # bank-only play: PASS GO paid this move, its square next
        name = g.players[player].name
        return RulesError(Code.SALARY_PAID, f"{name} has had the salary for this move: tell "
                          "the square the token reached", player=name)
    return None


def roll_command(g: GameState, ev: Events, cmd: Roll) -> tuple[int, ...] | None:
    """The roll command (engine.apply's handler): the dice the device rolled, None for
    entered dice. The usual roll, two white dice the device rolls for the current player
    out of jail with nothing pending, is written out here (a call less a roll), with the
    same steps as `roll` without their other cases; `roll` takes every other."""
    by = cmd.by
    dice = cmd.dice
    pending = g.pending
    player = g.current
    if pending or dice is not None:
        if pending and isinstance(pending[-1], RollForRentPending):
            player = pending[-1].player
        expected = g.players[player]
        if by is not None and (expected.name != by or expected.bankrupt):
            player = player_index(g, by)
        values = roll(g, ev, player, dice)
        return values if dice is None else None
    p = g.players[player]
    if by is not None and (p.name != by or p.bankrupt):  # else the current player's roll
        return roll(g, ev, player_index(g, by), None)  # (refused unless it is theirs)
    if not g.must_roll or g.seldom.go_salary or p.in_jail or g.options.speed_die:
        return roll(g, ev, player, None)
    first, second, g.rng = two_dice(g.rng)  # read_dice's usual case
    values = (first, second)
    if g.seldom.claims and not g.rolled:
        turn_starts_moving(g, ev, player)
    g.dice = values
    g.rolled = True
    double = first == second
    if COMPILED:
        ev.append(Rolled(p.name, values, double))
    else:  # the fields on a bare record, as money.transfer makes its Transfer
        e: Any = bare(Rolled)
        e.player = p.name
        e.dice = values
        e.double = double
        e.for_rent = False
        ev.append(e)
    if not double:
        g.must_roll = False  # count_doubles' usual case, without the call
    elif count_doubles(g, ev, player, double):
        return values
    move_steps(g, ev, player, first + second)
    return values


def roll(g: GameState, ev: Events, player: int,
         dice: tuple[int | str, ...] | None) -> tuple[int, ...]:
    """Roll for the turn (or for a utility's rent when a fresh roll is owed); the dice."""
    if g.pending or player != g.current or not g.must_roll or g.seldom.go_salary:  # else no look
        refusal = roll_refusal(g, player)
        if refusal is not None:
            raise refusal
        top = g.pending[-1] if g.pending else None
        if isinstance(top, RollForRentPending):  # a fresh roll for a utility's rent
            for_rent = read_dice(g, dice, white_only=True)
            g.pending.pop()
            ev.append(Rolled(g.players[player].name, for_rent, for_rent=True))
            utility_rent(g, ev, top, for_rent)
            return for_rent
    p = g.players[player]
    values = read_dice(g, dice, white_only=p.in_jail)
    if g.seldom.claims and not g.rolled:
        turn_starts_moving(g, ev, player)
    if p.in_jail:
        p = g.wp(player)
    g.dice = values
    g.rolled = True
    double = values[0] == values[1]
    total = values[0] + values[1]
    ev.append(Rolled(p.name, values if len(values) == 2 else tuple(dice_json(values)), double))
    if p.in_jail:
        g.must_roll = False
        if double:
            p.in_jail = False
            p.jail_turns = 0
            ev.append(LeftJail(p.name, "doubles"))
            move_steps(g, ev, player, total)
            return values
        p.jail_turns += 1
        if p.jail_turns >= g.options.max_jail_rolls:
            p.in_jail = False
            p.jail_turns = 0
            ev.append(LeftJail(p.name, "fine"))
            if charge(g, ev, player, BANK, g.options.jail_fine, "jail_fine", then_move=total,
                      why=_fine_why(g, forced=True)):
                move_steps(g, ev, player, total)
        return values
    if len(values) == 3:
        speed_roll(g, ev, player, values)
        return values
    if not double:
        g.must_roll = False  # count_doubles' usual case, without the call
    elif count_doubles(g, ev, player, double):
        return values
    move_steps(g, ev, player, total)
    return values


def leave_jail_refusal(g: GameState, player: int, by_card: bool) -> RulesError | None:
    """Why the player cannot leave jail by the fine or a card now (None: they can). A
    jailed player may in their own turn, before its roll ("pay the fine and play in the next
    turn": not in the turn that sent them there, which ends, nor in another player's), but
    not while the table waits for a decision."""
    if g.pending:
        return RulesError(Code.DECISION_PENDING, "answer the pending decision first")
    p = g.players[player]
    if not p.in_jail:
        return RulesError(CODE_NOT_IN_JAIL, f"{p.name} is not in jail")
    if player != g.current:
        return RulesError(CODE_NOT_NOW, f"{p.name} may leave jail in their own turn")
    if g.rolled:
        return RulesError(CODE_NOT_NOW, "leave jail before rolling")
    if by_card:
        if not p.jail_cards:
            return RulesError(Code.NO_JAIL_CARD, f"{p.name} has no Get Out of Jail Free card")
        return None
    if p.jail_turns >= g.options.jail_fine_before_rolls:
        return RulesError(CODE_NOT_NOW, f"{p.name} may pay the fine only before the first "
                          f"{g.options.jail_fine_before_rolls} rolls in jail")
    if p.cash < g.options.jail_fine:
        return cannot_afford(g, player, "the jail fine", g.options.jail_fine,
                             purpose="jail_fine")
    return None


def leave_jail(g: GameState, ev: Events, player: int, by_card: bool) -> None:
    """Pay the fine or use a card before rolling; then the player rolls as usual."""
    refusal = leave_jail_refusal(g, player, by_card)
    if refusal is not None:
        raise refusal
    p = g.wp(player)
    if by_card:
        card_id = p.jail_cards[0]
        p.jail_cards = p.jail_cards[1:]  # a new list: copies share the old one
        g.wdeck(g.edition.cards[card_id].deck).append(card_id)
        ev.append(LeftJail(p.name, "card", card_id))
    else:
        transfer(g, ev, player, BANK, g.options.jail_fine, "jail_fine", _fine_why(g))
        ev.append(LeftJail(p.name, "fine"))
    p.in_jail = False
    p.jail_turns = 0


def end_turn_refusal(g: GameState, player: int) -> RulesError | None:
    """Why the player cannot hand the dice on (None: they can): not their turn, or a
    decision, a debt or a re-roll is owed."""
    if player != g.current:
        return RulesError(Code.NOT_YOUR_TURN, f"it is {g.players[g.current].name}'s turn",
                          player=g.players[g.current].name)
    if g.pending:
        return RulesError(Code.DECISION_PENDING, "answer the pending decision first")
    if g.must_roll and not g.options.bank_only:
        return RulesError(CODE_MUST_ROLL, f"{g.players[player].name} must roll"
                          + (" again (doubles)" if g.rolled else " first"),
                          player=g.players[player].name, again=g.rolled)
    return None


def end_turn(g: GameState, ev: Events, player: int) -> None:
    """Hand the dice on; refused while a decision, a debt or a re-roll is owed."""
    if player != g.current or g.pending or g.must_roll:  # else nothing can refuse it
        refusal = end_turn_refusal(g, player)
        if refusal is not None:
            raise refusal
    next_turn(g, ev)


def next_turn(g: GameState, ev: Events, cmd: EndTurn | None = None) -> None:
    """Make the next player still in the game the current player; with the end-of-turn
    command, first check who sent it and that nothing is owed: so this is also that
    command's handler in engine.apply (the usual end of turn one call, not two)."""
    if cmd is not None:
        by = cmd.by
        who = g.current
        if by is not None:
            expected = g.players[who]
            if expected.name != by or expected.bankrupt:  # else actor's usual case
                who = actor(g, by, who)
        if g.pending or g.must_roll:  # what end_turn refuses; else nothing can
            end_turn(g, ev, who)
            return
    players = g.players
    n = len(players)
    nxt = (g.current + 1) % n
    if players[nxt].bankrupt:  # the usual case, the next player still in, without a loop
        for _ in range(n - 1):
            nxt = (nxt + 1) % n
            if not players[nxt].bankrupt:
                break
    g.current = nxt
    g.turn_number += 1
    g.rolled = False
    g.must_roll = True
    g.doubles = 0
    g.dice = None
    seldom = g.seldom
    if seldom.fresh_tickets or seldom.mr_monopoly or seldom.go_salary:  # else unchanged
        seldom = g.ws()
        seldom.fresh_tickets = 0
        seldom.mr_monopoly = False
        seldom.go_salary = NO_SALARY
    if COMPILED:
        ev.append(Turn(players[nxt].name, g.turn_number))
        return
    e: Any = bare(Turn)  # the fields on a bare record, as money.transfer makes its Transfer
    e.player = players[nxt].name
    e.number = g.turn_number
    ev.append(e)


def after_player_left(g: GameState, ev: Events, player: int) -> None:
    """After a bankruptcy: declare the winner, or pass the turn on if it was theirs."""
    left = [i for i, p in enumerate(g.players) if not p.bankrupt]
    last = g.options.end_after_bankruptcies
    if last and len(g.players) - len(left) >= last:
        end_and_count(g, ev, "bankruptcies")
        return
    if len(left) == 1:
        g.winner = left[0]
        g.pending = []
        ev.append(Winner(g.players[left[0]].name))
        return
    if player == g.current:
        next_turn(g, ev)


def passes_go(start: int, square: int) -> bool:
    """Whether a move forward from `start` to `square` passed or reached GO (square 0).

    Bank-only play: `start` is the square the token was last told or put on (the engine
    moves it itself for cards and jail), so a lower square means the move went round the
    board; a move told late may be missed, never invented.

    >>> passes_go(36, 4), passes_go(4, 9), passes_go(35, 0), passes_go(0, 0)
    (True, False, True, True)
    """
    return square < start or square == 0


def move_refusal(g: GameState, player: int, telling: bool = True) -> RulesError | None:
    """Why the player may not tell a move now (None: they may): bank-only play only, in
    their turn, out of jail, with nothing pending; `telling` a square: one per roll.
    Where the device rolls, it moves the tokens and pays GO itself."""
    if not g.options.bank_only:
        return RulesError(CODE_DEVICE_MOVES, "the device moves the tokens and pays the salary "
                          "at GO itself: only the banker can correct a move")
    if g.pending:
        return RulesError(Code.DECISION_PENDING, "answer the pending decision first")
    p = g.players[player]
    if player != g.current:
        return RulesError(Code.NOT_YOUR_TURN, f"it is {g.players[g.current].name}'s turn",
                          player=g.players[g.current].name)
    if p.in_jail:
        return RulesError(Code.IN_JAIL, f"{p.name} is in jail: pay the fine, use a card or "
                          "roll (doubles move the token out) first", player=p.name)
    if telling and not g.must_roll:
        return RulesError(Code.ALREADY_MOVED, f"{p.name} has moved this turn already "
                          "(doubles give another move: tell the dice with the square)",
                          player=p.name)
    return None


def land_refusal(g: GameState, player: int, square: int, via_go: bool) -> RulesError | None:
    """Why the player's token may not be told on `square` now (None: it may): one square
    per roll; past GO (`via_go`, or its salary taken first) only where the move from the
    token's square passed or reached it, and one salary per move."""
    refusal = move_refusal(g, player)
    if refusal is not None:
        return refusal
    paid = g.go_salary == GO_PAID
    start = g.players[player].position
    if (via_go or paid) and not passes_go(start, square):
        names = g.edition.squares
        return RulesError(Code.NOT_PAST_GO, f"a move from {names[start].name} to "
                          f"{names[square].name} does not pass GO",
                          player=g.players[player].name, start=start, square=square)
    if via_go and paid:
        return _salary_paid(g, player)
    return None


def land_on(g: GameState, ev: Events, player: int, square: int, via_go: bool,
            dice: tuple[int | str, ...] | None) -> None:
    """Bank-only play: the table moved the token; the square takes effect. The salary
    with `via_go` (or on GO itself); a move past GO told without it leaves the salary due
    (PASS GO pays it). Entered dice that are doubles give another move, the third doubles
    go to jail."""
    refusal = land_refusal(g, player, square, via_go)
    if refusal is not None:
        raise refusal
    values = read_dice(g, dice, white_only=True) if dice is not None else None
    g.rolled = True
    paid = g.go_salary == GO_PAID
    g.go_salary = NO_SALARY  # the next move (doubles) has its own
    if values is not None:
        g.dice = values
        if count_doubles(g, ev, player, values[0] == values[1]):
            return  # the third doubles: to jail, not to the square
    else:
        g.must_roll = False
    p = g.wp(player)
    start = p.position
    ev.append(Moved(p.name, start, square))
    p.position = square
    if not paid:
        if via_go or square == 0:
            pay_salary(g, ev, player, landed=square == 0)
        elif passes_go(start, square):
            g.go_salary = GO_DUE
    saved = g.dice
    if values is None:
        g.dice = None  # a utility then asks for the dice
    land(g, ev, player)
    g.dice = saved


def _salary_paid(g: GameState, player: int) -> RulesError:
    name = g.players[player].name
    return RulesError(Code.SALARY_PAID, f"{name} has had the salary for this move",
                      player=name)


def pass_go_refusal(g: GameState, player: int) -> RulesError | None:
    """Why the player may not take the salary now (None: they may): bank-only play, in
    their turn, out of jail, once per move: before its square is told, or after a square
    told past GO without it."""
    refusal = move_refusal(g, player, telling=g.go_salary != GO_DUE)
    if refusal is not None:
        return refusal
    if g.go_salary == GO_PAID:
        return _salary_paid(g, player)
    return None


def pass_go(g: GameState, ev: Events, player: int) -> None:
    """Bank-only play: the salary for the move being made (before its square is told) or
    for the square just told past GO."""
    refusal = pass_go_refusal(g, player)
    if refusal is not None:
        raise refusal
    due = g.go_salary == GO_DUE
    pay_salary(g, ev, player)
    g.go_salary = NO_SALARY if due else GO_PAID


def correction_refusal(g: GameState) -> RulesError | None:
    """Why the banker cannot correct a move now (None: they can): a decision is pending."""
    if g.pending:
        return RulesError(Code.DECISION_PENDING, "answer the pending decision first")
    return None


def correct_land(g: GameState, ev: Events, player: int, square: int, via_go: bool,
                 dice: tuple[int | str, ...] | None) -> None:
    """The banker's correction: the token put on a square outside the turn's move, the
    square taking effect; the salary when `via_go` or on GO. The turn's own move (and what
    is owed of it) stays as it was."""
    refusal = correction_refusal(g)
    if refusal is not None:
        raise refusal
    p = g.wp(player)
    ev.append(Moved(p.name, p.position, square))
    if p.in_jail:
        p.in_jail = False
        p.jail_turns = 0
    p.position = square
    if dice is not None:
        g.dice = read_dice(g, dice, white_only=True)
    if via_go or square == 0:
        pay_salary(g, ev, player, landed=square == 0)
    saved = g.dice
    if dice is None:
        g.dice = None  # a utility then asks for the dice
    land(g, ev, player)
    g.dice = saved


def correct_salary(g: GameState, ev: Events, player: int) -> None:
    """The banker's correction: a salary paid outside the turn's move."""
    refusal = correction_refusal(g)
    if refusal is not None:
        raise refusal
    pay_salary(g, ev, player)


__all__ = ["roll", "roll_command", "roll_refusal", "leave_jail", "leave_jail_refusal", "end_turn",
           "end_turn_refusal", "next_turn", "after_player_left", "land_on", "land_refusal",
           "move_refusal", "pass_go", "pass_go_refusal", "passes_go", "correction_refusal",
           "correct_land", "correct_salary", "NOBODY"]
