"""Property tests over random legal command sequences (hypothesis), on the classic and the
Mega editions.

Whatever legal commands are sent: money moves only by transfers, every transfer balances,
no square has two owners, the houses, hotels, skyscrapers, depots and bus tickets are all
accounted for, building stays even, cash never goes negative, and a snapshot restores the
same state.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import CLASSIC, MEGA, start

from companion.game.applying import restore_snapshot
from companion.rules import Accepted, GameState, apply, legal_commands, snapshot
from companion.rules.edition import BUS_DECK, SquareKind
from companion.rules.state import FOLLOW_UPS

EDITIONS = [CLASSIC, MEGA]
SPEED_FACES = [1, 2, 3, "bus", "mr_monopoly"]


def concrete(template: dict[str, Any], data: st.DataObject, g: GameState) -> dict[str, Any]:
    """A concrete command from a legal_commands template."""
    cmd = {k: v for k, v in template.items()
           if k not in {"squares", "min", "max", "players", "buildings"}}
    if "buildings" in template:
        cmd["building"] = data.draw(st.sampled_from(template["buildings"]))
    if "squares" in template:
        cmd["square"] = data.draw(st.sampled_from(template["squares"]))
    if template["do"] == "bid":
        cmd["amount"] = data.draw(st.integers(template["min"], min(template["max"],
                                                                   template["min"] + 300)))
    if template["do"] == "roll":
        cmd["dice"] = [data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))]
        top = g.top
        roller = g.players[g.current]
        if g.options.speed_die and top is None and not roller.in_jail:
            cmd["dice"].append(data.draw(st.sampled_from(SPEED_FACES)))
    if template["do"] == "land":
        return {"do": "pass_go", "by": template["by"]}
    if template["do"] == "pay":
        payer = data.draw(st.sampled_from(template["from"]))
        payee = data.draw(st.sampled_from([t for t in template["to"] if t != payer]))
        return {"do": "pay", "from": payer, "to": payee, "amount": data.draw(st.integers(1, 80))}
    if template["do"] == "trade":
        a, b = data.draw(st.permutations(template["players"]))[:2]
        cmd = {"do": "trade", "from": a, "to": b, "give": {"cash": data.draw(st.integers(0, 50))},
               "take": {"cash": 0}}
    return cmd


def check_invariants(g: GameState, before: GameState, events: list[dict[str, Any]]) -> None:
    ed = g.edition
    houses = sum(g.houses_on(i) for i in range(len(g.level)))
    hotels = sum(1 for i in range(len(g.level)) if g.has_hotel(i))
    skyscrapers = sum(1 for i in range(len(g.level)) if g.has_skyscraper(i))
    assert houses + g.bank_houses == ed.houses
    assert hotels + g.bank_hotels == ed.hotels
    assert skyscrapers + g.bank_skyscrapers == ed.skyscrapers
    assert len(g.depots) <= ed.depots and len(set(g.depots)) == len(g.depots)
    for s in g.depots:
        assert ed.squares[s].kind is SquareKind.STATION and g.owner[s] >= 0
        assert not g.mortgaged[s]
    assert not (g.pending and g.pending[-1].kind in FOLLOW_UPS), "a follow-up left on top"
    delta: dict[Any, int] = {}
    for e in events:
        if e["kind"] == "transfer":
            delta[e["from"]] = delta.get(e["from"], 0) - e["amount"]
            delta[e["to"]] = delta.get(e["to"], 0) + e["amount"]
    for i, p in enumerate(g.players):
        assert p.cash == before.players[i].cash + delta.get(p.name, 0), "money moved unrecorded"
        assert p.cash >= 0
    assert g.pot == before.pot + delta.get("pot", 0)
    for group, members in ed.groups.items():
        if ed.squares[members[0]].kind is not SquareKind.LOT:
            continue
        built = [s for s in members if g.level[s]]
        if built:
            builder = g.owner[built[0]]
            mine = [s for s in members if g.owner[s] == builder]
            assert all(g.owner[s] == builder for s in built), f"{group} built by two players"
            all_but_one = (g.options.build_with_all_but_one and len(members) > 2
                           and len(mine) == len(members) - 1)
            assert len(mine) == len(members) or all_but_one, f"{group} built without monopoly"
            assert not any(g.mortgaged[s] for s in mine)
            levels = [g.level[s] for s in mine]
            sold_outright = max(levels) - min(levels) > 1
            assert not sold_outright or g.bank_houses < g.options.houses_before_hotel or (
                g.bank_hotels < 1)
            if any(g.has_skyscraper(s) for s in members):
                assert len(mine) == len(members)
    top_level = g.hotel_level + (1 if ed.skyscrapers else 0)
    for i, lvl in enumerate(g.level):
        assert 0 <= lvl <= top_level
        if g.mortgaged[i]:
            assert g.owner[i] >= 0
    held = [c for p in g.players for c in p.jail_cards]
    for deck_id, cards in ed.decks.items():
        in_deck = g.decks[deck_id]
        if deck_id == BUS_DECK:  # used tickets leave the game: pile and hands only shrink
            tickets = in_deck + [t for p in g.players for t in p.bus_tickets]
            assert len(set(tickets)) == len(tickets)
            assert set(tickets) <= {c.id for c in cards}
            assert len(tickets) <= len(before.decks[deck_id]) + sum(
                len(p.bus_tickets) for p in before.players)
            continue
        assert sorted(in_deck + [c for c in held if ed.cards[c].deck == deck_id]) == sorted(
            c.id for c in cards)


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 6), seed=st.integers(0, 1000))
def test_random_legal_sequences_keep_the_invariants(
    edition: str, data: st.DataObject, players: int, seed: int
) -> None:
    g = start(tuple(f"P{i}" for i in range(players)), seed=seed, edition=edition)
    for _ in range(120):
        legal = legal_commands(g)
        if not legal:
            break
        # end_game, always legal, would end most sequences early: drawn one time in 40
        going_on = [c for c in legal if c["do"] != "end_game"]
        if going_on and data.draw(st.integers(0, 39)):
            legal = going_on
        template = data.draw(st.sampled_from(legal))
        cmd = concrete(template, data, g)
        before = snapshot(g)
        r = apply(g, cmd)
        assert snapshot(g) == before, f"apply changed the state it was given: {cmd}"
        if not isinstance(r, Accepted):
            assert template["do"] in {"trade", "pay"}, f"legal command refused: {cmd} -> {r}"
            continue
        check_invariants(r.state, g, r.events)
        assert r.state.version == g.version + 1
        g = r.state
    assert snapshot(restore_snapshot(snapshot(g))) == snapshot(g)


@pytest.mark.parametrize("edition", EDITIONS)
def test_bot_games_end_with_a_winner_and_keep_the_invariants(edition: str) -> None:
    from companion.bots import Bots

    for seed in range(3):
        g = start(("A", "B", "C", "D"), seed=seed, edition=edition)
        bots = Bots()
        for _ in range(20000):
            if g.winner >= 0:
                break
            r = apply(g, bots.choose(g))
            assert isinstance(r, Accepted), r
            check_invariants(r.state, g, r.events)
            g = r.state
        assert g.winner >= 0
