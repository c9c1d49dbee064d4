"""The typed records of what the faces draw (companion.game.table.records), on the session's
view of the table: they say what the state says, are built once per version and only when
a face reads them, and a malformed entry gives a record with its defaults, not a crash."""

from __future__ import annotations

from pathlib import Path

from companion.game.api import SavedGame, Source
from companion.game.session import GameSession
from companion.game.table.offers import Goods
from companion.game.table.records import Deed, DrawnCard, Seat, Turn, seat
from companion.game.table.view import build
from companion.rules.commands import Buy, Roll

TABLE = Source("script", banker=True)


def _session(tmp_path: Path) -> GameSession:
    session = GameSession.open(tmp_path / "game")
    started = session.submit({"do": "new_game", "edition": "classic-eur",
                              "players": ["Ann", "Bo", "Cy"], "seed": 7}, TABLE)
    assert started.accepted, started.message
    return session


def test_the_records_say_what_the_state_says(tmp_path: Path) -> None:
    session = _session(tmp_path)
    try:
        for _ in range(6):  # a few moves: someone has moved, maybe bought
            view = session.table()
            who = view.decider
            if view.move("buy", who) is not None and who is not None:
                assert session.submit(Buy(who), Source("button")).accepted
            elif view.move("roll", who) is not None and who is not None:
                assert session.submit(Roll(who), Source("button")).accepted
            elif (press := view.buttons.get("roll")) is not None:
                assert session.submit(press, Source("button")).accepted
        state, view = session.state(), session.table()
        assert state["version"] > 3 and any(p.position for p in view.players)  # it moved
        assert [p.name for p in view.players] == [p["name"] for p in state["players"]]
        for raw in state["players"]:
            record = view.player(raw["name"])
            assert record is not None
            assert (record.cash, record.position, record.jailed, record.bankrupt) == (
                raw["cash"], raw["position"], raw["in_jail"], raw["bankrupt"])
        assert len(view.deeds) == len(state["squares"]) > 20
        for raw in state["squares"]:
            deed = view.deed(raw["index"])
            assert deed is not None and view.deed_by_id(raw["id"]) is deed
            assert (deed.owner, deed.houses, deed.mortgaged, deed.price) == (
                raw["owner"], raw["houses"], raw["mortgaged"], raw["price"])
        assert view.turn.current == state["current"] == view.current
        assert view.turn.version == state["version"]
        assert view.player("Nobody") is None and view.deed(0) is None  # GO is no deed
    finally:
        session.close()


def test_built_once_per_version_and_only_when_read(tmp_path: Path) -> None:
    session = _session(tmp_path)
    try:
        view = session.table()
        assert "players" not in vars(view) and "deeds" not in vars(view)  # nobody drew yet
        players = view.players
        assert session.table() is view and session.table().players is players
        assert view.player("Ann") is players[0]
        current = view.current
        assert current is not None
        assert session.submit(Roll(current), Source("button")).accepted
        after = session.table()
        assert after is not view and after.version > view.version
        assert "players" not in vars(after)  # a new version builds its own, when read
        moved = after.player(current)
        assert moved is not None and moved != players[0]  # the roll moved the token
        assert players[0].position == 0 and view.player(current) is players[0]  # kept
    finally:
        session.close()


def test_a_malformed_entry_gives_defaults_not_a_crash() -> None:
    view = build({"version": 2, "current": 3, "players": [{"name": "Ann", "cash": "lots",
                  "position": None, "in_jail": 1}, {"cash": True}],
                  "squares": [{"index": 5, "owner": 7, "houses": "2"}], "turn": None,
                  "dice": None, "pending": {"kind": "buy", "player": 4}})
    assert view.players[0] == Seat("Ann", 0, 0, True, False, 0, 0, 0, 0)
    assert view.players[1].cash == 0 and view.players[1].name == "None"
    assert view.deed(5) == Deed(5, "", "", "", None, 0, None, 0, False, False, 0, False,
                                False)
    assert view.turn == Turn(2, None, "buy", None, None, 1, False, ())
    assert build({"players": "nobody", "squares": {"a": 1}}).players == ()
    assert build({"squares": {"a": 1}}).deeds == ()


