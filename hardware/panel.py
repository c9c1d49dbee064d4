"""The GPIO button panel: six big buttons and an optional rotary encoder, through gpiozero.

The pins and the hold time come from the configuration (companion.config: `[buttons]` and
`[encoder]`, with their defaults and the one pin check). Every button is a plain
`DigitalInputDevice` with gpiozero's own debouncing off; its raw edges go to our debouncer
(hardware.debounce: stuck and chattering buttons, holds), which a one-shot timer wakes only
while it has something coming (a button down, a level settling): a panel at rest runs no
thread. The encoder is gpiozero's `RotaryEncoder` (its quadrature state machine rejects
contact bounce); its push switch acts as YES. The callbacks only emit events to the
`emit` callable handed in; nothing here reads or changes the game.

On a machine without GPIO the same code runs on gpiozero's MockFactory, and the screen
program drives the mock pins from the keyboard with `key_down` / `key_up` (KEYBOARD_MAP).
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

from gpiozero import Device, DigitalInputDevice, RotaryEncoder
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig, EncoderConfig, pin_conflict
from companion.inputs.buttons import KEYS
from companion.inputs.events import Button, Emit, EncoderEvent
from hardware.debounce import ButtonDebouncer, Clock, DebounceTiming

#: buttons with a hold gesture (hold MENU: the banker menu); its time is [buttons] hold_seconds
HOLD_BUTTONS: frozenset[Button] = frozenset({Button.MENU})

# Keys (pygame key names) that press the simulated buttons or turn the simulated encoder.
KEYBOARD_MAP: dict[str, Button] = {key: Button(name) for key, name in KEYS.items()}
ENCODER_KEYS: dict[str, int] = {"up": 1, "right": 1, "down": -1, "left": -1}
KNOB = "encoder_button"
"""The name `drive` knows the encoder's push switch by."""

Cancel = Callable[[], None]
Schedule = Callable[[float, Callable[[], None]], Cancel]
"""Run a callable once after a delay in seconds; returns what cancels it."""


class PanelConfigError(ValueError):
    """The configured pins cannot be wired (two inputs on one pin)."""


def thread_timer(delay: float, fn: Callable[[], None]) -> Cancel:
    """The default Schedule: a daemon `threading.Timer` (one short-lived thread)."""
    timer = threading.Timer(max(0.0, delay), fn)
    timer.name = "button-timer"
    timer.daemon = True
    timer.start()
    return timer.cancel


def choose_pin_factory(simulate: bool = False) -> tuple[Any, bool]:
    """The pin factory to use and whether it is simulated (MockFactory).

    Falls back to the mock factory when no GPIO library can drive this machine's pins.
    """
    if not simulate:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                Device.ensure_pin_factory()
            factory = Device.pin_factory
            return factory, isinstance(factory, MockFactory)
        except Exception:  # noqa: BLE001 - any backend failure means "no GPIO here"
            pass
    return MockFactory(), True


class _Alarm:
    """Wakes one debouncer when it next has something to do, and only then (a millisecond
    after its deadline, so that the deadline has surely passed on its clock)."""

    SLACK = 0.001

    def __init__(self, debouncer: ButtonDebouncer, schedule: Schedule, clock: Clock) -> None:
        self.debouncer = debouncer
        self._schedule, self._clock = schedule, clock
        self._lock = threading.Lock()
        self._due: float | None = None
        self._cancel: Cancel | None = None
        self._generation = 0
        self.closed = False

    @property
    def armed(self) -> bool:
        """Whether a timer is waiting to wake the debouncer."""
        return self._due is not None

    def rearm(self) -> None:
        """Arm for the debouncer's next deadline: cancelled when there is none, kept when
        it fires earlier (it re-arms then), so a bouncing contact starts no new threads."""
        due = self.debouncer.next_due()
        with self._lock:
            if self.closed:
                return
            if due is None:
                self._disarm()
                return
            if self._due is not None and self._due <= due:
                return
            self._disarm()
            self._generation += 1
            generation = self._generation
            self._due = due
            delay = due - self._clock() + self.SLACK
            self._cancel = self._schedule(delay, lambda: self._fire(generation))

    def _disarm(self) -> None:
        if self._cancel is not None:
            self._cancel()
        self._cancel, self._due = None, None

    def _fire(self, generation: int) -> None:
        with self._lock:
            if generation != self._generation or self.closed:
                return
            self._cancel, self._due = None, None
        self.debouncer.poll()
        self.rearm()

    def close(self) -> None:
        """Cancel the timer for good."""
        with self._lock:
            self.closed = True
            self._disarm()


