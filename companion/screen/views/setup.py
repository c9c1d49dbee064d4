"""The setup screen: language (first), edition, players (names, colours, tokens), house rules,
banker PIN.

`SetupForm` is the form as data, changed by buttons (ROLL next line, YES change, NO change
back, PASS GO deal), keys (typing edits a name or the PIN) or taps; `draw_setup` draws it.
`new_game_command` is what the form submits when the table deals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from companion.editions import player_limits
from companion.game.pins import valid_pin
from companion.rules.commands import NewGame
from companion.screen import texts, theme
from companion.screen.layout import SetupLayout, rows
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import PlayerStyle
from companion.words import catalog as i18n

TOKENS = ("car", "hat", "dog", "ship", "boot", "iron", "thimble", "cat")
COLORS = tuple(theme.PLAYER_COLORS)
# house rules offered on the setup screen: (message id, option, value when on, when off)
HOUSE_RULES: tuple[tuple[str, str, Any, Any], ...] = (
    ("rule_free_parking_pot", "free_parking_pot", True, False),
    ("rule_double_salary_on_go", "double_salary_on_go", True, False),
    ("rule_auctions", "auctions", True, False),
    ("rule_no_rent_in_jail", "no_rent_in_jail", True, False),
    ("rule_short_game", "houses_before_hotel", 3, 4),
    ("rule_bank_only", "bank_only", True, False),
    ("rule_speed_die", "speed_die", True, False),
    ("rule_physical_dice", "physical_dice", True, False),
    ("rule_physical_deck", "physical_deck", True, False),
)
MAX_NAME = 14
#: the language line's choices: "" is the edition's own language
LANGUAGE_CHOICES = ("", *i18n.LANGUAGES)
TIMED_MINUTES = (0, 60, 90, 120)


def edition_rolls_speed_die(edition_id: str) -> bool:
    """Whether the edition's data rolls the speed die (the Mega edition); any table may
    switch it on or off on the setup form.

    >>> edition_rolls_speed_die("mega"), edition_rolls_speed_die("classic-eur")
    (True, False)
    """
    dice = i18n.edition_data(edition_id).get("dice") or {}
    return bool(dice.get("speed")) if isinstance(dice, dict) else False


@dataclass
class SetupPlayer:
    """One seat at the table."""

    name: str
    color: str
    token: str


@dataclass
class SetupForm:
    """The new-game form and which line has the focus."""

    editions: list[tuple[str, str]] = field(default_factory=lambda: [("classic-eur", "")])
    edition: int = 0
    language: str = ""  # the screen's language; "" follows the edition
    #: the language spoken when none is chosen here: the configured one (or, on a first
    #: start, the system's); "" lets the edition speak its own
    fallback: str = ""
    players: list[SetupPlayer] = field(default_factory=list)
    rules: dict[str, bool] = field(default_factory=dict)
    pin: str = ""
    timed: int = 0  # minutes of a timed game; 0: play to the end
    focus: int = 0

    edited: set[int] = field(default_factory=set)  # seats whose name has been typed

    def __post_init__(self) -> None:
        self.fit_players()
        for _msg, option, _on, _off in HOUSE_RULES:
            self.rules.setdefault(option, option == "auctions")
        self.rules["speed_die"] = edition_rolls_speed_die(self.edition_id())

    @property
    def min_players(self) -> int:
        """The fewest players the chosen edition allows."""
        return player_limits(self.edition_id())[0]

    @property
    def max_players(self) -> int:
        """The most players the chosen edition allows (6 for the Swedish and Russian rules,
        else 8)."""
        return player_limits(self.edition_id())[1]

    def fit_players(self) -> None:
        """Seat as many players as the chosen edition allows: the last seats leave when
        there are too many, default seats come when there are too few."""
        while len(self.players) > self.max_players:
            self.players.pop()
            self.edited.discard(len(self.players))
        while len(self.players) < self.min_players:
            self.add_player()

    def add_player(self) -> None:
        """Seat one more player with the next free colour and token."""
        if len(self.players) >= self.max_players:
            return
        used_c = {p.color for p in self.players}
        used_t = {p.token for p in self.players}
        seat = len(self.players) + 1
        self.players.append(SetupPlayer(
            text("setup_player", number=seat),
            next(c for c in COLORS if c not in used_c),
            next(t for t in TOKENS if t not in used_t)))

    def edition_id(self) -> str:
        """The chosen edition's id."""
        return self.editions[self.edition % len(self.editions)][0]

    def ui_language(self) -> str:
        """The language the form asks for: the chosen one, else the edition's."""
        return self.language or self.fallback or i18n.default_language(self.edition_id())

    def edition_name(self) -> str:
        """The chosen edition's name, in the screen's language when the edition has it."""
        ed_id, name = self.editions[self.edition % len(self.editions)]
        try:
            local = i18n.localized_name(ed_id, ed_id, texts.language())
        except KeyError:
            local = ""
        return local if local and local != ed_id else (name or ed_id)

    def rename_defaults(self) -> None:
        """Give the seats nobody typed a name for the default name in the screen's language."""
        for seat, player in enumerate(self.players):
            if seat not in self.edited:
                player.name = text("setup_player", number=seat + 1)

    def lines(self) -> list[tuple[str, str]]:
        """(line id, shown value) for every line of the form, in order."""
        out = []  # the language first: nothing else can be read before it is right
        if self.language or self.fallback:
            out.append(("language", i18n.language_name(self.language or self.fallback)))
        else:
            own = i18n.language_name(i18n.default_language(self.edition_id()))
            out.append(("language", text("setup_language_auto", language=own)))
        out.append(("edition", self.edition_name()))
        for i, player in enumerate(self.players):
            out.append((f"player:{i}", f"{player.name} · {text('token_' + player.token)}"))
        out.append(("count", f"{len(self.players)}  ({self.min_players}–{self.max_players})"))
        for _msg, option, _on, _off in HOUSE_RULES:
            out.append((f"rule:{option}", text("setup_on" if self.rules[option] else "setup_off")))
        out.append(("timed", text("setup_minutes", minutes=self.timed) if self.timed
                     else text("setup_off")))
        out.append(("pin", "•" * len(self.pin) if self.pin else text("setup_pin_unset")))
        out.append(("start", ""))
        return out

    def label(self, line_id: str) -> str:
        """The words before a line's value."""
        if line_id == "edition":
            return text("setup_edition")
        if line_id == "language":
            return text("setup_language")
        if line_id.startswith("player:"):
            return text("setup_player", number=int(line_id.split(":")[1]) + 1)
        if line_id == "count":
            return text("setup_players")
        if line_id.startswith("rule:"):
            option = line_id.split(":", 1)[1]
            return next(text(m) for m, o, _a, _b in HOUSE_RULES if o == option)
        if line_id == "pin":
            return text("setup_pin")
        if line_id == "timed":
            return text("setup_timed")
        return text("act_start")

    def focused(self) -> str:
        """The focused line's id."""
        lines = self.lines()
        self.focus %= len(lines)
        return lines[self.focus][0]

    def move(self, steps: int) -> None:
        """Move the focus by `steps` lines (wrapping)."""
        self.focus = (self.focus + steps) % len(self.lines())

    def change(self, step: int = 1) -> bool:
        """Change the focused line's value; True when the line was "Deal & start"."""
        line = self.focused()
        if line == "edition":  # the speed die and the seats follow the edition
            self.edition = (self.edition + step) % len(self.editions)
            self.rules["speed_die"] = edition_rolls_speed_die(self.edition_id())
            self.fit_players()
        elif line == "language":
            choices = i18n.LANGUAGES if self.fallback else LANGUAGE_CHOICES  # "" is the fallback
            current = self.language or self.fallback
            index = choices.index(current) if current in choices else 0
            self.language = choices[(index + step) % len(choices)]
        elif line.startswith("player:"):
            player = self.players[int(line.split(":")[1])]
            used = {p.color for p in self.players if p is not player}
            free = [c for c in COLORS if c not in used]
            player.color = free[(free.index(player.color) + step) % len(free)] \
                if player.color in free else free[0]
            player.token = TOKENS[(TOKENS.index(player.token) + step) % len(TOKENS)]
        elif line == "count":
            if step > 0:
                self.add_player()
            elif len(self.players) > self.min_players:
                self.players.pop()
        elif line.startswith("rule:"):
            option = line.split(":", 1)[1]
            self.rules[option] = not self.rules[option]
        elif line == "timed":
            index = TIMED_MINUTES.index(self.timed) if self.timed in TIMED_MINUTES else 0
            self.timed = TIMED_MINUTES[(index + step) % len(TIMED_MINUTES)]
        elif line == "start":
            return True
        return False

    def type(self, chars: str) -> None:
        """Typed text: edits the focused player's name, or the PIN (digits only)."""
        line = self.focused()
        if line.startswith("player:"):
            seat = int(line.split(":")[1])
            player = self.players[seat]
            if seat not in self.edited:  # the first key replaces the default name
                self.edited.add(seat)
                player.name = ""
            player.name = (player.name + chars)[:MAX_NAME]
        elif line == "pin":
            self.pin = (self.pin + "".join(c for c in chars if c.isdigit()))[:6]

    def backspace(self) -> None:
        """Delete the last typed character of the focused name or PIN."""
        line = self.focused()
        if line.startswith("player:"):
            player = self.players[int(line.split(":")[1])]
            player.name = player.name[:-1]
        elif line == "pin":
            self.pin = self.pin[:-1]

    def styles(self) -> dict[str, PlayerStyle]:
        """Colour and token per player name, for the game screen."""
        return {p.name: PlayerStyle(p.color, p.token) for p in self.players}

    def problem(self) -> str | None:
        """Why the form cannot start a game yet (too many or too few players for the
        edition, empty or repeated names, a banker PIN too short), or None."""
        if not self.min_players <= len(self.players) <= self.max_players:
            return text("setup_players_problem", edition=self.edition_name(),
                        min=self.min_players, max=self.max_players)
        names = [p.name.strip() for p in self.players]
        if any(not n for n in names) or len(set(names)) != len(names):
            return text("setup_names_problem")
        if self.pin and not valid_pin(self.pin):
            return text("pin_short")
        return None

    def new_game_command(self, seed: int) -> NewGame:
        """The new_game command for the session."""
        options: dict[str, Any] = {}
        for _msg, option, on, off in HOUSE_RULES:
            value = on if self.rules[option] else off
            options[option] = value
        if self.timed:
            options.update(variant="timed", time_limit_minutes=self.timed)
        return NewGame(self.editions[self.edition][0],
                       tuple(p.name.strip() for p in self.players), seed, options)


