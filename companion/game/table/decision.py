"""The decision the table waits for, as one typed record: who is asked, what (the kind and
its facts: the square, the price or the amount owed, the deck, the auction's highest bid),
the answers on offer with the command each sends and the panel button that sends it, and
the auction's clock.

The session's view of the table (companion.game.table.view: `TableView.decision`) builds
it from the engine's pending decision (docs/state-json.md, "pending") and the engine's
offers, once per version, the first time a face asks. The screen's decision panel and
its entry, the inputs' dice and squares and a phone read it instead of the state's dict;
a face sends only what an `Answer` builds (`Answer.command`, `Decision.command`), so it
cannot send a choice the engine does not offer (a square not on the list, a bid below the
lowest). Which verbs answer which kind is `ANSWERS`, the contract docs/state-json.md
states; the moves that are no answer (a trade, building on another deed, a claim) stay
the view's (`TableView.moves_of`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

JSON = dict[str, Any]
#: decisions several players answer at once, each for themselves (their own bid or pass)
AUCTIONS = ("auction", "building_auction")
#: the verbs that answer each kind of decision (docs/state-json.md); a trade raises money
#: for a debt too, but as an offer between two players (companion.game.table.offers)
ANSWERS: dict[str, tuple[str, ...]] = {
    "buy": ("buy", "decline"),
    "auction": ("bid", "pass", "close_auction"),
    "building_auction": ("bid", "pass", "close_auction"),
    "draw": ("draw",),
    "debt": ("mortgage", "sell_building", "bankrupt"),
    "roll_for_rent": ("roll",),
    "lift_mortgages": ("unmortgage", "decline"),
    "place_building": ("build",),
    "choose_square": ("choose_square",),
    "birthday_gift": ("choose_gift",),
}


class Offered(Protocol):
    """What the decision reads of one of the engine's offers (the view's `Move`)."""

    do: str
    by: str | None
    correction: bool

    @property
    def squares(self) -> tuple[int, ...]:
        """The squares it may name."""

    @property
    def low(self) -> int | None:
        """A bid's lowest amount."""

    @property
    def high(self) -> int | None:
        """A bid's highest amount."""

    @property
    def gift(self) -> str | None:
        """The gift it takes."""

    def command(self, **fields: Any) -> JSON:
        """The command to send, with `fields` set."""


@dataclass(frozen=True)
class Clock:
    """A clock of the table: when it runs out (epoch seconds) and the whole seconds left
    when the view was read."""

    ends_at: float
    seconds_left: int

    def left_at(self, now: float) -> int:
        """The whole seconds left at `now` (epoch seconds): a view read after its version
        was built tells the clock as it stands, not as it stood then.

        >>> Clock(130.0, 20).left_at(125.2), Clock(130.0, 20).left_at(131.0)
        (5, 0)
        """
        return max(0, int(self.ends_at - now + 0.999))


@dataclass(frozen=True)
class Answer:
    """One answer on offer: the verb, who sends it (None: the banker's or the table's own,
    as the gavel), the panel button that sends it as it stands (None: it is chosen on a
    list, a phone or a card), and what is left to choose: the squares it may name, a bid's
    lowest and highest amount, the gift it takes.

    >>> class Offer:
    ...     do, by, correction, squares, low, high, gift = "bid", "Bo", False, (), 20, 90, None
    ...     def command(self, **fields): return {"do": "bid", "by": "Bo", **fields}
    >>> bid = Answer.of(Offer(), "yes")
    >>> bid.command(amount=40), bid.command(amount=95), bid.command()
    ({'do': 'bid', 'by': 'Bo', 'amount': 40}, None, None)
    """

    do: str
    by: str | None
    button: str | None
    squares: tuple[int, ...]
    low: int | None
    high: int | None
    gift: str | None
    offer: Offered = field(compare=False, repr=False)

    @classmethod
    def of(cls, offer: Offered, button: str | None = None) -> Answer:
        """The answer of one of the engine's offers (its fields set in one step: a frozen
        dataclass's __init__ sets each through object.__setattr__, 3 us an answer here,
        six answers a decision and a decision a version on the first frame's path, issue
        28's thirteenth round; the same record, equal and printed alike)."""
        answer = object.__new__(cls)
        answer.__dict__.update(do=offer.do, by=offer.by, button=button,
                               squares=offer.squares, low=offer.low, high=offer.high,
                               gift=offer.gift, offer=offer)
        return answer

    def takes(self, square: int | None = None, amount: int | None = None) -> bool:
        """Whether this answer takes `square` and `amount`: a square only when it names
        squares, and then one of them; an amount only for a bid, and then within its
        lowest and highest."""
        if (square is not None) != bool(self.squares):
            return False
        if square is not None and square not in self.squares:
            return False
        if self.low is None:
            return amount is None
        return isinstance(amount, int) and not isinstance(amount, bool) and \
            self.low <= amount and (self.high is None or amount <= self.high)

    def command(self, square: int | None = None, amount: int | None = None) -> JSON | None:
        """The command giving this answer with the square or amount chosen; None when that
        choice is not on offer (`takes`)."""
        if not self.takes(square, amount):
            return None
        fields: JSON = {}
        if square is not None:
            fields["square"] = square
        if amount is not None:
            fields["amount"] = amount
        return self.offer.command(**fields)


