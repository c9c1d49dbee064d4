"""Cards: drawing from a deck (or taking the card the table names) and what a card does.

A bus ticket is a card of the bus pile (edition.BUS_DECK): drawing one keeps it.
"""

from __future__ import annotations

from typing import Any

from companion.rules.board import land, move_to, send_to_jail, take_ticket
from companion.rules.codes import Code, RulesError
from companion.rules.edition import Card, SquareKind
from companion.rules.events import BusTicket, BusTicketsExpired, CardDrawn, Events, Moved, Why
from companion.rules.money import charge, transfer
from companion.rules.state import BANK, COMPILED, DrawPending, GameState, bare


def draw_refusal(g: GameState, pending: DrawPending, card_id: str | None) -> RulesError | None:
    """Why the card cannot be drawn (None: it can): the device draws the top card of a deck
    that has one; a card the table names must be of that deck and in it."""
    deck = g.seldom.decks[pending.deck]
    if card_id is None:
        if not deck:
            return RulesError(Code.NOT_NOW, "the deck is empty: every card is held by players")
        return None
    card = g.edition.cards.get(card_id)
    if card is None or card.deck != pending.deck:
        return RulesError(Code.UNKNOWN_CARD, f"{card_id!r} is not a card of the "
                          f"{g.edition.deck_names.get(pending.deck, pending.deck)} deck")
    if card_id not in deck:
        return RulesError(Code.UNKNOWN_CARD,
                          f"{card_id!r} is held by a player, not in the deck")
    return None


def draw_card(g: GameState, ev: Events, pending: DrawPending, card_id: str | None) -> str:
    """Draw (the device's deck) or take the named card, put it under its deck, apply it;
    the card's id."""
    if card_id is not None or not g.seldom.decks[pending.deck]:  # else nothing refuses it
        refusal = draw_refusal(g, pending, card_id)
        if refusal is not None:
            raise refusal
    deck = g.wdeck(pending.deck)  # the seldom-written fields made this state's own with it
    if card_id is None:
        card_id = deck[0]
    card = g.edition.cards[card_id]
    deck.remove(card_id)
    g.pending.pop()
    g.seldom.last_card = card_id  # not through the state's property: a call
    if COMPILED:
        ev.append(CardDrawn(g.players[pending.player].name, card.deck, card_id, card.text))
    else:  # the fields on a bare record, as money.transfer makes its Transfer
        e: Any = bare(CardDrawn)
        e.player = g.players[pending.player].name
        e.deck = card.deck
        e.card = card_id
        e.text = card.text
        ev.append(e)
    if card.effect == "jail_free":
        holder = g.wp(pending.player)
        holder.jail_cards = [*holder.jail_cards, card_id]  # a new list: copies share the old
    elif card.effect != "bus_ticket":  # a bus ticket is kept, then goes to the bank for good
        deck.append(card_id)
    apply_card(g, ev, pending.player, card)
    return card_id


#: the reasons of money cards, by amount
_MONEY_WHY: dict[int, Why] = {}


def apply_card(g: GameState, ev: Events, player: int, card: Card) -> None:
    """What a card does to the player who drew it."""
    p = g.wp(player)
    prm = card.params
    effect = card.effect
    if effect == "advance":
        move_to(g, ev, player, g.edition.square_ids[prm["to"]])
    elif effect == "move_back":
        n = len(g.edition.squares)
        target = (p.position - int(prm["spaces"])) % n
        ev.append(Moved(p.name, p.position, target))
        p.position = target
        land(g, ev, player)
    elif effect == "nearest":
        kind = prm["kind"]  # "station" or "utility", a kind on the board (edition checked)
        squares = g.edition.squares
        n = len(squares)
        start = p.position
        target = start
        for k in range(1, n + 1):  # a loop: no enum call, no generator frame per square
            target = (start + k) % n
            if squares[target].kind == kind:  # a SquareKind equals its value
                break
        move_to(g, ev, player, target, int(prm.get("rent_multiplier", 1)),
                int(prm.get("dice_multiplier", 0)))
    elif effect == "money":
        amount = int(prm["amount"])
        why = _MONEY_WHY.get(amount)
        if why is None:  # the same for every such card: kept (a reason is read-only)
            why = _MONEY_WHY[amount] = Why("card", None, (("amount", abs(amount)),))
        if amount > 0:
            transfer(g, ev, BANK, player, amount, "card", why)
        else:
            charge(g, ev, player, BANK, -amount, "card", why=why)
    elif effect == "each_player":
        amount = int(prm["amount"])
        others = [i for i, o in enumerate(g.players) if i != player and not o.bankrupt]
        # collecting from each player, or paying each (the reason says which way)
        why = Why("card_each_player" if amount > 0 else "card_pay_each_player", None,
                  (("amount", abs(amount)),))
        if amount < 0:
            for i in reversed(others):
                charge(g, ev, player, i, -amount, "card", why=why)
        else:
            parking = g.edition.squares
            for i in reversed(others):
                o = g.players[i]
                if (g.options.free_parking_exempt_from_collect_cards
                        and parking[o.position].kind is SquareKind.FREE_PARKING):
                    continue
                charge(g, ev, i, player, amount, "card", why=why)
    elif effect == "repairs":
        # the player's buildings in one pass (houses_on, has_hotel, has_skyscraper per lot)
        houses = hotels = towers = 0
        hotel = g.options.houses_before_hotel + 1  # g.hotel_level, without its call
        for owner, lvl in zip(g.owner, g.level, strict=True):
            if owner == player and lvl:
                if lvl < hotel:
                    houses += lvl
                elif lvl == hotel:
                    hotels += 1
                else:
                    towers += 1
        terms: tuple[tuple[str, int], ...] = (
            ("houses", houses), ("per_house", int(prm["house"])), ("hotels", hotels),
            ("per_hotel", int(prm["hotel"])))
        cost = houses * int(prm["house"]) + hotels * int(prm["hotel"])
        if g.edition.skyscrapers:
            per_tower = int(prm.get("skyscraper", prm["hotel"]))
            cost += towers * per_tower
            terms = (*terms, ("skyscrapers", towers), ("per_skyscraper", per_tower))
        charge(g, ev, player, BANK, cost, "card", why=Why("card_repairs", None, terms))
    elif effect == "go_to_jail":
        send_to_jail(g, ev, player)
    elif effect in ("take_bus_ticket", "bus_ticket"):
        if effect == "take_bus_ticket":
            take_ticket(g, ev, player)
        else:
            keep_ticket(g, ev, player, card)


def keep_ticket(g: GameState, ev: Events, player: int, card: Card) -> None:
    """The drawn ticket is the player's; one that says so makes every other ticket expire."""
    if card.params.get("expire_others"):
        expired = 0
        for i, q in enumerate(g.players):
            if q.bus_tickets:
                expired += len(q.bus_tickets)
                g.wp(i).bus_tickets = ()
        g.fresh_tickets = 0
        ev.append(BusTicketsExpired(expired))
    p = g.wp(player)
    p.bus_tickets = (*p.bus_tickets, card.id)
    if player == g.current:
        g.fresh_tickets += 1
    ev.append(BusTicket(p.name, card.id))
