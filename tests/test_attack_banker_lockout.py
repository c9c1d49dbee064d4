"""The banker is never locked out (issue 26, point 5), through the real server on loopback:
spectators on 16 addresses guess the banker PIN until the phones' door waits; the banker's
session already open still acts at once (a command, the banker page, changing the PIN with
the old one), the screen's banker menu still checks the right PIN at once, and every wrong
guess warned the banker. No sleeps: the PIN guard's waits are read, never waited out."""

from __future__ import annotations

import http.client
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from companion.game.pins import PinWarning
from tools.bench.probe import HttpPhone
from web_remote import TableHooks, create_app, join_url, serve
from web_remote.serving import ServerHandle

PIN = "2468"


def phone_from(server: ServerHandle, address: str) -> HttpPhone:
    """A phone whose connection comes from `address` (127.0.0.x: another laptop)."""
    phone = HttpPhone(server.url, timeout=5)
    phone._conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5,
                                             source_address=(address, 0))
    return phone


def form(phone: HttpPhone, path: str, **fields: str) -> tuple[int, bytes]:
    """A page's form sent by its script (JSON asked)."""
    status, _h, body = phone.request("POST", path, urlencode(
        {**fields, "csrf_token": phone.csrf}).encode(), {
        "Content-Type": "application/x-www-form-urlencoded", "Origin": phone.base,
        "Accept": "application/json"})
    return status, body


def test_guessing_phones_never_lock_the_banker_out(game: Any, tmp_path: Path) -> None:
    warnings: list[PinWarning] = []
    app = create_app(game, tmp_path / "game", {"banker_pin": PIN},
                     TableHooks(on_pin_warning=warnings.append))
    guard = app.extensions["web_remote"].pin
    with serve(app, "127.0.0.1", 0) as server:
        banker = HttpPhone(server.url, timeout=5)
        assert banker.join(join_url(app, server.url), "banker", PIN) == 302
        answers: list[int] = []
        for n in range(32):  # two devices on each of 16 addresses
            spy = phone_from(server, f"127.0.0.{10 + n // 2}")
            answers.append(spy.join(join_url(app, server.url, fresh=True), "banker",
                                    f"{n:04d}"))
            spy.close()
        assert set(answers) <= {403, 429} and 429 in answers
        wrong = answers.count(403)
        assert guard.wait("phone") > 0  # the phones' door waits now...
        assert len(warnings) == wrong and warnings[-1].wrong == wrong  # ...each one said

        state = banker.state()  # ...and the banker's open session acts at once
        status, body = banker.command({"do": "pay", "from": "Ann", "to": "Bo", "amount": 5},
                                      state["version"])
        assert status == 200, body
        status, _h, page = banker.request("GET", "/banker")
        assert status == 200 and f"{wrong} wrong banker PINs typed".encode() in page
        status, body = form(banker, "/banker/pin", old_pin=PIN, pin="97531")
        assert status == 200, body  # its PIN check is its own door's
        assert guard.check("97531", where="screen").right  # the screen's banker menu too
        status, body = banker.command({"do": "pay", "from": "Bo", "to": "Ann", "amount": 5},
                                      state["version"] + 1)
        assert status == 200, body  # changing the PIN kept this phone the banker
        banker.close()
