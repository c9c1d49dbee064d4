"""The phone remote in a real browser (Debian's chromium through Playwright): phones join by
their links, see each other's moves live, hold an auction, trade, and the banker undoes."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_fakes import open_real_session

from companion.game.api import Source
from web_remote import TableHooks, create_app, join_url, serve
from web_remote.serving import ServerHandle

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="Debian's chromium is not installed (test.sh does it)")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
TABLE = Source(kind="script", banker=True)  # the physical dice, entered at the table


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game", ("Ann", "Bo"))
    yield session
    session.close()


@pytest.fixture
def server(game: Any, tmp_path: Path) -> Iterator[ServerHandle]:
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})
    handle = serve(app, "127.0.0.1", 0, threads=32)
    yield handle
    handle.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $COMPANION_SCREENSHOTS if set (to look at them), else tmp."""
    folder = Path(os.environ.get("COMPANION_SCREENSHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def phone(browser: Any, server: ServerHandle, who: str, pin: str = "") -> Any:
    """A new phone (its own cookies) that opens a fresh join link and picks `who`."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(join_url(server.app, server.url, fresh=True))
    if pin:
        page.fill("input[name=pin]", pin)
    page.click(f"button[name=who][value='{who}']")
    page.wait_for_selector("body[data-live='1']")  # the live stream is connected
    return page


def settled(page: Any, version: int) -> None:
    """Wait until `page` shows `version` and nothing more will redraw it: no command or
    reading of its live part in flight (body[data-busy]), and the stream's last word
    (body[data-seen]) is that version too, so no late update is on its way."""
    quiet = f"body:not([data-busy])[data-shown='{version}'][data-seen='{version}']"
    expect(page.locator(quiet)).to_have_count(1)


def test_buy_seen_live_then_auction_trade_and_undo(browser: Any, server: ServerHandle,
                                                    game: Any, shots: Path) -> None:
    ann = phone(browser, server, "player:Ann")
    bo = phone(browser, server, "player:Bo")
    bo.goto(server.url + "/table")
    bo.wait_for_selector("body[data-live='1']")
    expect(ann.locator(".cash")).to_have_text("€ 1.500")

    # Ann rolls (dice entered at the table) and buys Rue Lecourbe; Bo's table shows it live
    assert game.submit({"do": "roll", "dice": [1, 2]}, TABLE).accepted
    ann.get_by_role("button", name="Buy", exact=True).click()
    expect(ann.locator(".cash")).to_have_text("€ 1.440")
    expect(bo.locator("ul.deedlist li", has_text="Rue Lecourbe")).to_contain_text("Ann")
    ann.screenshot(path=str(shots / "me-after-buy.png"), full_page=True)
    bo.screenshot(path=str(shots / "table-after-buy.png"), full_page=True)

    # an auction between the two phones
    assert game.submit({"do": "end_turn"}, TABLE).accepted
    assert game.submit({"do": "roll", "dice": [2, 3]}, TABLE).accepted  # Bo: Gare Montparnasse
    bo.goto(server.url + "/me")
    bo.get_by_role("button", name="Decline").click()
    expect(ann.locator(".pending")).to_contain_text("Auction")
    ann.locator("button.bid").first.click()  # +10
    expect(bo.locator(".highest")).to_contain_text("Ann")
    bo.locator("button.bid").nth(1).click()  # +50 over Ann's 10
    expect(ann.locator(".highest")).to_contain_text("€ 60 by Bo")
    ann.screenshot(path=str(shots / "me-auction.png"), full_page=True)
    ann.get_by_role("button", name="Pass", exact=True).click()
    expect(bo.locator("article.deed", has_text="Gare Montparnasse")).to_be_visible()
    owner = {s["index"]: s["owner"] for s in game.state()["squares"]}
    assert owner[5] == "Bo"

    # a trade proposed on Ann's phone and accepted on Bo's
    ann.locator("details.propose summary").click()
    ann.select_option("form[data-api-form] select[name=to]", "Bo")
    ann.check("input[name='give.squares[]'][value='3']")
    ann.fill("input[name='take.cash']", "100")
    ann.screenshot(path=str(shots / "me-propose.png"), full_page=True)
    ann.get_by_role("button", name="Propose", exact=True).click()
    expect(bo.locator("article.proposal")).to_contain_text("Rue Lecourbe")
    bo.screenshot(path=str(shots / "me-proposal.png"), full_page=True)
    bo.get_by_role("button", name="Accept").click()
    expect(ann.locator("section.deeds")).not_to_contain_text("Rue Lecourbe")
    expect(ann.locator(".cash")).to_have_text("€ 1.540")
    owner = {s["index"]: s["owner"] for s in game.state()["squares"]}
    assert owner[3] == "Bo"

    # the banker undoes the trade; both phones see it
    banker = phone(browser, server, "banker", pin="2468")
    banker.goto(server.url + "/banker")
    banker.screenshot(path=str(shots / "banker.png"), full_page=True)
    asked: list[str] = []

    def answer(dialog: Any) -> None:  # the Undo button names the move before it acts
        asked.append(dialog.message)
        dialog.accept()

    banker.once("dialog", answer)
    banker.get_by_role("button", name="Undo").click()
    expect(ann.locator("article.deed", has_text="Rue Lecourbe")).to_be_visible()
    expect(ann.locator(".cash")).to_have_text("€ 1.440")
    owner = {s["index"]: s["owner"] for s in game.state()["squares"]}
    assert owner[3] == "Ann"
    assert asked == ["Undo the trade between Ann and Bo?"]

    for name in ("history", "worth", "rules", "table"):
        ann.goto(f"{server.url}/{name}")
        ann.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    expect(ann.locator("table.history")).to_have_count(0)  # on /table now
    ann.goto(server.url + "/lang/fr?next=/me")
    expect(ann.locator("nav")).to_contain_text("Règles")
    ann.screenshot(path=str(shots / "me-fr.png"), full_page=True)


def test_stale_page_refreshes_instead_of_acting(browser: Any, server: ServerHandle,
                                                game: Any) -> None:
    ann = phone(browser, server, "player:Ann")
    assert game.submit({"do": "roll", "dice": [1, 2]}, TABLE).accepted
    expect(ann.get_by_role("button", name="Buy", exact=True)).to_be_visible()
    # the table moves on behind the page's back (a physical button), then Ann presses Buy:
    # her page still shows the old version, so the command is refused and the page refreshes
    ann.evaluate("document.querySelector('#live [data-version]').dataset.version = '1'")
    ann.get_by_role("button", name="Buy", exact=True).click()
    expect(ann.locator("#toast")).to_contain_text("changed")
    expect(ann.get_by_role("button", name="Buy", exact=True)).to_be_visible()
    owner = {s["index"]: s["owner"] for s in game.state()["squares"]}
    assert owner[3] is None


def test_banker_new_game_checks_the_editions_player_count(browser: Any, server: ServerHandle,
                                                          game: Any, shots: Path) -> None:
    banker = phone(browser, server, "banker", pin="2468")
    banker.goto(server.url + "/banker")
    form = banker.locator("form[data-players-form]")
    allowed = form.locator("[data-players-allowed]")
    expect(allowed).to_contain_text("is for 2 to 8 players.")  # the euro board on the table
    form.locator("select[name=edition]").select_option("sv")
    expect(allowed).to_contain_text("is for 2 to 6 players.")  # the edition decides
    names = form.locator("input[name=players]")
    names.fill("Ann, Bo, Cy, Dee, Eve, Fay, Gus")
    expect(allowed).to_have_class("sub bad")
    assert "2 to 6 players" in names.evaluate("el => el.validationMessage")
    asked: list[str] = []
    banker.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    form.get_by_role("button", name="Start the new game").click()
    banker.screenshot(path=str(shots / "banker-too-many.png"), full_page=True)
    assert asked == [] and game.state()["edition"] == "classic-eur", "not sent"
    names.fill("Ann, Bo, Cy")
    expect(allowed).to_have_class("sub")
    form.get_by_role("button", name="Start the new game").click()
    expect(banker.locator("form[data-cmd-form=pay] select[name=to]")).to_contain_text("Cy")
    expect(banker.locator("form[data-players-form] [data-players-allowed]")).to_contain_text(
        "2 to 6 players")
    assert asked == ["Start a new game? The current one ends."]
    state = game.state()
    assert state["edition"] == "sv" and [p["name"] for p in state["players"]] == \
        ["Ann", "Bo", "Cy"]


@pytest.fixture
def holder_server(tmp_path: Path) -> Iterator[tuple[ServerHandle, Any]]:
    """The remote as `companion run` serves it: a switchable session, the games hook."""
    from companion.game.switch import SessionHolder

    open_real_session(tmp_path / "saved", ("Ann", "Bo")).close()
    holder = SessionHolder.open(tmp_path / "saved")
    app = create_app(holder, tmp_path / "saved", {"banker_pin": "2468"},
                     TableHooks(games=holder, new_game_file=holder.start_new_game_file))
    handle = serve(app, "127.0.0.1", 0, threads=32)
    yield handle, holder
    handle.stop()
    holder.close()


def test_banker_starts_a_new_game_in_a_new_file_then_resumes_the_old(
        browser: Any, holder_server: tuple[ServerHandle, Any], shots: Path) -> None:
    server, holder = holder_server
    first = holder.game_id
    assert holder.submit({"do": "roll", "dice": [1, 2]}, TABLE).accepted
    banker = phone(browser, server, "banker", pin="2468")
    banker.goto(server.url + "/banker")
    banker.wait_for_selector("body[data-live='1']")
    asked: list[str] = []
    banker.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    form = banker.locator("form[data-players-form]")
    form.locator("input[name=players]").fill("Cy, Dee, Eve")
    form.get_by_role("button", name="Start it in a new saved file").click()
    banker.wait_for_url(server.url + "/banker")
    expect(banker.locator("select[name=to]")).to_contain_text("Eve")
    assert asked == ["Start the new game in a new saved file? The current game stays saved: "
                     "resume it below."]
    assert holder.game_id != first
    assert [p["name"] for p in holder.state()["players"]] == ["Cy", "Dee", "Eve"]
    saved = banker.locator(f"select[name=game] option[value='{first}']")
    expect(saved).to_contain_text("Ann, Bo")
    banker.screenshot(path=str(shots / "banker-new-file.png"), full_page=True)

    banker.locator("select[name=game]").select_option(first)
    banker.get_by_role("button", name="Resume").click()
    banker.wait_for_url(server.url + "/banker")
    expect(banker.locator("select[name=to]")).not_to_contain_text("Eve")
    assert holder.game_id == first
    state = holder.state()
    assert [p["name"] for p in state["players"]] == ["Ann", "Bo"]
    assert state["pending"]["kind"] == "buy", "the old game, just where it was left"


def test_a_refused_new_game_is_said_beside_the_form_keeping_what_was_typed(
        browser: Any, holder_server: tuple[ServerHandle, Any], shots: Path) -> None:
    server, holder = holder_server
    first, saved = holder.game_id, len(holder.games())
    banker = phone(browser, server, "banker", pin="2468")
    banker.goto(server.url + "/banker")
    banker.wait_for_selector("body[data-live='1']")
    banker.evaluate("window.stayed = true")  # gone if the page were left
    banker.on("dialog", lambda dialog: dialog.accept())
    form = banker.locator("form[data-players-form]")
    error = form.locator("[data-form-error]")
    expect(error).to_be_hidden()
    form.locator("select[name=edition]").select_option("classic-en")
    form.locator("input[name=players]").fill("Cy, Cy")
    form.locator("details.advanced summary").click()  # the seed waits under "Advanced"
    form.locator("input[name=seed]").fill("42")
    form.locator("input[name=free_parking_pot]").check()

    form.get_by_role("button", name="Start it in a new saved file").click()
    expect(error).to_be_visible()
    expect(error).to_have_text("Too few or too many players, or two with the same name")
    assert banker.evaluate("window.stayed") is True and banker.url == server.url + "/banker"
    assert holder.game_id == first and len(holder.games()) == saved, "no new file"
    expect(form.locator("input[name=players]")).to_have_value("Cy, Cy")
    banker.screenshot(path=str(shots / "banker-new-game-refused.png"), full_page=True)

    # the table moves on: the page is re-rendered live, the refusal and the values stay
    before = holder.version
    assert holder.submit({"do": "roll", "dice": [1, 2]}, TABLE).accepted
    expect(banker.locator("body")).to_have_attribute("data-shown", str(before + 1))
    expect(error).to_have_text("Too few or too many players, or two with the same name")
    expect(form.locator("input[name=players]")).to_have_value("Cy, Cy")
    expect(form.locator("select[name=edition]")).to_have_value("classic-en")
    expect(form.locator("input[name=seed]")).to_have_value("42")
    expect(form.locator("input[name=free_parking_pot]")).to_be_checked()

    form.get_by_role("button", name="Start the new game").click()  # the current file: the same
    expect(error).to_have_text("Too few or too many players, or two with the same name")
    assert holder.game_id == first and holder.version == before + 1

    form.locator("input[name=players]").fill("Cy, Dee")
    form.get_by_role("button", name="Start it in a new saved file").click()
    expect(banker.locator("form[data-cmd-form=pay] select[name=to]")).to_contain_text("Dee")
    expect(error).to_be_hidden()
    expect(form.locator("input[name=players]")).to_have_value("Cy, Dee")  # the new game's
    assert banker.evaluate("window.stayed") is True
    state = holder.state()
    assert holder.game_id != first and state["edition"] == "classic-en"
    assert state["options"]["free_parking_pot"] is True and len(holder.games()) == saved + 1


@pytest.fixture
def mega_server(tmp_path: Path) -> Iterator[tuple[ServerHandle, Any]]:
    session = open_real_session(tmp_path / "mega", ("Ann", "Bo", "Cy"), edition="mega",
                                options={"physical_dice": True})  # dice entered on phones
    app = create_app(session, tmp_path / "mega", {"banker_pin": "2468"})
    handle = serve(app, "127.0.0.1", 0, threads=32)
    yield handle, session
    handle.stop()
    session.close()


def test_mega_triple_entered_on_the_phone_then_a_bus_ride(
        browser: Any, mega_server: tuple[ServerHandle, Any], shots: Path) -> None:
    server, game = mega_server
    ann = phone(browser, server, "player:Ann")
    table = phone(browser, server, "spectator")
    expect(table.locator(".board .sq")).to_have_count(52)

    # Ann enters the table's dice, speed die included: a triple
    ann.locator("details.dice-entry summary").click()
    selects = ann.locator("form[data-cmd-form=roll] select")
    expect(selects).to_have_count(3)
    selects.nth(0).select_option("2")
    selects.nth(1).select_option("2")
    selects.nth(2).select_option("2")
    ann.screenshot(path=str(shots / "mega-dice-entry.png"), full_page=True)
    ann.locator("form[data-cmd-form=roll] button").click()
    expect(ann.locator(".pending")).to_contain_text("Triple")
    picker = ann.locator("form[data-cmd-form=choose_square] select option")
    expect(picker).to_have_count(51)  # every other square, straight from legal
    expect(table.locator(".pending-line")).to_contain_text("Triple! Ann")
    ann.screenshot(path=str(shots / "mega-triple.png"), full_page=True)
    ann.select_option("form[data-cmd-form=choose_square] select", "24")
    ann.get_by_role("button", name="Go there").click()
    expect(ann.get_by_role("button", name="Buy", exact=True)).to_be_visible()
    assert game.state()["players"][0]["position"] == 24
    expect(table.locator(".board .sq[data-index='24'] .tok")).to_have_count(1)

    # the rest of the documented opening, at the table, up to Cy's bus ticket ride
    for command in ({"do": "buy"}, {"do": "end_turn"},
                    {"do": "roll", "by": "Bo", "dice": [3, 4, "mr_monopoly"]}, {"do": "buy"},
                    {"do": "decline"}, {"do": "close_auction"}, {"do": "end_turn"},
                    {"do": "roll", "by": "Cy", "dice": [1, 3, "bus"]}, {"do": "decline"},
                    {"do": "close_auction"}, {"do": "draw", "card": "bus-ticket-7"},
                    {"do": "end_turn"}, {"do": "roll", "dice": [1, 2, 3]}, {"do": "decline"},
                    {"do": "close_auction"}, {"do": "end_turn"},
                    {"do": "roll", "by": "Bo", "dice": [1, 2, 2]}, {"do": "end_turn"}):
        assert game.submit(command, TABLE).accepted, command
    cy = phone(browser, server, "player:Cy")
    expect(table.locator("td.tickets[data-tickets='1']")).to_have_count(1)
    table.screenshot(path=str(shots / "mega-table.png"), full_page=True)
    legal = next(c for c in game.state()["legal"] if c["do"] == "use_bus_ticket")
    stops = cy.locator("form[data-cmd-form=use_bus_ticket] select option")
    expect(stops).to_have_count(len(legal["squares"]))
    cy.select_option("form[data-cmd-form=use_bus_ticket] select", "12")
    cy.screenshot(path=str(shots / "mega-bus.png"), full_page=True)
    cy.locator("form[data-cmd-form=use_bus_ticket] button").click()
    expect(cy.get_by_role("button", name="Buy", exact=True)).to_be_visible()
    assert game.state()["players"][2]["position"] == 12
    expect(table.locator("td.tickets[data-tickets='0']")).to_have_count(3)
    cy.goto(server.url + "/history")
    expect(cy.locator("ol.moves")).to_contain_text("Cy rode the bus to")
    cy.screenshot(path=str(shots / "mega-history.png"), full_page=True)


#: Ann owns the brown lots, Bo the light blue ones: either could place a house
TWO_GROUPS = [
    {"do": "land", "square": 1}, {"do": "buy"}, {"do": "land", "square": 3}, {"do": "buy"},
    {"do": "land", "square": 6}, {"do": "buy"}, {"do": "land", "square": 8}, {"do": "buy"},
    {"do": "land", "square": 9}, {"do": "buy"},
    {"do": "trade", "from": "Ann", "to": "Bo", "give": {"squares": [6, 8, 9]},
     "take": {"cash": 300}},
]


def test_banker_starts_a_building_auction_and_the_winner_places_it(
        browser: Any, server: ServerHandle, game: Any, shots: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.game.table.records import Bank

    # a shortage: the page counts no house in the bank (the engine still has 32 to auction)
    monkeypatch.setattr(Bank, "stock", lambda _bank, _building: 0)
    banker = phone(browser, server, "banker", pin="2468")
    bo = phone(browser, server, "player:Bo")
    ann = phone(browser, server, "player:Ann")
    banker.goto(server.url + "/banker")
    banker.wait_for_selector("body[data-live='1']")
    shortage = banker.locator("form[data-cmd-form=auction_building]")
    expect(shortage).to_have_count(0)  # nobody could place a building yet
    for command in TWO_GROUPS:
        assert game.submit(command, TABLE).accepted, command
    expect(shortage).to_be_visible()  # live: the table changed, legal offers it now
    choice = shortage.get_by_label("Auction one building from the bank")
    expect(choice.locator("option")).to_have_text(["House"])
    banker.screenshot(path=str(shots / "banker-shortage.png"), full_page=True)
    shortage.get_by_role("button", name="Start the auction").click()

    expect(bo.locator(".pending h2")).to_have_text("Auction: one house from the bank")
    expect(banker.locator(".auction-line")).to_contain_text("No bid yet")
    expect(shortage).to_have_count(0)
    bo.locator("button.bid").first.click()  # the opening bid: the lowest house price
    expect(ann.locator(".highest")).to_contain_text("€ 50 by Bo")
    ann.screenshot(path=str(shots / "me-building-auction.png"), full_page=True)
    ann.get_by_role("button", name="Pass", exact=True).click()

    expect(bo.locator(".pending h2")).to_have_text("Place the house you won at auction")
    expect(ann.locator(".pending h2")).to_have_text("Bo places the house won at auction")
    picker = bo.locator("form[data-cmd-form=build] select[name=square] option")
    expect(picker).to_have_text(["Rue de Vaugirard", "Rue de Courcelles",
                                 "Avenue de la République"])
    bo.screenshot(path=str(shots / "me-place-building.png"), full_page=True)
    cash = game.state()["players"][1]["cash"]
    bo.select_option("form[data-cmd-form=build] select[name=square]", "8")
    bo.locator("form[data-cmd-form=build] button").click()
    expect(bo.locator("article.deed[data-square='8'] .state")).to_contain_text("1 house")
    state = game.state()
    assert state["pending"] is None and state["players"][1]["cash"] == cash
    assert {s["index"]: s["houses"] for s in state["squares"]}[8] == 1
    expect(shortage).to_be_visible()  # the bank may auction the next one


def test_what_the_banker_types_survives_live_updates(browser: Any, server: ServerHandle,
                                                     game: Any, shots: Path) -> None:
    banker = phone(browser, server, "banker", pin="2468")
    ann = phone(browser, server, "player:Ann")
    banker.goto(server.url + "/banker")
    banker.wait_for_selector("body[data-live='1']")
    version = banker.locator("p.sub", has_text="journal entries")
    expect(version).to_contain_text(f"Version {game.version} ")
    pay = banker.locator("form[data-cmd-form=pay]")
    pay.locator("input[name=amount]").fill("75")
    pay.locator("select[name=to]").select_option("Bo")
    names = banker.locator("form[data-players-form] input[name=players]")
    names.click()
    names.press("End")
    names.type(", Cy, Dee")  # the banker is typing the next game's players...
    banker.locator("form[data-players-form] select[name=edition]").select_option("sv")

    names.click()
    names.press("End")
    names.type(", Eve")
    before = game.version
    ann.get_by_role("button", name="Roll the dice").click()  # ...when the table moves on
    expect(banker.locator("body")).to_have_attribute("data-shown", str(before + 1))
    expect(version).to_contain_text(f"Version {before + 1} ")  # re-rendered live
    assert game.version == before + 1
    expect(names).to_have_value("Ann, Bo, Cy, Dee, Eve")
    expect(names).to_be_focused()
    assert names.evaluate("el => [el.selectionStart, el.selectionEnd]") == [21, 21]
    expect(banker.locator("form[data-players-form] select[name=edition]")).to_have_value("sv")
    expect(banker.locator("form[data-players-form] [data-players-allowed]")).to_contain_text(
        "2 to 6 players")
    expect(pay.locator("input[name=amount]")).to_have_value("75")
    expect(pay.locator("select[name=to]")).to_have_value("Bo")
    names.type("!")  # still typing where the caret was
    expect(names).to_have_value("Ann, Bo, Cy, Dee, Eve!")
    banker.screenshot(path=str(shots / "banker-typing-kept.png"), full_page=True)

    # a form that was sent starts afresh; the other keeps what was typed
    cash = game.state()["players"][1]["cash"]
    pay.get_by_role("button", name="Pay").click()
    expect(pay.locator("input[name=amount]")).to_have_value("")
    expect(pay.locator("select[name=to]")).to_have_value("Ann")
    assert game.state()["players"][1]["cash"] == cash + 75
    expect(names).to_have_value("Ann, Bo, Cy, Dee, Eve!")


def test_table_page_says_the_latest_moves_in_words(browser: Any, server: ServerHandle,
                                                   game: Any, shots: Path) -> None:
    ann = phone(browser, server, "player:Ann")
    bo = phone(browser, server, "player:Bo")
    bo.goto(server.url + "/lang/fr?next=/table")
    bo.wait_for_selector("body[data-live='1']")
    recent = bo.locator("ol.recent li")
    expect(recent.first).to_contain_text("Nouvelle partie")

    assert game.submit({"do": "roll", "dice": [1, 2]}, TABLE).accepted
    ann.get_by_role("button", name="Buy", exact=True).click()
    # live; the line opens on why it cost that (folded: only its summary reads)
    expect(recent.first.locator("summary")).to_have_text("Ann a acheté Rue Lecourbe pour € 60")
    assert game.submit({"do": "end_turn"}, TABLE).accepted
    assert game.submit({"do": "roll", "dice": [1, 2]}, TABLE).accepted  # Bo pays the rent
    expect(recent.first).to_contain_text("Bo a lancé 1 + 2 et avancé jusqu’à Rue Lecourbe")
    expect(recent.first.locator(".then")).to_have_text("Bo → Ann € 4 de loyer")

    banker = phone(browser, server, "banker", pin="2468")
    banker.goto(server.url + "/banker")
    pay = banker.locator("form[data-cmd-form=pay]")
    pay.locator("select[name=from]").select_option("Ann")
    pay.locator("select[name=to]").select_option("bank")
    pay.locator("input[name=amount]").fill("15")
    pay.get_by_role("button", name="Pay").click()
    expect(recent.first.locator("summary")).to_have_text(
        "Ann a payé € 15 à la banque (par le banquier)")
    banker.once("dialog", lambda dialog: dialog.accept())
    banker.get_by_role("button", name="Undo").click()
    expect(recent.first).to_have_text("Annulé : Ann a payé € 15 à la banque (par le banquier)")
    expect(recent.nth(1)).to_have_class("command undone")
    bo.screenshot(path=str(shots / "table-latest-fr.png"), full_page=True)
    ann.goto(server.url + "/table")
    expect(ann.locator("ol.recent li").nth(4).locator("summary")).to_have_text(
        "Ann bought Rue Lecourbe for € 60")
    ann.locator("ol.recent").screenshot(path=str(shots / "table-latest-en.png"))


@pytest.mark.parametrize("lang", ["sv", "de", "ru", "nl"])
def test_every_page_fits_a_phone_in_any_language(browser: Any, server: ServerHandle,
                                                 lang: str, shots: Path) -> None:
    """Long words ("Nettoförmögenhet") wrap instead of making a page wider than a 390 px phone
    (seen on the Table page in Swedish: 445 px, the deeds' owners cut off)."""
    banker = phone(browser, server, "banker", pin="2468")
    ann = phone(browser, server, "player:Ann")
    wide = {}
    pages = [(ann, "/me"), *((banker, p) for p in ("/table", "/history", "/worth", "/rules",
                                                   "/banker"))]
    for who, page in pages:
        who.goto(server.url + f"/lang/{lang}?next={page}")
        who.wait_for_selector("main")
        width = who.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["viewport"]["width"]:  # type: ignore[index]
            wide[page] = width
            who.screenshot(path=str(shots / f"wide-{lang}{page.replace('/', '-')}.png"),
                           full_page=True)
    assert wide == {}


def test_a_second_tap_waits_and_selling_asks_first(browser: Any, server: ServerHandle,
                                                   game: Any) -> None:
    """"Build" becomes "Sell" under the finger: a second tap right after the first does
    nothing (every button of the page waits 600 ms after a tap and after a redraw; the
    page's clock is held still here, so nothing depends on timing), and selling, once it
    is tapped on purpose, asks first."""
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"},
                    {"do": "land", "square": 1}):  # Ann buys the second brown lot below
        assert game.submit(command, TABLE).accepted
    context = browser.new_context(**PHONE)
    ann = context.new_page()
    ann.clock.install()
    ann.goto(join_url(server.app, server.url, fresh=True))
    ann.click("button[name=who][value='player:Ann']")
    ann.wait_for_selector("body[data-live='1']")
    asked: list[str] = []
    ann.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    bought = game.version + 1
    ann.get_by_role("button", name="Buy", exact=True).click()  # her own move: "Undo" shows
    settled(ann, bought)  # the tap's answer and the stream's update both drawn
    card = ann.locator("article.deed[data-square='1']")
    build = card.get_by_role("button", name="Build")
    expect(build).to_be_enabled()
    build.scroll_into_view_if_needed()  # below a lesson of the teaching table, say
    box = build.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    ann.clock.pause_at(time.time() + 3600)  # the page's time stands still from here
    before = game.version
    ann.mouse.click(x, y)
    ann.mouse.click(x, y)  # the double tap
    expect(card.locator(".state")).to_contain_text("1 house")
    settled(ann, before + 1)  # no late redraw: the page's time stands still for its buttons
    under = "([x, y]) => document.elementFromPoint(x, y).closest('button')?.textContent"
    assert str(ann.evaluate(under, [x, y])).startswith("Sell a building")  # the new meaning
    ann.mouse.click(x, y)  # a late second tap, on the redrawn page
    ann.clock.run_for(1)
    assert ann.locator("#live button:not([disabled])").count() == 0  # all of them wait
    assert game.version == before + 1 and asked == []  # one house built, nothing else
    houses = {s["index"]: s.get("houses") for s in game.state()["squares"]}
    assert houses[1] == 1
    ann.clock.run_for(700)
    sell = card.get_by_role("button", name="Sell a building")
    expect(sell).to_be_enabled()
    sell.click()
    expect(card.locator(".state")).not_to_contain_text("house")
    assert asked == ["Sell a building on Boulevard de Belleville?"]
    assert {s["index"]: s.get("houses") for s in game.state()["squares"]}[1] == 0
    context.close()


def test_the_banker_goes_back_to_a_history_line(browser: Any, server: ServerHandle,
                                                game: Any, shots: Path) -> None:
    for command in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
                    {"do": "roll", "dice": [2, 3]}, {"do": "buy"}):
        assert game.submit(command, TABLE).accepted
    bought = next(e["seq"] for e in game.history() if e["command"].get("do") == "buy")
    banker = phone(browser, server, "banker", pin="2468")
    banker.goto(server.url + "/history")
    banker.locator(f"tr[data-seq='{bought}'] a.back-to").click()
    expect(banker.locator("h1")).to_have_text(f"Go back to just after move #{bought}?")
    expect(banker.locator("ul.taken li")).to_have_count(3)
    expect(banker.locator("ul.taken li").first).to_contain_text("Bo bought Gare Montparnasse")
    banker.screenshot(path=str(shots / "going-back.png"), full_page=True)
    banker.get_by_role("button", name="Go back", exact=True).click()
    banker.wait_for_url("**/history")
    expect(banker.locator(f"tr.undone[data-seq='{bought + 3}']")).to_contain_text("€ 200")
    owners = {s["index"]: s["owner"] for s in game.state()["squares"]}
    assert owners.get(3) == "Ann" and owners.get(5) is None
    banker.screenshot(path=str(shots / "history-after-going-back.png"), full_page=True)


def test_the_story_and_its_download_read_offline(browser: Any, server: ServerHandle,
                                                 game: Any, shots: Path,
                                                 tmp_path: Path) -> None:
    from test_story import SCRIPT

    for command in [*SCRIPT, {"do": "end_game"}]:
        assert game.submit(command, TABLE).accepted, command
    bo = phone(browser, server, "player:Bo")
    bo.goto(server.url + "/worth")
    bo.get_by_role("link", name="The game's story").click()
    expect(bo.locator("h1")).to_have_text("The game's story")
    expect(bo.locator(".story-facts")).to_contain_text("Winner: Ann")
    bo.screenshot(path=str(shots / "story.png"), full_page=True)
    with bo.expect_download() as caught:
        bo.get_by_role("link", name="Download this story").click()
    saved = tmp_path / "story.html"
    caught.value.save_as(saved)
    offline = browser.new_context(**PHONE, offline=True)
    kept = offline.new_page()
    kept.goto(saved.as_uri())
    expect(kept.locator("svg polyline")).to_have_count(2)
    expect(kept.locator(".story-auctions")).to_contain_text("Rue de Courcelles: Bo for € 50")
    kept.screenshot(path=str(shots / "story-offline.png"), full_page=True)
    offline.close()


def test_a_tapped_payment_says_why_and_the_player_is_taught(browser: Any, server: ServerHandle,
                                                            game: Any, shots: Path) -> None:
    ann = phone(browser, server, "player:Ann")
    out = game.submit({"do": "roll", "dice": [1, 3]}, TABLE)  # Ann on the income tax
    assert out.accepted
    lesson = ann.locator("aside.lesson")
    expect(lesson).to_contain_text("A tax square: pay the bank what it says.")
    expect(lesson.locator("a")).to_have_attribute("href", "/rules#taxes")
    ann.screenshot(path=str(shots / "lesson-me.png"))
    ann.goto(server.url + "/table")
    ann.wait_for_selector("body[data-live='1']")
    line = ann.locator("ol.recent li").first
    why = line.locator(".why-text")
    expect(why).to_be_hidden()  # folded until tapped
    line.locator("summary").tap()
    expect(why).to_be_visible()
    expect(why).to_have_text("Income Tax: € 200, as printed on the square")
    ann.screenshot(path=str(shots / "why-table.png"), full_page=True)
    ann.locator("ol.recent li").first.locator(".why-rule a").tap()
    ann.wait_for_url("**/rules#taxes")
    expect(ann.locator("section#taxes")).to_be_visible()
