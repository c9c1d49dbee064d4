"""`companion bench` part "web": a flood of bad requests from one phone, over real HTTP.

web.flood_untouched: 1 when the flood left the game exactly as it was, while another phone's
command still got through (web.command_during_flood_ms). The live fan-out to 8 phones and 4
spectators is timed on a real `companion run` by the "fanout" part (tools/bench/fanout.py),
which uses the stream readers kept here.
"""

from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.game.api import Source
from tools.bench.probe import HttpPhone
from web_remote.app import create_app
from web_remote.links import join_url
from web_remote.serving import serve

PLAYERS = [f"P{i}" for i in range(1, 9)]


class _Arrivals:
    """When each phone saw each version (reader threads write, the bench waits)."""

    def __init__(self, phones: int) -> None:
        self.phones = phones
        self.seen: dict[int, list[float]] = {}
        self.cond = threading.Condition()

    def record(self, version: int, at: float | None = None) -> None:
        """A phone has `version` since `at` (perf_counter; now when not given)."""
        now = time.perf_counter() if at is None else at
        with self.cond:
            self.seen.setdefault(version, []).append(now)
            self.cond.notify_all()

    def wait_all(self, version: int, timeout: float) -> float | None:
        """The time the last phone saw `version`, or None on timeout."""
        with self.cond:
            ok = self.cond.wait_for(lambda: len(self.seen.get(version, ())) >= self.phones,
                                    timeout)
            return max(self.seen[version]) if ok else None


def _reader(phone: HttpPhone, arrivals: _Arrivals, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            item = phone.next_event(0.5)
        except (ConnectionError, OSError):
            return
        if item is not None and item[0] == "state":
            arrivals.record(int(item[1]["version"]), phone.arrived)


def _flood(phone: HttpPhone, version: int) -> dict[str, int]:
    bad: list[Any] = [
        b"{not json", b"[]", {"command": {"do": "fly"}, "version": version},
        {"command": {"do": "mortgage", "square": 99}, "version": version},
        {"command": {"do": "pay", "to": "P2", "amount": -5}, "version": version},
        {"command": {"do": "pay", "to": "P2", "amount": 10**9}, "version": version},
        {"command": {"do": "roll", "by": "P3"}, "version": version},
        {"command": {"do": "buy"}, "version": version - 1},
        {"command": {"do": "close_auction"}, "version": version},
    ]
    codes: dict[str, int] = {}
    for i in range(400):
        status, _ = phone.post_json("/api/commands", bad[i % len(bad)])
        codes[str(status)] = codes.get(str(status), 0) + 1
    return codes


def run_bench() -> dict[str, float]:
    """Run the web benchmarks on 127.0.0.1 with a real journaled session."""
    from companion.game.session import GameSession

    with tempfile.TemporaryDirectory(prefix="companion-web-bench-") as tmp:
        data = Path(tmp)
        session = GameSession.open(data)
        session.submit({"do": "new_game", "edition": "classic-eur", "players": PLAYERS,
                        "seed": 1}, Source(kind="script", banker=True))
        app = create_app(session, data, {"keepalive_s": 5.0})
        handle = serve(app, "127.0.0.1", 0, threads=32)
        phones: list[HttpPhone] = []
        try:
            for who in ("player:P1", "player:P2"):
                phone = HttpPhone(handle.url)
                if phone.join(join_url(app, handle.url), who) != 302:
                    raise RuntimeError(f"bench phone could not join as {who}")
                phones.append(phone)
            version_before = session.version
            seq_before = session.history(None, 1)[-1]["seq"]
            codes: dict[str, int] = {}
            flood_s = [0.0]

            def flood() -> None:
                t0 = time.perf_counter()
                codes.update(_flood(phones[0], version_before))
                flood_s[0] = time.perf_counter() - t0

            flooder = threading.Thread(target=flood)
            flooder.start()
            # while one phone floods, another still gets its command through at once
            start = time.perf_counter()
            status, body = phones[1].command({"do": "pay", "to": "P1", "amount": 1},
                                             version_before)
            during_ms = (time.perf_counter() - start) * 1000
            flooder.join()
            new = [e for e in session.history(None, 50) if e["seq"] > seq_before]
            untouched = (status == 200 and session.version == version_before + 1
                         and len(new) == 1 and new[0]["source"].get("player") == "P2"
                         and not codes.get("200"))
            return {
                "web.flood_requests": float(sum(codes.values())),
                "web.flood_rate_limited": float(codes.get("429", 0)),
                "web.flood_req_per_s": round(sum(codes.values()) / max(flood_s[0], 1e-6), 1),
                "web.flood_accepted": float(codes.get("200", 0)),
                "web.flood_untouched": 1.0 if untouched else 0.0,
                "web.command_during_flood_ms": round(during_ms, 2),
            }
        finally:
            handle.stop()
            for phone in phones:
                phone.close()
            session.close()
