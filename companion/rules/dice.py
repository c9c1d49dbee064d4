"""A small seeded generator whose whole state is one integer kept in the game state.

The engine may not use global randomness; with the generator's state in the game, a replay
of the same commands rolls the same dice and shuffles the same decks.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def next_u64(state: int) -> tuple[int, int]:
    """SplitMix64: the next 64-bit value and the new state.

    >>> next_u64(1)[0] == next_u64(1)[0]
    True
    """
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def roll_die(state: int, sides: int = 6) -> tuple[int, int]:
    """One die from 1 to `sides`, and the new state."""
    value, state = next_u64(state)
    return value % sides + 1, state


def shuffled(items: list[str], state: int) -> tuple[list[str], int]:
    """A Fisher-Yates shuffled copy of items, and the new state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        value, state = next_u64(state)
        j = value % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state
