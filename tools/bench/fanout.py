"""`companion bench` part "fanout": from a phone's POST until 8 players' phones and 4
spectators all have the update on their live stream, over real HTTP to a real
`companion run --headless`, mid-game (MID_GAME commands in), late in a game (LATE_GAME
commands in) and on a fresh game; and what each move costs the companion: its process's
CPU time from /proc over the timed moves, and the bytes each phone's stream carried.

The saved games are played with the phone remote attached, as at a table, so its files
(the net-worth chart) have grown with the game. The phones join with the one-time links
the companion prints, as people would; the commands are small payments between players
still in the game, each from the paying player's phone.
"""

from __future__ import annotations

import http.client
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.bench.journal import build_journal, percentile
from tools.bench.probe import HttpPhone
from tools.bench.proc import Companion, cpu_ns
from tools.bench.web import _Arrivals

PLAYERS = [f"P{i}" for i in range(1, 9)]
SPECTATORS = 4
MID_GAME = 400
LATE_GAME = 1300
SAMPLES = 200
#: requests a bench phone sends in any second at most: under the companion's limit (20 a
#: second sustained, web_remote/app.py), which a faster companion made the bench's phones
#: of a late game (six payers among twelve phones) run into
PHONE_PER_S = 15


def _join_all(child: Companion) -> list[HttpPhone]:
    base = f"http://127.0.0.1:{child.port}"
    link = child.next_line("Table Companion running").rsplit(" ", 1)[1]
    phones: list[HttpPhone] = []
    for i, who in enumerate([f"player:{p}" for p in PLAYERS] + ["spectator"] * SPECTATORS):
        address = f"127.0.1.{i + 1}"  # each phone of a table has an address of its own
        phone = HttpPhone(base, source=address, per_s=PHONE_PER_S)
        if phone.join(link, who) != 302:
            # a player out of the game has no seat (the link is not spent): their phone
            # follows the table as a spectator
            phone.close()
            phone = HttpPhone(base, source=address, per_s=PHONE_PER_S)
            if phone.join(link, "spectator") != 302:
                raise RuntimeError(f"bench phone could not join as {who} nor as a spectator")
        phones.append(phone)
        link = child.next_line("Next phone joins at").rsplit(" ", 1)[1]
    return phones


#: page refreshes timed per page after the payments (a phone's page reads its live part
#: again, `?partial=1`, whenever its stream says the version changed)
REFRESHES = 20
#: payments after which all 12 phones read their pages again, timed together
REFRESH_MOVES = 20


class _Told:
    """What the stream told of each version (its payload), for the pages' choice."""

    def __init__(self) -> None:
        self.payloads: dict[int, Any] = {}
        self.cond = threading.Condition()

    def wait(self, version: int, timeout: float) -> Any:
        """The payload of `version`, None when it did not come in time."""
        with self.cond:
            self.cond.wait_for(lambda: version in self.payloads, timeout)
            return self.payloads.get(version)


#: how long a stream's reader waits for its next event (s): a read that times out leaves
#: the stream unreadable (Python's socket file refuses reads after a timeout), and the
#: paced phones leave the streams quiet for a second at times; a reader ends when the bench
#: closes its phone
READ_WAIT_S = 120.0


def _reader(phone: HttpPhone, arrivals: _Arrivals, stop: threading.Event) -> None:
    """Record when this phone's stream had each version, until the phone is closed."""
    while not stop.is_set():
        try:
            item = phone.next_event(READ_WAIT_S)
        except (OSError, http.client.HTTPException):  # closed: the bench is done
            return
        if item is not None and item[0] == "state":
            arrivals.record(int(item[1]["version"]), phone.arrived)


