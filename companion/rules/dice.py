"""A small seeded generator whose whole state is one integer kept in the game state.

The engine may not use global randomness; with the generator's state in the game, a replay
of the same commands rolls the same dice and shuffles the same decks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # mypyc's native 64-bit integer; at run time a plain int (no dependency)
    from mypy_extensions import i64

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


# SplitMix64 once more, on the state's two 32-bit halves, every intermediate value below
# 2**50: under mypyc these are native 64-bit integers that never overflow (no wrap-around
# relied on), where the 64-bit path above makes Python long integers (products up to
# 2**128) on every step. The halves of the constants of `next_u64`:
_GH: Final = 0x9E3779B9
_GL: Final = 0x7F4A7C15
_M1H: Final = 0xBF58476D
_M1L: Final = 0x1CE4E5B9
_M2H: Final = 0x94D049BB
_M2L: Final = 0x133111EB
_M32: Final = 0xFFFFFFFF


def _mul_halves(zh: i64, zl: i64, ch: i64, cl: i64) -> tuple[i64, i64]:
    """(zh:zl * ch:cl) mod 2**64 as halves, every product a 32-bit by 16-bit one (< 2**48).

    >>> z, c = 0x0123456789ABCDEF, 0xBF58476D1CE4E5B9
    >>> hi, lo = _mul_halves(z >> 32, z & 0xFFFFFFFF, c >> 32, c & 0xFFFFFFFF)
    >>> (hi << 32 | lo) == (z * c) & 0xFFFFFFFFFFFFFFFF
    True
    """
    top = (zl >> 16) * cl  # zl's upper 16 bits times cl
    low = (zl & 0xFFFF) * cl + ((top & 0xFFFF) << 16)
    # the cross terms zh*cl and zl*ch only matter mod 2**32: split the constant instead
    cross = (zh * (cl & 0xFFFF) + (((zh * (cl >> 16)) & 0xFFFF) << 16)
             + zl * (ch & 0xFFFF) + (((zl * (ch >> 16)) & 0xFFFF) << 16))
    return ((top >> 16) + (low >> 32) + cross) & _M32, low & _M32


def _next_halves(hi: i64, lo: i64) -> tuple[i64, i64, i64, i64]:
    """`next_u64` on halves: the new state's halves, then the value's.

    >>> s = 0xFEDCBA9876543210
    >>> sh, sl, vh, vl = _next_halves(s >> 32, s & 0xFFFFFFFF)
    >>> next_u64(s) == (vh << 32 | vl, sh << 32 | sl)
    True
    """
    lo += _GL
    hi = (hi + _GH + (lo >> 32)) & _M32
    lo &= _M32
    # z ^= z >> 30, z *= M1
    zh, zl = _mul_halves(hi ^ (hi >> 30), lo ^ (((hi << 2) & _M32) | (lo >> 30)), _M1H, _M1L)
    # z ^= z >> 27, z *= M2 (both halves read the old z)
    zh, zl = _mul_halves(zh ^ (zh >> 27), zl ^ (((zh << 5) & _M32) | (zl >> 27)), _M2H, _M2L)
    # z ^= z >> 31
    return hi, lo, zh ^ (zh >> 31), zl ^ (((zh << 1) & _M32) | (zl >> 31))


def _below_halves(vh: i64, vl: i64, n: i64) -> i64:
    """(vh:vl) % n for 0 < n < 2**31, from the halves (2**32 % n folds the high one in).

    >>> v = 0xFEDCBA9876543210
    >>> [_below_halves(v >> 32, v & 0xFFFFFFFF, n) == v % n for n in (1, 6, 7, 40)]
    [True, True, True, True]
    """
    return ((vh % n) * (0x100000000 % n) + vl) % n


#: whether this module runs compiled (mypyc; its functions carry no Python byte code): then
#: the dice take the halves path, whose numbers stay machine-size; plain Python keeps the
#: shorter masked path, cheaper there. Both give the same numbers for every state, so a
#: wrong answer here would cost speed, never change a roll.
NATIVE: Final = not hasattr(_below_halves, "__code__")


def _two_dice_halves(state: int) -> tuple[int, int, int]:
    """`two_dice` on halves: machine-size integers throughout when compiled."""
    hi: i64 = (state >> 32) & _M32
    lo: i64 = state & _M32
    hi, lo, vh, vl = _next_halves(hi, lo)
    first = _below_halves(vh, vl, 6) + 1
    hi, lo, vh, vl = _next_halves(hi, lo)
    return int(first), int(_below_halves(vh, vl, 6) + 1), int(hi) << 32 | int(lo)


def roll_die(state: int, sides: int = 6) -> tuple[int, int]:
    """One die from 1 to `sides`, and the new state."""
    if NATIVE:
        hi, lo, vh, vl = _next_halves((state >> 32) & _M32, state & _M32)
        return int(_below_halves(vh, vl, sides)) + 1, int(hi) << 32 | int(lo)
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
    if NATIVE:
        return _two_dice_halves(state)
    # plain Python: both dice side by side in one integer, each in a 128-bit lane (the
    # first die's state in bits 0-63, the second's, the state after both, in 128-191), so
    # each step of SplitMix64 is one operation for the two: 23 operations on Python
    # integers against 28 for one die after the other. The state is copied into both lanes
    # (times 2**128 + 1) and the golden-ratio step added once to the first, twice (mod
    # 2**64) to the second; the lanes are masked to 64 bits before each product (a shift
    # leaves the upper lane's low bits in the lower lane's spare bits) and after it (a
    # product of two 64-bit numbers fills its lane's 128 bits). Constants, not globals:
    # a constant is cheaper to load in plain Python
    z = (((state & 0xFFFFFFFFFFFFFFFF) * 0x100000000000000000000000000000001
          + 0x3C6EF372FE94F82A00000000000000009E3779B97F4A7C15)
         & 0xFFFFFFFFFFFFFFFF0000000000000000FFFFFFFFFFFFFFFF)
    state = z >> 128
    z = (((z ^ (z >> 30)) & 0xFFFFFFFFFFFFFFFF0000000000000000FFFFFFFFFFFFFFFF)
         * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF0000000000000000FFFFFFFFFFFFFFFF)
    z = (((z ^ (z >> 27)) & 0xFFFFFFFFFFFFFFFF0000000000000000FFFFFFFFFFFFFFFF)
         * 0x94D049BB133111EB & 0xFFFFFFFFFFFFFFFF0000000000000000FFFFFFFFFFFFFFFF)
    z ^= z >> 31
    return (z & 0xFFFFFFFFFFFFFFFF) % 6 + 1, (z >> 128) % 6 + 1, state


def shuffled(items: list[str], state: int) -> tuple[list[str], int]:
    """A Fisher-Yates shuffled copy of items, and the new state."""
    out = list(items)
    if NATIVE:
        hi: i64 = (state >> 32) & _M32
        lo: i64 = state & _M32
        for k in range(len(out) - 1, 0, -1):
            hi, lo, vh, vl = _next_halves(hi, lo)
            j = int(_below_halves(vh, vl, k + 1))
            out[k], out[j] = out[j], out[k]
        return out, int(hi) << 32 | int(lo)
    for i in range(len(out) - 1, 0, -1):
        value, state = next_u64(state)
        j = value % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state
