"""The typed events: every kind the engine and the session write reads back from its JSON
form unchanged, and anything else is refused with a message saying what is wrong."""

from __future__ import annotations

import ast
import json
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.bots import Bots
from companion.editions import edition_ids
from companion.game.applying import apply_command
from companion.rules import Accepted, apply
from companion.rules import events as ev
from companion.rules.events import Event, EventError, event_from_json

GAMES = sorted((Path(__file__).parent / "data" / "games").glob("*.jsonl"))
RULES = Path(__file__).resolve().parent.parent / "companion" / "rules"

#: kinds no bot game or golden game happens to write, each as the engine or session writes it
RARE: list[Event] = [
    ev.RentClaimable("Ann", "Bo", 39, 2000),
    ev.RentForfeited("Ann", "Bo", 39, 2000),
    ev.AuctionSquareStays("Cy"),
    ev.Undone(7, {"do": "buy", "by": "Ann"}),
    ev.Redone(7, {"do": "buy", "by": "Ann"}),
    ev.GameSwitched("g-mega", "g-classic"),
    ev.Unmortgaged("Ann", 3, forced=True),
    ev.Rolled("Bo", (3, 4), for_rent=True),
    ev.LeftJail("Bo", "card", "chance-jail"),
    ev.Built("Ann", 5, None, "depot", 100),
    ev.SoldBuilding("Ann", 5, None, "depot", 50),
    ev.AuctionStarted(building="hotel"),
    ev.AuctionClosed(None, "house", None, 0),
]


def _bot_events(edition: str, seed: int, players: int) -> Iterator[Event]:
    """Every event of one bot game (stopped early where a bot's move is refused)."""
    names = [f"P{i + 1}" for i in range(players)]
    r = apply_command(None, {"do": "new_game", "edition": edition, "players": names,
                             "seed": seed})
    assert isinstance(r, Accepted)
    yield from r.events
    g, bots = r.state, Bots()
    for _ in range(2000):
        if g.winner >= 0:
            return
        r = apply(g, bots.choose(g))
        if not isinstance(r, Accepted):
            return
        yield from r.events
        g = r.state


def _golden_events(script: Path) -> Iterator[Event]:
    state = None
    for line in script.read_text(encoding="utf-8").splitlines():
        r = apply_command(state, json.loads(line))
        assert isinstance(r, Accepted), (script.name, line)
        yield from r.events
        state = r.state


def _round_trip(event: Event) -> None:
    """JSON and back gives the same event, and back to JSON the very same text."""
    data = event.to_json()
    assert data["kind"] == event.kind
    text = json.dumps(data, ensure_ascii=False)
    again = event_from_json(json.loads(text))
    assert again == event and type(again) is type(event)
    assert json.dumps(again.to_json(), ensure_ascii=False) == text


@pytest.mark.parametrize("edition", edition_ids())
def test_every_event_of_bot_games_reads_back_unchanged(edition: str) -> None:
    kinds: set[str] = set()
    for seed, players in ((1, 2), (2, 4), (3, 6)):
        for event in _bot_events(edition, seed, players):
            _round_trip(event)
            kinds.add(event.kind)
    assert {"game_started", "rolled", "moved", "transfer", "turn", "bought"} <= kinds


@pytest.mark.parametrize("script", GAMES, ids=lambda p: p.stem)
def test_every_event_of_the_golden_games_reads_back_unchanged(script: Path) -> None:
    kinds = set()
    for event in _golden_events(script):
        _round_trip(event)
        kinds.add(event.kind)
    assert "game_started" in kinds and "turn" in kinds


def test_every_kind_is_read_back() -> None:
    met = {e.kind for script in GAMES for e in _golden_events(script)}
    met |= {e.kind for e in _bot_events("mega", 4, 4)}
    for event in RARE:
        _round_trip(event)
    assert met | {e.kind for e in RARE} == ev.KINDS


