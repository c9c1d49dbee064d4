"""Net worth over time: a sample of every version, drawn as SVG here.

The session's writer tells the recorder where the players stand after each change, before
it answers the change (`GameSessionProtocol.follow`), so the next read of the chart, from
any phone, has the move; the recorder only appends to a list there, and the file is written
by the Persister's thread. The file is JSON lines, appended to: a first line
with the players, then one sample per line, so a move adds one line whatever the game's
length (rewriting the whole chart on every move cost 7.6 ms of CPU at move 1 000 and 39 ms
at 5 000, issue 28). It is replaced whole only for a new game and, past twice MAX_SAMPLES
lines, to drop the samples the chart no longer keeps (once per MAX_SAMPLES moves).

A power cut may tear the last line: reading skips any line that is not a sample of these
players, so the start never breaks on it, and the next line starts on a fresh one. The
samples are the chart's, derived from the states; the moves themselves are in the journal,
so the lines are appended without an fdatasync each (a quarter of a millisecond a move
here, issue 28; the Persister syncs the file every few seconds and at stop): what a power
cut took of them is made again from the journal when the session first tells the recorder
where the game stands (`GameSessionProtocol.standings_since`). The first line names the
saved game (`game`), so a restart on another saved game starts that game's chart rather
than adding to this one.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from companion.game.api import Standing
from web_remote.store import Persister, read_json

JSON = dict[str, Any]
#: a line colour per player, distinguishable on a phone in daylight
PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf")
MAX_SAMPLES = 5000
#: the file before it was appended to: one JSON object, read once when no new file is there
LEGACY_NAME = "networth.json"


def _line(item: JSON) -> bytes:
    return json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def _sample(item: Any, players: int, after: Any) -> JSON | None:
    """`item` when it is a sample of `players` players newer than version `after`."""
    if not isinstance(item, dict):
        return None
    worth, version = item.get("w"), item.get("v")
    if not isinstance(worth, list) or len(worth) != players \
            or not all(isinstance(w, int) and not isinstance(w, bool) for w in worth):
        return None
    if isinstance(version, int) and isinstance(after, int) and version <= after:
        return None  # a line written twice (an append tried again after a failed sync)
    return item


def _game_of(path: Path) -> str | None:
    """The saved game the file's first line names (None: none named, or no file)."""
    try:
        with path.open("rb") as f:
            head = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    game = head.get("game") if isinstance(head, dict) else None
    return game if isinstance(game, str) and game else None


def read_series(path: Path) -> tuple[list[str], list[JSON], int, bool]:
    """The players, their samples (the last MAX_SAMPLES), the file's line count and whether
    it ends with a whole line; a missing or unreadable file is an empty series."""
    try:
        raw = path.read_bytes()
    except OSError:
        return [], [], 0, True
    lines = raw.split(b"\n")
    whole = raw.endswith(b"\n") or not raw
    try:
        head = json.loads(lines[0])
    except ValueError:
        head = None
    names = head.get("players") if isinstance(head, dict) else None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return [], [], len(lines), whole
    samples: list[JSON] = []
    for text in lines[max(1, len(lines) - MAX_SAMPLES - 1):]:  # the chart keeps no more
        if not text.strip():
            continue
        try:
            item = _sample(json.loads(text), len(names), samples[-1].get("v") if samples
                           else None)
        except ValueError:
            item = None  # a line torn by a power cut
        if item is not None:
            samples.append(item)
    return list(names), samples[-MAX_SAMPLES:], len(lines), whole


