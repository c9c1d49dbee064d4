"""Fixtures shared by the phone remote's tests; a test file's own `game` (or `app`) wins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    """The real journaled session with a 3-player game at a table that rolls its own dice
    (the phones enter them; a test file's own `game` wins)."""
    from web_fakes import open_real_session

    session = open_real_session(tmp_path / "game", options={"physical_dice": True})
    yield session
    session.close()


@pytest.fixture
def app(game: Any, tmp_path: Path) -> Iterator[Any]:
    """The phone remote on the file's `game`, banker PIN 2468."""
    from web_remote import create_app

    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})
    yield app
    app.extensions["web_remote"].close()


@pytest.fixture
def screen_in_english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Dummy SDL video and audio drivers and the screen speaking English; all restored after.
    A screen test module uses it with `pytestmark = pytest.mark.usefixtures(...)`."""
    from companion.screen import texts

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    language = texts.language()
    texts.use_language("en")
    yield
    texts.use_language(language)


@pytest.fixture
def dummy_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A real pygame display on SDL's dummy video driver (invisible), quit and the driver
    restored after. A screen test module uses it with `pytestmark = pytest.mark.usefixtures(
    "dummy_display")`."""
    import pygame

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    yield
    pygame.display.quit()


@pytest.fixture(params=["httptools", "h11"])
def parser(request: pytest.FixtureRequest) -> str:
    """The HTTP parser a serving test starts the phone remote with (`serve(..., pure=...)`):
    httptools, the C parser scripts/install-fast.sh installs where its wheel fits this
    Python (skipped, saying so, where it is not installed), then the pure-Python h11 that a
    machine without the wheel serves with: the tests hold both to the same guards."""
    name = str(request.param)
    if name == "httptools":
        from web_remote import serving

        if serving.parser_name(serving.HTTP_PROTOCOL) != "httptools":
            pytest.skip("httptools is not installed here (scripts/install-fast.sh installs "
                        "its wheel where one fits this Python)")
    return name
