"""Each person's news stays on their phone until they have seen it (companion.game.telling.seen,
GameSession.news and mark_seen): kept per player beside the journal through a restart, a
damaged or missing file means nothing seen, an undone move's news goes and a redo brings it
back unseen unless it was seen, and only the player's own phone marks it, a whole request or
nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_fakes import TABLE, open_real_session, play

from companion.game.api import Source
from companion.game.saved_games import DataDirLock, delete_game
from companion.game.session import GameSession
from companion.game.telling.seen import SUFFIX, move_news, news_items

ANN = Source(kind="phone", player="Ann")
BO = Source(kind="phone", player="Bo")


def turn(game: Any, dice: list[int]) -> None:
    """The current player rolls (no doubles), draws their card, buys what they land on, and
    ends the turn."""
    play(game, {"do": "roll", "dice": dice})
    for _ in range(6):
        legal = {c["do"] for c in game.state()["legal"]}
        if "buy" in legal:
            play(game, {"do": "buy"})
        elif "draw" in legal:
            play(game, {"do": "draw"})
        elif "end_turn" in legal:
            play(game, {"do": "end_turn"})
            return
        else:
            raise AssertionError(f"no way on from {sorted(legal)}")
    raise AssertionError("the turn does not end")


def rent_paid(game: Any) -> str:
    """Ann buys Rue Lecourbe, Bo lands on it and pays her € 4: the key of that news."""
    play(game, {"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
         {"do": "roll", "dice": [1, 2]})
    rent = [i for i in game.news("Ann") if i["event"].get("reason") == "rent"]
    assert len(rent) == 1 and rent[0]["event"]["from"] == "Bo"
    return str(rent[0]["key"])


def keys(game: Any, player: str) -> list[str]:
    return [str(i["key"]) for i in game.news(player)]


def test_news_stays_until_seen_and_the_marks_survive_a_restart(tmp_path: Path) -> None:
    game = open_real_session(tmp_path / "game")
    try:
        rent = rent_paid(game)
        play(game, {"do": "end_turn"})
        for _round in range(3):  # three whole rounds later Ann has still not looked
            for dice in ([2, 4], [1, 3], [2, 5]):
                turn(game, dice)
        assert rent in keys(game, "Ann") and rent in keys(game, "Bo")
        version = game.version
        out = game.mark_seen([rent], ANN)
        assert out.accepted and out.version == version  # not a move
        assert rent not in keys(game, "Ann")
        assert rent in keys(game, "Bo")  # Bo's news is Bo's: he has not seen his payment
    finally:
        game.close()
    assert list((tmp_path / "game").rglob(f"*{SUFFIX}"))  # kept beside the journal
    with GameSession.open(tmp_path / "game") as again:
        assert rent not in keys(again, "Ann") and rent in keys(again, "Bo")


def test_a_damaged_or_missing_file_means_nothing_seen_yet(tmp_path: Path) -> None:
    game = open_real_session(tmp_path / "game")
    try:
        rent = rent_paid(game)
        assert game.mark_seen(keys(game, "Ann"), ANN).accepted
        assert keys(game, "Ann") == []
    finally:
        game.close()
    [marks] = (tmp_path / "game").rglob(f"*{SUFFIX}")
    for damage in ('{"seen": {"Ann": ["3:x"]}}', "{not json", '["3:0"]', ""):
        marks.write_text(damage)
        with GameSession.open(tmp_path / "game") as again:
            assert rent in keys(again, "Ann")
    marks.unlink()
    with GameSession.open(tmp_path / "game") as again:
        assert rent in keys(again, "Ann")
        assert again.mark_seen([rent], ANN).accepted  # and the file is written afresh
    with GameSession.open(tmp_path / "game") as again:
        assert rent not in keys(again, "Ann")


def test_undo_takes_the_news_away_and_a_redo_brings_back_only_what_was_unseen(
        tmp_path: Path) -> None:
    game = open_real_session(tmp_path / "game")
    try:
        rent = rent_paid(game)
        assert game.undo(TABLE).accepted  # Bo's roll taken back: no rent, no news
        assert rent not in keys(game, "Ann") and rent not in keys(game, "Bo")
        assert game.mark_seen([rent], ANN).code == "not_news"
        assert game.redo(TABLE).accepted  # the same roll again: the same news, unseen
        assert rent in keys(game, "Ann") and rent in keys(game, "Bo")
        assert game.mark_seen([rent], ANN).accepted
        assert game.undo(TABLE).accepted and game.redo(TABLE).accepted
        assert rent not in keys(game, "Ann")  # seen before the undo: still seen
        assert rent in keys(game, "Bo")
        play(game, {"do": "end_turn"})
        back = int(rent.split(":")[0]) - 1  # the banker goes back to before Bo's roll
        assert game.undo_to(back, TABLE).accepted
        assert rent not in keys(game, "Bo")
        assert game.undo(TABLE).accepted  # the jump undone: the moves and their news return
        assert rent in keys(game, "Bo") and rent not in keys(game, "Ann")
    finally:
        game.close()


def test_only_the_players_own_phone_marks_and_a_bad_request_changes_nothing(
        tmp_path: Path) -> None:
    game = open_real_session(tmp_path / "game")
    try:
        rent = rent_paid(game)
        before = keys(game, "Ann")
        refused = {
            "not_a_player": [(TABLE, [rent]), (Source(kind="phone", banker=True), [rent]),
                             (Source(kind="rfid", player="Ann"), [rent])],
            "bad_request": [(ANN, []), (ANN, "3:0"), (ANN, [rent, rent]), (ANN, [3]),
                            (ANN, ["x"]), (ANN, None), (ANN, [rent] * 600)],
            "not_news": [(ANN, [rent, "999:0"]), (BO, [before[-1]])],  # Ann's start cash
        }
        for code, cases in refused.items():
            for source, sent in cases:
                out = game.mark_seen(sent, source)
                assert not out.accepted and out.code == code, (source, sent, out)
                assert keys(game, "Ann") == before
        assert game.mark_seen([rent], ANN).accepted
        again = game.mark_seen([rent], ANN)  # the same request replayed
        assert not again.accepted and again.code == "already_seen"
        assert game.mark_seen([rent, before[-1]], ANN).code == "already_seen"
        assert keys(game, "Ann") == [k for k in before if k != rent]  # the whole refused
    finally:
        game.close()


def test_a_new_game_starts_the_news_afresh() -> None:
    paid = {"kind": "transfer", "from": "Bo", "to": "Ann", "amount": 8, "reason": "rent"}
    dealt = {"kind": "game_started", "edition": "classic-eur", "players": ["Ann", "Bo"]}
    jailed = {"kind": "jailed", "player": "Ann"}
    found = news_items([move_news(3, [paid]), move_news(9, [dealt, jailed]),
                        move_news(11, [{"kind": "redone", "seq": 4}, paid])])
    assert [i["key"] for i in found["Ann"]] == ["9:1", "11:0"]
    assert [i["key"] for i in found["Bo"]] == ["11:0"]


def test_deleting_a_saved_game_deletes_its_news_marks(tmp_path: Path) -> None:
    game = open_real_session(tmp_path / "game")
    try:
        rent_paid(game)
        assert game.mark_seen(keys(game, "Ann"), ANN).accepted
        gid = game.game_id
    finally:
        game.close()
    [marks] = (tmp_path / "game").rglob(f"*{SUFFIX}")
    lock = DataDirLock(tmp_path / "game").acquire()
    try:
        delete_game(tmp_path / "game", gid)
    finally:
        lock.release()
    assert not marks.exists()
