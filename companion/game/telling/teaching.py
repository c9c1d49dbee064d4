"""The teaching table: the first time a rule applies in a game, a lesson for the table and
for the player it concerns.

`lessons_in` finds, in what one command did (its typed events and the state after it), the
rules that applied for the first time in this game (`TOPICS`, in the order they are told).
`Teaching` keeps, per saved game, whether teaching is on and which lessons were given
(`<id>.teaching.json` beside the journal), so each lesson is given once per game, after a
restart too. The words of each lesson are companion.words.explaining.lessons'.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules import GameState
from companion.rules.edition import KIND_LOT
from companion.rules.events import (
    AuctionStarted,
    Bankrupt,
    Built,
    CardDrawn,
    Debt,
    Event,
    Jailed,
    Mortgaged,
    PassGo,
    Rolled,
    Traded,
    Transfer,
)

log = logging.getLogger(__name__)
JSON = dict[str, Any]

#: every lesson, in the order a command's lessons are told
TOPICS = ("go", "doubles", "rent", "station_rent", "utility_rent", "tax", "card", "jail",
          "full_group", "building", "shortage", "mortgage", "auction", "trade", "debt",
          "bankrupt")
SUFFIX = ".teaching.json"


@dataclass(frozen=True)
class Lesson:
    """A rule that applied for the first time in this game, and the player it concerns
    (None: the whole table)."""

    topic: str
    player: str | None = None

    def to_json(self) -> JSON:
        """The lesson as the state JSON's `teaching.lessons` lists it."""
        return {"topic": self.topic, "player": self.player}


def _rent_topic(event: Transfer) -> str | None:
    """Which rent lesson a rent payment teaches."""
    if event.reason != "rent":
        return None
    rule = event.why.rule if event.why is not None else ""
    if rule.startswith("rent_station"):
        return "station_rent"
    if rule.startswith("rent_utility"):
        return "utility_rent"
    return "rent"


def _full_groups(g: GameState) -> list[int]:
    """The owners (player indexes) of every complete colour group of lots, one per group."""
    owners = []
    for group in g.edition.groups.values():
        if not group or g.edition.squares[group[0]].kind is not KIND_LOT:
            continue
        first = g.owner[group[0]]
        if first >= 0 and all(g.owner[s] == first for s in group):
            owners.append(first)
    return owners


def lessons_in(events: Sequence[Event], after: GameState,
               given: frozenset[str] = frozenset()) -> list[Lesson]:
    """Every lesson what one command did could teach (whether given before or not), but
    that the state's walks (a full colour group, a shortage) are not made for a lesson in
    `given`: the session's writer makes them on every move otherwise."""
    found: dict[str, str | None] = {}

    def teach(topic: str, player: str | None) -> None:
        found.setdefault(topic, player)

    for e in events:
        if isinstance(e, PassGo):
            teach("go", e.player)
        elif isinstance(e, Rolled) and e.double:
            teach("doubles", e.player)
        elif isinstance(e, Transfer):
            topic = _rent_topic(e)
            if topic is not None:
                teach(topic, e.from_)
            elif e.reason == "tax":
                teach("tax", e.from_)
        elif isinstance(e, CardDrawn):
            teach("card", e.player)
        elif isinstance(e, Jailed):
            teach("jail", e.player)
        elif isinstance(e, Built):
            teach("building", e.player)
        elif isinstance(e, Mortgaged):
            teach("mortgage", e.player)
        elif isinstance(e, AuctionStarted):
            teach("auction", None)
        elif isinstance(e, Traded):
            teach("trade", None)
        elif isinstance(e, Debt):
            teach("debt", e.player)
        elif isinstance(e, Bankrupt):
            teach("bankrupt", e.player)
    groups = _full_groups(after) if "full_group" not in given else []
    if groups:
        teach("full_group", after.players[groups[0]].name)
    if "shortage" not in given and after.edition.houses and (
            after.bank_houses == 0 or after.bank_hotels == 0):
        teach("shortage", None)
    return [Lesson(t, found[t]) for t in TOPICS if t in found]


@dataclass(frozen=True)
class Step:
    """What one journaled move does to the teaching table (Teaching.plan)."""

    version: int
    on: bool
    given: frozenset[str]
    lessons: tuple[Lesson, ...]
    save: bool


