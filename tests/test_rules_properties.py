"""Property tests over random legal command sequences (hypothesis).

Whatever legal commands are sent: money moves only by transfers, every transfer balances,
no square has two owners, 32 houses in all, building stays even, cash never goes negative,
and a snapshot restores the same state.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import start

from companion.game import restore_snapshot
from companion.rules import Accepted, GameState, apply, legal_commands, snapshot
from companion.rules.edition import SquareKind


def concrete(template: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """A concrete command from a legal_commands template."""
    cmd = {k: v for k, v in template.items() if k not in {"squares", "min", "max", "players"}}
    if "squares" in template:
        cmd["square"] = data.draw(st.sampled_from(template["squares"]))
    if template["do"] == "bid":
        cmd["amount"] = data.draw(st.integers(template["min"], min(template["max"],
                                                                   template["min"] + 300)))
    if template["do"] == "roll":
        cmd["dice"] = [data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))]
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
    assert houses + g.bank_houses == ed.houses
    assert hotels + g.bank_hotels == ed.hotels
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
        levels = [g.level[s] for s in members]
        if any(levels):
            assert len({g.owner[s] for s in members}) == 1, f"{group} built without monopoly"
            assert not any(g.mortgaged[s] for s in members)
            hotel_sold_outright = max(levels) - min(levels) > 1
            assert not hotel_sold_outright or g.bank_houses < g.options.houses_before_hotel
    for i, lvl in enumerate(g.level):
        assert 0 <= lvl <= g.hotel_level
        if g.mortgaged[i]:
            assert g.owner[i] >= 0
    held = [c for p in g.players for c in p.jail_cards]
    for deck_id, cards in ed.decks.items():
        in_deck = g.decks[deck_id]
        assert sorted(in_deck + [c for c in held if ed.cards[c].deck == deck_id]) == sorted(
            c.id for c in cards)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 6), seed=st.integers(0, 1000))
def test_random_legal_sequences_keep_the_invariants(
    data: st.DataObject, players: int, seed: int
) -> None:
    g = start(tuple(f"P{i}" for i in range(players)), seed=seed)
    for _ in range(120):
        legal = legal_commands(g)
        if not legal:
            break
        template = data.draw(st.sampled_from(legal))
        cmd = concrete(template, data)
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


def test_bot_games_end_with_a_winner_and_keep_the_invariants() -> None:
    from companion.bots import Bots

    for seed in range(3):
        g = start(("A", "B", "C", "D"), seed=seed)
        bots = Bots()
        for _ in range(20000):
            if g.winner >= 0:
                break
            r = apply(g, bots.choose(g))
            assert isinstance(r, Accepted), r
            check_invariants(r.state, g, r.events)
            g = r.state
        assert g.winner >= 0
