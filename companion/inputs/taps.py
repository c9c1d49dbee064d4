"""What a tap means, by context: tag + the session's view of the table (+ the controller's
mode) -> actions; what may be sent is the view's moves, who holds what its records.

- your bank card when you are asked to buy: buy it; during an auction: start your bid;
- a drawn Chance / Community Chest card: apply it (`draw` with the card's id);
- your bank card outside any decision asks its question, which NO cancels: a trade offered
  to you on a phone and waiting is put to you first, with what each side gives (YES or the
  same card again accepts exactly that offer); then, in bank-only play, a deed: `land`
  there (the engine charges the rent the rules say, or offers the purchase); another bank
  card and an amount: the first pays the second. A card tapped to start a payment never
  accepts a trade: only the answer to the offer's own question does;
- Mega: a bus ticket when the player may ride starts picking the square (knob, or tap
  the deed); a deed tapped while a square is to be chosen (triple, Auction square)
  chooses it; a bus ticket drawn from the pile is taken like a Chance card;
- the banker card: the banker menu; an unknown tag: says so;
- your bank card while a decision of yours waits that only your own input answers (a
  debt): the shared buttons answer it for you while it stands (CardHolds).
Pure: no I/O, no clock; the registry and the offers are only read.
"""

from __future__ import annotations

from companion.game.api import JSON, Source
from companion.game.table.buttons import bid_amount
from companion.game.table.offers import Goods, Offer, OfferStore
from companion.game.table.view import TableView
from companion.inputs.actions import (
    Action,
    CardHolds,
    OpenMenu,
    Show,
    Submit,
    money,
    offered,
    say,
)
from companion.inputs.modes import AmountEntry, CardTapped, Mode, OfferAsked, RidePick
from companion.inputs.registry import TagKind, TagRegistry, TagRole, card_holder
from companion.words.input_texts import input_text

Result = tuple[list[Action], Mode | None]
BUS_TICKETS = "bus_tickets"


