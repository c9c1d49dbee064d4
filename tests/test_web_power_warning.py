"""The Pi's power warning on the phones (issue 29): the power watch (companion.power, read
from a fake sysfs root as the Pi's kernel writes it) tells the phone remote as it tells the
screen; every phone's page, the banker's first, shows it in the table's language while it
lasts, a page open live shows and hides it as the stream says (Debian's chromium), and a
page opened later finds it."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_power_watch import NEVER, Face, Pi, no_vcgencmd
from web_fakes import joined, open_real_session, text

from companion import power as power_watch
from companion.power import UNDER_VOLTAGE, PowerWatch, watch_power
from companion.words.catalog import translator
from companion.words.table_language import TableLanguage
from web_remote import create_app, join_url, post_warning, serve

CHROMIUM = "/usr/bin/chromium"
PAGES = ("/me", "/table", "/history", "/worth", "/rules", "/banker")


def sentence(lang: str, code: str = UNDER_VOLTAGE) -> str:
    """The screen's own sentence for `code` in `lang`, from the one catalog."""
    said: str = translator(lang).pgettext(f"warn_{code}", power_watch.MESSAGES[code])
    return said


def warning(html: str, code: str = UNDER_VOLTAGE) -> tuple[bool, str] | None:
    """The page's warning element for `code`: (shown, its text), or None without one."""
    found = re.search(r'<p class="table-warning" role="alert" data-warning="' + code
                      + r'"( hidden)?>([^<]*)</p>', html)
    return None if found is None else (found.group(1) is None, found.group(2))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """A Swedish table with its phone remote."""
    data = tmp_path / "game"
    game = open_real_session(data, ("Ann", "Bo"))
    TableLanguage.at(data).choose("sv")
    app = create_app(game, data, {"banker_pin": "2468"})
    yield game, app
    app.extensions["web_remote"].close()
    game.close()


def follow(app: Any, pi: Pi) -> PowerWatch:
    """The watch as `companion run` starts it: the table's face first, the phones after."""
    watch = watch_power(Face(), root=pi.root, every=NEVER, run=no_vcgencmd)
    assert watch is not None
    watch.follow(lambda code, source, message, active: post_warning(app, code, source,
                                                                    message, active))
    return watch


def test_every_phone_shows_it_in_the_table_language_while_it_lasts(
        table: tuple[Any, Any], tmp_path: Path) -> None:
    _game, app = table
    pi = Pi(tmp_path / "root")
    banker, ann = joined(app, "banker"), joined(app, "Ann")
    watch = follow(app, pi)
    said = sentence("sv")
    assert said != power_watch.MESSAGES[UNDER_VOLTAGE]  # Swedish, not the English
    try:
        for page in PAGES:  # healthy: there, for the script to show, but hidden
            assert warning(text(banker.client.get(page))) == (False, said), page
        pi.set(0x50005)  # under-voltage now
        assert watch.check() == {UNDER_VOLTAGE}
        for page in PAGES:
            assert warning(text(banker.client.get(page))) == (True, said), page
        for page in PAGES[:-1]:  # the players' phones too
            assert warning(text(ann.client.get(page))) == (True, said), page
        assert "Power supply" not in text(ann.client.get("/me"))
        pi.set(0x50000)  # over; the since-boot bit stays
        assert watch.check() == set()
        assert warning(text(banker.client.get("/banker"))) == (False, said)
        assert warning(text(ann.client.get("/me"))) == (False, said)
    finally:
        watch.close()


def test_phones_that_join_later_and_a_phone_of_its_own_language(
        table: tuple[Any, Any], tmp_path: Path) -> None:
    """A warning already shown when the phones came (the watch starts before the remote),
    in the language a phone picked for itself; the live stream says it first."""
    _game, app = table
    pi = Pi(tmp_path / "root", 0x1)
    watch = follow(app, pi)
    try:
        bo = joined(app, "Bo")
        assert warning(text(bo.client.get("/me"))) == (True, sentence("sv"))
        bo.client.get("/lang/de")
        assert warning(text(bo.client.get("/me"))) == (True, sentence("de"))
        remote = app.extensions["web_remote"]
        assert remote.warnings == {UNDER_VOLTAGE: power_watch.MESSAGES[UNDER_VOLTAGE]}
    finally:
        watch.close()


def test_the_stream_says_each_change_once(table: tuple[Any, Any], tmp_path: Path) -> None:
    _game, app = table
    pi = Pi(tmp_path / "root")
    remote = app.extensions["web_remote"]
    client = remote.hub.subscribe("phone-1")
    assert client is not None
    watch = follow(app, pi)
    try:
        pi.set(0x1)
        watch.check()
        watch.check()  # still under-voltage: nothing new
        pi.set(0x0)
        watch.check()
        messages, _ended = client.wait(5.0)
        said = [m.payload for m in messages if m.event == "warnings"]
        assert said == [{"shown": [UNDER_VOLTAGE]}, {"shown": []}]
    finally:
        watch.close()
        remote.hub.unsubscribe(client)


def test_a_malformed_code_cannot_break_a_page(table: tuple[Any, Any]) -> None:
    """A code the catalog does not know shows its English; its text is escaped."""
    _game, app = table
    ann = joined(app, "Ann")
    post_warning(app, "odd", "test", "<b>Odd</b> & more", True)
    html = text(ann.client.get("/me"))
    assert warning(html, "odd") == (True, "&lt;b&gt;Odd&lt;/b&gt; &amp; more")
    post_warning(app, "odd", "test", "<b>Odd</b> & more", False)
    assert warning(text(ann.client.get("/me")), "odd") is None


@pytest.mark.skipif(not os.path.exists(CHROMIUM),
                    reason="Debian's chromium is not installed (test.sh does it)")
def test_a_page_open_live_shows_and_hides_it(table: tuple[Any, Any], tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from test_web_browser import ARGS, PHONE

    _game, app = table
    pi = Pi(tmp_path / "root")
    watch = follow(app, pi)
    handle = serve(app, "127.0.0.1", 0, threads=16)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_context(**PHONE).new_page()
            page.goto(join_url(app, handle.url, fresh=True))
            page.fill("input[name=pin]", "2468")
            page.click("button[name=who][value='banker']")
            page.wait_for_selector("body[data-live='1']")
            shown = page.locator("[data-warning=under_voltage]")
            sync_api.expect(shown).to_be_hidden()
            pi.set(0x50005)
            watch.check()
            sync_api.expect(shown).to_be_visible(timeout=20_000)
            sync_api.expect(shown).to_have_text(sentence("sv"))
            pi.set(0x50000)
            watch.check()
            sync_api.expect(shown).to_be_hidden(timeout=20_000)
            browser.close()
    finally:
        handle.stop()
        watch.close()



def test_a_face_that_fails_keeps_it_from_no_other(tmp_path: Path) -> None:
    """The phones' post raising (a remote closing) still leaves the screen told, once."""
    pi = Pi(tmp_path / "root")
    screen = Face()
    watch = watch_power(screen, root=pi.root, every=NEVER, run=no_vcgencmd)
    assert watch is not None

    def broken(code: str, source: str, message: str, active: bool) -> None:
        raise RuntimeError("the remote is closing")

    watch.follow(broken)
    try:
        pi.set(0x1)
        assert watch.check() == {UNDER_VOLTAGE}
        assert watch.check() == {UNDER_VOLTAGE}
        assert screen.posted == [(UNDER_VOLTAGE, "power", True)]
    finally:
        watch.close()
