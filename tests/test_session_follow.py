"""The session's followers (GameSession.follow, issue 25): told where the players stand when
they start following, then after every change on the writer's thread before the change is
answered (so a read right after the answer, from any thread, finds it), `fresh` for a game
dealt; a follower that fails does not stop the game."""

from __future__ import annotations

import threading
from pathlib import Path

from companion.game.api import Source, Standing
from companion.game.session import GameSession
from companion.rules import net_worth

TABLE = Source("script", banker=True)


def test_a_follower_has_every_change_before_its_answer(tmp_path: Path) -> None:
    told: list[tuple[Standing, str]] = []
    with GameSession.open(tmp_path / "game") as session:
        remove = session.follow(lambda s: told.append((s, threading.current_thread().name)))
        # no game yet; the saved game's id said with every standing
        assert [s for s, _ in told] == [Standing(0, 0, (), (), game=session.game_id)]
        out = session.submit({"do": "new_game", "edition": "classic-eur",
                              "players": ["Ann", "Bo"], "seed": 3}, TABLE)
        assert out.accepted
        dealt, thread = told[-1]  # there as the answer came: no wait on any listener
        assert dealt.fresh and dealt.version == out.version and thread == \
            f"session-{session.game_id}"
        assert dealt.players == ("Ann", "Bo") and dealt.worth == (1500, 1500)
        out = session.submit({"do": "pay", "from": "Ann", "to": "Bo", "amount": 30}, TABLE)
        paid = told[-1][0]
        g = session.game_state()
        assert g is not None
        assert paid == Standing(out.version, g.turn_number, ("Ann", "Bo"),
                                (net_worth(g, 0), net_worth(g, 1)), game=session.game_id)
        assert paid.worth == (1470, 1530) and not paid.fresh
        out = session.undo(TABLE)
        assert told[-1][0].version == out.version and told[-1][0].worth == (1500, 1500)
        remove()
        assert session.submit({"do": "pay", "from": "Ann", "to": "Bo", "amount": 1},
                              TABLE).accepted
        assert told[-1][0].version == out.version  # removed: told no more


def test_a_failing_follower_does_not_stop_the_game(tmp_path: Path) -> None:
    with GameSession.open(tmp_path / "game") as session:
        calls: list[int] = []

        def broken(standing: Standing) -> None:
            calls.append(standing.version)
            raise RuntimeError("a face's bug")

        session.follow(broken)
        out = session.submit({"do": "new_game", "edition": "classic-eur",
                              "players": ["Ann", "Bo"], "seed": 3}, TABLE)
        assert out.accepted and calls == [0, out.version]
        assert session.submit({"do": "pay", "from": "Ann", "to": "Bo", "amount": 1},
                              TABLE).accepted
        assert len(calls) == 3
