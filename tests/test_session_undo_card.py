"""An undo goes back to the card that was news in the state it goes back to, as the journal
says it, without reading the journal's recent rows again when the session had that state
(issue 28: reading them was 5 ms of an UNDO press's first frame here, a Zero 2 W's 70)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.session import GameSession
from tools.bench.journal import bot_script

BANKER = Source("script", banker=True)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the session's reads of the card from the journal (`_card_in_force`)."""
    reads: list[int] = []
    real = GameSession._card_in_force

    def counted(self: GameSession) -> Any:
        reads.append(1)
        return real(self)

    monkeypatch.setattr(GameSession, "_card_in_force", counted)
    return reads


def test_an_undo_goes_back_to_the_card_of_its_state(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """After every command of a bot game: one undo, or two, then as many redos; after each,
    the card that is news in the state JSON is the journal's (the way it was read before),
    and no undo read it from the journal. A session opened again has only its last row's
    card: an undo of an older state reads the journal, and is right too."""
    truth = GameSession._card_in_force
    reads = _counting(monkeypatch)
    script = bot_script(seed=11, count=260)
    undone_with_a_card = 0
    session = GameSession.open(tmp_path)
    try:
        for i, command in enumerate(script):
            assert session.submit(command, BANKER).accepted
            if i == 0:
                continue
            depth = 2 if i % 5 == 0 else 1
            for _ in range(depth):
                before = len(reads)
                assert session.undo(BANKER).accepted
                assert len(reads) == before, "an undo read the card from the journal"
                card = session.state().get("card_news")
                assert card == truth(session), i
                undone_with_a_card += card is not None
            for _ in range(depth):
                assert session.redo(BANKER).accepted
                assert session.state().get("card_news") == truth(session), i
            if i == 130:  # opened again: the undo of an older state reads the journal
                session.close()
                session = GameSession.open(tmp_path)
                before = len(reads)
                assert session.undo(BANKER).accepted and session.undo(BANKER).accepted
                assert len(reads) > before
                assert session.state().get("card_news") == truth(session)
                assert session.redo(BANKER).accepted and session.redo(BANKER).accepted
    finally:
        session.close()
    assert undone_with_a_card >= 5, undone_with_a_card