class ButtonPanel:
    """The panel's devices and debouncers; emits ButtonEvent / EncoderEvent / warnings.

    emit: where events go (e.g. queue.Queue.put); called from gpiozero's or a timer's
    thread, so it must be thread-safe and quick. buttons / encoder: the configuration's
    sections (defaults: ButtonsConfig(), EncoderConfig(): no encoder). pin_factory: a gpiozero
    pin factory (None: choose_pin_factory()). clock, schedule: for tests (a fake clock
    and timers it runs by hand).
    """

    def __init__(
        self,
        emit: Emit,
        buttons: ButtonsConfig | None = None,
        encoder: EncoderConfig | None = None,
        *,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        timing: DebounceTiming | None = None,
        schedule: Schedule = thread_timer,
    ) -> None:
        self.buttons = buttons or ButtonsConfig()
        self.encoder_config = encoder or EncoderConfig()
        conflict = pin_conflict(self.buttons, self.encoder_config)
        if conflict is not None:
            (section, key), problem = conflict
            raise PanelConfigError(f"{section}.{key}: {problem}")
        if pin_factory is None:
            pin_factory, _ = choose_pin_factory()
        self.pin_factory = pin_factory
        self.simulated = isinstance(pin_factory, MockFactory)
        base = timing or DebounceTiming(hold=self.buttons.hold_seconds)
        held = _with_hold(base, self.buttons.hold_seconds)
        self.debouncers: dict[Button, ButtonDebouncer] = {}
        self.alarms: list[_Alarm] = []
        self._devices: dict[str, DigitalInputDevice] = {}
        self.encoder: RotaryEncoder | None = None
        self._emit, self._clock, self._schedule = emit, clock, schedule
        try:
            for button, pin in ((Button(n), p) for n, p in self.buttons.pins.items()):
                hold = button in HOLD_BUTTONS
                deb = ButtonDebouncer(button, emit, clock=clock, timing=held if hold else base,
                                      has_hold=hold)
                self.debouncers[button] = deb
                self._wire_button(button.value, pin, deb)
            if self.encoder_config.enabled:
                knob = ButtonDebouncer(Button.YES, emit, clock=clock, timing=base, label="knob")
                self._wire_button(KNOB, self.encoder_config.button, knob)
                self._wire_encoder(self.encoder_config.a, self.encoder_config.b)
        except Exception:
            self.close()
            raise

    def _wire_button(self, name: str, pin: int, deb: ButtonDebouncer) -> None:
        device = DigitalInputDevice(
            pin, pull_up=True, bounce_time=None, pin_factory=self.pin_factory
        )
        self._devices[name] = device
        alarm = _Alarm(deb, self._schedule, self._clock)
        self.alarms.append(alarm)

        def edge(level: bool) -> None:
            deb.edge(level)
            alarm.rearm()

        device.when_activated = lambda: edge(True)
        device.when_deactivated = lambda: edge(False)

    def _wire_encoder(self, pin_a: int, pin_b: int) -> None:
        encoder = RotaryEncoder(pin_a, pin_b, max_steps=0, pin_factory=self.pin_factory)
        self.encoder = encoder
        emit = self._emit
        encoder.when_rotated_clockwise = lambda: emit(EncoderEvent(1))
        encoder.when_rotated_counter_clockwise = lambda: emit(EncoderEvent(-1))

    @property
    def waiting(self) -> int:
        """How many timers are armed now (0 while every button rests)."""
        return sum(alarm.armed for alarm in self.alarms)

    def close(self) -> None:
        """Cancel the timers and release the pins."""
        for alarm in self.alarms:
            alarm.close()
        for device in self._devices.values():
            device.close()
        self._devices.clear()
        if self.encoder is not None:
            self.encoder.close()
            self.encoder = None

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- simulation: drive the mock pins ------------------------------------------------

    def drive(self, name: str, closed: bool) -> None:
        """Close or open a contact on a mock pin (simulation and tests only): a button by
        its name, the encoder's push switch as KNOB, its signals as encoder_a / encoder_b."""
        if name in ("encoder_a", "encoder_b"):
            if self.encoder is None:
                raise KeyError(f"no pin wired for {name!r}")
            device: Any = self.encoder.a if name == "encoder_a" else self.encoder.b
        else:
            device = self._devices.get(name)
            if device is None:
                raise KeyError(f"no pin wired for {name!r}")
        pin = device.pin
        if not hasattr(pin, "drive_low"):
            raise RuntimeError("only mock pins can be driven")
        if closed:
            pin.drive_low()  # buttons and encoder contacts pull the pin to ground
        else:
            pin.drive_high()

    def turn(self, detents: int) -> None:
        """Turn the simulated encoder by `detents` (negative: counter-clockwise): each
        detent is one full quadrature cycle, A closing before B clockwise."""
        cycle = [(True, False), (True, True), (False, True), (False, False)]
        if detents < 0:
            cycle = [(False, True), (True, True), (True, False), (False, False)]
        for _ in range(abs(detents)):
            for a, b in cycle:
                self.drive("encoder_a", a)
                self.drive("encoder_b", b)

    def key_down(self, key: str) -> bool:
        """A key went down in the simulator; True if it belongs to the panel."""
        if key in ENCODER_KEYS and self.encoder is not None:
            self.turn(ENCODER_KEYS[key])
            return True
        button = KEYBOARD_MAP.get(key)
        if button is None or button not in self.debouncers:
            return False
        self.drive(button.value, True)
        return True

    def key_up(self, key: str) -> bool:
        """A key came up in the simulator; True if it belongs to the panel."""
        button = KEYBOARD_MAP.get(key)
        if button is None or button not in self.debouncers:
            return key in ENCODER_KEYS and self.encoder is not None
        self.drive(button.value, False)
        return True


def _with_hold(timing: DebounceTiming, hold: float) -> DebounceTiming:
    return DebounceTiming(
        settle=timing.settle,
        hold=hold,
        stuck=max(timing.stuck, hold * 2),
        chatter=timing.chatter,
        max_presses=timing.max_presses,
        press_window=timing.press_window,
        quiet=timing.quiet,
    )
