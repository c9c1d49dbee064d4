"""Guided registration: "tap the card for Rue de Paradis", one card after the other.

A RegistrationFlow is a list of steps (role + label). The screen and phone show `prompt`,
taps go to `on_tag`, and `skip` / `back` move along. A tag already registered to another
card is not moved silently: the flow asks (`asking`), and `confirm(True)` moves it while
`confirm(False)` keeps it and waits for another card. Flows are built from the edition data
(`steps_for`): every deed in board order, one deck's cards, the bank cards, the banker
card. Pure apart from the registry it writes to; companion.inputs.registrar makes it thread-safe.

Every sentence is the one catalog's (companion.words.input_texts): `prompt(lang)` in any of
the seven languages, a StepResult's `message` in the source language for the log (each
screen says the outcome in its own words). A deed's or card's name in a language comes from
`namer` (the registrar's: the edition's names in that language), else the step's label.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.inputs.registry import TagKind, TagRegistry, TagRole
from companion.words.catalog import SOURCE_LANGUAGE
from companion.words.input_texts import input_text

OWNABLE = {"lot", "station", "utility"}
DEFAULT_BANK_CARDS = 6
#: a deed's or card's name in a language (None: not known, the step's label is used)
Namer = Callable[[TagRole, str], "str | None"]


class FlowKind(Enum):
    """What a registration run walks through (the banker menu's choices)."""

    DEEDS = "deeds"
    """Every title deed, in board order."""
    CHANCE = "chance"
    """Every Chance card."""
    COMMUNITY_CHEST = "community_chest"
    """Every Community Chest card."""
    BUS_TICKETS = "bus_tickets"
    """Every bus ticket (Mega editions only)."""
    BANK_CARDS = "bank_cards"
    """The players' bank cards, 1 to the number of players."""
    BANKER = "banker"
    """The banker card."""


@dataclass(frozen=True)
class Step:
    """One card to register."""

    role: TagRole
    label: str


@dataclass(frozen=True)
class StepResult:
    """What a tap did: the message to show, whether it registered the card, whether the
    flow is finished, and `outcome` (registered, same_card, asking, finished) for screens
    that say it in their own words."""

    message: str
    registered: bool
    done: bool
    outcome: str = "registered"


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
    return [Step(role, describe(role)) for role in
            (TagRole(TagKind.BANK_CARD, number=n) for n in range(1, count + 1))]


def banker_step() -> list[Step]:
    """The banker card."""
    role = TagRole(TagKind.BANKER)
    return [Step(role, describe(role))]


def flow_kinds(edition: Mapping[str, Any]) -> list[FlowKind]:
    """The registration runs this edition offers (bus tickets only where it has them)."""
    decks = edition.get("decks") or {}
    return [k for k in FlowKind if k is not FlowKind.BUS_TICKETS or k.value in decks]


def steps_for(kind: FlowKind, edition: Mapping[str, Any], players: int = 0) -> list[Step]:
    """The steps of one registration run for `edition` (its JSON data); `players`: how many
    bank cards (0: the edition's most players, else DEFAULT_BANK_CARDS)."""
    if kind is FlowKind.DEEDS:
        return deed_steps(edition.get("squares") or [])
    if kind is FlowKind.BANK_CARDS:
        most = int((edition.get("players") or {}).get("max", DEFAULT_BANK_CARDS))
        return bank_card_steps(players or most)
    if kind is FlowKind.BANKER:
        return banker_step()
    return deck_steps(edition.get("decks") or {}, kind.value)


class RegistrationFlow:
    """Walks through steps, registering one tapped tag per step."""

    def __init__(self, registry: TagRegistry, steps: list[Step], title: str = "",
                 namer: Namer | None = None) -> None:
        self.registry = registry
        self.steps = steps
        self.title = title
        self.namer = namer
        self.index = 0
        self.asking: tuple[str, TagRole] | None = None  # (tag, what it is now) to confirm
        self._tapped: dict[str, int] = {}  # tag -> step index registered in this flow

    @property
    def done(self) -> bool:
        """True once every step is registered or skipped."""
        return self.index >= len(self.steps)

    @property
    def current(self) -> Step | None:
        """The step waiting for a tap."""
        return None if self.done else self.steps[self.index]

    def name(self, role: TagRole, lang: str = SOURCE_LANGUAGE) -> str:
        """A card of this run (or any role) as `lang` names it."""
        if role.kind in (TagKind.BANK_CARD, TagKind.BANKER):
            return describe(role, lang)
        named = self.namer(role, lang) if self.namer is not None else None
        if named:
            return named
        step = next((s for s in self.steps if s.role.key() == role.key()), None)
        return step.label if step is not None else describe(role, lang)

    def prompt(self, lang: str = SOURCE_LANGUAGE) -> str:
        """What the screen says now, in `lang`."""
        step = self.current
        if step is None:
            return input_text("reg_finished", lang)
        name = self.name(step.role, lang)
        if self.asking is not None:
            return input_text("reg_asking", lang, was=self.name(self.asking[1], lang), name=name)
        return input_text("reg_tap_of", lang, name=name, position=self.index + 1,
                          total=len(self.steps))

    def _said(self, key: str, **roles: TagRole) -> str:
        """An outcome's sentence (the source language: the log's) and the prompt after it."""
        names = {k: self.name(role) for k, role in roles.items()}
        return f"{input_text(key, SOURCE_LANGUAGE, **names)}. {self.prompt()}"

    def on_tag(self, tag: str) -> StepResult:
        """Register `tag` for the current step; a card just used in this flow is refused,
        and a card registered to something else is asked about first."""
        step = self.current
        if step is None:
            return StepResult(self.prompt(), False, True, "finished")
        self.asking = None
        earlier = self._tapped.get(tag)
        if earlier is not None and earlier != self.index:
            message = self._said("reg_same_card", was=self.steps[earlier].role)
            return StepResult(message, False, False, "same_card")
        previous = self.registry.lookup(tag)
        if earlier is None and previous is not None and previous.key() != step.role.key():
            self.asking = (tag, previous)
            return StepResult(self.prompt(), False, False, "asking")
        return self._register(tag, step)

    def confirm(self, yes: bool) -> StepResult:
        """Answer the question about a card registered to something else."""
        step, asking = self.current, self.asking
        self.asking = None
        if step is None or asking is None:
            return StepResult(self.prompt(), False, self.done, "finished" if self.done else "")
        if not yes:
            return StepResult(self._said("reg_kept", was=asking[1]), False, False, "kept")
        return self._register(asking[0], step, moved_from=asking[1])

    def _register(self, tag: str, step: Step, moved_from: TagRole | None = None) -> StepResult:
        self.registry.register(tag, step.role)
        self._tapped[tag] = self.index
        self.index += 1
        if moved_from is not None:
            message = self._said("reg_moved", name=step.role, was=moved_from)
        else:
            message = self._said("reg_registered", name=step.role)
        return StepResult(message, True, self.done, "moved" if moved_from else "registered")

    def skip(self) -> str:
        """Leave the current card unregistered; the new prompt."""
        self.asking = None
        if not self.done:
            self.index += 1
        return self.prompt()

    def back(self) -> str:
        """Go back one card (to register it again); the new prompt."""
        self.asking = None
        self.index = max(0, self.index - 1)
        return self.prompt()


def describe(role: TagRole, lang: str = SOURCE_LANGUAGE) -> str:
    """A role in `lang`, from the catalog: a bank card (its owner's when it has one), the
    banker card; a deed or card by its id (a screen names them from its edition).

    >>> describe(TagRole(TagKind.BANK_CARD, number=2, player="Bo"))
    "Bo's bank card (2)"
    >>> describe(TagRole(TagKind.BANK_CARD, number=3), "nl")
    'bankpas 3'
    """
    if role.kind is TagKind.BANK_CARD:
        if role.player:
            return input_text("reg_players_bank_card", lang, player=role.player,
                              number=role.number)
        return input_text("reg_bank_card", lang, number=role.number)
    if role.kind is TagKind.DEED:
        return str(role.square)
    if role.kind is TagKind.CARD:
        return f"{role.deck}: {role.card}"
    return input_text("reg_banker_card", lang)
