"""`companion bench` part "web": live fan-out latency over real HTTP, and a bad-input flood.

web.fanout_ms_p99: from a phone's POST until all of 8 players' phones and 4 spectators
have the update on their live stream (target <= 50 ms); web.flood_untouched: 1 when a flood
of bad requests from one phone left the game exactly as it was.
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
SPECTATORS = 4
ROUNDS = 60


class _Arrivals:
    """When each phone saw each version (reader threads write, the bench waits)."""

    def __init__(self, phones: int) -> None:
        self.phones = phones
        self.seen: dict[int, list[float]] = {}
        self.cond = threading.Condition()

    def record(self, version: int) -> None:
        now = time.perf_counter()
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
            arrivals.record(int(item[1]["version"]))


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
        stop = threading.Event()
        phones: list[HttpPhone] = []
        threads: list[threading.Thread] = []
        try:
            for who in [f"player:{p}" for p in PLAYERS] + ["spectator"] * SPECTATORS:
                phone = HttpPhone(handle.url)
                if phone.join(join_url(app, handle.url), who) != 302:
                    raise RuntimeError(f"bench phone could not join as {who}")
                phones.append(phone)
            arrivals = _Arrivals(len(phones))
            for phone in phones:
                phone.open_stream()
                t = threading.Thread(target=_reader, args=(phone, arrivals, stop), daemon=True)
                t.start()
                threads.append(t)
            if arrivals.wait_all(session.version, 10) is None:
                raise RuntimeError("not every phone got the first state")
            samples = []
            for i in range(ROUNDS):
                payer, payee = PLAYERS[i % 8], PLAYERS[(i + 1) % 8]
                start = time.perf_counter()
                status, body = phones[i % 8].command({"do": "pay", "to": payee, "amount": 1},
                                                     session.version)
                if status != 200:
                    raise RuntimeError(f"bench command refused: {status} {body} ({payer})")
                last = arrivals.wait_all(int(body["version"]), 10)
                if last is None:
                    raise RuntimeError("an update did not reach every phone")
                samples.append((last - start) * 1000)
            samples.sort()
            p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
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
                "web.fanout_ms_p99": round(p99, 2),
                "web.fanout_ms_median": round(samples[len(samples) // 2], 2),
                "web.fanout_phones": float(len(phones)),
                "web.flood_requests": float(sum(codes.values())),
                "web.flood_rate_limited": float(codes.get("429", 0)),
                "web.flood_req_per_s": round(sum(codes.values()) / max(flood_s[0], 1e-6), 1),
                "web.flood_accepted": float(codes.get("200", 0)),
                "web.flood_untouched": 1.0 if untouched else 0.0,
                "web.command_during_flood_ms": round(during_ms, 2),
            }
        finally:
            stop.set()
            handle.stop()
            for phone in phones:
                phone.close()
            for t in threads:
                t.join(2)
            session.close()
