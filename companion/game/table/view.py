"""The typed view of the table that every face renders: built once per version (and per
change of the open offers) by the session, read by the screen, the phones and a headless
table alike.

It says whose turn it is, what each person is being asked now (a decision of the game, a
bid in an auction, an offer waiting for them), the open offers, the clocks, and what each
of the panel's game buttons would send now (companion.game.table.buttons). A face that
renders it needs no rule of its own: who acts, what a press means and when an offer lapses
are decided here and below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.game.table.buttons import GAME_BUTTONS, command_for
from companion.game.table.offers import put_to

JSON = dict[str, Any]
#: decisions several players answer at once, each for themselves (their own bid or pass)
AUCTIONS = ("auction", "building_auction")


def waiting_on(state: Mapping[str, Any]) -> str | None:
    """The named player other than the current one whose decision is on the table now
    (a debt to raise money for, mortgages to lift or keep, a building to place), which only
    their own phone or bank card answers; None when it is the current player's, nobody's
    or an auction's (each bidder answers for themselves).

    >>> waiting_on({"current": "Cy", "pending": {"kind": "debt", "player": "Bo"}})
    'Bo'
    >>> waiting_on({"current": "Bo", "pending": {"kind": "debt", "player": "Bo"}}) is None
    True
    """
    pending = state.get("pending") or {}
    who = pending.get("player")
    if not isinstance(who, str) or who == state.get("current") or \
            pending.get("kind") in AUCTIONS:
        return None
    return who


@dataclass(frozen=True)
class Asked:
    """One thing one person is being asked now: `what` is the pending decision's kind
    ("buy", "debt", "auction", ...) or "offer" (a trade offered to them: `offer` is its
    id)."""

    player: str
    what: str
    offer: str | None = None


@dataclass(frozen=True)
class Clock:
    """A clock of the table: when it runs out (epoch seconds) and the whole seconds left
    when the view was read."""

    ends_at: float
    seconds_left: int


@dataclass(frozen=True)
class TableView:
    """The table as every face renders it; see the module doc."""

    version: int
    current: str | None
    winner: str | None
    #: what each person is asked now, the game's decisions first, then the offers
    asked: tuple[Asked, ...]
    #: the open offers, oldest first ({"id", "from", "to", "give", "take", ...})
    offers: tuple[Mapping[str, Any], ...]
    #: the auction's clock (while someone holds the highest bid) and the timed game's
    auction_clock: Clock | None
    game_clock: Clock | None
    #: what ROLL, YES, NO and PASS GO send now for whoever decides (None: nothing)
    buttons: Mapping[str, JSON | None]
    #: the named player other than the current one whose decision is on the table (their
    #: own phone or bank card answers it), else None
    waiting_on: str | None
    #: the public state the view was built from, for `press` with the dial's steps
    _state: Mapping[str, Any]

    def asked_of(self, player: str) -> tuple[Asked, ...]:
        """What `player` is being asked now."""
        return tuple(a for a in self.asked if a.player == player)

    def press(self, button: str, steps: int = 0) -> JSON | None:
        """What `button` sends now; a bid `steps` steps above the next one (the dial)."""
        if steps and button == "yes":
            return command_for(self._state, button, steps)
        return self.buttons.get(button)


def _clock(raw: Any) -> Clock | None:
    if not isinstance(raw, Mapping) or "ends_at" not in raw:
        return None
    return Clock(float(raw["ends_at"]), int(raw.get("seconds_left") or 0))


def build(state: Mapping[str, Any], offers: Sequence[Mapping[str, Any]] = ()) -> TableView:
    """The view of a public state JSON (docs/state-json.md) and the open offers.

    >>> view = build({"version": 3, "current": "Ann", "pending": {"kind": "buy",
    ...     "player": "Ann"}, "legal": [{"do": "buy", "by": "Ann"}]},
    ...     [{"id": "o1", "from": "Bo", "to": "Cy", "give": {"cash": 5}, "take": {}}])
    >>> view.asked, view.buttons["yes"]
    ((Asked(player='Ann', what='buy', offer=None), Asked(player='Cy', what='offer', \
offer='o1')), {'do': 'buy', 'by': 'Ann'})
    """
    pending = state.get("pending") or {}
    asked: list[Asked] = []
    kind = pending.get("kind")
    if kind in AUCTIONS:  # each who may still bid or pass, in seat order (the highest
        for entry in state.get("legal") or []:  # bidder is not asked to outbid themselves)
            by = entry.get("by")
            if entry.get("do") in ("bid", "pass") and isinstance(by, str) and \
                    by != pending.get("bidder") and all(a.player != by for a in asked):
                asked.append(Asked(by, str(kind)))
    elif kind and isinstance(pending.get("player"), str):
        asked.append(Asked(pending["player"], str(kind)))
    asked += [Asked(to, "offer", str(offer.get("id"))) for to, offer in put_to(offers).items()]
    current, winner = state.get("current"), state.get("winner")
    return TableView(
        version=int(state.get("version") or 0),
        current=current if isinstance(current, str) else None,
        winner=winner if isinstance(winner, str) else None,
        asked=tuple(asked), offers=tuple(dict(o) for o in offers),
        auction_clock=_clock(state.get("auction_clock")) if pending.get("bidder") else None,
        game_clock=_clock(state.get("clock")),
        buttons={b: command_for(state, b) for b in GAME_BUTTONS},
        waiting_on=waiting_on(state), _state=state)
