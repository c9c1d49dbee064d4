"""In a real browser: after a move a page reads its live part again only when the stream
names it among the pages that changed (web_remote/static/app.js, docs/phone-remote.md).
The Rules page and History after a move that lists nothing new keep what they show and
take the new version; the Table, Worth and Me pages, and History after a payment, read it
again; so does a page that missed a version, and every page after a new game."""

from __future__ import annotations

from typing import Any

from test_web_browser import TABLE, browser, expect, game, phone, server  # noqa: F401

from web_remote.serving import ServerHandle


def _partials(page: Any) -> list[str]:
    """The live-part requests this page sends (recorded from now on)."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if "partial=1" in r.url else None)
    return seen


def test_pages_read_again_only_what_changed(browser: Any,  # noqa: F811
                                            server: ServerHandle,  # noqa: F811
                                            game: Any) -> None:  # noqa: F811
    rules = phone(browser, server, "spectator")
    rules.goto(server.url + "/rules")
    rules.wait_for_selector("body[data-live='1']")
    history = phone(browser, server, "spectator")
    history.goto(server.url + "/history")
    history.wait_for_selector("body[data-live='1']")
    table = phone(browser, server, "spectator")
    table.goto(server.url + "/table")
    table.wait_for_selector("body[data-live='1']")
    ann = phone(browser, server, "player:Ann")
    asked = {name: _partials(p) for name, p in
             (("rules", rules), ("history", history), ("table", table), ("me", ann))}

    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)  # a move, no payment
    assert out.accepted
    for p in (rules, history, table, ann):
        expect(p.locator("body")).to_have_attribute("data-shown", str(out.version))
        expect(p.locator(f"#live [data-version='{out.version}']").first).to_be_attached()
    assert asked["rules"] == [] and asked["history"] == []
    for name, p in (("table", table), ("me", ann)):
        if not asked[name]:  # a read begun before the recording (Ann's join) already got the
            # move's version; the page then reads once more, as the move asked: waited on
            p.wait_for_event("request", predicate=lambda r: "partial=1" in r.url,
                             timeout=5000)
    assert len(asked["table"]) == 1 and len(asked["me"]) == 1
    assert "Rue Lecourbe" in ann.locator("#live").inner_text()  # Ann may buy it now

    out = game.submit({"do": "buy"}, TABLE)  # a payment: a History row
    assert out.accepted
    for p in (rules, history, table, ann):
        expect(p.locator("body")).to_have_attribute("data-shown", str(out.version))
    expect(history.locator("tr[data-seq]").first).to_be_attached()
    assert asked["rules"] == [] and len(asked["history"]) == 1
    assert len(asked["table"]) == 2

    # a page that kept its part acts on the new version: the stale-version check passes
    ann.goto(server.url + "/rules")
    ann.wait_for_selector("body[data-live='1']")
    out = game.submit({"do": "end_turn"}, TABLE)
    assert out.accepted
    expect(ann.locator("body")).to_have_attribute("data-shown", str(out.version))


def test_a_page_behind_its_stream_or_in_another_game_reads_again(
        browser: Any, server: ServerHandle, game: Any) -> None:  # noqa: F811
    """The Worth page reads its chart again after every move (the stream names it); the
    Rules page keeps its part, unless it shows another version than the one the stream's
    change is from (a version it missed), or another game was dealt (every page reads
    again, whatever version it shows)."""
    worth = phone(browser, server, "spectator")
    worth.goto(server.url + "/worth")
    worth.wait_for_selector("body[data-live='1']")
    rules = phone(browser, server, "spectator")
    rules.goto(server.url + "/rules")
    rules.wait_for_selector("body[data-live='1']")
    asked = {"worth": _partials(worth), "rules": _partials(rules)}

    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)
    assert out.accepted
    for p in (worth, rules):
        expect(p.locator("body")).to_have_attribute("data-shown", str(out.version))
    assert len(asked["worth"]) == 1 and asked["rules"] == []

    # the Rules page missed a version: the next change is not from the one it shows
    rules.evaluate("document.querySelector('#live [data-version]').dataset.version = '1'")
    out = game.submit({"do": "buy"}, TABLE)
    assert out.accepted
    for p in (worth, rules):
        expect(p.locator("body")).to_have_attribute("data-shown", str(out.version))
    assert len(asked["worth"]) == 2 and len(asked["rules"]) == 1

    out = game.submit({"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                       "seed": 4}, TABLE)
    assert out.accepted
    for p in (worth, rules):
        expect(p.locator("body")).to_have_attribute("data-shown", str(out.version))
    assert len(asked["worth"]) == 3 and len(asked["rules"]) == 2
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
