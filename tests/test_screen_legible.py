"""Legible from a metre on the 7-inch 800x480 screen: nothing the table reads during a game
(the player cards, "Last moves", the board's centre, the QR caption, the decision panel and its
buttons) is drawn under theme.READABLE (16) pixels in any language, except the secondary facts
a view declares as such (never under 14); a player's cash is at least theme.MONEY (28) pixels;
the roll is written in digits beside the dice."""

from __future__ import annotations

import pygame
import pytest
from fixtures.screen.scenarios import LANGUAGES, SCENARIOS, edition, scenario

from companion.screen import texts, theme
from companion.screen.layout import GameLayout
from companion.screen.painter import DrawnText, Painter
from companion.screen.render import render
from companion.words.catalog import localized_name

pytestmark = pytest.mark.usefixtures("screen_in_english")

SIZE = (800, 480)
#: the game over screen has its own layout; "rich" seats eight players in two narrow columns
GAME = [n for n in SCENARIOS if n not in ("setup", "game_over", "mega_game_over", "menu",
                                          "rules", "help")]


def _game_texts(language: str) -> list[tuple[str, str, DrawnText]]:
    """(scenario, zone, text) of every text drawn in a game zone, in every game scenario."""
    texts.use_language(language)
    layout = GameLayout.for_size(SIZE)
    zones = {"log": layout.log, "remote": layout.remote, "board": layout.board,
             "players": layout.players, "prompt": layout.prompt}
    found = []
    for name in GAME:
        state, ui = scenario(name, language)
        frame = render(state, ui, pygame.Surface(SIZE))
        for shown in frame.texts:
            for zone, rect in zones.items():
                if rect.contains(shown.box):
                    found.append((name, zone, shown))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_the_table_reads_is_small(language: str) -> None:
    secondary = theme.readable(1.0, secondary=True)
    small = []
    for name, zone, shown in _game_texts(language):
        if zone == "players" and name == "rich":
            continue  # eight players share the column: only their cash is held to a floor
        # a view may let a long secondary fact go down to 14 px, never under (a word on
        # five buttons side by side: 12 px)
        floor = secondary if shown.floor <= secondary else theme.readable(1.0)
        if zone == "prompt" and shown.floor == theme.NARROW:
            floor = theme.NARROW
        if shown.size < floor:
            small.append((name, zone, shown.text, shown.size))
    assert small == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_money_is_large(language: str) -> None:
    # up to four players (the cards of five or more share two narrow columns)
    cash = [(name, shown.text, shown.size) for name, zone, shown in _game_texts(language)
            if zone == "players" and name != "rich" and any(ch.isdigit() for ch in shown.text)
            and shown.size > theme.SIZES["worth"] + 2]
    assert cash, "no player's cash was drawn"
    assert [c for c in cash if c[2] < theme.MONEY] == []


def test_the_floor_test_can_fail() -> None:
    """A text drawn at 15 px with the plain floor is caught; a declared secondary one is not."""
    p = Painter(pygame.Surface(SIZE), 1.0, 1.0)
    box = pygame.Rect(0, 0, 400, 40)
    p.text("small", box, 15, theme.TEXT, min_size=15)
    p.text("fact", box, 14, theme.TEXT, min_size=theme.readable(1.0, secondary=True))
    secondary = theme.readable(1.0, secondary=True)
    low = [t.text for t in p.texts
           if t.size < (secondary if t.floor <= secondary else theme.readable(1.0))]
    assert low == ["small"]


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


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_longest_card_is_shown_whole(language: str) -> None:
    """The edition's longest card (the Dutch utility card among them) wraps into the centre
    whole, at the readable size or larger, nothing ellipsised."""
    texts.use_language(language)
    state, ui = scenario("turn", language)
    assert state is not None
    data = edition(language)
    cards = [(deck, card["id"], localized_name(data["id"], card["id"], language))
             for deck, cards in data["decks"].items() for card in cards["cards"]]
    deck, card_id, said = max(cards, key=lambda card: len(card[2]))
    state = {**state, "pending": None,
             "card_news": {"id": card_id, "deck": deck, "text": said,
                           "player": state["current"]}}
    frame = render(state, ui, pygame.Surface(SIZE))
    board = GameLayout.for_size(SIZE).board
    words = [t for t in frame.texts if board.contains(t.box) and t.text in said]
    assert " ".join(t.drawn for t in words if len(t.text) > 3 or t.text == said) == said
    assert all(t.size >= theme.READABLE for t in words)
