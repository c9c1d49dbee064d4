"""The gestures the hardware starts by itself, between two events: a bank card tapped (a
deed or another card follows; an offer waiting for its owner is put to them), an amount
being entered after a card tap (a bid, a payment), a bus ticket's ride being picked.

How dice, amounts and squares are entered is companion.inputs.entry's (the one flow, the
screen's too); these only say what the hardware started. Every mode remembers the state
version it started at; when the game moves on (another input changed the state) the mode
is dropped rather than acting on a table that changed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class AmountEntry:
    """Entering an amount with the knob (or the phone's keypad): a transfer or a bid.
    `amount` is what YES sends now (the knob's steps are the entry's bid_steps)."""

    version: int
    purpose: str  # "transfer" or "bid"
    player: str  # who pays or bids
    payee: str | None = None  # transfer: who receives
    amount: int = 0


@dataclass
class CardTapped:
    """A bank card was tapped; a deed (rent / buy) or another bank card (transfer) follows."""

    version: int
    player: str


@dataclass
class OfferAsked:
    """A bank card was tapped while a trade offered to its owner waits: the offer is put to
    them (what each side gives); YES or the same card again accepts exactly this offer, a
    deed or another card goes on as after any bank card, NO cancels."""

    version: int
    player: str  # the card's owner, the offer's receiver
    offer: str  # the id of the offer put to them (companion.game.table.offers)


@dataclass
class RidePick:
    """A bus ticket was tapped: the square of its ride is being picked (the entry's bus
    ride and square in focus; knob or ROLL move, YES or a tap of the deed chooses)."""

    version: int


Mode = AmountEntry | CardTapped | OfferAsked | RidePick
