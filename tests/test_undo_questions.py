"""UNDO names the move it takes back: the session says which journal entry an undo would
revert (`undo_target`), and companion.words.undo_questions asks about it in every language of the
one catalog the screen and the phones read, with names, squares and money of the edition."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.game.api import Source
from companion.game.applying import apply_command, state_json
from companion.game.session import GameSession
from companion.game.switch import SessionHolder
from companion.game.table.records import Setup
from companion.rules import Accepted
from companion.rules.commands import Verb
from companion.words import catalog as i18n
from companion.words.undo_questions import describe_undo, question
from companion.words.undo_texts import QUESTIONS

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "tests" / "data" / "games").glob("*.jsonl"))
TABLE = Source("script", banker=True)
GENERIC = {"undo_last", "undo_last_player"}


def english(_context: str, text: str) -> str:
    return text


def entries_of(script: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(entry, state after it) for every command of a golden game, by the engine alone."""
    state = None
    out = []
    for line in script.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        command = json.loads(line)
        result = apply_command(state, command)
        assert isinstance(result, Accepted), (script.name, line)
        state = result.state
        out.append(({"command": command, "events": result.events_json()}, state_json(state)))
    return out


def test_every_verb_of_the_engine_has_its_own_question() -> None:
    asked = {msg_id.removeprefix("undo_") for msg_id in QUESTIONS}
    missing = [verb.value for verb in Verb
               if not any(a == verb.value or a.startswith(f"{verb.value}_") for a in asked)]
    assert missing == []


@pytest.mark.parametrize("script", GAMES, ids=lambda p: p.stem)
def test_every_move_of_the_golden_games_is_named(script: Path) -> None:
    """Each command of the golden games gets its own question (never the generic one), in
    every language, every field filled."""
    seen: set[str] = set()
    for entry, state in entries_of(script):
        msg_id, fields = question(entry, Setup.of(state), "en", english)
        assert msg_id not in GENERIC, entry
        assert msg_id.startswith("undo_" + entry["command"]["do"]), (msg_id, entry)
        seen.add(msg_id)
        for lang in i18n.LANGUAGES:
            said = describe_undo(entry, Setup.of(state), lang, i18n.translator(lang).pgettext)
            assert "{" not in said and said.endswith("?"), (lang, said)
            if lang == "en":
                assert said == QUESTIONS[msg_id].text.format(**fields)
    assert len(seen) >= 4


SV_STATE = {"edition": "sv", "currency": dict(i18n.edition_data("sv")["currency"])}


