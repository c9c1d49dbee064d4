"""The table without a screen (`companion run --headless`): its panel and its sounds.

With no screen there is nothing to draw, but the panel's buttons mean what they mean on a
screen (companion.inputs.buttons: ROLL rolls or ends the turn, YES / NO answer the decision
on the table for whoever decides, PASS GO pays the salary where it may; UNDO asks first in
the log and YES / NO answer; the knob sets the next bid), each command's events ring their
sound and a bank card's question goes to the log. The clocks (the auction's gavel, the
timed game's end) are the session writer's, with or without a screen. This module imports
no drawing code (no pygame, no SDL: an idle headless companion stays small; `SoundPlayer`
loads pygame's mixer only when a sound plays on a machine with an audio device).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.game.api import JSON, GameSessionProtocol, Outcome, Source, Update
from companion.game.authority import table_source
from companion.game.table.decision import asked_anew
from companion.game.table.records import Setup
from companion.game.table.view import TableView
from companion.rules.commands import Command
from companion.screen.audio import SoundPlayer
from companion.screen.screen_sounds import extra_sounds
from companion.screen.views import settings as screen_settings
from companion.words.input_texts import pin_warning_said, warning_text

log = logging.getLogger(__name__)


class HeadlessUi:
    """What the headless run keeps: the phones' join link, the table's own Wi-Fi
    (companion.app.hotspot sets it), the sound's volume and mute."""

    def __init__(self) -> None:
        self.volume, self.muted = 80, False
        self.remote_url: str | None = None
        self.wifi: Any = None


