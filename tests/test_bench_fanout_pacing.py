"""The fan-out bench's phones wait for their turn under its pacing before a timed payment,
never inside one (issue 28: such waits made the late game's p99 0.6-0.8 s). Counted, not
timed: the waits the phones made, and those inside a timed span."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

import tools.bench.fanout as fanout
import tools.bench.probe as probe
from tools.bench.journal import build_journal
from tools.bench.probe import HttpPhone


class _Clock:
    """A monotonic clock that only a sleep moves on, counting the sleeps."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps = 0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps += 1
        self.now += max(seconds, 0.0)


def test_a_phone_at_its_limit_waits_once_and_then_may_send(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(probe, "time", types.SimpleNamespace(
        monotonic=clock.monotonic, sleep=clock.sleep))
    phone = HttpPhone("http://127.0.0.1:9", per_s=3)
    phone.wait_turn()
    assert clock.sleeps == 0 and phone.paced == 0  # nothing sent yet: no wait
    phone._sent.extend([clock.now - 0.5, clock.now - 0.2, clock.now])  # 3 in the last second
    phone.wait_turn()
    assert clock.sleeps == 1 and phone.paced == 1
    assert clock.now == pytest.approx(100.5)  # until the oldest is a second old
    phone.wait_turn()  # what `request` does first: its turn has come, so no second wait
    assert clock.sleeps == 1 and phone.paced == 1
    unpaced = HttpPhone("http://127.0.0.1:9")
    unpaced._sent.extend([clock.now] * 50)
    unpaced.wait_turn()
    assert clock.sleeps == 1 and unpaced.paced == 0


def test_fanout_phones_wait_before_the_timed_payment_not_inside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a pace far under the payments' rate, so the phones must wait for their turn often
    monkeypatch.setattr(fanout, "PHONE_PER_S", 4)
    monkeypatch.setattr(fanout, "PAGE_MOVES", 2)
    monkeypatch.setattr(fanout, "REFRESHES", 2)
    build_journal(tmp_path, 30, seed=5, players=len(fanout.PLAYERS), remote=True)
    timings, _refused, _cpu, _bytes, pages = fanout.fanout_ms(tmp_path, 40)
    assert len(timings) == 40
    assert pages["paced"] > 0  # the pace held the phones back...
    assert pages["paced_in_span"] == 0  # ...always before the clock started
