"""In a real browser: after a move a page is drawn again only when the stream names it
among the pages that changed (web_remote/static/app.js, docs/phone-remote.md), and then from
the live part the stream itself sends (web_remote/parts.py), without reading it. The Rules
page and History after a move that lists nothing new keep what they show and take the new
version; the Table, Worth and Me pages, and History after a payment, are drawn again; so is
every page after a new game. A page that missed a version, whose stream sends no part for
it, reads its part itself."""

from __future__ import annotations

from typing import Any

from test_web_browser import TABLE, browser, expect, game, phone, server  # noqa: F401

from web_remote.serving import ServerHandle


def _partials(page: Any) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if "partial=1" in r.url else None)
    return seen


def _drawn(page: Any) -> int:
    """How many times the page drew its live part anew since it was loaded (app.js)."""
    return int(page.evaluate("Number(document.body.dataset.drawn || 0)"))


def _parts_live(page: Any) -> None:
    page.wait_for_selector("body[data-live='1']")
    page.wait_for_function("document.body.dataset.shown === document.body.dataset.seen")


def test_pages_are_drawn_again_only_when_they_changed(browser: Any,  # noqa: F811
                                                      server: ServerHandle,  # noqa: F811
                                                      game: Any) -> None:  # noqa: F811
    rules = phone(browser, server, "spectator")
    rules.goto(server.url + "/rules")
    history = phone(browser, server, "spectator")
    history.goto(server.url + "/history")
    table = phone(browser, server, "spectator")
    table.goto(server.url + "/table")
    ann = phone(browser, server, "player:Ann")
    pages = {"rules": rules, "history": history, "table": table, "me": ann}
    for p in pages.values():
        _parts_live(p)
    asked = {name: _partials(p) for name, p in pages.items()}
    drawn = {name: _drawn(p) for name, p in pages.items()}

    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)  # a move, no payment
    assert out.accepted
    for p in pages.values():
        expect(p.locator("body")).to_have_attribute("data-shown", str(out.version))
        expect(p.locator(f"#live [data-version='{out.version}']").first).to_be_attached()
    assert "Rue Lecourbe" in ann.locator("#live").inner_text()  # Ann may buy it now
    now = {name: _drawn(p) for name, p in pages.items()}
    assert now == {**drawn, "table": drawn["table"] + 1, "me": drawn["me"] + 1}

    out = game.submit({"do": "buy"}, TABLE)  # a payment: a History row
    assert out.accepted
    for p in pages.values():
        expect(p.locator("body")).to_have_attribute("data-shown", str(out.version))
    expect(history.locator("tr[data-seq]").first).to_be_attached()
    assert _drawn(rules) == drawn["rules"] and _drawn(history) == drawn["history"] + 1
    assert _drawn(table) == drawn["table"] + 2
    assert all(not urls for urls in asked.values())  # the parts came on the streams
    # Ann's second part came as a change of her first (web_remote/part_change.py), made
    # whole by the page: it is the part the server draws, to the last character
    assert int(ann.evaluate("Number(document.body.dataset.changes || 0)")) >= 1
    assert ann.evaluate("""async () => {
        const html = await (await fetch("/me?partial=1")).text();
        const drawn = document.createElement("div"); drawn.innerHTML = html;
        const shown = document.getElementById("live").cloneNode(true);
        shown.querySelectorAll("[data-hushed]").forEach((b) => {  // a tap's pause
          b.removeAttribute("data-hushed"); b.removeAttribute("disabled"); });
        return drawn.innerHTML === shown.innerHTML; }""")

    # a page that kept its part acts on the new version: the stale-version check passes
    ann.goto(server.url + "/rules")
    ann.wait_for_selector("body[data-live='1']")
    out = game.submit({"do": "end_turn"}, TABLE)
    assert out.accepted
    expect(ann.locator("body")).to_have_attribute("data-shown", str(out.version))


def test_a_page_behind_its_stream_reads_again_and_a_new_game_draws_every_page(
        browser: Any, server: ServerHandle, game: Any) -> None:  # noqa: F811
    """The Worth page is drawn again after every move (the stream names it); the Rules
    page keeps its part, unless it shows another version than the one the stream's change
    is from (a version it missed: no part comes for it, so it reads its part itself once
    it waited PART_WAIT_MS), or another game was dealt (every page is drawn again, whatever
    version it shows)."""
    worth = phone(browser, server, "spectator")
    worth.goto(server.url + "/worth")
    rules = phone(browser, server, "spectator")
    rules.goto(server.url + "/rules")
    for p in (worth, rules):
        _parts_live(p)
    asked = {"worth": _partials(worth), "rules": _partials(rules)}
    drawn = {"worth": _drawn(worth), "rules": _drawn(rules)}

    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)
    assert out.accepted
    for p in (worth, rules):
        expect(p.locator("body")).to_have_attribute("data-shown", str(out.version))
    assert _drawn(worth) == drawn["worth"] + 1 and _drawn(rules) == drawn["rules"]

    # the Rules page missed a version: the next change is not from the one it shows
    rules.evaluate("document.querySelector('#live [data-version]').dataset.version = '1'")
    out = game.submit({"do": "buy"}, TABLE)
    assert out.accepted
    expect(worth.locator("body")).to_have_attribute("data-shown", str(out.version))
    expect(rules.locator("body")).to_have_attribute("data-shown", str(out.version),
                                                   timeout=10_000)
    assert asked["worth"] == [] and len(asked["rules"]) == 1

    out = game.submit({"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                       "seed": 4}, TABLE)
    assert out.accepted
    for p in (worth, rules):
        expect(p.locator("body")).to_have_attribute("data-shown", str(out.version))
    assert asked["worth"] == [] and len(asked["rules"]) == 1
    assert _drawn(worth) == drawn["worth"] + 3
    expect(worth.locator("#live")).to_contain_text("1 sample")  # the new game's chart


def test_the_page_says_while_it_waits_for_the_server(browser: Any,  # noqa: F811
                                                     server: ServerHandle,  # noqa: F811
                                                     game: Any) -> None:  # noqa: F811
    """body[data-busy] from a tap until the page has drawn the tap's answer: held here while
    the command's answer is held back, and gone once the page shows the new version (what a
    test, or a person, waits for before looking at the page)."""
    assert game.submit({"do": "roll", "dice": [1, 2]}, TABLE).accepted
    ann = phone(browser, server, "player:Ann")
    held: list[Any] = []
    ann.route("**/api/commands", lambda route: held.append(route))  # the tap waits here
    busy = ann.locator("body[data-busy]")
    expect(busy).to_have_count(0)
    with ann.expect_request(lambda r: "/api/commands" in r.url, timeout=5000):
        ann.get_by_role("button", name="Buy", exact=True).click()
    expect(busy).to_have_count(1)
    expect(ann.locator("body")).to_have_attribute("data-shown", str(game.version))
    bought = game.version + 1
    held[0].continue_()
    expect(ann.locator(f"body:not([data-busy])[data-shown='{bought}']")).to_have_count(1)
    assert game.version == bought
