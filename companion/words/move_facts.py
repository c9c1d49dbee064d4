"""The facts of one move: which command a journal entry holds and what it did, ready to be
said in any language.

A journal entry (the session's history, docs/session.md) holds a command and the events the
engine answered it with, in their JSON form. `facts` reads those back as typed events
(companion.rules.events; any the engine never writes are left out as missing facts) and,
with one small reader per verb (`_SAYINGS`), into a variant of the command ("buy",
"decline_kept_mortgages", "pay_bank", "draw_chance"...) and the fields a sentence about it
needs, already written in the asked language: player names, squares as the edition names
them in that language, money as the edition writes it, the dice. Two sayings share it:
companion.words.undo_questions asks "Undo: Ann bought Rue de la Paix?" (the question
"undo_<variant>") and companion.words.move_words says "Ann bought Rue de la Paix for € 400" in
the phone remote's list of the latest moves ("move_<variant>"). Some fields only one of
them uses ("amount" of a purchase, "square" a roll ended on) are given when the entry has
them and left out otherwise.

>>> from companion.words import catalog as i18n
>>> from companion.game.table.records import Setup
>>> setup = Setup("classic-eur", i18n.edition_data("classic-eur")["currency"], {})
>>> entry = {"command": {"do": "buy"}, "events": [
...     {"kind": "bought", "player": "Ann", "square": 39, "price": 400}]}
>>> variant, fields = facts(entry, setup, "en", lambda _ctx, text: text)
>>> variant, fields["player"], fields["square"], fields["amount"].replace(i18n.NBSP, " ")
('buy', 'Ann', 'Rue de la Paix', '€ 400')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.game.table.records import Setup
from companion.rules.events import (
    PLAYER_EVENTS,
    AuctionClosed,
    Bankrupt,
    Bid,
    Bought,
    Built,
    BusTicketUsed,
    CardDrawn,
    ChoseSquare,
    Declined,
    Event,
    EventError,
    KeptMortgages,
    Mortgaged,
    Moved,
    Passed,
    PassGo,
    Redone,
    Rolled,
    SoldBuilding,
    Traded,
    Transfer,
    Turn,
    Undone,
    Unmortgaged,
    event_from_json,
)
from companion.words import catalog as i18n
from companion.words.refusals import setup_square_name
from companion.words.undo_texts import QUESTIONS

#: a catalog's pgettext: (message context, English text) -> the text in its language
Gettext = Callable[[str, str], str]
#: a command's variant and the fields of its sentence (None: a command it does not know)
Facts = tuple[str | None, dict[str, str]]
E = TypeVar("E", bound=Event)


class Missing(LookupError):
    """A fact the sentence needs is not in the entry."""


def typed_events(entry: Mapping[str, Any]) -> list[Event]:
    """The entry's events, typed (companion.rules.events); ones that are not events the
    engine writes are left out, as facts the entry lacks."""
    out: list[Event] = []
    for data in entry.get("events") or []:
        try:
            out.append(event_from_json(data))
        except EventError:
            continue
    return out


def actor(entry: Mapping[str, Any]) -> str | None:
    """Who made the move: the command's player, else the first player its events name,
    else the player whose phone or card sent it."""
    command = entry.get("command") or {}
    for key in ("by", "from"):
        if isinstance(command.get(key), str) and command[key] not in ("bank", "pot"):
            return str(command[key])
    for event in typed_events(entry):
        if isinstance(event, PLAYER_EVENTS):
            return event.player
    source = entry.get("source") or {}
    player = source.get("player") if isinstance(source, Mapping) else None
    return str(player) if isinstance(player, str) and player else None


@dataclass
class _Move:
    """One journal entry being read: its command, what the engine did, how to say it."""

    entry: Mapping[str, Any]
    command: Mapping[str, Any]
    events: list[Event]
    setup: Setup
    lang: str
    gettext: Gettext

    def first(self, kind: type[E]) -> E:
        """The first event of a kind; Missing when the entry has none."""
        for e in self.events:
            if isinstance(e, kind):
                return e
        raise Missing(kind.kind)

    def every(self, kind: type[E]) -> list[E]:
        """Every event of a kind, in order."""
        return [e for e in self.events if isinstance(e, kind)]

    def who(self, name: str | None = None) -> str:
        """A player named by an event, else the entry's actor."""
        name = name or actor(self.entry)
        if not name:
            raise Missing("player")
        return name

    def money(self, amount: int | None) -> str:
        """An amount as the edition writes money."""
        if amount is None:
            raise Missing("amount")
        return i18n.format_money(int(amount), self.setup.currency, self.lang)

    def square(self, value: Any) -> str:
        """A square as the edition names it in the asked language."""
        if value is None:
            raise Missing("square")
        return setup_square_name(value, self.setup, self.lang)

    def paid(self, *reasons: str) -> str:
        """The money the entry's transfers moved for these reasons."""
        moved = [e.amount for e in self.every(Transfer) if e.reason in reasons]
        if not moved:
            raise Missing("transfer")
        return self.money(sum(moved))


