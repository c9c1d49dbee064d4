"""Buildings: houses, hotels and skyscrapers on lots, train depots on stations.

A lot's buildings are one number, its level: 1 to 4 houses (3 in the short game), then the
hotel, then, in editions with skyscrapers, the skyscraper (it replaces the hotel, one per
lot, on a whole group with a hotel on every lot). Building and selling go evenly over the
builder's lots of the group. Depots are kept apart (GameState.depots): one per station, on
any station owned, doubling its rent.
"""

from __future__ import annotations

from companion.rules.board import cannot_afford
from companion.rules.codes import (
    CODE_DECISION_PENDING,
    CODE_GROUP_MORTGAGED,
    CODE_MAX_BUILDINGS,
    CODE_NO_MONOPOLY,
    CODE_NOT_NOW,
    CODE_NOT_OWNABLE,
    CODE_UNEVEN,
    Code,
    RulesError,
)
from companion.rules.edition import KIND_LOT, KIND_STATION, OWNABLE
from companion.rules.events import (
    AuctionStarted,
    Built,
    Events,
    Rebalanced,
    SoldBuilding,
    Unmortgaged,
    Why,
)
from companion.rules.money import charge, lift_cost, lift_why, transfer
from companion.rules.state import (
    AUCTIONS,
    BANK,
    BuildingAuctionPending,
    DebtPending,
    GameState,
    PlaceBuildingPending,
)


def property_refusal(g: GameState, player: int, square: int) -> RulesError | None:
    """Why the square is not a property of the player (None when it is)."""
    sq = g.edition.squares[square]
    if sq.kind not in OWNABLE:
        return RulesError(Code.NOT_OWNABLE, f"{sq.name} is not a property")
    if g.owner[square] != player:
        return RulesError(Code.NOT_OWNER, f"{sq.name} does not belong to {g.players[player].name}")
    return None


def own_property(g: GameState, player: int, square: int) -> None:
    """Refuse unless the square is a property of the player."""
    refusal = property_refusal(g, player, square)
    if refusal is not None:
        raise refusal


# --- who may act while the table waits ---------------------------------------------------


def auction_refusal(g: GameState) -> RulesError | None:
    """Building, lifting mortgages and trading wait while an auction runs."""
    if g.pending and isinstance(g.pending[-1], AUCTIONS):
        return RulesError(CODE_DECISION_PENDING, "wait until the auction is over")
    return None


def debt_refusal(g: GameState, who: int, what: str) -> RulesError | None:
    """A player whose debt waits on the table spends nothing on `what` (building, lifting
    mortgages) until it is paid: the money raised goes to the creditor first."""
    if any(isinstance(d, DebtPending) and d.player == who for d in g.pending):
        return RulesError(CODE_DECISION_PENDING, f"no {what} before "
                          f"{g.players[who].name}'s debt is paid")
    return None


def mr_monopoly_refusal(g: GameState, who: int, what: str) -> RulesError | None:
    """Nobody but the player whose Mr. Monopoly turn it is may build, lift or trade."""
    if g.mr_monopoly and who != g.current:
        return RulesError(Code.MR_MONOPOLY_TURN, f"no {what} until "
                          f"{g.players[g.current].name}'s Mr. Monopoly turn is over")
    return None


def all_but_one_counts(g: GameState, group: tuple[int, ...], owned: int) -> bool:
    """Whether owning `owned` lots of the group is "all lots but one" under the rule options.

    Only groups of three or more lots: all but one of two lots would be just one lot.
    """
    return owned == len(group) - 1 and len(group) > 2 and g.options.build_with_all_but_one


def builds_with(g: GameState, group: tuple[int, ...], owned: int) -> bool:
    """Whether owning `owned` lots of the group lets their owner build there: the whole
    group, or all of it but one lot where the rule options allow that."""
    return owned == len(group) or all_but_one_counts(g, group, owned)


