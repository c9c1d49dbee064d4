"""The banker PIN holds: the table-wide throttle with its growing wait (a clock of our own, no
sleeping), the warning for the banker, the banker sessions' generation, the seats."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.game.pins import (
    FREE_WRONG,
    MAX_BACKOFF_S,
    PIN_CHECKS_PER_MINUTE,
    PinGuard,
    PinStore,
    PinWarning,
)
from web_remote.security import Seats


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> PinStore:
    pins = PinStore(tmp_path / "banker.json")
    pins.set("2468")
    return pins


def test_at_most_ten_checks_a_minute_for_the_whole_table(store: PinStore) -> None:
    clock = Clock()
    guard = PinGuard(store, clock=clock)
    verdicts = []
    for _ in range(PIN_CHECKS_PER_MINUTE + 5):  # right PINs: only the per-minute cap counts
        verdicts.append(guard.check("2468").result)
        clock.now += 1.0
    assert verdicts == ["right"] * PIN_CHECKS_PER_MINUTE + ["wait"] * 5
    wait = guard.check("2468").wait
    assert wait == 45.0  # until the first check (15 s ago) is a minute old
    clock.now += wait
    assert guard.check("2468").right


def test_the_wait_doubles_after_each_wrong_pin_in_a_row(store: PinStore) -> None:
    clock = Clock()
    guard = PinGuard(store, clock=clock)
    waits = []
    for _ in range(FREE_WRONG + 4):
        verdict = guard.check("1111")
        assert verdict.result == "wrong"
        waits.append(verdict.wait)
        if verdict.wait:  # while the table waits, not even the right PIN is checked
            assert guard.check("2468").result == "wait"
        clock.now += verdict.wait
    assert waits[:FREE_WRONG - 1] == [0.0] * (FREE_WRONG - 1)
    assert waits[FREE_WRONG - 1:] == [1.0, 2.0, 4.0, 8.0, 16.0]


def test_the_wait_stops_growing_and_a_right_pin_ends_it(store: PinStore) -> None:
    clock = Clock()
    guard = PinGuard(store, clock=clock)
    for _ in range(40):
        clock.now += guard.wait() + 60.0
        last = guard.check("9999")
    assert last.wait == MAX_BACKOFF_S
    clock.now += guard.wait() + 60.0
    assert guard.check("2468").right
    assert guard.check("9999").wait == 0.0  # a slip of the banker's: no wait at once


def test_a_wrong_pin_warns_the_banker_until_seen(store: PinStore) -> None:
    clock = Clock()
    heard: list[PinWarning] = []
    guard = PinGuard(store, clock=clock, wall=lambda: 1_700_000_000.0 + clock.now,
                     on_warning=heard.append)
    assert guard.warning() is None
    guard.check("2468")
    assert heard == [] and guard.warning() is None  # the right PIN warns nobody
    guard.check("0000")
    clock.now += 5
    guard.check("0001")
    warning = guard.warning()
    assert warning is not None and warning.wrong == 2
    assert warning.last - warning.first == 5
    assert [w.wrong for w in heard] == [1, 2]
    guard.seen()
    assert guard.warning() is None


def test_banker_sessions_have_a_generation(tmp_path: Path) -> None:
    store = PinStore(tmp_path / "banker.json")
    first = store.set("2468")
    assert store.generation == first
    ended = store.end_sessions()
    assert ended == first + 1
    changed = store.set("1357")
    assert changed == ended + 1 and store.check("1357") and not store.check("2468")
    again = PinStore(tmp_path / "banker.json")  # kept with the secret: a restart keeps it
    assert again.generation == changed and again.check("1357")


def test_a_seat_is_held_by_one_phone_until_released(tmp_path: Path) -> None:
    seats = Seats(tmp_path / "seats.json")
    assert seats.take("Ann", "phone-1")
    assert seats.take("Ann", "phone-1")  # the same phone again
    assert not seats.take("Ann", "phone-2")
    assert seats.holds("Ann", "phone-1") and not seats.holds("Ann", "phone-2")
    assert not seats.holds("Ann", "")
    assert Seats(tmp_path / "seats.json").holder("Ann") == "phone-1"  # kept across restarts
    assert seats.release("Ann") and not seats.release("Ann")
    assert seats.take("Ann", "phone-2") and seats.held() == ["Ann"]
