"""The button panel on gpiozero's mock pins: presses, holds, bounce, faults, the encoder;
the configured pins and hold time; timers only while a button has something coming."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig, EncoderConfig
from companion.inputs.events import Button, ButtonEvent, EncoderEvent, Gesture, HardwareWarning
from hardware.debounce import DebounceTiming
from hardware.panel import KNOB, ButtonPanel, PanelConfigError

ENCODER = EncoderConfig(enabled=True)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    old = Device.pin_factory
    mock = MockFactory()
    Device.pin_factory = mock
    yield mock
    mock.reset()
    Device.pin_factory = old


class FakeTimers:
    """gpiozero-free timers run by hand on the fake clock: what the panel armed, when."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.armed: list[tuple[float, int, Callable[[], None]]] = []
        self.started = 0
        self.fired = 0

    def __call__(self, delay: float, fn: Callable[[], None]) -> Callable[[], None]:
        self.started += 1
        entry = (self.clock.now + max(0.0, delay), self.started, fn)
        self.armed.append(entry)
        return lambda: self.armed.remove(entry) if entry in self.armed else None

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass, firing every timer due on the way, in time order."""
        end = self.clock.now + seconds
        while True:
            due = [e for e in self.armed if e[0] <= end]
            if not due:
                break
            entry = min(due)
            self.armed.remove(entry)
            self.clock.now = max(self.clock.now, entry[0])
            self.fired += 1
            entry[2]()
        self.clock.now = end


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def timers(clock: FakeClock) -> FakeTimers:
    return FakeTimers(clock)


@pytest.fixture
def events() -> list[object]:
    return []


@pytest.fixture
def panel(factory: MockFactory, clock: FakeClock, timers: FakeTimers,
          events: list[object]) -> Iterator[ButtonPanel]:
    with ButtonPanel(events.append, ButtonsConfig(hold_seconds=1.5), ENCODER,
                     pin_factory=factory, clock=clock, schedule=timers) as p:
        p.timers = timers  # type: ignore[attr-defined]
        yield p


def step(panel: ButtonPanel, clock: FakeClock, seconds: float, tick: float = 0.0) -> None:
    """Let `seconds` pass: the panel's timers fire when due (no polling)."""
    timers: FakeTimers = panel.timers  # type: ignore[attr-defined]
    timers.advance(seconds)


def press(panel: ButtonPanel, clock: FakeClock, name: str, held: float = 0.1) -> None:
    panel.drive(name, True)
    step(panel, clock, held)
    panel.drive(name, False)
    step(panel, clock, 0.1)


def buttons(events: list[object]) -> list[ButtonEvent]:
    return [e for e in events if isinstance(e, ButtonEvent)]


def warnings_of(events: list[object]) -> list[HardwareWarning]:
    return [e for e in events if isinstance(e, HardwareWarning)]


