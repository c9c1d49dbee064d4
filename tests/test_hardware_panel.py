"""The button panel on gpiozero's mock pins: presses, holds, bounce, faults, the encoder."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.inputs.events import Button, ButtonEvent, EncoderEvent, Gesture, HardwareWarning
from hardware.debounce import DebounceTiming
from hardware.panel import DEFAULT_PIN_MAP, ButtonPanel, PanelConfigError, validate_pin_map


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


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def events() -> list[object]:
    return []


@pytest.fixture
def panel(factory: MockFactory, clock: FakeClock, events: list[object]) -> Iterator[ButtonPanel]:
    with ButtonPanel(events.append, pin_factory=factory, clock=clock) as p:
        yield p


def step(panel: ButtonPanel, clock: FakeClock, seconds: float, tick: float = 0.005) -> None:
    """Let `seconds` pass with the ticker polling every `tick`."""
    end = clock.now + seconds
    while clock.now < end:
        clock.now = min(end, clock.now + tick)
        panel.poll()


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
    panel.poll()
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


def test_debounce_without_ticker_settles_on_next_edge(
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


def test_encoder_push_acts_as_yes(factory: MockFactory, clock: FakeClock) -> None:
    events: list[object] = []
    with ButtonPanel(events.append, {"encoder_push": 13}, pin_factory=factory, clock=clock) as p:
        press(p, clock, "encoder_push")
    assert events == [ButtonEvent(Button.YES)]


def test_missing_buttons_and_encoder_can_be_left_out(factory: MockFactory) -> None:
    events: list[object] = []
    pins = {"pass_go": None, "encoder_a": None, "encoder_b": None}
    with ButtonPanel(events.append, pins, pin_factory=factory) as p:
        assert Button.PASS_GO not in p.debouncers
        assert p.encoder is None
        assert not p.key_down("g")


@pytest.mark.parametrize(
    "pins, message",
    [
        ({"jump": 4}, "unknown button"),
        ({"roll": 27}, "used by both"),
        ({"encoder_b": None}, "both encoder_a and encoder_b"),
    ],
)
def test_bad_pin_maps_are_refused(pins: dict[str, int | None], message: str) -> None:
    with pytest.raises(PanelConfigError, match=message):
        validate_pin_map(pins)


def test_default_pin_map_avoids_uart_i2c_spi() -> None:
    used = {pin for pin in DEFAULT_PIN_MAP.values() if pin is not None}
    assert used.isdisjoint({2, 3, 7, 8, 9, 10, 11, 14, 15})
    assert len(used) == len([p for p in DEFAULT_PIN_MAP.values() if p is not None])


def test_ticker_thread_reports_presses_with_the_real_clock(factory: MockFactory) -> None:
    got = threading.Event()
    seen: list[object] = []

    def emit(event: object) -> None:
        seen.append(event)
        got.set()

    timing = DebounceTiming(settle=0.005)
    with ButtonPanel(emit, pin_factory=factory, timing=timing, poll_interval=0.001) as p:
        p.start()
        p.drive("roll", True)
        assert got.wait(2)
    assert seen == [ButtonEvent(Button.ROLL)]
