"""Parts of a page drawn again only when what they show changed.

After a move most of a phone's page looks as before: a payment changes two players' cash
and adds a line to the latest moves; the board, the deed list, a player's deed cards and
their trade forms stay as they were. A template wraps such a part in
`{% call fragment(slot, *inputs) %}...{% endcall %}`: the part is drawn once for its
`slot` (a name, with the player or square it is of) and the phone's language, and handed
out as it was while its `inputs` compare equal to those it was drawn from. A list whose
items are such parts (the board's squares) is one `{% call(item) fragment_each(...) %}`:
a part per item, all looked up in one call. The rule that
keeps it true: a part reads nothing but its inputs, the language, and what the edition in
its inputs decides (square names, colours, how money is written: a part that shows any of
it takes the view's `setup` as an input); never the phone's own things (its CSRF token).
tests/test_web_fragments.py draws every part again after every move of whole games and
compares (`Fragments(check=True)`).

On a Pi Zero 2 W a phone's page is about 6-50 ms of the one core Python runs on to draw, and
after most of a table's moves every phone's page is drawn again (sent on its stream,
web_remote/parts.py; docs/bench.md, `fanout.page_game_cpu_ms_per_move`): drawing the same
board, deeds and deed cards again was about 40 % of a page read.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, TypeVar, cast

from flask import current_app
from markupsafe import Markup

from web_remote.i18n import current_language

SLOT = "web_remote.fragments"
T = TypeVar("T")
#: parts kept at most, the least recently handed out going first: a table in two languages
#: keeps about 300 (52 squares, 28 deeds, 8 players' rows and three parts of each player's
#: page, 12 latest moves, in each language), a few hundred KB of text
KEPT = 512


class FragmentMismatch(AssertionError):
    """A part drawn again from equal inputs came out different: it reads something that is
    not among its inputs (raised only when checking, `Fragments(check=True)`)."""


class Fragments:
    """The parts drawn last, each with the inputs it was drawn from; shared by every
    request (a part drawn twice at once by two requests is kept once, either being right).
    """

    def __init__(self, kept: int = KEPT, check: bool = False) -> None:
        self._kept = kept
        self._check = check
        self._lock = threading.Lock()
        self._last: OrderedDict[Hashable, tuple[tuple[Any, ...], Any]] = OrderedDict()
        #: how many times each kind of part (its slot's name) was drawn: the tests count
        self.drawn: Counter[str] = Counter()

    def get(self, kind: str, slot: Hashable, inputs: tuple[Any, ...],
            draw: Callable[[], str]) -> Markup:
        """The part kept for `slot` when it was drawn from inputs equal to `inputs`, else
        `draw()` now (kept for the next ask); `kind` names the part for `drawn`."""
        return self.kept(kind, slot, inputs, lambda: Markup(draw()))

    def each(self, kind: str, parts: list[tuple[Hashable, tuple[Any, ...]]],
             draw: Callable[[int], str]) -> Markup:
        """The parts of a list, one per (slot, inputs) of `parts`, each as `get` gives it
        (`draw(i)` draws the i-th), joined: looked up under one hold of the lock, so that a
        list of which one or two changed costs little more than those (a board's squares
        after a token moved)."""
        out: list[Any] = [None] * len(parts)
        if not self._check:
            with self._lock:
                last = self._last
                for i, (slot, inputs) in enumerate(parts):
                    found = last.get(slot)
                    if found is not None and found[0] == inputs:
                        last.move_to_end(slot)
                        out[i] = found[1]
        for i, (slot, inputs) in enumerate(parts):
            if out[i] is None:
                out[i] = self.get(kind, slot, inputs, lambda i=i: draw(i))  # type: ignore[misc]
        return Markup("".join(out))

    def kept(self, kind: str, slot: Hashable, inputs: tuple[Any, ...],
             make: Callable[[], T]) -> T:
        """What `make()` gave for `slot` from inputs equal to `inputs`, else `make()` now
        (kept for the next ask): a part's text (`get`), or what a page says of one of its
        rows (a sentence of the latest moves); `kind` names it for `drawn`."""
        with self._lock:
            last = self._last.get(slot)
            if last is not None and last[0] == inputs:
                self._last.move_to_end(slot)
                if not self._check:
                    return cast(T, last[1])
        made = make()
        if self._check and last is not None and last[0] == inputs and last[1] != made:
            raise FragmentMismatch(f"{slot!r} came out different from equal inputs:\n"
                                   f"{last[1]}\n----\n{made}")
        with self._lock:
            self._last[slot] = (inputs, made)
            self._last.move_to_end(slot)
            while len(self._last) > self._kept:
                self._last.popitem(last=False)
        self.drawn[kind] += 1
        return made


def fragments() -> Fragments:
    """The serving app's parts (made on first use)."""
    kept: Fragments = current_app.extensions.setdefault(SLOT, Fragments())
    return kept


def fragment(slot: Hashable, *inputs: Any, caller: Callable[[], str]) -> Markup:
    """The template global behind `{% call fragment(slot, *inputs) %}`: the part in the
    phone's language, drawn by the call's body only when its inputs changed."""
    kind = str(slot[0] if isinstance(slot, tuple) and slot else slot)
    return fragments().get(kind, (slot, current_language()), inputs, caller)


def fragment_each(kind: str, items: Iterable[Any], key: str, *inputs: Any,
                  caller: Callable[[Any], str]) -> Markup:
    """The template global behind `{% call(item) fragment_each(kind, items, key, *inputs)
    %}`: each item's part in the phone's language, kept for the slot (kind, the item's
    `key`: an attribute, or a mapping's item) and drawn by the call's body for that item
    only when the item or the `inputs` shared by all changed; as `fragment` around each
    item, in one call."""
    lang = current_language()
    listed = list(items)
    parts: list[tuple[Hashable, tuple[Any, ...]]] = [
        (((kind, item[key] if isinstance(item, Mapping) else getattr(item, key)), lang),
         (*inputs, item)) for item in listed]
    return fragments().each(kind, parts, lambda i: caller(listed[i]))