def test_press_reported_once_after_it_settles(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    panel.drive("roll", True)
    step(panel, clock, 0.0)
    assert events == []
    step(panel, clock, 0.03)
    assert events == [ButtonEvent(Button.ROLL, Gesture.PRESS)]
    panel.drive("roll", False)
    step(panel, clock, 0.5)
    assert len(events) == 1


@pytest.mark.parametrize("name", [b.value for b in Button if b is not Button.MENU])
def test_each_button_reports_its_own_press(
    panel: ButtonPanel, clock: FakeClock, events: list[object], name: str
) -> None:
    press(panel, clock, name)
    assert buttons(events) == [ButtonEvent(Button(name), Gesture.PRESS)]


def test_bouncing_contact_is_one_press(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    for i in range(9):  # close, open, close, ... 2 ms apart, ending closed
        panel.drive("yes", i % 2 == 0)
        step(panel, clock, 0.002, tick=0.001)
    step(panel, clock, 0.2)
    for i in range(9):  # the release bounces too, ending open
        panel.drive("yes", i % 2 == 1)
        step(panel, clock, 0.002, tick=0.001)
    step(panel, clock, 0.2)
    assert events == [ButtonEvent(Button.YES, Gesture.PRESS)]


def test_glitch_shorter_than_settle_time_is_ignored(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    panel.drive("no", True)
    step(panel, clock, 0.01)
    panel.drive("no", False)
    step(panel, clock, 0.5)
    assert events == []


def test_an_edge_settles_the_old_level_before_any_timer_fires(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    panel.drive("roll", True)
    clock.now += 0.05
    panel.drive("roll", False)  # no poll in between: the edge settles the old level
    assert events == [ButtonEvent(Button.ROLL, Gesture.PRESS)]


def test_hold_menu_is_a_hold_not_a_press(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    panel.drive("menu", True)
    step(panel, clock, 1.4)
    assert events == []
    step(panel, clock, 0.2)
    assert events == [ButtonEvent(Button.MENU, Gesture.HOLD)]
    step(panel, clock, 1.0)
    panel.drive("menu", False)
    step(panel, clock, 0.2)
    assert events == [ButtonEvent(Button.MENU, Gesture.HOLD)]


def test_short_menu_press_is_reported_on_release(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    panel.drive("menu", True)
    step(panel, clock, 0.5)
    assert events == []
    panel.drive("menu", False)
    step(panel, clock, 0.1)
    assert events == [ButtonEvent(Button.MENU, Gesture.PRESS)]


def test_stuck_button_warns_is_ignored_and_recovers(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    panel.drive("undo", True)
    step(panel, clock, 11.0, tick=0.05)
    warns = warnings_of(events)
    assert [(w.code, w.source, w.active) for w in warns] == [("button_stuck", "undo", True)]
    assert "UNDO" in warns[0].message
    panel.drive("undo", False)
    step(panel, clock, 0.1)
    assert [(w.code, w.active) for w in warnings_of(events)][-1] == ("button_stuck", False)
    press(panel, clock, "undo")
    assert buttons(events) == [ButtonEvent(Button.UNDO)] * 2  # the first press and this one


def test_chattering_button_warns_and_is_ignored_until_quiet(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    level = False
    for _ in range(200):  # flickers every 5 ms for a second
        level = not level
        panel.drive("pass_go", level)
        step(panel, clock, 0.005, tick=0.005)
    panel.drive("pass_go", False)
    assert buttons(events) == []
    assert [(w.code, w.active) for w in warnings_of(events)] == [("button_chatter", True)]
    step(panel, clock, 3.5, tick=0.05)
    assert [(w.code, w.active) for w in warnings_of(events)][-1] == ("button_chatter", False)
    press(panel, clock, "pass_go")
    assert buttons(events) == [ButtonEvent(Button.PASS_GO)]


def test_settled_flicker_faster_than_a_hand_counts_as_chatter(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    for _ in range(20):
        press(panel, clock, "roll", held=0.03)  # ~ 8 clean presses a second
    presses = buttons(events)
    assert 0 < len(presses) <= 12
    assert [w.code for w in warnings_of(events)] == ["button_chatter"]


def test_encoder_reports_detents_both_ways(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    panel.turn(3)
    panel.turn(-2)
    assert events == [EncoderEvent(1)] * 3 + [EncoderEvent(-1)] * 2


def test_encoder_contact_bounce_does_not_step(panel: ButtonPanel, events: list[object]) -> None:
    for _ in range(5):
        panel.drive("encoder_a", True)
        panel.drive("encoder_a", False)
    assert events == []


def test_keyboard_drives_the_mock_buttons(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    assert panel.key_down("y")
    step(panel, clock, 0.05)
    assert panel.key_up("y")
    assert panel.key_down("up")
    assert not panel.key_down("q")
    assert events == [ButtonEvent(Button.YES), EncoderEvent(1)]


def test_encoder_push_acts_as_yes(panel: ButtonPanel, clock: FakeClock,
                                  events: list[object]) -> None:
    press(panel, clock, KNOB)
    assert events == [ButtonEvent(Button.YES)]


def test_the_encoder_is_wired_only_when_enabled(factory: MockFactory) -> None:
    events: list[object] = []
    with ButtonPanel(events.append, pin_factory=factory) as p:
        assert p.encoder is None
        assert not p.key_down("up")
        with pytest.raises(KeyError):
            p.drive(KNOB, True)


def test_configured_pins_are_the_ones_wired(factory: MockFactory, clock: FakeClock) -> None:
    events: list[object] = []
    timers = FakeTimers(clock)
    buttons = ButtonsConfig(roll=4, yes=12, no=16, pass_go=20, undo=21, menu=26)
    encoder = EncoderConfig(enabled=True, a=19, b=18, button=13)
    with ButtonPanel(events.append, buttons, encoder, pin_factory=factory, clock=clock,
                     schedule=timers):
        factory.pin(12).drive_low()  # YES, by its configured pin
        timers.advance(0.05)
        factory.pin(12).drive_high()
        timers.advance(0.05)
        a, b = factory.pin(19), factory.pin(18)
        for pin in (a, b):  # one clockwise detent: A closes first
            pin.drive_low()
        for pin in (a, b):
            pin.drive_high()
        factory.pin(27).drive_low()  # the default YES pin is not wired any more
        timers.advance(0.05)
    assert events == [ButtonEvent(Button.YES), EncoderEvent(1)]


@pytest.mark.parametrize("hold", [0.3, 4.0])
def test_the_configured_hold_time_is_the_menu_hold(factory: MockFactory, clock: FakeClock,
                                                   hold: float) -> None:
    events: list[object] = []
    timers = FakeTimers(clock)
    with ButtonPanel(events.append, ButtonsConfig(hold_seconds=hold), pin_factory=factory,
                     clock=clock, schedule=timers) as p:
        p.drive("menu", True)
        timers.advance(hold - 0.05)
        assert events == []
        timers.advance(0.1)
        assert events == [ButtonEvent(Button.MENU, Gesture.HOLD)]
        p.drive("menu", False)
        timers.advance(0.1)
    assert events == [ButtonEvent(Button.MENU, Gesture.HOLD)]


def test_no_timer_is_armed_while_every_button_rests(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    timers: FakeTimers = panel.timers  # type: ignore[attr-defined]
    assert (panel.waiting, timers.started) == (0, 0)
    step(panel, clock, 60.0)
    assert timers.fired == 0
    panel.drive("menu", True)
    assert panel.waiting == 1  # settling, then the hold and the stuck check
    step(panel, clock, 0.1)
    assert panel.waiting == 1
    panel.drive("menu", False)
    step(panel, clock, 0.1)
    assert events == [ButtonEvent(Button.MENU, Gesture.PRESS)]
    assert panel.waiting == 0 and timers.armed == []
    fired = timers.fired
    step(panel, clock, 60.0)
    assert timers.fired == fired
    panel.turn(2)  # the encoder needs no timer at all
    assert panel.waiting == 0


def test_a_bouncing_contact_keeps_one_timer(
    panel: ButtonPanel, clock: FakeClock, events: list[object]
) -> None:
    timers: FakeTimers = panel.timers  # type: ignore[attr-defined]
    for i in range(9):
        panel.drive("yes", i % 2 == 0)
        clock.now += 0.001
    assert timers.started == 1 and len(timers.armed) == 1
    step(panel, clock, 0.1)
    assert events == [ButtonEvent(Button.YES)]


def test_pins_used_twice_are_refused(factory: MockFactory) -> None:
    with pytest.raises(PanelConfigError, match="buttons.no: GPIO 17 is already used"):
        ButtonPanel(lambda e: None, ButtonsConfig(no=17), pin_factory=factory)
    with pytest.raises(PanelConfigError, match="encoder.b: GPIO 25 is already used"):
        ButtonPanel(lambda e: None, encoder=EncoderConfig(enabled=True, b=25),
                    pin_factory=factory)


def test_default_pins_avoid_uart_i2c_spi() -> None:
    used = [*ButtonsConfig().pins.values(), *EncoderConfig(enabled=True).pins.values()]
    assert set(used).isdisjoint({2, 3, 7, 8, 9, 10, 11, 14, 15})
    assert len(set(used)) == len(used)


def test_real_timers_report_a_hold_and_then_no_thread_waits(factory: MockFactory) -> None:
    got = threading.Event()
    seen: list[object] = []

    def emit(event: object) -> None:
        seen.append(event)
        got.set()

    def panel_threads() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name == "button-timer" and t.is_alive()]

    timing = DebounceTiming(settle=0.005)
    buttons = ButtonsConfig(hold_seconds=0.1)
    with ButtonPanel(emit, buttons, pin_factory=factory, timing=timing) as p:
        assert panel_threads() == [] and p.waiting == 0
        p.drive("menu", True)
        assert got.wait(5)
        assert seen == [ButtonEvent(Button.MENU, Gesture.HOLD)]
        p.drive("menu", False)
        for _ in range(10):  # the release settles on its timer, which then arms no other
            for thread in panel_threads():
                thread.join(5)
        assert p.waiting == 0
        assert panel_threads() == []
    assert seen == [ButtonEvent(Button.MENU, Gesture.HOLD)]
