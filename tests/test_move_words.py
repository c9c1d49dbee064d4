"""Every move in words: companion.words.move_words says each journal entry as one sentence (every
verb of the engine has its own), in every language of the one catalog, with the
players, squares and money of the edition, the lines of what else happened under it, who
sent it when that is worth saying, undos and redos; the table screen's recent-moves lines
come from the same function and the same catalog as the phones' lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.game.applying import apply_command, state_json
from companion.game.table.records import Setup
from companion.rules import Accepted
from companion.rules.commands import Verb
from companion.words import catalog as i18n
from companion.words.move_texts import MOVES
from companion.words.move_words import (
    Words,
    describe_move,
    event_line,
    message_id,
)

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "tests" / "data" / "games").glob("*.jsonl"))
#: the verbs the golden games do not play: a bank-only game with rent to claim
BANK_ONLY = [
    {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"], "seed": 1,
     "options": {"bank_only": True, "rent_must_be_claimed": True}},
    {"do": "land", "square": 1, "dice": [1, 1]}, {"do": "buy"},
    {"do": "land", "square": 3, "dice": [1, 1]}, {"do": "buy"},
    {"do": "mortgage", "square": 3}, {"do": "unmortgage", "square": 3}, {"do": "pass_go"},
    {"do": "pay", "from": "Ann", "to": "Bo", "amount": 10}, {"do": "end_turn"},
    {"do": "land", "square": 1, "dice": [2, 2]}, {"do": "claim_rent", "by": "Ann"},
    {"do": "land", "square": 5}, {"do": "decline"}, {"do": "bid", "by": "Ann", "amount": 20},
    {"do": "close_auction"}, {"do": "auction_building", "building": "house"},
    {"do": "bid", "by": "Ann", "amount": 50}, {"do": "build", "square": 1},
]
EUR = {"edition": "classic-eur", "currency": dict(i18n.edition_data("classic-eur")["currency"])}
SV = {"edition": "sv", "currency": dict(i18n.edition_data("sv")["currency"])}
GENERIC = ("move_last", "move_last_player")


def english() -> Any:
    return i18n.translator("en")


def play(commands: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(entry, state after it) for every command, by the engine alone."""
    state = None
    out = []
    for command in commands:
        result = apply_command(state, command)
        assert isinstance(result, Accepted), command
        state = result.state
        out.append(({"kind": "command", "command": command, "events": result.events_json()},
                    state_json(state)))
    return out


def samples() -> dict[str, list[tuple[dict[str, Any], dict[str, Any]]]]:
    """Entries by verb, from the golden games and the bank-only game."""
    by_verb: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    scripts = [[json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip()] for path in GAMES]
    for script in [*scripts, BANK_ONLY]:
        for entry, state in play(script):
            found = by_verb.setdefault(entry["command"]["do"], [])
            if len(found) < 40:
                found.append((entry, state))
    return by_verb


SAMPLES = samples()


def test_every_verb_of_the_engine_has_its_own_sentence() -> None:
    said = {msg_id.removeprefix("move_") for msg_id in MOVES}
    missing = [verb.value for verb in Verb
               if not any(s == verb.value or s.startswith(f"{verb.value}_") for s in said)]
    assert missing == []


@pytest.mark.parametrize("verb", [verb.value for verb in Verb])
def test_every_verb_is_said_in_every_language(verb: str) -> None:
    """A real move of each verb gets its own sentence (never the plainer one), in every
    language of the phone's catalog, every field filled."""
    assert SAMPLES.get(verb), f"no game plays {verb}: add it to BANK_ONLY"
    for entry, state in SAMPLES[verb]:
        msg_id = message_id(entry, Words(Setup.of(state), "en", english()))
        assert msg_id is not None and msg_id not in GENERIC, entry
        assert msg_id.startswith(f"move_{verb}"), (msg_id, entry)
        for lang in i18n.LANGUAGES:
            said = describe_move(entry, Setup.of(state), lang, i18n.translator(lang))
            assert said.text and "{" not in said.text, (lang, said)
            assert all(line and "{" not in line for line in said.lines), (lang, said)


