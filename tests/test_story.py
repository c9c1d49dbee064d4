"""The game's story against a scripted game whose figures are worked out by hand here:
net worth at each turn, rent per property and per group, squares landed on, the biggest
trade, auctions, time played; undone moves and a jump back leave no trace; saved beside
the journal once the game is over."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.saved_games import journal_path
from companion.game.session import GameSession
from companion.game.telling.story import Story, WorthPoint, read, story_path

BANKER = Source("script", banker=True)
NEW = {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"], "seed": 5}
SCRIPT: list[dict[str, Any]] = [
    # turn 1, Ann: 1 + 2 to Rue Lecourbe (3, brown, € 60), bought: 1 440 cash + 60 deed
    {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
    # turn 2, Bo: 1 + 2 to Rue Lecourbe, rent € 4 (one brown deed, no house) to Ann
    {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"},
    # turn 3, Ann: 2 + 3 to Rue de Courcelles (8, light blue, € 100), declined; Bo wins the
    # auction for € 50: Bo 1 496 - 50 + 100 = 1 546
    {"do": "roll", "dice": [2, 3]}, {"do": "decline"}, {"do": "bid", "by": "Bo", "amount": 50},
    {"do": "close_auction"}, {"do": "end_turn"},
    # turn 4, Bo: 2 + 3 to his own Rue de Courcelles
    {"do": "roll", "dice": [2, 3]}, {"do": "end_turn"},
    # turn 5, Ann: sells Rue Lecourbe (€ 60) to Bo for € 100 (value 160), Bo gives € 20
    {"do": "trade", "from": "Ann", "to": "Bo", "give": {"cash": 0, "squares": [3], "cards": 0},
     "take": {"cash": 100, "squares": [], "cards": 0}},
    {"do": "trade", "from": "Bo", "to": "Ann", "give": {"cash": 20, "squares": [], "cards": 0},
     "take": {"cash": 0, "squares": [], "cards": 0}},
    # then 3 + 4 to Gare de Lyon (15)
    {"do": "roll", "dice": [3, 4]},
]


class Clock:
    """A minute passes with every journal row."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        self.now += 60
        return self.now


@pytest.fixture
def session(tmp_path: Path) -> Iterator[GameSession]:
    with GameSession.open(tmp_path, clock=Clock()) as s:
        s.auction_seconds = None  # the script's banker closes the auction, no clock does
        yield s


def play(s: GameSession, commands: list[dict[str, Any]]) -> None:
    for command in commands:
        out = s.submit(command, BANKER)
        assert out.accepted, (command, out)


def told_json(s: GameSession) -> dict[str, Any]:
    """The session's story record as its saved JSON, to compare figures whole."""
    told = s.story()
    assert told is not None
    return told.to_json()


def test_the_scripted_games_figures(session: GameSession) -> None:
    play(session, [NEW, *SCRIPT])
    story = told_json(session)
    assert story["players"] == ["Ann", "Bo"] and story["edition"] == "classic-eur"
    assert story["turns"] == 5 and story["moves"] == 1 + len(SCRIPT)
    assert story["seconds"] == len(SCRIPT) * 60 and not story["over"]
    assert [(p["turn"], p["worth"]) for p in story["worth"]] == [
        (1, [1500, 1500]), (2, [1500, 1500]), (3, [1504, 1496]), (4, [1504, 1546]),
        (5, [1504, 1546]),
        (5, [1504 - 60 + 100 + 20, 1546 + 60 - 100 - 20])]  # the end: after the trades
    assert [(f["square"], f["amount"], f["owner"]) for f in story["rent_by_square"]] == \
        [(3, 4, "Ann")]
    assert story["rent_by_group"] == [{"group": "brown", "amount": 4}]
    assert [(f["square"], f["count"]) for f in story["landed"]] == [(3, 2), (8, 2), (15, 1)]
    trade = story["biggest_trade"]
    assert (trade["giver"], trade["receiver"], trade["give_squares"], trade["take_cash"],
            trade["value"]) == ("Ann", "Bo", [3], 100, 160)
    assert story["trades"] == 2
    assert [(a["square"], a["winner"], a["amount"]) for a in story["auctions"]] == \
        [(8, "Bo", 50)]


def test_undone_moves_and_a_jump_back_leave_no_trace(session: GameSession) -> None:
    play(session, [NEW, *SCRIPT[:5]])  # to Bo's rent and his end of turn
    told = told_json(session)
    # Ann's next roll (2 + 3) and an auction, then the banker goes back before them
    keep = session.history(limit=1)[-1]["seq"]
    play(session, SCRIPT[5:10])
    assert told_json(session)["auctions"]
    assert session.undo_to(keep, Source("phone", player="Bo", banker=True)).accepted
    back = told_json(session)
    assert back == {**told, "ended": back["ended"], "seconds": back["seconds"]}
    # a rent paid and then undone is not counted either
    play(session, [{"do": "roll", "dice": [1, 2]}])  # Ann lands on her own Rue Lecourbe
    assert session.undo(BANKER).accepted
    assert told_json(session)["rent_by_square"][0]["amount"] == 4


