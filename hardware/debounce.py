"""Our own button debouncing, hold gestures and fault detection, driven by an injected clock.

Kept rather than gpiozero's `Button(bounce_time=, hold_time=)` because it does what that
cannot: it warns about a stuck or chattering button and ignores it until it recovers; it
debounces the same on every backend (gpiozero's mock pins ignore `bounce_time`); and it
needs no thread while the buttons rest (gpiozero's hold thread wakes ten times a second for
each button, forever). The debouncer is plain Python with a clock passed in: `next_due()`
says when its time-based gestures need it next, so the panel arms a timer only then (a
button down, a level settling), and tests drive it with a fake clock.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from companion.config import ButtonsConfig
from companion.inputs.events import (
    Button,
    ButtonEvent,
    Emit,
    Gesture,
    HardwareWarning,
    InputEvent,
)

Clock = Callable[[], float]


@dataclass(frozen=True)
class DebounceTiming:
    """How long things take, in seconds; one set per panel, overridable per button.

    settle: the raw level must stay unchanged this long to count (rejects bounce and noise).
    hold: how long a hold gesture takes (only for buttons that have one).
    stuck: a button held down longer than this is stuck: warned about and ignored until
      released.
    chatter: edges arriving without ever settling for this long mean a chattering contact.
    max_presses / press_window: more settled presses than this within the window also
      mean chatter (a loose wire that settles between its flickers).
    quiet: a chattering button is listened to again after this long without an edge.
    """

    settle: float = 0.02
    hold: float = ButtonsConfig.hold_seconds
    stuck: float = 10.0
    chatter: float = 0.5
    max_presses: int = 12
    press_window: float = 2.0
    quiet: float = 3.0


class ButtonDebouncer:
    """Turns the raw edges of one button into PRESS / HOLD events and fault warnings.

    Buttons without a hold gesture report PRESS as soon as the press settles; buttons with
    one report HOLD when held for `timing.hold` and PRESS on a shorter press's release.
    Thread-safe: edges may come from gpiozero's thread while `poll()` runs on another.
    Events are emitted outside the lock.
    """

    def __init__(
        self,
        button: Button,
        emit: Emit,
        *,
        clock: Clock = time.monotonic,
        timing: DebounceTiming | None = None,
        has_hold: bool = False,
        label: str | None = None,
    ) -> None:
        self.button = button
        self.label = label or button.name.replace("_", " ")
        self._emit = emit
        self._clock = clock
        self.timing = timing or DebounceTiming()
        self.has_hold = has_hold
        self._lock = threading.Lock()
        now = clock()
        self._raw = False
        self._raw_since = now
        self._last_edge = now
        self._unsettled_since: float | None = None
        self._stable = False
        self._stable_since = now
        self._hold_fired = False
        self._presses: deque[float] = deque()
        self.ignored: str | None = None  # None, "stuck" or "chatter"

    @property
    def pressed(self) -> bool:
        """The debounced level (True while the button is held down)."""
        return self._stable

    def edge(self, pressed: bool) -> None:
        """Record a raw level change (from a pin callback); repeats of a level are ignored."""
        out: list[InputEvent] = []
        with self._lock:
            now = self._clock()
            self._evaluate(now, out)  # the old level may have settled before this edge
            if pressed != self._raw:
                self._raw = pressed
                self._raw_since = now
                self._last_edge = now
                if self._unsettled_since is None:
                    self._unsettled_since = now
        self._send(out)

    def poll(self) -> None:
        """Advance time: settle levels, fire holds, notice stuck and chattering buttons."""
        out: list[InputEvent] = []
        with self._lock:
            self._evaluate(self._clock(), out)
        self._send(out)

    def next_due(self) -> float | None:
        """The clock time `poll()` next has something to do (a level to settle, a hold or a
        stuck button to notice, a chattering one to listen to again), or None: nothing
        until the next edge."""
        t = self.timing
        with self._lock:
            due: list[float] = []
            if self._unsettled_since is not None or self._raw != self._stable:
                due.append(self._raw_since + t.settle)
                if self._unsettled_since is not None and self.ignored is None:
                    due.append(self._unsettled_since + t.chatter)
            if self.ignored == "chatter":
                due.append(max(self._last_edge + t.quiet, self._raw_since + t.settle))
            if self._stable and self.ignored is None:
                if self.has_hold and not self._hold_fired:
                    due.append(self._stable_since + t.hold)
                due.append(self._stable_since + t.stuck)
            return min(due) if due else None

    def _send(self, out: list[InputEvent]) -> None:
        for event in out:
            self._emit(event)

    def _evaluate(self, now: float, out: list[InputEvent]) -> None:
        t = self.timing
        settled = now - self._raw_since >= t.settle
        if settled:
            self._unsettled_since = None
            if self._raw != self._stable:
                self._set_stable(self._raw, now, out)
        elif (
            self._unsettled_since is not None
            and now - self._unsettled_since >= t.chatter
            and self.ignored is None
        ):
            self._start_ignoring("chatter", out)
        if self.ignored == "chatter" and settled and now - self._last_edge >= t.quiet:
            self.ignored = None
            self._hold_fired = True  # a release after recovering is not a press
            out.append(self._warning("button_chatter", active=False))
        if self._stable and self.ignored is None:
            held = now - self._stable_since
            if self.has_hold and not self._hold_fired and held >= t.hold:
                self._hold_fired = True
                out.append(ButtonEvent(self.button, Gesture.HOLD))
            if held >= t.stuck:
                self._start_ignoring("stuck", out)

    def _set_stable(self, level: bool, now: float, out: list[InputEvent]) -> None:
        self._stable = level
        self._stable_since = now
        if self.ignored == "stuck" and not level:
            self.ignored = None
            out.append(self._warning("button_stuck", active=False))
            return
        if self.ignored is not None:
            return
        if level:
            self._hold_fired = False
            self._presses.append(now)
            while self._presses and now - self._presses[0] > self.timing.press_window:
                self._presses.popleft()
            if len(self._presses) > self.timing.max_presses:
                self._start_ignoring("chatter", out)
            elif not self.has_hold:
                out.append(ButtonEvent(self.button, Gesture.PRESS))
        elif self.has_hold and not self._hold_fired:
            out.append(ButtonEvent(self.button, Gesture.PRESS))

    def _start_ignoring(self, reason: str, out: list[InputEvent]) -> None:
        self.ignored = reason
        self._presses.clear()
        out.append(self._warning(f"button_{reason}", active=True))

    def _warning(self, code: str, *, active: bool) -> HardwareWarning:
        if code == "button_stuck":
            text = (
                f"The {self.label} button seems stuck down; it is ignored until released."
                if active
                else f"The {self.label} button works again."
            )
        else:
            text = (
                f"The {self.label} button is chattering (loose contact?); it is ignored."
                if active
                else f"The {self.label} button works again."
            )
        return HardwareWarning(code, self.button.value, text, active)