def builder_lots(g: GameState, player: int, square: int) -> list[int] | RulesError:
    """The player's lots of the square's group when they may build there, else the refusal."""
    sq = g.edition.squares[square]
    group = g.edition.groups[sq.group]
    owner = g.owner
    mine = []
    for s in group:  # a loop: a list comprehension costs a frame in plain Python
        if owner[s] == player:
            mine.append(s)
    # builds_with's usual case, the whole group, without its call
    if len(mine) != len(group) and not all_but_one_counts(g, group, len(mine)):
        needs = ("all lots of the colour group but one" if g.options.build_with_all_but_one
                 and len(group) > 2 else "the whole colour group")
        return RulesError(CODE_NO_MONOPOLY, f"building on {sq.name} needs {needs}",
                          square=sq.index)
    return mine


def _stock_change(g: GameState, old: int, new: int) -> tuple[int, int, int]:
    """(houses, hotels, skyscrapers) the bank hands out when a lot goes from old to new."""
    if new <= g.options.houses_before_hotel and old <= g.options.houses_before_hotel:
        return new - old, 0, 0  # houses only, without buildings_at's two calls
    h0, t0, s0 = g.buildings_at(old)
    h1, t1, s1 = g.buildings_at(new)
    return h1 - h0, t1 - t0, s1 - s0


def _stock_refusal(g: GameState, need: tuple[int, int, int], why: str = "") -> RulesError | None:
    houses, hotels, skyscrapers = need
    if skyscrapers > g.seldom.bank_skyscrapers:
        return RulesError(Code.HOUSING_SHORTAGE, "the bank has no skyscraper left")
    if hotels > g.bank_hotels:
        return RulesError(Code.HOUSING_SHORTAGE, "the bank has no hotel " + (why or "left"))
    if houses > g.bank_houses:
        return RulesError(Code.HOUSING_SHORTAGE,
                          f"the bank has only {g.bank_houses} houses " + (why or "left"))
    return None


def _take_stock(g: GameState, need: tuple[int, int, int]) -> None:
    g.bank_houses -= need[0]
    g.bank_hotels -= need[1]
    if need[2]:  # else unchanged: the seldom-written fields stay shared
        g.bank_skyscrapers -= need[2]


#: what building on a lot comes to: (the lot's new level, the bank's stock it takes, cost)
LotPlan = tuple[int, tuple[int, int, int], int]
#: the reasons of builds, by (square, levels, house price): read-only, made once and kept
_BUILD_WHY: dict[tuple[int, int, int], Why] = {}
#: the reasons of sales of houses, by (square, levels, house price)
_SELL_WHY: dict[tuple[int, int, int], Why] = {}


