"""A joined phone's signed cookie is signed and sent again once a day, not with every answer
(issue 28: signing it was a third of what Flask spent on a page read); a changed session is
still sent at once, and the cookie's 30 days still run from the last day the phone was used."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import Phone

from web_remote import create_app


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Iterator[Flask]:
    app = create_app(game, tmp_path / "game", {"rate_per_s": 1e6, "burst": 1e6})
    yield app
    app.extensions["web_remote"].close()


def _sets_cookie(response: Any) -> bool:
    return any(v.startswith("companion=") for v in response.headers.getlist("Set-Cookie"))


def test_a_phone_gets_its_cookie_again_once_a_day(app: Flask,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_800_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])  # the module web_remote.app reads
    phone = Phone(app)
    joined = phone.join("player:Ann")
    assert joined.status_code == 302 and _sets_cookie(joined)  # a changed session: at once
    first = phone.client.get("/table?partial=1")  # signed today (once), with the day in it
    assert first.status_code == 200
    for _ in range(3):  # the same day: the cookie the phone has stays good, none is sent
        again = phone.client.get("/table?partial=1")
        assert again.status_code == 200 and not _sets_cookie(again)
    assert phone.client.get("/me?partial=1").status_code == 200  # still Ann's phone
    now[0] += 86_400  # the next day: sent again, so its 30 days run from today
    next_day = phone.client.get("/table?partial=1")
    assert _sets_cookie(next_day)
    assert "Expires=" in next(v for v in next_day.headers.getlist("Set-Cookie")
                              if v.startswith("companion="))
    assert not _sets_cookie(phone.client.get("/table?partial=1"))


def test_a_changed_session_is_sent_at_once(app: Flask) -> None:
    phone = Phone(app)
    assert phone.join("player:Ann").status_code == 302
    phone.client.get("/table?partial=1")
    assert not _sets_cookie(phone.client.get("/table?partial=1"))
    switched = phone.join("spectator")  # a fresh code, another seat: the session changes
    assert switched.status_code == 302 and _sets_cookie(switched)
    assert phone.client.get("/me?partial=1").status_code in (200, 302)
