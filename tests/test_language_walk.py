"""Every word a table shows in its language (issue 24, item 4): a game played by the bots
for a few hundred moves, then every phone page (a player's and the banker's, the phone
picking no language of its own) and every table-screen view, in each of the seven languages,
checked against the catalogs for a sentence of another language and for raw identifiers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from fixtures.screen.scenarios import SCENARIOS, scenario
from foreign_words import foreign, raw_identifiers, visible
from web_fakes import Phone

from companion.bots import Bots
from companion.game.api import Source
from companion.game.applying import apply_command
from companion.game.session import GameSession
from companion.rules import Accepted, apply
from companion.screen import texts
from companion.screen.render import render
from companion.words import catalog as i18n
from companion.words.table_language import TableLanguage
from web_remote import create_app

pytestmark = pytest.mark.usefixtures("screen_in_english")

BANKER = Source(kind="script", banker=True)
#: the edition each language's table plays (the language's own, else the classic euro one)
EDITION = {"en": "classic-en", "sv": "sv", "fr": "classic-eur", "de": "ch",
           "nl": "classic-eur", "pl": "pl", "ru": "ru-monopolist"}
MOVES = 160
PLAYER_PAGES = ("/table", "/me", "/history", "/rules", "/worth", "/story")
BANKER_PAGES = ("/banker",)


def played(data: Path, edition: str, players: tuple[str, ...], seed: int = 5) -> Any:
    """A session in `data` whose game the bots played for MOVES moves (or to its end)."""
    new_game = {"do": "new_game", "edition": edition, "players": list(players), "seed": seed}
    result = apply_command(None, new_game)
    assert isinstance(result, Accepted)
    g, bots, commands = result.state, Bots(), []
    while g.winner < 0 and len(commands) < MOVES:
        command = bots.choose(g)
        step = apply(g, command)
        assert isinstance(step, Accepted), command
        commands.append(command)
        g = step.state
    session = GameSession.open(data)
    assert session.submit(new_game, BANKER).accepted
    for command in commands:
        out = session.submit(command, BANKER)
        assert out.accepted, (command, out)
    return session


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[Any, Any]]]:
    """One played table per edition: (session, phone remote)."""
    out: dict[str, tuple[Any, Any]] = {}
    for edition in sorted({*EDITION.values(), "mega"}):
        data = tmp_path_factory.mktemp(edition)
        session = played(data, edition, ("Anna", "Bram", "Cor", "Dirk"))
        out[edition] = session, create_app(session, data, {"banker_pin": "2468"})
    yield out
    for session, app in out.values():
        app.extensions["web_remote"].close()
        session.close()


_PHONES: dict[int, tuple[Phone, Phone]] = {}


def phone_texts(app: Any, lang: str) -> dict[str, list[str]]:
    """The visible texts of every phone page, the table speaking `lang`."""
    TableLanguage.at(app.extensions["web_remote"].data_dir).choose(lang)
    shown: dict[str, list[str]] = {}
    if id(app) not in _PHONES:  # a seat is held by one phone: the same two every time
        state = app.extensions["web_remote"].session.state()
        seated = next(p["name"] for p in state["players"] if not p.get("bankrupt"))
        player, banker = Phone(app), Phone(app)
        assert player.join(f"player:{seated}").status_code == 302
        assert banker.join("banker", pin="2468").status_code == 302
        _PHONES[id(app)] = player, banker
    anna, banker = _PHONES[id(app)]
    for phone, pages in ((anna, PLAYER_PAGES), (banker, BANKER_PAGES)):
        for page in pages:
            resp = phone.client.get(page)
            assert resp.status_code == 200, (page, resp.status_code)
            html = resp.get_data(as_text=True)
            assert f'<html lang="{lang}">' in html, page
            shown[page] = visible(html)
    return shown


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("edition", ["own", "mega"])
def test_every_phone_page_speaks_the_tables_language(tables: Any, lang: str,
                                                      edition: str) -> None:
    _session, app = tables[EDITION[lang] if edition == "own" else "mega"]
    problems = []
    for page, shown in phone_texts(app, lang).items():
        problems += [(page, "foreign", hit) for hit in foreign(shown, lang)]
        problems += [(page, "raw", text) for text in raw_identifiers(shown)]
    assert problems == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_screen_view_speaks_the_tables_language(lang: str) -> None:
    problems = []
    for name in SCENARIOS:
        texts.use_language(lang)
        state, ui = scenario(name, lang)
        frame = render(state, ui, pygame.Surface((800, 480)))
        shown = [t.text for t in frame.texts]
        problems += [(name, "foreign", hit) for hit in foreign(shown, lang)]
        problems += [(name, "raw", text) for text in raw_identifiers(shown)]
    assert problems == []
