"""Guided registration: "tap the card for Rue de Paradis", one card after the other.

A RegistrationFlow is a list of steps (role + label). The screen and phone show `prompt`,
taps go to `on_tag`, and `skip` / `back` move along. Flows are built from the edition data
or the state JSON: every deed in board order, every Chance / Community Chest card, the bank
cards, the banker card. Pure apart from the registry it writes to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from hardware.registry import TagKind, TagRegistry, TagRole

OWNABLE = {"lot", "station", "utility"}


@dataclass(frozen=True)
class Step:
    """One card to register."""

    role: TagRole
    label: str


@dataclass(frozen=True)
class StepResult:
    """What a tap did: the message to show, and whether it registered the card."""

    message: str
    registered: bool
    done: bool


def deed_steps(squares: Iterable[Mapping[str, Any]]) -> list[Step]:
    """Every ownable square's deed in board order (edition squares or state squares)."""
    steps = []
    for square in squares:
        if square.get("kind", "lot") in OWNABLE and square.get("id"):
            role = TagRole(TagKind.DEED, square=str(square["id"]))
            steps.append(Step(role, str(square.get("name", square["id"]))))
    return steps


def deck_steps(decks: Mapping[str, Mapping[str, Any]], deck: str | None = None) -> list[Step]:
    """Every card of one deck (or of all decks), from the edition's "decks"."""
    steps = []
    for deck_id, data in decks.items():
        if deck is not None and deck_id != deck:
            continue
        name = data.get("name", deck_id)
        for card in data.get("cards", []):
            text = str(card.get("text", card["id"]))
            short = text if len(text) <= 48 else text[:47] + "…"
            role = TagRole(TagKind.CARD, deck=deck_id, card=str(card["id"]))
            steps.append(Step(role, f"{name}: {short}"))
    return steps


def bank_card_steps(count: int) -> list[Step]:
    """Bank cards 1 to `count`."""
    return [
        Step(TagRole(TagKind.BANK_CARD, number=n), f"bank card {n}") for n in range(1, count + 1)
    ]


def banker_step() -> list[Step]:
    """The banker card."""
    return [Step(TagRole(TagKind.BANKER), "the banker card")]


class RegistrationFlow:
    """Walks through steps, registering one tapped tag per step."""

    def __init__(self, registry: TagRegistry, steps: list[Step], title: str = "") -> None:
        self.registry = registry
        self.steps = steps
        self.title = title
        self.index = 0
        self._tapped: dict[str, int] = {}  # tag -> step index registered in this flow

    @property
    def done(self) -> bool:
        """True once every step is registered or skipped."""
        return self.index >= len(self.steps)

    @property
    def current(self) -> Step | None:
        """The step waiting for a tap."""
        return None if self.done else self.steps[self.index]

    def prompt(self) -> str:
        """What the screen says now."""
        step = self.current
        if step is None:
            return f"All {len(self.steps)} cards registered."
        return f"Tap the card for {step.label} ({self.index + 1} of {len(self.steps)})"

    def on_tag(self, tag: str) -> StepResult:
        """Register `tag` for the current step, unless it was just used in this flow."""
        step = self.current
        if step is None:
            return StepResult(self.prompt(), False, True)
        earlier = self._tapped.get(tag)
        if earlier is not None and earlier != self.index:
            label = self.steps[earlier].label
            return StepResult(f"That card is already {label}. {self.prompt()}", False, False)
        previous = self.registry.register(tag, step.role)
        self._tapped[tag] = self.index
        note = ""
        if previous is not None and previous.key() != step.role.key():
            note = f" (it was {describe(previous)} before)"
        self.index += 1
        message = f"{step.label} registered{note}. " + self.prompt()
        return StepResult(message, True, self.done)

    def skip(self) -> str:
        """Leave the current card unregistered; the new prompt."""
        if not self.done:
            self.index += 1
        return self.prompt()

    def back(self) -> str:
        """Go back one card (to register it again); the new prompt."""
        self.index = max(0, self.index - 1)
        return self.prompt()


def describe(role: TagRole) -> str:
    """A short human description of a role.

    >>> describe(TagRole(TagKind.BANK_CARD, number=2, player="Bo"))
    "Bo's bank card (2)"
    """
    if role.kind is TagKind.BANK_CARD:
        owner = f"{role.player}'s bank card" if role.player else "bank card"
        return f"{owner} ({role.number})"
    if role.kind is TagKind.DEED:
        return f"the deed {role.square}"
    if role.kind is TagKind.CARD:
        return f"the {role.deck} card {role.card}"
    return "the banker card"
