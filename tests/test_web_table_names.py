"""The names a table answers to are settings (`[web] table_names`, `table_url` in
config.toml): a phone that reaches the table by a name of the router's own DNS
("table.fritz.box") is taken once the name is configured, and refused before; a name
nobody configured is still refused (it could be another site's page: DNS rebinding); the
configured address is the one phones are given. Through the real `companion run` and real
sockets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from headless_run import headless_table

from companion.config import ConfigError, parse_config
from tools.bench.probe import HttpPhone

ROUTER = "table.fritz.box"


def ann_from(port: str | int, link: str) -> HttpPhone:
    """Ann's phone, joined by the address the table arrived on (always its own)."""
    phone = HttpPhone(f"http://127.0.0.1:{port}", timeout=10)
    assert phone.join(link, "player:Ann") == 302
    return phone


def sent_from(phone: HttpPhone, origin: str) -> tuple[int, str]:
    """A command (end the turn: not Ann's to send yet) from a page of `origin`: the status
    and the refusal's code."""
    phone.base = origin
    status, body = phone.command({"do": "end_turn"}, phone.state()["version"])
    return status, str((body or {}).get("code"))


@pytest.fixture
def configured(tmp_path: Path) -> Iterator[tuple[int, str]]:
    yield from headless_table(tmp_path, f'[web]\ntable_names = ["{ROUTER}", "Spiel.lan."]\n'
                                   f'table_url = "http://{ROUTER}:{{port}}/"\n')


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[tuple[int, str]]:
    yield from headless_table(tmp_path, "")


def test_a_configured_router_name_is_taken_and_another_refused(
        configured: tuple[int, str]) -> None:
    port, link = configured
    assert link.startswith(f"http://{ROUTER}:{port}/join/"), link  # what phones are given
    ann = ann_from(port, link)
    for name in (ROUTER, "TABLE.Fritz.Box.", "spiel.lan"):  # case and the root's dot aside
        status, code = sent_from(ann, f"http://{name}:{port}")
        assert code != "bad_origin", (name, status, code)  # the rules answer, not the guard
    for name in ("other.fritz.box", f"{ROUTER}.evil.example", "evil.example"):
        assert sent_from(ann, f"http://{name}:{port}") == (403, "bad_origin"), name
    assert sent_from(ann, f"http://{ROUTER}:{port + 1}") == (403, "bad_origin")  # its port
    ann.close()


def test_unconfigured_the_router_name_is_refused(plain: tuple[int, str]) -> None:
    port, link = plain
    assert link.startswith("http://") and ROUTER not in link
    ann = ann_from(port, link)
    assert sent_from(ann, f"http://{ROUTER}:{port}") == (403, "bad_origin")
    assert sent_from(ann, f"http://127.0.0.1:{port}")[1] != "bad_origin"
    ann.close()


@pytest.mark.parametrize(("text", "words"), [
    ('[web]\ntable_names = "table.fritz.box"\n', "list of host names"),
    ('[web]\ntable_names = ["not a name!"]\n', "list of host names"),
    ('[web]\ntable_names = [3]\n', "list of host names"),
    ('[web]\ntable_url = "table.fritz.box"\n', "http:// or https://"),
    ('[web]\ntable_url = "ftp://table.fritz.box/"\n', "http:// or https://"),
    ('[web]\ntable_url = "http://table.fritz.box:99999/"\n', "http:// or https://"),
    ('[web]\ntable_url = "http://user@table.fritz.box/"\n', "http:// or https://"),
    ('[web]\ntable_url = "http://table.fritz.box/?x=1"\n', "http:// or https://"),
])
def test_a_bad_name_or_address_is_one_clear_line(text: str, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    assert words in str(caught.value) and ":2: web.table_" in str(caught.value), caught.value


def test_names_are_kept_lower_case_without_the_roots_dot() -> None:
    web = parse_config('[web]\ntable_names = ["Table.Fritz.Box."]\n'
                       'table_url = "https://table.example/"\n').web
    assert web.table_names == ("table.fritz.box",)
    assert web.table_url == "https://table.example/"
    assert parse_config("").web.table_names == () and parse_config("").web.table_url == ""