def test_one_seat_read_from_a_state() -> None:
    state = {"players": [{"name": "Ann", "position": 7}, {"name": "Bo", "in_jail": True}]}
    ann, bo = seat(state, "Ann"), seat(state, "Bo")
    assert ann is not None and ann.position == 7 and not ann.jailed
    assert bo is not None and bo.jailed
    assert seat(state, "Cy") is None and seat(state, None) is None


def test_the_bank_says_what_the_state_says(tmp_path: Path) -> None:
    """A Mega table's bank has skyscrapers, depots and bus tickets; a classic one has none
    of them (None, and no stock to sell), and what either has is the state's figure."""
    mega = GameSession.open(tmp_path / "mega")
    classic = _session(tmp_path)
    try:
        started = mega.submit({"do": "new_game", "edition": "mega",
                               "players": ["Ann", "Bo", "Cy"], "seed": 3}, TABLE)
        assert started.accepted, started.message
        raw, bank = mega.state()["bank"], mega.table().bank
        assert (bank.houses, bank.hotels, bank.skyscrapers, bank.depots, bank.bus_tickets) \
            == (raw["houses"], raw["hotels"], raw["skyscrapers"], raw["depots"],
                raw["bus_tickets"])
        assert bank.stock("skyscraper") == raw["skyscrapers"] > 0
        raw, bank = classic.state()["bank"], classic.table().bank
        assert bank.stock("house") == raw["houses"] > 0 and bank.stock("hotel") == raw["hotels"]
        assert bank.skyscrapers is None and bank.depots is None and bank.bus_tickets is None
        assert bank.stock("skyscraper") == 0 and bank.stock("castle") == 0
    finally:
        mega.close()
        classic.close()


def test_a_mr_monopoly_turn_and_a_malformed_bank() -> None:
    assert build({"turn": {"number": 4, "mr_monopoly": True}}).turn.mr_monopoly
    assert not build({"turn": {"number": 4}}).turn.mr_monopoly
    odd = build({"bank": {"houses": "many", "skyscrapers": None}})
    assert (odd.bank.houses, odd.bank.skyscrapers, odd.bank.stock("skyscraper")) == (0, 0, 0)
    assert build({"bank": "none"}).bank.stock("house") == 0


def test_the_bank_holds_the_pot_only_under_the_house_rule(tmp_path: Path) -> None:
    """The Free Parking pot is the state's figure when the house rule is on (the Table page
    draws it), None when it is off, not a 0 that would be drawn."""
    pot = GameSession.open(tmp_path / "pot")
    classic = _session(tmp_path)
    try:
        started = pot.submit({"do": "new_game", "edition": "classic-eur",
                              "players": ["Ann", "Bo"], "seed": 3,
                              "options": {"free_parking_pot": True,
                                          "free_parking_pot_start": 100}}, TABLE)
        assert started.accepted, started.message
        assert pot.table().bank.pot == pot.state()["pot"] == 100
        assert classic.table().bank.pot is None
    finally:
        pot.close()
        classic.close()


def test_the_setup_says_the_edition_its_money_and_its_rules(tmp_path: Path) -> None:
    """What the faces write money with and read the rule options from is the state's, and the
    board's size and printed names are the edition's (Mega's 52 squares); before a game, or
    for an edition not shipped, the classic board's 40 and no names."""
    mega = GameSession.open(tmp_path / "mega")
    try:
        assert mega.submit({"do": "new_game", "edition": "mega", "players": ["Ann", "Bo"],
                            "seed": 3, "options": {"physical_dice": True}}, TABLE).accepted
        state, setup = mega.state(), mega.table().setup
        assert (setup.edition, setup.currency) == ("mega", state["currency"])
        assert setup.options == state["options"] and setup.options["physical_dice"] is True
        assert setup.board_size == 52 and setup.printed_name(0) == "Départ"  # as printed
        assert setup.printed_name(52) is None and setup.printed_name(-1) is None
    finally:
        mega.close()
    none = build({"version": 0, "game": None}).setup
    assert (none.edition, none.currency, none.options, none.board_size) == ("", None, {}, 40)
    odd = build({"edition": "no-such", "currency": "€", "options": [1]}).setup
    assert (odd.currency, odd.options, odd.board_size, odd.printed_name(3)) == (
        None, {}, 40, None)


