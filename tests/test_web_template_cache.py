"""The pages' templates compiled once per install, not on every start
(web_remote/template_cache.py): the next start reads them back, a damaged or unwritable
cache never fails a page, and backups leave the cache out."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from headless_run import ENV
from jinja2 import Environment
from jinja2.bccache import bc_magic
from web_fakes import Phone, open_real_session, text

from companion.game.api import Source
from companion.game.backup import write_backup
from companion.game.session import GameSession
from tools.bench.proc import free_port
from web_remote import create_app
from web_remote.template_cache import FOLDER, warm


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Any]:
    session = open_real_session(tmp_path / "game")
    yield session
    session.close()


def _app(game: Any, tmp_path: Path) -> Flask:
    return create_app(game, tmp_path / "game", {"rate_per_s": 1e6, "burst": 1e6})


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from their source from now on."""
    compiled: list[str] = []
    real = Environment.compile

    def counting(self: Environment, source: Any, name: str | None = None,
                 *args: Any, **kwargs: Any) -> Any:
        if name is not None:
            compiled.append(name)
        return real(self, source, name, *args, **kwargs)

    monkeypatch.setattr(Environment, "compile", counting)
    return compiled


def _page(app: Flask, who: str, path: str) -> str:
    """The live part of `path` on a phone that joined as `who`."""
    phone = Phone(app)
    assert phone.join(who).status_code == 302
    resp = phone.client.get(f"{path}?partial=1")
    assert resp.status_code == 200
    return text(resp)


def _me_page(app: Flask) -> str:
    return _page(app, "player:Ann", "/me")


def _table_page(app: Flask) -> str:
    return _page(app, "spectator", "/table")


def test_the_next_start_reads_the_compiled_templates_back(
        game: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _app(game, tmp_path)
    count = warm(first.jinja_env)
    kept = list((tmp_path / "game" / FOLDER).iterdir())
    assert count >= 20 and len(kept) == count  # every template compiled and kept
    page = _table_page(first)
    first.extensions["web_remote"].close()
    compiled = _compiles(monkeypatch)
    again = _app(game, tmp_path)  # the next start, on the same data directory
    assert warm(again.jinja_env) == count
    assert compiled == []  # all read back, none compiled
    assert _table_page(again) == page and "Ann" in page
    again.extensions["web_remote"].close()


@pytest.mark.parametrize("damage", [b"", b"j2", b"garbage" * 50, bc_magic + b"\x80garbage",
                                    None])
def test_a_damaged_compiled_template_is_compiled_again(
        game: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        damage: bytes | None) -> None:
    first = _app(game, tmp_path)
    warm(first.jinja_env)
    first.extensions["web_remote"].close()
    files = sorted((tmp_path / "game" / FOLDER).iterdir())
    for path in files:  # a power cut while each was written: empty, cut short, garbage
        # (whole: Jinja's own reading fails on a good header before garbage)
        whole = path.read_bytes()
        path.write_bytes(whole[: len(whole) // 2] if damage is None else damage)
    compiled = _compiles(monkeypatch)
    again = _app(game, tmp_path)
    assert "Ann" in _me_page(again)  # the page still comes
    warm(again.jinja_env)
    assert len(compiled) == len(files)  # each compiled again...
    again.extensions["web_remote"].close()
    compiled.clear()
    third = _app(game, tmp_path)
    warm(third.jinja_env)
    assert compiled == []  # ...and kept whole for the start after
    third.extensions["web_remote"].close()


def test_a_cache_folder_that_is_gone_or_cannot_be_made_fails_no_page(
        game: Any, tmp_path: Path) -> None:
    (tmp_path / "game" / "cache").write_text("a file where the folder would go")
    blocked = _app(game, tmp_path)
    assert "Ann" in _table_page(blocked)
    blocked.extensions["web_remote"].close()
    (tmp_path / "game" / "cache").unlink()
    app = _app(game, tmp_path)
    (tmp_path / "game" / FOLDER).rmdir()  # removed while the companion runs
    assert "Ann" in _table_page(app)
    app.extensions["web_remote"].close()


def test_a_backup_leaves_the_compiled_templates_out(game: Any, tmp_path: Path) -> None:
    app = _app(game, tmp_path)
    warm(app.jinja_env)
    app.extensions["web_remote"].close()
    assert list((tmp_path / "game" / FOLDER).iterdir())
    with open(tmp_path / "backup.tar.gz", "wb") as out:
        summary = write_backup(tmp_path / "game", out)
    with tarfile.open(tmp_path / "backup.tar.gz") as archive:
        names = archive.getnames()
    assert summary.games and any("networth.jsonl" in name for name in names)  # a real one
    assert not [name for name in names if "cache" in Path(name).parts]


def _read(proc: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    for line in proc.stdout or ():
        lines.put(line)
    lines.put("")


def test_companion_run_loads_every_template_as_it_starts_serving(tmp_path: Path) -> None:
    """The real entry point: `companion run --headless` on a saved game loads (and, at its
    first start, compiles and keeps) every template once it serves; a second start reads
    them all back."""
    data = tmp_path / "data"
    with GameSession.open(data) as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "seed": 3},
                              Source("script", banker=True)).accepted
    for start in ("first", "second"):
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--headless", "--port",
             str(free_port()), "--data-dir", str(data), "--config",
             str(tmp_path / "absent.toml")], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, env={**ENV, "COMPANION_LOG": "INFO"})
        lines: queue.Queue[str] = queue.Queue()
        reader = threading.Thread(target=_read, args=(proc, lines), daemon=True)
        reader.start()
        try:
            while "page templates loaded" not in (line := lines.get(timeout=60)):
                assert line, f"the companion ended without loading its templates ({start})"
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
            reader.join(timeout=20)
            if proc.stdout is not None:
                proc.stdout.close()
        assert int(line.split("loaded: ")[1].split(",")[0]) >= 20, line
        kept = sorted(p.name for p in (data / FOLDER).iterdir())
        assert len(kept) >= 20 and not [k for k in kept if k.endswith(".tmp")], kept
