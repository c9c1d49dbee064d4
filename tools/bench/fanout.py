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


#: page reads timed per page after the payments (a phone's page reads its live part itself,
#: `?partial=1`, when it is loaded, and when its part does not come on the stream)
REFRESHES = 20
#: moves after which the phones' pages are timed together: payments, and a table's moves
PAGE_MOVES = 20


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


class _Parts:
    """When each phone's stream brought its page's live part of each version (web_remote.
    parts: the page shows the move then), and the bytes of those parts' events."""

    def __init__(self) -> None:
        self.came: dict[int, dict[int, float]] = {}  # phone -> version -> arrival
        self.bytes = 0
        self.count = 0
        self.cond = threading.Condition()

    def record(self, phone: int, version: int, at: float, size: int) -> None:
        """Phone `phone` has the part of `version` since `at` (perf_counter)."""
        with self.cond:
            self.came.setdefault(phone, {})[version] = at
            self.bytes += size
            self.count += 1
            self.cond.notify_all()

    def wait(self, phones: list[int], version: int, timeout: float) -> float | None:
        """When the last of `phones` had a part of `version` or later (None: not in time)."""
        def since(k: int) -> float | None:
            times = [at for v, at in self.came.get(k, {}).items() if v >= version]
            return min(times) if times else None

        with self.cond:
            if not self.cond.wait_for(lambda: all(since(k) is not None for k in phones),
                                      timeout):
                return None
            return max((since(k) or 0.0 for k in phones), default=time.perf_counter())


#: how long a stream's reader waits for its next event (s): a read that times out leaves
#: the stream unreadable (Python's socket file refuses reads after a timeout), and the
#: paced phones leave the streams quiet for a second at times; a reader ends when the bench
#: closes its phone
READ_WAIT_S = 120.0


def _reader(k: int, phone: HttpPhone, arrivals: _Arrivals, parts: _Parts,
            told: _Told | None, stop: threading.Event) -> None:
    """Record when phone `k`'s stream had each version and each part (and, with `told`,
    each state event's payload), until the phone is closed."""
    while not stop.is_set():
        read = phone.event_bytes
        try:
            item = phone.next_event(READ_WAIT_S)
        except (OSError, http.client.HTTPException):  # closed: the bench is done
            return
        if item is None:
            continue
        name, data = item
        if name == "part":
            parts.record(k, int(data["version"]), phone.arrived, phone.event_bytes - read)
        elif name == "state":
            arrivals.record(int(data["version"]), phone.arrived)
            if told is not None:
                with told.cond:
                    told.payloads[int(data["version"])] = data
                    told.cond.notify_all()


def reads_again(payload: Any, page: str, player: str | None) -> bool:
    """Whether a phone's page shows something new after this state event, as
    web_remote/static/app.js decides for a page that showed the version before (and
    web_remote.parts for the part it sends): a shared page when the event names it in
    "pages", a Me page when its player is named in "me" (or "me" says nothing); anything
    else (no "pages": a gap, another game) always."""
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


#: the pages the bench's spectators follow, in turn (a player out of the game follows the
#: Table page): a table's spectators are on its Table, Net worth and History pages
SPECTATOR_PAGES = ("table", "table", "worth", "history")


class _Table:
    """The bench's 12 phones, each following its page's live part on its stream (a
    player's phone its Me page, a spectator's one of SPECTATOR_PAGES), as
    web_remote/static/app.js does."""

    def __init__(self, phones: list[HttpPhone], seated: set[str]) -> None:
        self.phones = phones
        self.pages = [("me", PLAYERS[k]) if k < len(PLAYERS) and PLAYERS[k] in seated
                      else ("table", None) if k < len(PLAYERS)
                      else (SPECTATOR_PAGES[(k - len(PLAYERS)) % len(SPECTATOR_PAGES)], None)
                      for k in range(len(phones))]
        self.arrivals = _Arrivals(len(phones))
        self.told = _Told()
        self.parts = _Parts()

    def changed(self, version: int) -> list[int]:
        """The phones whose page the move to `version` changed (`reads_again`)."""
        payload = self.told.wait(version, 10)
        if payload is None:
            raise RuntimeError(f"the stream did not tell version {version}")
        return [k for k, (page, player) in enumerate(self.pages)
                if reads_again(payload, page, player)]

    def shown(self, version: int, start: float) -> tuple[float, float, int]:
        """After the move to `version` made at `start` (perf_counter): ms until every
        phone was told, until every phone whose page changed had its part, and how many."""
        told = self.arrivals.wait_all(version, 10)
        if told is None:
            raise RuntimeError("an update did not reach every phone")
        changed = self.changed(version)
        last = self.parts.wait(changed, version, 10)
        if last is None:
            raise RuntimeError(f"a page's part of version {version} did not come")
        return (told - start) * 1000, (max(last, told) - start) * 1000, len(changed)


