"""`python -m tools.bench.flipwatch FD run ARGS...`: the real `companion run`, with every
flipped frame reported on file descriptor FD for the benchmarks.

Nothing of the companion is replaced: `ScreenLoop.draw` is wrapped so that right after
its `pygame.display.flip()` one line goes to FD: the time (time.monotonic(), the same
clock in every process of this machine), the version of the state the frame showed, and
the key whose button would send a command now (from the screen's own prompt; "-" if
none). A benchmark presses that key through the X server and waits for the frame.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any


def _key_for(controller: Any, keys: dict[str, str]) -> str:
    """The key of the first prompt action that sends a command, else "-"."""
    try:
        prompt = controller.current_prompt()
    except Exception:  # the prompt is the screen's business; the bench just waits
        return "-"
    for action in prompt.actions:
        if action.command is not None and action.button in keys:
            return keys[action.button]
    return "-"


def install(fd: int) -> None:
    """Wrap ScreenLoop.draw to report each flipped frame on `fd`."""
    from companion.screen import app

    keys = {button: key for key, button in app.KEY_BUTTONS.items()}
    draw = app.ScreenLoop.draw

    def reporting_draw(self: Any) -> None:
        draw(self)
        flipped = time.monotonic()
        state = self.controller.state or {}
        key = _key_for(self.controller, keys)
        os.write(fd, f"{flipped:.6f} {int(state.get('version') or 0)} {key}\n".encode())

    app.ScreenLoop.draw = reporting_draw  # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    """Install the report on FD, then run the companion's own command line."""
    from companion.app.cli import main as companion_main

    install(int(argv[0]))
    return companion_main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