def draw_setup(p: Painter, form: SetupForm) -> SetupLayout:
    """The form; every line is a touch target (tap: focus and change)."""
    layout = SetupLayout.for_size(p.surface.get_size())
    p.fill(layout.header, theme.PANEL)
    p.text(text("setup_title"), layout.header.inflate(-p.px(20), -p.px(6)), 22, theme.ACCENT,
           bold=True)
    lines = form.lines()
    slots = rows(layout.form, 14, p.px(2))
    first = max(0, min(form.focus - len(slots) // 2, len(lines) - len(slots)))
    size = theme.READABLE  # fourteen lines of 16 px fill the form
    floor = theme.readable(p.scale)
    inner_w = layout.form.width - p.px(16)
    # the labels' column as wide as the longest label needs (a value gets at least 40 %)
    label_w = min(max(p.measure(form.label(line_id), round(size * p.scale), bold=True)[0]
                      for line_id, _value in lines), inner_w * 60 // 100)
    for slot, index in zip(slots, range(first, len(lines)), strict=False):
        line_id, value = lines[index]
        focused = index == form.focus % len(lines)
        p.fill(slot, theme.ACCENT if focused else theme.PANEL, radius=5)
        ink = (20, 20, 25) if focused else theme.TEXT
        inner = slot.inflate(-p.px(16), -p.px(2))
        width = label_w
        value_w = p.measure(value, round(size * p.scale), bold=True)[0]
        if value_w > inner.width - width - p.px(10):  # a long value (an edition's name)
            own = p.measure(form.label(line_id), round(size * p.scale), bold=focused)[0]
            width = max(own, inner.width - value_w - p.px(10))  # starts nearer its label
        label_box = pygame.Rect(inner.x, inner.y, width, inner.height)
        value_box = pygame.Rect(label_box.right + p.px(10), inner.y,
                                inner.right - label_box.right - p.px(10), inner.height)
        if line_id == "start":
            p.text(form.label(line_id), inner, size, ink, bold=True, align="center",
                   min_size=floor)
        else:
            p.text(form.label(line_id), label_box, size, ink, bold=focused, min_size=floor)
            color = ink
            if line_id.startswith("player:") and not focused:
                color = theme.player_color(form.players[int(line_id.split(":")[1])].color, 0)
            p.text(value, value_box, size, color, bold=True, min_size=floor)
        p.hotspot(slot, "setup_line", index)
    problem = form.problem()
    p.text(problem or text("setup_hint"), layout.hint, size, theme.BAD if problem else
           theme.TEXT_DIM, align="center", min_size=floor)
    return layout
