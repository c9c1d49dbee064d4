"""The six buttons of the panel, and the keys that stand in for them.

What a press answers now is the table layer's (companion.game.table.buttons: one table for
the screen and a headless table alike); this is only the list of the buttons (the pins of
the panel, the keys, the screen's buttons name them from here).
"""

from __future__ import annotations

from companion.inputs.events import Button

#: the six buttons, in the panel's order: the one list (the pins, the keys, the screen)
BUTTONS: tuple[str, ...] = tuple(b.value for b in Button)
#: the keyboard's stand-ins for them (the table screen's keys, the simulated panel's)
KEYS: dict[str, str] = {"r": "roll", "y": "yes", "n": "no", "g": "pass_go", "u": "undo",
                        "m": "menu"}
