"""The banker PIN asked on the table screen before a banker action (the banker menu held
on MENU, dealing a new game): its question, what each panel button does, and its overlay.

The digits are typed on the keys or dialled with the knob through the one input flow
(companion.inputs.entry's PinEntry); the controller checks the PIN with the table's one
PIN guard (companion.game.pins), the phones' too. YES adds the dial's digit, PASS GO moves
the dial on (a touch screen without a knob), ROLL checks the PIN, NO takes the last digit
back (none: closes), MENU closes; so does a while without any input.
"""

from __future__ import annotations

import pygame

from companion.inputs.entry import PIN_DIGITS, PinEntry
from companion.screen import theme
from companion.screen.layout import rows
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.views.panels import draw_buttons
from companion.screen.views.prompt import Action, Prompt

#: the PIN question closes after this long without an input (seconds)
PIN_S = 30.0


def pin_prompt(pin: PinEntry) -> Prompt:
    """The PIN question and the buttons that answer it."""
    digit = PIN_DIGITS[pin.dial]
    return Prompt(text("pin_title"), [text("pin_help")], [
        Action("roll", text("pin_check"), ui="pin_check"),
        Action("yes", text("pin_add", digit=digit), ui="pin_add"),
        Action("no", text("act_back" if pin.digits else "act_close"), ui="pin_back"),
        Action("pass_go", text("pin_next"), ui="pin_next"),
        Action("menu", text("act_close"), ui="pin_close"),
    ])


def draw_pin(p: Painter, pin: PinEntry) -> None:
    """The PIN overlay: the question, a dot per digit typed, the dial's digit, the buttons
    (touch targets)."""
    shade = pygame.Surface(p.surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    p.surface.blit(shade, (0, 0))
    box = p.rect(20, 40, 760, 400)  # five buttons of 140 px: "Kontrollera" whole at 16 px
    p.fill(box, theme.PANEL, radius=10)
    p.frame(box, theme.ACCENT, width=2, radius=10)
    prompt = pin_prompt(pin)
    title, dots, dial, hint, buttons = rows(box.inflate(-p.px(30), -p.px(20)), 5, p.px(6))
    p.text(prompt.title, title, 24, theme.ACCENT, bold=True, align="center")
    p.text(" ".join("•" * len(pin.digits)) or "_ _ _ _", dots, 34, theme.TEXT, bold=True,
           align="center")
    p.text(PIN_DIGITS[pin.dial], dial, 40, theme.ACCENT, bold=True, align="center")
    p.paragraph(prompt.details[0], hint, theme.READABLE, theme.TEXT_DIM, align="center",
                max_lines=2, min_size=theme.readable(p.scale))
    draw_buttons(p, buttons, prompt)
