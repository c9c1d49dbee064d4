"""The GPIO button panel: six big buttons and an optional rotary encoder, through gpiozero.

Every pin is a plain `DigitalInputDevice` with gpiozero's own debouncing off; raw edges go
to our debouncer (hardware.debounce) and the resulting events to the `emit` callable handed
in. Nothing here reads or changes the game: the callbacks only emit events.

On a machine without GPIO the same code runs on gpiozero's MockFactory, and the screen
program drives the mock pins from the keyboard with `key_down` / `key_up` (KEYBOARD_MAP).
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Mapping
from typing import Any

from gpiozero import Device, DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from companion.inputs.events import Button, Emit
from hardware.debounce import ButtonDebouncer, Clock, DebounceTiming, QuadratureDecoder

# BCM pin numbers (header pins in docs/hardware.md). The UART (14, 15), I2C (2, 3) and
# SPI (7-11) pins stay free. Buttons connect the pin to ground (internal pull-ups).
DEFAULT_PIN_MAP: dict[str, int | None] = {
    "roll": 17,  # header pin 11
    "yes": 27,  # header pin 13
    "no": 22,  # header pin 15
    "pass_go": 23,  # header pin 16
    "undo": 24,  # header pin 18
    "menu": 25,  # header pin 22
    "encoder_a": 5,  # header pin 29 (CLK); None: no encoder
    "encoder_b": 6,  # header pin 31 (DT)
    "encoder_push": None,  # header pin 33 (GPIO 13) if wired: acts as YES
}

# Buttons with a hold gesture and its duration in seconds (hold MENU: the banker menu).
DEFAULT_HOLD_TIMES: dict[Button, float] = {Button.MENU: 1.5}

# Keys (pygame key names) that press the simulated buttons or turn the simulated encoder.
KEYBOARD_MAP: dict[str, Button] = {
    "r": Button.ROLL,
    "y": Button.YES,
    "n": Button.NO,
    "g": Button.PASS_GO,
    "u": Button.UNDO,
    "m": Button.MENU,
}
ENCODER_KEYS: dict[str, int] = {"up": 1, "right": 1, "down": -1, "left": -1}

_ENCODER_KEYS = {"encoder_a", "encoder_b", "encoder_push"}


class PanelConfigError(ValueError):
    """The pin map names an unknown button or uses a pin twice."""


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


def validate_pin_map(pin_map: Mapping[str, int | None]) -> dict[str, int | None]:
    """DEFAULT_PIN_MAP overridden by `pin_map`; refuses unknown names and shared pins."""
    merged = dict(DEFAULT_PIN_MAP)
    known = {b.value for b in Button} | _ENCODER_KEYS
    for name, pin in pin_map.items():
        if name not in known:
            raise PanelConfigError(f"unknown button {name!r} in the pin map")
        merged[name] = pin
    used: dict[int, str] = {}
    for name, pin in merged.items():
        if pin is None:
            continue
        if pin in used:
            raise PanelConfigError(f"GPIO {pin} is used by both {used[pin]} and {name}")
        used[pin] = name
    if (merged["encoder_a"] is None) != (merged["encoder_b"] is None):
        raise PanelConfigError("the encoder needs both encoder_a and encoder_b (or neither)")
    return merged


class ButtonPanel:
    """The panel's devices, debouncers and ticker thread; emits ButtonEvent / EncoderEvent.

    emit: where events go (e.g. queue.Queue.put); called from gpiozero's or the ticker's
    thread, so it must be thread-safe and quick. pin_map: overrides of DEFAULT_PIN_MAP.
    pin_factory: a gpiozero pin factory (None: choose_pin_factory()). clock: for tests.
    """

    def __init__(
        self,
        emit: Emit,
        pin_map: Mapping[str, int | None] | None = None,
        *,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        timing: DebounceTiming | None = None,
        hold_times: Mapping[Button, float] | None = None,
        steps_per_detent: int = 4,
        reverse_encoder: bool = False,
        poll_interval: float = 0.005,
    ) -> None:
        self.pin_map = validate_pin_map(pin_map or {})
        if pin_factory is None:
            pin_factory, _ = choose_pin_factory()
        self.pin_factory = pin_factory
        self.simulated = isinstance(pin_factory, MockFactory)
        self.poll_interval = poll_interval
        holds = DEFAULT_HOLD_TIMES if hold_times is None else dict(hold_times)
        base = timing or DebounceTiming()
        self.debouncers: dict[Button, ButtonDebouncer] = {}
        self._devices: dict[str, DigitalInputDevice] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._extra: list[ButtonDebouncer] = []
        self._steps_per_detent = steps_per_detent
        self._sim_position = 0
        try:
            for button in Button:
                pin = self.pin_map[button.value]
                if pin is None:
                    continue
                hold = holds.get(button)
                btiming = base if hold is None else _with_hold(base, hold)
                deb = ButtonDebouncer(
                    button, emit, clock=clock, timing=btiming, has_hold=hold is not None
                )
                self.debouncers[button] = deb
                self._wire_button(button.value, pin, deb)
            push = self.pin_map["encoder_push"]
            if push is not None:
                deb = ButtonDebouncer(Button.YES, emit, clock=clock, timing=base, label="knob")
                self._extra.append(deb)
                self._wire_button("encoder_push", push, deb)
            self.encoder: QuadratureDecoder | None = None
            a, b = self.pin_map["encoder_a"], self.pin_map["encoder_b"]
            if a is not None and b is not None:
                self.encoder = QuadratureDecoder(
                    emit, steps_per_detent=steps_per_detent, reverse=reverse_encoder
                )
                self._wire_encoder(a, b)
        except Exception:
            self.close()
            raise

    def _device(self, name: str, pin: int) -> DigitalInputDevice:
        device = DigitalInputDevice(
            pin, pull_up=True, bounce_time=None, pin_factory=self.pin_factory
        )
        self._devices[name] = device
        return device

    def _wire_button(self, name: str, pin: int, deb: ButtonDebouncer) -> None:
        device = self._device(name, pin)
        device.when_activated = lambda: deb.edge(True)
        device.when_deactivated = lambda: deb.edge(False)

    def _wire_encoder(self, pin_a: int, pin_b: int) -> None:
        dev_a = self._device("encoder_a", pin_a)
        dev_b = self._device("encoder_b", pin_b)
        encoder = self.encoder
        assert encoder is not None

        def changed() -> None:
            encoder.update(bool(dev_a.value), bool(dev_b.value))

        for dev in (dev_a, dev_b):
            dev.when_activated = changed
            dev.when_deactivated = changed

    def poll(self) -> None:
        """Advance every debouncer to the clock's time (the ticker does this every 5 ms)."""
        for deb in [*self.debouncers.values(), *self._extra]:
            deb.poll()

    def start(self) -> None:
        """Start the ticker thread that polls the debouncers (holds, releases, faults)."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._tick, name="button-panel", daemon=True)
        self._thread.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.poll_interval):
            self.poll()

    def close(self) -> None:
        """Stop the ticker and release the pins."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1)
        self._thread = None
        for device in self._devices.values():
            device.close()
        self._devices.clear()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- simulation: drive the mock pins ------------------------------------------------

    def drive(self, name: str, closed: bool) -> None:
        """Close or open a contact on a mock pin (simulation and tests only)."""
        device = self._devices.get(name)
        if device is None:
            raise KeyError(f"no pin wired for {name!r}")
        pin = device.pin
        if not hasattr(pin, "drive_low"):
            raise RuntimeError("only mock pins can be driven")
        if closed:
            pin.drive_low()  # buttons pull the pin to ground
        else:
            pin.drive_high()

    def turn(self, detents: int) -> None:
        """Turn the simulated encoder by `detents` (negative: counter-clockwise)."""
        gray = [(False, False), (False, True), (True, True), (True, False)]
        step = 1 if detents > 0 else -1
        for _ in range(abs(detents) * self._steps_per_detent):
            self._sim_position = (self._sim_position + step) % 4
            a, b = gray[self._sim_position]
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
