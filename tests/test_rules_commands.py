"""One record per command verb: `parse_command` gives it, `to_json` gives the JSON back.

The journal, the table scripts and the phones speak the JSON form; the engine, the bots and
the inputs speak the records. Both directions must agree for every verb, and a malformed
command must be refused with a message saying what is wrong.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import start

from companion.rules import Rejection, apply
from companion.rules.codes import Code, RulesError
from companion.rules.commands import (
    COMMAND_TYPES,
    Bid,
    Build,
    Offer,
    Roll,
    Trade,
    Verb,
    parse_command,
)
from companion.rules.engine import _HANDLERS

#: one full command of every verb, as a table script writes it
EXAMPLES: list[dict[str, Any]] = [
    {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"], "seed": 3,
     "options": {"variant": "short"}},
    {"do": "roll", "by": "Ann", "dice": [3, 4]},
    {"do": "roll", "dice": [1, 2, "bus"]},
    {"do": "buy", "by": "Ann"},
    {"do": "decline", "by": "Ann"},
    {"do": "bid", "by": "Bo", "amount": 120},
    {"do": "pass", "by": "Bo"},
    {"do": "close_auction"},
    {"do": "draw", "by": "Ann", "card": "ch-go"},
    {"do": "end_turn", "by": "Ann"},
    {"do": "land", "by": "Ann", "square": "boardwalk", "dice": [6, 5], "via_go": True},
    {"do": "pass_go", "by": "Ann"},
    {"do": "pay", "amount": 50, "from": "Ann", "to": "bank"},
    {"do": "build", "by": "Ann", "square": 39, "count": 2},
    {"do": "build", "square": 5, "building": "depot"},
    {"do": "sell_building", "by": "Ann", "square": 39, "count": 3},
    {"do": "mortgage", "by": "Ann", "square": 1},
    {"do": "unmortgage", "square": 1},
    {"do": "pay_fine", "by": "Bo"},
    {"do": "use_card"},
    {"do": "trade", "from": "Ann", "to": "Bo", "give": {"cash": 10, "squares": [1], "cards": 1},
     "take": {"cash": 0, "squares": ["boardwalk"], "cards": 0}},
    {"do": "bankrupt", "by": "Bo"},
    {"do": "auction_building", "building": "hotel"},
    {"do": "claim_rent", "by": "Bo"},
    {"do": "end_game", "reason": "time"},
    {"do": "use_bus_ticket", "by": "Ann", "square": 12},
    {"do": "choose_square", "by": "Ann", "square": 7},
    {"do": "choose_gift", "by": "Ann", "gift": "bus_ticket"},
]


def test_every_verb_has_a_record_and_every_record_a_handler() -> None:
    assert set(COMMAND_TYPES) == set(Verb)
    assert {v for v in Verb if v is not Verb.NEW_GAME} == {t.do for t in _HANDLERS}
    assert {e["do"] for e in EXAMPLES} == {v.value for v in Verb}


@pytest.mark.parametrize("obj", EXAMPLES, ids=lambda o: str(o["do"]))
def test_a_command_reads_into_its_own_record_and_back(obj: dict[str, Any]) -> None:
    cmd = parse_command(obj)
    assert type(cmd) is COMMAND_TYPES[Verb(obj["do"])]
    assert cmd.to_json() == obj
    assert list(cmd.to_json()) == list(obj)  # the journal's key order
    assert parse_command(cmd.to_json()) == cmd


def test_defaults_are_left_out_of_the_json_and_transport_fields_dropped() -> None:
    assert parse_command({"do": "trade", "from": "A", "to": "B"}) == Trade("A", "B")
    assert Trade("A", "B", Offer(cash=5)).to_json() == {
        "do": "trade", "from": "A", "to": "B", "give": {"cash": 5, "squares": [], "cards": 0},
        "take": {"cash": 0, "squares": [], "cards": 0}}
    assert parse_command({"do": "build", "square": 3, "note": "x", "source": "web"}) \
        == Build(3)
    assert Build(3).to_json() == {"do": "build", "square": 3}
    assert Roll().to_json() == {"do": "roll"}
    assert parse_command({"do": "end_game"}).to_json() == {"do": "end_game",
                                                           "reason": "agreement"}


@pytest.mark.parametrize(("obj", "message"), [
    ({"do": "fly"}, "unknown command 'fly'"),
    ([1], "a command must be a JSON object"),
    ({"do": "roll", "square": 3}, "roll: unknown fields: square"),
    ({"do": "bid", "by": "Bo"}, "bid: missing amount"),
    ({"do": "bid", "by": None, "amount": 5}, "'by' must be a player's name"),
    ({"do": "pass", "by": None}, "'by' must be a player's name"),
    ({"do": "bid", "by": "Bo", "amount": 0}, "'amount' must be at least 1"),
    ({"do": "roll", "dice": [3, True]}, "'dice' must be a list of whole numbers (the speed "
     "die may show \"bus\" or \"mr_monopoly\")"),
    ({"do": "end_game", "reason": ["time"]}, "'reason' must be \"agreement\" or \"time\""),
    ({"do": "auction_building", "building": "depot"},
     "'building' must be one of house, hotel, skyscraper"),
    ({"do": "choose_gift", "gift": {}}, "'gift' must be \"money\" or \"bus_ticket\""),
    ({"do": "trade", "from": "A", "to": "B", "give": {"cash": 1, "x": 2}},
     "'give' has unknown fields: x"),
])
def test_a_malformed_command_is_refused_saying_what_is_wrong(obj: Any, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_command(obj)
    assert caught.value.code is Code.BAD_COMMAND and caught.value.message == message


def test_the_engine_takes_records_and_parses_json() -> None:
    g = start()
    played = apply(g, Roll("Ann", (3, 4)))
    assert not isinstance(played, Rejection) and played.state.players[0].position == 7
    assert not isinstance(played, Rejection) and played.resolved == {
        "do": "roll", "by": "Ann", "dice": [3, 4]}
    refused = apply(g, Bid("Ann", 10))
    assert isinstance(refused, Rejection) and refused.code is Code.NOT_NOW
    refused = apply(g, {"do": "roll", "dice": "34"})  # JSON goes to the one parser
    assert isinstance(refused, Rejection) and refused.code is Code.BAD_COMMAND
    refused = apply(g, parse_command(EXAMPLES[0]))
    assert isinstance(refused, Rejection) and refused.code is Code.NOT_NOW