def _lot_plan(g: GameState, player: int, square: int, count: int, free: bool,
              building: str) -> LotPlan | RulesError:
    """What building `count` levels on the player's lot would do, or why it is refused
    (the square is the player's property and not a station of an edition with depots)."""
    sq = g.edition.squares[square]
    if sq.kind is not KIND_LOT or building == "depot":
        return RulesError(CODE_NOT_OWNABLE, f"nothing can be built on {sq.name}"
                          if building != "depot" else f"a train depot goes on a station, not "
                          f"on {sq.name}")
    mine = builder_lots(g, player, square)
    if isinstance(mine, RulesError):
        return mine
    mortgaged = g.mortgaged
    for s in mine:
        if mortgaged[s]:
            return RulesError(CODE_GROUP_MORTGAGED, f"a lot of {sq.name}'s group is mortgaged",
                              square=sq.index)
    hotel = g.options.houses_before_hotel + 1  # g.hotel_level, without its call
    top = hotel + 1 if g.edition.skyscrapers else hotel
    level = g.level
    start = level[square]
    # the lowest of the group's other lots (they stay as they are while this one rises):
    # what evenness and a skyscraper compare with; -1 when the player has no other lot
    low = -1
    for s in mine:  # a loop: min() over a generator costs a frame per lot in plain Python
        if s != square and (low < 0 or level[s] < low):
            low = level[s]
    if building == "skyscraper" and (start != hotel or count != 1):
        return RulesError(CODE_NOT_NOW, f"a skyscraper replaces a hotel, one at a time: "
                          f"{sq.name} has {'a skyscraper' if start > hotel else 'no hotel'}")
    if building == "hotel" and start + count != hotel:
        return RulesError(CODE_NOT_NOW, f"{count} building(s) on {sq.name} would not end in "
                          "a hotel")
    cost = 0
    new = start
    for _ in range(count):
        if new >= top:
            return RulesError(CODE_MAX_BUILDINGS, f"{sq.name} already has a "
                              f"{'skyscraper' if top > hotel else 'hotel'}")
        if new == hotel:
            if len(mine) < len(g.edition.groups[sq.group]):
                return RulesError(CODE_NO_MONOPOLY, f"a skyscraper on {sq.name} needs the "
                                  "whole colour group")
            if 0 <= low < hotel:
                return RulesError(CODE_UNEVEN, f"a skyscraper on {sq.name} needs a hotel on "
                                  "every lot of its group")
        if g.options.even_building and 0 <= low < new:
            return RulesError(CODE_UNEVEN, f"build evenly: the other lots of {sq.name}'s "
                              "group need a building first", square=sq.index)
        new += 1
        cost += sq.house_cost
    houses = g.options.houses_before_hotel
    if new <= houses and start <= houses and new - start <= g.bank_houses:
        need = (new - start, 0, 0)  # houses the bank has: _stock_change and _stock_refusal's
        # usual case, without their calls
    else:
        need = _stock_change(g, start, new)
        refusal = _stock_refusal(g, need)
        if refusal is not None:
            return refusal
    if free:
        cost = 0
    if cost > g.players[player].cash:
        return cannot_afford(g, player, f"{count} building(s) on {sq.name}", cost,
                             purpose="build", square=square)
    return new, need, cost


def _depot_refusal(g: GameState, player: int, square: int, count: int,
                   building: str) -> RulesError | None:
    """Why a train depot cannot go on the player's station (None when it can)."""
    sq = g.edition.squares[square]
    if building not in ("house", "depot"):
        return RulesError(Code.NOT_OWNABLE, f"only a train depot can be built on {sq.name}")
    if count != 1 or square in g.depots:
        return RulesError(Code.MAX_BUILDINGS, f"one train depot per station ({sq.name})")
    if g.mortgaged[square]:
        return RulesError(Code.GROUP_MORTGAGED, f"{sq.name} is mortgaged")
    if len(g.depots) >= g.edition.depots:
        return RulesError(Code.HOUSING_SHORTAGE, "the bank has no train depot left")
    cost = g.edition.depot_cost
    if cost > g.players[player].cash:
        return cannot_afford(g, player, f"a train depot on {sq.name}", cost, purpose="depot",
                             square=square)
    return None


def _is_depot(g: GameState, square: int) -> bool:
    """Whether building on the square means a train depot (a station, in such an edition)."""
    return g.edition.squares[square].kind is KIND_STATION and g.edition.depots > 0


def build_refusal(g: GameState, player: int, square: int, count: int, free: bool,
                  building: str = "house") -> RulesError | None:
    """Why `build` would refuse (None: it would build)."""
    refusal = property_refusal(g, player, square)
    if refusal is not None:
        return refusal
    if _is_depot(g, square):
        return _depot_refusal(g, player, square, count, building)
    plan = _lot_plan(g, player, square, count, free, building)
    return plan if isinstance(plan, RulesError) else None


