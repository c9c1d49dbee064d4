"""The phone's news stays until its player has seen it (`POST /api/news/seen`): the Me page
lists the player's unseen news with its keys, reloading it marks nothing, only the player's
own phone marks their news, and a malformed or replayed request is a 400 that changes
nothing; every phone is told on the live stream."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask
from web_fakes import ORIGIN, Phone, joined, play, text


def rent(game: Any) -> None:
    """Ann buys Rue Lecourbe and Bo pays her € 4 rent."""
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
         {"do": "roll", "dice": [1, 2]})


def news_list(html: str) -> str:
    found = re.search(r'<ul class="news" data-news="mine"[^>]*>.*?</ul>', html, re.S)
    assert found is not None, "no news list"
    return found.group(0)


def to_mark(html: str) -> list[str]:
    """The keys the page's script marks seen once in view: each line's, and those of the
    earlier moves (none on a page that may not mark)."""
    found = news_list(html)
    if " data-mark" not in found.split(">", 1)[0]:
        return []
    lines = re.findall(r'<li data-key="([^"]+)"', found)
    return lines + [k for keys in re.findall(r'data-keys="([^"]*)"', found) for k in keys.split()]


def line_key(html: str, words: str) -> str:
    found = re.search(r'<li data-key="([^"]+)"[^>]*>' + re.escape(words), news_list(html))
    assert found is not None, f"{words!r} not in the news"
    return found.group(1)


def seen(phone: Phone, body: Any) -> Any:
    return phone.post("/api/news/seen", body)


def test_the_news_stays_through_reloads_and_goes_once_marked(app: Flask, game: Any) -> None:
    rent(game)
    ann, bo = joined(app, "Ann"), joined(app, "Bo")
    page = text(ann.client.get("/me"))
    key = line_key(page, "Bo paid you €\u00a04 rent")
    for _reload in range(40):  # a page shown is not a page seen
        page = text(ann.client.get("/me?partial=1"))
    assert line_key(page, "Bo paid you €\u00a04 rent") == key and key in to_mark(page)
    listener = app.extensions["web_remote"].hub.subscribe("watcher")
    assert listener is not None
    resp = seen(ann, {"keys": [key]})
    assert resp.status_code == 200 and resp.get_json() == {"ok": True, "keys": [key]}
    assert "Bo paid you" not in news_list(text(ann.client.get("/me")))
    assert line_key(text(bo.client.get("/me")), "You paid Ann €\u00a04 rent") == key
    told = [m for m in listener.take()[0] if m.event == "news"]
    assert [m.payload for m in told] == [{"player": "Ann", "keys": [key]}]
    assert json.loads(told[0].encode().decode().split("data: ")[1]) == told[0].payload


def test_a_malformed_or_replayed_request_is_refused_and_changes_nothing(app: Flask,
                                                                        game: Any) -> None:
    rent(game)
    ann = joined(app, "Ann")
    keys = to_mark(text(ann.client.get("/me")))
    assert len(keys) >= 2
    for body in ({}, {"keys": "1:1"}, {"keys": []}, {"keys": [1]}, {"keys": ["1:1", "1:1"]},
                 {"keys": ["1:1; drop"]}, {"keys": ["999:0"]}, {"keys": [keys[0], "999:0"]},
                 {"keys": [f"{n}:0" for n in range(1, 600)]}, [keys[0]], "1:1"):
        resp = seen(ann, body)
        assert resp.status_code == 400, (body, resp.get_json())
        assert resp.get_json()["ok"] is False and resp.get_json()["message"], body
    resp = ann.client.post("/api/news/seen", data="keys=1:1",
                           headers={"Origin": ORIGIN, "X-CSRF-Token": ann.csrf})
    assert resp.status_code == 400
    assert to_mark(text(ann.client.get("/me"))) == keys  # nothing was marked
    assert seen(ann, {"keys": keys}).status_code == 200
    again = seen(ann, {"keys": keys})  # the same request replayed
    assert again.status_code == 400 and again.get_json()["code"] == "already_seen"
    assert to_mark(text(ann.client.get("/me"))) == []


def test_only_the_players_own_phone_marks_their_news(app: Flask, game: Any) -> None:
    rent(game)
    ann, bo = joined(app, "Ann"), joined(app, "Bo")
    watcher, banker = Phone(app), joined(app, "banker")
    watcher.join("spectator")
    ann_keys = to_mark(text(ann.client.get("/me")))
    only_ann = [k for k in ann_keys if k not in to_mark(text(bo.client.get("/me")))]
    assert only_ann  # Ann's purchase and her start cash are not Bo's news
    acting = text(banker.client.get("/me?as=Ann"))  # the banker sees Ann's news...
    assert "Bo paid you" in news_list(acting) and to_mark(acting) == []  # ...and marks none
    for phone, status, code in ((watcher, 403, "not_a_player"), (banker, 403, "not_a_player"),
                                (bo, 400, "not_news")):
        resp = seen(phone, {"keys": only_ann})
        assert resp.status_code == status and resp.get_json()["code"] == code
    stranger = Phone(app)  # never joined
    assert stranger.client.post("/api/news/seen", json={"keys": only_ann},
                                headers={"Origin": ORIGIN}).status_code in (401, 403)
    no_token = ann.client.post("/api/news/seen", json={"keys": only_ann},
                               headers={"Origin": ORIGIN})
    assert no_token.status_code == 403 and no_token.get_json()["code"] == "bad_csrf"
    assert to_mark(text(ann.client.get("/me"))) == ann_keys  # nobody marked Ann's news


def test_unseen_news_beyond_the_newest_lines_is_counted_and_linked_to_history(
        app: Flask, game: Any) -> None:
    ann = joined(app, "Ann")
    for amount in range(1, 10):  # the banker pays Ann nine times
        play(game, {"do": "pay", "from": "bank", "to": "Ann", "amount": amount})
    page = text(ann.client.get("/me"))
    lines = re.findall(r'<li data-key="[^"]+"[^>]*>([^<]*)</li>', news_list(page))
    assert lines[0] == "The bank paid you €\u00a09" and len(lines) == 6
    assert "…and 4 earlier moves" in news_list(page)  # 3, 2, 1 and the start cash
    assert 'href="/history?player=Ann"' in news_list(page)
    assert len(to_mark(page)) == 10  # the earlier ones were said to be there: marked too
    ann.client.set_cookie("lang", "ru")
    assert "…и ещё 4 более ранних хода" in news_list(text(ann.client.get("/me")))
