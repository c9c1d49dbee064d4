"""The journal keeps the engine's events: typed in the session, their JSON form in the row,
the very same JSON in the history; a row whose events this engine never writes is reported
as damage, naming the entry, and the file is left as it was."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.game.api import Source
from companion.game.journal import JournalCorrupt, _row_crc, _row_crc_of, _source_text, row_text
from companion.game.saved_games import journal_path
from companion.game.session import GameSession
from companion.rules.events import Rolled, Undone
from tools.bench.journal import bot_script

BANKER = Source("script", banker=True)


def test_the_history_gives_the_events_as_they_were_told(tmp_path: Path) -> None:
    told = []
    with GameSession.open(tmp_path, "g1") as s:
        for command in bot_script(seed=3, count=60):
            out = s.submit(command, BANKER)
            assert out.accepted
            told.append(out.events)
        undo = s.undo(BANKER)
        assert undo.events[0]["kind"] == "undone"
        told.append(undo.events)
        history = s.history(limit=1000)
    assert [entry["events"] for entry in history] == told
    with GameSession.open(tmp_path, "g1") as s:  # and after reopening, from the file
        assert [entry["events"] for entry in s.history(limit=1000)] == told
        entries = list(s._journal.entries())
    assert isinstance(entries[-1].events[0], Undone)
    assert any(isinstance(e, Rolled) for entry in entries for e in entry.events)


def test_an_event_this_engine_never_writes_is_reported(tmp_path: Path) -> None:
    with GameSession.open(tmp_path, "g1") as s:
        for command in bot_script(seed=3, count=20):
            assert s.submit(command, BANKER).accepted
    path = journal_path(tmp_path, "g1")
    conn = sqlite3.connect(path)
    with conn:  # entry 5, its events replaced by a kind from nowhere, its checksum made good
        row = conn.execute("SELECT * FROM entries WHERE seq = 5").fetchone()
        seq, t, kind, target, source, command, _events, version, rng, _crc = row
        events = '[{"kind":"teleported","player":"P1"}]'
        crc = _row_crc(seq, t, kind, target, source, command, events, version, rng)
        conn.execute("UPDATE entries SET events = ?, crc = ? WHERE seq = 5", (events, crc))
    conn.close()
    before = path.read_bytes()
    with pytest.raises(JournalCorrupt, match="damaged at entry 5: unknown event kind 'teleported'"):
        GameSession.open(tmp_path, "g1")
    assert path.read_bytes() == before


@pytest.mark.parametrize("rng", [None, 2**63 + 5])
def test_a_row_s_crc_made_in_two_parts_is_the_crc_of_its_whole_text(rng: int | None) -> None:
    """`Journal.append` sums the row's head (seq, time, kind, target, source) and then its
    text made before (`row_text`, possibly ahead): the same number as the whole text's
    CRC, which a reader checks (`_row_crc`), non-ASCII text included."""
    command = {"do": "pay", "from": "Zoë", "to": "Bø", "amount": 7, "note": "日本 \u2028"}
    events = [{"type": "paid", "from": "Zoë", "amount": 7}]
    text = row_text(command, events, 41, rng)
    source = _source_text(Source("phone", player="Zoë"))
    whole = _row_crc(12, 1_800_000_000.123456, "command", None, source,
                     json.dumps(command, ensure_ascii=False, separators=(",", ":")),
                     json.dumps(events, ensure_ascii=False, separators=(",", ":")), 41,
                     None if rng is None else str(rng))
    assert _row_crc_of(12, 1_800_000_000.123456, "command", None, source, text) == whole
    assert _row_crc_of(12, 1_800_000_000.123457, "command", None, source, text) != whole