def _telling_reader(phone: HttpPhone, arrivals: _Arrivals, told: _Told,
                    stop: threading.Event) -> None:
    """`_reader`, keeping each state event's payload too."""
    while not stop.is_set():
        try:
            item = phone.next_event(READ_WAIT_S)
        except (OSError, http.client.HTTPException):  # closed: the bench is done
            return
        if item is not None and item[0] == "state":
            arrivals.record(int(item[1]["version"]), phone.arrived)
            with told.cond:
                told.payloads[int(item[1]["version"])] = item[1]
                told.cond.notify_all()


def reads_again(payload: Any, page: str, player: str | None) -> bool:
    """Whether a phone's page reads its live part again after this state event, as
    web_remote/static/app.js decides for a page that showed the version before: a shared
    page when the event names it in "pages", a Me page when its player is named in "me"
    (or "me" says nothing); anything else (no "pages": a gap, another game) always."""
    if not isinstance(payload, dict) or not isinstance(payload.get("pages"), list):
        return True
    if page != "me":
        return page in payload["pages"]
    named = payload.get("me")
    return not isinstance(named, list) or player in named


#: the moves the bench makes for a table, the first its game offers (`table_move`)
TABLE_VERBS = ("roll", "buy", "draw", "pay_fine", "use_card", "end_turn", "bankrupt")


def table_move(state: dict[str, Any]) -> dict[str, Any] | None:
    """The next move of the table's game as its players would make it from their phones:
    the first of `TABLE_VERBS` its state offers to a player (None: none)."""
    for verb in TABLE_VERBS:
        for move in state.get("legal") or ():
            if move.get("do") == verb and isinstance(move.get("by"), str):
                return {"do": verb, "by": move["by"]}
    return None


def _reads_after(child: Companion, phones: list[HttpPhone], seated: set[str],
                 payload: Any) -> tuple[int, int]:
    """Every phone whose page would read its live part again after this state event does
    (`reads_again`: a player's phone on Me, a spectator's on Table); the companion's CPU
    for those reads (ns) and how many phones read."""
    reads = 0
    before = cpu_ns(child.pid)
    for k, phone in enumerate(phones):
        mine = PLAYERS[k] if k < len(PLAYERS) and PLAYERS[k] in seated else None
        path = "/me" if mine else "/table"
        if not reads_again(payload, path[1:], mine):
            continue
        reads += 1
        if phone.request("GET", f"{path}?partial=1")[0] != 200:
            raise RuntimeError(f"{path}?partial=1 was refused")
    after = cpu_ns(child.pid)
    return sum(ran - before.get(tid, 0) for tid, ran in after.items()), reads


def _reads_per_move(child: Companion, phones: list[HttpPhone], seated: set[str],
                    told: _Told, move: Callable[[], int | None]) -> tuple[float, float]:
    """`REFRESH_MOVES` moves made by `move` (the version each brought; None: refused, not
    counted), each followed by the phones' reads (`_reads_after`): the companion's CPU ms
    for those reads and how many phones read, per move."""
    spent_ns = moves = reads = 0
    while moves < REFRESH_MOVES:
        version = move()
        if version is None:
            continue
        moves += 1
        spent, read = _reads_after(child, phones, seated, told.wait(version, 10))
        spent_ns += spent
        reads += read
    return spent_ns / 1e6 / REFRESH_MOVES, reads / REFRESH_MOVES


