"""Issue 26's self-pay, teleport and take-back attacks played through the real `companion run`
and real sockets, as the current player's own phone would (tests/test_moves_kept.py plays
the same through the session and the Flask test client): where the device rolls and moves
the tokens, a phone's PASS GO and `land` are refused however often they are sent, and a
device roll that paid rent is not the roller's to take back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from headless_run import headless_table

from tools.bench.probe import HttpPhone


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[int, str]]:
    """A headless companion with a saved game (the device rolls); its port and join link."""
    yield from headless_table(tmp_path)


def cash(state: Any) -> dict[str, int]:
    return {p["name"]: int(p["cash"]) for p in state["players"]}


def test_a_phone_cannot_pay_itself_teleport_or_take_back_a_seen_roll(
        table: tuple[int, str]) -> None:
    port, link = table
    ann = HttpPhone(f"http://127.0.0.1:{port}")
    try:
        assert ann.join(link, "player:Ann") == 302
        state = ann.state()
        before, version = cash(state), int(state["version"])
        for attempt in range(40):  # was 258 salaries in 10 s (the rate limit allows 60 at once)
            status, body = ann.command({"do": "pass_go", "by": "Ann"}, version)
            assert status in (403, 409, 422) and body["code"] == "device_moves", \
                (attempt, status, body)
        status, body = ann.command({"do": "land", "by": "Ann", "square": 39, "via_go": True},
                                   version)
        assert status in (403, 409, 422) and body["code"] == "device_moves", body
        status, body = ann.command({"do": "roll", "by": "Ann", "dice": [6, 6]}, version)
        assert status in (403, 409, 422) and body["code"] == "device_dice", body
        after = ann.state()
        assert cash(after) == before and int(after["version"]) == version  # nothing moved
        status, body = ann.command({"do": "roll", "by": "Ann"}, version)
        assert status == 200, body
        rolled = ann.state()
        status, body = ann.post_json("/api/undo", {"version": int(rolled["version"])})
        assert status in (403, 409, 422) and body["code"] == "result_kept", body
        assert ann.state()["version"] == rolled["version"]  # the roll stands
    finally:
        ann.close()