@dataclass(frozen=True)
class Decision:
    """The decision the table waits for; see the module doc. The fields a kind does not
    have are at their defaults (None, 0, ())."""

    #: "buy", "auction", "building_auction", "draw", "debt", "roll_for_rent",
    #: "lift_mortgages", "place_building", "choose_square", "birthday_gift"
    kind: str
    #: who must answer (None: an auction, which each bidder answers for themselves)
    player: str | None
    #: who is asked now: the player, or in an auction each who may still bid or pass (the
    #: highest bidder is not asked to outbid themselves), in seat order
    asked: tuple[str, ...]
    #: the answers on offer, in the engine's order
    answers: tuple[Answer, ...]
    #: the square it is about (the one to buy, auction or roll for; the Birthday square)
    square: int | None = None
    #: the deeds received mortgaged (lift_mortgages), the squares to choose from
    squares: tuple[int, ...] = ()
    #: buy: the printed price
    price: int = 0
    #: debt: what is owed; birthday_gift: the money gift
    amount: int = 0
    #: debt: whom it is owed to (None: the bank) and why ("rent", "tax", ...)
    creditor: str | None = None
    reason: str | None = None
    #: draw: the deck ("chance", "community_chest", "bus_tickets")
    deck: str | None = None
    #: roll_for_rent: the card's multiplier (0: the utility's own)
    multiplier: int = 0
    #: building_auction, place_building: "house", "hotel", ...
    building: str | None = None
    #: choose_square: what the square is chosen for ("triple", "auction")
    purpose: str | None = None
    #: auctions: the highest bid so far, its bidder, who left, the squares auctioned next
    highest: int = 0
    bidder: str | None = None
    passed: tuple[str, ...] = ()
    queue: tuple[int, ...] = ()
    #: the auction's clock, while someone holds the highest bid (the session's writer
    #: closes the auction when it runs out)
    clock: Clock | None = None
    #: what follows by itself once it is settled ("mr_monopoly", "bus": the speed die)
    then: tuple[str, ...] = ()

    @property
    def auction(self) -> bool:
        """Whether each bidder answers for themselves (an auction of a deed or a building)."""
        return self.kind in AUCTIONS

    def answer(self, verb: str, by: str | None = None, gift: str | None = None) -> Answer | None:
        """The answer `verb` that `by` may give (None: the banker's, as the gavel), with the
        gift `gift` when given; None when it is not on offer."""
        return next((a for a in self.answers if a.do == verb and a.by == by
                     and (gift is None or a.gift == gift)), None)

    def answers_of(self, player: str | None) -> tuple[Answer, ...]:
        """The answers `player` may give."""
        return tuple(a for a in self.answers if player is not None and a.by == player)

    def for_button(self, button: str) -> Answer | None:
        """The answer a panel button gives now as it stands (a bid: the next step up)."""
        return next((a for a in self.answers if a.button == button), None)

    def offers(self, command: Mapping[str, Any] | Any) -> bool:
        """Whether `command` (its JSON, or a typed command with `to_json`) is one of the
        answers on offer: its verb, sender and gift, and its square or amount allowed."""
        raw = command if isinstance(command, Mapping) else command.to_json()
        by, square, amount = raw.get("by"), raw.get("square"), raw.get("amount")
        return any(a.do == raw.get("do") and a.by == by and a.gift == raw.get("gift")
                   and a.takes(square if isinstance(square, int) else None,
                               amount if isinstance(amount, int) else None)
                   for a in self.answers)

    def command(self, verb: str, by: str | None = None, *, square: int | None = None,
                amount: int | None = None, gift: str | None = None) -> JSON | None:
        """The command answering with `verb` for `by` (the square or amount chosen); None
        when that answer or choice is not on offer."""
        answer = self.answer(verb, by, gift)
        return answer.command(square, amount) if answer is not None else None


def asked_anew(before: Decision | None, after: Decision | None) -> bool:
    """Whether `after` is another decision than `before`, or asked of someone else (its
    kind or its player differ): what held the panel's buttons for the old one (a bank
    card) ends with it, on the screen and a headless table alike."""
    return _asker(before) != _asker(after)


