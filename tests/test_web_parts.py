"""A page's live part sent on its stream (web_remote/parts.py), over real HTTP: after a move
each page that changed gets its new part, the very HTML its phone would have read, as that
phone may see it; a page that did not change gets none; a page behind gets its part when
its stream opens; an address that is not a live page's gives a plain stream."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from tools.bench.probe import HttpPhone
from web_remote import create_app, join_url, serve
from web_remote.parts import SPECTATOR_PAGES, part_of, shown_in, unchanged
from web_remote.serving import ServerHandle
from web_remote.views.shared import shared

TABLE = Source("script", banker=True)


@pytest.fixture
def server(game: Any, tmp_path: Path) -> Iterator[ServerHandle]:
    app = create_app(game, tmp_path / "game", {"keepalive_s": 30.0, "banker_pin": "2468"})
    handle = serve(app, "127.0.0.1", 0, threads=8)
    yield handle
    handle.stop()


@pytest.fixture
def phone(server: ServerHandle) -> Iterator[Callable[..., HttpPhone]]:
    """Joins a phone (`who`, with the banker's `pin`, from the address `source`); every
    phone is closed after the test."""
    joined: list[HttpPhone] = []

    def join(who: str, pin: str = "", source: str | None = None) -> HttpPhone:
        p = HttpPhone(server.url, source=source)
        joined.append(p)
        assert p.join(join_url(server.app, server.url), who, pin) == 302
        return p

    yield join
    for p in joined:
        p.close()


def events_until(p: HttpPhone, wanted: str, version: int) -> list[tuple[str, Any]]:
    """The stream's events up to the first `wanted` one ("state" or "part") of `version`
    or later (keep-alives left out)."""
    seen: list[tuple[str, Any]] = []
    while True:
        item = p.next_event(10)
        assert item is not None, f"no {wanted} of version {version}: {seen}"
        if item[0] == "comment":
            continue
        seen.append(item)
        if item[0] == wanted and int(item[1]["version"]) >= version:
            return seen


def read(p: HttpPhone, path: str) -> str:
    status, _headers, body = p.request("GET", path + ("&" if "?" in path else "?") + "partial=1")
    assert status == 200
    return body.decode()


def test_each_changed_page_gets_the_part_its_phone_would_read(
        phone: Callable[..., HttpPhone], game: Any) -> None:
    ann, table, rules = (phone("player:Ann"), phone("spectator"),
                         phone("spectator"))
    now = game.version
    for p, page in ((ann, "/me"), (table, "/table"), (rules, "/rules")):
        p.open_stream(page, now)
        assert [name for name, _ in events_until(p, "state", now)] == ["parts", "state"]

    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)
    assert out.accepted
    me_part = events_until(ann, "part", out.version)[-1][1]
    table_part = events_until(table, "part", out.version)[-1][1]
    assert me_part["version"] == table_part["version"] == out.version
    assert me_part["html"] == read(ann, "/me")
    assert table_part["html"] == read(table, "/table")
    assert shown_in(me_part["html"]) == (out.version, "Ann")
    assert "Rue Lecourbe" in me_part["html"]  # Ann may buy it now

    # the Rules page did not change: its stream says so, and sends no part
    out2 = game.submit({"do": "buy"}, TABLE)
    assert out2.accepted
    assert events_until(ann, "part", out2.version)[-1][1]["version"] == out2.version
    said = events_until(rules, "state", out2.version)
    assert [name for name, _ in said if name in ("state", "part")] == ["state", "state"]


def test_a_part_shows_only_what_its_phone_may_see(server: ServerHandle, game: Any,
                                                  phone: Callable[..., HttpPhone]) -> None:
    """Bo asking for Ann's page gets his own; the banker gets Ann's; a phone whose seat was
    released since its stream opened gets no part (its own read is refused: not joined); a
    banker phone whose session ended since gets a spectator's part."""
    bo, banker = phone("player:Bo"), phone("banker", "2468")
    now = game.version
    bo.open_stream("/me?as=Ann", now - 1)
    banker.open_stream("/me?as=Ann", now - 1)
    assert shown_in(events_until(bo, "part", now)[-1][1]["html"]) == (now, "Bo")
    assert shown_in(events_until(banker, "part", now)[-1][1]["html"]) == (now, "Ann")

    server.app.extensions["web_remote"].seats.release("Bo")
    for move in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"}):
        out = game.submit(move, TABLE)
        assert out.accepted
        # the banker's part of the same round came: Bo's was judged and not sent
        events_until(banker, "part", out.version)
    said = [n for n, _ in events_until(bo, "state", out.version)]
    assert said == ["state", "state"]
    assert bo.request("GET", "/me?partial=1")[0] == 401

    # the banker's sessions ended (a phone locked): the stream's next part, rendered in the
    # request the stream keeps for its parts, is a spectator's, who sees no player's page
    server.app.extensions["web_remote"].pin.store.end_sessions()
    out = game.submit({"do": "end_turn"}, TABLE)
    assert out.accepted
    assert shown_in(events_until(banker, "part", out.version)[-1][1]["html"]) == \
        (out.version, None)


def test_a_page_behind_gets_its_part_at_once(phone: Callable[..., HttpPhone],
                                             game: Any) -> None:
    behind, current = phone("player:Ann"), phone("player:Bo")
    now = game.version
    behind.open_stream("/me", now - 1)
    current.open_stream("/me", now)
    assert events_until(behind, "part", now)[-1][1]["version"] == now
    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)  # Bo's page: his turn ahead
    assert out.accepted
    # Bo's stream had no part before the move's: its page showed the table's version
    assert [n for n, _ in events_until(current, "state", out.version)] == \
        ["parts", "state", "warnings", "state"]


