"""Sounds for the Mega edition's events, from the table's existing sounds.

companion.screen.audio chooses the sounds of the classic events (dice, money, jail, gavel); the
speed die's triple and Mr. Monopoly, the bus tickets and the Auction square's choice have
no sound there, so the screen plays one of the same sounds for them when the mixer chose
none for the command.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: Mega event kind -> the sound it plays (names from companion.screen.audio.SOUND_NAMES)
MEGA_SOUNDS: dict[str, str] = {
    "triple": "pass_go",  # a fanfare moment: go anywhere
    "mr_monopoly": "dice",
    "bus_ticket": "cash_in",  # something to keep
    "bus_ticket_used": "pass_go",
    "bus_tickets_expired": "refused",
    "no_bus_ticket": "refused",
    "chose_square": "gavel",
}


def extra_sounds(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The sounds of the Mega events among `events`, in order, each once.

    >>> extra_sounds([{"kind": "rolled"}, {"kind": "triple"}, {"kind": "bus_ticket"}])
    ['pass_go', 'cash_in']
    >>> extra_sounds([{"kind": "transfer"}])
    []
    """
    out: list[str] = []
    for event in events:
        name = MEGA_SOUNDS.get(str(event.get("kind")))
        if name and name not in out:
            out.append(name)
    return out
