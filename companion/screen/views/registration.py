"""Registering the cards' RFID tags on the table screen: the banker menu's "Register
cards", the run's screen ("Tap the card for Götgatan", 3/28, the last card's result) and
its buttons (NO skips, UNDO goes back, MENU stops, YES moves a card registered to
something else). The banker menu asks for the banker PIN first (Controller.as_banker);
the banker card stands for it.

The run itself lives in companion.inputs.registrar.Registrar (shared with the readers' pump and
the phones); `CardRegistration` is its face on the screen. Threads: the registrar's
listener and the pump's `ui` only post to the controller's inbox (`post_button` with the
internal names below); everything else runs on the screen loop's thread. The overlay's
state is a `RegistrationView` kept in `ui.chooser` while `ui.overlay == "registration"`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import pygame

from companion.game.api import Outcome
from companion.screen import texts, theme
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import Choice, Chooser, UiState
from companion.screen.views.panels import draw_button
from companion.words.input_texts import INPUT_TEXTS, input_text

OVERLAY = "registration"
#: internal button names posted to the controller (never panel buttons)
REFRESH = "cards_refresh"
BANKER_MENU = "banker_menu"  # MENU held: the banker menu, behind the banker PIN
BANKER_CARD = "banker_card"  # the banker card tapped: the banker menu at once
MENU_ACTION = "cards:menu"
START_ACTION = "cards:start:"
KIND_TEXTS = {"deeds": "reg_kind_deeds", "chance": "reg_kind_chance",
              "community_chest": "reg_kind_community_chest",
              "bus_tickets": "reg_kind_bus_tickets", "bank_cards": "reg_kind_bank_cards",
              "banker": "reg_kind_banker"}
RESULT_TEXTS = {"registered": "reg_registered", "moved": "reg_moved", "kept": "reg_kept",
                "same_card": "reg_same_card", "skipped": "reg_skipped", "back": "reg_back"}


class ScreenHost(Protocol):
    """What registration needs of the screen's controller (companion.screen.controller
    .Controller), named here so that this view does not import the controller back."""

    ui: UiState

    def post_button(self, button: str, source: str = "button") -> None: ...
    def post_encoder(self, steps: int) -> None: ...
    def post_warning(self, code: str, source: str, message: str,
                     active: bool = True) -> None: ...
    def post_refusal(self, outcome: Outcome) -> None: ...
    def post_card_holder(self, player: str) -> None: ...
    def post_message(self, message: str, kind: str = "info") -> None: ...
    def open_chooser(self, title: str, choices: list[Choice]) -> None: ...
    def open_menu(self) -> None: ...
    def open_banker_menu(self, extra: tuple[Choice, ...] = ()) -> None: ...
    def as_banker(self, then: str) -> None: ...
    def authorize_banker(self) -> None: ...
    def refuse(self, refusal: str | Outcome) -> None: ...
    def notify(self, message: str, kind: str = "info") -> None: ...


@dataclass
class RegistrationView(Chooser):
    """The registration overlay's state: the registrar's last status (names in the
    screen's language)."""

    status: dict[str, Any] = field(default_factory=dict)


def card_name(role: dict[str, Any] | None) -> str:
    """A registrar role (with its localized `name`) in the screen's words."""
    if not role:
        return "?"
    if role.get("kind") == "bank_card":
        return text("reg_bank_card", number=role.get("number", "?"))
    if role.get("kind") == "banker":
        return text("reg_banker_card")
    return str(role.get("name") or role.get("square") or role.get("card") or "?")


def result_line(status: dict[str, Any]) -> tuple[str, theme.Color]:
    """What the last tap or button did, and its colour."""
    last = status.get("last") or {}
    outcome = str(last.get("outcome") or "")
    key = RESULT_TEXTS.get(outcome)
    if key is None:
        return "", theme.TEXT_DIM
    line = text(key, name=card_name(last.get("role")), was=card_name(last.get("was")))
    good = outcome in ("registered", "moved")
    return line, theme.GOOD if good else theme.ACCENT


def prompt_lines(status: dict[str, Any]) -> tuple[str, str]:
    """The big line and the progress ("3/28") of a status."""
    if not status.get("active"):
        done = "reg_finished" if status.get("finished") else "reg_stopped"
        return text(done), ""
    step = status.get("step")
    asking = status.get("asking")
    if asking:
        line = text("reg_asking", was=card_name(asking.get("was")), name=card_name(step))
    else:
        line = text("reg_tap", name=card_name(step))
    progress = text("reg_progress", position=status.get("position", 0),
                    total=status.get("total", 0))
    return line, progress


class CardRegistration:
    """The screen's side of card registration; see the module doc.

    controller: the screen's Controller; registrar: companion.inputs.registrar.Registrar.
    """

    def __init__(self, controller: ScreenHost, registrar: Any) -> None:
        self.controller = controller
        self.registrar = registrar
        self._remove = registrar.add_listener(lambda: controller.post_button(REFRESH))

    def close(self) -> None:
        """Stop listening to the registrar."""
        self._remove()

    # --- other threads: the pump's actions ----------------------------------------------

    def ui(self, action: Any) -> None:
        """The readers' pump's actions for the screen (any thread): panel buttons and the
        knob to the screen's mapping, the banker card to the banker menu, notices as
        banners in the screen's language."""
        from companion.inputs.actions import CardHolds, OpenMenu, PassOn, Show

        post = self.controller
        if isinstance(action, CardHolds):  # their own decision: the buttons answer for them
            post.post_card_holder(action.player)
        elif isinstance(action, PassOn):
            if action.button == "knob":
                post.post_encoder(action.steps)
            else:
                held_menu = action.held and action.button == "menu"
                post.post_button(BANKER_MENU if held_menu else action.button)
        elif isinstance(action, OpenMenu):
            banker = BANKER_CARD if action.authorized else BANKER_MENU
            post.post_button(banker if action.menu == "banker" else "menu")
        elif isinstance(action, Show):
            if action.code.startswith("registration"):
                return  # the registrar's listener redraws the run's screen
            if action.level == "warning":
                source = str(action.data.get("source", ""))
                post.post_warning(action.code, source, action.message, action.active)
            elif action.code == "refused":  # a tapped command the session refused
                post.post_refusal(Outcome(False, 0, code=action.data.get("code"),
                                          message=action.message,
                                          params=dict(action.data.get("params") or {})))
            elif action.code == "answer_first" and action.data.get("player"):
                key = "waiting_debt" if action.data.get("kind") == "debt" else "own_input"
                post.post_message(text(key, player=action.data["player"]), "info")
            elif action.sentence in INPUT_TEXTS:  # what the inputs say, in the screen's words
                post.post_message(input_text(action.sentence, texts.language(), **action.data),
                                  "info")
            elif action.code == "unknown_tag":
                post.post_message(text("reg_unknown_tag", tag=action.data.get("tag", "?")),
                                  "refused")
            else:
                post.post_message(action.message, "info")

    # --- the loop's thread ----------------------------------------------------------------

    def press(self, button: str, source: str = "button") -> bool:
        """A button (panel, key, touch or internal); True when registration used it."""
        ui = self.controller.ui
        if button == REFRESH:
            self.refresh()
            return True
        if button in (BANKER_MENU, BANKER_CARD):
            if self.registrar.active:
                self.registrar.cancel()
            elif button == BANKER_CARD:  # the banker's own card stands for the PIN
                self.controller.authorize_banker()
                self.open_menu()
            else:
                self.controller.as_banker("banker_menu")
            return True
        if self.registrar.active:
            self.registrar.press(button)
            self.refresh()
            return True
        if ui.overlay == OVERLAY:  # the finished run's screen: any button closes it
            ui.overlay, ui.chooser = None, None
            return True
        return False

    def do(self, action: str) -> None:
        """A menu choice of ours ("cards:menu", "cards:start:<kind>")."""
        if action == MENU_ACTION:
            choices = [Choice(text(KIND_TEXTS.get(kind, kind)), action=START_ACTION + kind)
                       for kind in self.registrar.kinds()]
            self.controller.open_chooser(text("reg_title"),
                                         choices + [Choice(text("act_back"))])
        elif action.startswith(START_ACTION):
            try:
                self.registrar.start(action.removeprefix(START_ACTION))
            except ValueError:  # a kind this board has not (a run started meanwhile)
                self.controller.refuse(text("reg_kind_missing"))
                return
            self.refresh()

    def open_menu(self) -> None:
        """The banker menu: the screen's menu with "Register cards" on top."""
        self.controller.open_banker_menu((Choice(text("reg_menu"), action=MENU_ACTION),))

    def refresh(self) -> None:
        """Take the registrar's status into the overlay: shown while a run is active
        (started here or on a phone), kept up with the result when it went through every
        card, closed with a banner when it was stopped."""
        ui = self.controller.ui
        status = self.registrar.status(texts.language())
        shown = ui.overlay == OVERLAY
        if not status.get("active"):
            if not shown:
                return
            if not status.get("finished"):
                ui.overlay, ui.chooser = None, None
                self.controller.notify(text("reg_stopped"))
                return
        line, _progress = prompt_lines(status)
        ui.chooser = RegistrationView(line, [], status=status)
        ui.overlay = OVERLAY


def draw_registration(p: Painter, view: Chooser) -> None:
    """The run's overlay: what to tap, the progress, the last result, the buttons."""
    status = view.status if isinstance(view, RegistrationView) else {}
    shade = pygame.Surface(p.surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    p.surface.blit(shade, (0, 0))
    box = p.rect(90, 40, 620, 400)
    p.fill(box, theme.PANEL, radius=10)
    p.frame(box, theme.ACCENT, width=2, radius=10)
    inner = box.inflate(-p.px(30), -p.px(20))
    title, big, bar, result, hint, buttons = _slots(p, inner)
    kind = str(status.get("kind") or "")
    heading = text("reg_title")
    if kind in KIND_TEXTS:
        heading = f"{heading}: {text(KIND_TEXTS[kind])}"
    floor = theme.readable(p.scale)
    p.paragraph(heading, title, 18, theme.TEXT_DIM, bold=True, max_lines=2, min_size=floor)
    line, progress = prompt_lines(status)
    p.paragraph(line, big, 26, theme.TEXT, bold=True, max_lines=3, min_size=floor)
    if progress:
        _progress_bar(p, bar, int(status.get("position", 0)), int(status.get("total", 0)),
                      progress)
    said, color = result_line(status)
    if said:
        p.paragraph(said, result, 17, color, bold=True, max_lines=2, min_size=floor)
    active = bool(status.get("active"))
    p.paragraph(text("reg_hint") if active else text("reg_close_hint"), hint,
                theme.READABLE, theme.TEXT_DIM, max_lines=2, min_size=floor)
    _buttons(p, buttons, active, bool(status.get("asking")))


def _slots(p: Painter, inner: pygame.Rect) -> list[pygame.Rect]:
    """Title, prompt, progress bar, result, hint and button rows of the overlay."""
    weights = (10, 24, 8, 11, 11, 14)  # the title, result and hint may take two lines
    gap = p.px(6)
    total = sum(weights)
    height = inner.height - gap * (len(weights) - 1)
    out, y = [], inner.y
    for weight in weights:
        h = height * weight // total
        out.append(pygame.Rect(inner.x, y, inner.width, h))
        y += h + gap
    return out


def _progress_bar(p: Painter, rect: pygame.Rect, position: int, total: int,
                  label: str) -> None:
    label_w = p.px(90)
    bar = pygame.Rect(rect.x, rect.y + rect.height // 4, rect.width - label_w - p.px(10),
                      rect.height // 2)
    p.fill(bar, theme.PANEL_LIGHT, radius=4)
    done = max(0, position - 1)
    if total > 0 and done:
        p.fill(pygame.Rect(bar.x, bar.y, bar.width * done // total, bar.height), theme.GOOD,
               radius=4)
    p.text(label, pygame.Rect(bar.right + p.px(10), rect.y, label_w, rect.height), 20,
           theme.ACCENT, bold=True, align="right", min_size=theme.readable(p.scale))


def _buttons(p: Painter, rect: pygame.Rect, active: bool, asking: bool) -> None:
    """Touch twins of the panel buttons that act now (same cap colours)."""
    if not active:
        caps = [("yes", text("act_close"))]
    elif asking:
        caps = [("yes", text("reg_act_move")), ("no", text("reg_act_keep")),
                ("menu", text("reg_act_stop"))]
    else:
        caps = [("no", text("reg_act_skip")), ("undo", text("reg_act_back")),
                ("menu", text("reg_act_stop"))]
    slots = _columns(rect, 3, p.px(10))
    for slot, (button, label) in zip(slots, caps, strict=False):
        draw_button(p, slot, button, label, narrow=False)  # as the game's buttons


def _columns(rect: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    width = (rect.width - gap * (count - 1)) // count
    return [pygame.Rect(rect.x + i * (width + gap), rect.y, width, rect.height)
            for i in range(count)]
