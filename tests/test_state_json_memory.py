"""The state JSON built from what changed (companion.game.applying.StateJsonMemory) is the
JSON `state_json` builds anew, for every state of whole games in every edition and under
house rules, in game order and out of it (undo, redo, a jump back, another game), and it
really reuses the parts that did not change (issue 28: the speed must not go silently).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from rules_helpers import arrange, start
from test_rules_offers import walk

from companion.bots import Bots
from companion.game.applying import StateJsonMemory, state_json
from companion.rules import Accepted, GameState, apply

EDITIONS = sorted(p.stem for p in (Path(__file__).parents[1] / "companion" / "data"
                                   / "editions").glob("*.json"))
#: house rules that change what the JSON shows or how rents and worths are counted
OPTIONS: list[dict[str, Any]] = [
    {},
    {"speed_die": True},
    {"bank_only": True},
    {"variant": "short"},
    {"rent_must_be_claimed": True, "free_parking_pot": True, "auctions": False},
    {"even_building": False, "double_rent_with_mortgaged_lot": False,
     "unbuilt_rent_full_group": 3},
]


def bot_game(edition: str, seed: int, players: int, cap: int = 2500,
             **options: Any) -> list[GameState]:
    """Every state of a bots' game, in order (at most `cap`)."""
    g = start(tuple(f"P{i + 1}" for i in range(players)), seed=seed, edition=edition,
              **options)
    bots = Bots()
    states = [g]
    while g.winner < 0 and len(states) < cap:
        r = apply(g, bots.choose(g))
        assert isinstance(r, Accepted), r
        g = r.state
        states.append(g)
    return states


def same(built: dict[str, Any], fresh: dict[str, Any]) -> None:
    """Equal, and the same text whether or not the keys are sorted."""
    assert built == fresh
    assert json.dumps(built, sort_keys=True) == json.dumps(fresh, sort_keys=True)
    assert json.dumps(built) == json.dumps(fresh)  # the keys in the same order too


def check_in_order(memory: StateJsonMemory, states: list[GameState]) -> None:
    """Each state's JSON as `state_json` builds it, and every JSON built earlier still as it
    was (the parts it shares with later ones were not changed by their builds)."""
    kept: list[tuple[GameState, dict[str, Any]]] = []
    for i, g in enumerate(states):
        built = memory.state_json(g)
        same(built, state_json(g))
        if i % 97 == 0:
            kept.append((g, built))
    for g, built in kept:
        same(built, state_json(g))


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_state_of_bot_games_alike(edition: str) -> None:
    memory = StateJsonMemory()
    first = EDITIONS.index(edition)
    for n in range(3):  # three sets of house rules an edition, all of them over the editions
        options = OPTIONS[(first + n) % len(OPTIONS)]
        check_in_order(memory, bot_game(edition, n, 2 + (first + n * 3) % 5, cap=1200,
                                        **options))
    # the offers' random walk: trades, mortgages, corrections, auctions of every kind
    check_in_order(memory, walk(edition, first, 500, OPTIONS[first % 3]))


def test_mega_eight_players_speed_die_and_bank_only() -> None:
    memory = StateJsonMemory()
    check_in_order(memory, bot_game("mega", 11, 8, speed_die=True))
    check_in_order(memory, bot_game("mega", 12, 6, bank_only=True))
    check_in_order(memory, bot_game("classic-eur", 5, 8))


def test_undo_redo_jumps_and_other_games() -> None:
    """Out of order: back one (undo), forward again (redo), far back (a jump), another game
    of the same edition whose board may be the same objects' equal, and back."""
    a = bot_game("classic-eur", 3, 4, cap=900)
    b = bot_game("classic-eur", 4, 5, cap=900)
    c = bot_game("sv", 4, 3, cap=400)
    rng = random.Random(7)
    memory = StateJsonMemory()
    order: list[GameState] = []
    for i in range(1, len(a)):
        order.append(a[i])
        if i % 5 == 0:
            order += [a[i - 1], a[i]]  # undo, redo
        if i % 50 == 0:
            order += [a[rng.randrange(i)], b[min(i, len(b) - 1)], c[rng.randrange(len(c))],
                      a[i]]
    order += [rng.choice(a + b + c) for _ in range(600)]
    for g in order:
        same(memory.state_json(g), state_json(g))
        same(memory.state_json(g, with_legal=False), state_json(g, with_legal=False))


def test_the_unchanged_parts_are_reused() -> None:
    """A roll that pays nobody changes one player: the others' rows, the squares, the
    options, the currency and the bank are the previous JSON's very objects."""
    memory = StateJsonMemory()
    states = bot_game("classic-eur", 5, 8, cap=600)
    reused_rows = reused_boards = 0
    before = memory.state_json(states[0])
    for g0, g in zip(states, states[1:], strict=False):
        after = memory.state_json(g)
        for i, (p0, p) in enumerate(zip(g0.players, g.players, strict=True)):
            if p0 is p and before["players"][i]["net_worth"] == after["players"][i]["net_worth"]:
                assert after["players"][i] is before["players"][i]
                reused_rows += 1
        if (g0.owner, g0.level, g0.mortgaged) == (g.owner, g.level, g.mortgaged):
            assert after["squares"] is before["squares"]
            reused_boards += 1
        assert after["options"] is before["options"]
        assert after["currency"] is before["currency"]
        if after["bank"] == before["bank"]:
            assert after["bank"] is before["bank"]
        before = after
    # most steps change one or two players of eight, and no square
    assert reused_rows > 4 * len(states) and reused_boards > len(states) // 2


