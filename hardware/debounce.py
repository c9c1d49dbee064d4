"""Our own button debouncing, hold gestures and fault detection, driven by an injected clock.

gpiozero's mock pins ignore `bounce_time` and the real backends debounce differently, so the
panel turns off gpiozero's debouncing and feeds every raw edge here. The debouncer is plain
Python with a clock passed in: tests drive it with a fake clock, the panel with
time.monotonic and a ticker thread calling `poll()` for the time-based gestures.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from companion.inputs.events import (
    Button,
    ButtonEvent,
    Emit,
    EncoderEvent,
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
    hold: float = 1.5
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


# Quadrature transitions: (previous state, new state) -> +1 / -1; anything else is a skip.
_QUADRATURE: dict[tuple[int, int], int] = {
    (0b00, 0b01): 1, (0b01, 0b11): 1, (0b11, 0b10): 1, (0b10, 0b00): 1,
    (0b00, 0b10): -1, (0b10, 0b11): -1, (0b11, 0b01): -1, (0b01, 0b00): -1,
}  # fmt: skip


class QuadratureDecoder:
    """Turns the two contacts of a rotary encoder into detent steps.

    Quadrature is self-debouncing: a bouncing contact adds and removes the same step.
    Steps are counted while moving and reported when the encoder comes to rest (both
    contacts open), so a missed transition does not shift every later detent.
    """

    def __init__(self, emit: Emit, *, steps_per_detent: int = 4, reverse: bool = False) -> None:
        self._emit = emit
        self._lock = threading.Lock()
        self._state = 0b00
        self._count = 0
        self._per_detent = max(1, steps_per_detent)
        self._sign = -1 if reverse else 1
        self._rest = {0b00} if steps_per_detent >= 4 else {0b00, 0b11}

    def update(self, a: bool, b: bool) -> None:
        """Feed the current contact levels (True: closed) after an edge on either."""
        out: EncoderEvent | None = None
        with self._lock:
            new = (int(a) << 1) | int(b)
            if new == self._state:
                return
            self._count += _QUADRATURE.get((self._state, new), 0)
            self._state = new
            if new in self._rest:
                detents = self._count / self._per_detent
                steps = int(detents + (0.5 if detents > 0 else -0.5))
                self._count = 0
                if steps:
                    out = EncoderEvent(steps * self._sign)
        if out is not None:
            self._emit(out)
