"""The Table page's Latest list reads its rows, not a page of 50 (issue 28: the live part
of the Table page is rendered after every move): `history(None, n)` reads n rows and gives
the newest n of a longer read, undone marks included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.game.api import Source
from companion.game.session import GameSession

TABLE = Source("script", banker=True)


class Counting:
    """A journal whose `entries` count the rows they give."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.rows = 0

    def entries(self, after: int = 0, upto: int | None = None) -> Any:
        for entry in self.inner.entries(after=after, upto=upto):
            self.rows += 1
            yield entry

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _payments(session: GameSession, count: int) -> None:
    """Ann and Bo's game, `count` payments back and forth, the last one undone."""
    assert session.submit({"do": "new_game", "edition": "classic-eur",
                           "players": ["Ann", "Bo"], "seed": 2}, TABLE).accepted
    for n in range(count):
        payer, payee = ("Ann", "Bo") if n % 2 else ("Bo", "Ann")
        assert session.submit({"do": "pay", "from": payer, "to": payee, "amount": 1},
                              TABLE).accepted
    assert session.undo(TABLE).accepted


def test_the_latest_rows_are_read_alone(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as session:
        _payments(session, 80)
        whole = session.history(None, 200)
        counting = Counting(session._journal)
        session._journal = counting  # type: ignore[assignment]
        latest = session.history(None, 12)
        assert counting.rows <= 12
        assert latest == whole[-12:]
        assert latest[-1]["kind"] == "undo" and latest[-2]["undone"] is True
        assert session.history("Ann", 5) == [e for e in whole if any(
            "Ann" in (ev.get("from"), ev.get("to")) for ev in e["events"])
            or e["command"].get("from") == "Ann" or e["command"].get("to") == "Ann"][-5:]


class Parsing:
    """Counts the rows a journal parses (`Journal._parse`), its real reads otherwise."""

    def __init__(self, journal: Any, monkeypatch: Any) -> None:
        self.rows = 0
        real = journal._parse

        def parse(row: Any) -> Any:
            self.rows += 1
            return real(row)
        monkeypatch.setattr(journal, "_parse", parse)


def test_the_newest_rows_are_parsed_once_and_pages_further_back_alike(
        tmp_path: Path, monkeypatch: Any) -> None:
    """After every move the phones' pages read the newest rows again (the Table page's 12,
    a page of History): each row is parsed and checked once, a move's new row alone after
    it; a page further back (`before`) gives the same rows as the whole read, and does not
    push the newest out."""
    with GameSession.open(tmp_path) as session:
        _payments(session, 150)
        whole = session.history(None, 1000)
        parsing = Parsing(session._journal, monkeypatch)
        assert session.history(None, 40) == whole[-40:]
        first = parsing.rows
        assert session.history(None, 40) == whole[-40:]
        assert session.history(None, 12) == whole[-12:]
        assert parsing.rows == first  # read again, parsed once
        older = session.history(None, 40, before=whole[-40]["seq"])
        assert older == whole[-80:-40]
        assert session.history(None, 40, before=whole[0]["seq"]) == []
        assert session.history(None, 40, before=whole[2]["seq"]) == whole[:2]
        parsed = parsing.rows
        assert session.history(None, 40) == whole[-40:]
        assert parsing.rows == parsed  # the page further back pushed none of them out
        assert session.submit({"do": "pay", "from": "Ann", "to": "Bo", "amount": 2},
                              TABLE).accepted
        latest = session.history(None, 40)
        assert parsing.rows == parsed + 1  # the new row alone
        assert latest[:-1] == whole[-39:] and latest[-1]["command"]["amount"] == 2
        assert session._journal.last_seq() == latest[-1]["seq"]