def about_anew(before: Decision | None, after: Decision | None) -> bool:
    """Whether `after` is about something else than `before` (its kind, its square or the
    highest bid differ): a bid dialled above the next one and a square in focus were for
    the old one.

    >>> buy = Decision("buy", "Ann", ("Ann",), (), square=5)
    >>> about_anew(buy, buy), about_anew(buy, None), asked_anew(buy, Decision("buy", "Bo",
    ...                                                                      ("Bo",), ()))
    (False, True, True)
    """
    return _subject(before) != _subject(after)


def _asker(decision: Decision | None) -> tuple[str | None, str | None]:
    return (None, None) if decision is None else (decision.kind, decision.player)


def _subject(decision: Decision | None) -> tuple[str | None, int | None, int]:
    return (None, None, 0) if decision is None else \
        (decision.kind, decision.square, decision.highest)


def auction_asked(moves: Sequence[Offered], bidder: Any) -> tuple[str, ...]:
    """Who an auction asks now: each who may still bid or pass, in seat order (the engine
    lists its offers so), the highest bidder left out."""
    asked: list[str] = []
    for move in moves:
        by = move.by
        if move.do in ("bid", "pass") and by is not None and by != bidder and by not in asked:
            asked.append(by)
    return tuple(asked)


def _button(move: Offered, buttons: Mapping[str, JSON | None]) -> str | None:
    """The panel button whose command gives this answer now (companion.game.table.buttons)."""
    for button, command in buttons.items():
        if command is not None and command.get("do") == move.do and \
                command.get("by") == move.by and command.get("gift") == move.gift:
            return button
    return None


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(v for v in value if isinstance(v, int) and not isinstance(v, bool)) \
        if isinstance(value, list | tuple) else ()


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list | tuple) \
        else ()


def decision_of(state: Mapping[str, Any], moves: Sequence[Offered],
                buttons: Mapping[str, JSON | None], clock: Clock | None = None
                ) -> Decision | None:
    """The decision of a public state JSON (None: none is pending), its answers read from
    the engine's offers `moves`, their buttons from `buttons` (what each panel button
    sends now), `clock` the auction's.

    >>> class Offer:
    ...     def __init__(self, do): self.do, self.by, self.correction = do, "Ann", False
    ...     squares, low, high, gift = (), None, None, None
    ...     def command(self, **fields): return {"do": self.do, "by": "Ann", **fields}
    >>> d = decision_of({"pending": {"kind": "buy", "player": "Ann", "square": 5,
    ...                              "price": 200}}, [Offer("buy"), Offer("decline"),
    ...                  Offer("mortgage")], {"yes": {"do": "buy", "by": "Ann"}})
    >>> d.kind, d.asked, d.price, [(a.do, a.button) for a in d.answers]
    ('buy', ('Ann',), 200, [('buy', 'yes'), ('decline', None)])
    """
    pending = state.get("pending")
    if not isinstance(pending, Mapping) or not isinstance(pending.get("kind"), str):
        return None
    kind: str = pending["kind"]
    player = _str(pending.get("player"))
    verbs = ANSWERS.get(kind)
    auction = kind in AUCTIONS
    bidder = _str(pending.get("bidder"))
    answers = tuple(  # the highest bidder is not offered to outbid themselves
        Answer.of(m, _button(m, buttons)) for m in moves
        if not m.correction and (verbs is None or m.do in verbs)
        and ((m.by != bidder or m.do != "bid") if auction else m.by == player))
    asked = auction_asked(moves, bidder) if auction else (player,) if player else ()
    waiting = state.get("waiting")
    then = tuple(str(w.get("kind")) for w in waiting if isinstance(w, Mapping)) \
        if isinstance(waiting, list) else ()
    square = pending.get("square")
    decision = object.__new__(Decision)  # its fields set in one step (`Answer.of`)
    decision.__dict__.update(
        kind=kind, player=player, asked=asked, answers=answers,
        square=square if isinstance(square, int) and not isinstance(square, bool) else None,
        squares=_ints(pending.get("squares")), price=_int(pending.get("price")),
        amount=_int(pending.get("amount")), creditor=_str(pending.get("creditor")),
        reason=_str(pending.get("reason")), deck=_str(pending.get("deck")),
        multiplier=_int(pending.get("multiplier")), building=_str(pending.get("building")),
        purpose=_str(pending.get("for")), highest=_int(pending.get("highest")),
        bidder=bidder, passed=_strs(pending.get("passed")), queue=_ints(pending.get("queue")),
        clock=clock if auction and bidder is not None else None, then=then)
    return decision
