"""The net worth chart draws the same number of points at every move of the game
(web_remote.worth.chart_points): a page showing it is drawn again after every move, and a
long game's thousands of samples must not make that cost grow with the game (issue 28)."""

from __future__ import annotations

import re

import pytest

from web_remote import worth
from web_remote.worth import CHART_POINTS, chart_points, chart_svg

PLOT_WIDTH = 640 - 56 - 12  # chart_svg's plot, between its margins
MOST = CHART_POINTS


def _samples(n: int, players: int = 3) -> list[dict[str, object]]:
    return [{"v": i + 1, "n": i // 4 + 1, "w": [1500 + (i * 7 * (k + 1)) % 900 for k in
                                                 range(players)]} for i in range(n)]


def _points(svg: str) -> list[list[tuple[float, ...]]]:
    lines = re.findall(r'points="([^"]*)"', svg)
    return [[tuple(float(v) for v in p.split(",")) for p in line.split()] for line in lines]


def test_a_short_game_draws_every_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer samples than points: every sample is drawn (some twice, on the same spot), so
    the line looks as it did with one point a sample."""
    assert sorted(set(chart_points(5))) == [0, 1, 2, 3, 4] and len(chart_points(5)) == MOST
    assert chart_points(1) == [0] and chart_points(0) == []
    drawn = _points(chart_svg(["A", "B", "C"], _samples(40), "t"))
    monkeypatch.setattr(worth, "chart_points", lambda n, most=MOST: list(range(n)))
    whole = _points(chart_svg(["A", "B", "C"], _samples(40), "t"))
    for some, every in zip(drawn, whole, strict=True):
        assert len(some) == MOST and len(every) == 40
        assert list(dict.fromkeys(some)) == every  # the same points, in the same order


def test_a_long_game_draws_as_many_points_as_a_short_one() -> None:
    picked = chart_points(5000)
    assert picked[0] == 0 and picked[-1] == 4999 and len(picked) == MOST
    assert picked == sorted(set(picked))
    gaps = [b - a for a, b in zip(picked, picked[1:], strict=False)]
    assert max(gaps) - min(gaps) <= 1  # spread evenly
    short, long = (chart_svg(["A", "B", "C"], _samples(n), "t") for n in (60, 5000))
    assert [len(line) for line in _points(long)] == [MOST] * 3
    assert [len(line) for line in _points(short)] == [MOST] * 3
    assert abs(len(long) - len(short)) < 0.05 * len(short)


def test_the_points_drawn_are_the_samples_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each point drawn is where that sample is on the whole chart, the first and the last
    among them."""
    samples = _samples(3000)
    drawn = _points(chart_svg(["A", "B", "C"], samples, "t"))
    monkeypatch.setattr(worth, "chart_points", lambda n, most=MOST: list(range(n)))
    whole = _points(chart_svg(["A", "B", "C"], samples, "t"))
    for some, every in zip(drawn, whole, strict=True):
        assert len(every) == 3000 and len(some) == MOST
        assert some[0] == every[0] and some[-1] == every[-1]
        assert set(some) <= set(every)
