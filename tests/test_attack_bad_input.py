"""Bad input never answers 5xx (issue 26, point 7), through the real server on loopback:
a banker command whose `by` is a list or an object is a 400 that says why, and nothing
changes; the join link in the banker's QR code is built from the table's own address,
never from the Host header a request brings."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tools.bench.probe import HttpPhone
from web_remote import create_app, join_url, serve
from web_remote.serving import ServerHandle


def start(game: Any, tmp_path: Path) -> ServerHandle:
    app = create_app(game, tmp_path / "game", {"banker_pin": "2468"})
    return serve(app, "127.0.0.1", 0)


def joined(server: ServerHandle, who: str, pin: str = "") -> HttpPhone:
    phone = HttpPhone(server.url, timeout=5)
    assert phone.join(join_url(server.app, server.url), who, pin) == 302
    return phone


@pytest.mark.parametrize("by", [["Ann"], {"name": "Ann"}, ["Ann", "Bo"], {}, [], 7, 2.5])
def test_a_banker_command_by_a_list_or_object_is_a_clear_400(game: Any, tmp_path: Path,
                                                            by: Any) -> None:
    with start(game, tmp_path) as server:
        banker = joined(server, "banker", "2468")
        before = banker.state()
        status, body = banker.command({"do": "mortgage", "by": by, "square": 1},
                                      before["version"])
        assert status == 400, body
        assert body["ok"] is False and body["code"] == "unknown_player", body
        assert "by" in body["message_en"] and "not playing" in body["message_en"]
        assert banker.state() == before  # nothing changed
        banker.close()


def test_the_join_link_in_the_qr_code_ignores_the_host_header(game: Any,
                                                              tmp_path: Path) -> None:
    with start(game, tmp_path) as server:
        banker = joined(server, "banker", "2468")
        status, _headers, svg = banker.request("GET", "/qr.svg",
                                               headers={"Host": "evil.example:666"})
        assert status == 200
        links = re.findall(rb"<title>([^<]+)</title>", svg)
        assert links, svg[:200]
        link = links[0].decode()
        assert "evil.example" not in link
        assert link.startswith(f"http://127.0.0.1:{server.port}/join/"), link
        banker.close()


def test_the_command_answer_is_json_not_a_traceback(game: Any, tmp_path: Path) -> None:
    """A `by` object next to a valid command shape: the answer is the remote's JSON."""
    with start(game, tmp_path) as server:
        banker = joined(server, "banker", "2468")
        status, _h, raw = banker.request(
            "POST", "/api/commands",
            json.dumps({"command": {"do": "roll", "by": {"x": [1]}}, "version": 1}).encode(),
            {"Content-Type": "application/json", "X-CSRF-Token": banker.csrf,
             "Origin": banker.base})
        assert status == 400 and b"Traceback" not in raw
        assert json.loads(raw)["code"] == "unknown_player"
        banker.close()


def test_redirects_never_name_the_host_header(game: Any, tmp_path: Path) -> None:
    with start(game, tmp_path) as server:
        ann = joined(server, "player:Ann")
        status, headers, _body = ann.request("GET", "/", headers={"Host": "evil.example"})
        assert status == 302 and "evil.example" not in headers["location"], headers
        assert headers["location"].startswith("/")
        ann.close()