class TapInterpreter:
    """Turns tapped tags into actions; the controller keeps the mode it returns."""

    def __init__(self, registry: TagRegistry, offers: OfferStore | None = None) -> None:
        self.registry = registry
        #: the table's open offers (a card's owner is asked about the one made to them)
        self.offers = offers
        #: the table now (the tap being interpreted)
        self.table: TableView | None = None

    def interpret(self, tag: str, table: TableView, mode: Mode | None) -> Result:
        """The actions for a tap of `tag` at the table as the session's view has it, and the
        controller's next mode."""
        self.table = table
        raw = table.state
        state: JSON = raw if isinstance(raw, dict) else dict(raw)
        role = self.registry.lookup(tag)
        if role is None:
            show = Show(
                "unknown_tag",
                f"Unknown card (tag {tag}). Register it from the banker menu.",
                data={"tag": tag},
            )
            return [show], mode
        if role.kind is TagKind.BANKER:
            source = Source("rfid", banker=True)
            return [OpenMenu("banker", source, authorized=True)], None
        if role.kind is TagKind.BANK_CARD:
            return self._bank_card(role, state, mode)
        if role.kind is TagKind.DEED:
            return self._deed(role, state, mode)
        return self._card(role, state, mode)

    # -- bank cards ---------------------------------------------------------------------

    def _bank_card(self, role: TagRole, state: JSON, mode: Mode | None) -> Result:
        table = self._view()
        player = card_holder(role, list(table.names()))
        if player is None:
            return [say("card_unassigned", number=role.number)], mode
        seat = table.player(player)
        if seat is not None and seat.bankrupt:
            return [say("player_bankrupt", "bankrupt_banner", player=player)], None
        return self._card_owner(player, state, mode)

    def _card_owner(self, player: str, state: JSON, mode: Mode | None) -> Result:
        """What the bank card of `player` does now (it acts for them, and only them)."""
        table = self._view()
        version, decision = table.version, table.decision
        source = Source("rfid", player=player)
        if decision is not None and decision.kind == "buy":
            buy = decision.command("buy", player)  # only the buyer's, when they can pay
            if buy is not None:
                return [Submit(buy, source)], None
            return [say("not_your_turn", player=decision.player)], mode
        if decision is not None and decision.kind == "auction":
            return self._start_bid(player, state, version)
        if decision is not None:
            shown: list[Action] = [say("answer_first", data={"kind": decision.kind},
                                       player=decision.player)]
            if decision.player == player:  # theirs: the buttons answer it for them now
                shown.append(CardHolds(player))
            return shown, mode
        if isinstance(mode, OfferAsked | CardTapped) and mode.version == version:
            if mode.player != player:  # a second card: the first pays it, never a trade
                return self._start_transfer(mode.player, player, state, version)
            if isinstance(mode, OfferAsked):  # the same card again: yes to that offer
                return self.accept(mode), None
            return [say("tap_cancelled")], None
        asked = self.offers.asked(player) if self.offers is not None else None
        if asked is not None:
            offer = Offer.of(asked)
            return [offer_question(state, table, offer)], OfferAsked(version, player, offer.id)
        code = "card_tapped_land" if offered(self._view(), "land", player) else \
            "card_tapped_pay"
        return [say(code, level="prompt", player=player)], CardTapped(version, player)

    def _view(self) -> TableView:
        """The table as the tap being interpreted found it."""
        assert self.table is not None  # set by interpret before any rule reads it
        return self.table

    def accept(self, mode: OfferAsked) -> list[Action]:
        """Yes to the offer put to `mode.player`: exactly that offer, while it is open and
        the table is where it was when it was asked."""
        offer = self.offers.get(mode.offer) if self.offers is not None else None
        if offer is None or offer.get("to") != mode.player:
            return [say("offer_gone")]
        command = {"do": "trade", "from": offer["from"], "to": offer["to"],
                   "give": offer.get("give") or {}, "take": offer.get("take") or {}}
        return [Submit(command, Source("rfid", player=mode.player), mode.version)]

    def _start_bid(self, player: str, state: JSON, version: int) -> Result:
        amount = bid_amount(state, player, 0)
        if amount is None:
            return [say("cannot_bid", player=player)], None
        mode = AmountEntry(version, "bid", player, amount=amount)
        return [amount_question(state, mode)], mode

    def _start_transfer(self, payer: str, payee: str, state: JSON, version: int) -> Result:
        # `pay` (corrections, side deals) is accepted whenever nothing is pending, but the
        # engine does not offer it; the session refuses it if it is not allowed.
        mode = AmountEntry(version, "transfer", payer, payee=payee)
        return [amount_question(state, mode)], mode

    # -- deeds --------------------------------------------------------------------------

    def _deed(self, role: TagRole, state: JSON, mode: Mode | None) -> Result:
        table = self._view()
        square = table.deed_by_id(role.square or "")
        if square is None:
            return [say("unknown_square", data={"square": role.square})], mode
        version, where = table.version, square.index
        choose = offered(table, "choose_square")
        if choose is not None and where in choose.squares:
            command = choose.command(square=where)
            return [Submit(command, Source("rfid", player=choose.by))], None
        if isinstance(mode, CardTapped | OfferAsked) and mode.version == version:
            land = offered(table, "land", mode.player)
            if land is None:
                return [say("not_now", "land_not_now")], None
            command = land.command(by=mode.player, square=where)
            return [Submit(command, Source("rfid", player=mode.player))], None
        owner, name = square.owner, square.name
        if owner is None:
            return [say("deed_info", "deed_for_sale", data={"index": where}, square=name,
                        price=money(state, square.price))], mode
        if square.mortgaged:
            return [say("deed_info", "deed_owned_mortgaged", data={"index": where},
                        square=name, owner=owner)], mode
        return [say("deed_info", "deed_owned", data={"index": where}, square=name, owner=owner,
                    rent=money(state, square.rent))], mode

    # -- Chance / Community Chest --------------------------------------------------------

    def _card(self, role: TagRole, state: JSON, mode: Mode | None) -> Result:
        table = self._view()
        ask = table.decision
        if ask is not None and ask.kind == "draw":
            drawer = ask.player
            draw = offered(table, "draw", drawer)
            if draw is not None and ask.deck == role.deck:
                source = Source("rfid", player=drawer)
                return [Submit(draw.command(card=role.card), source)], None
            if draw is not None:
                return [say("wrong_deck", data={"deck": ask.deck})], mode
        current = table.current
        ride = offered(table, "use_bus_ticket", current)
        if ride is not None and role.deck == BUS_TICKETS and ride.squares:
            return [], RidePick(table.version)
        if role.deck == BUS_TICKETS:
            return [say("card_not_now", "ticket_not_now")], mode
        use = offered(table, "use_card", current)
        if use is not None and (role.card or "").endswith("jail-free"):
            return [Submit(use.command(), Source("rfid", player=current))], None
        return [say("card_not_now")], mode


def offer_text(state: JSON, table: TableView, goods: Goods) -> str:
    """One side of a trade in the edition's words: "€ 200 + Rue Lecourbe + 1 jail card"."""
    parts = [money(state, goods.cash)] if goods.cash else []
    for index in goods.squares:
        deed = table.deed(index)
        parts.append(deed.name if deed is not None else f"#{index}")
    if goods.cards:
        parts.append(input_text("jail_cards", "en", count=goods.cards))
    return " + ".join(parts) or input_text("prompt_nothing", "en")


def offer_question(state: JSON, table: TableView, put: Offer) -> Show:
    """The offer put to its receiver: who gives what (the fields a face says it with)."""
    fields = {"sender": put.sender, "receiver": put.receiver,
              "give": offer_text(state, table, put.give),
              "take": offer_text(state, table, put.take)}
    return say("offer_asked", level="prompt", data={
        "player": put.receiver, "offer": put.id,
        "goods": {"give": put.give.to_json(), "take": put.take.to_json()}}, **fields)


def amount_question(state: JSON, mode: AmountEntry) -> Show:
    """The prompt while an amount is entered (a bid, a payment after two bank cards)."""
    data = {"kind": "amount", "purpose": mode.purpose, "value": mode.amount}
    if mode.purpose == "bid":
        return say("enter_bid", level="prompt", data=data, player=mode.player,
                   amount=money(state, mode.amount))
    return say("enter_amount", level="prompt", data=data, player=mode.player,
               payee=mode.payee, amount=money(state, mode.amount))
