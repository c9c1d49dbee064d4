"""Nothing that grows with the game on the per-move path (issue 28): 5 000 moves through
the real session with the phone remote attached and 12 phones' streams drained (four of
them carrying their pages' live parts: the Net worth, Table, Me and History pages), and the
work of a window of moves is the same (within 15 %) in the first 100 moves of the game, at
move 1 300 and at move 5 000. The players' news (NEWS_MOVES moves back) fill up during the
first window and are full in the later ones: a move's news are followed move by move, so
filling them costs nothing more than keeping them full.

Work is counted, not timed, so the test holds on a loaded machine: every Python function
call on every thread (a global trace function, installed before the session's threads
start, that asks for no tracing inside the calls), and every character serialized by
`json.dumps` (the C encoder's work, which no call count sees: a file rewritten whole on
every move shows there; the chart rewritten so made the last window 11x the first). The
data directory is on /dev/shm when there is one: an fsync there is free, so 5 000 moves
take seconds of CPU. Within a window each move waits for its listeners, its pages' parts
and its writes before the next one is made: the parts pusher and the persister take
together what comes while they work, so how many times they work would otherwise hang on
the threads' timing (a loaded CI machine saw 1.24x in the last window, from that alone).
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
from web_fakes import Phone

from companion.game.api import Source
from companion.game.session import GameSession
from tools.bench.journal import bot_script
from web_remote import create_app
from web_remote.context import Remote
from web_remote.parts import Part, part_of

TABLE = Source("script", banker=True)
READER = Source("phone", player="P1")  # the phone on P1's Me page (PAGES)
MOVES = 5000
#: bot moves before the payments (the deal among them): deeds bought on the board
OPENING = 52
#: moves per measured window: whole rounds of the 8 payers
WINDOW = 48
#: where each window starts: within the game's first 100 moves, ending at move 1 300, and
#: ending at the last move
STARTS = (OPENING, 1300 - WINDOW, MOVES - WINDOW)
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


#: the pages whose live parts some of the phones' streams carry (web_remote/parts.py), as a
#: table's phones ask for them: a spectator's Net worth, Table and History pages, a
#: player's Me page
PAGES = (("spectator", "/worth"), ("spectator", "/table"), ("player:P1", "/me"),
         ("spectator", "/history"))


def _followers(app: Any) -> list[Part]:
    """The parts of PAGES, each of a phone joined with its own cookie."""
    parts = []
    for who, page in PAGES:
        phone = Phone(app)
        assert phone.join(who).status_code == 302
        cookie = phone.client.get_cookie("companion")
        assert cookie is not None
        part = part_of(page, {"HTTP_COOKIE": f"companion={cookie.value}",
                              "SERVER_NAME": "localhost", "SERVER_PORT": "80",
                              "HTTP_HOST": "localhost", "wsgi.url_scheme": "http",
                              "REMOTE_ADDR": "127.0.0.1"}, None)
        assert part is not None
        parts.append(part)
    return parts


def _drain(remote: Remote, stop: threading.Event,
           parts: list[Part]) -> list[threading.Thread]:
    """PHONES streams on the remote's hub, the first ones carrying `parts`, each encoding
    what it is sent (as the serving loop does for a phone) on a thread of its own."""
    threads = []
    for i in range(PHONES):
        client = remote.hub.subscribe(f"phone-{i}")
        assert client is not None
        if i < len(parts):
            remote.parts.follow(client, parts[i])

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


class Heard:
    """The version the session's last listener had (after the remote's: they are told in
    order); a window's edges wait for it, since a move is answered before its listeners run
    and the window must hold its moves' listening, not its neighbours'."""

    def __init__(self) -> None:
        self.version = 0
        self._cond = threading.Condition()

    def __call__(self, update: Any) -> None:
        with self._cond:
            self.version = update.version
            self._cond.notify_all()

    def wait(self, version: int) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: self.version >= version, 30), version


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
        heard = Heard()
        session.add_listener(heard)
        drains: list[threading.Thread] = []
        try:
            for command in bot_script(seed=11, count=OPENING, players=8):
                assert remote.session.submit(command, TABLE).accepted, command
            heard.wait(session.version)
            drains = _drain(remote, stop, _followers(app))
            payers = [p.name for p in session.game_state().players  # type: ignore[union-attr]
                      if not p.bankrupt]
            windows: list[tuple[int, int]] = []
            start = work.read()
            for moved in range(OPENING, MOVES):
                if moved in STARTS:
                    heard.wait(session.version)
                    # P1's phone has shown its news (as a page marks them after 3 s in
                    # view): each window's Me page starts as short and fills alike
                    seen = [item["key"] for item in session.news("P1")]
                    if seen:
                        assert session.mark_seen(seen, READER).accepted
                    assert remote.parts.caught_up(session.version, 30)
                    assert remote.persister.flush()
                    start = work.read()
                    work.on = True
                payer, payee = payers[moved % len(payers)], payers[(moved + 1) % len(payers)]
                out = remote.session.submit({"do": "pay", "from": payer, "to": payee,
                                             "amount": 1}, TABLE)
                assert out.accepted, out
                if work.on:  # each move's listeners, parts and writes before the next
                    # (see the module's docstring): 8 to 25 renderings a window otherwise
                    heard.wait(out.version)
                    assert remote.parts.caught_up(out.version, 30)
                    assert remote.persister.flush()
                if moved + 1 - WINDOW in STARTS:
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
    assert session.version >= MOVES
    assert len(windows) == len(STARTS)
    (first_calls, first_bytes), *later = windows
    assert first_calls > 100 * WINDOW and first_bytes > 100 * WINDOW  # it did count
    for calls, size in later:
        assert calls <= first_calls * GROWTH, windows
        assert size <= first_bytes * GROWTH, windows
