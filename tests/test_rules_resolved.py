"""The engine hands back each command as it actually happened (Accepted.resolved): device
dice and cards filled in, so that replaying the resolved commands gives the same game without
rolling or drawing anew."""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import MEGA, ok, start

from companion.bots import Bots
from companion.game.applying import apply_command
from companion.rules import Accepted, GameState, apply, command_to_json, snapshot
from companion.rules.events import Rolled


def bot_game(edition: str, seed: int) -> tuple[GameState, list[dict[str, Any]],
                                                list[dict[str, Any]], list[list[Any]]]:
    """A whole bot game (device dice and draws): the final state, the commands sent, the
    resolved commands (new_game first) and each command's events."""
    first = {"do": "new_game", "edition": edition, "players": ["A", "B", "C"], "seed": seed,
             "options": {}}
    r = apply_command(None, first)
    assert isinstance(r, Accepted)
    sent, resolved, events = [first], [r.resolved], [r.events]
    g, bots = r.state, Bots()
    for _ in range(20000):
        if g.winner >= 0:
            break
        cmd = bots.choose(g)
        r = apply(g, cmd)
        assert isinstance(r, Accepted), r
        sent.append(command_to_json(cmd))
        resolved.append(r.resolved)
        events.append(r.events)
        g = r.state
    assert g.winner >= 0
    return g, sent, resolved, events


@pytest.mark.parametrize("edition", ["classic-eur", MEGA])
def test_replaying_the_resolved_commands_gives_the_same_game_without_randomness(
        edition: str) -> None:
    final, sent, resolved, events = bot_game(edition, seed=3)
    # the bots let the device roll and draw: the resolved commands carry what it decided
    device_rolls = [i for i, c in enumerate(sent) if c["do"] == "roll" and "dice" not in c]
    device_draws = [i for i, c in enumerate(sent) if c["do"] == "draw" and "card" not in c]
    assert device_rolls and device_draws
    assert all(isinstance(resolved[i].get("dice"), list) for i in device_rolls)
    assert all(isinstance(resolved[i].get("card"), str) for i in device_draws)
    for s, c in zip(sent, resolved, strict=True):  # nothing else differs
        assert {k: v for k, v in c.items() if k not in {"dice", "card"}} == {
            k: v for k, v in s.items() if k not in {"dice", "card"}}

    r = apply_command(None, resolved[0])
    assert isinstance(r, Accepted)
    g = r.state
    generator = g.rng
    for i, c in enumerate(resolved[1:], start=1):
        r = apply(g, c)
        assert isinstance(r, Accepted), f"resolved command {i} {c} refused: {r}"
        assert r.events == events[i], f"command {i} {c} happened otherwise"
        assert r.resolved == c  # resolving a resolved command changes nothing
        g = r.state
        assert g.rng == generator, "the replay rolled or shuffled"
    want = snapshot(final)
    got = snapshot(g)
    # the generator is the one thing the original game advanced and the replay did not
    assert want.pop("rng") != got.pop("rng")
    assert got == want


def test_entered_dice_and_named_cards_are_resolved_as_sent() -> None:
    g = start()
    r = apply(g, {"do": "roll", "dice": [3, 4], "source": "phone", "note": "x"})
    assert isinstance(r, Accepted)
    assert r.resolved == {"do": "roll", "dice": [3, 4]}  # no transport fields
    top = r.state.top  # 7: Chance, drawn by the device: the top card of the deck
    assert top is not None and top.kind == "draw"
    card = r.state.decks[top.deck][0]
    r2 = apply(r.state, {"do": "draw"})
    assert isinstance(r2, Accepted)
    assert r2.resolved == {"do": "draw", "card": card}
    r3 = apply(r.state, {"do": "draw", "card": card, "by": "Ann"})
    assert isinstance(r3, Accepted) and r3.resolved == {"do": "draw", "by": "Ann", "card": card}


def test_a_device_roll_of_the_speed_die_names_its_symbols() -> None:
    for seed in range(40):  # a seed whose first device roll shows the bus or Mr. Monopoly
        g = start(edition=MEGA, seed=seed)
        r = apply(g, {"do": "roll"})
        assert isinstance(r, Accepted)
        dice = r.resolved["dice"]
        assert len(dice) == 3 and dice == next(
            list(e.dice) for e in r.events if isinstance(e, Rolled))
        if isinstance(dice[2], str):
            assert dice[2] in ("bus", "mr_monopoly")
            replayed, _ = ok(g, r.resolved)
            assert snapshot(replayed) | {"rng": 0} == snapshot(r.state) | {"rng": 0}
            return
    pytest.fail("no device roll showed a symbol of the speed die")
