"""The table without a screen (`companion run --headless`): its sounds and its clocks.

With no screen there is nothing to draw and no prompt for the panel's buttons to answer,
but the table still keeps time and makes its noises: the auction gavel falls when the
session's auction clock runs out, a timed game ends at its end, each command's events
ring their sound, a bank card's question goes to the log. This
module does that and imports no drawing code (no pygame, no SDL: an idle headless
companion stays small; `SoundPlayer` loads pygame's mixer only when a sound plays on a
machine with an audio device). The screen's `Controller` does the same things on a
screen (its `tick` and `apply_update`), with its drawing.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.game.api import JSON, GameSessionProtocol, Outcome, Update
from companion.game.authority import table_source
from companion.rules.commands import CloseAuction, Command, EndGame
from companion.screen.audio import SoundPlayer
from companion.screen.screen_sounds import extra_sounds
from companion.screen.views import settings as screen_settings

log = logging.getLogger(__name__)


class HeadlessUi:
    """What the headless run keeps: the phones' join link, the table's own Wi-Fi
    (companion.app.hotspot sets it), the sound's volume and mute, the deadlines of the
    auction clock and of a timed game on the table's `clock`."""

    def __init__(self) -> None:
        self.volume, self.muted = 80, False
        self.remote_url: str | None = None
        self.wifi: Any = None
        self.auction_deadline: float | None = None
        self.clock_deadline: float | None = None


class HeadlessTable:
    """The session's listener on a table with no screen; `drain` on the run's thread."""

    def __init__(self, session: GameSessionProtocol, sound: SoundPlayer | None = None,
                 data_dir: Path | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 say: Callable[[str], None] = log.info) -> None:
        """`say`: where notices go (a PIN warning, a reader's message): the log."""
        self.session, self.sound, self.data_dir = session, sound, data_dir
        self.clock, self.say = clock, say
        self.ui = HeadlessUi()
        self.settings = screen_settings.load(data_dir)
        self.ui.volume, self.ui.muted = self.settings.volume, self.settings.muted
        self.updates: queue.Queue[Update] = queue.Queue()
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.wake: Callable[[], None] = lambda: None
        #: the table's banker PIN guard (companion.game.pins); the phones use it
        self.pins: Any = None
        self._lock = threading.Lock()
        end = self.settings.clock_end
        self.ui.clock_deadline = None if end is None else clock() + (end - time.time())
        self.state: JSON = session.state()
        self._auction_clock()
        self._remove: Callable[[], None] | None = session.add_listener(self.on_update)

    # --- any thread ---------------------------------------------------------------------

    def on_update(self, update: Update) -> None:
        """Session listener (writer's side): queue it and wake the run's loop."""
        self.updates.put(update)
        self.wake()

    def post_message(self, message: str, kind: str = "info") -> None:
        """A notice from another part (a reader warning): said in the log."""
        self.say(f"{kind}: {message}")

    def post_pin_warning(self, wrong: int, where: str = "phone") -> None:
        """Wrong banker PINs were typed on a phone."""
        self.say(f"warning: {wrong} wrong banker PIN(s) typed on a {where}")

    def reader_action(self, action: Any) -> None:
        """The readers' pump's actions (companion.inputs.actions), any thread: a refused
        tap's sound, what a gesture asks and other notices to the log."""
        from companion.inputs.actions import Show

        if isinstance(action, Show):
            if action.code == "refused" and self.sound is not None:
                self.sound.play("refused")
            self.say(f"{action.level}: {action.message}")

    def close(self) -> None:
        """Stop listening to the session."""
        if self._remove is not None:
            self._remove()
            self._remove = None

    # --- the run's thread ---------------------------------------------------------------

    def next_wake(self) -> float | None:
        """Seconds until the next clock runs out (the auction's or the timed game's)."""
        deadlines = [d for d in (self.ui.auction_deadline, self.ui.clock_deadline)
                     if d is not None]
        return None if not deadlines else min(deadlines) - self.clock()

    def drain(self) -> None:
        """Apply the queued updates, then what the clocks say."""
        while True:
            try:
                update = self.updates.get_nowait()
            except queue.Empty:
                break
            self.apply_update(update)
        self.tick()

    def apply_update(self, update: Update) -> None:
        """A new state: its sounds and the auction clock."""
        self.state = update.state if "legal" in update.state else self.session.state()
        if self.sound is not None and not self.sound.play_events(update.events):
            for name in extra_sounds(update.events)[:1]:  # Mega events the mixer misses
                self.sound.play(name)
        self._auction_clock()

    def tick(self) -> None:
        """The timed game's end, and the auction gavel when its clock runs out."""
        now = self.clock()
        if self.ui.clock_deadline is not None and now >= self.ui.clock_deadline and \
                self.state.get("players"):
            self.ui.clock_deadline = None
            self.settings.clock_end = None
            screen_settings.save(self.data_dir, self.settings)
            if self.state.get("winner") is None:
                self._submit(EndGame("time"))
        deadline = self.ui.auction_deadline
        if deadline is None or now < deadline:
            return
        self.ui.auction_deadline = None
        pending = self.state.get("pending") or {}
        close = next((e for e in self.state.get("legal") or []
                      if e.get("do") == "close_auction"), None)
        if pending.get("bidder") and close:
            self._submit(CloseAuction())

    def _submit(self, command: Command | JSON) -> None:
        sender = table_source(self.state, command, "screen")
        if isinstance(sender, str):
            return
        self._refused(self.session.submit(command, sender))

    def _refused(self, outcome: Outcome) -> None:
        if not outcome.accepted:
            self.say(f"refused: {outcome.message}")
            if self.sound is not None:
                self.sound.play("refused")

    def _auction_clock(self) -> None:
        state: Mapping[str, Any] = self.state
        clock = state.get("auction_clock") or {}
        pending = state.get("pending") or {}
        if pending.get("kind") not in ("auction", "building_auction") or \
                "seconds_left" not in clock:
            self.ui.auction_deadline = None
            return
        self.ui.auction_deadline = self.clock() + float(clock["seconds_left"])