def test_a_changed_square_is_seen() -> None:
    """A deed bought, a house built, a mortgage: the JSON follows (the key is the board's
    tuples, not the players)."""
    memory = StateJsonMemory()
    g = start(("Ann", "Bo"))
    memory.state_json(g)
    for changes in ({"owners": {1: 0, 3: 0}}, {"levels": {1: 1}}, {"mortgaged": [5]},
                    {"owners": {5: 1}}):
        g = arrange(g, **changes)
        same(memory.state_json(g), state_json(g))


def scrambled(g: GameState, rng: random.Random) -> GameState:
    """A copy with every field that `property_key` leaves out changed."""
    h = g.copy()
    n = len(h.edition.squares)
    h.version += 7
    h.rng = rng.randrange(2**31)
    h.turn_number += 3
    h.rolled, h.must_roll = not h.rolled, not h.must_roll
    h.doubles = rng.randrange(3)
    h.dice = (rng.randint(1, 6), rng.randint(1, 6))
    h.winner = rng.randrange(-1, len(h.players))
    if not h.seldom.mr_monopoly:
        h.current = rng.randrange(len(h.players))
    cards = sorted(h.edition.cards)
    for i in range(len(h.players)):
        p = h.wp(i)
        p.position = rng.randrange(n)
        p.in_jail = not p.in_jail
        p.jail_turns = rng.randrange(3)
        p.jail_cards = rng.sample(cards, 2)
        p.bus_tickets = tuple(rng.sample(cards, rng.randrange(3)))
    s = h.ws()
    s.pot += 150
    s.last_card = rng.choice(cards)
    s.decks = {k: v[::-1] for k, v in s.decks.items()}
    s.claims = [(0, len(h.players) - 1, rng.randrange(n), 40, 1)]
    s.standings = [{"name": h.players[0].name, "rank": 1}]
    s.extra = {"variant": "short"}
    s.fresh_tickets = rng.randrange(2)
    s.go_salary = rng.randrange(3)
    return h


def test_the_property_key_holds_everything_the_property_offers_read() -> None:
    """Change every field the key leaves out: the same offers to build, sell, mortgage and
    lift, and the same builders; so a field those offers come to read must join the key."""
    from companion.rules.legal import property_key, property_offers

    rng = random.Random(3)
    states = (bot_game("classic-eur", 5, 8, cap=1500)[::7] + bot_game("mega", 11, 6, cap=1500,
                                                                      speed_die=True)[::5]
              + walk("sv", 2, 600, {"bank_only": True})[::3]
              + walk("classic-eur", 3, 600, OPTIONS[4])[::3])
    checked = 0
    for g in states:
        offers, builders = property_offers(g)
        for _ in range(3):
            h = scrambled(g, rng)
            assert property_key(h) == property_key(g)
            again, builders_again = property_offers(h)
            assert [o.to_json() for o in again] == [o.to_json() for o in offers]
            assert builders_again == builders
            checked += 1
        assert property_key(scrambled(g, rng)) == property_key(g)
    assert checked > 1000


def test_a_session_shows_the_fresh_json_through_undo_redo_and_a_jump_back(
        tmp_path: Path) -> None:
    """A real session (its views build through its memory): after every bot move, undo,
    redo and jump back, what `state()` shows is `state_json` of the state it stands at."""
    from companion.game.api import Source
    from companion.game.session import GameSession

    banker = Source("script", banker=True)
    rng = random.Random(5)

    def alike(s: GameSession) -> None:
        shown = s.state()
        fresh = state_json(s._state)  # type: ignore[arg-type]
        assert {k: shown[k] for k in fresh} == fresh
        assert json.dumps({k: shown[k] for k in fresh}) == json.dumps(fresh)

    with GameSession.open(tmp_path) as s:
        assert s.submit({"do": "new_game", "edition": "classic-eur", "seed": 8,
                         "players": ["Ann", "Bo", "Cy", "Di", "Ed"]}, banker).accepted
        bots = Bots()
        for step in range(500):
            g = s._state
            assert g is not None
            if g.winner >= 0:
                break
            assert s.submit(bots.choose(g).to_json(), banker).accepted
            alike(s)
            if step % 9 == 4:
                assert s.undo(banker).accepted
                alike(s)
                if rng.random() < 0.5:
                    assert s.redo(banker).accepted
                    alike(s)
            if step % 97 == 50:
                target = s.undo_target()
                assert target is not None
                assert s.undo_to(int(target["seq"]) - 20, banker).accepted
                alike(s)


def test_readers_on_several_threads_at_once() -> None:
    """The listeners' thread, a phone's request and the screen may build views of different
    versions together: each gets its own state's JSON."""
    import threading

    a = bot_game("classic-eur", 6, 5, cap=500)
    b = bot_game("mega", 7, 4, cap=300)
    fresh = {id(g): state_json(g) for g in a + b}
    memory = StateJsonMemory()
    wrong: list[int] = []

    def reader(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(300):
            g = rng.choice(a if rng.random() < 0.7 else b)
            if memory.state_json(g) != fresh[id(g)]:
                wrong.append(g.version)

    threads = [threading.Thread(target=reader, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not [t for t in threads if t.is_alive()]
    assert not wrong
