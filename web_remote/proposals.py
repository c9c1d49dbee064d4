"""Trade proposals between phones: kept here (memory plus a JSON file) until the other
player accepts; only then is the engine's `trade` command submitted, and re-validated.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from web_remote.store import Persister, read_json

JSON = dict[str, Any]
#: open proposals per player; a phone cannot fill the Pi's memory with them
MAX_OPEN_PER_PLAYER = 10


def _deal(trade: JSON) -> tuple[Any, ...]:
    """What a proposal or a "traded" event exchanges, comparable between the two.

    >>> _deal({"from": "Ann", "to": "Bo", "give": {"cash": 50}, "take": {}}) == _deal(
    ...     {"from": "Ann", "to": "Bo", "give": {"cash": 50, "cards": 0, "squares": []},
    ...      "take": {"cash": 0, "cards": 0, "squares": []}})
    True
    """
    def side(goods: Any) -> tuple[int, int, tuple[int, ...]]:
        goods = goods if isinstance(goods, dict) else {}
        return (int(goods.get("cash") or 0), int(goods.get("cards") or 0),
                tuple(sorted(int(s) for s in goods.get("squares") or [])))

    return trade.get("from"), trade.get("to"), side(trade.get("give")), side(trade.get("take"))


class Proposals:
    """Open trade proposals by id; persisted so a restart keeps them."""

    def __init__(self, path: Path, persister: Persister) -> None:
        self._path = path
        self._persister = persister
        self._lock = threading.Lock()
        raw = read_json(path, {})
        self._items: dict[str, JSON] = raw if isinstance(raw, dict) else {}

    def _save(self) -> None:
        items = {k: dict(v) for k, v in self._items.items()}
        self._persister.save(self._path, lambda: items)

    def open(self, player: str | None = None) -> list[JSON]:
        """Open proposals (involving `player` if given), oldest first."""
        with self._lock:
            items = [dict(p) for p in self._items.values()]
        if player is not None:
            items = [p for p in items if player in (p["from"], p["to"])]
        return sorted(items, key=lambda p: (p["created"], p["id"]))

    def get(self, pid: str) -> JSON | None:
        """One proposal, or None."""
        with self._lock:
            item = self._items.get(pid)
            return dict(item) if item is not None else None

    def add(self, sender: str, receiver: str, give: JSON, take: JSON, version: int) -> JSON | None:
        """A new proposal (None when the sender has too many open)."""
        with self._lock:
            if sum(p["from"] == sender for p in self._items.values()) >= MAX_OPEN_PER_PLAYER:
                return None
            pid = secrets.token_urlsafe(8)
            item = {"id": pid, "from": sender, "to": receiver, "give": give, "take": take,
                    "version": version, "created": time.time(), "error": None}
            self._items[pid] = item
            self._save()
            return dict(item)

    def note_error(self, pid: str, message: str, code: str | None = None,
                   params: JSON | None = None) -> None:
        """Remember why accepting failed (shown on both phones): the English `message`, and
        the refusal's `code` and `params` to say it in each phone's language."""
        with self._lock:
            if pid in self._items:
                self._items[pid].update(error=message, error_code=code,
                                        error_params=dict(params or {}))
                self._save()

    def remove(self, pid: str) -> JSON | None:
        """Drop a proposal (accepted, declined or withdrawn)."""
        with self._lock:
            item = self._items.pop(pid, None)
            if item is not None:
                self._save()
            return item

    def prune(self, state: JSON, events: Iterable[JSON] = ()) -> list[str]:
        """Drop proposals the table has overtaken (deeds changed hands, a player went out)
        or done elsewhere (the same trade accepted with the receiver's bank card: a "traded"
        event in `events`); returns their ids."""
        owner = {sq["index"]: sq.get("owner") for sq in state.get("squares", [])}
        active = {p["name"] for p in state.get("players", []) if not p.get("bankrupt")}
        done = {_deal(e) for e in events if e.get("kind") == "traded"}
        with self._lock:
            gone = [pid for pid, p in self._items.items()
                    if p["from"] not in active or p["to"] not in active or _deal(p) in done
                    or any(owner.get(s) != p["from"] for s in p["give"]["squares"])
                    or any(owner.get(s) != p["to"] for s in p["take"]["squares"])]
            for pid in gone:
                del self._items[pid]
            if gone:
                self._save()
        return gone

    def clear(self) -> None:
        """Forget every proposal (a new game started)."""
        with self._lock:
            if self._items:
                self._items.clear()
                self._save()
