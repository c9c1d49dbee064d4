"""What a move did, in words: the lines of the table screen's "Last moves" panel and the
sentences of the phone remote's list of the latest moves.

`event_line` says one engine event as a short line ("Ann → Bank € 200", "Ann bought Rue
Lecourbe", "Bo went to jail"): the table screen shows these for every update
(companion.screen.log_lines). `describe_move` says a whole journal entry: one sentence for
its command ("Ann bought Rue Lecourbe for € 60", "Bo rolled 3 + 4 and moved to Gare
Montparnasse", "Taken back: ...", "... (by the banker)"), with the facts of
companion.words.move_facts that the UNDO question reads too, and under it the lines of what else
happened that the sentence does not say (the rent paid, the card's text, jail). Both take
the caller's catalog (the one catalog of the screen's or the phone's language); the words
are in companion/words/log_texts.py (the lines) and companion/words/move_texts.py (the
phone's sentences).

Square names come from the edition in the asked language (the screen may pass its own
namer), amounts are written as the edition writes its money. A sentence whose facts are
missing, or whose translation is broken, becomes a plainer one ("Bo made a move"): never a
raw template, never an exception.

>>> from companion.words import catalog as i18n
>>> from companion.game.table.records import Setup
>>> setup = Setup("classic-eur", i18n.edition_data("classic-eur")["currency"], {})
>>> entry = {"command": {"do": "roll", "dice": [1, 2]}, "events": [
...     {"kind": "rolled", "player": "Ann", "dice": [1, 2], "double": False},
...     {"kind": "moved", "player": "Ann", "from": 0, "to": 3}],
...     "source": {"kind": "phone", "player": "Bo", "banker": True}}
>>> describe_move(entry, setup, "en", i18n.translator("en")).text
'Ann rolled 1 + 2 and moved to Rue Lecourbe (by the banker)'
>>> event_line({"kind": "bought", "player": "Ann", "square": 3},
...            Words(setup, "sv", i18n.translator("sv")))
'Ann köpte Rue Lecourbe'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from companion.game.table.records import Setup
from companion.words import catalog as i18n
from companion.words.explaining.lesson_texts import LESSONS
from companion.words.explaining.why_texts import WHY
from companion.words.log_texts import LINES
from companion.words.message import Message
from companion.words.move_facts import actor, facts
from companion.words.move_texts import MOVES
from companion.words.news_texts import NEWS
from companion.words.refusals import setup_square_name

log = logging.getLogger(__name__)

#: every message the lines and sentences are made of, by id
WORDS: dict[str, Message] = LINES | MOVES | NEWS | WHY | LESSONS


class Catalog(Protocol):
    """A gettext catalog (GNUTranslations or NullTranslations) of the asked language."""

    def pgettext(self, context: str, message: str) -> str: ...

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str: ...


@dataclass(frozen=True)
class Words:
    """How one caller says things: the game's setup (the table view's `setup`: edition,
    money, rule options), the language, its catalog, and optionally its own way of naming
    squares (the screen's board)."""

    setup: Setup
    lang: str
    catalog: Catalog
    square_name: Callable[[Any], str] | None = None

    def say(self, msg_id: str, **fields: Any) -> str | None:
        """Message `msg_id` from the catalog, filled in; the English text when the
        translation is broken; None when the fields do not fit either."""
        message = WORDS[msg_id]
        if message.plural is not None and message.count is not None:
            count = fields.get(message.count, 1)
            n = count if isinstance(count, int) else 1
            template = self.catalog.npgettext(msg_id, message.text, message.plural, n)
            english = message.text if n == 1 else message.plural
        else:
            template = self.catalog.pgettext(msg_id, message.text)
            english = message.text
        for text in (template, english):
            try:
                return text.format(**fields)
            except (KeyError, IndexError, ValueError):
                log.warning("%s: cannot fill %r with %s", msg_id, text, sorted(fields))
        return None

    def money(self, amount: Any) -> str:
        """An amount as the edition writes it."""
        return i18n.format_money(int(amount or 0), self.setup.currency, self.lang)

    def square(self, index: Any) -> str:
        """A square by index (or id) as the edition names it in the language; "?" when
        unknown."""
        if self.square_name is not None:
            return self.square_name(index)
        try:
            return setup_square_name(index, self.setup, self.lang)
        except LookupError:
            return "?"


@dataclass(frozen=True)
class MoveSaid:
    """A journal entry in words: its sentence, the lines of what else happened, and whether
    the move stands undone now."""

    text: str
    lines: tuple[str, ...] = ()
    undone: bool = False


# --- one event, one line ----------------------------------------------------------------------

#: events told by the player's name alone
_PLAYER_LINES = {"triple": "log_triple", "mr_monopoly": "log_mr_monopoly",
                 "mr_monopoly_stays": "log_mr_monopoly_stays", "bus_ticket": "log_bus_ticket",
                 "no_bus_ticket": "log_no_bus_ticket", "rebalanced": "log_rebalanced",
                 "auction_square_stays": "log_auction_square_stays",
                 "jailed": "log_jailed", "bankrupt": "log_bankrupt",
                 "winner": "move_line_winner", "left_jail": "move_line_left_jail",
                 "three_doubles": "move_line_three_doubles"}


def event_line(event: Mapping[str, Any], words: Words) -> str | None:
    """One engine event as a short line, or None for an event that is not told (a move of
    the token, a new turn...).

    >>> from companion.words import catalog as i18n
    >>> words = Words(Setup("", {"pattern": "€ {amount}"}, {}), "en", i18n.translator("en"))
    >>> event_line({"kind": "transfer", "from": "Ann", "to": None, "amount": 200}, words)
    'Ann → Bank €\\xa0200'
    """
    kind = str(event.get("kind"))
    who = event.get("player")
    if kind == "transfer":
        line = "log_rent" if event.get("reason") == "rent" else "log_transfer"
        return words.say(line, payer=_party(event.get("from"), words),
                         payee=_party(event.get("to"), words),
                         amount=words.money(event.get("amount", 0)))
    if kind in _PLAYER_LINES:
        return words.say(_PLAYER_LINES[kind], player=who)
    if kind == "bought":
        return words.say("log_bought", player=who, square=words.square(event.get("square")))
    if kind == "auction_closed":
        return _auction_won(event, words)
    if kind == "bus_tickets_expired":
        return words.say("log_tickets_expired")
    if kind == "bus_ticket_used":
        return words.say("log_bus_ticket_used", player=who,
                         square=words.square(event.get("square")))
    if kind == "chose_square":
        key = "log_chose_auction" if event.get("for") == "auction" else "log_chose_square"
        return words.say(key, player=who, square=words.square(event.get("square")))
    if kind in ("built", "sold_building"):
        building = words.say("building_" + building_of(event, words.setup))
        key = "log_built" if kind == "built" else "log_sold_building"
        return words.say(key, player=who, building=building,
                         square=words.square(event.get("square")))
    return _more_line(event, words)


def _party(name: Any, words: Words) -> str:
    """A payer or payee: a player, the bank (None) or the Free Parking pot."""
    if name is None:
        return words.say("log_bank") or "Bank"
    if name == "pot":
        return words.say("log_pot") or "Pot"
    return str(name)


def _auction_won(event: Mapping[str, Any], words: Words) -> str | None:
    """Who won an auction of a deed or of a building, and for how much (None: no bid)."""
    winner = event.get("winner")
    if not winner:
        return None
    amount = words.money(event.get("amount", 0))
    if event.get("square") is not None:
        return words.say("log_auction_won", player=winner,
                         square=words.square(event.get("square")), amount=amount)
    msg_id = f"move_close_auction_won_{event.get('building')}"
    return words.say(msg_id, player=winner, amount=amount) if msg_id in WORDS else None


def _more_line(event: Mapping[str, Any], words: Words) -> str | None:
    """The lines only the phone's list tells: a card's text, a debt, an auction starting,
    the deeds of a bankrupt player."""
    kind = str(event.get("kind"))
    if kind == "card" and event.get("deck") != "bus_tickets":
        text = str(event.get("text") or "")
        edition = words.setup.edition
        if event.get("card") and edition:
            try:
                text = i18n.localized_name(edition, str(event["card"]), words.lang)
            except KeyError:
                pass
        return words.say("move_line_card", card=text) if text else None
    if kind == "debt":
        amount = words.money(event.get("amount", 0))
        creditor = event.get("creditor")
        if creditor is None:
            return words.say("move_line_debt_bank", player=event.get("player"), amount=amount)
        return words.say("move_line_debt", player=event.get("player"), amount=amount,
                         creditor=_party(creditor, words))
    if kind == "auction_started" and event.get("square") is not None:
        return words.say("move_line_auction_started", square=words.square(event["square"]))
    if kind == "deeds_transferred" and event.get("to") and event.get("squares"):
        return words.say("move_line_deeds", giver=event.get("from"), receiver=event["to"])
    return None


def trade_lines(event: Mapping[str, Any], words: Words) -> list[str]:
    """What each side of a `traded` event gave: "Ann → Bo: € 100, Rue Lecourbe"."""
    out = []
    for side, giver, receiver in (("give", "from", "to"), ("take", "to", "from")):
        offer = event.get(side) or {}
        parts = []
        if offer.get("cash"):
            parts.append(words.money(offer["cash"]))
        parts.extend(words.square(s) for s in offer.get("squares") or [])
        if offer.get("cards"):
            cards = words.say("move_line_jail_cards", count=int(offer["cards"]))
            if cards:
                parts.append(cards)
        if parts:
            line = words.say("move_line_trade", giver=event.get(giver),
                             receiver=event.get(receiver), what=", ".join(parts))
            if line:
                out.append(line)
    return out


def building_of(event: Mapping[str, Any], setup: Setup) -> str:
    """Which building a `built` or `sold_building` event is about, from its level (houses
    up to the rule's count, then a hotel, then a skyscraper) or its "building" (depot).

    >>> from companion.game.table.records import Setup
    >>> building_of({"kind": "built", "level": 5}, Setup("", None, {"houses_before_hotel": 4}))
    'hotel'
    >>> building_of({"kind": "sold_building", "level": 5}, Setup("", None, {}))
    'skyscraper'
    >>> building_of({"kind": "built", "building": "depot"}, Setup("", None, {}))
    'depot'
    """
    if event.get("building") == "depot":
        return "depot"
    hotel = int(setup.options.get("houses_before_hotel", 4)) + 1
    level = int(event.get("level") or 0)
    if event.get("kind") == "sold_building":
        level += 1  # the level after the sale: what was sold stood one above it
    if level > hotel:
        return "skyscraper"
    return "hotel" if level == hotel else "house"


# --- one journal entry, one sentence and its lines --------------------------------------------

#: the events a command's own sentence already tells, not repeated under it
_TOLD = {
    "new_game": {"bought"}, "buy": {"bought"}, "close_auction": {"auction_closed"},
    "draw": {"bus_ticket"}, "build": {"built"}, "sell_building": {"sold_building"},
    "pay_fine": {"left_jail"}, "use_card": {"left_jail"}, "bankrupt": {"bankrupt"},
    "use_bus_ticket": {"bus_ticket_used"}, "choose_square": {"chose_square"},
    "choose_gift": {"bus_ticket"}, "auction_building": {"auction_started"},
}
#: the money a command's own sentence already tells, by the transfers' reasons
_PAID = {
    "new_game": {"start_cash", "dealt_deed"}, "buy": {"purchase"}, "pass_go": {"salary"},
    "pay": {"payment"}, "build": {"building"}, "sell_building": {"building_sold"},
    "mortgage": {"mortgage"}, "unmortgage": {"mortgage_lift", "mortgage_interest"},
    "pay_fine": {"jail_fine"}, "trade": {"trade"}, "choose_gift": {"birthday_gift"},
}
#: who sent a move, when that is worth saying: the banker's phone or card
_BANKER_KINDS = ("phone", "rfid")


def describe_move(entry: Mapping[str, Any], setup: Setup, lang: str,
                  catalog: Catalog,
                  targets: Mapping[int, Mapping[str, Any]] | None = None) -> MoveSaid:
    """A journal entry (the session's history: "kind", "command", "events", "source",
    "undone", an undo's or redo's "target") in words, in `lang` (`catalog`: a gettext
    catalog in `lang`; `setup`: the table view's now, for the edition's names and
    money). An undo says the move it took back, found in `targets` (journal entries by
    seq), else as far as its command tells."""
    words = Words(setup, lang, catalog)
    kind = entry.get("kind") or "command"
    if kind == "undo":
        seq = entry.get("target")
        target = (targets or {}).get(seq) if isinstance(seq, int) else None
        subject: Mapping[str, Any] = target if target is not None else {
            "command": entry.get("command") or {}, "events": []}
        text = _wrap(words, "move_undone", sentence(subject, words))
        lines: tuple[str, ...] = ()
    else:
        subject = entry
        text = sentence(entry, words)
        lines = tuple(consequences(entry, words))
        if kind == "redo":
            text = _wrap(words, "move_redone", text)
    if (subject.get("command") or {}).get("correction"):  # journaled as a correction
        text = _wrap(words, "move_correction", text)
    if _by_banker(entry.get("source"), subject):
        text = _wrap(words, "move_by_banker", text)
    return MoveSaid(text, lines, bool(entry.get("undone")))


def _wrap(words: Words, msg_id: str, move: str) -> str:
    return words.say(msg_id, move=move) or move


def _by_banker(source: Any, subject: Mapping[str, Any]) -> bool:
    """Whether to say the banker made the move: sent with the banker's authority from a
    phone or card, for a player other than the one the phone belongs to (or for nobody in
    particular: the gavel, the bank's auction, a correction)."""
    if not isinstance(source, Mapping) or not source.get("banker"):
        return False
    if source.get("kind") not in _BANKER_KINDS:
        return False
    mover = actor({"command": subject.get("command") or {}, "events": subject.get("events")})
    return mover is None or mover != source.get("player")


def sentence(entry: Mapping[str, Any], words: Words) -> str:
    """The sentence of the entry's command: its own when the entry has the facts, else
    "Bo made a move", else "A move at the table"."""
    msg_id: str | None = None
    fields: dict[str, Any] = {}
    try:
        variant, fields = facts(entry, words.setup, words.lang, words.catalog.pgettext)
        msg_id, fields = _refine(variant, dict(fields), entry, words)
    except LookupError:
        msg_id = None
    except Exception:  # noqa: BLE001 - odd facts (a string amount) must not break a page
        log.exception("move sentence: cannot read %r", entry)
        msg_id = None
    said = words.say(msg_id, **fields) if msg_id in MOVES else None
    if said is None:
        player = actor(entry)
        said = words.say("move_last_player", player=player) if player else None
    return said or words.say("move_last") or MOVES["move_last"].text


def message_id(entry: Mapping[str, Any], words: Words) -> str | None:
    """The id of the sentence `sentence` says for the entry (None: the plainer one)."""
    try:
        variant, fields = facts(entry, words.setup, words.lang, words.catalog.pgettext)
        msg_id, _fields = _refine(variant, dict(fields), entry, words)
    except LookupError:
        return None
    return msg_id if msg_id in MOVES else None


def _refine(variant: str | None, fields: dict[str, Any], entry: Mapping[str, Any],
            words: Words) -> tuple[str | None, dict[str, Any]]:
    """The sentence's id for the facts' variant, with the facts only the move says: where
    a roll ended, which building was built or won, how many."""
    if variant is None:
        return None, fields
    command = entry.get("command") or {}
    events = [e for e in entry.get("events") or [] if isinstance(e, Mapping)]
    if variant == "roll" and "square" in fields:
        variant = "roll_moved"
    elif variant == "build":
        built = next(e for e in events if e.get("kind") == "built")
        building = building_of(built, words.setup)
        count = max(1, int(command.get("count") or 1))
        variant = "build_houses" if building == "house" and count > 1 else f"build_{building}"
        fields["count"] = count
    elif variant == "sell_building":
        count = sum(1 for e in events if e.get("kind") == "sold_building")
        variant = "sell_buildings" if count > 1 else "sell_building"
        fields["count"] = count
    elif variant == "close_auction":
        closed = next(e for e in events if e.get("kind") == "auction_closed")
        if closed.get("winner") and closed.get("building"):
            variant = f"close_auction_won_{closed['building']}"
            fields = {"player": str(closed["winner"]), "amount": words.money(closed.get("amount"))}
    return f"move_{variant}", fields


def consequences(entry: Mapping[str, Any], words: Words) -> list[str]:
    """The lines of what else the entry's command did, that its sentence does not say."""
    do = str((entry.get("command") or {}).get("do") or "")
    events = [e for e in entry.get("events") or []
              if isinstance(e, Mapping) and e.get("kind") not in ("undone", "redone")]
    told = _TOLD.get(do, set())
    paid = set(_PAID.get(do, set()))
    if any(e.get("kind") == "auction_closed" and e.get("winner") for e in events):
        paid |= {"auction", "building_auction"}  # the auction's line says what was paid
    lines: list[str] = []
    for event in events:
        kind = event.get("kind")
        if kind in told or (kind == "transfer" and event.get("reason") in paid):
            continue
        if kind == "bus_tickets_expired" and not event.get("count"):
            continue
        if kind == "traded":
            lines.extend(trade_lines(event, words))
            continue
        line = event_line(event, words)
        if line:
            lines.append(line)
    return lines