def _extra(fields: dict[str, str], key: str, make: Callable[[], str]) -> dict[str, str]:
    """`fields` with `key` when the entry has the fact (only one saying needs it)."""
    try:
        fields[key] = make()
    except (LookupError, TypeError, ValueError):
        pass
    return fields


def facts(entry: Mapping[str, Any], setup: Setup, lang: str, gettext: Gettext) -> Facts:
    """(variant, fields) of the entry's command: None for a command it does not know.

    Raises Missing (a LookupError) when the command's sentence needs facts the entry
    lacks; `setup` (the table view's: edition, money) names squares and writes amounts;
    `gettext` (the asking catalog's pgettext) says the speed die's faces."""
    command: Mapping[str, Any] = entry.get("command") or {}
    events: list[Event] = [e for e in typed_events(entry)
                           if not isinstance(e, (Undone, Redone))]
    say = _SAYINGS.get(str(command.get("do") or ""))
    if say is None:
        return None, {}
    return say(_Move(entry, command, events, setup, lang, gettext))


def _simple(variant: str) -> Callable[[_Move], Facts]:
    """A move whose sentence names only its player."""
    return lambda m: (variant, {"player": m.who()})


def _pay_fine(m: _Move) -> Facts:
    return "pay_fine", _extra({"player": m.who()}, "amount", lambda: m.paid("jail_fine"))


def _new_game(m: _Move) -> Facts:
    fields = {}
    players = m.command.get("players")
    if isinstance(players, list) and players:
        fields["players"] = ", ".join(str(p) for p in players)
    edition = str(m.command.get("edition") or m.setup.edition or "")
    return "new_game", _extra(fields, "edition",
                              lambda: i18n.localized_name(edition, edition, m.lang))


def _roll(m: _Move) -> Facts:
    rolled = m.first(Rolled)
    player = m.who(rolled.player)
    fields = {"player": player, "dice": dice_text(list(rolled.dice), m.gettext)}
    moves = [e for e in m.every(Moved) if e.player == player]
    if moves:
        _extra(fields, "square", lambda: m.square(moves[-1].to))
    return "roll", fields


def _buy(m: _Move) -> Facts:
    bought = m.first(Bought)
    fields = {"player": m.who(bought.player), "square": m.square(bought.square)}
    return "buy", _extra(fields, "amount", lambda: m.money(bought.price))


def _decline(m: _Move) -> Facts:
    kept = m.every(KeptMortgages)
    if kept:
        return "decline_kept_mortgages", {"player": m.who(kept[0].player)}
    declined = m.first(Declined)
    return "decline", {"player": m.who(declined.player), "square": m.square(declined.square)}


def _bid(m: _Move) -> Facts:
    bid = m.first(Bid)
    return "bid", {"player": m.who(bid.player), "amount": m.money(bid.amount)}


def _close_auction(m: _Move) -> Facts:
    closed = m.first(AuctionClosed)
    if closed.winner and closed.square is not None:
        return "close_auction_won", {"player": closed.winner, "square": m.square(closed.square),
                                     "amount": m.money(closed.amount)}
    return "close_auction", {}


def _draw(m: _Move) -> Facts:
    card = m.first(CardDrawn)
    variant = f"draw_{card.deck}"
    return (variant if f"undo_{variant}" in QUESTIONS else None), {"player": m.who(card.player)}


def _pass_go(m: _Move) -> Facts:
    salary = m.first(PassGo)
    return "pass_go", {"player": m.who(salary.player), "amount": m.money(salary.amount)}


def _pay(m: _Move) -> Facts:
    """Between players, to the bank or the pot, or from the bank: as its transfer went."""
    transfer = m.first(Transfer)
    payer, payee = transfer.from_, transfer.to
    amount = m.money(transfer.amount)
    if payer is None and payee is not None and payee != "pot":
        return "pay_from_bank", {"payee": payee, "amount": amount}
    if payer is None or payer == "pot":
        return None, {}
    if payee is None:
        return "pay_bank", {"payer": payer, "amount": amount}
    if payee == "pot":
        return "pay_pot", {"payer": payer, "amount": amount}
    return "pay", {"payer": payer, "payee": payee, "amount": amount}