def _pages_per_move(child: Companion, table: _Table,
                    ready: Callable[[], Callable[[], int | None]]
                    ) -> tuple[float, float, list[float], float]:
    """`PAGE_MOVES` moves, each made by the function `ready` gives once the move's phone may
    send it (PHONE_PER_S: the wait is the bench's, not timed), which returns the version
    the move brought (None: refused, not counted), each until every phone whose page it
    changed had its part: the companion's CPU ms per move for all of it (the move, telling
    the phones, their parts), the parts per move, each move's ms until the last part
    came, and the bytes of the parts' events every phone's stream carried, per move."""
    spent_ns = moves = parts = 0
    timings: list[float] = []
    bytes0 = table.parts.bytes
    while moves < PAGE_MOVES:
        move = ready()
        before = cpu_ns(child.pid)
        start = time.perf_counter()
        version = move()
        if version is None:
            continue
        moves += 1
        _told_ms, shown_ms, changed = table.shown(version, start)
        after = cpu_ns(child.pid)
        spent_ns += sum(ran - before.get(tid, 0) for tid, ran in after.items())
        parts += changed
        timings.append(shown_ms)
    return spent_ns / 1e6 / PAGE_MOVES, parts / PAGE_MOVES, timings, \
        (table.parts.bytes - bytes0) / PAGE_MOVES


