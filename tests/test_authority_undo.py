"""Who may take back a move is decided in one place (issue 25): companion.game.authority's
UNDO_RIGHTS and `undo_refused`. The session's undo from any input and the phones' Me page
(its "Undo my last move" button, /api/undo, /api/table's flag) all ask it, so changing the
one row changes every one of them; no other module keeps a rule of its own."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_fakes import Phone, open_real_session

from companion.game import authority
from companion.game.api import Source
from web_remote import create_app

ROOT = Path(__file__).resolve().parent.parent
UNDO_BUTTON = "Undo my last move"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, Flask]]:
    game = open_real_session(tmp_path / "game", options={"physical_dice": True})
    app = create_app(game, tmp_path, {"banker_pin": "2468"})
    yield game, app
    app.extensions["web_remote"].close()
    game.close()


def _ann_bought(game: Any, app: Flask) -> Phone:
    ann = Phone(app)
    assert ann.join("player:Ann").status_code == 302
    assert ann.command({"do": "roll", "dice": [1, 2]}).status_code == 200
    assert ann.command({"do": "buy"}).status_code == 200
    return ann


def test_a_player_takes_back_their_own_move_as_the_table_says(
        table: tuple[Any, Flask]) -> None:
    game, app = table
    ann = _ann_bought(game, app)
    assert UNDO_BUTTON in ann.client.get("/me").get_data(as_text=True)
    assert ann.client.get("/api/table").get_json()["undo"] is True
    assert game.undo_refusal(Source("rfid", player="Ann")) is None  # her card: her too
    refused = game.undo_refusal(Source("phone", player="Bo"))
    assert refused is not None and refused["code"] == "not_allowed"


def test_one_row_changed_changes_the_session_and_every_phone(
        table: tuple[Any, Flask], monkeypatch: pytest.MonkeyPatch) -> None:
    """A table where any move is the banker's to take back: one row of UNDO_RIGHTS, and
    the session refuses Ann's undo from her phone and her card, her Me page drops the
    button, /api/table says no, /api/undo refuses and the move stays."""
    game, app = table
    ann = _ann_bought(game, app)
    monkeypatch.setitem(authority.UNDO_RIGHTS, "move", "banker")
    for source in (Source("phone", player="Ann"), Source("rfid", player="Ann")):
        refused = game.undo_refusal(source)
        assert refused is not None and refused["code"] == "result_kept"
    assert UNDO_BUTTON not in ann.client.get("/me").get_data(as_text=True)
    assert ann.client.get("/api/table").get_json()["undo"] is False
    version = game.version
    resp = ann.post("/api/undo", {"version": version})
    assert resp.status_code in (403, 422), resp.get_json()
    assert game.version == version
    assert game.undo(Source("script", banker=True)).accepted  # the banker still may


def test_no_other_module_decides_undo_rights() -> None:
    """The refusal codes of an undo's right are raised in companion.game.authority alone;
    the guard's and going_back's old copies are gone."""
    raisers = []
    for package in ("companion", "web_remote", "hardware"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text("utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and node.args and isinstance(
                        node.args[0], ast.Constant) and node.args[0].value == "result_kept":
                    raisers.append(str(path.relative_to(ROOT)))
    assert sorted(set(raisers)) == ["companion/game/authority.py"]
    assert "def own_move" not in (ROOT / "web_remote" / "guard.py").read_text("utf-8")
    assert "def undo_refusal" not in (ROOT / "companion" / "game" / "going_back.py").read_text(
        "utf-8")
