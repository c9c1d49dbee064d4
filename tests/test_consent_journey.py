"""Consent bound to its question, through the real entry points (issue 26, item 2): a
headless `companion run` with its phone remote on a real socket and the simulated card
reader (`companion tap`). A trade offered on Ann's phone is put to Cy by her card and
accepted only by her second tap; a tap meant to start a payment accepts nothing; an offer
lapses with the turn it was made in, so no tap accepts it afterwards."""

from __future__ import annotations

import http.cookiejar
import json
import os
import queue
import re
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.tap_cmd import send_tap
from companion.game.api import Source
from companion.game.session import GameSession
from tools.bench.proc import free_port

CARDS = {"0A00000001": 1, "0B00000002": 2, "0C00000003": 3}  # Ann, Bo, Cy
ANN, BO, CY = CARDS


class PhoneOverHttp:
    """A phone on the real socket: joins by the printed link, keeps its cookie and CSRF."""

    def __init__(self, link: str) -> None:
        self.base = f"{urllib.parse.urlsplit(link).scheme}://{urllib.parse.urlsplit(link).netloc}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""
        self.link = link

    def _csrf(self, html: str) -> str:
        found = re.search(r'name="csrf-token" content="([^"]+)"', html)
        assert found, html[:300]
        return found.group(1)

    def join(self, who: str) -> None:
        with self.opener.open(self.link, timeout=10) as page:
            csrf = self._csrf(page.read().decode())
        form = urllib.parse.urlencode({"who": who, "pin": "", "csrf_token": csrf}).encode()
        request = urllib.request.Request(self.link, data=form, headers={"Origin": self.base})
        with self.opener.open(request, timeout=10) as answer:
            self.csrf = self._csrf(answer.read().decode())

    def get(self, path: str) -> Any:
        with self.opener.open(self.base + path, timeout=10) as answer:
            return json.loads(answer.read().decode())

    def wait_past(self, version: int) -> int:
        """Follow the live stream (as the page does) until the table is past `version`;
        the version it reached (a timeout fails the read)."""
        with self.opener.open(self.base + "/api/stream", timeout=20) as stream:
            event = ""
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line.removeprefix("event: ")
                elif line.startswith("data: ") and event == "state":
                    reached = int(json.loads(line.removeprefix("data: "))["version"])
                    if reached > version:
                        return reached
        raise AssertionError("the stream ended")

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf,
                     "Origin": self.base})
        try:
            with self.opener.open(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read().decode())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read().decode())


class Log:
    """The companion's log (stderr), line by line as it comes: waited on, never slept on."""

    def __init__(self, stream: Any) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.lines.put(line)

    def wait_for(self, text: str, timeout: float = 20) -> str:
        """The next log line holding `text` (the lines before it are kept in `seen`)."""
        while True:
            line = self.lines.get(timeout=timeout)
            self.seen.append(line)
            if text in line:
                return line


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Path, str, Log]]:
    """A dealt game, its bank cards, and `companion run --headless` with the fake reader."""
    data = tmp_path / "data"
    data.mkdir()
    tags = {tag: {"kind": "bank_card", "number": n} for tag, n in CARDS.items()}
    (data / "tags.json").write_text(json.dumps({"version": 1, "tags": tags}))
    with GameSession.open(data) as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo", "Cy"], "seed": 3},
                              Source("script", banker=True)).accepted
    env = {**os.environ, "COMPANION_CONFIG": str(tmp_path / "none")}
    for _attempt in range(3):  # a port found free may be taken again before the run binds it
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--headless", "--port", str(port),
             "--data-dir", str(data), "--reader", "fake"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert proc.stdout is not None and proc.stderr is not None
        log = Log(proc.stderr)
        line = proc.stdout.readline()
        if line or proc.wait(timeout=20) != 2:
            break
        proc.stdout.close()
    with proc:
        try:
            found = re.search(r"join at: (\S+)", line)
            assert found, (line, log.seen)
            link = found.group(1).replace(urllib.parse.urlsplit(found.group(1)).hostname or "",
                                          "127.0.0.1", 1)
            yield data, link, log
        finally:
            proc.terminate()
            proc.wait(timeout=20)


def tap(data: Path, tag: str, log: Log, answer: str) -> str:
    """Tap a card and wait for what the table says to it (a headless table logs it)."""
    assert send_tap(data, tag) == "ok"
    return log.wait_for(answer)


def test_a_card_accepts_only_the_offer_put_to_it_and_never_a_lapsed_one(
        table: tuple[Path, str, Log]) -> None:
    data, link, log = table
    ann = PhoneOverHttp(link)
    ann.join("player:Ann")
    state = ann.get("/api/state")
    status, made = ann.post("/api/trades", {"version": state["version"], "to": "Cy",
                                            "give": {"cash": 50}, "take": {}})
    assert status == 200, made
    # a tap meant to start a payment: Bo's card, then Cy's (Bo pays Cy: an amount follows)
    assert "Bo's card" in tap(data, BO, log, "prompt: ")
    assert "Bo pays Cy" in tap(data, CY, log, "prompt: ")
    assert ann.get("/api/state")["version"] == state["version"]
    assert [t["to"] for t in ann.get("/api/trades")] == ["Cy"], "still open, not accepted"
    # Ann plays her turn to its end on her phone (the device's dice): the offer lapses, on
    # the phones as at the card readers
    for _ in range(20):
        state = ann.get("/api/state")
        if state["current"] != "Ann":
            break
        legal = [e["do"] for e in state["legal"] if e.get("by") == "Ann"]
        verb = next(v for v in ("end_turn", "buy", "roll", "draw", "pay_fine", *legal)
                    if v in legal)
        status, out = ann.post("/api/commands", {"command": {"do": verb},
                                                 "version": state["version"]})
        assert status == 200, (verb, out)
    assert ann.get("/api/state")["current"] == "Bo"
    assert ann.get("/api/trades") == []
    version = ann.get("/api/state")["version"]
    asked = tap(data, CY, log, "prompt: ")  # Cy's card: no offer is put to her any more
    assert "Cy's card: tap another player's card" in asked, asked
    assert "Cancelled" in tap(data, CY, log, "Cancelled")  # the same card again cancels
    assert ann.get("/api/state")["version"] == version
    # a fresh offer in Bo's turn: Cy's first tap asks, her second accepts exactly it
    status, made = ann.post("/api/trades", {"version": version, "to": "Cy",
                                            "give": {"cash": 20}, "take": {}})
    assert status == 200, made
    asked = tap(data, CY, log, "prompt: ")  # her first tap puts the offer to her, with its goods
    assert "Ann offers Cy a trade: Ann gives" in asked and "20" in asked, asked
    assert ann.get("/api/state")["version"] == version, "a first tap asks, it does not accept"
    assert send_tap(data, CY) == "ok"
    ann.wait_past(version)  # the pump submits it: wait on the table's answer, not on time
    assert ann.get("/api/trades") == []
    # the pump takes taps in order: every tap before this one was answered, and only this
    # one accepted a trade (Ann's history lists the trades she was in)
    done = [e for e in ann.get("/api/history") if e["command"].get("do") == "trade"]
    assert [(e["command"]["give"], e["source"]) for e in done] == [
        ({"cash": 20, "cards": 0, "squares": []}, {"kind": "rfid", "player": "Cy",
                                                    "banker": False})]
