"""The tag registry: which RFID tag is which card, kept in DATA_DIR/tags.json.

A tag is a player's bank card (numbered; bound to a player by name or by seat), a title
deed (by square id), a Chance / Community Chest card (by card id) or the banker card.
Each role has one tag: registering a role again moves it to the new tag (a lost card
replaced). A damaged file is set aside and the registry starts empty, never crashing.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FILE_NAME = "tags.json"


class TagKind(Enum):
    """What a registered tag is attached to."""

    BANK_CARD = "bank_card"
    """A player's bank card: `number` (1, 2, ...) and optionally the `player` bound to it."""
    DEED = "deed"
    """A title deed: `square` is the square id."""
    CARD = "card"
    """A Chance or Community Chest card: `deck` and `card` ids."""
    BANKER = "banker"
    """The banker card: opens the banker menu."""


@dataclass(frozen=True)
class TagRole:
    """The card a tag is attached to (see TagKind for which fields each kind uses)."""

    kind: TagKind
    number: int | None = None
    player: str | None = None
    square: str | None = None
    deck: str | None = None
    card: str | None = None

    def key(self) -> tuple[str, Any, Any, Any]:
        """What makes two roles the same card (a bank card's player binding does not)."""
        return (self.kind.value, self.number, self.square, self.card)

    def to_json(self) -> dict[str, Any]:
        """The role as stored in tags.json (empty fields left out)."""
        data = {k: v for k, v in asdict(self).items() if v is not None}
        data["kind"] = self.kind.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TagRole:
        """A role from tags.json; ValueError if it is malformed."""
        kind = TagKind(data["kind"])
        role = cls(
            kind,
            number=_opt(data, "number", int),
            player=_opt(data, "player", str),
            square=_opt(data, "square", str),
            deck=_opt(data, "deck", str),
            card=_opt(data, "card", str),
        )
        needs = {
            TagKind.BANK_CARD: role.number,
            TagKind.DEED: role.square,
            TagKind.CARD: role.card and role.deck,
            TagKind.BANKER: True,
        }[kind]
        if not needs:
            raise ValueError(f"incomplete {kind.value} entry: {data}")
        return role


def _opt(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if value is not None and not isinstance(value, kind):
        raise ValueError(f"{name} should be {kind.__name__}: {value!r}")
    return value


class TagRegistry:
    """Tag id -> TagRole, saved atomically to `path` after every change. Thread-safe."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._tags: dict[str, TagRole] = {}
        self.load_error: str | None = None
        if path is not None:
            self._load(path)

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> TagRegistry:
        """The registry kept in DATA_DIR/tags.json."""
        return cls(data_dir / FILE_NAME)

    def _load(self, path: Path) -> None:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            tags = {str(tag): TagRole.from_json(role) for tag, role in raw["tags"].items()}
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            self.load_error = f"{path} is damaged ({exc}); starting with no cards registered"
            log.warning("%s", self.load_error)
            try:
                path.replace(path.with_suffix(".json.damaged"))
            except OSError:
                pass
            return
        self._tags = tags

    def save(self) -> None:
        """Write the registry (to a temporary file, then renamed over the old one)."""
        if self.path is None:
            return
        with self._lock:
            data = {"version": 1, "tags": {t: r.to_json() for t, r in sorted(self._tags.items())}}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)

    def lookup(self, tag: str) -> TagRole | None:
        """The role of `tag`, None if unknown."""
        with self._lock:
            return self._tags.get(tag)

    def tag_for(self, role: TagRole) -> str | None:
        """The tag registered for `role`, if any."""
        with self._lock:
            for tag, known in self._tags.items():
                if known.key() == role.key():
                    return tag
        return None

    def register(self, tag: str, role: TagRole, *, save: bool = True) -> TagRole | None:
        """Attach `tag` to `role` (the role's old tag is dropped); the tag's previous role."""
        with self._lock:
            for old in [t for t, r in self._tags.items() if r.key() == role.key()]:
                del self._tags[old]
            previous = self._tags.get(tag)
            self._tags[tag] = role
        if save:
            self.save()
        return previous

    def forget(self, tag: str) -> TagRole | None:
        """Remove a tag; its role, if it had one."""
        with self._lock:
            role = self._tags.pop(tag, None)
        self.save()
        return role

    def all(self) -> dict[str, TagRole]:
        """A copy of every registration."""
        with self._lock:
            return dict(self._tags)

    def bind_player(self, number: int, player: str | None) -> None:
        """Bind bank card `number` to a player (None: back to binding by seat)."""
        with self._lock:
            for tag, role in self._tags.items():
                if role.kind is TagKind.BANK_CARD and role.number == number:
                    self._tags[tag] = TagRole(TagKind.BANK_CARD, number=number, player=player)
        self.save()


def card_holder(role: TagRole, players: list[str]) -> str | None:
    """The player a bank card belongs to: its bound player if playing, else seat `number`.

    >>> card_holder(TagRole(TagKind.BANK_CARD, number=2), ["Ann", "Bo"])
    'Bo'
    >>> card_holder(TagRole(TagKind.BANK_CARD, number=3, player="Cy"), ["Ann", "Cy"])
    'Cy'
    """
    if role.kind is not TagKind.BANK_CARD:
        return None
    if role.player is not None and role.player in players:
        return role.player
    if role.number is not None and 1 <= role.number <= len(players):
        return players[role.number - 1]
    return None