@pytest.mark.parametrize(("entry", "asked"), [
    ({"command": {"do": "buy"}, "events": [
        {"kind": "transfer", "from": "Åsa", "to": None, "amount": 8000, "reason": "purchase"},
        {"kind": "bought", "player": "Åsa", "square": 39, "price": 8000}]},
     "Undo: Åsa bought Norrmalmstorg?"),
    ({"command": {"do": "roll", "by": "Bo", "dice": [3, 4, "mr_monopoly"]}, "events": [
        {"kind": "rolled", "player": "Bo", "dice": [3, 4, "mr_monopoly"], "double": False}]},
     "Undo Bo's roll (3 + 4 + Mr. Monopoly)?"),
    ({"command": {"do": "bid", "by": "Bo", "amount": 2600},
      "events": [{"kind": "bid", "player": "Bo", "amount": 2600}]},
     "Undo Bo's bid of Kr 2 600?"),
    ({"command": {"do": "pay", "from": "Åsa", "to": "bank", "amount": 400},
      "events": [{"kind": "transfer", "from": "Åsa", "to": None, "amount": 400,
                  "reason": "payment"}]},
     "Undo Åsa's payment of Kr 400 to the bank?"),
    ({"command": {"do": "pay", "from": "bank", "to": "Bo", "amount": 400},
      "events": [{"kind": "transfer", "from": None, "to": "Bo", "amount": 400,
                  "reason": "payment"}]},
     "Undo the bank's payment of Kr 400 to Bo?"),
    ({"command": {"do": "pay", "from": "Åsa", "to": "Bo", "amount": 50},
      "events": [{"kind": "transfer", "from": "Åsa", "to": "Bo", "amount": 50,
                  "reason": "payment"}]},
     "Undo the payment of Kr 50 from Åsa to Bo?"),
    ({"command": {"do": "pay", "from": "Åsa", "to": "pot", "amount": 50},
      "events": [{"kind": "transfer", "from": "Åsa", "to": "pot", "amount": 50,
                  "reason": "payment"}]},
     "Undo Åsa's payment of Kr 50 into the Free Parking pot?"),
    ({"command": {"do": "end_turn"}, "events": [{"kind": "turn", "player": "Bo", "number": 4}]},
     "Undo passing the dice to Bo?"),
    ({"command": {"do": "close_auction"}, "events": [
        {"kind": "auction_closed", "square": 9, "winner": "Bo", "amount": 2200}]},
     "Undo: Bo won Ringvägen for Kr 2 200?"),
    ({"command": {"do": "close_auction"}, "events": [
        {"kind": "auction_closed", "building": "house", "winner": None, "amount": 0}]},
     "Undo the end of the auction?"),
    ({"command": {"do": "trade", "from": "Åsa", "to": "Bo"}, "events": [
        {"kind": "traded", "from": "Åsa", "to": "Bo",
         "give": {"cash": 0, "cards": 1, "squares": []},
         "take": {"cash": 100, "cards": 0, "squares": []}}]},
     "Undo the trade between Åsa and Bo?"),
    ({"command": {"do": "auction_building", "building": "hotel"}, "events": []},
     "Undo the auction of a hotel?"),
    ({"command": {"do": "choose_gift", "by": "Bo", "gift": "money"}, "events": [
        {"kind": "transfer", "from": None, "to": "Bo", "amount": 100, "reason": "birthday_gift"}]},
     "Undo: Bo took Kr 100 as a birthday gift?"),
    ({"command": {"do": "new_game", "edition": "sv", "players": ["Åsa", "Bo"]},
      "events": [{"kind": "game_started", "edition": "sv", "players": ["Åsa", "Bo"]}]},
     "Undo the new game and bring back the previous one?"),
    # the facts are missing: the plainer questions, never a template or an exception
    ({"command": {"do": "buy", "by": "Bo"}, "events": []}, "Undo Bo's last move?"),
    ({"command": {"do": "bid", "by": "Bo"}, "events": [{"kind": "bid", "amount": "lots"}]},
     "Undo Bo's last move?"),
    ({"command": {"do": "future_verb"}, "events": [], "source": {"player": "Cy"}},
     "Undo Cy's last move?"),
    ({"command": {"do": "future_verb"}, "events": []}, "Undo the last move?"),
    (None, "Undo the last move?"),
])
def test_questions_name_the_move_with_its_facts(entry: dict[str, Any] | None,
                                                asked: str) -> None:
    said = describe_undo(entry, Setup.of(SV_STATE), "en", english)
    assert said.replace(i18n.NBSP, " ") == asked


@pytest.mark.parametrize(("lang", "asked"), [
    ("sv", "Ångra: Åsa köpte Norrmalmstorg?"),
    ("fr", "Annuler : Åsa a acheté Norrmalmstorg ?"),
    ("de", "Rückgängig: Åsa kaufte Norrmalmstorg?"),
    ("ru", "Отменить покупку: Norrmalmstorg (Åsa)?"),
])
def test_the_question_is_asked_in_its_language(lang: str, asked: str) -> None:
    entry = {"command": {"do": "buy"},
             "events": [{"kind": "bought", "player": "Åsa", "square": 39, "price": 8000}]}
    assert describe_undo(entry, Setup.of(SV_STATE), lang, i18n.translator(lang).pgettext) == asked