def _build(m: _Move) -> Facts:
    built = m.first(Built)
    return "build", {"player": m.who(built.player), "square": m.square(built.square),
                     "amount": m.money(built.cost)}


def _sell_building(m: _Move) -> Facts:
    sold = m.every(SoldBuilding)
    if not sold:
        raise Missing("sold_building")
    return "sell_building", {
        "player": m.who(sold[0].player),
        "square": m.square(m.command.get("square", sold[0].square)),
        "amount": m.money(sum(e.refund for e in sold))}


def _mortgage(m: _Move) -> Facts:
    done = m.first(Mortgaged)
    fields = {"player": m.who(done.player), "square": m.square(done.square)}
    return "mortgage", _extra(fields, "amount", lambda: m.paid("mortgage"))


def _unmortgage(m: _Move) -> Facts:
    done = m.first(Unmortgaged)
    fields = {"player": m.who(done.player), "square": m.square(done.square)}
    return "unmortgage", _extra(fields, "amount",
                                lambda: m.paid("mortgage_lift", "mortgage_interest"))


def _trade(m: _Move) -> Facts:
    traded = m.first(Traded)
    return "trade", {"giver": m.who(traded.from_), "receiver": m.who(traded.to)}


def _auction_building(m: _Move) -> Facts:
    variant = f"auction_building_{m.command.get('building')}"
    return (variant if f"undo_{variant}" in QUESTIONS else None), {}


def _use_bus_ticket(m: _Move) -> Facts:
    ride = m.first(BusTicketUsed)
    return "use_bus_ticket", {"player": m.who(ride.player), "square": m.square(ride.square)}


def _choose_square(m: _Move) -> Facts:
    chose = m.first(ChoseSquare)
    variant = "choose_square_auction" if chose.for_ == "auction" else "choose_square"
    return variant, {"player": m.who(chose.player), "square": m.square(chose.square)}


def _choose_gift(m: _Move) -> Facts:
    player = m.who()
    if m.command.get("gift") == "bus_ticket":
        return "choose_gift_bus_ticket", {"player": player}
    gift = [e for e in m.every(Transfer) if e.to == player]
    if not gift:
        raise Missing("transfer")
    return "choose_gift_money", {"player": player, "amount": m.money(gift[0].amount)}


#: how each verb's move is read: its variant and the fields of its sentence
_SAYINGS: dict[str, Callable[[_Move], Facts]] = {
    "pay_fine": _pay_fine,
    "use_card": _simple("use_card"),
    "claim_rent": _simple("claim_rent"),
    "end_game": lambda _m: ("end_game", {}),
    "new_game": _new_game,
    "roll": _roll,
    "buy": _buy,
    "decline": _decline,
    "bid": _bid,
    "pass": lambda m: ("pass", {"player": m.who(m.first(Passed).player)}),
    "close_auction": _close_auction,
    "draw": _draw,
    "end_turn": lambda m: ("end_turn", {"player": m.who(m.first(Turn).player)}),
    "land": lambda m: ("land", {"player": m.who(), "square": m.square(m.command.get("square"))}),
    "pass_go": _pass_go,
    "pay": _pay,
    "build": _build,
    "sell_building": _sell_building,
    "mortgage": _mortgage,
    "unmortgage": _unmortgage,
    "trade": _trade,
    "bankrupt": lambda m: ("bankrupt", {"player": m.who(m.first(Bankrupt).player)}),
    "auction_building": _auction_building,
    "use_bus_ticket": _use_bus_ticket,
    "choose_square": _choose_square,
    "choose_gift": _choose_gift,
    # not the engine's: the banker's jump back to an earlier move (companion.game.going_back)
    "undo_to": lambda m: ("undo_to", {"seq": str(m.command.get("seq", "?"))}),
}


def dice_text(dice: Any, gettext: Gettext) -> str:
    """The dice as "3 + 4", the speed die's bus and Mr. Monopoly in words.

    >>> dice_text([2, 5, "bus"], lambda _ctx, text: text)
    '2 + 5 + bus'
    """
    if not isinstance(dice, list) or not dice:
        raise Missing("dice")
    faces = []
    for face in dice:
        if isinstance(face, int) and not isinstance(face, bool):
            faces.append(str(face))
        elif face in ("bus", "mr_monopoly"):
            faces.append(gettext(f"undo_face_{face}", QUESTIONS[f"undo_face_{face}"].text))
        else:
            raise Missing("dice")
    return " + ".join(faces)