def test_the_card_that_is_news_and_the_version_a_view_shows() -> None:
    view = build({"version": 5, "card_news": {"id": "ch-go", "deck": "chance",
                                              "text": "Advance to GO", "player": "Bo"}})
    assert view.card == DrawnCard("ch-go", "chance", "Advance to GO", "Bo")
    assert build({"card_news": {"deck": "chance"}}).card is None  # no card: its effect is over
    assert build({"card_news": "ch-go"}).card is None
    assert view.shows({"version": 5}) and not view.shows({"version": 6})
    assert not view.shows({}) and build({}).shows({"version": None})


def test_the_open_offers_are_typed_records() -> None:
    """An offer of the store reads as an Offer (who gives what to whom), oldest first; a side
    that is not goods, or goods of the wrong type, hands over nothing rather than crash."""
    view = build({"version": 1}, [
        {"id": "o1", "from": "Ann", "to": "Bo", "give": {"cash": 50, "squares": [3, 1]},
         "take": {"cards": 1}, "created": 10.5},
        {"id": "o2", "from": "Cy", "to": "Bo", "give": "all", "take": {"cash": "5",
                                                                      "squares": [True, 6]}}])
    first, second = view.open_offers
    assert (first.id, first.sender, first.receiver, first.created) == ("o1", "Ann", "Bo", 10.5)
    assert first.give == Goods(50, (3, 1), 0) and first.take == Goods(0, (), 1)
    assert second.give.empty and second.take == Goods(0, (6,), 0)
    assert view.offer("o2") is second and view.offer("o3") is None and view.offer(None) is None
    assert first.give.to_json() == {"cash": 50, "squares": [3, 1], "cards": 0}


def test_a_saved_game_is_a_typed_record() -> None:
    game = SavedGame.of({"id": "g2", "players": ["Ann", "Bo"], "edition": "sv", "turn": 34,
                         "winner": None, "last_played": "14:05", "current": True})
    assert game == SavedGame("g2", ("Ann", "Bo"), "sv", 34, None, "14:05", True)
    empty = SavedGame.of({"id": "g3", "players": None, "edition": None, "turn": True})
    assert (empty.players, empty.edition, empty.turn, empty.current) == ((), None, None, False)


def test_a_square_that_did_not_change_keeps_its_record_across_versions(
        tmp_path: Path) -> None:
    """A move changes a few squares: the others' records are the ones the version before
    built (no record built again), and a square bought gets a new one saying so."""
    session = _session(tmp_path)
    try:
        for _ in range(40):  # until someone buys a square
            view = session.table()
            before = {d.index: d for d in view.deeds}
            who = view.decider
            if view.move("buy", who) is not None and who is not None:
                assert session.submit(Buy(who), Source("button")).accepted
                after = session.table()
                changed = [d for d in after.deeds if d is not before[d.index]]
                assert [d.owner for d in changed] == [who], "the bought square alone is new"
                assert all(d == before[d.index] for d in after.deeds if d not in changed)
                for raw in session.state()["squares"]:  # and every record says the state
                    deed = after.deed(raw["index"])
                    assert deed is not None and (deed.owner, deed.houses) == (
                        raw["owner"], raw["houses"])
                return
            press = view.move("roll", who) if who is not None else None
            command = Roll(who) if press is not None and who is not None \
                else view.buttons.get("roll")
            assert command is not None and session.submit(command, Source("button")).accepted
        raise AssertionError("nobody bought a square in 40 moves")
    finally:
        session.close()
