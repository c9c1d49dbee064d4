"""The dice on 32-bit halves (the compiled engine's path) roll exactly what the 64-bit
SplitMix64 rolled before, for every state, so recorded games replay alike."""

from __future__ import annotations

import random

import pytest

from companion.rules import dice

_MASK = (1 << 64) - 1
#: the generator's states the property runs over (plus the edges below)
STATES = 120_000


def _oracle_next_u64(state: int) -> tuple[int, int]:
    """The generator as it was before the halves path (kept here as the test's oracle)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def _oracle_two_dice(state: int) -> tuple[int, int, int]:
    first, state = _oracle_next_u64(state)
    second, state = _oracle_next_u64(state)
    return first % 6 + 1, second % 6 + 1, state


def _oracle_shuffled(items: list[str], state: int) -> tuple[list[str], int]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        value, state = _oracle_next_u64(state)
        j = value % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state


def _edges() -> list[int]:
    """States where a carry or a bound could go wrong: 0, all ones, the 2**32, 2**62 and
    2**63 boundaries, the states the first addition wraps at, and states no game makes
    (negative, past 2**64), which the 64-bit path reduces mod 2**64."""
    golden = 0x9E3779B97F4A7C15
    out = [0, 1, _MASK, _MASK - 1, (1 << 64) - golden, (1 << 64) - golden - 1, -1, -golden,
           1 << 64, (1 << 64) + 5, (1 << 100) + 12345, -(1 << 70) - 3]
    for bit in (31, 32, 33, 61, 62, 63):
        out += [(1 << bit) - 1, 1 << bit, (1 << bit) + 1]
    return out


def _states(seed: int, count: int) -> list[int]:
    rng = random.Random(seed)
    # uniform 64-bit states, and states with long runs of ones or zeros in either half
    return ([rng.getrandbits(64) for _ in range(count - count // 4)]
            + [rng.getrandbits(64) | ((1 << rng.randrange(64)) - 1) for _ in range(count // 8)]
            + [rng.getrandbits(64) & ~((1 << rng.randrange(64)) - 1) for _ in range(count // 8)]
            + _edges())


@pytest.fixture(params=[False, True], ids=["masked", "halves"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Each public function on each path: plain Python can take the halves path too (it
    is exact there), while a compiled module keeps its own (its constant cannot be set)."""
    if not dice.NATIVE:
        monkeypatch.setattr(dice, "NATIVE", request.param)
    return bool(request.param)


def test_the_halves_are_the_64_bit_generator_over_many_states() -> None:
    mismatches = []
    for state in _states(28, STATES):
        hi, lo, vh, vl = dice._next_halves((state >> 32) & 0xFFFFFFFF, state & 0xFFFFFFFF)
        value, after = _oracle_next_u64(state)
        if (vh << 32 | vl, hi << 32 | lo) != (value, after):
            mismatches.append(state)
        for n in (1, 2, 6, 7, 16, 28, 40):
            if dice._below_halves(vh, vl, n) != value % n:
                mismatches.append(state)
    assert mismatches == []


def test_two_dice_rolls_what_it_rolled_before(path: bool) -> None:
    states = _states(2028, STATES)
    got = [dice.two_dice(state) for state in states]
    assert got == [_oracle_two_dice(state) for state in states]
    assert {first for first, _, _ in got} == {1, 2, 3, 4, 5, 6}  # the faces are all there
    assert all(0 <= after <= _MASK for _, _, after in got)


def test_a_long_chain_of_rolls_stays_the_same(path: bool) -> None:
    """A game feeds each roll's state into the next: 100 000 rolls in a row."""
    state = mine = 0x2545F4914F6CDD1D
    for _ in range(100_000):
        first, second, mine = dice.two_dice(mine)
        a, b, state = _oracle_two_dice(state)
        assert (first, second, mine) == (a, b, state)


def test_one_die_of_any_size_rolls_what_it_rolled_before(path: bool) -> None:
    for state in _states(6, 20_000):
        for sides in (6, 4, 12):
            value, after = _oracle_next_u64(state)
            assert dice.roll_die(state, sides) == (value % sides + 1, after), (state, sides)


def test_a_shuffle_is_what_it_was(path: bool) -> None:
    deeds = [f"deed{i}" for i in range(28)]
    for state in _states(40, 5_000):
        assert dice.shuffled(deeds, state) == _oracle_shuffled(deeds, state), state
    assert dice.shuffled([], 7) == ([], 7) and dice.shuffled(["a"], 7) == (["a"], 7)


def test_the_comparison_can_fail() -> None:
    """The oracle tells states apart: a state one off rolls differently (not vacuous)."""
    states = _states(1, 1_000)
    assert [dice.two_dice(s + 1) for s in states] != [_oracle_two_dice(s) for s in states]
