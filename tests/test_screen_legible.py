"""Legible from a metre on the 7-inch 800x480 screen: nothing the table reads during a game
(the player cards of two to eight players, long names too, "Last moves", the board's centre,
the QR caption, the decision panel and its buttons, five or six of them too), on the setup
screen, the Wi-Fi and join codes' words, card registration and the PIN pad is drawn under
theme.READABLE (16) pixels in any language (a waiting trade's details and the board's group
letters too, the letters on every property of the board); a player's cash is at least
theme.MONEY (28) pixels; the roll is written in digits beside the dice; a waiting trade's
details are never cut short."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from fixtures.screen.scenarios import LANGUAGES, SCENARIOS, crowd, edition, registering, scenario

from companion.inputs.entry import PinEntry
from companion.screen import texts, theme
from companion.screen.layout import GameLayout, GameOverLayout
from companion.screen.painter import DrawnText, Painter
from companion.screen.render import render
from companion.screen.ui_state import WifiJoin
from companion.words.catalog import localized_name

pytestmark = pytest.mark.usefixtures("screen_in_english")

SIZE = (800, 480)
#: the game over screen has its own layout
GAME = [n for n in SCENARIOS if n not in ("setup", "game_over", "mega_game_over", "menu",
                                          "rules", "help")]
#: five to eight players, some with names of 24 characters, on each language's board and on
#: the Mega board, whose money is the widest
CROWDS = [(base, count) for base in ("turn", "mega_bus") for count in (5, 6, 7, 8)]


def _game_texts(language: str) -> list[tuple[str, str, DrawnText]]:
    """(scenario, zone, text) of every text drawn in a game zone, in every game scenario and
    with five to eight players."""
    texts.use_language(language)
    layout = GameLayout.for_size(SIZE)
    zones = {"log": layout.log, "remote": layout.remote, "board": layout.board,
             "players": layout.players, "prompt": layout.prompt}
    found = []
    shown = [(name, *scenario(name, language)) for name in GAME]
    shown += [(f"{base}x{count}", *crowd(base, language, count)) for base, count in CROWDS]
    for name, state, ui in shown:
        frame = render(state, ui, pygame.Surface(SIZE))
        for shown in frame.texts:
            zone = next((zone for zone, rect in zones.items() if rect.contains(shown.box)),
                        "screen")  # the header, a banner over it
            found.append((name, zone, shown))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_the_table_reads_is_small(language: str) -> None:
    small = [(name, zone, shown.text, shown.size) for name, zone, shown in
             _game_texts(language) if shown.size < theme.readable(1.0)]
    assert small == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_money_is_large(language: str) -> None:
    """Every player's cash, two to eight players: its digits at MONEY or larger."""
    found = _game_texts(language)
    for name in {name for name, _zone, _shown in found}:
        state = scenario(name, language)[0] if name in GAME else None
        drawn = [shown for shown_name, zone, shown in found if shown_name == name
                 and zone == "players" and shown.size > theme.SIZES["worth"] + 2]
        if state is not None:
            assert len(drawn) >= len(state["players"]), name
        assert [(name, t.text, t.size) for t in drawn if t.size < theme.MONEY] == []
    crowds = [shown for name, zone, shown in found if "x" in name and zone == "players"]
    big = [t for t in crowds if t.size >= theme.MONEY and any(c.isdigit() for c in t.text)]
    assert len(big) == sum(count for _base, count in CROWDS)


def test_the_floor_test_can_fail() -> None:
    """A text drawn at 15 px is caught, whatever floor its view declared."""
    p = Painter(pygame.Surface(SIZE), 1.0, 1.0)
    box = pygame.Rect(0, 0, 400, 40)
    p.text("small", box, 15, theme.TEXT, min_size=15)
    p.text("fact", box, 14, theme.TEXT, min_size=14)
    p.text("fine", box, 16, theme.TEXT, min_size=16)
    assert [t.text for t in p.texts if t.size < theme.readable(1.0)] == ["small", "fact"]


