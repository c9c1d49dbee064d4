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


#: the speed die's faces as the engine stores them: 1-3 as numbers, then the two symbols
SPEED_BUS = 4
SPEED_MR_MONOPOLY = 5
#: the speed die's six faces, in the order a device roll of 1-6 picks them
SPEED_FACES = (1, 2, 3, SPEED_BUS, SPEED_MR_MONOPOLY, SPEED_MR_MONOPOLY)
#: the names a table script uses for the symbols
SPEED_NAMES = {SPEED_BUS: "bus", SPEED_MR_MONOPOLY: "mr_monopoly"}
SPEED_CODES = {name: code for code, name in SPEED_NAMES.items()}


def dice_json(dice: tuple[int, ...]) -> list[int | str]:
    """Dice as the table script writes them: the speed die's symbols by name.

    >>> dice_json((3, 4, SPEED_BUS))
    [3, 4, 'bus']
    >>> dice_json((3, 4))
    [3, 4]
    """
    out: list[int | str] = list(dice)
    if len(dice) == 3:
        out[2] = SPEED_NAMES.get(dice[2], dice[2])
    return out


def moved_total(dice: tuple[int, ...]) -> int:
    """What the dice move: the white dice, plus the speed die when it shows a number.

    >>> moved_total((3, 4, 2)), moved_total((3, 4, SPEED_BUS)), moved_total((3, 4))
    (9, 7, 7)
    """
    total = dice[0] + dice[1]
    if len(dice) > 2 and dice[2] <= 3:
        total += dice[2]
    return total


def roll_die(state: int, sides: int = 6) -> tuple[int, int]:
    """One die from 1 to `sides`, and the new state."""
    value, state = next_u64(state)
    return value % sides + 1, state


def two_dice(state: int) -> tuple[int, int, int]:
    """Two six-sided dice and the new state: `roll_die` twice, in one call (a roll of the
    white dice is the engine's most frequent step).

    >>> first, rng = roll_die(7)
    >>> second, rng = roll_die(rng)
    >>> two_dice(7) == (first, second, rng)
    True
    """
    # the mask written out: a constant is cheaper to load than a global in plain Python
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    first = (z ^ (z >> 31)) % 6 + 1
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return first, (z ^ (z >> 31)) % 6 + 1, state


def shuffled(items: list[str], state: int) -> tuple[list[str], int]:
    """A Fisher-Yates shuffled copy of items, and the new state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        value, state = next_u64(state)
        j = value % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state