def say(entry: dict[str, Any], state: dict[str, Any] = EUR, lang: str = "en",
        targets: dict[int, Any] | None = None) -> tuple[str, tuple[str, ...]]:
    said = describe_move(entry, Setup.of(state), lang, i18n.translator(lang), targets)
    return said.text.replace(i18n.NBSP, " "), tuple(line.replace(i18n.NBSP, " ")
                                                    for line in said.lines)


@pytest.mark.parametrize(("entry", "text", "lines"), [
    ({"command": {"do": "roll", "dice": [3, 4]}, "events": [
        {"kind": "rolled", "player": "Bo", "dice": [3, 4], "double": False},
        {"kind": "moved", "player": "Bo", "from": 3, "to": 10},
        {"kind": "moved", "player": "Bo", "from": 10, "to": 39},
        {"kind": "transfer", "from": "Bo", "to": "Ann", "amount": 50, "reason": "rent"}]},
     "Bo rolled 3 + 4 and moved to Rue de la Paix", ("Bo → Ann € 50 rent",)),
    ({"command": {"do": "roll", "dice": [1, 2]}, "events": [
        {"kind": "rolled", "player": "Cy", "dice": [1, 2], "double": False}]},
     "Cy rolled 1 + 2", ()),
    ({"command": {"do": "roll", "dice": [2, 2, "mr_monopoly"]}, "events": [
        {"kind": "rolled", "player": "Cy", "dice": [2, 2, "mr_monopoly"], "double": True},
        {"kind": "moved", "player": "Cy", "from": 0, "to": 4},
        {"kind": "transfer", "from": "Cy", "to": None, "amount": 200, "reason": "tax"},
        {"kind": "mr_monopoly", "player": "Cy"}, {"kind": "jailed", "player": "Cy"}]},
     "Cy rolled 2 + 2 + Mr. Monopoly and moved to Income Tax",
     ("Cy → Bank € 200", "Cy: Mr. Monopoly", "Cy went to jail")),
    ({"command": {"do": "buy"}, "events": [
        {"kind": "transfer", "from": "Ann", "to": None, "amount": 400, "reason": "purchase"},
        {"kind": "bought", "player": "Ann", "square": 39, "price": 400}]},
     "Ann bought Rue de la Paix for € 400", ()),
    ({"command": {"do": "decline"}, "events": [
        {"kind": "declined", "player": "Ann", "square": 39},
        {"kind": "auction_started", "square": 39}]},
     "Ann did not buy Rue de la Paix", ("Rue de la Paix goes up for auction",)),
    ({"command": {"do": "pass", "by": "Bo"}, "events": [
        {"kind": "passed", "player": "Bo"},
        {"kind": "transfer", "from": "Ann", "to": None, "amount": 120, "reason": "auction"},
        {"kind": "auction_closed", "square": 39, "winner": "Ann", "amount": 120}]},
     "Bo passed in the auction", ("Ann won Rue de la Paix for € 120",)),
    ({"command": {"do": "close_auction"}, "events": [
        {"kind": "transfer", "from": "Bo", "to": None, "amount": 50,
         "reason": "building_auction"},
        {"kind": "auction_closed", "building": "hotel", "winner": "Bo", "amount": 50}]},
     "Bo won a hotel at auction for € 50", ()),
    ({"command": {"do": "close_auction"}, "events": [
        {"kind": "auction_closed", "square": 5, "winner": None, "amount": 0}]},
     "The auction ended without a bid", ()),
    ({"command": {"do": "draw", "card": "chance-go"}, "events": [
        {"kind": "card", "player": "Ann", "deck": "chance", "card": "chance-go",
         "text": "Avancez jusqu'à la case Départ."},
        {"kind": "moved", "player": "Ann", "from": 7, "to": 0},
        {"kind": "transfer", "from": None, "to": "Ann", "amount": 200, "reason": "salary"}]},
     "Ann drew a Chance card", (f"“{i18n.localized_name('classic-eur', 'chance-go', 'en')}”",
                                "Bank → Ann € 200")),
    ({"command": {"do": "end_turn"}, "events": [{"kind": "turn", "player": "Bo", "number": 4}]},
     "Bo's turn", ()),
    ({"command": {"do": "pay", "from": "Ann", "to": "pot", "amount": 50}, "events": [
        {"kind": "transfer", "from": "Ann", "to": "pot", "amount": 50, "reason": "payment"}]},
     "Ann paid € 50 into the Free Parking pot", ()),
    ({"command": {"do": "pay", "from": "bank", "to": "Bo", "amount": 100}, "events": [
        {"kind": "transfer", "from": None, "to": "Bo", "amount": 100, "reason": "payment"}]},
     "The bank paid € 100 to Bo", ()),
    ({"command": {"do": "build", "square": 39, "count": 2}, "events": [
        {"kind": "transfer", "from": "Ann", "to": None, "amount": 400, "reason": "building"},
        {"kind": "built", "player": "Ann", "square": 39, "level": 2, "cost": 400}]},
     "Ann built 2 houses on Rue de la Paix for € 400", ()),
    ({"command": {"do": "build", "square": 39}, "events": [
        {"kind": "built", "player": "Ann", "square": 39, "level": 5, "cost": 200}]},
     "Ann built a hotel on Rue de la Paix for € 200", ()),
    ({"command": {"do": "sell_building", "square": 39, "count": 2}, "events": [
        {"kind": "sold_building", "player": "Ann", "square": 39, "level": 1, "refund": 100},
        {"kind": "sold_building", "player": "Ann", "square": 39, "level": 0, "refund": 100},
        {"kind": "transfer", "from": None, "to": "Ann", "amount": 200,
         "reason": "building_sold"}]},
     "Ann sold 2 buildings on Rue de la Paix for € 200", ()),
    ({"command": {"do": "unmortgage", "square": 39}, "events": [
        {"kind": "transfer", "from": "Ann", "to": None, "amount": 200,
         "reason": "mortgage_lift"},
        {"kind": "transfer", "from": "Ann", "to": None, "amount": 20,
         "reason": "mortgage_interest"},
        {"kind": "unmortgaged", "player": "Ann", "square": 39}]},
     "Ann lifted the mortgage on Rue de la Paix for € 220", ()),
    ({"command": {"do": "pay_fine"}, "events": [
        {"kind": "left_jail", "player": "Cy", "how": "fine"},
        {"kind": "transfer", "from": "Cy", "to": None, "amount": 50, "reason": "jail_fine"}]},
     "Cy paid € 50 to leave jail", ()),
    ({"command": {"do": "trade", "from": "Ann", "to": "Bo"}, "events": [
        {"kind": "transfer", "from": "Ann", "to": "Bo", "amount": 100, "reason": "trade"},
        {"kind": "traded", "from": "Ann", "to": "Bo",
         "give": {"cash": 100, "squares": [], "cards": 2},
         "take": {"cash": 0, "squares": [37, 39], "cards": 0}}]},
     "Ann and Bo traded",
     ("Ann → Bo: € 100, 2 Get Out of Jail Free cards",
      "Bo → Ann: Avenue des Champs-Élysées, Rue de la Paix")),
    ({"command": {"do": "bankrupt", "by": "Cy"}, "events": [
        {"kind": "bankrupt", "player": "Cy", "creditor": "Ann"},
        {"kind": "transfer", "from": "Cy", "to": "Ann", "amount": 12, "reason": "bankruptcy"},
        {"kind": "deeds_transferred", "from": "Cy", "to": "Ann", "squares": [1]},
        {"kind": "winner", "player": "Ann"}]},
     "Cy declared bankruptcy",
     ("Cy → Ann € 12", "Cy's deeds went to Ann", "Ann wins the game")),
    ({"command": {"do": "new_game", "edition": "sv", "players": ["Åsa", "Bo"]}, "events": [
        {"kind": "game_started", "edition": "sv", "players": ["Åsa", "Bo"]},
        {"kind": "transfer", "from": None, "to": "Åsa", "amount": 30000,
         "reason": "start_cash"}]},
     f"New game of {i18n.localized_name('sv', 'sv', 'en')}: Åsa, Bo", ()),
    ({"command": {"do": "future_verb"}, "events": [], "source": {"player": "Cy"}},
     "Cy made a move", ()),
    ({"command": {"do": "future_verb"}, "events": []}, "A move at the table", ()),
    ({"command": {"do": "buy", "by": "Bo"}, "events": []}, "Bo made a move", ()),
])
def test_sentences_name_the_move_with_its_facts(entry: dict[str, Any], text: str,
                                                lines: tuple[str, ...]) -> None:
    assert say(entry) == (text, lines)