@pytest.mark.parametrize("language", ["nl", "ru", "de"])
@pytest.mark.parametrize("base", ["turn", "mega_bus"])
def test_every_propertys_group_letter_is_drawn_readable(language: str, base: str) -> None:
    """The letter that tells a colour group without its colour stands on every lot of the
    group, at READABLE or larger, inside its square (the 7-inch screen's squares are 21
    pixels: the letter stands on the colour bar)."""
    texts.use_language(language)
    state, ui = crowd(base, language, 4)
    frame = render(state, ui, pygame.Surface(SIZE))
    letters = set(ui.board.group_letters.values())
    drawn = [t for t in frame.texts if t.text in letters]
    lots = [i for i in ui.board.squares if ui.board.group_letters.get(str(i.group))]
    assert len(drawn) == len(lots) > 20
    assert [(t.text, t.size) for t in drawn if t.size < theme.READABLE] == []
    layout = GameLayout.for_size(SIZE)
    assert all(t.fits and layout.board.contains(t.rect) for t in drawn)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_waiting_trades_details_are_whole_and_readable(language: str) -> None:
    """The trade waiting on a phone: its details at READABLE, never cut short (the title
    gives way first), and whom the table waits for below them, inside the board's centre."""
    from companion.screen.views.waiting import waiting_for

    texts.use_language(language)
    state, ui = scenario("trade", language)
    assert state is not None
    frame = render(state, ui, pygame.Surface(SIZE))
    [trade] = [w for w in waiting_for(state, ui) if w.detail]
    board = GameLayout.for_size(SIZE).board
    centre = [t for t in frame.texts if board.contains(t.box) and len(t.text) > 1]
    said = " ".join(t.drawn for t in centre)
    assert [(t.text, t.size) for t in centre if t.size < theme.READABLE] == []
    assert all(t.fits for t in centre) and "…" not in said
    for sentence in (trade.detail, trade.line):
        words = sentence.replace("-", "- ").split()
        assert [w for w in words if w.rstrip("-") not in said] == [], (sentence, said)


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


def _overlay_texts(language: str) -> list[tuple[str, DrawnText]]:
    """(screen, text) of every text drawn on the setup screen (its join code, the Wi-Fi code
    instead), the game with the Wi-Fi code or no phone server yet, card registration (a card
    moved, a question) and the banker PIN pad over the game; texts under an overlay's shade
    are left out."""
    texts.use_language(language)
    wifi = WifiJoin("Companion-7F3A-Tischrunde", "table-maple-42-bright",
                    "WIFI:T:WPA;S:Companion-7F3A-Tischrunde;P:table-maple-42-bright;;")
    screens = []
    for name in ("setup", "setup_wifi", "setup_off", "game_wifi", "game_off", "registration",
                 "asking", "pin"):
        if name in ("registration", "asking"):
            state, ui = registering(language, asking=name == "asking")
        else:
            state, ui = scenario("setup" if name.startswith("setup") else "turn", language)
        if name.endswith("wifi"):
            ui.wifi = wifi
        if name.endswith("_off"):  # no server answers yet: "start companion run"
            ui.remote_url, ui.remote_placeholder = None, "http://192.168.178.20:8080/"
        if name == "pin":
            ui.pin = PinEntry("deal", digits="12")
        before = len(render(state, replace(ui, overlay=None, pin=None, chooser=None),
                            pygame.Surface(SIZE)).texts) if name in ("registration", "asking",
                                                                     "pin") else 0
        frame = render(state, ui, pygame.Surface(SIZE))
        screens += [(name, shown) for shown in frame.texts[before:]]
    return screens


@pytest.mark.parametrize("language", LANGUAGES)
def test_setup_wifi_registration_and_pin_are_legible(language: str) -> None:
    """No text under 16 px on the setup screen, the Wi-Fi and join codes' words (or "start
    companion run" when no server answers), card
    registration and the PIN pad, none cut."""
    found = _overlay_texts(language)
    assert {name for name, _shown in found} == {"setup", "setup_wifi", "setup_off",
                                                "game_wifi", "game_off", "registration",
                                                "asking", "pin"}
    small = [(name, t.text, t.size) for name, t in found
             if t.size < theme.readable(1.0)]
    assert small == []
    cut = [(name, t.text) for name, t in found if t.drawn != t.text]
    assert cut == []
    words = " ".join(t.text for _name, t in found)
    assert "table-maple-42-bright" in words.replace(" ", "") and "7F3A" in words


@pytest.mark.parametrize("language", LANGUAGES)
def test_with_no_phone_server_the_games_corner_says_so_legibly(language: str) -> None:
    """No server answers at the join address yet (`companion screenshot`, a failed start):
    the game's corner, too small for a join code to be seen, says "Phones: start companion
    run" whole and larger than the address under it, both at 16 px or more, at every size."""
    texts.use_language(language)
    said = texts.text("remote_not_running")
    for size in ((800, 480), (1280, 720), (1920, 1080)):
        state, ui = scenario("turn", language)
        ui.remote_url, ui.remote_placeholder = None, "http://192.168.178.20:8080/"
        frame = render(state, ui, pygame.Surface(size))
        corner = GameLayout.for_size(size).remote
        shown = [t for t in frame.texts if corner.contains(t.box)]
        words = [t for t in shown if t.text in said]
        assert " ".join(t.drawn for t in words) == said, (size, [t.text for t in shown])
        address = [t for t in shown if t.text == "192.168.178.20:8080"]
        assert len(address) == 1 and address[0].drawn == address[0].text
        assert min(t.size for t in words) >= READABLE_PX[size]
        assert min(t.size for t in words) > address[0].size


