"""The table's voice is switched and tuned on the banker page and in the screen's menu
(issue 30): both write the data directory's speech.json, which the announcer reads again;
a player may have their own news read on their phone instead (the Me page's box)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from flask import Flask
from web_fakes import ORIGIN, Phone, open_real_session

from companion.speech import settings as speech_settings
from web_remote import create_app


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo"))
    yield session
    session.close()


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Iterator[Flask]:
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})
    yield app
    app.extensions["web_remote"].close()


def send(phone: Phone, **form: str) -> Any:
    return phone.client.post("/banker/voice", data={"csrf_token": phone.csrf, **form},
                             headers={"Origin": ORIGIN, "Accept": "application/json"})


def test_the_banker_switches_and_tunes_the_voice(app: Flask, tmp_path: Path) -> None:
    banker = Phone(app)
    banker.join("banker", pin="2468")
    page = banker.client.get("/banker").get_data(as_text=True)
    assert 'action="/banker/voice"' in page and 'name="volume"' in page
    resp = send(banker, volume="40", quiet_from="22", quiet_until="7")  # "on" unticked
    assert resp.status_code == 200, resp.data
    assert speech_settings.load(tmp_path / "game") == speech_settings.SpeechSettings(
        on=False, volume=40, quiet_from=22, quiet_until=7)
    assert send(banker, on="1", volume="90").status_code == 200
    assert speech_settings.load(tmp_path / "game").on is True


@pytest.mark.parametrize("form", [{"volume": "300"}, {"volume": "loud"},
                                  {"volume": "50", "quiet_from": "25"},
                                  {"volume": "50", "quiet_until": "-1"}])
def test_bad_voice_settings_are_refused_and_change_nothing(
        app: Flask, tmp_path: Path, form: dict[str, str]) -> None:
    banker = Phone(app)
    banker.join("banker", pin="2468")
    assert send(banker, on="1", volume="60").status_code == 200
    resp = send(banker, on="1", **form)
    assert resp.status_code == 400
    assert resp.get_json()["code"] == "bad_voice" and "0 to 100" in resp.get_json()["message"]
    assert speech_settings.load(tmp_path / "game").volume == 60


def test_a_player_may_not_change_the_voice(app: Flask, tmp_path: Path) -> None:
    ann = Phone(app)
    ann.join("player:Ann")
    assert send(ann, on="0", volume="0").status_code in (401, 403)
    assert not (tmp_path / "game" / speech_settings.FILE_NAME).exists()


def test_the_me_page_offers_the_phones_own_voice(app: Flask) -> None:
    ann = Phone(app)
    ann.join("player:Ann")
    page = ann.client.get("/me").get_data(as_text=True)
    assert "data-speak-news" in page
    script = (Path(__file__).parent.parent / "web_remote/static/app.js").read_text("utf-8")
    assert "speechSynthesis" in script and "companion.speakNews" in script


def test_the_screen_menu_switches_the_voice(tmp_path: Path) -> None:
    from web_fakes import FakeSession

    from companion.screen.controller import Controller
    from companion.screen.views.prompt import Action

    controller = Controller(cast(Any, FakeSession()), data_dir=tmp_path)
    controller.open_menu()
    chooser = controller.ui.chooser
    assert chooser is not None
    actions = [c.action for c in chooser.choices]
    assert "voice:toggle" in actions and "voice:volume" in actions
    controller.do(Action(None, "menu", ui="voice:toggle"), "screen")
    assert speech_settings.load(tmp_path).on is False
    controller.do(Action(None, "menu", ui="voice:volume"), "screen")
    assert speech_settings.load(tmp_path).volume == 100
    controller.do(Action(None, "menu", ui="voice:volume"), "screen")
    assert speech_settings.load(tmp_path).volume == 20
