"""One whole game per edition, in the edition's language, through the real entry points
(issue 24, "how we will check"): `companion run` in a window on Xvfb set up from its
keyboard (language, edition, names, the table's own dice, the banker PIN: XTEST key bursts),
every player's phone and the banker's phone over real HTTP (and, at the end, their pages in
Debian's chromium through Playwright where it is installed), the dice typed on the window
and the cards named from the phones, both from a fixed sequence (a table with its own dice
and cards: the game is the same every run), every other decision sent from the phone of
the player it belongs to (the bots of companion.bots decide what a player would),
"Sold!" from the banker's phone, and after a few rounds "End now and count" from the
window's banker menu (keyboard only).

Then the final count must be the engine's own: the game replayed from the banker's export
through the rules engine gives the same winner and net worths the phones read and the
game-over screen shows. Every text the screen drew after the deal and every phone page at
the end must be in the table's language (no sentence of another catalog, no raw
identifier: tests/foreign_words.py), and the log must hold no traceback.

Every wait is on a frame report, an HTTP answer or the stream, with a deadline; nothing
sleeps.
"""

from __future__ import annotations

import ctypes.util
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from foreign_words import foreign, own_sentence, raw_identifiers, visible
from window_watch import Report, Window

from companion.bots import Bots
from companion.game.applying import apply_command, state_json
from companion.inputs.entry import dice_needed
from companion.rules import Accepted, GameState
from companion.rules.state import DrawPending
from companion.words import catalog as i18n
from tools.bench.probe import HttpPhone
from tools.bench.proc import Xvfb, have_xvfb

pytestmark = pytest.mark.skipif(
    not have_xvfb() or ctypes.util.find_library("Xtst") is None,
    reason="needs Xvfb and libXtst")

#: each edition in a language of its own rulebook: together the seven languages
LANGUAGE = {"classic-en": "en", "sv": "sv", "mega": "fr", "ch": "de",
            "classic-eur": "nl", "pl": "pl", "ru-monopolist": "ru"}
PLAYERS = ("Anna", "Bram")
PIN = "2468"
#: turns played before the banker ends the game and counts (both players, rounds of two)
TURNS = 12
PLAYER_PAGES = ("/table", "/me", "/history", "/rules", "/worth", "/story")
BANKER_PAGES = ("/banker",)
WAIT_S = 60.0
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def press(window: Window, key: str, what: str) -> Report:
    """Press `key` on the setup form; the first frame whose form differs."""
    before = json.dumps(window.reports.last.get("setup"), sort_keys=True)
    window.keyboard.burst([key])

    def changed(report: Report) -> bool:
        return json.dumps(report.get("setup"), sort_keys=True) != before

    return window.reports.until(f"{what} after {key}", changed)


def step_until(window: Window, key: str, what: str, done: Any, most: int = 12) -> Report:
    """Press `key` until the frame report satisfies `done` (each press waits for the frame
    that shows it)."""
    report = window.reports.last
    for _ in range(most):
        if done(report):
            return report
        report = press(window, key, what)
    assert done(report), f"{what}: not reached in {most} presses"
    return report


def set_up(window: Window, edition: str, lang: str) -> Report:
    """The setup form from the keyboard: edition, language, two names, the table's own
    dice, the banker PIN; then deal. The first frame of the game."""
    keys = window.keyboard
    form = window.reports.until("the setup form", lambda r: r["setup"] is not None)["setup"]
    lines = form["lines"]

    def go(to: str) -> None:
        now = window.reports.last["setup"]
        moves = now["lines"].index(to) - now["lines"].index(now["focus"])
        if moves:
            keys.burst(["Down" if moves > 0 else "Up"] * abs(moves))
            window.reports.until(f"the focus on {to}", lambda r: r["setup"] is not None
                                 and r["setup"]["focus"] == to)

    go("edition")
    step_until(window, "Right", f"the edition {edition}",
               lambda r: r["setup"]["edition"] == edition, most=len(i18n.LANGUAGES) * 3)
    go("language")
    step_until(window, "Right", f"the language {lang}",
               lambda r: r["setup"]["language"] == lang, most=len(i18n.LANGUAGES) + 2)
    lines = window.reports.last["setup"]["lines"]
    assert [line for line in lines if line.startswith("player:")] == ["player:0", "player:1"]
    go("player:0")
    keys.burst(list(PLAYERS[0]) + ["Tab"] + list(PLAYERS[1]))
    window.reports.until("both names", lambda r: r["setup"]["names"] == list(PLAYERS))
    for rule in ("physical_dice", "physical_deck"):  # the table's own dice and cards
        go(f"rule:{rule}")
        step_until(window, "Right", f"the table's own {rule}",
                   lambda r, rule=rule: r["setup"]["rules"][rule], most=2)
    go("pin")
    keys.burst(list(PIN))
    window.reports.until("the PIN", lambda r: r["setup"]["pin"] == PIN)
    go("start")
    keys.burst(["Return"])
    return window.reports.until("the game dealt", lambda r: r["setup"] is None
                                and r["players"] == list(PLAYERS) and r["version"] > 0)


