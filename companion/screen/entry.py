"""The screen's entry modes, shared by keys, the encoder and taps: the physical dice (two
white dice and, with the speed die, the third), the encoder's dial, the square being chosen
on the board, the next bid, and the hardware's warnings.

`EntryMixin` is part of the `Controller` (companion.screen.controller): it only changes the
UI state and submits through the controller's `submit`, on the screen loop's thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.screen.picking import current_pick
from companion.screen.texts import MESSAGES, text
from companion.screen.views.dice import SPEED_FACES, dial_faces, dice_needed
from companion.screen.views.prompt import acting_player, legal_entry

if TYPE_CHECKING:
    from companion.game.api import JSON, Outcome
    from companion.screen.ui_state import UiState


def warning_text(code: str, source: str, message: str) -> str:
    """A hardware warning in the screen's language, by its code; unknown codes keep the
    hardware's own message.

    >>> from companion.screen.texts import use_language
    >>> use_language("en")
    'en'
    >>> warning_text("button_stuck", "roll", "ROLL stuck")
    'ROLL button stuck: check it'
    >>> warning_text("fan_on_fire", "fan", "The fan is on fire")
    'The fan is on fire'
    """
    key = f"warn_{code}"
    if key not in MESSAGES:
        return message or f"{code}: {source}"
    button = text(f"btn_{source}") if f"btn_{source}" in MESSAGES else source
    return text(key, button=button, source=source)


class EntryMixin:
    """Dice entry, dial, square choice, bid dial and warnings for the Controller."""

    if TYPE_CHECKING:
        ui: UiState
        state: JSON | None

        def submit(self, command: JSON, source: str) -> Outcome | None: ...

        def refuse(self, refusal: str | Outcome) -> None: ...

        def wake(self) -> None: ...

        inbox: Any

    # --- thread-safe entry points (hardware threads) ------------------------------------

    def post_encoder(self, steps: int) -> None:
        """The panel's encoder turned by `steps` detents: handled on the loop's thread."""
        self.inbox.put(("encoder", int(steps)))
        self.wake()

    def post_warning(self, code: str, source: str, message: str, active: bool = True) -> None:
        """A hardware warning (a stuck or chattering button, a silent reader); active=False
        clears it."""
        self.inbox.put(("warning", (code, source, message, active)))
        self.wake()

    # --- the loop's side ------------------------------------------------------------------

    def warn(self, code: str, source: str, message: str, active: bool = True) -> None:
        """Show a hardware warning until the hardware clears it."""
        key = f"{code}:{source}"
        if active:
            self.ui.warnings[key] = warning_text(code, source, message)
        else:
            self.ui.warnings.pop(key, None)

    def _roll_entry(self) -> tuple[str | None, JSON | None]:
        """Who rolls now and the legal roll entry (None: no roll is asked for)."""
        if not self.state or not self.state.get("players"):
            return None, None
        who = acting_player(self.state)
        return who, legal_entry(self.state, "roll", who)

    def dice_digit(self, value: int, source: str = "keyboard") -> None:
        """One physical die typed: a white die (1-6) until both are in, then, with the speed
        die, its number (1-3); the roll is sent when all dice are in."""
        who, roll = self._roll_entry()
        if who is None or not 1 <= value <= 6:
            return
        assert self.state is not None
        if roll is None:
            self.refuse(text("nothing_for_button", button=text("btn_roll")))
            return
        needed = dice_needed(self.state, who)
        if len(self.ui.dice_entry) < 2:
            self.ui.dice_entry.append(value)
        elif needed > 2 and self.ui.speed_entry is None and value <= 3:
            self.ui.speed_entry = value
        else:
            self.refuse(text("prompt_speed_next"))
            return
        self._send_dice(who, needed, source)

    def speed_key(self, face: str, source: str = "keyboard") -> bool:
        """B (bus) or M (Mr. Monopoly) typed: the speed die's face, when the roll takes the
        speed die and it is not in yet; False when the key means something else."""
        who, roll = self._roll_entry()
        if who is None or roll is None or self.ui.speed_entry is not None:
            return False
        assert self.state is not None
        if dice_needed(self.state, who) < 3:
            return False
        if face == "mr_monopoly" and not self.ui.dice_entry:
            return False  # M alone is the MENU key; after a white die it is the speed die
        self.ui.speed_entry = face
        self._send_dice(who, 3, source)
        return True

    def _send_dice(self, who: str, needed: int, source: str) -> None:
        """Submit the roll once every die is in."""
        whites, speed = self.ui.dice_entry, self.ui.speed_entry
        if len(whites) < 2 or (needed > 2 and speed is None):
            return
        dice: list[int | str] = list(whites[:2])
        if needed > 2 and speed is not None:
            dice.append(speed)
        self.clear_dice()
        self.submit({"do": "roll", "by": who, "dice": dice}, source)

    def clear_dice(self) -> None:
        """Forget the dice typed or dialled so far."""
        self.ui.dice_entry = []
        self.ui.speed_entry = None
        self.ui.dial = None

    # --- the encoder ----------------------------------------------------------------------

    def turn(self, steps: int) -> bool:
        """Encoder detents: move a list's focus, the square being chosen, the dice dial or
        the next bid; True when something changed."""
        chooser = self.ui.chooser
        if self.ui.overlay == "chooser" and chooser is not None and chooser.choices:
            chooser.focus = (chooser.focus + steps) % len(chooser.choices)
            return True
        if self.state is None or not self.state.get("players") or self.ui.setup is not None:
            return False
        pick = current_pick(self.state, self.ui)
        if pick is not None:
            self.ui.square_focus = pick.step(steps)
            return True
        if (self.state.get("pending") or {}).get("kind") in ("auction", "building_auction"):
            self.ui.bid_steps = max(0, self.ui.bid_steps + steps)
            return True
        _who, roll = self._roll_entry()
        if roll is None:
            return False
        slot = min(2, len(self.ui.dice_entry))
        faces = dial_faces(slot)
        start = 0 if self.ui.dial is None else self.ui.dial
        self.ui.dial = (start + steps - (1 if self.ui.dial is None and steps > 0 else 0)) \
            % len(faces)
        return True

    def dial_take(self, source: str) -> None:
        """YES in dial mode: the dialled face is the next die."""
        who, roll = self._roll_entry()
        if who is None or roll is None or self.ui.dial is None:
            self.ui.dial = None
            return
        assert self.state is not None
        needed = dice_needed(self.state, who)
        slot = min(2, len(self.ui.dice_entry))
        face = dial_faces(slot)[self.ui.dial % len(dial_faces(slot))]
        if slot < 2 and isinstance(face, int):
            self.ui.dice_entry.append(face)
        elif face in SPEED_FACES:
            self.ui.speed_entry = face
        self.ui.dial = 0
        if len(self.ui.dice_entry) >= 2 and (needed < 3 or self.ui.speed_entry is not None):
            self._send_dice(who, needed, source)

    def pick_step(self, steps: int) -> None:
        """NO / PASS GO while choosing a square: the next (previous) candidate."""
        if self.state is None:
            return
        pick = current_pick(self.state, self.ui)
        if pick is not None:
            self.ui.square_focus = pick.step(steps)

    def tap_square(self, square: int, source: str) -> None:
        """A candidate square touched on the board: focus it; touched again, choose it."""
        if self.state is None:
            return
        pick = current_pick(self.state, self.ui)
        if pick is None or square not in pick.squares:
            return
        if pick.focus == square and self.ui.square_focus == square:
            self.submit(pick.command(square), source)
        else:
            self.ui.square_focus = square