class WorthRecorder:
    """The series of every player's net worth, one sample per state version."""

    def __init__(self, path: Path, persister: Persister,
                 since: Callable[[int], Sequence[Standing]] | None = None) -> None:
        """`since`: where the game stood at each version after a given one, from the
        journal (the session's `standings_since`), for the samples a power cut took."""
        self._path = path
        self._persister = persister
        self._since = since
        self._lock = threading.Lock()
        self._players, self._samples, self._lines, whole = read_series(path)
        #: the saved game the samples are of (None: not named, a file of an older version)
        self._game = _game_of(path) if self._players else None
        #: the game of the standing told last (None: none told yet)
        self._told_game: str | None = None
        if not self._players and not path.exists():
            self._from_legacy(path.with_name(LEGACY_NAME))
        elif not whole:  # a torn last line: the next sample starts on a fresh line
            self._persister.append(path, b"\n")

    def _from_legacy(self, legacy: Path) -> None:
        """The chart an older version kept in one JSON file, written out in lines once."""
        raw = read_json(legacy, {})
        if not isinstance(raw, dict) or not isinstance(raw.get("samples"), list) \
                or not isinstance(raw.get("players"), list):
            return
        players = [str(p) for p in raw["players"]]
        samples = [s for s in raw["samples"] if _sample(s, len(players), None) is not None]
        self._players, self._samples = players, samples[-MAX_SAMPLES:]
        self._rewrite()

    def _rewrite(self) -> None:
        """Schedule replacing the file with the players and the samples kept (caller holds
        the lock, or is the constructor). The lines are made on the Persister's thread: the
        caller may be the session's writer, and this copies only the list."""
        head: JSON = {"players": list(self._players)}
        if self._game:
            head["game"] = self._game
        samples = list(self._samples)
        self._lines = len(samples) + 2
        self._persister.replace(
            self._path, lambda: b"".join([_line(head), *map(_line, samples)]))

    def record(self, standing: Standing) -> None:
        """Add a sample of this version (the session's writer, after each change: keep it
        cheap); a game dealt or switched to, another saved game, or other players, start
        a new series. A saved game switched to before its first deal has no chart. The
        first standing told after a start may be some versions past the file's last line
        (a power cut took the lines not synced yet): those versions are made again from
        the journal (`since`) before it."""
        names = list(standing.players)
        with self._lock:
            if not names:
                if standing.fresh and self._players:
                    self._players, self._samples, self._game = [], [], standing.game or None
                    self._rewrite()
                return
            last = self._samples[-1]["v"] if self._samples else None
            known = self._game is not None and bool(standing.game)
            fresh = standing.fresh or names != self._players \
                or (known and standing.game != self._game) \
                or (last is not None and standing.version < last)  # not this game's past
            rewrite = fresh or (bool(standing.game) and self._game is None)  # named now
            if fresh:
                self._players, self._samples, last = names, [], None
            elif last == standing.version:  # told twice: a follower is told when it starts
                if rewrite:
                    self._game = standing.game
                    self._rewrite()
                return
            if standing.game:
                self._game = standing.game
            told = [standing]
            if self._since is None:
                pass
            elif last is not None and standing.version > last + 1:  # lines a cut took
                told = [s for s in self._since(last)
                        if last < s.version < standing.version] + told
            elif last is None and not standing.fresh and self._game != self._told_game:
                # the first word of a game not dealt nor switched to now: a start on a
                # saved game whose chart the file does not hold (another game's was there)
                told = [s for s in self._since(0) if s.version < standing.version] + told
            self._told_game = self._game
            added = 0
            for one in told:
                if one.fresh or list(one.players) != self._players:
                    self._players, self._samples, rewrite = list(one.players), [], True
                if one.players:
                    self._samples.append({"v": one.version, "t": round(time.time(), 1),
                                          "n": one.turn, "w": list(one.worth)})
                    added += 1
            if len(self._samples) > MAX_SAMPLES:
                del self._samples[:-MAX_SAMPLES]
            if rewrite or self._lines + added > 2 * MAX_SAMPLES:
                self._rewrite()
                return
            for sample in self._samples[max(0, len(self._samples) - added):]:
                self._lines += 1
                # no fdatasync a line: the journal has the move, and the line is made again
                # from it after a power cut (above)
                self._persister.append(self._path, _line(sample), sync=False)

    def series(self) -> tuple[list[str], list[JSON]]:
        """The players and their samples, oldest first."""
        with self._lock:
            return list(self._players), list(self._samples)


def _nice_step(top: int) -> int:
    for step in (50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000):
        if top / step <= 6:
            return step
    return 100000


