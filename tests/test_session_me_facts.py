"""The session's answer for every player at once (`me_facts`, what the remote asks after
each move to tell the phones whose Me page changed, issue 28) is, player by player, what
the per-player questions answer: `news_summary(p)`, and whether `undo_refusal` of p's own
phone is None. Checked after every step of a game played by the bots from the players'
phones, with payments between them, undos and redos from phones and from the banker, and
news marked seen; and the row the writer keeps for the undo question is the journal's."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from companion.bots import Bots
from companion.game.api import MeFacts, Source
from companion.game.authority import actor_field
from companion.game.replaying import command_dict
from companion.game.session import GameSession
from companion.game.switch import SessionHolder

PLAYERS = ("Ann", "Bo", "Cy", "Di")
TABLE = Source("script", banker=True)
#: one name that is no player's: asked for, it gets a player's answer of nobody's news
STRANGER = "Zed"


def phone(player: str) -> Source:
    return Source("phone", player=player)


def one_by_one(session: Any, players: tuple[str, ...]) -> MeFacts:
    """What the per-player questions answer, put in the batched answer's form."""
    return MeFacts({p: session.news_summary(p) for p in players},
                   frozenset(p for p in players if session.undo_refusal(phone(p)) is None))


def send(session: GameSession, command: dict[str, Any]) -> bool:
    """From the phone of the player it acts for when it names one (else the banker's
    script); the banker's script when the phone may not send it."""
    actor = command.get(actor_field(str(command.get("do"))))
    if isinstance(actor, str) and session.submit(command, phone(actor)).accepted:
        return True
    return session.submit(command, TABLE).accepted


def test_the_answer_for_all_is_each_ones_answer_through_a_played_game(tmp_path: Path) -> None:
    rng = random.Random(28)
    asked = (*PLAYERS, STRANGER)
    seen = {"some_may_undo": 0, "none_may_undo": 0, "after_undo": 0, "after_redo": 0,
            "after_jump": 0, "unseen_news": 0, "payee_only": 0}
    with GameSession.open(tmp_path / "game") as session:
        assert session.me_facts(asked) == one_by_one(session, asked)  # before any game
        assert send(session, {"do": "new_game", "edition": "classic-eur",
                              "players": list(PLAYERS), "seed": 11})
        bots = Bots()
        last = ""
        for step in range(260):
            state = session.game_state()
            assert state is not None
            if state.winner >= 0:
                break
            roll = rng.random()
            if last == "undo" and roll < 0.4:  # the move undone brought back
                last = "redo" if session.redo(TABLE).accepted else ""
            elif roll < 0.12:  # a payment from a player's phone: the payee's to give back
                payer, payee = rng.sample([p.name for p in state.players
                                           if not p.bankrupt], 2)
                last = "pay" if session.submit({"do": "pay", "from": payer, "to": payee,
                                                "amount": 1}, phone(payer)).accepted else ""
            elif roll < 0.22:  # an undo by whoever may (a phone that may, else the banker)
                undoers = session.me_facts(PLAYERS).undoers
                who = phone(sorted(undoers)[0]) if undoers else TABLE
                last = "undo" if session.undo(who).accepted else ""
            elif roll < 0.25:  # the banker, on a player's phone, goes back a few moves:
                # the banker's alone to undo, though that player's phone sent it
                rows = [e["seq"] for e in session.history(None, 6)
                        if e["kind"] == "command" and not e["undone"]]
                banker = Source("phone", player=rng.choice(PLAYERS), banker=True)
                last = "jump" if len(rows) > 2 and session.undo_to(rows[0], banker).accepted \
                    else ""
            elif roll < 0.30:  # a player saw their news on their phone
                player = rng.choice(PLAYERS)
                keys = [item["key"] for item in session.news(player)[:2]]
                if keys:
                    assert session.mark_seen(keys, phone(player)).accepted
                last = "seen"
            else:
                assert send(session, command_dict(bots.choose(state))), step
                last = "move"
            facts = session.me_facts(asked)
            assert facts == one_by_one(session, asked), (step, last)
            assert STRANGER not in facts.undoers and facts.news[STRANGER] == (0, None, None)
            if facts.undoers:
                seen["some_may_undo"] += 1
            else:
                seen["none_may_undo"] += 1
            if last == "pay" and facts.undoers:
                assert len(facts.undoers) == 1  # the payee alone, not the payer
                seen["payee_only"] += 1
            seen["after_undo"] += last == "undo"
            seen["after_redo"] += last == "redo"
            seen["after_jump"] += last == "jump"
            seen["unseen_news"] += any(n[0] for n in facts.news.values())
        # the game went through every case the remote judges
        assert all(count >= 3 for count in seen.values()), seen


def test_the_row_the_writer_keeps_is_the_journals(tmp_path: Path) -> None:
    """The undo question reads the newest row from what the writer kept, not the journal:
    the same row, field for field, for a move, an undo and a redo."""
    with GameSession.open(tmp_path / "game") as session:
        assert send(session, {"do": "new_game", "edition": "classic-eur",
                              "players": list(PLAYERS), "seed": 11})
        bots = Bots()
        for _ in range(12):
            state = session.game_state()
            assert state is not None
            assert send(session, command_dict(bots.choose(state)))
        assert session.undo(TABLE).accepted
        assert session.redo(TABLE).accepted
        kept = dict(session._entries)
        journal = session._journal
        assert len(kept) >= 3
        for seq, entry in kept.items():
            assert entry == next(iter(journal.entries(after=seq - 1, upto=seq))), seq
            assert entry.events_json() == next(iter(journal.entries(after=seq - 1,
                                                                    upto=seq))).events_json()


def test_the_holder_answers_for_the_game_in_play(tmp_path: Path) -> None:
    holder = SessionHolder(tmp_path / "data")
    try:
        assert holder.submit({"do": "new_game", "edition": "classic-eur",
                              "players": ["Ann", "Bo"], "seed": 2}, TABLE).accepted
        assert holder.submit({"do": "pay", "from": "Ann", "to": "Bo", "amount": 5},
                             phone("Ann")).accepted
        facts = holder.me_facts(("Ann", "Bo"))
        assert facts == one_by_one(holder, ("Ann", "Bo"))
        assert facts.undoers == {"Bo"}
    finally:
        holder.close()