def build(g: GameState, ev: Events, player: int, square: int, count: int, free: bool,
          building: str = "house") -> None:
    """Buy houses, then a hotel, then a skyscraper on a lot, evenly; or a depot on a station."""
    if g.owner[square] != player or g.edition.squares[square].kind is not KIND_LOT:
        own_property(g, player, square)  # else the player's lot: no refusal, no depot
        if _is_depot(g, square):
            build_depot(g, ev, player, square, count, building)
            return
    plan = _lot_plan(g, player, square, count, free, building)
    if isinstance(plan, RulesError):
        raise plan
    level, need, cost = plan
    price = g.edition.squares[square].house_cost
    key = (square, count, price)
    why = _BUILD_WHY.get(key)
    if why is None:  # the same for every such build: kept (a reason is read-only)
        why = _BUILD_WHY[key] = Why("build", square, (("count", count), ("cost", price)))
    transfer(g, ev, player, BANK, cost, "building", why)
    if need[1] or need[2]:
        _take_stock(g, need)
    else:  # houses only: _take_stock's usual case, without the call
        g.bank_houses -= need[0]
    g.set_level(square, level)
    ev.append(Built(g.players[player].name, square, level, None, cost))


def build_depot(g: GameState, ev: Events, player: int, square: int, count: int,
                building: str) -> None:
    """A train depot on a station: one per station, one station is enough."""
    refusal = _depot_refusal(g, player, square, count, building)
    if refusal is not None:
        raise refusal
    cost = g.edition.depot_cost
    transfer(g, ev, player, BANK, cost, "building", Why("build_depot", square, (("cost", cost),)))
    g.depots = tuple(sorted((*g.depots, square)))
    ev.append(Built(g.players[player].name, square, None, "depot", cost))


def _placing_refusal(g: GameState, player: int, square: int,
                     count: int) -> RulesError | None:
    """Why the `build` command is refused before the building itself is looked at: a
    building won at auction is placed first, by its winner, one level that is that building;
    nobody builds while an auction runs nor, but the current player, in a Mr. Monopoly turn,
    nor a player whose debt waits."""
    pending = g.pending
    if not pending:  # the usual case: no auction, no debt, nothing to place
        return mr_monopoly_refusal(g, player, "building") if g.mr_monopoly else None
    top = pending[-1]
    if isinstance(top, PlaceBuildingPending):
        if top.player != player:
            return RulesError(Code.DECISION_PENDING, f"{g.players[top.player].name} places "
                              "the auctioned building first")
        if count != 1:
            return RulesError(Code.BAD_COMMAND, "place exactly the one building won")
        if not places(g, top.building, square):
            return RulesError(Code.NOT_NOW, f"place the {top.building} won: one more level on "
                              f"{g.edition.squares[square].name} is not a {top.building}")
        return None  # placing a building won at auction answers a decision: always allowed
    return auction_refusal(g) or mr_monopoly_refusal(g, player, "building") \
        or debt_refusal(g, player, "building")


def _placing(g: GameState) -> bool:
    """Whether the table waits for a building won at auction (it is built for free)."""
    return bool(g.pending) and isinstance(g.pending[-1], PlaceBuildingPending)


def build_command_refusal(g: GameState, player: int, square: int, count: int,
                          building: str = "house") -> RulesError | None:
    """Why the `build` command would be refused (None: accepted)."""
    return _placing_refusal(g, player, square, count) or build_refusal(
        g, player, square, count, _placing(g), building)


def build_command(g: GameState, ev: Events, player: int, square: int, count: int,
                  building: str = "house") -> None:
    """The `build` command: build, or place the building won at auction."""
    pending = g.pending
    if pending or g.seldom.mr_monopoly:  # else _placing_refusal has nothing to refuse
        refusal = _placing_refusal(g, player, square, count)
        if refusal is not None:
            raise refusal
    free = bool(pending) and isinstance(pending[-1], PlaceBuildingPending)  # _placing(g)
    build(g, ev, player, square, count, free, building)
    if free:
        g.pending.pop()