def test_each_language_says_it_with_the_editions_words() -> None:
    entry = {"command": {"do": "buy"}, "events": [
        {"kind": "transfer", "from": "Åsa", "to": None, "amount": 8000, "reason": "purchase"},
        {"kind": "bought", "player": "Åsa", "square": 39, "price": 8000}]}
    assert say(entry, SV, "sv")[0] == "Åsa köpte Norrmalmstorg för Kr 8 000"
    assert say(entry, SV, "fr")[0] == "Åsa a acheté Norrmalmstorg pour Kr 8 000"
    assert say(entry, SV, "ru")[0] == "Åsa: покупка — Norrmalmstorg за Kr 8 000"  # no case
    dutch = i18n.localized_name("classic-eur", "rue-de-la-paix", "nl")
    assert say({**entry, "events": [{"kind": "bought", "player": "Daan", "square": 39,
                                     "price": 400}]}, EUR, "nl")[0] == \
        f"Daan kocht {dutch} voor € 400"


@pytest.mark.parametrize(("lang", "one", "five"), [
    ("pl", "1 karta wyjścia z więzienia", "5 kart wyjścia z więzienia"),
    ("ru", "1 карточка освобождения из тюрьмы", "5 карточек освобождения из тюрьмы"),
    ("de", "1 Gefängnisfrei-Karte", "5 Gefängnisfrei-Karten"),
])
def test_counted_words_take_the_languages_plural(lang: str, one: str, five: str) -> None:
    def trade(cards: int) -> str:
        entry = {"command": {"do": "trade"}, "events": [
            {"kind": "traded", "from": "Bo", "to": "Ann", "give": {"cards": cards},
             "take": {}}]}
        return say(entry, EUR, lang)[1][0]

    assert (trade(1), trade(5)) == (f"Bo → Ann: {one}", f"Bo → Ann: {five}")


