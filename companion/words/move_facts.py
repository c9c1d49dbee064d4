"""The facts of one move: which command a journal entry holds and what it did, ready to be
said in any language.

A journal entry (the session's history, docs/session.md) holds a command and the events the
engine answered it with. `facts` reads them into a variant of the command ("buy",
"decline_kept_mortgages", "pay_bank", "draw_chance"...) and the fields a sentence about it
needs, already written in the asked language: player names, squares as the edition names
them in that language, money as the edition writes it, the dice. Two sayings share it:
companion.words.undo_questions asks "Undo: Ann bought Rue de la Paix?" (the question
"undo_<variant>") and companion.words.move_words says "Ann bought Rue de la Paix for € 400" in
the phone remote's list of the latest moves ("move_<variant>"). Some fields only one of
them uses ("amount" of a purchase, "square" a roll ended on) are given when the entry has
them and left out otherwise.

>>> from companion.words import catalog as i18n
>>> state = {"edition": "classic-eur", "currency": i18n.edition_data("classic-eur")["currency"]}
>>> entry = {"command": {"do": "buy"}, "events": [
...     {"kind": "bought", "player": "Ann", "square": 39, "price": 400}]}
>>> variant, fields = facts(entry, state, "en", lambda _ctx, text: text)
>>> variant, fields["player"], fields["square"], fields["amount"].replace(i18n.NBSP, " ")
('buy', 'Ann', 'Rue de la Paix', '€ 400')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.words import catalog as i18n
from companion.words.refusals import square_name
from companion.words.undo_texts import QUESTIONS

#: a catalog's pgettext: (message context, English text) -> the text in its language
Gettext = Callable[[str, str], str]


class Missing(LookupError):
    """A fact the sentence needs is not in the entry."""


def actor(entry: Mapping[str, Any]) -> str | None:
    """Who made the move: the command's player, else the first player its events name,
    else the player whose phone or card sent it."""
    command = entry.get("command") or {}
    for key in ("by", "from"):
        if isinstance(command.get(key), str) and command[key] not in ("bank", "pot"):
            return str(command[key])
    for event in entry.get("events") or []:
        if isinstance(event.get("player"), str):
            return str(event["player"])
    source = entry.get("source") or {}
    player = source.get("player") if isinstance(source, Mapping) else None
    return str(player) if isinstance(player, str) and player else None


def facts(entry: Mapping[str, Any], state: Mapping[str, Any], lang: str,
          gettext: Gettext) -> tuple[str | None, dict[str, str]]:
    """(variant, fields) of the entry's command: None for a command it does not know.

    Raises Missing (a LookupError) when the command's sentence needs facts the entry
    lacks; `gettext` (the asking catalog's pgettext) says the speed die's faces."""
    command: Mapping[str, Any] = entry.get("command") or {}
    events: list[Mapping[str, Any]] = [e for e in entry.get("events") or []
                                       if e.get("kind") not in ("undone", "redone")]
    do = str(command.get("do") or "")

    def event(kind: str) -> Mapping[str, Any]:
        for e in events:
            if e.get("kind") == kind:
                return e
        raise Missing(kind)

    def who(found: Mapping[str, Any] | None = None, key: str = "player") -> str:
        name = (found or {}).get(key) or actor(entry)
        if not name:
            raise Missing("player")
        return str(name)

    def money(amount: Any) -> str:
        if amount is None:
            raise Missing("amount")
        return i18n.format_money(int(amount), state.get("currency"), lang)

    def square(value: Any) -> str:
        if value is None:
            raise Missing("square")
        return square_name(value, state, lang)

    def paid(*reasons: str) -> str:
        """The money the entry's transfers moved for these reasons."""
        moved = [e for e in events if e.get("kind") == "transfer" and e.get("reason") in reasons]
        if not moved:
            raise Missing("transfer")
        return money(sum(int(e.get("amount") or 0) for e in moved))

    def extra(fields: dict[str, str], key: str, make: Callable[[], str]) -> dict[str, str]:
        """`fields` with `key` when the entry has the fact (only one saying needs it)."""
        try:
            fields[key] = make()
        except (LookupError, TypeError, ValueError):
            pass
        return fields

    simple = {"pay_fine": "pay_fine", "use_card": "use_card", "claim_rent": "claim_rent"}
    if do in simple:
        fields = {"player": who()}
        if do == "pay_fine":
            extra(fields, "amount", lambda: paid("jail_fine"))
        return simple[do], fields
    if do == "end_game":
        return "end_game", {}
    if do == "new_game":
        fields = {}
        players = command.get("players")
        if isinstance(players, list) and players:
            fields["players"] = ", ".join(str(p) for p in players)
        edition = str(command.get("edition") or state.get("edition") or "")
        return "new_game", extra(fields, "edition",
                                 lambda: i18n.localized_name(edition, edition, lang))
    if do == "roll":
        rolled = event("rolled")
        dice = rolled.get("dice") or command.get("dice")
        player = who(rolled)
        fields = {"player": player, "dice": dice_text(dice, gettext)}
        moves = [e for e in events if e.get("kind") == "moved" and e.get("player") == player]
        if moves:
            extra(fields, "square", lambda: square(moves[-1].get("to")))
        return "roll", fields
    if do == "buy":
        bought = event("bought")
        fields = {"player": who(bought), "square": square(bought.get("square"))}
        return "buy", extra(fields, "amount", lambda: money(bought.get("price")))
    if do == "decline":
        if any(e.get("kind") == "kept_mortgages" for e in events):
            return "decline_kept_mortgages", {"player": who(event("kept_mortgages"))}
        declined = event("declined")
        return "decline", {"player": who(declined), "square": square(declined.get("square"))}
    if do == "bid":
        bid = event("bid")
        return "bid", {"player": who(bid), "amount": money(bid.get("amount"))}
    if do == "pass":
        return "pass", {"player": who(event("passed"))}
    if do == "close_auction":
        closed = event("auction_closed")
        if closed.get("winner") and closed.get("square") is not None:
            return "close_auction_won", {
                "player": str(closed["winner"]), "square": square(closed["square"]),
                "amount": money(closed.get("amount"))}
        return "close_auction", {}
    if do == "draw":
        card = event("card")
        variant = f"draw_{card.get('deck')}"
        return (variant if f"undo_{variant}" in QUESTIONS else None), {"player": who(card)}
    if do == "end_turn":
        return "end_turn", {"player": who(event("turn"))}
    if do == "land":
        return "land", {"player": who(), "square": square(command.get("square"))}
    if do == "pass_go":
        salary = event("pass_go")
        return "pass_go", {"player": who(salary), "amount": money(salary.get("amount"))}
    if do == "pay":
        return _payment(event("transfer"), money)
    if do == "build":
        built = event("built")
        return "build", {"player": who(built), "square": square(built.get("square")),
                         "amount": money(built.get("cost"))}
    if do == "sell_building":
        sold = [e for e in events if e.get("kind") == "sold_building"]
        if not sold:
            raise Missing("sold_building")
        where = command.get("square", sold[0].get("square"))
        return "sell_building", {
            "player": who(sold[0]), "square": square(where),
            "amount": money(sum(int(e.get("refund") or 0) for e in sold))}
    if do in ("mortgage", "unmortgage"):
        done = event(f"{do}d")
        fields = {"player": who(done),
                  "square": square(done.get("square", command.get("square")))}
        reasons = ("mortgage",) if do == "mortgage" else ("mortgage_lift", "mortgage_interest")
        return do, extra(fields, "amount", lambda: paid(*reasons))
    if do == "trade":
        traded = event("traded")
        return "trade", {"giver": who(traded, "from"), "receiver": who(traded, "to")}
    if do == "bankrupt":
        return "bankrupt", {"player": who(event("bankrupt"))}
    if do == "auction_building":
        variant = f"auction_building_{command.get('building')}"
        return (variant if f"undo_{variant}" in QUESTIONS else None), {}
    if do == "use_bus_ticket":
        ride = event("bus_ticket_used")
        return "use_bus_ticket", {"player": who(ride), "square": square(ride.get("square"))}
    if do == "choose_square":
        chose = event("chose_square")
        variant = "choose_square_auction" if chose.get("for") == "auction" else "choose_square"
        return variant, {"player": who(chose), "square": square(chose.get("square"))}
    if do == "choose_gift":
        player = who()
        if command.get("gift") == "bus_ticket":
            return "choose_gift_bus_ticket", {"player": player}
        gift = next((e for e in events if e.get("kind") == "transfer" and e.get("to") == player),
                    None)
        if gift is None:
            raise Missing("transfer")
        return "choose_gift_money", {"player": player, "amount": money(gift.get("amount"))}
    return None, {}


def _payment(transfer: Mapping[str, Any],
             money: Callable[[Any], str]) -> tuple[str | None, dict[str, str]]:
    """The variant of a `pay` from its transfer: between players, to the bank or the pot,
    from the bank."""
    payer, payee = transfer.get("from"), transfer.get("to")
    amount = money(transfer.get("amount"))
    if payer is None and isinstance(payee, str) and payee != "pot":
        return "pay_from_bank", {"payee": payee, "amount": amount}
    if not isinstance(payer, str) or payer == "pot":
        return None, {}
    if payee is None:
        return "pay_bank", {"payer": payer, "amount": amount}
    if payee == "pot":
        return "pay_pot", {"payer": payer, "amount": amount}
    return "pay", {"payer": payer, "payee": str(payee), "amount": amount}


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
