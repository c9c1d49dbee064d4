"""Hypothesis over the command API: whatever a phone sends, the answer is a clean JSON
refusal or an accepted command made by that phone's own player; refusals change nothing.

Runs on the in-memory FakeSession: hundreds of examples without a journal's fsyncs.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_fakes import FakeSession, Phone

from web_remote import create_app
from web_remote.guard import VERBS

NAMES = ["Ann", "Bo", "Cy", "Zed", "bank", "", None]
junk = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**10), st.floats(),
                 st.text(max_size=8), st.lists(st.integers(-3, 45), max_size=3))
amounts = st.one_of(st.integers(-100, 2000), junk)
squares = st.one_of(st.integers(-3, 45), st.sampled_from(["rue-lecourbe", "nowhere"]), junk)
offers = st.one_of(st.none(), junk, st.fixed_dictionaries(
    {}, optional={"cash": amounts, "squares": st.lists(squares, max_size=3), "cards": amounts}))
commands = st.one_of(
    junk,
    st.fixed_dictionaries({"do": st.sampled_from(sorted(VERBS) + ["fly", "undo"])}, optional={
        "by": st.sampled_from(NAMES), "amount": amounts, "square": squares,
        "count": amounts, "dice": st.one_of(st.lists(st.integers(0, 7), max_size=3), junk),
        "from": st.sampled_from(NAMES), "to": st.sampled_from(NAMES), "give": offers,
        "take": offers, "card": junk}),
)

_tmp = tempfile.TemporaryDirectory()
GAME = FakeSession(("Ann", "Bo", "Cy"), seed=11)
APP = create_app(GAME, Path(_tmp.name), {"banker_pin": "2468", "rate_per_s": 1e6,
                                          "burst": 1e6})
PHONES: dict[str, Phone] = {}
for who in ("player:Ann", "player:Bo", "spectator"):
    PHONES[who] = Phone(APP)
    PHONES[who].join(who)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(who=st.sampled_from(sorted(PHONES)), command=commands,
       stale=st.booleans(), body_junk=st.booleans())
def test_any_command_is_answered_cleanly(who: str, command: Any, stale: bool,
                                         body_junk: bool) -> None:
    phone = PHONES[who]
    before = GAME.state()
    version = before["version"] - (1 if stale else 0)
    body: Any = command if body_junk else {"command": command, "version": version}
    resp = phone.post("/api/commands", body)
    assert resp.status_code in (200, 400, 403, 409, 422), resp.status_code
    answer = resp.get_json()
    assert isinstance(answer, dict) and isinstance(answer["ok"], bool)
    if not answer["ok"]:
        assert isinstance(answer["code"], str) and answer["code"]
        assert GAME.state() == before
        return
    assert who != "spectator" and not stale and not body_junk
    entry = GAME.history(None, 1)[-1]
    me = who.removeprefix("player:")
    assert entry["source"]["player"] == me and entry["source"]["banker"] is False
    sent = entry["command"]
    assert sent.get("by", me) == me and sent.get("from", me) == me
    assert sent["do"] not in ("trade", "close_auction", "new_game", "auction_building")