class Teaching:
    """Whether a saved game teaches, and the lessons it gave; thread-safe.

    The state lives in `<id>.teaching.json` beside the game's journal, written atomically
    when it changes (a lesson given, teaching switched): at most one write per lesson.
    """

    def __init__(self, path: Path, on: bool, given: set[str],
                 latest: tuple[int, list[Lesson]] = (0, [])) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._on = on
        self._given = set(given)
        #: the version whose move gave lessons, and those lessons (shown while it stands)
        self._latest = latest
        #: how many times the teaching changed (taken steps, switches): a step planned
        #: ahead of its move holds while this has not moved (`plan_ahead`, `unchanged`)
        self._changes = 0

    @classmethod
    def beside(cls, journal: Path, first_game: bool) -> Teaching:
        """The teaching state of the game whose journal is `journal` (on by default for the
        first game of a data directory); a damaged file is taken as a fresh one."""
        path = journal.with_name(journal.name.rsplit(".", 1)[0] + SUFFIX)
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            on = raw["on"]
            given = raw["given"]
            if not isinstance(on, bool) or not isinstance(given, list):
                raise ValueError("not a teaching state")
            latest = raw.get("latest") or {}
            version = latest.get("version", 0)
            told = [Lesson(str(x["topic"]), x.get("player")) for x in latest.get("lessons", [])
                    if isinstance(x, dict) and x.get("topic") in TOPICS]
            return cls(path, on, {t for t in given if t in TOPICS},
                       (version if isinstance(version, int) else 0, told))
        except FileNotFoundError:
            return cls(path, first_game, set())
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("teaching state %s unreadable (%s): starting afresh", path, exc)
            return cls(path, first_game, set())

    @property
    def on(self) -> bool:
        """Whether lessons are given."""
        return self._on

    def plan(self, version: int, events: Sequence[Event], after: GameState,
             new_game: bool = False, choose: bool | None = None) -> Step:
        """What one journaled move does to the teaching, not done yet (`apply` does it once
        the move is on disk): a new game starts the lessons afresh, teaching as chosen
        (None: as it was); then the lessons the move teaches that were not given before."""
        with self._lock:
            on = self._on if choose is None or not new_game else choose
            given = frozenset() if new_game else frozenset(self._given)
        lessons = tuple(x for x in lessons_in(events, after, given) if x.topic not in given) \
            if on else ()
        return Step(version, on, given | {x.topic for x in lessons}, lessons,
                    new_game or bool(lessons))

    def plan_ahead(self, version: int, events: Sequence[Event], after: GameState,
                   new_game: bool = False) -> tuple[int, Step] | None:
        """`plan` for a move worked out ahead (companion.game.ahead), with the changes'
        count it was planned at: the step is the one `plan` gives at the move's commit
        while `unchanged(count)` (the teaching's writer, the session's, is the only one
        that changes it); None when it changed while planning."""
        count = self._changes
        step = self.plan(version, events, after, new_game)
        return (count, step) if self._changes == count else None

    def unchanged(self, count: int) -> bool:
        """Whether the teaching is as it was when `plan_ahead` gave `count`."""
        return self._changes == count

    def apply(self, step: Step, save: bool = True) -> None:
        """Take a planned step: its lessons are the latest, and given for this game; with
        `save` False the caller saves it later (`save`: the session's writer does it after
        the table's first frame shows the move)."""
        with self._lock:
            self._changes += 1
            self._on = step.on
            self._given = set(step.given)
            self._latest = (step.version, list(step.lessons))
            if step.save and save:  # a lesson given or a new game: kept, so a restart
                self._save()  # does not repeat it

    def save(self) -> None:
        """Keep the teaching as it is now in its file (a failure is logged)."""
        with self._lock:
            self._save()

    @staticmethod
    def public_of(step: Step) -> JSON:
        """The state JSON's `teaching` once the step is taken."""
        return {"on": step.on, "lessons": [x.to_json() for x in step.lessons]}

    def switch(self, on: bool) -> None:
        """Teaching on or off (the banker's choice)."""
        with self._lock:
            if self._on != on:
                self._changes += 1
                self._on = on
                self._save()

    def public(self, version: int) -> JSON:
        """The state JSON's `teaching`: on or off, and the lessons of this version."""
        with self._lock:
            at, lessons = self._latest
            return {"on": self._on,
                    "lessons": [x.to_json() for x in lessons] if at == version else []}

    def _save(self) -> None:
        """Write the state atomically; a failure is logged (lessons are not the game)."""
        tmp = self._path.with_name(f".{self._path.name}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                at, lessons = self._latest
                json.dump({"on": self._on, "given": sorted(self._given),
                           "latest": {"version": at,
                                      "lessons": [x.to_json() for x in lessons]}}, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self._path)
        except OSError as exc:
            log.warning("cannot save the teaching state %s: %s", self._path, exc)