def test_square_names_follow_the_asked_language() -> None:
    state = {"edition": "classic-eur", "currency": i18n.edition_data("classic-eur")["currency"]}
    entry = {"command": {"do": "mortgage", "square": 39},
             "events": [{"kind": "mortgaged", "player": "Daan", "square": 39}]}
    nl = describe_undo(entry, Setup.of(state), "nl", i18n.translator("nl").pgettext)
    assert nl == f"Ongedaan maken: Daan nam een hypotheek op " \
                 f"{i18n.localized_name('classic-eur', 'rue-de-la-paix', 'nl')}?"
    assert "Rue de la Paix" in describe_undo(entry, Setup.of(state), "fr",
                                             i18n.translator("fr").pgettext)


def test_a_broken_translation_asks_the_plainer_question() -> None:
    entry = {"command": {"do": "buy"}, "events": [{"kind": "bought", "player": "Bo",
                                                   "square": 39, "price": 8000}]}

    def broken(context: str, text: str) -> str:
        return "{nope}" if context == "undo_buy" else text

    assert describe_undo(entry, Setup.of(SV_STATE), "en", broken) == "Undo Bo's last move?"


# --- the session says what undo would take back ----------------------------------------------


def play(session: Any, *commands: dict[str, Any]) -> None:
    for command in commands:
        out = session.submit(command, TABLE)
        assert out.accepted, (command, out)


def test_the_session_names_its_undo_target(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as session:
        assert session.undo_target() is None  # no game yet
        play(session, {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                       "seed": 1})
        assert session.undo_target() is None, "the first game of a journal cannot be undone"
        play(session, {"do": "roll", "dice": [1, 2]}, {"do": "buy"})
        target = session.undo_target()
        assert target is not None
        assert target == session.history(None, 1)[-1]  # the entry as the history shows it
        assert target["command"] == {"do": "buy"}
        assert describe_undo(target, Setup.of(session.state()), "en", english) == \
            "Undo: Ann bought Rue Lecourbe?"
        assert session.undo(TABLE).accepted
        target = session.undo_target()
        assert target is not None and target["command"] == {"do": "roll", "dice": [1, 2]}
        assert describe_undo(target, Setup.of(session.state()), "en", english) == \
            "Undo Ann's roll (1 + 2)?"
        assert session.redo(TABLE).accepted
        target = session.undo_target()
        assert target is not None and target["command"] == {"do": "buy"}
        assert target["kind"] == "command" and not target.get("undone")
        assert session.undo(TABLE).accepted and session.undo(TABLE).accepted
        assert session.undo_target() is None
    with GameSession.open(tmp_path) as resumed:  # the same after a restart
        assert resumed.undo_target() is None
        play(resumed, {"do": "roll", "dice": [1, 2]})
        target = resumed.undo_target()
        assert target is not None and target["command"]["dice"] == [1, 2]


def test_a_device_roll_is_named_with_the_dice_rolled(tmp_path: Path) -> None:
    with GameSession.open(tmp_path) as session:
        play(session, {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                       "seed": 1}, {"do": "roll"})
        target = session.undo_target()
        assert target is not None
        dice = target["command"]["dice"]  # journaled as resolved by the engine
        assert describe_undo(target, Setup.of(session.state()), "en", english) == \
            f"Undo Ann's roll ({dice[0]} + {dice[1]})?"


def test_the_holder_forwards_the_undo_target(tmp_path: Path) -> None:
    holder = SessionHolder.open(tmp_path)
    try:
        play(holder, {"do": "new_game", "edition": "sv", "players": ["Åsa", "Bo"], "seed": 1},
             {"do": "roll", "dice": [1, 2]})
        target = holder.undo_target()
        assert target is not None and target["command"]["do"] == "roll"
        holder.new_game_file()
        assert holder.undo_target() is None
    finally:
        holder.close()