class Table:
    """The phones of one game, and the same game computed by the rules engine in this
    process from the very inputs the test gives the table (the typed dice, the named cards,
    every decision): with the table's own dice and cards nothing else decides."""

    def __init__(self, window: Window) -> None:
        self.window = window
        base = f"http://127.0.0.1:{window.companion.port}"
        self.phones: dict[str, HttpPhone] = {}
        used: set[str] = set()
        for who in (*PLAYERS, "banker"):
            link = window.reports.until("a join link", lambda r: bool(r["remote_url"])
                                        and r["remote_url"] not in used)["remote_url"]
            used.add(link)
            phone = HttpPhone(base)
            self.phones[who] = phone
            assert phone.join(link, "banker" if who == "banker" else f"player:{who}",
                              pin=PIN if who == "banker" else "") == 302, who
        self.banker = self.phones["banker"]
        dealt = self.export()
        assert len(dealt) == 1 and dealt[0]["do"] == "new_game", dealt
        self.g = self.engine(dealt)
        #: the table's version of the game's first state (it counts from its own start)
        self.offset = int(self.banker.state()["version"]) - self.g.version

    def export(self) -> list[dict[str, Any]]:
        """The banker's export: the companion's journal as a table script."""
        status, _h, body = self.banker.request("GET", "/banker/export")
        assert status == 200, body[:300]
        return [json.loads(line) for line in body.decode().splitlines()]

    @staticmethod
    def engine(script: list[dict[str, Any]]) -> GameState:
        """A script applied by the rules engine, each command accepted."""
        g: GameState | None = None
        for command in script:
            result = apply_command(g, command)
            assert isinstance(result, Accepted), (command, result)
            g = result.state
        assert g is not None
        return g

    def apply(self, command: dict[str, Any]) -> None:
        """What the table was just given, applied to the engine's own game."""
        result = apply_command(self.g, command)
        assert isinstance(result, Accepted), (command, result)
        self.g = result.state

    def version(self) -> int:
        """The table's version of the engine's current state."""
        return self.g.version + self.offset

    def screen_at(self, version: int) -> Report:
        return self.window.reports.until(f"version {version} on the screen",
                                         lambda r: r["version"] >= version)

    def send(self, who: str, command: dict[str, Any]) -> None:
        """A command from `who`'s phone ("banker": the banker's), answered once the one
        writer applied and journaled it; the engine's game takes it too."""
        status, body = self.phones[who].command(command, self.version())
        assert status == 200, (who, command, body)
        self.apply(command)

    def keys(self, keys: list[str], command: dict[str, Any]) -> None:
        """Keys typed on the window that send `command`; the screen shows its result."""
        self.screen_at(self.version())  # the screen shows the state the keys act on
        self.window.keyboard.burst(keys)
        self.apply(command)
        self.screen_at(self.version())

    def close(self) -> None:
        for phone in self.phones.values():
            phone.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium through Playwright (None where either is missing: the phones'
    pages are then read over HTTP only)."""
    if not os.path.exists(CHROMIUM):
        yield None
        return
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        yield None
        return
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def browser_texts(browser: Any, phone: HttpPhone, pages: tuple[str, ...]) -> dict[str, Any]:
    """Each page as the phone's browser shows it once its script ran (the same cookie:
    the same seat), one text per line of what it reads on screen, and its language."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        name, _, value = phone.cookie.partition("=")
        context.add_cookies([{"name": name, "value": value, "url": phone.base}])
        page = context.new_page()
        out: dict[str, Any] = {}
        for path in pages:
            page.goto(phone.base + path)
            page.wait_for_load_state("load")
            lines = [t.strip() for t in page.inner_text("body").splitlines() if t.strip()]
            out[path] = (page.locator("html").get_attribute("lang"), lines)
        return out
    finally:
        context.close()


@pytest.fixture
def xvfb() -> Iterator[Xvfb]:
    server = Xvfb()
    try:
        yield server
    finally:
        server.close()