class HeadlessTable:
    """The session's listener on a table with no screen; `drain` on the run's thread."""

    def __init__(self, session: GameSessionProtocol, sound: SoundPlayer | None = None,
                 data_dir: Path | None = None,
                 say: Callable[[str], None] = log.info) -> None:
        """`say`: where notices go (a PIN warning, a reader's message): the log."""
        self.session, self.sound, self.data_dir = session, sound, data_dir
        self.say = say
        self.ui = HeadlessUi()
        self.settings = screen_settings.load(data_dir)
        self.ui.volume, self.ui.muted = self.settings.volume, self.settings.muted
        self.updates: queue.Queue[Update] = queue.Queue()
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.wake: Callable[[], None] = lambda: None
        #: the player whose own bank card let the panel answer their decision (a debt)
        self.card_holder: str | None = None
        #: UNDO asked its question: YES takes the move back, NO keeps it
        self.confirm_undo = False
        #: the knob's steps above the next bid, in an auction
        self.bid_steps = 0
        #: the table's banker PIN guard (companion.game.pins); the phones use it
        self.pins: Any = None
        #: the table's voice for a warning (companion.speech.announcer.Announcer.warn): with
        #: no screen, what the table hears is all it gets
        self.speak: Callable[[Callable[[str], list[str]]], None] | None = None
        self._lock = threading.Lock()
        self.state: JSON = session.state()
        #: the table as the session's typed view has it (companion.game.table.view)
        self.view: TableView = session.table()
        self._remove: Callable[[], None] | None = session.add_listener(self.on_update)

    # --- any thread ---------------------------------------------------------------------

    def on_update(self, update: Update) -> None:
        """Session listener (writer's side): queue it and wake the run's loop."""
        self.updates.put(update)
        self.wake()

    def post_message(self, message: str, kind: str = "info") -> None:
        """A notice from another part (a reader warning): said in the log."""
        self.say(f"{kind}: {message}")

    def post_warning(self, code: str, source: str, message: str, active: bool = True) -> None:
        """A warning of the hardware or the Pi's power (companion.power): in the log, and
        said aloud in the table's language when it comes (its clearing only in the log)."""
        self.say(f"warning: {message}" if active else f"cleared: {code} ({source})")
        if active and self.speak is not None:
            self.speak(lambda lang: [warning_text(code, lang, source, message)])

    def post_pin_warning(self, wrong: int, where: str = "phone", wait: float = 0.0) -> None:
        """Wrong banker PINs were typed: in the log, and said aloud in the table's
        language."""
        self.say(f"warning: {wrong} wrong banker PIN(s) typed on a {where}")
        if self.speak is not None:
            self.speak(lambda lang: pin_warning_said(wrong, where, wait, lang))

    def reader_action(self, action: Any) -> None:
        """The readers' pump's actions (companion.inputs.actions), any thread: the panel's
        buttons and knob (PassOn) and a card holding the buttons for its owner, handled on
        the run's thread; a refused tap's sound, what a gesture asks and other notices to
        the log."""
        from companion.inputs.actions import CardHolds, PassOn, Show

        if isinstance(action, PassOn | CardHolds):
            self.inbox.put(("input", action))
            self.wake()
        elif isinstance(action, Show):
            if action.code == "refused" and self.sound is not None:
                self.sound.play("refused")
            self.say(f"{action.level}: {action.message}")
            if action.level == "warning" and action.active and self.speak is not None:
                code, source = action.code, str(action.data.get("source", ""))
                message = action.message
                self.speak(lambda lang: [warning_text(code, lang, source, message)])

    def close(self) -> None:
        """Stop listening to the session."""
        if self._remove is not None:
            self._remove()
            self._remove = None

    # --- the run's thread ---------------------------------------------------------------

    def next_wake(self) -> float | None:
        """Seconds until something here is due: never (the clocks are the session's)."""
        return None

    def drain(self) -> None:
        """Apply the queued updates and the panel's presses, then what the clocks say."""
        while True:
            try:
                update = self.updates.get_nowait()
            except queue.Empty:
                break
            self.apply_update(update)
        while True:
            try:
                _kind, action = self.inbox.get_nowait()
            except queue.Empty:
                break
            self.handle(action)
        self.tick()

    def apply_update(self, update: Update) -> None:
        """A new state: its sounds; a new decision ends what the
        buttons held for the last one (a card holder, the UNDO question, the dialled bid)."""
        before = self.view.decision
        self.state = update.state  # this version's public state, built once for every listener
        self.view = self.session.table()
        if asked_anew(before, self.view.decision):  # as on the screen
            self.card_holder = None  # a card held the buttons for that decision only
        self.bid_steps = 0  # the dial sets the bid above the next one of this table
        self.confirm_undo = False
        if self.sound is not None and not self.sound.play_events(update.events):
            for name in extra_sounds(update.events)[:1]:  # Mega events the mixer misses
                self.sound.play(name)

    def handle(self, action: Any) -> None:
        """One press, knob turn or card holding the buttons (the run's thread)."""
        from companion.inputs.actions import CardHolds

        view = self.session.table()
        if isinstance(action, CardHolds):
            if view.waiting_on == action.player:
                self.card_holder = action.player
                self.say(f"info: {action.player}'s card: the buttons answer for them now")
            return
        if action.button == "knob":
            bid = view.press("yes", max(0, self.bid_steps + action.steps))
            if bid is not None and bid["do"] == "bid":  # the knob sets the next bid
                self.bid_steps = max(0, self.bid_steps + action.steps)
                self.say(f"prompt: {bid['by']} bids {bid['amount']}: YES to bid")
            return
        self.press(action.button, view)

    def press(self, button: str, view: TableView | None = None) -> None:
        """What a panel button means now, as on the screen: the session's view of the table
        says what it sends (companion.game.table.buttons)."""
        view = view or self.session.table()
        if self.confirm_undo and button in ("yes", "no"):
            self.confirm_undo = False
            if button == "yes":
                self._refused(self.session.undo(Source("button", player=view.current)))
            return
        self.confirm_undo = False
        if button == "undo":
            self.confirm_undo = self._ask_undo()
            return
        if button == "menu":
            self.say("info: the menu is on the screen; the banker's is on the banker's phone")
            return
        command = view.press(button, self.bid_steps)
        if command is None:
            other = view.waiting_on
            self.say(f"refused: waiting for {other}: their phone or bank card" if other
                     else f"refused: {button.upper()} does nothing now")
            if self.sound is not None:
                self.sound.play("refused")
            return
        self._submit(command, "button")

    def _ask_undo(self) -> bool:
        """Say what UNDO would take back (True: there is something to ask about)."""
        from companion.words.undo_questions import describe_undo

        target = self.session.undo_target()
        if target is None:
            self.say("refused: there is nothing to undo")
            return False
        question = describe_undo(target, Setup.of(self.state), "en", lambda _ctx, text: text)
        self.say(f"prompt: {question} YES undoes, NO keeps it")
        return True

    def tick(self) -> None:
        """Nothing is timed here: the auction's gavel and the timed game's end are the
        session writer's clocks (companion.game.session), with or without a screen."""

    def _submit(self, command: Command | JSON, kind: str = "screen") -> None:
        sender = table_source(self.state, command, kind, self.card_holder)
        if isinstance(sender, str):
            self.say(f"refused: waiting for {sender}: their phone or bank card")
            return
        self._refused(self.session.submit(command, sender))

    def _refused(self, outcome: Outcome) -> None:
        if not outcome.accepted:
            self.say(f"refused: {outcome.message}")
            if self.sound is not None:
                self.sound.play("refused")

