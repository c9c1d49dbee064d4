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
from flask import request as asked
from web_fakes import Phone

from web_remote import create_app
from web_remote.app import DailyCookie


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


def _cookie(phone: Phone) -> str:
    found = phone.client.get_cookie("companion")
    assert found is not None
    return str(found.value)


def test_a_cookie_is_checked_once_and_its_age_every_time(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """The phone's cookie is opened by its signature once; the same cookie again is not
    checked again, but its age is: past its 30 days it is refused as it was before."""
    now = [1_800_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    phone = Phone(app)
    assert phone.join("player:Ann").status_code == 302
    assert phone.client.get("/me?partial=1").status_code == 200  # signed today
    checks: list[str] = []
    interface = app.session_interface
    assert isinstance(interface, DailyCookie)
    signer = interface.get_signing_serializer(app)
    assert signer is not None
    serializer = type(signer)
    loads = serializer.loads

    def counted(self: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
        checks.append(str(value))
        return loads(self, value, *args, **kwargs)

    monkeypatch.setattr(serializer, "loads", counted)
    cookie = _cookie(phone)
    for _ in range(5):
        assert phone.client.get("/me?partial=1").status_code == 200
        assert _cookie(phone) == cookie
    assert checks.count(cookie) <= 1  # checked at most once (the first sight of it)
    now[0] += 31 * 86_400  # past its 30 days: the whole check again, which refuses it
    before = len(checks)
    assert phone.client.get("/me?partial=1").status_code != 200
    assert len(checks) > before


def test_a_kept_cookie_does_not_open_a_changed_one(app: Flask) -> None:
    """A cookie changed by one character after its good original was kept is refused, and
    what a request changes in its session is not what the next request with the same
    cookie finds."""
    phone = Phone(app)
    assert phone.join("player:Ann").status_code == 302
    assert phone.client.get("/me?partial=1").status_code == 200
    good = _cookie(phone)
    assert phone.client.get("/me?partial=1").status_code == 200  # kept now
    body, _, signature = good.rpartition(".")
    forged = f"{body}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}"
    phone.client.set_cookie("companion", forged)
    assert phone.client.get("/me?partial=1").status_code != 200
    phone.client.set_cookie("companion", good)
    assert phone.client.get("/me?partial=1").status_code == 200
    with app.test_request_context(headers={"Cookie": f"companion={good}"}):
        opened = app.session_interface.open_session(app, asked)
        assert opened is not None and opened.get("player") == "Ann"
        opened["player"] = "Bo"  # a request's change stays in its own session
    with app.test_request_context(headers={"Cookie": f"companion={good}"}):
        again = app.session_interface.open_session(app, asked)
        assert again is not None and again.get("player") == "Ann"