def _sell_refusal(g: GameState, player: int, square: int, count: int) -> RulesError | None:
    """Why selling `count` levels of the player's buildings on the square is refused."""
    sq = g.edition.squares[square]
    depots = g.seldom.depots  # not through the state's property: a call
    if depots and square in depots:
        if count != 1:
            return RulesError(Code.MAX_BUILDINGS, f"{sq.name} has one train depot")
        return None
    lvl = g.level[square]
    if count > lvl:
        return RulesError(Code.MAX_BUILDINGS, f"{sq.name} has only {lvl} level(s) of buildings")
    owner = g.owner
    group = []
    for s in g.edition.groups[sq.group]:  # a loop: a list comprehension costs a frame
        if owner[s] == player:
            group.append(s)
    new = lvl - count
    hotel = g.options.houses_before_hotel + 1  # g.hotel_level, without its call
    if lvl == hotel and g.options.sell_group_hotels_together:
        lots = sum(1 for s in group if g.level[s] == hotel)
        need = _stock_change(g, hotel, new)
        return _stock_refusal(g, (need[0] * lots, need[1] * lots, need[2] * lots),
                              f"to give for the group's {lots} hotels")
    # A hotel (skyscraper) the bank has no houses (hotel) to break it into is sold outright
    # (the rulebooks let a group's hotels go together), so evenness cannot be asked of that.
    shortage = (lvl == hotel and g.bank_houses < g.options.houses_before_hotel) or (
        lvl > hotel and g.bank_hotels < 1)
    if g.options.even_building and not shortage:
        level = g.level
        most = -1  # the most built of the group's other lots: a loop, not two generators
        for s in group:
            if s != square and level[s] > most:
                most = level[s]
        if most > lvl:
            return RulesError(CODE_UNEVEN,
                              "sell evenly: sell from the most built lot of the group")
        if most > new + 1:
            return RulesError(CODE_UNEVEN, "sell evenly: that would leave the group uneven")
    return _stock_refusal(g, _stock_change(g, lvl, new),
                          "to give for the " + ("skyscraper" if lvl > hotel else "hotel"))


def sell_refusal(g: GameState, player: int, square: int, count: int) -> RulesError | None:
    """Why `sell_building` would refuse (None: it would sell)."""
    return property_refusal(g, player, square) or _sell_refusal(g, player, square, count)


def sell_building(g: GameState, ev: Events, player: int, square: int, count: int) -> None:
    """Sell buildings back to the bank at half price, evenly.

    A hotel first becomes houses and a skyscraper a hotel; when the bank has none to give,
    the building is sold outright, with `count` down to what the bank can give.
    """
    refusal = sell_refusal(g, player, square, count)
    if refusal is not None:
        raise refusal
    sq = g.edition.squares[square]
    depots = g.seldom.depots  # not through the state's property: a call
    if depots and square in depots:
        refund = g.edition.depot_cost // 2
        g.depots = tuple(s for s in g.depots if s != square)
        transfer(g, ev, BANK, player, refund, "building_sold",
                 Why("sell_depot", square, (("cost", g.edition.depot_cost), ("refund", refund))))
        ev.append(SoldBuilding(g.players[player].name, square, None, "depot", refund))
        return
    lvl = g.level[square]
    new = lvl - count
    hotel = g.options.houses_before_hotel + 1  # g.hotel_level, without its call
    if lvl == hotel and g.options.sell_group_hotels_together:
        lots = [s for s in g.edition.groups[sq.group]
                if g.owner[s] == player and g.level[s] == hotel]
        _sell_group_hotels(g, ev, player, lots, new)
        return
    g.set_level(square, new)
    if lvl < hotel:  # houses only: _stock_change and _take_stock's usual case, no calls
        g.bank_houses += count
    else:
        _take_stock(g, _stock_change(g, lvl, new))
    refund = count * sq.house_cost // 2
    key = (square, count, sq.house_cost)
    why = _SELL_WHY.get(key)
    if why is None:  # the same for every such sale: kept (a reason is read-only)
        why = _SELL_WHY[key] = Why("sell_building", square, (
            ("count", count), ("cost", sq.house_cost), ("refund", refund)))
    transfer(g, ev, BANK, player, refund, "building_sold", why)
    ev.append(SoldBuilding(g.players[player].name, square, new, None, refund))