def fanout_ms(data_dir: Path, samples: int
              ) -> tuple[list[float], int, float, float, dict[str, Any]]:
    """Start the companion on `data_dir`, join 12 phones, each following its page's live
    part on its stream, time `samples` payments: the timings until every phone was told,
    how many payments the game refused (a pending debt), the companion's CPU ms per timed
    payment (every thread of its process, refused payments included, the phones' parts
    too), the bytes one phone's stream carried per payment; and in `pages`: the ms until
    every phone whose page changed had its part ("part_ms"), the CPU ms per move and the
    parts per move of 20 more payments and of 20 of a table's own moves ("per_move",
    "parts_per_move", "game_*", "game_ms"), the companion's CPU ms for one read of a
    player's own page and of a spectator's table page (20 at one version: the table page
    is rendered for the first, views/shared.py), the bytes of a part, and how often the
    phones waited for their turn under PHONE_PER_S during the timed payments ("paced":
    before a timed span, as they should) and inside one ("paced_in_span": a wait the
    timings would wrongly include)."""
    stop = threading.Event()
    phones: list[HttpPhone] = []
    threads_: list[threading.Thread] = []
    with Companion(data_dir) as child:
        try:
            phones = _join_all(child)
            state = phones[0].state()
            version = int(state["version"])
            playing = [PLAYERS.index(p["name"]) for p in state["players"]
                       if not p.get("bankrupt")]
            seated = {PLAYERS[k] for k in playing}
            table = _Table(phones, seated)
            for k, phone in enumerate(phones):
                phone.open_stream(f"/{table.pages[k][0]}", version)
                t = threading.Thread(target=_reader, args=(
                    k, phone, table.arrivals, table.parts, table.told if k == 0 else None,
                    stop), daemon=True)
                t.start()
                threads_.append(t)
            if table.arrivals.wait_all(version, 10) is None:
                raise RuntimeError("not every phone got the first state")
            timings: list[float] = []
            part_ms: list[float] = []
            refused = 0
            i = 0
            paced_in_span = 0
            paced0 = sum(p.paced for p in phones)
            cpu0, bytes0 = cpu_ns(child.pid), sum(p.event_bytes for p in phones)
            parts0 = table.parts.bytes, table.parts.count
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
                told_ms, shown_ms, _changed = table.shown(version, start)
                timings.append(told_ms)
                part_ms.append(shown_ms)
            cpu1, bytes1 = cpu_ns(child.pid), sum(p.event_bytes for p in phones)
            part_bytes = table.parts.bytes - parts0[0]
            bytes1 -= part_bytes  # the stream's news alone; the parts said apart
            pages: dict[str, Any] = {
                "paced": sum(p.paced for p in phones) - paced0,
                "paced_in_span": paced_in_span, "part_ms": part_ms,
                "part_bytes": part_bytes / max(1, table.parts.count - parts0[1])}

            # 20 more payments, each until the pages it changed were shown (a payment
            # changes two players' pages and the Table page's latest moves)
            def payment() -> Callable[[], int | None]:
                nonlocal i
                payer, payee = playing[i % len(playing)], playing[(i + 1) % len(playing)]
                i += 1
                phones[payer].wait_turn()

                def pay() -> int | None:
                    nonlocal version
                    status, body = phones[payer].command(
                        {"do": "pay", "to": PLAYERS[payee], "amount": 1}, version)
                    if isinstance(body, dict) and "version" in body:
                        version = int(body["version"])
                    return version if status == 200 else None

                return pay

            pages["per_move"], pages["parts_per_move"], _ms, pages["bytes_per_move"] = \
                _pages_per_move(child, table, payment)

            # the same for the moves a table makes (rolls, turns ended, cards drawn...),
            # each from the phone of the player it is for: most change every page
            def table_turn() -> Callable[[], int | None]:
                state = phones[-1].state()
                command = table_move(state)
                if command is None:
                    raise RuntimeError("the game offers no move the bench makes")
                mover = phones[PLAYERS.index(command["by"])]
                mover.wait_turn()

                def play() -> int | None:
                    status, body = mover.command(command, int(state["version"]))
                    if status != 200:
                        raise RuntimeError(f"the game refused {command}: {body}")
                    return int(body["version"])

                return play

            pages["game_per_move"], pages["game_parts_per_move"], pages["game_ms"], \
                pages["game_bytes_per_move"] = _pages_per_move(child, table, table_turn)
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
        "fanout.part_ms_p50": round(statistics.median(pages["part_ms"]), 2),
        "fanout.part_ms_p99": round(percentile(pages["part_ms"], 0.99), 2),
        "fanout.part_bytes": round(pages["part_bytes"]),
        "fanout.page_cpu_ms_per_move": round(pages["per_move"], 2),
        "fanout.page_parts_per_move": round(pages["parts_per_move"], 2),
        "fanout.page_game_cpu_ms_per_move": round(pages["game_per_move"], 2),
        "fanout.page_game_parts_per_move": round(pages["game_parts_per_move"], 2),
        "fanout.page_part_bytes_per_move": round(pages["bytes_per_move"]),
        "fanout.page_game_part_bytes_per_move": round(pages["game_bytes_per_move"]),
        "fanout.page_game_ms_p50": round(statistics.median(pages["game_ms"]), 2),
        "fanout.page_game_ms_p99": round(percentile(pages["game_ms"], 0.99), 2),
        "fanout.samples": float(len(mid)),
        "fanout.phones": float(len(PLAYERS) + SPECTATORS),
        "fanout.mid_game_commands": float(mid_game),
        "fanout.late_game_commands": float(late_game),
        "fanout.refused": float(mid_refused + late_refused),
        "fanout.paced_waits": float(sum(run["paced"] for run in runs)),
        "fanout.late_paced_waits": float(late_pages["paced"]),
        "fanout.paced_in_span": float(sum(run["paced_in_span"] for run in runs)),
    }
