"""The news window followed move by move (`NewsWindow`, issue 28) gives every player the same
items, in the same order, as gathering them afresh over the last NEWS_MOVES moves in force
(`news_items`), through moves, undos, redos, jumps back and undos of jumps, new deals and
their undo, marks, and a journal that cannot be read for a while; and through a real session
its reads of the journal stay a move's, not the window's."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.replaying import Stacks
from companion.game.session import GameSession
from companion.game.telling.seen import (
    NewsWindow,
    SeenNews,
    move_news,
    news_items,
)
from companion.rules.events import Event, GameStarted, Jailed, Rolled, Transfer, events_json

JSON = dict[str, Any]
PLAYERS = ("Ann", "Bo", "Cy", "Di")
SIZE = 7  # a small window, so moves leave it and come back all the time


def _events(rng: random.Random) -> list[JSON]:
    """One command's events, as the journal keeps them: payments between players or with
    the bank, a jail, a roll (no one's news), now and then a new deal."""
    out: list[Event] = []
    if rng.random() < 0.04:
        out.append(GameStarted("classic", PLAYERS))
    for _ in range(rng.randrange(0, 3)):
        kind = rng.random()
        if kind < 0.6:
            a, b = rng.sample([*PLAYERS, None], 2)
            out.append(Transfer(a, b, rng.randrange(1, 50), "rent"))
        elif kind < 0.8:
            out.append(Jailed(rng.choice(PLAYERS)))
        else:
            out.append(Rolled(rng.choice(PLAYERS), (1, 2)))
    return events_json(out)


class Table:
    """A journal in memory: rows with their events, the undo stack they make, marks."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rows: dict[int, list[JSON]] = {}
        self.stacks = Stacks()
        self.seq = 0
        self.seen = SeenNews(None)
        self.broken = False

    def read(self, rows: Sequence[int]) -> dict[int, list[JSON]]:
        if self.broken:
            raise OSError("disk gone")
        return {r: self.rows[r] for r in rows}

    def step(self) -> tuple[str, list[str]] | None:
        """One random row (mostly commands, some undos, redos, jumps back), or marks: the
        player and the keys they saw."""
        r = self.rng.random()
        st = self.stacks
        if r < 0.55 or not st.undo:
            self._row("command", None, _events(self.rng))
        elif r < 0.75:
            self._row("undo", st.undo[-1][1], [])
        elif r < 0.85 and st.redo:
            target = st.redo[-1]
            self._row("redo", target, [{"kind": "redone", "seq": target},
                                       *[e for e in self.rows[target]
                                         if e.get("kind") != "redone"]])
        elif r < 0.92 and len(st.undo) > 2:
            target = st.undo[self.rng.randrange(0, len(st.undo) - 1)][1]
            self._row("undo_to", target, [])
        else:
            return self.mark()
        return None

    def _row(self, kind: str, target: int | None, events: list[JSON]) -> None:
        self.seq += 1
        self.rows[self.seq] = events
        self.stacks.record(self.seq, kind, target)

    def mark(self) -> tuple[str, list[str]] | None:
        """A player marks some of their unseen items seen."""
        player = self.rng.choice(PLAYERS)
        items = expected(self)[0].get(player, [])
        keys = [i["key"] for i in items if self.rng.random() < 0.5]
        unseen = [k for k in keys if not self.seen.has(player, k)]
        if not unseen:
            return None
        self.seen.mark(player, unseen)
        return player, unseen


def expected(table: Table) -> tuple[dict[str, list[JSON]], dict[str, list[JSON]]]:
    """Every player's items, and unseen items newest first, gathered afresh."""
    window = table.stacks.undo[-SIZE:]
    items = news_items(move_news(move, table.rows[applied]) for applied, move in window)
    unseen = {p: [i for i in reversed(found) if not table.seen.has(p, i["key"])]
              for p, found in items.items()}
    return items, unseen


def check(window: NewsWindow, table: Table) -> None:
    items, unseen = expected(table)
    for player in PLAYERS:
        assert window.items(player) == items.get(player, []), (player, table.seq)
        mine = unseen.get(player, [])
        assert window.unseen(player) == mine, (player, table.seq)
        ends = (len(mine), mine[0]["key"], mine[-1]["key"]) if mine else (0, None, None)
        assert window.summary(player) == ends


@pytest.mark.parametrize("seed", range(12))
def test_the_window_followed_is_the_window_gathered(seed: int) -> None:
    table = Table(seed)
    window = NewsWindow(table.seen, size=SIZE)
    assert window.sync(table.stacks.undo, table.read)
    dealt = 0
    for _ in range(600):
        marked = table.step()
        if marked is not None:
            window.marked(*marked)
        if table.rng.random() < 0.15:  # a reader now and then: several rows in one sync
            continue
        assert window.sync(table.stacks.undo, table.read)
        check(window, table)
        dealt += any(e["kind"] == "game_started" for e in table.rows.get(table.seq, []))
    assert dealt  # a new deal in force, followed and undone, was among the moves


def test_a_journal_that_cannot_be_read_leaves_the_window_to_catch_up() -> None:
    table = Table(99)
    window = NewsWindow(table.seen, size=SIZE)
    for _ in range(40):
        table.step()
    assert window.sync(table.stacks.undo, table.read)
    table.broken = True
    for _ in range(20):
        table.step()
    with pytest.raises(OSError):
        window.sync(table.stacks.undo, table.read)
    table.broken = False
    assert window.sync(table.stacks.undo, table.read)
    check(window, table)


def test_a_missing_row_is_not_taken_as_no_news() -> None:
    table = Table(5)
    window = NewsWindow(table.seen, size=SIZE)
    for _ in range(30):
        table._row("command", None, _events(table.rng))
    assert not window.sync(table.stacks.undo, lambda rows: {})
    assert window.sync(table.stacks.undo, table.read)
    check(window, table)


def test_undoing_the_deal_brings_the_game_before_back() -> None:
    table = Table(1)
    window = NewsWindow(table.seen, size=SIZE)
    pay = Transfer("Ann", "Bo", 5, "rent")
    table._row("command", None, events_json([pay]))
    table._row("command", None, events_json([GameStarted("classic", ("Ann", "Bo")), pay]))
    assert window.sync(table.stacks.undo, table.read)
    assert [i["key"] for i in window.items("Ann")] == ["2:1"]
    table._row("undo", 2, [])
    assert window.sync(table.stacks.undo, table.read)
    assert [i["key"] for i in window.items("Ann")] == ["1:0"]
    check(window, table)


class CountingJournal:
    """Wraps a session's journal: which rows its reads covered."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.rows_read = 0

    def entries(self, after: int = 0, upto: int | None = None) -> Any:
        for entry in self.inner.entries(after=after, upto=upto):
            self.rows_read += 1
            yield entry

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_session_reads_a_move_not_the_window(tmp_path: Path) -> None:
    """Through a real session: after each move the news of every player are read (as the
    phones' stream does) and the journal is read back for no row at all (the row just
    committed is at hand); an undo brings back one older move: one row read for it."""
    table = Source("script", banker=True)
    session = GameSession.open(tmp_path)
    try:
        assert session.submit({"do": "new_game", "players": ["Ann", "Bo", "Cy"],
                               "edition": "classic-eur", "seed": 3}, table).accepted
        assert session.news_summary("Ann")[0] == 1  # the deal's own item: its cash
        counting = CountingJournal(session._journal)
        session._journal = counting  # type: ignore[assignment]
        for n in range(450):
            payer, payee = ("Ann", "Bo") if n % 2 else ("Bo", "Ann")
            assert session.submit({"do": "pay", "from": payer, "to": payee, "amount": 1},
                                  table).accepted
            assert session.news_summary("Ann")[0] == min(n + 2, 400)
        assert counting.rows_read == 0
        newest = session.news("Ann")[0]["key"]
        assert session.undo(table).accepted
        counting.rows_read = 0  # the undo's own reads (the card in force...) are not news
        assert session.news_summary("Ann")[0] == 400
        assert session.news("Ann")[0]["key"] != newest
        assert counting.rows_read <= 2  # the move back in: one row (and its run's end)
    finally:
        session.close()