def _sell_group_hotels(g: GameState, ev: Events, player: int, lots: list[int],
                       new: int) -> None:
    """Every hotel of the group goes back together, each lot down to the same level
    (the bank's stock for it checked by _sell_refusal)."""
    hotel = g.hotel_level
    need = _stock_change(g, hotel, new)
    _take_stock(g, (need[0] * len(lots), need[1] * len(lots), need[2] * len(lots)))
    house_cost = g.edition.squares[lots[0]].house_cost
    refund = (hotel - new) * house_cost // 2 * len(lots)
    for s in lots:
        g.set_level(s, new)
    transfer(g, ev, BANK, player, refund, "building_sold",
             Why("sell_group_hotels", None, (("lots", len(lots)), ("count", hotel - new),
                                             ("cost", house_cost), ("refund", refund)),
                 "sell_group_hotels_together"))
    for s in lots:
        ev.append(SoldBuilding(g.players[player].name, s, new, None, refund // len(lots)))


def building_auction_refusal(g: GameState, building: str,
                             builders: Builders | None = None) -> RulesError | None:
    """Why the bank cannot auction a house, hotel or skyscraper now (None: it can).
    `builders`: the state's `group_builders`, when the caller has them (legal_commands asks
    of each building)."""
    if g.pending:
        return RulesError(Code.DECISION_PENDING, "answer the pending decision first")
    if building == "skyscraper" and not g.edition.skyscrapers:
        return RulesError(CODE_NOT_NOW, f"{g.edition.name} has no skyscrapers")
    stock = {"house": g.bank_houses, "hotel": g.bank_hotels,
             "skyscraper": g.bank_skyscrapers}[building]
    if stock < 1:
        return RulesError(Code.HOUSING_SHORTAGE, f"the bank has no {building} left to auction")
    if not anyone_can_place(g, building, builders):
        return RulesError(CODE_NOT_NOW, f"nobody could place a {building} now")
    return None


def start_building_auction(g: GameState, ev: Events, building: str) -> None:
    """Shortage: the bank auctions one house, hotel or skyscraper, from the lowest house price."""
    refusal = building_auction_refusal(g, building)
    if refusal is not None:
        raise refusal
    placers: list[int] = []
    costs: list[int] = []
    for i, p in enumerate(g.players):
        lots = [] if p.bankrupt else placeable_lots(g, i, building)
        if lots:
            placers.append(i)
            costs.extend(g.edition.squares[s].house_cost for s in lots)
    # only players who could place it take part: the others are out from the start. The
    # bidding opens at the lowest price printed on the deeds in question (FR «L'enchère
    # commence au prix le plus bas indiqué sur une des Cartes de Propriété en question»,
    # RU «на участки, на которых предполагается строительство»): the lots where the
    # building could go up now, not every lot a bidder owns
    g.pending.append(BuildingAuctionPending(
        building, passed=tuple(i for i in range(len(g.players)) if i not in placers),
        min_bid=min(costs) if costs else 1))
    ev.append(AuctionStarted(building=building))


# --- the last lot of a built group (Mega) -------------------------------------------------


def completes_built_group(g: GameState, player: int, square: int,
                          receiving: frozenset[int] = frozenset()) -> bool:
    """Whether getting this lot gives the player a whole group they have built on.

    `receiving`: lots the player gets at the same time (a trade), counted as theirs.
    """
    sq = g.edition.squares[square]
    if sq.kind is not KIND_LOT or not g.options.build_with_all_but_one:
        return False
    group = g.edition.groups[sq.group]
    return all(g.owner[s] == player or s in receiving or s == square for s in group) and any(
        g.level[s] for s in group if s != square)


def after_acquiring(g: GameState, ev: Events, player: int, squares: list[int]) -> None:
    """The player got lots: one completing a group they built on is lifted and rebalanced.

    The rulebook: buying the last lot of a group whose other lots carry buildings, while it
    is mortgaged, the mortgage is lifted at once (value + interest) and the group is built
    up evenly; short of money, the buildings are spread over the group instead.
    """
    if not g.options.build_with_all_but_one:
        return
    for s in squares:
        if not completes_built_group(g, player, s):
            continue
        if g.mortgaged[s]:
            g.set_mortgaged(s, False)
            ev.append(Unmortgaged(g.players[player].name, s, forced=True))
            cost = lift_cost(g, s)
            charge(g, ev, player, BANK, cost, "mortgage_lift", why=lift_why(g, s, cost))
        rebalance(g, ev, player, g.edition.groups[g.edition.squares[s].group])


def _even_levels(total: int, order: list[int]) -> dict[int, int]:
    """`total` levels spread evenly, the extra ones on the first lots of `order`."""
    base, extra = divmod(total, len(order))
    return {s: base + (1 if i < extra else 0) for i, s in enumerate(order)}


def rebalance(g: GameState, ev: Events, player: int, group: tuple[int, ...]) -> None:
    """Make a whole group even again after its last lot arrived with nothing on it.

    The owner builds the new lot up to one level below the others (house price each). What
    the cash (less debts owed) cannot pay is found by moving levels from the most built
    lots (a hotel going back into houses), and levels that find no place are sold back at
    half price: the highest even spread that the cash and the bank's stock allow.
    """
    levels = {s: g.level[s] for s in group}
    if max(levels.values()) - min(levels.values()) <= 1:
        return
    budget = g.players[player].cash - sum(
        p.amount for p in g.pending if isinstance(p, DebtPending) and p.player == player)
    price = min(g.edition.squares[s].house_cost for s in group)
    top = max(levels.values())
    order = sorted(group, key=lambda s: (-levels[s], s))
    total = sum(max(lvl, top - 1) for lvl in levels.values())
    stock = (g.bank_houses, g.bank_hotels, g.bank_skyscrapers)
    for target in range(total, -1, -1):
        spread = _even_levels(target, order)
        up = sum(max(0, spread[s] - levels[s]) for s in group)
        down = sum(max(0, levels[s] - spread[s]) for s in group)
        moved = min(up, down)
        cost = (up - moved) * price - (down - moved) * (price // 2)
        need = [0, 0, 0]
        for s in group:
            for i, n in enumerate(_stock_change(g, levels[s], spread[s])):
                need[i] += n
        if cost > max(budget, 0) or any(n > have for n, have in zip(need, stock, strict=True)):
            continue
        for s in group:
            g.set_level(s, spread[s])
        _take_stock(g, (need[0], need[1], need[2]))
        ev.append(Rebalanced(g.players[player].name, tuple((s, spread[s]) for s in group),
                             cost))
        why = Why("rebalance", group[0], (("cost", price), ("up", up - moved),
                                          ("down", down - moved)), "build_with_all_but_one")
        if cost > 0:
            transfer(g, ev, player, BANK, cost, "building", why)
        elif cost < 0:
            transfer(g, ev, BANK, player, -cost, "building_sold", why)
        return
    raise AssertionError("an empty group is always even")  # pragma: no cover


#: for each colour group a player may build in, by its name: that player, and their lots of
#: it where one more level keeps the group even (`group_builders`)
Builders = dict[str, tuple[int, list[int]]]


def group_builders(g: GameState) -> Builders:
    """Who may build in each group where one may (`builds_with`: they own all of it, or all
    but one lot where the options allow that), and on which of their lots there one more
    level keeps the group even.

    Never two players a group (all but one of three or more lots leaves the others one), and
    that player owns the group's first or last square (it lacks one lot at most). The lots
    listed are those `_lot_plan` could accept one more level on: whatever else holds, it
    refuses every lot of a group where one of the player's lots is mortgaged
    (GROUP_MORTGAGED), a lot already at the top (MAX_BUILDINGS) and, under even building,
    a lot above the player's lowest there (UNEVEN); `_lot_plan` stays the rule, this only
    spares asking it where it cannot accept (tests/test_rules_group_builders.py). One walk
    of the groups for what `builder_lots` says of each lot: the building auction's and the
    offers' questions of who could build or place a building ask it once per state, instead
    of once per player and square (issue 28).
    """
    owner, level, mortgaged = g.owner, g.level, g.mortgaged
    even = g.options.even_building
    hotel = g.options.houses_before_hotel + 1  # g.hotel_level, without its call
    top = hotel + 1 if g.edition.skyscrapers else hotel  # as _lot_plan's
    out: Builders = {}
    for name, group in g.edition.groups.items():
        first, last = owner[group[0]], owner[group[-1]]
        for who in (first, last) if first != last else (first,):
            if who < 0:
                continue
            owned = 0
            for s in group:  # a loop: sum() over a generator costs a frame a step
                if owner[s] == who:
                    owned += 1
            whole = len(group)
            # no rule lets fewer than all lots but one build (builds_with): those not asked
            if owned == whole or (owned == whole - 1 and builds_with(g, group, owned)):
                mine = list(group) if owned == whole else [s for s in group if owner[s] == who]
                low = top  # the lowest level a building may go on (loops: no generator frames)
                for s in mine:
                    if mortgaged[s]:
                        low = -1  # nothing rises in the group
                        break
                    if even and level[s] < low:
                        low = level[s]
                out[name] = (who, [] if low < 0 else [s for s in mine if level[s] < top and (
                    not even or level[s] == low)])
                break
    return out


def _placing_lots(g: GameState, player: int, building: str, lots: list[int],
                  first: bool) -> list[int]:
    """Of the player's lots given (`group_builders`' of a group), those where one won
    building could go now: a lot, one more level that is that building, and a free build
    there (build_refusal) accepted. `first`: stop at the first such lot."""
    squares = g.edition.squares
    out: list[int] = []
    for s in lots:
        if (squares[s].kind is KIND_LOT and places(g, building, s)
                and build_refusal(g, player, s, 1, True) is None):
            out.append(s)
            if first:
                break
    return out


def placeable_lots(g: GameState, player: int, building: str) -> list[int]:
    """The player's lots where one won building could go now (in board order); only where
    `group_builders` lists them does a free build pass `builder_lots` and evenness."""
    out: list[int] = []
    for who, lots in group_builders(g).values():
        if who == player:
            out.extend(_placing_lots(g, player, building, lots, False))
    out.sort()
    return out


def can_place(g: GameState, player: int, building: str) -> bool:
    """Whether the player has a lot where one won building could go now."""
    for who, lots in group_builders(g).values():
        if who == player and _placing_lots(g, player, building, lots, True):
            return True
    return False


def anyone_can_place(g: GameState, building: str, builders: Builders | None = None) -> bool:
    """Whether a player still in the game has a lot where one won building could go now
    (`can_place` for each of them, from one walk of the groups); `builders`: the state's
    `group_builders`, when the caller has them."""
    players = g.players
    for who, lots in (group_builders(g) if builders is None else builders).values():
        if not players[who].bankrupt and _placing_lots(g, who, building, lots, True):
            return True
    return False


def places(g: GameState, building: str, square: int) -> bool:
    """Whether one more level on the lot is the building named (one won at auction)."""
    new = g.level[square] + 1
    hotel = g.options.houses_before_hotel + 1  # g.hotel_level, without its call
    if building == "house":
        return new < hotel
    if building == "hotel":
        return new == hotel
    return building == "skyscraper" and new == hotel + 1


__all__ = ["build", "build_command", "build_command_refusal", "build_refusal", "can_place",
           "placeable_lots",
           "places", "build_depot", "sell_building", "sell_refusal", "start_building_auction",
           "building_auction_refusal", "own_property", "property_refusal", "auction_refusal",
           "mr_monopoly_refusal", "after_acquiring", "rebalance", "completes_built_group",
           "builder_lots", "builds_with", "group_builders", "anyone_can_place", "Builders"]
