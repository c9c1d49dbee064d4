"""The net worth chart draws a bounded number of points (web_remote.worth.chart_points):
a page showing it is drawn again after every move, and a long game's thousands of samples
must not make that cost grow with the game (issue 28)."""

from __future__ import annotations

import re

import pytest

from web_remote import worth
from web_remote.worth import CHART_POINT_PX, chart_points, chart_svg

PLOT_WIDTH = 640 - 56 - 12  # chart_svg's plot, between its margins
MOST = PLOT_WIDTH // CHART_POINT_PX


def _samples(n: int, players: int = 3) -> list[dict[str, object]]:
    return [{"v": i + 1, "n": i // 4 + 1, "w": [1500 + (i * 7 * (k + 1)) % 900 for k in
                                                 range(players)]} for i in range(n)]


def _points(svg: str) -> list[list[tuple[float, ...]]]:
    lines = re.findall(r'points="([^"]*)"', svg)
    return [[tuple(float(v) for v in p.split(",")) for p in line.split()] for line in lines]


def test_a_short_game_draws_every_sample() -> None:
    assert chart_points(5, MOST) == [0, 1, 2, 3, 4]
    assert [len(line) for line in _points(chart_svg(["A", "B", "C"], _samples(40), "t"))] \
        == [40, 40, 40]


def test_a_long_game_draws_as_many_points_as_a_medium_one() -> None:
    picked = chart_points(5000, MOST)
    assert picked[0] == 0 and picked[-1] == 4999 and len(picked) == MOST
    assert picked == sorted(set(picked))
    gaps = [b - a for a, b in zip(picked, picked[1:], strict=False)]
    assert max(gaps) - min(gaps) <= 1  # spread evenly
    medium, long = (chart_svg(["A", "B", "C"], _samples(n), "t") for n in (1000, 5000))
    assert [len(line) for line in _points(long)] == [MOST] * 3
    assert [len(line) for line in _points(medium)] == [MOST] * 3
    assert abs(len(long) - len(medium)) < 0.05 * len(medium)


def test_the_points_drawn_are_the_samples_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each point drawn is where that sample is on the whole chart, the first and the last
    among them."""
    samples = _samples(3000)
    drawn = _points(chart_svg(["A", "B", "C"], samples, "t"))
    monkeypatch.setattr(worth, "chart_points", lambda n, most: list(range(n)))
    whole = _points(chart_svg(["A", "B", "C"], samples, "t"))
    for some, every in zip(drawn, whole, strict=True):
        assert len(every) == 3000 and len(some) == MOST
        assert some[0] == every[0] and some[-1] == every[-1]
        assert set(some) <= set(every)
