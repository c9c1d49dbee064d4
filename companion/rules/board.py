"""The board: moving tokens, salary at GO, what a square does (cards: cards.py) and rents."""

from __future__ import annotations

from typing import Any

from companion.rules.codes import CODE_INSUFFICIENT_FUNDS, RulesError
from companion.rules.dice import moved_total
from companion.rules.edition import (
    BUS_DECK,
    DECK_OF_KIND,
    EXTRA_SQUARES,
    KIND_FREE_PARKING,
    KIND_GO_TO_JAIL,
    KIND_LOT,
    KIND_STATION,
    KIND_TAX,
    KIND_UTILITY,
    OWNABLE,
    Square,
    SquareKind,
)
from companion.rules.events import (
    AuctionSquareStays,
    Events,
    Jailed,
    Moved,
    NoBusTicket,
    PassGo,
    RentClaimable,
    RentForfeited,
    ThreeDoubles,
    Why,
)
from companion.rules.money import charge, transfer
from companion.rules.state import (
    BANK,
    COMPILED,
    FOLLOW_UPS,
    POT,
    BirthdayGiftPending,
    BuyPending,
    ChooseSquarePending,
    DrawPending,
    GameState,
    RollForRentPending,
    bare,
)

#: the reason of a salary, by amount
_SALARY_WHY: dict[int, Why] = {}
#: the usual rents' reasons, by (square, houses or stations, rent): a reason is read-only
#: and the same for every landing with the same figures, so each is made once and kept (a
#: handful per edition) instead of made and let go on every rent
_HOUSES_WHY: dict[tuple[int, int, int], Why] = {}
_LOT_WHY: dict[tuple[int, int, int], Why] = {}
_STATION_WHY: dict[tuple[int, int, int], Why] = {}