def test_spectators_share_one_rendering(server: ServerHandle, game: Any,
                                        phone: Callable[..., HttpPhone]) -> None:
    watchers = [phone("spectator") for _ in range(5)]
    for p in watchers:
        p.open_stream("/table", game.version)
    pusher = server.app.extensions["web_remote"].parts
    with server.app.app_context():
        built = shared().built["table"]
    rendered = pusher.rendered
    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)
    assert out.accepted
    texts = {events_until(p, "part", out.version)[-1][1]["html"] for p in watchers}
    assert len(texts) == 1
    with server.app.app_context():
        assert shared().built["table"] == built + 1
    assert pusher.rendered == rendered + 1  # not one request's worth per phone


@pytest.mark.parametrize("address", [
    "/banker", "/api/state", "http://elsewhere/me", "//elsewhere/me", "/me/../banker",
    "/" + "m" * 400, "", "me"])
def test_only_a_live_page_has_its_part_sent(address: str) -> None:
    assert part_of(address, {"HTTP_COOKIE": "c"}, "4") is None


def test_a_part_keeps_the_pages_own_query_and_who_asks() -> None:
    part = part_of("/history?player=Ann&partial=0", {"HTTP_COOKIE": "c", "X": "y"}, "x")
    assert part is not None and part.page == "history" and part.shown is None
    assert part.environ["QUERY_STRING"] == "player=Ann&partial=1"
    assert part.environ["HTTP_COOKIE"] == "c" and "X" not in part.environ


def test_the_rule_is_the_pages_own() -> None:
    """`unchanged` is app.js's `unchangedHere`: named pages and players change; a gap in
    the versions, another game or a Me page of nobody always do."""
    part = part_of("/me", {}, "7")
    assert part is not None
    part.player = "Ann"
    told = {"version": 8, "from": 7, "pages": ["table"], "me": ["Bo"]}
    assert unchanged(told, part)
    assert not unchanged({**told, "me": ["Ann"]}, part)
    assert not unchanged({**told, "me": None}, part)
    assert not unchanged({**told, "from": 6}, part)
    assert not unchanged({"version": 8, "game": True}, part)
    part.player = None
    assert not unchanged(told, part)
    table = part_of("/table", {}, "7")
    assert table is not None and not unchanged(told, table)
    assert unchanged({**told, "pages": ["history"]}, table)


def test_refused_address_gives_a_plain_stream(phone: Callable[..., HttpPhone],
                                              game: Any) -> None:
    p = phone("player:Ann")
    p.open_stream("/banker", game.version - 1)
    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)
    assert out.accepted
    said = events_until(p, "state", out.version)
    assert "parts" not in [n for n, _ in said] and "part" not in [n for n, _ in said]


def test_spectators_pages_rendered_per_move_are_capped(
        phone: Callable[..., HttpPhone], game: Any) -> None:
    """Spectators' streams may ask for any page and filter: past SPECTATOR_PAGES distinct
    ones in a move, a page gets no part and reads itself, under every read's rate limit."""
    watchers = [phone("spectator", source=f"127.0.1.{i + 1}")  # a laptop's addresses
                for i in range(SPECTATOR_PAGES + 2)]
    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)  # no History row
    assert out.accepted
    for i, p in enumerate(watchers):
        p.open_stream(f"/history?player=P{i}", out.version)
    bought = game.submit({"do": "buy"}, TABLE)  # a History row: every filter's page
    assert bought.accepted
    for p in watchers[:SPECTATOR_PAGES]:
        assert events_until(p, "part", bought.version)[-1][1]["version"] == bought.version
    ended = game.submit({"do": "end_turn"}, TABLE)
    assert ended.accepted
    for p in watchers[SPECTATOR_PAGES:]:
        said = [n for n, _ in events_until(p, "state", ended.version)]
        assert said == ["parts", "state", "warnings", "state", "state"]


def test_another_game_sends_every_page_its_part_whatever_its_version(
        server: ServerHandle, game: Any, phone: Callable[..., HttpPhone]) -> None:
    """A saved game switched to may have lower versions than the page shows: after a
    "game" event every page gets its part, not only pages behind it."""
    ann = phone("player:Ann")
    out = game.submit({"do": "roll", "dice": [1, 2]}, TABLE)
    assert out.accepted
    ann.open_stream("/me", out.version)
    events_until(ann, "state", out.version)
    pusher = server.app.extensions["web_remote"].parts
    sent = pusher.sent
    pusher.told(1, {"version": 1, "game": True})  # what Remote._told says of a switch
    assert events_until(ann, "part", out.version)[-1][1]["version"] == out.version
    assert pusher.sent == sent + 1