BUY = {"seq": 7, "kind": "command", "command": {"do": "buy"}, "events": [
    {"kind": "bought", "player": "Ann", "square": 3, "price": 60}],
    "source": {"kind": "phone", "player": "Ann", "banker": False}}


@pytest.mark.parametrize(("source", "by_banker"), [
    ({"kind": "phone", "player": "Ann", "banker": False}, False),  # Ann's own phone
    ({"kind": "phone", "player": "Ann", "banker": True}, False),  # Ann, banker too, for herself
    ({"kind": "phone", "player": "Bo", "banker": True}, True),  # the banker acting for Ann
    ({"kind": "phone", "player": None, "banker": True}, True),  # a banker-only phone
    ({"kind": "rfid", "player": None, "banker": True}, True),  # the banker card
    ({"kind": "script", "player": None, "banker": True}, False),  # a table script
    ({"kind": "button", "player": "Ann", "banker": False}, False),  # the table's buttons
])
def test_who_sent_it_is_said_when_the_banker_acted_for_someone(source: dict[str, Any],
                                                               by_banker: bool) -> None:
    text, _lines = say({**BUY, "source": source})
    assert text == "Ann bought Rue Lecourbe for € 60" + (" (by the banker)" if by_banker else "")


def test_the_banker_closing_an_auction_is_said() -> None:
    entry = {"command": {"do": "close_auction"}, "events": [
        {"kind": "auction_closed", "square": 5, "winner": "Bo", "amount": 120}],
        "source": {"kind": "phone", "player": "Bo", "banker": True}}
    assert say(entry)[0] == "Bo won Gare Montparnasse at auction for € 120 (by the banker)"
    assert say(entry, EUR, "sv")[0] == \
        "Bo ropade in Gare Montparnasse för € 120 (av bankiren)"


