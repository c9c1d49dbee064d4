"""What UNDO would take back, asked in the table's language before it does.

The game session knows the command an undo would revert (`undo_target()`: the journal entry
of that command, with the events it had). `describe_undo` turns that entry into one
question, "Undo: Ann bought Rue de la Paix?", "Undo Bo's roll (3 + 4)?", so that the table
screen (in the screen's language) and the banker's phone (in its own) name the move before
it is undone. Like companion.refusals, the caller passes its own catalog's `pgettext`; the
questions are in companion/screen/undo_texts.py, extracted into both catalogs.

Square names come from the edition in the asked language, amounts are written as the
edition writes its money. When a question needs a fact the entry does not carry (or the
command is unknown, or a translation is broken), a plainer question is asked: "Undo Bo's
last move?", else "Undo the last move?". Never a raw template, never an exception.

>>> from companion import i18n
>>> state = {"edition": "classic-eur", "currency": i18n.edition_data("classic-eur")["currency"]}
>>> entry = {"command": {"do": "buy"}, "events": [
...     {"kind": "bought", "player": "Ann", "square": 39, "price": 400}]}
>>> describe_undo(entry, state, "en", lambda _ctx, text: text)
'Undo: Ann bought Rue de la Paix?'
>>> describe_undo({"command": {"do": "roll", "dice": [3, 4]}, "events": [
...     {"kind": "rolled", "player": "Bo", "dice": [3, 4]}]}, state, "sv",
...     i18n.translator("sv").pgettext)
'Ångra kastet av Bo (3 + 4)?'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from companion import i18n
from companion.refusals import square_name
from companion.screen.undo_texts import QUESTIONS

log = logging.getLogger(__name__)

#: a catalog's pgettext: (message context, English text) -> the text in its language
Gettext = Callable[[str, str], str]
JSON = dict[str, Any]


class _Missing(LookupError):
    """A fact the question needs is not in the entry."""


def describe_undo(entry: Mapping[str, Any] | None, state: Mapping[str, Any] | None,
                  lang: str, gettext: Gettext) -> str:
    """The question to ask before undoing `entry` (a journal entry: "command", "events",
    "source"), in `lang` (`gettext`: the pgettext of a catalog in `lang`; `state`: the public
    state JSON now, for the edition's square names and money). Without an entry (nothing
    known to undo), the plain "Undo the last move?"."""
    msg_id, fields = question(entry, state, lang, gettext)
    said = _say(msg_id, fields, gettext)
    if said is None and entry:  # a broken translation: the plainer question
        player = actor(entry)
        msg_id, fields = ("undo_last_player", {"player": player}) if player \
            else ("undo_last", {})
        said = _say(msg_id, fields, gettext)
    return said or QUESTIONS[msg_id].text.format(**fields)


def question(entry: Mapping[str, Any] | None, state: Mapping[str, Any] | None, lang: str,
             gettext: Gettext) -> tuple[str, dict[str, str]]:
    """(message id, fields) of the question for `entry`: its command's own question when
    the entry has the facts, else "undo_last_player" (who made the move), else
    "undo_last"."""
    if not entry:
        return "undo_last", {}
    try:
        msg_id, fields = _question(entry, state or {}, lang, gettext)
    except LookupError:
        msg_id, fields = None, {}
    except Exception:  # noqa: BLE001 - odd facts (a string amount) must not break a screen
        log.exception("undo question: cannot read %r", entry)
        msg_id, fields = None, {}
    if msg_id is not None:
        return msg_id, fields
    player = actor(entry)
    if player:
        return "undo_last_player", {"player": player}
    return "undo_last", {}


def _say(msg_id: str, fields: Mapping[str, str], gettext: Gettext) -> str | None:
    """The question `msg_id` from the catalog, filled in; None when the translation is
    broken (a placeholder it does not have, braces left over)."""
    template = gettext(msg_id, QUESTIONS[msg_id].text)
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        log.warning("undo question %s: broken translation %r", msg_id, template)
        return None


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


def _question(entry: Mapping[str, Any], state: Mapping[str, Any], lang: str,
              gettext: Gettext) -> tuple[str | None, dict[str, str]]:
    """(message id, fields) of the question for the entry's command.

    Raises _Missing when the question needs facts the entry lacks."""
    command: Mapping[str, Any] = entry.get("command") or {}
    events: list[Mapping[str, Any]] = list(entry.get("events") or [])
    do = str(command.get("do") or "")

    def event(kind: str) -> Mapping[str, Any]:
        for e in events:
            if e.get("kind") == kind:
                return e
        raise _Missing(kind)

    def who(found: Mapping[str, Any] | None = None, key: str = "player") -> str:
        name = (found or {}).get(key) or actor(entry)
        if not name:
            raise _Missing("player")
        return str(name)

    def money(amount: Any) -> str:
        if amount is None:
            raise _Missing("amount")
        return i18n.format_money(int(amount), state.get("currency"), lang)

    def square(value: Any) -> str:
        if value is None:
            raise _Missing("square")
        return square_name(value, state, lang)

    simple = {"pay_fine": "undo_pay_fine", "use_card": "undo_use_card",
              "claim_rent": "undo_claim_rent"}
    if do in simple:
        return simple[do], {"player": who()}
    if do == "end_game":
        return "undo_end_game", {}
    if do == "new_game":
        return "undo_new_game", {}
    if do == "roll":
        rolled = event("rolled")
        dice = rolled.get("dice") or command.get("dice")
        return "undo_roll", {"player": who(rolled), "dice": dice_text(dice, gettext)}
    if do == "buy":
        bought = event("bought")
        return "undo_buy", {"player": who(bought), "square": square(bought.get("square"))}
    if do == "decline":
        if any(e.get("kind") == "kept_mortgages" for e in events):
            return "undo_decline_kept_mortgages", {"player": who(event("kept_mortgages"))}
        declined = event("declined")
        return "undo_decline", {"player": who(declined),
                                "square": square(declined.get("square"))}
    if do == "bid":
        bid = event("bid")
        return "undo_bid", {"player": who(bid), "amount": money(bid.get("amount"))}
    if do == "pass":
        return "undo_pass", {"player": who(event("passed"))}
    if do == "close_auction":
        closed = event("auction_closed")
        if closed.get("winner") and closed.get("square") is not None:
            return "undo_close_auction_won", {
                "player": str(closed["winner"]), "square": square(closed["square"]),
                "amount": money(closed.get("amount"))}
        return "undo_close_auction", {}
    if do == "draw":
        card = event("card")
        msg_id = f"undo_draw_{card.get('deck')}"
        return (msg_id if msg_id in QUESTIONS else None), {"player": who(card)}
    if do == "end_turn":
        return "undo_end_turn", {"player": who(event("turn"))}
    if do == "land":
        return "undo_land", {"player": who(), "square": square(command.get("square"))}
    if do == "pass_go":
        salary = event("pass_go")
        return "undo_pass_go", {"player": who(salary), "amount": money(salary.get("amount"))}
    if do == "pay":
        return _payment(event("transfer"), money)
    if do == "build":
        built = event("built")
        return "undo_build", {"player": who(built), "square": square(built.get("square")),
                              "amount": money(built.get("cost"))}
    if do == "sell_building":
        sold = [e for e in events if e.get("kind") == "sold_building"]
        if not sold:
            raise _Missing("sold_building")
        where = command.get("square", sold[0].get("square"))
        return "undo_sell_building", {
            "player": who(sold[0]), "square": square(where),
            "amount": money(sum(int(e.get("refund") or 0) for e in sold))}
    if do in ("mortgage", "unmortgage"):
        done = event(f"{do}d")
        return f"undo_{do}", {"player": who(done),
                              "square": square(done.get("square", command.get("square")))}
    if do == "trade":
        traded = event("traded")
        return "undo_trade", {"giver": who(traded, "from"), "receiver": who(traded, "to")}
    if do == "bankrupt":
        return "undo_bankrupt", {"player": who(event("bankrupt"))}
    if do == "auction_building":
        msg_id = f"undo_auction_building_{command.get('building')}"
        return (msg_id if msg_id in QUESTIONS else None), {}
    if do == "use_bus_ticket":
        ride = event("bus_ticket_used")
        return "undo_use_bus_ticket", {"player": who(ride), "square": square(ride.get("square"))}
    if do == "choose_square":
        chose = event("chose_square")
        msg_id = "undo_choose_square_auction" if chose.get("for") == "auction" \
            else "undo_choose_square"
        return msg_id, {"player": who(chose), "square": square(chose.get("square"))}
    if do == "choose_gift":
        player = who()
        if command.get("gift") == "bus_ticket":
            return "undo_choose_gift_bus_ticket", {"player": player}
        gift = next((e for e in events if e.get("kind") == "transfer" and e.get("to") == player),
                    None)
        if gift is None:
            raise _Missing("transfer")
        return "undo_choose_gift_money", {"player": player, "amount": money(gift.get("amount"))}
    return None, {}


def _payment(transfer: Mapping[str, Any],
             money: Callable[[Any], str]) -> tuple[str | None, dict[str, str]]:
    """The question for a `pay` from its transfer: between players, to the bank or the
    pot, from the bank."""
    payer, payee = transfer.get("from"), transfer.get("to")
    amount = money(transfer.get("amount"))
    if payer is None and isinstance(payee, str) and payee != "pot":
        return "undo_pay_from_bank", {"payee": payee, "amount": amount}
    if not isinstance(payer, str) or payer == "pot":
        return None, {}
    if payee is None:
        return "undo_pay_bank", {"payer": payer, "amount": amount}
    if payee == "pot":
        return "undo_pay_pot", {"payer": payer, "amount": amount}
    return "undo_pay", {"payer": payer, "payee": str(payee), "amount": amount}


def dice_text(dice: Any, gettext: Gettext) -> str:
    """The dice as "3 + 4", the speed die's bus and Mr. Monopoly in words.

    >>> dice_text([2, 5, "bus"], lambda _ctx, text: text)
    '2 + 5 + bus'
    """
    if not isinstance(dice, list) or not dice:
        raise _Missing("dice")
    faces = []
    for face in dice:
        if isinstance(face, int) and not isinstance(face, bool):
            faces.append(str(face))
        elif face in ("bus", "mr_monopoly"):
            faces.append(gettext(f"undo_face_{face}", QUESTIONS[f"undo_face_{face}"].text))
        else:
            raise _Missing("dice")
    return " + ".join(faces)
