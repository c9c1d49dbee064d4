"""The input pump: one thread that takes input events off a queue, asks the controller what
they mean in the current state, and carries the actions out on the game session.

Hardware threads only `put` on `pump.events` (pass `pump.emit` to the panel and readers);
everything that reads the state or changes the game happens here, one event at a time.
Actions for the screen (Show, OpenMenu, refusals, and PassOn: a panel button for the
screen's own mapping) go to the `ui` callable. While a registration run is active
(companion.inputs.registrar), taps and buttons go to it instead of the game.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from companion.game.api import GameSessionProtocol
from companion.game.authority import as_json
from companion.game.table.view import TableView
from companion.inputs.actions import (
    Action,
    CardHolds,
    OpenMenu,
    PassOn,
    Show,
    Submit,
    Undo,
    say,
)
from companion.inputs.controller import InputController
from companion.inputs.events import Button, ButtonEvent, InputEvent

log = logging.getLogger(__name__)

UI = Callable[[Action], None]


@dataclass(frozen=True)
class _Call:
    """Run a controller method on the pump thread (keypad amounts)."""

    fn: Callable[[TableView], list[Action]]


_STOP = object()


class InputPump:
    """Feeds queued input events through `controller` into `session`; see the module doc."""

    def __init__(
        self,
        session: GameSessionProtocol,
        controller: InputController,
        ui: UI | None = None,
    ) -> None:
        self.session = session
        self.controller = controller
        self.ui: UI = ui or (lambda action: None)
        self.events: queue.Queue[object] = queue.Queue()
        self._thread: threading.Thread | None = None

    def emit(self, event: InputEvent) -> None:
        """Queue an input event (safe from any thread; this is what hardware calls)."""
        self.events.put(event)

    def call(self, fn: Callable[[TableView], list[Action]]) -> None:
        """Queue `fn(table)` to run on the pump thread with the session's view of the table;
        its actions are carried out."""
        self.events.put(_Call(fn))

    def enter_amount(self, amount: int) -> None:
        """An amount typed on the screen or phone keypad."""
        self.call(lambda table: self.controller.enter_amount(amount, table))

    def take_press(self, button: str) -> bool:
        """A key or a touch of the screen (any thread): queued as the panel's button would
        be when a gesture the hardware started waits for one (True), else left to the
        screen (False), so every press means the same whichever input it comes from."""
        if not self.controller.busy():
            return False
        try:
            self.emit(ButtonEvent(Button(button)))
        except ValueError:  # not one of the six buttons
            return False
        return True

    def start(self) -> None:
        """Start the pump thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="input-pump", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Finish the queued events, then stop."""
        self.events.put(_STOP)
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while True:
            item = self.events.get()
            if item is _STOP:
                return
            try:
                self.process(item)
            except Exception:  # noqa: BLE001 - one bad event never stops the inputs
                log.exception("input event %r failed", item)
                self.ui(say("input_error", level="warning"))

    def process(self, item: object) -> None:
        """Handle one queued item now (the pump thread's body; tests call it directly)."""
        table = self.session.table()  # the typed view, built once per version
        if isinstance(item, _Call):
            actions = item.fn(table)
        else:
            actions = self.controller.handle(item, table)  # type: ignore[arg-type]
        for action in actions:
            self.execute(action)

    def execute(self, action: Action) -> None:
        """Carry out one action."""
        if isinstance(action, Submit):
            outcome = self.session.submit(action.command, action.source,
                                          action.expect_version)
            if not outcome.accepted:
                data = {"code": outcome.code, "command": dict(as_json(action.command)),
                        "params": outcome.params}
                self.ui(Show("refused", outcome.message or "Refused.", "notice", data))
        elif isinstance(action, Undo):
            outcome = self.session.undo(action.source)
            if not outcome.accepted:
                self.ui(Show("refused", outcome.message or "Nothing to undo.", "notice"))
        elif isinstance(action, OpenMenu | Show | PassOn | CardHolds):
            self.ui(action)