def fanout_ms(data_dir: Path, samples: int
              ) -> tuple[list[float], int, float, float, dict[str, float]]:
    """Start the companion on `data_dir`, join 12 phones, time `samples` payments: the
    timings, how many payments the game refused (a pending debt), the companion's CPU ms
    per timed payment (every thread of its process, refused payments included), the
    bytes one phone's stream carried per payment, and the companion's CPU ms for one
    refresh of a player's own page and of a spectator's table page (20 at one version:
    the table page is rendered for the first, views/shared.py), and for all 12 phones'
    refreshes after a move ("per_move"); with how often the phones waited for their turn
    under PHONE_PER_S during the timed payments ("paced": before a timed span, as they
    should) and inside one ("paced_in_span": a wait the timings would wrongly include)."""
    stop = threading.Event()
    phones: list[HttpPhone] = []
    threads_: list[threading.Thread] = []
    with Companion(data_dir) as child:
        try:
            phones = _join_all(child)
            arrivals = _Arrivals(len(phones))
            told = _Told()
            for k, phone in enumerate(phones):
                phone.open_stream()
                t = threading.Thread(target=_telling_reader, args=(phone, arrivals, told, stop),
                                     daemon=True) if k == 0 else threading.Thread(
                    target=_reader, args=(phone, arrivals, stop), daemon=True)
                t.start()
                threads_.append(t)
            state = phones[0].state()
            version = int(state["version"])
            playing = [PLAYERS.index(p["name"]) for p in state["players"]
                       if not p.get("bankrupt")]
            seated = {PLAYERS[k] for k in playing}
            if arrivals.wait_all(version, 10) is None:
                raise RuntimeError("not every phone got the first state")
            timings: list[float] = []
            refused = 0
            i = 0
            paced_in_span = 0
            paced0 = sum(p.paced for p in phones)
            cpu0, bytes0 = cpu_ns(child.pid), sum(p.event_bytes for p in phones)
            while len(timings) < samples:
                if refused > samples:
                    raise RuntimeError("the game refuses the bench's payments")
                payer, payee = playing[i % len(playing)], playing[(i + 1) % len(playing)]
                i += 1
                # the phone's turn under PHONE_PER_S comes before the clock starts: a wait
                # there is the bench's pacing, not the companion's (until issue 28's stall
                # round it was inside the span: the late game's p99 of 0.6-0.8 s)
                phones[payer].wait_turn()
                waits = phones[payer].paced
                start = time.perf_counter()
                status, body = phones[payer].command(
                    {"do": "pay", "to": PLAYERS[payee], "amount": 1}, version)
                paced_in_span += phones[payer].paced - waits
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
            cpu1, bytes1 = cpu_ns(child.pid), sum(p.event_bytes for p in phones)
            pages: dict[str, float] = {"paced": sum(p.paced for p in phones) - paced0,
                                       "paced_in_span": paced_in_span}
            # a table's phones after each move: every page reads its live part again, as
            # web_remote/static/app.js does after a payment (a player's phone on Me, a
            # spectator's on Table, only the pages their stream's event says may
            # have changed: reads_again); the
            # payment's own CPU is left out (its answer comes once the stream was told)
            def payment() -> int | None:
                nonlocal i, version
                payer, payee = playing[i % len(playing)], playing[(i + 1) % len(playing)]
                i += 1
                status, body = phones[payer].command(
                    {"do": "pay", "to": PLAYERS[payee], "amount": 1}, version)
                if isinstance(body, dict) and "version" in body:
                    version = int(body["version"])
                return version if status == 200 else None

            pages["per_move"], pages["reads_per_move"] = _reads_per_move(
                child, phones, seated, told, payment)

            # the same after the moves a table makes (rolls, turns ended, cards drawn...),
            # each from the phone of the player it is for: a payment changes only two
            # players' pages, most of a game's moves change every page
            def table_turn() -> int | None:
                state = phones[-1].state()
                command = table_move(state)
                if command is None:
                    raise RuntimeError("the game offers no move the bench makes")
                status, body = phones[PLAYERS.index(command["by"])].command(
                    command, int(state["version"]))
                if status != 200:
                    raise RuntimeError(f"the game refused {command}: {body}")
                return int(body["version"])

            pages["game_per_move"], pages["game_reads_per_move"] = _reads_per_move(
                child, phones, seated, told, table_turn)
            for name, phone, path in (("me", phones[playing[0]], "/me"),
                                      ("table", phones[-1], "/table")):
                before = cpu_ns(child.pid)
                for _ in range(REFRESHES):
                    if phone.request("GET", f"{path}?partial=1")[0] != 200:
                        raise RuntimeError(f"{path}?partial=1 was refused")
                after = cpu_ns(child.pid)
                pages[name] = sum(ran - before.get(tid, 0)
                                  for tid, ran in after.items()) / 1e6 / REFRESHES
        finally:
            stop.set()
            for phone in phones:
                phone.hang_up()
            for t in threads_:
                t.join(2)
            for phone in phones:
                phone.close()
    cpu_ms = sum(ran - cpu0.get(tid, 0) for tid, ran in cpu1.items()) / 1e6 / len(timings)
    return timings, refused, cpu_ms, (bytes1 - bytes0) / len(timings) / len(phones), pages


