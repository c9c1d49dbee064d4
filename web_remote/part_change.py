"""A live part sent on a stream as a change of the one the stream sent before: the text
both share at the start and at the end is kept by the phone, only what lies between is sent.

After most moves a Me page differs from the one before in its first lines (the version, the
headline, the buttons), while its deed cards, trades and forms are as they were: a part of
5-10 KB goes as about 1 KB (docs/bench.md, `fanout.part_bytes`). On a Pi Zero 2 W every
phone's part after a move shares one Wi-Fi radio, so fewer bytes reach the last phone sooner.

Offsets count UTF-16 code units, as the phone's JavaScript slices its strings (a player's
name may hold a character outside the Basic Multilingual Plane, one code point but two
units). The common ends are found on the texts' UTF-16 bytes by a binary search (each step
one comparison in C). The phone checks that the text it keeps is as long as the one the
change was made against (`of`), and starts its stream again when not (web_remote/static/app.js).
"""

from __future__ import annotations

from typing import Any

#: below this many bytes saved a part goes whole (the change's own fields cost some)
SAVES_AT_LEAST = 256

_UNITS = "utf-16-le"


def units(text: str) -> bytes:
    """The text's UTF-16 code units, as bytes: what a stream keeps of the part it sent
    last, for `change` (encoded once per part, whatever the number of its streams)."""
    return text.encode(_UNITS, "surrogatepass")


def _text(units: bytes) -> str:
    return units.decode(_UNITS, "surrogatepass")


def _head(a: bytes, b: bytes, n: int) -> int:
    """How many of the first `n` bytes `a` and `b` share (a binary search of slices
    compared in C: about 4 microseconds for 10 KB here)."""
    low, high = 0, n
    while low < high:
        m = (low + high + 1) // 2
        if a[:m] == b[:m]:
            low = m
        else:
            high = m - 1
    return low


def _tail(a: bytes, b: bytes, n: int) -> int:
    """How many of the last `n` bytes `a` and `b` share."""
    low, high = 0, n
    while low < high:
        m = (low + high + 1) // 2
        if a[len(a) - m:] == b[len(b) - m:]:
            low = m
        else:
            high = m - 1
    return low


def change(before: bytes | None, text: str, new: bytes) -> dict[str, Any]:
    """`text` (its `units`: `new`) for a stream that sent the part whose units are `before`
    last (None: nothing yet): {"html": text} whole, or {"of", "head", "tail", "mid"}: keep
    the first `head` and the last `tail` UTF-16 units of the `of` units sent before, with
    `mid` between them."""
    if before is None:
        return {"html": text}
    old = before
    n = min(len(old), len(new))
    half = SAVES_AT_LEAST  # bytes: half the units to save, at one end or the other
    if n < 2 * half or (old[:half] != new[:half] and old[-half:] != new[-half:]):
        return {"html": text}  # changed near both ends (the Table page): no search
    head = _head(old, new, n) // 2 * 2
    tail = _tail(old, new, n - head) // 2 * 2
    mid = new[head:len(new) - tail]
    if len(new) - len(mid) < SAVES_AT_LEAST * 2:  # UTF-16: two bytes a unit
        return {"html": text}
    return {"of": len(old) // 2, "head": head // 2, "tail": tail // 2, "mid": _text(mid)}


def applied(before: str | None, sent: dict[str, Any]) -> str | None:
    """The whole part a stream's "part" event `sent` says, given the one it sent before
    (what app.js does); None when it is a change of a text other than `before`."""
    if "mid" not in sent:
        html = sent.get("html")
        return html if isinstance(html, str) else None
    if before is None:
        return None
    old = units(before)
    of, head, tail, mid = sent.get("of"), sent.get("head"), sent.get("tail"), sent.get("mid")
    if not (isinstance(of, int) and isinstance(head, int) and isinstance(tail, int)
            and isinstance(mid, str)) or of != len(old) // 2 or head < 0 or tail < 0 \
            or head + tail > of:
        return None
    return _text(old[:head * 2] + units(mid) + old[len(old) - tail * 2:])
