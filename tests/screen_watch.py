"""`python -m screen_watch FD run ARGS...`: the real `companion run`, with what every drawn
frame shows reported on file descriptor FD as one JSON line, for the journey tests
(tests/test_screen_journey.py) to wait on the screen's state instead of sleeping.

Nothing of the companion is replaced: `ScreenLoop.draw` is wrapped so that right after a
frame is drawn one line goes to FD: the game as the screen holds it (version, players,
whose turn, the last dice, the winner), the setup form (names, PIN, the focused line and
every line's id), the dice typed so far, the banker PIN question, the open chooser and the
keys the loop has taken from SDL so far, the screen's language and every text the frame
shows.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any


def report(loop: Any, keys: int) -> dict[str, Any]:
    """What the frame just drawn shows."""
    c = loop.controller
    ui = c.ui
    state = c.state or {}
    form = ui.setup
    chooser = ui.chooser if ui.overlay == "chooser" else None
    return {
        "time": time.monotonic(),
        "keys": keys,
        "version": int(state.get("version") or 0),
        "players": [p.get("name") for p in state.get("players") or []],
        "current": state.get("current"),
        "dice": state.get("dice"),
        "speed_die": bool((state.get("options") or {}).get("speed_die")),
        "winner": state.get("winner"),
        "setup": None if form is None else {
            "names": [p.name for p in form.players], "pin": form.pin,
            "focus": form.focused(), "lines": [line for line, _v in form.lines()],
            "speed_die": bool(form.rules.get("speed_die")),
            "edition": form.edition_id(), "language": form.ui_language(),
            "rules": {k: bool(v) for k, v in form.rules.items()}},
        "dice_entry": list(ui.dice_entry),
        "speed_entry": ui.speed_entry,
        "pin": None if ui.pin is None else ui.pin.digits,
        "overlay": ui.overlay,
        "chooser": None if chooser is None else {
            "title": chooser.title, "focus": chooser.focus,
            "actions": [choice.action for choice in chooser.choices]},
        "message": None if ui.message is None else ui.message.text,
        "remote_url": ui.remote_url,
        "language": c.ui_language(),
        "texts": [t.text for t in c.frame.texts] if c.frame is not None else [],
    }


def install(fd: int) -> None:
    """Wrap ScreenLoop.draw and .handle to report each drawn frame on `fd`."""
    import pygame

    from companion.screen import app

    draw = app.ScreenLoop.draw
    handle = app.ScreenLoop.handle
    handle_all = app.ScreenLoop.handle_all
    taken = [0]
    batch = [0]  # the most key downs the loop took from SDL in one batch

    def batch_handle(self: Any, events: list[Any]) -> bool:
        batch[0] = max(batch[0], sum(1 for e in events if e.type == pygame.KEYDOWN))
        return bool(handle_all(self, events))

    def counting_handle(self: Any, event: Any) -> bool:
        if event.type == pygame.KEYDOWN:
            taken[0] += 1
        if os.environ.get("SCREEN_WATCH_EVENTS"):  # every event on stderr, for debugging
            os.write(2, f"EV {pygame.event.event_name(event.type)} {event.dict}\n".encode())
        return bool(handle(self, event))

    def reporting_draw(self: Any) -> None:
        draw(self)
        said = {**report(self, taken[0]), "batch": batch[0]}
        os.write(fd, (json.dumps(said, ensure_ascii=False) + "\n").encode())

    app.ScreenLoop.draw = reporting_draw  # type: ignore[method-assign]
    app.ScreenLoop.handle = counting_handle  # type: ignore[method-assign]
    app.ScreenLoop.handle_all = batch_handle  # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    """Install the report on FD, then run the companion's own command line."""
    from companion.app.cli import main as companion_main

    install(int(argv[0]))
    return companion_main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