def run_bench(samples: int = SAMPLES, mid_game: int = MID_GAME,
              late_game: int = LATE_GAME) -> dict[str, Any]:
    """fanout.* mid-game, late and on a fresh game, with the ratios."""
    with tempfile.TemporaryDirectory(prefix="companion-fanout-") as tmp:
        mid_dir, late_dir, fresh_dir = Path(tmp, "mid"), Path(tmp, "late"), Path(tmp, "fresh")
        build_journal(mid_dir, mid_game, seed=5, players=len(PLAYERS), remote=True)
        build_journal(late_dir, late_game, seed=5, players=len(PLAYERS), remote=True)
        build_journal(fresh_dir, 1, seed=5, players=len(PLAYERS), remote=True)
        mid, mid_refused, mid_cpu, mid_bytes, pages = fanout_ms(mid_dir, samples)
        late, late_refused, late_cpu, _, late_pages = fanout_ms(late_dir, samples)
        fresh, _, fresh_cpu, _, fresh_pages = fanout_ms(fresh_dir, samples)
    runs = (pages, late_pages, fresh_pages)
    mid_p50, fresh_p50 = statistics.median(mid), statistics.median(fresh)
    return {
        "fanout.ms_p50": round(mid_p50, 2),
        "fanout.ms_p99": round(percentile(mid, 0.99), 2),
        "fanout.late_ms_p50": round(statistics.median(late), 2),
        "fanout.late_ms_p99": round(percentile(late, 0.99), 2),
        "fanout.fresh_ms_p50": round(fresh_p50, 2),
        "fanout.fresh_ms_p99": round(percentile(fresh, 0.99), 2),
        "fanout.mid_game_ratio_p50": round(mid_p50 / fresh_p50, 3),
        "fanout.cpu_ms_per_move": round(mid_cpu, 3),
        "fanout.late_cpu_ms_per_move": round(late_cpu, 3),
        "fanout.fresh_cpu_ms_per_move": round(fresh_cpu, 3),
        "fanout.late_to_mid_cpu_ratio": round(late_cpu / mid_cpu, 3),
        "fanout.stream_bytes_per_move": round(mid_bytes, 1),
        "fanout.refresh_me_cpu_ms": round(pages["me"], 2),
        "fanout.refresh_table_cpu_ms": round(pages["table"], 2),
        "fanout.refresh_cpu_ms_per_move": round(pages["per_move"], 2),
        "fanout.refresh_reads_per_move": round(pages["reads_per_move"], 2),
        "fanout.refresh_game_cpu_ms_per_move": round(pages["game_per_move"], 2),
        "fanout.refresh_game_reads_per_move": round(pages["game_reads_per_move"], 2),
        "fanout.samples": float(len(mid)),
        "fanout.phones": float(len(PLAYERS) + SPECTATORS),
        "fanout.mid_game_commands": float(mid_game),
        "fanout.late_game_commands": float(late_game),
        "fanout.refused": float(mid_refused + late_refused),
        "fanout.paced_waits": float(sum(run["paced"] for run in runs)),
        "fanout.late_paced_waits": float(late_pages["paced"]),
        "fanout.paced_in_span": float(sum(run["paced_in_span"] for run in runs)),
    }