#: the points of each player's line on the chart, however many samples the game has: a
#: page showing the chart is drawn again after every move (web_remote/parts.py), and its
#: cost must not grow with the game (issue 28); on a phone's 330-pixel chart one every 3.5
CHART_POINTS = 96


def chart_points(n: int, most: int = CHART_POINTS) -> list[int]:
    """The indexes of the samples the chart's `most` points draw, of `n` samples: spread
    evenly from the first to the last, each a sample's own (fewer samples than points: some
    drawn twice, where a line through them looks the same, so drawing costs the same at
    every move of the game)."""
    if n <= 1:
        return [0] * n
    return [round(i * (n - 1) / (most - 1)) for i in range(most)]


def chart_svg(players: list[str], samples: list[JSON], title: str, width: int = 640,
              height: int = 320, money: Callable[[int], str] = str,
              digits: Callable[[int], str] = str,
              turn: Callable[[int], str] = lambda n: f"Turn {n}", legend: bool = True) -> str:
    """An SVG line chart of net worth per player over the game: each player's latest
    worth written by `money` (as the edition writes money), the scale's steps by `digits`
    (grouped as the edition groups them), the time axis by the turns of its first and
    last samples, said by `turn` ("Turn 12"). `legend` False leaves the names out (a page
    that lists them beside the chart, legible on a phone: `legend_entries`)."""
    left, right, top, bottom = 56, 12, 28, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    n = len(samples)
    shown = chart_points(n)
    # the scale fits the samples drawn, not every sample: reading all of them after every
    # move would grow with the game
    peak = max((w for i in set(shown) for w in samples[i]["w"]), default=0)
    step = _nice_step(max(peak, 1))
    ymax = max(step, -(-peak // step) * step)

    def x(i: int) -> float:
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: int) -> float:
        return top + plot_h - plot_h * max(v, 0) / ymax

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="{escape(title)}" class="chart">',
           f"<title>{escape(title)}</title>",
           f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fafafa" '
           'stroke="#ccc"/>']
    for tick in range(0, ymax + 1, step):
        ty = y(tick)
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{ty:.1f}" y2="{ty:.1f}" '
                   'stroke="#e3e3e3"/>')
        out.append(f'<text x="{left - 6}" y="{ty + 4:.1f}" text-anchor="end" '
                   f'font-size="11">{escape(digits(tick))}</text>')
    if n:
        first, last = samples[0].get("n"), samples[-1].get("n")
        if isinstance(first, int) and isinstance(last, int):  # older samples have no turn
            out.append(f'<text x="{left}" y="{height - 8}" font-size="11">'
                       f'{escape(turn(first))}</text>')
            out.append(f'<text x="{left + plot_w}" y="{height - 8}" font-size="11" '
                       f'text-anchor="end">{escape(turn(last))}</text>')
    xs = [(f"{x(i):.1f},", samples[i]["w"]) for i in shown]  # once for every player
    for k, name in enumerate(players):
        colour = PALETTE[k % len(PALETTE)]
        points = " ".join(f"{at}{top + plot_h - plot_h * max(w[k], 0) / ymax:.1f}"
                          for at, w in xs if k < len(w))
        if points:
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" '
                       f'stroke-linejoin="round" points="{points}" data-player="{escape(name)}"/>')
        if not legend:
            continue
        lx = left + 8 + (k % 4) * (plot_w // 4)
        ly = 12 + (k // 4) * 14
        out.append(f'<rect x="{lx}" y="{ly - 8}" width="10" height="10" fill="{colour}"/>')
        last = samples[-1]["w"][k] if samples and k < len(samples[-1]["w"]) else 0
        out.append(f'<text x="{lx + 14}" y="{ly + 1}" font-size="11">{escape(name)} '
                   f"{escape(money(last))}</text>")
    out.append("</svg>")
    return "\n".join(out)


def legend_entries(players: list[str], samples: list[JSON],
                   money: Callable[[int], str] = str) -> list[tuple[str, str, str]]:
    """(name, colour, latest worth) of every player, in the chart's colours."""
    last = samples[-1]["w"] if samples else []
    return [(name, PALETTE[k % len(PALETTE)], money(last[k] if k < len(last) else 0))
            for k, name in enumerate(players)]