def play(table: Table, rng: random.Random) -> GameState:
    """Turns until TURNS are played (or the game ended): rolls typed on the window (the
    speed die too where it rolls), the end of a turn with R, every other decision from its
    player's phone with the card named and a utility's dice given there, Sold! from the
    banker's phone."""
    bots = Bots()
    while True:
        g = table.g
        if g.winner >= 0 or (g.turn_number >= TURNS and g.must_roll and not g.pending):
            return g
        body = bots.choose(g).to_json()
        if body["do"] == "trade":  # a proposal is a phone's offer flow: not played here
            body = bots.choose(g).to_json()
        verb = body["do"]
        top = g.pending[-1] if g.pending else None
        who = g.players[g.current].name
        if verb == "roll" and top is None:
            dice: list[int | str] = [rng.randint(1, 6), rng.randint(1, 6)]
            if dice_needed(state_json(g, with_legal=False), who) > 2:
                dice.append(rng.randint(1, 3))
            table.keys([str(d) for d in dice], {"do": "roll", "by": who, "dice": dice})
        elif verb in ("end_turn", "trade"):  # ROLL ends the turn once rolled
            table.keys(["r"], {"do": "end_turn", "by": who})
        elif verb == "close_auction":
            table.send("banker", body)  # Sold!
        else:
            if verb == "draw" and isinstance(top, DrawPending):  # the card turned over
                body["card"] = rng.choice(g.decks[top.deck])
            elif verb == "roll":  # the dice thrown for a utility's rent
                body["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
            table.send(str(body.get("by") or body.get("from")), body)


def end_now(window: Window) -> Report:
    """The banker menu from the keyboard (Shift+M, the PIN, Enter), End now and count."""
    keys = window.keyboard
    keys.burst(["M", *PIN, "Return"])
    menu = window.reports.until("the banker menu", lambda r: r["chooser"] is not None
                                and "end_now" in r["chooser"]["actions"])
    down = menu["chooser"]["actions"].index("end_now") - menu["chooser"]["focus"]
    keys.burst(["Down"] * down + ["Return", "Return"])
    return window.reports.until("the game over", lambda r: r["winner"] is not None)


def language_problems(texts: list[str], lang: str, where: str) -> list[Any]:
    return [(where, "foreign", hit) for hit in foreign(texts, lang)] + \
        [(where, "raw", text) for text in raw_identifiers(texts)]


@pytest.mark.parametrize("edition", sorted(LANGUAGE))
def test_a_whole_game_in_the_editions_language(edition: str, xvfb: Xvfb, browser: Any,
                                               tmp_path: Path) -> None:
    lang = LANGUAGE[edition]
    rng = random.Random(f"dice of {edition}")
    with Window(xvfb, tmp_path / "data") as window:
        dealt = set_up(window, edition, lang)
        assert dealt["language"] == lang
        window.reports.shown = set(dealt["texts"])  # from the deal on
        table = Table(window)
        try:
            assert table.banker.state()["edition"] == edition
            # a phone out of turn is refused, in the table's language, and nothing changes
            status, refused = table.phones[PLAYERS[1]].command(
                {"do": "roll", "by": PLAYERS[1]}, table.version())
            assert status in (403, 409, 422) and refused["message"], (status, refused)
            assert language_problems([refused["message"]], lang, "refusal") == []
            assert int(table.banker.state()["version"]) == table.version()
            played = play(table, rng)
            assert played.turn_number >= TURNS or played.winner >= 0
            over = end_now(window)

            # the final count: the engine's own (the game this process computed from the
            # same inputs), the journal's (the banker's export replayed), the phones' and
            # the screen's are one
            table.apply({"do": "end_game"})
            engine = state_json(table.g, with_legal=False)
            journal = state_json(Table.engine(table.export()), with_legal=False)
            assert {**journal, "version": 0} == {**engine, "version": 0}
            worth = {p["name"]: int(p["net_worth"]) for p in engine["players"]}
            assert engine["winner"] == over["winner"]
            for who in (*PLAYERS, "banker"):
                seen = table.phones[who].state()
                assert seen["winner"] == engine["winner"], who
                assert {p["name"]: int(p["net_worth"]) for p in seen["players"]} == worth
            currency = engine.get("currency")
            ranked = [n for n in over["texts"] if n in PLAYERS]
            order = sorted(PLAYERS, key=lambda n: (n != engine["winner"], -worth[n]))
            assert ranked[:len(PLAYERS)] == order, over["texts"]  # the standings first
            for name in PLAYERS:
                amount = i18n.format_money(worth[name], currency, lang)
                assert amount in over["texts"], (name, amount, over["texts"])

            # every text the screen drew from the deal to the count, in the table's language
            assert window.reports.shown is not None
            problems = language_problems(sorted(window.reports.shown), lang, "screen")
            assert window.reports.banners, "the phones joining were announced"
            problems += [("screen", "banner not from the catalog", banner)
                         for banner in sorted(window.reports.banners)
                         if not own_sentence(banner, lang)]
            for who in (*PLAYERS, "banker"):
                for page in BANKER_PAGES if who == "banker" else PLAYER_PAGES:
                    status, _h, html = table.phones[who].request("GET", page)
                    assert status == 200, (who, page)
                    text = html.decode()
                    assert f'<html lang="{lang}">' in text, (who, page)
                    problems += language_problems(visible(text), lang, f"{who} {page}")
                if browser is not None:  # and as its browser shows them, script and all
                    pages = BANKER_PAGES if who == "banker" else PLAYER_PAGES
                    for page, (said, lines) in browser_texts(
                            browser, table.phones[who], pages).items():
                        assert said == lang and lines, (who, page, said)
                        problems += language_problems(lines, lang, f"{who} {page} (browser)")
            assert problems == []
        finally:
            table.close()
        companion = window.companion
    assert not any("Traceback" in line for line in companion.errors), companion.errors[-10:]
