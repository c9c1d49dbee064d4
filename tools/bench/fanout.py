"""`companion bench` part "fanout": from a phone's POST until 8 players' phones and 4
spectators all have the update on their live stream, over real HTTP to a real
`companion run --headless`, mid-game (MID_GAME commands in) and on a fresh game.

The phones join with the one-time links the companion prints, as people would; the
commands are small payments between players, each from the paying player's phone.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tools.bench.journal import build_journal, percentile
from tools.bench.probe import HttpPhone
from tools.bench.proc import Companion
from tools.bench.web import _Arrivals, _reader

PLAYERS = [f"P{i}" for i in range(1, 9)]
SPECTATORS = 4
MID_GAME = 400
SAMPLES = 200


def _join_all(child: Companion) -> list[HttpPhone]:
    base = f"http://127.0.0.1:{child.port}"
    link = child.next_line("Table Companion running").rsplit(" ", 1)[1]
    phones: list[HttpPhone] = []
    for who in [f"player:{p}" for p in PLAYERS] + ["spectator"] * SPECTATORS:
        phone = HttpPhone(base)
        if phone.join(link, who) != 302:
            raise RuntimeError(f"bench phone could not join as {who}")
        phones.append(phone)
        link = child.next_line("Next phone joins at").rsplit(" ", 1)[1]
    return phones


def fanout_ms(data_dir: Path, samples: int) -> tuple[list[float], int]:
    """Start the companion on `data_dir`, join 12 phones, time `samples` payments; the
    timings and how many payments the game refused (a bankrupt payer, a pending debt)."""
    stop = threading.Event()
    phones: list[HttpPhone] = []
    threads: list[threading.Thread] = []
    with Companion(data_dir) as child:
        try:
            phones = _join_all(child)
            arrivals = _Arrivals(len(phones))
            for phone in phones:
                phone.open_stream()
                t = threading.Thread(target=_reader, args=(phone, arrivals, stop), daemon=True)
                t.start()
                threads.append(t)
            version = int(phones[0].state()["version"])
            if arrivals.wait_all(version, 10) is None:
                raise RuntimeError("not every phone got the first state")
            timings: list[float] = []
            refused = 0
            i = 0
            while len(timings) < samples:
                if refused > samples:
                    raise RuntimeError("the game refuses the bench's payments")
                payer, payee = i % 8, (i + 1) % 8
                i += 1
                start = time.perf_counter()
                status, body = phones[payer].command(
                    {"do": "pay", "to": PLAYERS[payee], "amount": 1}, version)
                if status != 200:
                    refused += 1
                    if isinstance(body, dict) and "version" in body:
                        version = int(body["version"])
                    continue
                version = int(body["version"])
                last = arrivals.wait_all(version, 10)
                if last is None:
                    raise RuntimeError("an update did not reach every phone")
                timings.append((last - start) * 1000)
        finally:
            stop.set()
            for phone in phones:
                phone.close()
            for t in threads:
                t.join(2)
    return timings, refused


def run_bench(samples: int = SAMPLES, mid_game: int = MID_GAME) -> dict[str, Any]:
    """fanout.* mid-game and on a fresh game, with the p50 ratio."""
    with tempfile.TemporaryDirectory(prefix="companion-fanout-") as tmp:
        mid_dir, fresh_dir = Path(tmp, "mid"), Path(tmp, "fresh")
        build_journal(mid_dir, mid_game, seed=5, players=len(PLAYERS))
        build_journal(fresh_dir, 1, seed=5, players=len(PLAYERS))
        mid, mid_refused = fanout_ms(mid_dir, samples)
        fresh, _ = fanout_ms(fresh_dir, samples)
    mid_p50, fresh_p50 = statistics.median(mid), statistics.median(fresh)
    return {
        "fanout.ms_p50": round(mid_p50, 2),
        "fanout.ms_p99": round(percentile(mid, 0.99), 2),
        "fanout.fresh_ms_p50": round(fresh_p50, 2),
        "fanout.fresh_ms_p99": round(percentile(fresh, 0.99), 2),
        "fanout.mid_game_ratio_p50": round(mid_p50 / fresh_p50, 3),
        "fanout.samples": float(len(mid)),
        "fanout.phones": float(len(PLAYERS) + SPECTATORS),
        "fanout.mid_game_commands": float(mid_game),
        "fanout.refused": float(mid_refused),
    }