def pay_salary(g: GameState, ev: Events, player: int, landed: bool = False) -> None:
    """The bank pays the salary for passing GO (twice for landing on it, as a house rule)."""
    amount = g.options.salary
    why = _SALARY_WHY.get(amount)
    if why is None:  # the same for every pass of a game: kept (a Why is read-only)
        why = _SALARY_WHY[amount] = Why("salary", None, (("salary", amount),), "salary")
    if landed and g.options.double_salary_on_go:
        amount *= 2
        why = Why("salary_on_go", None, (("salary", amount // 2), ("times", 2)),
                  "double_salary_on_go")
    if COMPILED:
        ev.append(PassGo(g.players[player].name, amount))
    else:  # the fields on a bare record, as money.transfer makes its Transfer
        e: Any = bare(PassGo)
        e.player = g.players[player].name
        e.amount = amount
        ev.append(e)
    transfer(g, ev, BANK, player, amount, "salary", why)


def send_to_jail(g: GameState, ev: Events, player: int) -> None:
    """Straight to jail: no salary, no re-roll; the turn's moving is over.

    A move still to come (Mr. Monopoly, the bus) is dropped with it.
    """
    if g.pending:
        g.pending = [x for x in g.pending
                     if x.player != player or not isinstance(x, FOLLOW_UPS)]
    p = g.wp(player)
    p.position = g.edition.jail_index
    p.in_jail = True
    p.jail_turns = 0
    if player == g.current:
        g.must_roll = False
        g.doubles = 0
    ev.append(Jailed(p.name))


def count_doubles(g: GameState, ev: Events, player: int, double: bool) -> bool:
    """Doubles roll again, the third in a row goes straight to jail; True when jailed."""
    if not double:
        g.must_roll = False
        return False
    g.doubles += 1
    if g.doubles >= 3:
        ev.append(ThreeDoubles(g.players[player].name))
        send_to_jail(g, ev, player)
        return True
    g.must_roll = True
    return False


def move_steps(g: GameState, ev: Events, player: int, steps: int) -> None:
    """Move forward by a number of squares, paying the salary when GO is passed or reached."""
    p = g.wp(player)
    n = len(g.edition.squares)
    start = p.position
    reached = start + steps
    target = reached % n
    if COMPILED:
        ev.append(Moved(p.name, start, target))
    else:  # the fields on a bare record, as money.transfer makes its Transfer
        e: Any = bare(Moved)
        e.player = p.name
        e.from_ = start
        e.to = target
        ev.append(e)
    p.position = target
    if reached >= n:  # passed or reached GO
        pay_salary(g, ev, player, landed=target == 0)
    land(g, ev, player)


def move_to(
    g: GameState, ev: Events, player: int, target: int, rent_multiplier: int = 1,
    dice_multiplier: int = 0,
) -> None:
    """Advance (forward) to a square, paying the salary when GO is passed or reached."""
    p = g.wp(player)
    passed = target <= p.position
    ev.append(Moved(p.name, p.position, target))
    p.position = target
    if passed:
        pay_salary(g, ev, player, landed=target == 0)
    land(g, ev, player, rent_multiplier, dice_multiplier)


def rent_for(g: GameState, square: int, dice_total: int = 0,
             explain: list[Why] | None = None) -> int:
    """The rent landing on an owned square costs (utilities: with the dice total).

    Given a list, `explain` gets the reason (companion.rules.events.Why): which rule set the
    amount and from which figures, so that the table can say why without working it out again.
    """
    owner = g.owner[square]
    if owner < 0 or g.mortgaged[square]:
        return 0
    sq = g.edition.squares[square]
    if sq.kind is KIND_LOT:
        level = g.level[square]
        if level:
            hotel = g.options.houses_before_hotel + 1  # g.hotel_level, without its call
            if level < hotel:
                rent = sq.rent[level]
                if explain is not None:
                    key = (square, level, rent)
                    why = _HOUSES_WHY.get(key)
                    if why is None:  # the same for every landing there: kept
                        why = _HOUSES_WHY[key] = Why("rent_houses", square,
                                                    (("houses", level), ("rent", rent)))
                    explain.append(why)
                return rent
            rent = sq.rent[5] if level == hotel else sq.rent[6]  # hotel, skyscraper
            if explain is not None:
                explain.append(Why("rent_hotel" if level == hotel else "rent_skyscraper", square,
                                   (("rent", rent),)))
            return rent
        group = g.edition.groups[sq.group]
        owned = 0
        for s in group:
            if g.owner[s] == owner:
                owned += 1
        opts = g.options
        base = sq.rent[0]
        if owned == len(group):
            times = opts.unbuilt_rent_full_group
            rule, option = "rent_full_group", "unbuilt_rent_full_group"
        elif owned == len(group) - 1 and len(group) > 2:
            times = opts.unbuilt_rent_all_but_one
            rule, option = "rent_all_but_one", "unbuilt_rent_all_but_one"
        else:
            if explain is not None:
                key = (square, 0, base)
                why = _LOT_WHY.get(key)
                if why is None:  # the same for every landing there: kept
                    why = _LOT_WHY[key] = Why("rent_lot", square, (("rent", base),))
                explain.append(why)
            return base
        if times != 1 and (opts.double_rent_with_mortgaged_lot or not any(
                g.mortgaged[s] for s in group if g.owner[s] == owner)):
            if explain is not None:
                explain.append(Why(rule, square, (("rent", base), ("times", times)), option))
            return base * times
        if explain is not None:
            explain.append(Why("rent_group_mortgaged" if times != 1 else "rent_lot", square,
                               (("rent", base),),
                               "double_rent_with_mortgaged_lot" if times != 1 else None))
        return base
    # the stations (utilities) the owner holds, mortgaged ones too: a mortgaged deed is
    # still its owner's ("vous êtes toujours en sa possession"), it only earns no rent itself
    count = 0
    owners = g.owner
    for s in g.edition.groups[sq.group]:  # a loop: sum() over a generator costs a frame a step
        if owners[s] == owner:
            count += 1
    if sq.kind is KIND_STATION:
        rent = sq.rent[count - 1]
        depots = g.seldom.depots  # not through the state's property: a call
        depot = bool(depots) and square in depots
        if explain is not None:
            if depot:
                explain.append(Why("rent_station_depot", square,
                                   (("stations", count), ("rent", rent), ("times", 2))))
            else:
                key = (square, count, rent)
                why = _STATION_WHY.get(key)
                if why is None:  # the same for every landing there: kept
                    why = _STATION_WHY[key] = Why("rent_station", square,
                                                  (("stations", count), ("rent", rent)))
                explain.append(why)
        return rent * 2 if depot else rent  # a depot doubles it
    times = sq.multipliers[count - 1]
    if explain is not None:
        explain.append(Why("rent_utility", square,
                           (("utilities", count), ("dice", dice_total), ("times", times))))
    return times * dice_total


def land(
    g: GameState, ev: Events, player: int, rent_multiplier: int = 1, dice_multiplier: int = 0
) -> None:
    """Whatever the square the player now stands on does."""
    p = g.players[player]
    sq = g.edition.squares[p.position]
    kind = sq.kind
    if kind in OWNABLE:
        owner = g.owner[sq.index]
        if owner == BANK:
            if COMPILED:
                g.pending.append(BuyPending(player, sq.index))
                return
            offer: Any = bare(BuyPending)  # the fields on a bare record, as for Moved
            offer.player = player
            offer.square = sq.index
            g.pending.append(offer)
            return
        if owner == player or g.mortgaged[sq.index]:
            return
        if g.options.no_rent_in_jail and g.players[owner].in_jail:
            return
        if kind is KIND_UTILITY:
            if g.options.utility_rent_fresh_roll and not dice_multiplier:
                g.pending.append(RollForRentPending(player, sq.index))
                return
            if dice_multiplier and not g.options.utility_card_rolls_again and g.dice:
                total = moved_total(g.dice)
                charge(g, ev, player, owner, total * dice_multiplier, "rent",
                       why=Why("rent_utility_card", sq.index,
                               (("dice", total), ("times", dice_multiplier)),
                               "utility_card_rolls_again"))
                return
            if dice_multiplier or g.dice is None:
                g.pending.append(RollForRentPending(player, sq.index, dice_multiplier))
                return
            why: list[Why] = []
            amount = rent_for(g, sq.index, moved_total(g.dice), why)
            charge(g, ev, player, owner, amount, "rent", why=why[0] if why else None)
            return
        why = []
        amount = rent_for(g, sq.index, 0, why) * rent_multiplier
        reason = why[0] if why else None
        if reason is not None and rent_multiplier != 1:
            reason = reason.with_term("card_times", rent_multiplier)
        if g.options.rent_must_be_claimed:
            # a new list: copies of the state share the old one
            g.claims = [*g.claims, (player, owner, sq.index, amount, g.options.rent_claim_turns)]
            ev.append(RentClaimable(g.players[owner].name, p.name, sq.index, amount))
            return
        if 0 < amount <= p.cash:  # charge's usual case, the rent paid at once, without its call
            transfer(g, ev, player, owner, amount, "rent", reason)
            return
        charge(g, ev, player, owner, amount, "rent", why=reason)
    elif kind is KIND_TAX:
        charge(g, ev, player, BANK, sq.amount, "tax",
               why=Why("tax", sq.index, (("tax", sq.amount),)))
    elif kind in DECK_OF_KIND:
        if COMPILED:
            g.pending.append(DrawPending(player, DECK_OF_KIND[kind]))
            return
        draw: Any = bare(DrawPending)  # the fields on a bare record, as for Moved
        draw.player = player
        draw.deck = DECK_OF_KIND[kind]
        g.pending.append(draw)
    elif kind is KIND_GO_TO_JAIL:
        send_to_jail(g, ev, player)
    elif kind is KIND_FREE_PARKING and g.options.free_parking_pot and g.pot > 0:
        transfer(g, ev, POT, player, g.pot, "free_parking",
                 Why("free_parking", sq.index, (("pot", g.pot),), "free_parking_pot"))
    elif kind in EXTRA_SQUARES:
        land_on_extra_square(g, ev, player, sq)


def utility_rent(g: GameState, ev: Events, pending: RollForRentPending,
                 dice: tuple[int, ...]) -> None:
    """Charge a utility's rent from a fresh roll (card-sent, or bank-only play)."""
    owner = g.owner[pending.square]
    if owner < 0 or g.mortgaged[pending.square]:
        return
    total = sum(dice[:2])
    why: Why | None
    if pending.multiplier:
        amount = total * pending.multiplier
        why = Why("rent_utility_card", pending.square,
                  (("dice", total), ("times", pending.multiplier)), "utility_card_rolls_again")
    else:
        explain: list[Why] = []
        amount = rent_for(g, pending.square, total, explain)
        why = explain[0] if explain else None
    charge(g, ev, pending.player, owner, amount, "rent", why=why)


def cannot_afford(g: GameState, player: int, what: str, amount: int, *, purpose: str,
                  square: int | None = None) -> RulesError:
    """The refusal for a purchase the player's cash does not cover.

    `purpose` names what was to be paid for (buy, build, depot, unmortgage, jail_fine) and
    goes with the amounts into the refusal's params, for screens that translate it.
    """
    p = g.players[player]
    return RulesError(
        CODE_INSUFFICIENT_FUNDS,
        f"{p.name} cannot afford {what}: {amount} needed, {p.cash} in hand",
        player=p.name, purpose=purpose, square=square, needed=amount, cash=p.cash,
    )


def turn_starts_moving(g: GameState, ev: Events, player: int) -> None:
    """A player's first roll (or bus ride) of a turn: unclaimed rents age, and are lost when
    enough other players have started their turns."""
    if not g.claims or g.rolled:
        return
    kept = []
    for payer, owner, square, amount, left in g.claims:
        if payer != player:
            left -= 1
        if left <= 0:
            ev.append(RentForfeited(g.players[owner].name, g.players[payer].name, square,
                                    amount))
        else:
            kept.append((payer, owner, square, amount, left))
    g.claims = kept


# --- the Mega edition's squares: Auction, Birthday gift, Bus ticket ---------------------


def take_ticket(g: GameState, ev: Events, player: int) -> None:
    """The player takes the top ticket of the pile (a draw), if any is left."""
    if g.decks.get(BUS_DECK):
        g.pending.append(DrawPending(player, BUS_DECK))
    else:
        ev.append(NoBusTicket(g.players[player].name))


def auction_choices(g: GameState) -> list[int]:
    """The properties nobody owns: what the Auction square may put up for auction."""
    return [s.index for s in g.edition.squares if s.kind in OWNABLE and g.owner[s.index] == BANK]


def land_on_extra_square(g: GameState, ev: Events, player: int, sq: Square) -> None:
    """What the Auction, Birthday gift and Bus ticket squares do."""
    if sq.kind is SquareKind.BUS_TICKET:
        take_ticket(g, ev, player)
    elif sq.kind is SquareKind.BIRTHDAY_GIFT:
        if g.decks.get(BUS_DECK):
            g.pending.append(BirthdayGiftPending(player, sq.index, sq.amount))
        else:
            transfer(g, ev, BANK, player, sq.amount, "birthday_gift",
                     Why("birthday_gift", sq.index, (("gift", sq.amount),)))
    elif auction_choices(g):
        if g.options.auctions:
            g.pending.append(ChooseSquarePending(player, "auction", sq.index))
    else:
        dearest_rent(g, ev, player)


def dearest_rent(g: GameState, ev: Events, player: int) -> None:
    """Every property is owned: on to the one of another player whose rent is highest now
    (utilities by this move's dice), the nearest on ties; stay if none would cost anything."""
    squares = g.edition.squares
    n = len(squares)
    here = g.players[player].position
    dice = moved_total(g.dice) if g.dice else 0
    best, best_rent = -1, 0
    for k in range(1, n):
        s = (here + k) % n
        if squares[s].kind in OWNABLE and g.owner[s] not in (BANK, player):
            rent = rent_for(g, s, dice)
            if rent > best_rent:
                best, best_rent = s, rent
    if best < 0:
        ev.append(AuctionSquareStays(g.players[player].name))
        return
    move_to(g, ev, player, best)
