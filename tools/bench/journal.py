"""Journal benchmarks for `companion bench`: commit latency with and without the listeners
`companion run` attaches, and saved games built through the session API for the others.

`bot_script` also gives the tests long, realistic table scripts (device dice and cards
included) played by the bots.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.bots import Bots
from companion.game.api import Source
from companion.game.applying import apply_command
from companion.game.replaying import command_dict
from companion.game.session import GameSession
from companion.rules import Accepted, GameState

JSON = dict[str, Any]
BOT = Source("script", banker=True)


def new_game_command(seed: int, players: int = 4) -> JSON:
    """A classic new_game for bot players P1..Pn."""
    return {"do": "new_game", "edition": "classic-eur",
            "players": [f"P{i + 1}" for i in range(players)], "seed": seed}


def bot_script(seed: int, count: int, players: int = 4) -> list[JSON]:
    """`count` commands the bots send, starting a new game whenever one is won."""
    out: list[JSON] = [new_game_command(seed, players)]
    result = apply_command(None, out[0])
    assert isinstance(result, Accepted)
    g: GameState = result.state
    bots = Bots()
    while len(out) < count:
        if g.winner >= 0:
            seed += 1
            command = new_game_command(seed, players)
            bots = Bots()
        else:
            command = command_dict(bots.choose(g))
        r = apply_command(g, command)
        if not isinstance(r, Accepted):
            raise RuntimeError(f"bot command refused: {command} -> {r}")
        out.append(command)
        g = r.state
    return out


def build_journal(data_dir: Path, count: int, seed: int = 1, players: int = 4,
                  remote: bool = False) -> int:
    """A saved game of `count` bot commands in `data_dir`, written through the session API
    (as a table would have played it); returns its final version. With `remote`, the phone
    remote is attached while it is played (`web_remote.create_app` on the session, which
    follows its writer), so its files grow as in a game: the net-worth chart has a sample
    per move."""
    with GameSession.open(data_dir) as session:
        app = None
        if remote:
            from web_remote.app import create_app

            app = create_app(session, data_dir, {})
        try:
            for command in bot_script(seed, count, players):
                out = session.submit(command, BOT)
                if not out.accepted:
                    raise RuntimeError(f"journal command refused: {command}: {out.message}")
        finally:
            if app is not None:
                app.extensions["web_remote"].close()
        return session.version


def percentile(values: list[float], q: float) -> float:
    """The `q` quantile of `values` (nearest rank, q in 0..1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class _Listening:
    """What `companion run` hangs on a session: the phone remote's hub listener
    (web_remote.create_app) and the screen controller's, drained on its own thread as the
    screen loop drains it (without drawing)."""

    def __init__(self, session: GameSession, data_dir: Path) -> None:
        from companion.screen.controller import Controller
        from web_remote.app import create_app

        self.app = create_app(session, data_dir, {})
        self.controller = Controller(session, data_dir=data_dir)
        self.wake = threading.Event()
        self.stopping = False
        self.controller.wake = self.wake.set
        self.notified = threading.Event()  # the writer has called every listener
        self.drained = threading.Event()  # the screen's thread has taken every update
        self.notified.set()
        self.drained.set()
        session.add_listener(lambda _u: self.notified.set())  # called last
        self.thread = threading.Thread(target=self._drain, name="bench-screen", daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        while not self.stopping:
            self.wake.wait()
            self.wake.clear()
            self.controller.drain()
            if self.controller.updates.empty():
                self.drained.set()

    def quiet(self) -> None:
        """Wait until the last commit's listeners and the screen's drain are done."""
        if not (self.notified.wait(10) and self.drained.wait(10)):
            raise RuntimeError("the listeners did not finish within 10 s")

    def close(self) -> None:
        """Stop draining, detach both listeners."""
        self.stopping = True
        self.wake.set()
        self.thread.join(5)
        self.controller.close()
        self.app.extensions["web_remote"].close()


def run_bench(commands: int = 1_500) -> dict[str, float]:
    """Commit latency through a GameSession with and without `companion run`'s listeners.

    The same bot script goes to two sessions (two journals) command by command, one bare,
    one with the listeners, so that the machine's load falls alike on both; a bare commit
    starts only once the other session's listeners and the screen's drain are done. Every
    commit after the new_game is timed (submit until it returns, the journal row written;
    the listeners run after that, on the session's listeners' thread), and the listening
    one also until its listeners have returned and the screen's drain has taken the update
    (`journal.listened_ms_*`: what the listeners add shows there, not in submit's time).
    """
    script = bot_script(seed=1, count=commands)
    bare_ms: list[float] = []
    listening_ms: list[float] = []
    listened_ms: list[float] = []
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        bare_dir, listening_dir = Path(tmp, "bare"), Path(tmp, "listening")
        with GameSession.open(bare_dir, "bench") as bare, \
                GameSession.open(listening_dir, "bench") as listening:
            listeners = _Listening(listening, listening_dir)
            try:
                for i, command in enumerate(script):
                    for session, out_ms in ((bare, bare_ms), (listening, listening_ms)):
                        if session is bare:  # the other session's listeners are done
                            listeners.quiet()
                        else:
                            listeners.notified.clear()
                            listeners.drained.clear()
                        start = time.perf_counter()
                        out = session.submit(command, BOT)
                        if i:
                            out_ms.append((time.perf_counter() - start) * 1000)
                        if session is listening:  # until every listener has had it
                            listeners.quiet()
                            if i:
                                listened_ms.append((time.perf_counter() - start) * 1000)
                        if not out.accepted:
                            raise RuntimeError(f"bench command refused: {command}: "
                                               f"{out.message}")
            finally:
                listeners.close()
    p50_bare, p50_listening = statistics.median(bare_ms), statistics.median(listening_ms)
    return {
        "journal.commit_ms_p50": round(p50_listening, 3),
        "journal.commit_ms_p99": round(percentile(listening_ms, 0.99), 3),
        "journal.commit_bare_ms_p50": round(p50_bare, 3),
        "journal.commit_bare_ms_p99": round(percentile(bare_ms, 0.99), 3),
        "journal.commit_listening_ratio_p50": round(p50_listening / p50_bare, 2),
        "journal.commit_listening_extra_ms_p50": round(p50_listening - p50_bare, 3),
        "journal.commit_samples": float(len(listening_ms)),
        "journal.listened_ms_p50": round(statistics.median(listened_ms), 3),
        "journal.listened_ms_p99": round(percentile(listened_ms, 0.99), 3),
        "journal.listened_extra_ms_p50": round(statistics.median(listened_ms) - p50_bare, 3),
    }
