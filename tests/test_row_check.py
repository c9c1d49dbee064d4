"""`companion run` checks the journal's rows in a child process while it starts
(companion/app/row_check.py); the session then takes the child's word for those rows and
checks the rest itself. The undo stacks must come out the same, and damage must still stop
the game from opening."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.app.row_check import RowCheck
from companion.game.api import Source
from companion.game.journal import Journal, JournalCorrupt
from companion.game.replaying import stacks_of
from companion.game.session import GameSession

BANKER = Source("script", banker=True)


def _played(data: Path) -> Path:
    """A game with commands, undos, a redo and a jump back; its journal's path."""
    with GameSession.open(data) as s:
        assert s.submit({"do": "new_game", "edition": "classic-eur", "players": ["A", "B"],
                         "seed": 3}, BANKER).accepted
        for amount in range(1, 7):  # payments: accepted whatever the dice would do
            assert s.submit({"do": "pay", "from": "A", "to": "B", "amount": amount},
                            BANKER).accepted
        assert s.undo(BANKER).accepted
        assert s.undo(BANKER).accepted
        assert s.redo(BANKER).accepted
        assert s.undo_to(2, BANKER).accepted
        assert s.submit({"do": "pay", "from": "A", "to": "B", "amount": 5}, BANKER).accepted
    return next((data / "games").glob("*.journal"))


def _stacks(journal: Journal, checked: int | None) -> tuple[object, ...]:
    st = stacks_of(journal, checked)
    return st.undo, st.redo, st.taken, st.back, st.undone


def test_the_stacks_are_the_same_whatever_the_child_checked(tmp_path: Path) -> None:
    path = _played(tmp_path / "data")
    journal = Journal.open(path, readonly=True)
    try:
        last = journal.last_seq()
        kinds = {kind for _seq, kind, _target in journal.scan()}
        assert {"command", "undo", "redo", "undo_to"} <= kinds  # the test covers every kind
        whole = _stacks(journal, None)
        for checked in range(last + 1):
            assert _stacks(journal, checked) == whole, checked
    finally:
        journal.close()


def test_the_child_vouches_for_every_row_of_a_sound_journal(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = _played(data)
    check = RowCheck(data)
    assert check.game_id == path.name.removesuffix(".journal")
    with GameSession.open(data, check.game_id, checked=check.checked) as session:
        assert session.version > 0
    journal = Journal.open(path, readonly=True)
    try:
        assert RowCheck(data).checked() == journal.last_seq()
    finally:
        journal.close()


def test_no_saved_game_means_nothing_to_check(tmp_path: Path) -> None:
    check = RowCheck(tmp_path / "nowhere")
    assert check.game_id is None and check.checked() == 0


def test_a_damaged_old_row_still_stops_the_game_from_opening(tmp_path: Path) -> None:
    """A row changed behind its CRC (bit rot in an old row, not one the state is built
    from): the child says so, and opening refuses with the row's number."""
    data = tmp_path / "data"
    path = _played(data)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE entries SET command = replace(command, 'pay', 'paY') "
                     "WHERE seq = 2")
    check = RowCheck(data)
    with pytest.raises(JournalCorrupt, match="entry 2"):
        GameSession.open(data, check.game_id, checked=check.checked)
    with pytest.raises(JournalCorrupt, match="entry 2"):  # and without the child, the same
        GameSession.open(data)


def test_a_start_that_stops_early_reaps_the_child(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _played(data)
    check = RowCheck(data)
    child = check._child
    assert child is not None
    check.close()
    assert child.returncode is not None and check.checked() == 0


def test_a_child_that_cannot_start_leaves_every_row_to_the_session(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 512 MB board out of memory or processes: the start goes on, and the session
    checks every row itself (damage is still found)."""
    import subprocess

    data = tmp_path / "data"
    _played(data)

    def no_child(*_args: object, **_kwargs: object) -> None:
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(subprocess, "Popen", no_child)
    check = RowCheck(data)
    assert check.checked() == 0
    with GameSession.open(data, check.game_id, checked=check.checked) as session:
        assert session.version > 0
