"""Legible from a metre on the 7-inch 800x480 screen: the player cards' worth line, "Last
moves", the board's centre (the card drawn and by whom, whom the table waits for, where the
player to move stands) and the QR caption are never drawn under theme.READABLE pixels, in
every language; the roll is written in digits beside the dice."""

from __future__ import annotations

import pygame
import pytest
from fixtures.screen.scenarios import LANGUAGES, SCENARIOS, scenario

from companion.screen import texts, theme
from companion.screen.layout import GameLayout
from companion.screen.render import render

pytestmark = pytest.mark.usefixtures("screen_in_english")

SIZE = (800, 480)
#: the game over screen has its own layout; "rich" seats eight players in two narrow columns
GAME = [n for n in SCENARIOS if n not in ("setup", "game_over", "mega_game_over", "menu",
                                          "rules", "help")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_the_table_reads_is_small(language: str) -> None:
    texts.use_language(language)
    layout = GameLayout.for_size(SIZE)
    zones = {"log": layout.log, "remote": layout.remote, "board": layout.board,
             "players": layout.players}
    small = []
    for name in GAME:
        state, ui = scenario(name, language)
        frame = render(state, ui, pygame.Surface(SIZE))
        for shown in frame.texts:
            for zone, rect in zones.items():
                if zone == "players" and name == "rich":
                    continue
                # the board's centre may set long secondary facts (the bank's stock, the
                # house rules, a trade's details) 2 px smaller
                floor = theme.readable(1.0, secondary=zone == "board")
                if rect.contains(shown.box) and shown.size < floor:
                    small.append((name, zone, shown.text, shown.size))
    assert small == []


def test_the_roll_is_written_in_digits_beside_the_dice() -> None:
    texts.use_language("en")
    state, ui = scenario("turn", "en")
    assert state is not None and state.get("dice")
    frame = render(state, ui, pygame.Surface(SIZE))
    total = sum(d for d in state["dice"] if isinstance(d, int))
    roll = [t for t in frame.texts if t.text == f"= {total}"]
    assert roll and roll[0].size >= 24


def test_the_centre_says_where_the_player_to_move_stands() -> None:
    texts.use_language("en")
    state, ui = scenario("turn", "en")
    assert state is not None
    state = {**state, "pending": None, "card_news": None}
    me = next(p for p in state["players"] if p["name"] == state["current"])
    deed = next(s for s in state["squares"] if s["owner"] and s["kind"] == "lot")
    me["position"] = deed["index"]
    frame = render(state, ui, pygame.Surface(SIZE))
    said = [t.text for t in frame.texts]
    rent = f"Owner {deed['owner']} · rent"
    assert any(t.startswith(rent) for t in said), said
