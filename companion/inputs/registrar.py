"""The registration hook shared by the readers' pump, the table screen and the phones.

One `Registrar` owns the tag registry and at most one guided registration run
(companion.inputs.registration). The screen's banker menu and the phone's banker page `start` a run
("all deeds in board order", a deck, the bank cards, the banker card); while it is active
the input pump sends every tap to `tap` instead of the game, and the panel's buttons to
`press` (NO skips, UNDO goes back, MENU stops, YES / NO answer "move this card?"). Anyone
may read `status(lang)`: the current step with its name in `lang`, the progress, the
prompt in `lang` and the last result. Every sentence is the catalog's
(companion.words.input_texts): a press's StepResult message in the source language for the
log, what a screen or phone shows in its own. Listeners hear about every change (the
screen redraws, phones refresh).

It is also the web remote's config "tags": `list()`, `register(tag, meaning)`, `start`,
`status`, `cancel`, `skip`, `confirm`. Thread-safe: every method may be called from any
thread; listeners are called outside the lock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from companion.game.api import JSON
from companion.game.table.records import Setup, seats
from companion.inputs.registration import (
    FlowKind,
    RegistrationFlow,
    StepResult,
    describe,
    flow_kinds,
    steps_for,
)
from companion.inputs.registry import TagKind, TagRegistry, TagRole
from companion.words import catalog as i18n
from companion.words.input_texts import input_text

log = logging.getLogger(__name__)

DEFAULT_EDITION = "classic-eur"
CARD_NAME_MAX = 60


def role_json(role: TagRole) -> JSON:
    """A role as the registry stores it (kind, number, square, deck, card)."""
    return role.to_json()


class Registrar:
    """The registry plus the running registration; see the module doc.

    game: returns the public state (its "edition" and players decide the steps); None or a
    state without a game means `default_edition` and the edition's most players.
    """

    def __init__(self, registry: TagRegistry, game: Callable[[], Mapping[str, Any]] | None = None,
                 default_edition: str = DEFAULT_EDITION) -> None:
        self.registry = registry
        self._game = game or (lambda: {})
        self.default_edition = default_edition
        self._lock = threading.RLock()
        self._flow: RegistrationFlow | None = None
        self._kind: FlowKind | None = None
        self._edition = default_edition
        self._last: JSON | None = None
        self._finished = False
        self._listeners: list[Callable[[], None]] = []

    # -- listeners ----------------------------------------------------------------------

    def add_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` after every change; returns a function that removes it."""
        with self._lock:
            self._listeners.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return remove

    def _changed(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for callback in listeners:
            try:
                callback()
            except Exception:  # noqa: BLE001 - a broken listener never stops registration
                log.exception("registration listener failed")

    # -- the edition ----------------------------------------------------------------------

    def edition_id(self) -> str:
        """The edition of the game on the table (else the default one)."""
        try:
            state = self._game()
        except Exception:  # noqa: BLE001 - no session: register for the default edition
            state = {}
        return Setup.of(state).edition or self.default_edition

    def kinds(self) -> list[str]:
        """The runs on offer for the edition on the table, in menu order."""
        return [k.value for k in flow_kinds(i18n.edition_data(self.edition_id()))]

    def name(self, role: TagRole, lang: str = i18n.SOURCE_LANGUAGE) -> str | None:
        """A deed's or card's name as the edition prints it in `lang` (None for bank and
        banker cards, which each screen words itself)."""
        key = role.square if role.kind is TagKind.DEED else role.card
        if key is None:
            return None
        edition = self._edition if self._flow is not None else self.edition_id()
        try:
            name = i18n.localized_name(edition, key, lang)
        except KeyError:
            return key
        if role.kind is TagKind.CARD:
            try:
                deck = i18n.localized_name(edition, str(role.deck), lang)
            except KeyError:
                deck = str(role.deck)
            if len(name) > CARD_NAME_MAX:
                name = name[: CARD_NAME_MAX - 1].rstrip() + "…"
            name = f"{deck}: {name}"
        return name

    def describe(self, role: TagRole, lang: str = i18n.SOURCE_LANGUAGE) -> JSON:
        """A role for a screen: its fields plus `name` in `lang` (deeds and cards)."""
        return {**role_json(role), "name": self.name(role, lang)}

    # -- the web remote's hook --------------------------------------------------------------

    def list(self, lang: str = i18n.SOURCE_LANGUAGE) -> list[JSON]:
        """Every registered tag with what it stands for, in `lang`'s words."""
        out = []
        for tag, role in sorted(self.registry.all().items()):
            info = self.describe(role, lang)
            meaning = info["name"] or describe(role, lang)
            out.append({"tag": tag, "meaning": meaning, "role": role_json(role)})
        return out

    def register(self, tag: str, meaning: str) -> TagRole:
        """Register one tag by a typed meaning: "banker", "bank:3", "deed:<square id>",
        "<deck>:<card id>" (e.g. "chance:chance-dividend"); ValueError if not understood."""
        role = parse_meaning(meaning, i18n.edition_data(self.edition_id()))
        self.registry.register(tag.strip(), role)
        self._changed()
        return role

    # -- the guided run ------------------------------------------------------------------

    @property
    def active(self) -> bool:
        """A run is waiting for taps."""
        with self._lock:
            return self._flow is not None

    def start(self, kind: str) -> JSON:
        """Start a run of `kind` (a FlowKind value), replacing any run; the new status.
        ValueError for a kind this edition does not offer."""
        flow_kind = FlowKind(kind)
        edition_id = self.edition_id()
        edition = i18n.edition_data(edition_id)
        if flow_kind not in flow_kinds(edition):
            raise ValueError(f"{edition_id} has no {kind}")
        try:
            players = len(seats(self._game()))
        except Exception:  # noqa: BLE001
            players = 0
        steps = steps_for(flow_kind, edition, players)
        with self._lock:
            self._flow = RegistrationFlow(self.registry, steps, flow_kind.value, self.name)
            self._kind, self._edition = flow_kind, edition_id
            self._last, self._finished = None, False
        self._changed()
        return self.status()

    def cancel(self) -> JSON:
        """Stop the run (what is registered stays registered)."""
        with self._lock:
            if self._flow is not None:
                self._last = {"outcome": "stopped"}
            self._flow = None
        self._changed()
        return self.status()

    def skip(self) -> JSON:
        """Leave the current card out (or, when asked about a card, keep it as it is)."""
        return self._move("skip")

    def back(self) -> JSON:
        """Go back one card."""
        return self._move("back")

    def confirm(self, yes: bool) -> JSON:
        """Answer "that card is X: make it Y?"."""
        with self._lock:
            flow = self._flow
            if flow is None or flow.asking is None:
                return self.status()
            tag = flow.asking[0]
            result = flow.confirm(yes)
            self._record(tag, result)
        self._changed()
        return self.status()

    def _move(self, how: str) -> JSON:
        with self._lock:
            flow = self._flow
            if flow is None:
                return self.status()
            if how == "skip" and flow.asking is not None:
                tag = flow.asking[0]
                self._record(tag, flow.confirm(False))
            elif how == "skip":
                step = flow.current
                flow.skip()
                self._last = {"outcome": "skipped", "role": role_json(step.role) if step else None}
            else:
                flow.back()
                self._last = {"outcome": "back"}
            self._finish_if_done()
        self._changed()
        return self.status()

    def tap(self, tag: str) -> StepResult | None:
        """A tapped card while a run is active (None when none is: the tap is the game's)."""
        with self._lock:
            flow = self._flow
            if flow is None:
                return None
            result = flow.on_tag(tag)
            self._record(tag, result)
        self._changed()
        return result

    def press(self, button: str) -> StepResult | None:
        """A panel button while a run is active (None when none is): NO skips the card (or
        keeps it, when asked), UNDO goes back one card, MENU stops, YES moves the card when
        asked; the screen's keys and touch buttons send the same names."""
        with self._lock:
            flow = self._flow
            if flow is None:
                return None
            asking = flow.asking is not None
        if button == "menu":
            self.cancel()
            return StepResult(input_text("reg_stopped", i18n.SOURCE_LANGUAGE), False, True,
                              "stopped")
        if button == "undo":
            self.back()
        elif button == "no":
            self.skip()
        elif button == "yes" and asking:
            self.confirm(True)
        with self._lock:
            flow = self._flow
            message = flow.prompt() if flow is not None else \
                input_text("reg_finished", i18n.SOURCE_LANGUAGE)
        return StepResult(message, False, flow is None, (self._last or {}).get("outcome", ""))

    def _record(self, tag: str, result: StepResult) -> None:
        """Remember the last result for the status (lock held)."""
        flow = self._flow
        assert flow is not None
        step = flow.steps[flow.index - 1] if result.registered else flow.current
        last: JSON = {"outcome": result.outcome, "tag": tag,
                      "role": role_json(step.role) if step else None}
        if result.outcome == "same_card":
            earlier = self.registry.lookup(tag)
            last["was"] = role_json(earlier) if earlier else None
        self._last = last
        self._finish_if_done()

    def _finish_if_done(self) -> None:
        if self._flow is not None and self._flow.done:
            self._flow, self._finished = None, True

    def status(self, lang: str = i18n.SOURCE_LANGUAGE) -> JSON:
        """The run as the screen and phones show it (names in `lang`):

        active, kind, position (1-based), total, step (the card to tap: kind, number,
        square, deck, card, name), asking ({"tag", "was"}: a card to confirm moving), last
        (outcome registered / moved / kept / same_card / skipped / back / stopped, with its
        tag and role), finished (the run went through every card), prompt (in `lang`).
        """
        with self._lock:
            flow, kind, last = self._flow, self._kind, dict(self._last or {})
            if flow is None:
                return {"active": False, "kind": kind.value if kind else None,
                        "finished": self._finished, "last": self._named(last, lang),
                        "kinds": self.kinds()}
            step = flow.current
            asking = flow.asking
            return {
                "active": True,
                "kind": kind.value if kind else None,
                "position": min(flow.index + 1, len(flow.steps)),
                "total": len(flow.steps),
                "step": self.describe(step.role, lang) if step else None,
                "asking": {"tag": asking[0], "was": self.describe(asking[1], lang)}
                if asking else None,
                "last": self._named(last, lang),
                "finished": False,
                "prompt": flow.prompt(lang),
                "kinds": self.kinds(),
            }

    def _named(self, last: JSON, lang: str) -> JSON | None:
        if not last:
            return None
        for key in ("role", "was"):
            if isinstance(last.get(key), dict):
                last[key] = self.describe(TagRole.from_json(last[key]), lang)
        return last


def parse_meaning(meaning: str, edition: Mapping[str, Any]) -> TagRole:
    """A typed meaning as a role (see Registrar.register).

    >>> parse_meaning("bank:2", {})
    TagRole(kind=<TagKind.BANK_CARD: 'bank_card'>, number=2, player=None, square=None, \
deck=None, card=None)
    >>> parse_meaning("banker", {}).kind.value
    'banker'
    """
    head, _, rest = meaning.strip().partition(":")
    head, rest = head.strip().lower(), rest.strip()
    if head == "banker" and not rest:
        return TagRole(TagKind.BANKER)
    if head in ("bank", "bank_card", "card") and rest.isdigit() and int(rest) > 0:
        return TagRole(TagKind.BANK_CARD, number=int(rest))
    squares = {str(s.get("id")) for s in edition.get("squares") or []}
    if head == "deed" and (rest in squares or not squares) and rest:
        return TagRole(TagKind.DEED, square=rest)
    decks = edition.get("decks") or {}
    if head in decks and any(c.get("id") == rest for c in decks[head].get("cards") or []):
        return TagRole(TagKind.CARD, deck=head, card=rest)
    raise ValueError(f"not a card meaning: {meaning!r} (banker, bank:N, deed:<square>, "
                     f"<deck>:<card>)")