def test_undo_and_redo_say_the_move_they_concern() -> None:
    banker = {"kind": "phone", "player": None, "banker": True}
    undo = {"seq": 8, "kind": "undo", "target": 7, "command": {"do": "buy"},
            "events": [{"kind": "undone", "seq": 7, "command": {"do": "buy"}}],
            "source": banker}
    assert say(undo, targets={7: BUY}) == \
        ("Taken back: Ann bought Rue Lecourbe for € 60 (by the banker)", ())
    assert say(undo)[0] == "Taken back: A move at the table (by the banker)"  # target unknown
    redo = {"seq": 9, "kind": "redo", "target": 7, "command": {"do": "buy"},
            "events": [{"kind": "redone", "seq": 7, "command": {"do": "buy"}},
                       *BUY["events"]], "source": BUY["source"]}
    assert say(redo) == ("Done again: Ann bought Rue Lecourbe for € 60", ())
    assert describe_move({**BUY, "undone": True}, Setup.of(EUR), "en", english()).undone


def test_a_broken_translation_says_the_english_sentence() -> None:
    class Broken:
        def pgettext(self, context: str, message: str) -> str:
            return "{nope}" if context == "move_buy" else message

        def npgettext(self, context: str, one: str, many: str, n: int) -> str:
            return one if n == 1 else many

    said = describe_move(BUY, Setup.of(EUR), "en", Broken())
    assert said.text.replace(i18n.NBSP, " ") == "Ann bought Rue Lecourbe for € 60"


def test_odd_facts_never_raise() -> None:
    entry = {"command": {"do": "bid", "by": "Bo"}, "events": [{"kind": "bid", "amount": "lots"}]}
    assert say(entry)[0] == "Bo made a move"
    assert say({"command": None, "events": None})[0] == "A move at the table"


# --- the screen's panel says the shared lines ----------------------------------------------


def test_the_screen_panel_uses_the_shared_lines() -> None:
    from companion.screen.log_lines import log_lines
    from companion.screen.texts import use_language
    from companion.screen.ui_state import UiState
    from companion.screen.views.prompt import square_name

    entry, state = SAMPLES["buy"][0]
    ui = UiState()
    use_language("de")
    try:
        lines = [line.text for line in log_lines(entry["events"], state, ui)]
    finally:
        use_language("en")
    # the same words, the squares named as the screen's board names them
    words = Words(Setup.of(state), "de", i18n.translator("de"),
                  lambda index: square_name(state, ui, index))
    assert lines == [event_line(e, words) for e in entry["events"]]
    pot = {"kind": "transfer", "from": "Ann", "to": "pot", "amount": 50, "reason": "tax"}
    assert event_line(pot, words) == f"Ann → Topf {words.money(50)}"


@pytest.mark.parametrize(("lang", "word"), [("en", "rent"), ("sv", "hyra"), ("fr", "loyer"),
                                            ("de", "Miete"), ("nl", "huur"), ("pl", "czynsz"),
                                            ("ru", "рент")])
def test_a_rent_payment_says_it_is_rent(lang: str, word: str) -> None:
    state = {"currency": {"pattern": "€ {amount}"}}
    rent = {"kind": "transfer", "from": "Bo", "to": "Ann", "amount": 24, "reason": "rent"}
    other = {**rent, "reason": "payment"}
    words = Words(Setup.of(state), lang, i18n.translator(lang))
    said = event_line(rent, words)
    assert said is not None and word in said and "Bo" in said and "24" in said
    assert word not in (event_line(other, words) or "")
