"""The engine's hot paths read no enum member through its class: such a read
(`SquareKind.LOT`, `Verb.BUY`) goes through EnumType's `__getattr__` hook, a call of about
0.13 µs in plain Python, and once cost 6.7 of them a player turn and 240 a public state
(docs/bench.md, "The plain engine against the peer, fifth pass"). The hot paths compare
with module constants (`edition.KIND_LOT`, the bots' verbs). Counted reads, not time."""

from __future__ import annotations

import enum
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.bots import Bots, play_bot_game
from companion.game.applying import apply_command, state_json
from companion.game.session import GameSession
from companion.rules import Accepted, GameState, apply


@contextmanager
def member_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every public attribute read through an enum class while the block runs, by name."""
    reads: list[str] = []
    plain = type.__getattribute__

    def counting(cls: type, name: str) -> object:
        if not name.startswith("_"):
            reads.append(f"{cls.__name__}.{name}")
        return plain(cls, name)

    with monkeypatch.context() as patch:
        patch.setattr(enum.EnumType, "__getattribute__", counting)
        yield reads


def test_the_counter_sees_a_read_through_the_class(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.rules.edition import SquareKind

    with member_reads(monkeypatch) as reads:
        assert SquareKind.LOT.value == "lot"
    assert reads == ["SquareKind.LOT"]


def test_a_player_turn_reads_almost_no_enum_member(monkeypatch: pytest.MonkeyPatch) -> None:
    play_bot_game(0)  # the edition loaded and the bots' tables built outside the count
    with member_reads(monkeypatch) as reads:
        turns = sum(play_bot_game(seed)[1] for seed in range(3))
    assert turns > 300
    # 0.25 a turn now (the bots learning each new game's board); 6.7 before
    assert len(reads) / turns < 1.0, sorted(set(reads))


def _mid_game(seed: int, commands: int = 250) -> GameState:
    r = apply_command(None, {"do": "new_game", "edition": "classic-eur",
                             "players": ["P1", "P2", "P3", "P4"], "seed": seed})
    assert isinstance(r, Accepted)
    g, bots = r.state, Bots()
    for _ in range(commands):
        if g.winner >= 0:
            break
        step = apply(g, bots.choose(g))
        assert isinstance(step, Accepted)
        g = step.state
    return g


def test_the_public_state_reads_few_enum_members(monkeypatch: pytest.MonkeyPatch) -> None:
    states = [_mid_game(seed) for seed in range(3)]
    state_json(states[0])
    with member_reads(monkeypatch) as reads:
        for g in states:
            state_json(g)
    # about 0.6 a state now (over 1 380 states of 18 games: the verbs of a pending decision,
    # rarer refusals); 44 before issue 28's session round, the refusal codes of the
    # refusals legal_commands builds (CODE_* now), and 240 before that, nearly all
    # SquareKind.LOT for the lots a won building may go on
    assert "SquareKind.LOT" not in reads
    assert "Code.NO_MONOPOLY" not in reads
    assert len(reads) / len(states) < 5, sorted(set(reads))


def test_a_command_through_the_session_reads_no_enum_member(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole per-command path of `companion run` with the phone remote attached: the
    command's JSON read by `parse_command`, the engine, the journal, the public state with
    its refusals, and the remote's listener (the lessons, the chart, the streams)."""
    from tools.bench.journal import BOT, bot_script
    from web_remote.app import create_app

    with GameSession.open(tmp_path) as session:
        app = create_app(session, tmp_path, {})
        try:
            remote = app.extensions["web_remote"].session
            for command in bot_script(5, 150, players=6):
                assert remote.submit(command, BOT).accepted
            told = threading.Event()
            session.add_listener(lambda _u: told.set())  # after the remote's own
            seated = [p["name"] for p in session.state()["players"] if not p["bankrupt"]]
            assert len(seated) >= 2
            payments = 12
            with member_reads(monkeypatch) as reads:
                for i in range(payments):
                    told.clear()
                    out = remote.submit({"do": "pay", "from": seated[i % len(seated)],
                                         "to": seated[(i + 1) % len(seated)], "amount": 1},
                                        BOT)
                    assert out.accepted, out.message
                    assert told.wait(10)
        finally:
            app.extensions["web_remote"].close()
    # none now; 84 a payment before (an 8-player game 400 commands in): Code.NO_MONOPOLY
    # for every lot legal_commands asks about, SquareKind.LOT in the lessons, the verbs of
    # parse_command's chain
    assert len(reads) / payments < 1.0, sorted(set(reads))