def test_the_union_names_every_kind_once() -> None:
    classes = typing.get_args(Event)
    assert len({c.kind for c in classes}) == len(classes) == len(ev.KINDS) == 42
    assert {c.kind for c in classes} == ev.KINDS
    source = ast.parse((RULES / "events.py").read_text(encoding="utf-8"))
    documented = {node.name for node in source.body
                  if isinstance(node, ast.ClassDef) and ast.get_docstring(node)}
    assert {c.__name__ for c in classes} <= documented  # what happened, one line each
    assert set(ev.PLAYER_EVENTS) <= set(classes)


def test_events_are_read_only_and_compare_by_value() -> None:
    moved = ev.Moved("Ann", 3, 10)
    assert moved == ev.Moved("Ann", 3, 10) and moved != ev.Moved("Ann", 3, 11)
    assert not hasattr(moved, "__dict__")  # slots: no stray attributes
    source = ast.parse((RULES / "events.py").read_text(encoding="utf-8"))
    for node in source.body:  # every field Final: mypy (and the compiled engine) refuse writes
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.AnnAssign):
                    assert ast.unparse(item.annotation).startswith(("Final[", "ClassVar[")), \
                        (node.name, ast.unparse(item))


def test_accepted_gives_the_json_at_the_boundary() -> None:
    r = apply_command(None, {"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                             "seed": 1})
    assert isinstance(r, Accepted)
    assert isinstance(r.events[0], ev.GameStarted)
    assert r.events_json()[0] == {"kind": "game_started", "edition": "classic-eur",
                                  "players": ["Ann", "Bo"]}
    assert r.events_json() is not r.events_json()  # a fresh list: callers may keep it


def test_parties_names_who_an_event_concerns() -> None:
    assert ev.parties(ev.Transfer("Ann", None, 10, "tax")) == ("Ann", None)
    assert ev.parties(ev.RentClaimable("Ann", "Bo", 1, 2)) == ("Ann", "Bo")
    assert ev.parties(ev.AuctionClosed(3, None, "Cy", 20)) == ("Cy",)
    assert ev.parties(ev.GameStarted("classic-eur", ("Ann", "Bo"))) == ("Ann", "Bo")
    assert ev.parties(ev.Turn("Bo", 2)) == ("Bo",)
    assert ev.parties(ev.BusTicketsExpired(2)) == ()


@pytest.mark.parametrize(("data", "said"), [
    ({"kind": "teleported", "player": "Ann"}, "unknown event kind 'teleported'"),
    ({"player": "Ann"}, "unknown event kind None"),
    (["moved"], "an event must be a JSON object"),
    ({"kind": "moved", "player": "Ann", "to": 3}, "a 'moved' event needs 'from'"),
    ({"kind": "moved", "player": "Ann", "from": "GO", "to": 3},
     "'from' of a 'moved' event must be a whole number, not 'GO'"),
    ({"kind": "bid", "player": "Ann", "amount": True},
     "'amount' of a 'bid' event must be a whole number"),
    ({"kind": "passed", "player": "Ann", "amount": 3}, "a 'passed' event has no 'amount'"),
    ({"kind": "rolled", "player": "Ann", "dice": [3, 4], "for": "fun"},
     "only ever \"for\" a utility's \"rent\""),
    ({"kind": "unmortgaged", "player": "Ann", "square": 3, "forced": False},
     "\"forced\" only when it was"),
    ({"kind": "traded", "from": "Ann", "to": "Bo", "give": {"cash": 1, "cards": 0},
      "take": {"cash": 0, "cards": 0, "squares": []}}, "a 'traded.give' event needs 'squares'"),
    ({"kind": "rebalanced", "player": "Ann", "levels": {"x": 1}, "cost": 0},
     "'levels' of a 'rebalanced' event must be square indexes"),
])
def test_what_the_engine_never_writes_is_refused_clearly(data: Any, said: str) -> None:
    with pytest.raises(EventError, match=None) as caught:
        event_from_json(data)
    assert said in str(caught.value)


def test_a_list_of_events_reads_each() -> None:
    events = ev.events_from_json([{"kind": "jailed", "player": "Ann"},
                                  {"kind": "winner", "player": "Bo"}])
    assert events == [ev.Jailed("Ann"), ev.Winner("Bo")]
    with pytest.raises(EventError, match="must be a JSON list"):
        ev.events_from_json({"kind": "jailed"})
