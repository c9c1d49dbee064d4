"""Nothing that grows with the game on the per-move path (issue 28): 5 000 moves through
the real session with the phone remote attached and 12 phones' streams drained, and the
work of the last 100 moves is that of the first 100 once the news window is full (within
15 %; until it fills, each move's news check reads one more move, up to NEWS_MOVES).

Work is counted, not timed, so the test holds on a loaded machine: every Python function
call on every thread (a global trace function, installed before the session's threads
start, that asks for no tracing inside the calls), and every character serialized by
`json.dumps` (the C encoder's work, which no call count sees: a file rewritten whole on
every move shows there; the chart rewritten so made the last window 11x the first). The
data directory is on /dev/shm when there is one: an fsync there is free, so 5 000 moves
take seconds of CPU.
"""

from __future__ import annotations

import itertools
import json
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from companion.game.telling.seen import NEWS_MOVES
from tools.bench.journal import bot_script
from web_remote import create_app
from web_remote.context import Remote

TABLE = Source("script", banker=True)
MOVES = 5000
#: bot moves before the payments: deeds, houses and mortgages on the board
OPENING = 200
#: the first window is measured once the players' news window is full of payments: a
#: phone's news reaches back NEWS_MOVES moves, and the phones' stream asks whose news
#: changed at every move (a cost bounded by that window, which fills first)
FIRST = OPENING + NEWS_MOVES
WINDOW = 100
PHONES = 12
#: the last window's work over the first one's, at most
GROWTH = 1.15


class Work:
    """Calls on every thread, and bytes serialized by json.dumps, while `on`."""

    def __init__(self) -> None:
        self.on = False
        self._calls = itertools.count()  # next() on it is atomic: threads count alike
        self._bytes = 0
        self._bytes_lock = threading.Lock()

    def trace(self, _frame: FrameType, _event: str, _arg: Any) -> None:
        """The global trace function of every thread: called on each Python function call
        only (it asks for no tracing inside the function), so it costs a few percent."""
        if self.on:
            next(self._calls)

    def dumps(self, real: Callable[..., str]) -> Callable[..., str]:
        """json.dumps counting the characters it produces."""
        def counted(*args: Any, **kwargs: Any) -> str:
            out = real(*args, **kwargs)
            if self.on:
                with self._bytes_lock:
                    self._bytes += len(out)
            return out
        return counted

    def read(self) -> tuple[int, int]:
        """(calls, bytes) so far."""
        return next(self._calls), self._bytes


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    """A data directory on tmpfs when there is one (fsync is free there), else tmp_path."""
    shm = Path("/dev/shm")
    if shm.is_dir():
        with tempfile.TemporaryDirectory(dir=shm, prefix="companion-flat-") as tmp:
            yield Path(tmp)
    else:
        yield tmp_path


def _drain(remote: Remote, stop: threading.Event) -> list[threading.Thread]:
    """PHONES streams on the remote's hub, each encoding what it is sent (as the serving
    loop does for a phone) on a thread of its own."""
    threads = []
    for i in range(PHONES):
        client = remote.hub.subscribe(f"phone-{i}")
        assert client is not None

        def run(c: Any = client) -> None:
            while not stop.is_set():
                batch, ended = c.wait(None)
                for message in batch:
                    message.encode()
                if ended:
                    return
        t = threading.Thread(target=run, daemon=True)
        t.start()
        threads.append(t)
    return threads


def test_the_last_moves_cost_what_the_first_did(data_dir: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    work = Work()
    monkeypatch.setattr(json, "dumps", work.dumps(json.dumps))
    threading.settrace(work.trace)
    sys.settrace(work.trace)
    stop = threading.Event()
    try:
        session = GameSession.open(data_dir)
        app = create_app(session, data_dir, {})
        remote: Remote = app.extensions["web_remote"]
        drains = _drain(remote, stop)
        try:
            for command in bot_script(seed=11, count=OPENING, players=8):
                assert remote.session.submit(command, TABLE).accepted, command
            payers = [p.name for p in session.game_state().players  # type: ignore[union-attr]
                      if not p.bankrupt]
            moved = OPENING
            windows: list[tuple[int, int]] = []
            while moved < MOVES:
                window = moved == FIRST or moved == MOVES - WINDOW
                if window:
                    assert remote.persister.flush()
                    start = work.read()
                    work.on = True
                for _ in range(WINDOW):
                    payer, payee = payers[moved % len(payers)], payers[(moved + 1) % len(payers)]
                    out = remote.session.submit({"do": "pay", "from": payer, "to": payee,
                                                 "amount": 1}, TABLE)
                    assert out.accepted, out
                    moved += 1
                if window:
                    assert remote.persister.flush()  # the chart's writes of these moves
                    work.on = False
                    end = work.read()
                    windows.append((end[0] - start[0], end[1] - start[1]))
        finally:
            stop.set()
            remote.close()
            session.close()
            for t in drains:
                t.join(5)
    finally:
        threading.settrace(None)
        sys.settrace(None)
    (first_calls, first_bytes), (last_calls, last_bytes) = windows
    assert session.version >= MOVES
    assert first_calls > 100 * WINDOW and first_bytes > 100 * WINDOW  # it did count
    assert last_calls <= first_calls * GROWTH, (first_calls, last_calls)
    assert last_bytes <= first_bytes * GROWTH, (first_bytes, last_bytes)
