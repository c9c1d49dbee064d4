"""The RFID benchmark: last byte of an RDM6300 frame read from a real pty -> command queued.

Runs the real pipeline (pyserial reader thread, TapDeduper, InputPump, InputController)
against a stand-in session whose `submit` timestamps each command. Target: p99 <= 5 ms.
"""

from __future__ import annotations

import os
import queue
import time
import tty
from collections.abc import Callable, Sequence
from typing import Any

from companion.game.api import JSON, Hold, MeFacts, Outcome, Source, Standing, Update
from companion.game.table.offers import OfferStore
from companion.game.table.view import TableView, build
from companion.game.telling.story import Story
from companion.inputs.controller import InputController
from companion.inputs.events import InputEvent, TagEvent
from companion.inputs.pump import InputPump
from companion.inputs.registry import TagKind, TagRegistry, TagRole
from companion.rules.commands import Command
from hardware.readers.rdm6300 import Rdm6300Reader, encode_frame

TAGS = {"0B00000001": "chance-dividend", "0B00000002": "chance-speeding"}


class _TimingSession:
    """Just enough of a game session: a drawn-card prompt that never goes away."""

    def __init__(self) -> None:
        self.submitted: queue.Queue[tuple[float, Command | JSON]] = queue.Queue()
        self._state: JSON = {
            "version": 1,
            "players": [{"name": "Ann"}, {"name": "Bo"}],
            "current": "Ann",
            "pending": {"kind": "draw", "player": "Ann", "deck": "chance"},
            "legal": [{"do": "draw", "by": "Ann"}],
        }

    def submit(self, command: Command | JSON, source: Source,
               expect_version: int | None = None) -> Outcome:
        self.submitted.put((time.perf_counter(), command))
        return Outcome(True, 1)

    def state(self) -> JSON:
        return self._state

    def now(self) -> float:
        return time.time()

    def undo(self, source: Source) -> Outcome:
        return Outcome(False, 1)

    def redo(self, source: Source) -> Outcome:
        return Outcome(False, 1)

    def undo_target(self) -> JSON | None:
        return None

    def undo_refusal(self, source: Source) -> JSON | None:
        return {"code": "nothing_to_undo", "message": "nothing to undo", "params": {}}
    def table(self) -> TableView:
        return build(self._state)

    def undo_to(self, seq: int, source: Source, expect_version: int | None = None) -> Outcome:
        return Outcome(False, 1)

    def story(self) -> Story | None:
        return None

    def undo_to_plan(self, seq: int) -> JSON:
        return {"code": "not_in_line", "message": "", "params": {}}

    def set_teaching(self, on: bool, source: Source) -> Outcome:
        return Outcome(False, 1)

    def news(self, player: str) -> list[JSON]:
        return []

    def news_summary(self, player: str) -> tuple[int, str | None, str | None]:
        return (0, None, None)

    def me_facts(self, players: Sequence[str]) -> MeFacts:
        return MeFacts({p: (0, None, None) for p in players}, frozenset())

    def mark_seen(self, keys: Any, source: Source) -> Outcome:
        return Outcome(False, 1)

    def history(self, player: str | None = None, limit: int = 200,
                before: int | None = None) -> list[JSON]:
        return []

    def add_listener(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        return lambda: None

    def lead(self, callback: Callable[[Update], Hold | None]) -> Callable[[], None]:
        return lambda: None

    def standings_since(self, version: int) -> list[Standing]:
        """Nothing made again: this stand-in keeps no journal to replay."""
        return []

    def follow(self, callback: Callable[[Standing], None]) -> Callable[[], None]:
        return lambda: None

    def keep_offers(self, offers: OfferStore) -> None:
        pass


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_bench(taps: int = 400) -> dict[str, float]:
    """Tap alternating cards through a pty `taps` times; the 99th percentile latency in ms."""
    registry = TagRegistry()
    for tag, card in TAGS.items():
        registry.register(tag, TagRole(TagKind.CARD, deck="chance", card=card), save=False)
    session = _TimingSession()
    pump = InputPump(session, InputController(registry))
    read_at: dict[int, float] = {}

    def emit(event: InputEvent) -> None:
        if isinstance(event, TagEvent):
            read_at[len(read_at)] = event.read_at
        pump.emit(event)

    master, slave = os.openpty()
    tty.setraw(slave)
    reader = Rdm6300Reader(os.ttyname(slave), emit, repeat_gap=0.0)
    latencies: list[float] = []
    try:
        pump.start()
        reader.start()
        if not reader.connected.wait(5):
            raise RuntimeError("the benchmark's pty reader did not start")
        frames = [encode_frame(tag) for tag in TAGS]
        for i in range(taps):
            os.write(master, frames[i % len(frames)] * 2)  # a tap counts at its 2nd frame
            queued_at, _command = session.submitted.get(timeout=5)
            latencies.append((queued_at - read_at[i]) * 1000.0)
    finally:
        reader.close()
        pump.stop()
        os.close(master)
        os.close(slave)
    return {"rfid.frame_to_command_ms_p99": round(_percentile(latencies, 0.99), 3)}


if __name__ == "__main__":
    print(run_bench())