#: the least size in pixels of the words phones need, at each screen size
READABLE_PX = {(800, 480): 16, (1280, 720): 16, (1920, 1080): 21}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_standings_are_legible_with_eight_players(language: str) -> None:
    """The game over screen (two to eight players, names of 24 characters): every name,
    worth and the chart's amounts at 16 px or more, each worth whole."""
    texts.use_language(language)
    shown = [scenario("game_over", language), scenario("mega_game_over", language),
             crowd("game_over", language, 8)]
    for state, ui in shown:
        frame = render(state, ui, pygame.Surface(SIZE))
        assert frame.screen == "game_over"
        small = [(t.text, t.size) for t in frame.texts
                 if t.size < theme.readable(1.0)]
        assert small == []
        names = {str(p["name"]) for p in state["players"]}
        worths = [t for t in frame.texts if any(c.isdigit() for c in t.text)
                  and t.text not in names and len(t.text) > 2]
        assert worths and all(t.drawn == t.text for t in worths)


@pytest.fixture(scope="module")
def finished_games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The data folders of two finished bot games (the golden six players' classic game and
    the Mega game, whose money is the widest), each replayed to its end."""
    from tools.make_screenshots import replay

    folders = []
    for name in ("classic-eur-6p", "mega-4p"):
        script = Path(__file__).parent / "data" / "games" / f"{name}.jsonl"
        data_dir = tmp_path_factory.mktemp(name)
        replay(script, 10 ** 6, data_dir)
        folders.append(data_dir)
    return folders


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_story_of_a_finished_game_is_legible(language: str,
                                                 finished_games: list[Path]) -> None:
    """The game over screen of a real finished game, as `companion run` draws it with the
    session's story: every fact of the story at 16 px or more and whole, the time played
    and the property that earned most rent always among them; nothing else small."""
    from companion.game.session import open_session
    from companion.screen.controller import Controller
    from companion.screen.views.endgame.story import story_lines

    for data_dir in finished_games:
        with open_session(data_dir) as session:
            controller = Controller(session, data_dir=data_dir, remote_port=None,
                                    language=language)
            try:
                state, ui = controller.state, controller.ui
                frame = render(state, ui, pygame.Surface(SIZE))
                facts = story_lines(ui.story, state, ui)
            finally:
                controller.close()
        assert frame.screen == "game_over" and ui.story and len(facts) >= 4
        small = [(t.text, t.size) for t in frame.texts
                 if t.size < theme.readable(1.0)]
        assert small == []
        # the story's panel: under the chart, in the lower part of the chart's place
        chart = GameOverLayout.for_size(SIZE).chart
        panel = pygame.Rect(chart.x, chart.y + chart.height // 2, chart.width,
                            chart.height // 2)
        told = [t for t in frame.texts if panel.contains(t.box)]
        shown = [fact for fact in facts if fact in " ".join(t.drawn for t in told)]
        assert shown == facts[:len(shown)] and len(shown) >= 2, (facts, told)
        assert " ".join(t.drawn for t in told) == " ".join(shown)
        assert all(t.size >= theme.READABLE and t.drawn == t.text for t in told)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_warning_stands_whole_in_the_log(language: str) -> None:
    """Each warning the table shows (a reader lost, silent, failed or not opened, a stuck
    or chattering button, the Pi's power), two standing at once with a reader's device
    path in them, is drawn whole at READABLE or larger in the log's lower slots."""
    from companion.words.input_texts import WARNINGS, warning_text

    texts.use_language(language)
    state, ui = scenario("turn", language)
    problems = []
    for code in (key.removeprefix("warn_") for key in WARNINGS if key.startswith("warn_")):
        source = "pass_go" if code.startswith("button") else "rdm6300:/dev/ttyAMA0"
        said = warning_text(code, language, source)
        ui.warnings = {"a": said, "b": said}
        frame = render(state, ui, pygame.Surface(SIZE))
        log = GameLayout.for_size(SIZE).log
        drawn = [t for t in frame.texts if log.contains(t.box) and t.text in said]
        problems += [(code, t.drawn, t.size) for t in drawn
                     if t.drawn != t.text or not t.fits or t.size < theme.READABLE]
        assert drawn, code
    assert problems == []