def test_the_finished_games_story_is_saved_beside_its_journal(session: GameSession,
                                                               tmp_path: Path) -> None:
    play(session, [NEW, *SCRIPT, {"do": "end_game"}])
    story = told_json(session)
    assert story["over"] and story["winner"] == "Ann"
    saved = story_path(journal_path(tmp_path, session.game_id))
    assert json.loads(saved.read_text(encoding="utf-8")) == story


def test_only_the_game_in_play_is_told(session: GameSession) -> None:
    assert session.story() is None
    play(session, [NEW, *SCRIPT[:3], {**NEW, "players": ["Cy", "Di"]}])
    story = told_json(session)
    assert story["players"] == ["Cy", "Di"] and story["moves"] == 1
    assert story["rent_by_square"] == [] and story["biggest_trade"] is None


@pytest.mark.parametrize("edition", ["ch", "classic-en", "classic-eur", "mega", "pl",
                                     "ru-monopolist", "sv"])
def test_a_bot_game_of_every_edition_is_told_whole(edition: str) -> None:
    """Every rent paid is counted once, on a square that can be owned (a debt paid after
    Mr. Monopoly moved the payer on included), and the story ends at the final worth."""
    from companion.bots import Bots
    from companion.game.applying import apply_command
    from companion.game.journal import Entry
    from companion.game.replaying import command_dict, resolve
    from companion.game.telling.story import tell
    from companion.rules import Accepted, net_worth
    from companion.rules.events import Transfer

    command = {"do": "new_game", "edition": edition, "players": ["A", "B", "C", "D"],
               "seed": 1}
    result = apply_command(None, command)
    assert isinstance(result, Accepted)
    g = result.state
    entries = [Entry(1, 0.0, "command", None, BANKER, command, result.events, g.version)]
    bots = Bots()
    while g.winner < 0 and len(entries) < 3000:
        sent = command_dict(bots.choose(g))
        result = apply_command(g, sent)
        assert isinstance(result, Accepted), sent
        resolved, rng = resolve(sent, g, result)
        entries.append(Entry(len(entries) + 1, float(len(entries)), "command", None, BANKER,
                             resolved, result.events, result.state.version, rng))
        g = result.state
    story = tell(entries)
    assert story is not None and story.over and story.winner == g.players[g.winner].name
    paid = sum(e.amount for entry in entries for e in entry.events
               if isinstance(e, Transfer) and e.reason == "rent" and e.to)
    assert paid > 0 and sum(f.amount for f in story.rent_by_square) == paid
    assert sum(f.amount for f in story.rent_by_group) == paid
    ownable = {sq.index for sq in g.edition.squares if sq.price > 0}
    assert {f.square for f in story.rent_by_square} <= ownable
    assert story.worth[-1].worth == tuple(net_worth(g, i) for i in range(len(g.players)))
    assert story.moves == len(entries)


def test_the_faces_read_the_story_as_its_typed_record(session: GameSession,
                                                      tmp_path: Path) -> None:
    """The session hands the faces the Story record, the same one per version; the saved
    file reads back to that very record; the time played and the end's worths are the
    record's."""
    play(session, [NEW, *SCRIPT, {"do": "end_game"}])
    told = session.story()
    assert isinstance(told, Story) and session.story() is told
    raw = told.to_json()
    saved = story_path(journal_path(tmp_path, session.game_id))
    assert read(json.loads(saved.read_text(encoding="utf-8"))) == told
    assert told.winner == "Ann" and told.over and told.players == ("Ann", "Bo")
    assert told.clock == f"{raw['seconds'] // 3600}:{raw['seconds'] % 3600 // 60:02d}"
    assert told.final == tuple(zip(raw["players"], raw["worth"][-1]["worth"], strict=True))
    assert told.series()[0] == {"Ann": 1500, "Bo": 1500}
    assert told.biggest_trade is not None and told.biggest_trade.give_squares == (3,)
    assert [(a.square, a.winner, a.amount) for a in told.auctions] == [(8, "Bo", 50)]
    assert read(None) is None


def test_a_malformed_story_gives_a_record_with_its_defaults() -> None:
    """A saved story from another build (a figure missing, a wrong type) is read, not a
    crash: what it lacks is empty."""
    told = Story.of({"players": ["Ann", 7], "seconds": "long", "worth": [{"turn": 2},
                     "x"], "rent_by_square": [{"square": 3, "amount": None}],
                     "biggest_trade": "none", "auctions": [{"square": "5", "winner": 3}]})
    assert told.players == ("Ann", "7") and told.seconds == 0 and told.clock == "0:00"
    assert told.worth == (WorthPoint(2, ()),) and told.final == ()
    assert told.rent_by_square[0].amount == 0 and told.biggest_trade is None
    assert told.auctions[0].square is None and told.auctions[0].winner is None
