"""The one table of who may send what (companion.game.authority.RIGHTS), as the session,
the phones' guard and the table's shared inputs all read it (issue 25: who may act is
decided once)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game import authority
from companion.game.api import Source
from companion.game.authority import RIGHTS, Refused, check, table_source
from companion.game.session import GameSession
from companion.rules.commands import COMMAND_TYPES
from web_remote.guard import Identity, Refusal, authorize

BANKER = Source("script", banker=True)


@pytest.fixture
def game(tmp_path: Path) -> Iterator[GameSession]:
    with GameSession.open(tmp_path) as s:
        assert s.submit({"do": "new_game", "edition": "classic-eur",
                         "players": ["Ann", "Bo", "Cleo"], "seed": 3}, BANKER).accepted
        yield s


def test_every_verb_of_the_engine_has_one_row() -> None:
    assert set(RIGHTS) == {verb.value for verb in COMMAND_TYPES}


def test_the_banks_verbs_are_nobodys_and_consent_is_never_the_shared_inputs() -> None:
    assert authority.BANKER_VERBS == {"new_game", "auction_building", "close_auction",
                                      "end_game"}
    assert {v for v, r in RIGHTS.items() if r.offer} == {"trade"}
    assert not RIGHTS["trade"].shared and RIGHTS["trade"].actor == "to"
    assert {v for v, r in RIGHTS.items() if r.clock} == {"close_auction", "end_game"}


@pytest.mark.parametrize("verb", sorted(RIGHTS))
def test_the_phones_guard_refuses_as_the_banker_only_what_the_table_says(
        game: GameSession, verb: str) -> None:
    """The guard reads the same table: a player's phone sending a verb for itself is refused
    as the banker's exactly when the row says players may not send it."""
    who = Identity("player", "Ann")
    field = authority.actor_field(verb)
    command: dict[str, Any] = {"do": verb, field: "Ann"}
    if verb == "trade":
        command.update({"from": "Bo", "give": {}, "take": {}})
    if verb == "new_game":
        command["players"] = ["X", "Y"]
    try:
        authorize(command, who, game.table(), 40)
    except Refusal as refusal:
        assert (refusal.code == "banker_only") == (not RIGHTS[verb].players), refusal.code
    else:
        assert RIGHTS[verb].players


def test_a_player_acts_only_for_themselves_from_every_input(game: GameSession) -> None:
    """The session's check, for each kind of source: Bo's phone or card acts for Bo only,
    the shared buttons for Ann (whose turn it is), the banker for anyone."""
    g = game.game_state()
    pay = {"do": "pay", "from": "Ann", "to": "Bo", "amount": 5}
    for source in (Source("phone", player="Bo"), Source("rfid", player="Bo")):
        out = check(source, pay, g)
        assert isinstance(out, Refused) and out.code == "not_your_turn"
    assert check(Source("button"), pay, g) == pay
    assert check(Source("keyboard"), {"do": "roll"}, g) == {"do": "roll", "by": "Ann"}
    assert check(BANKER, {"do": "pay", "from": "Cleo", "to": "Bo", "amount": 5}, g)
    # an input that is neither shared nor names a player is refused
    out = check(Source("rfid"), {"do": "roll"}, g)
    assert isinstance(out, Refused) and out.code == "not_allowed"


def test_a_trade_needs_its_receiver_and_an_open_offer(game: GameSession) -> None:
    g = game.game_state()
    trade = {"do": "trade", "from": "Ann", "to": "Bo", "give": {"cash": 5}, "take": {}}
    never = check(Source("rfid", player="Bo"), trade, g, lambda _t: False)
    assert isinstance(never, Refused) and never.code == "no_offer"
    assert isinstance(check(Source("rfid", player="Bo"), trade, g, None), Refused)
    for source in (Source("button"), Source("phone", player="Ann")):  # Ann's turn: still no
        out = check(source, trade, g, lambda _t: True)
        assert isinstance(out, Refused) and out.code == "not_your_turn", source
    assert check(Source("phone", player="Bo"), trade, g, lambda _t: True) == trade


def test_only_the_tables_clock_closes_an_auction_or_ends_a_timed_game(
        game: GameSession) -> None:
    g = game.game_state()
    assert check(Source("session"), {"do": "close_auction"}, g) == {"do": "close_auction"}
    assert check(Source("session"), {"do": "end_game", "reason": "time"}, g)
    for command in ({"do": "end_game"}, {"do": "close_auction"}):
        for source in (Source("button"), Source("phone", player="Ann")):
            out = check(source, command, g)
            assert isinstance(out, Refused) and out.code == "banker_only"
    out = check(Source("session"), {"do": "end_game"}, g)  # by agreement: the banker's
    assert isinstance(out, Refused)


def test_the_shared_inputs_never_send_a_trade_even_for_a_card_holder() -> None:
    state = {"current": "Ann", "legal": []}
    trade = {"do": "trade", "from": "Bo", "to": "Ann", "give": {}, "take": {}}
    assert table_source(state, trade, "button", card_holder="Ann") == "Ann"
