"""Screen benchmarks for `companion bench --json`: press-to-frame latency, idle CPU, memory.

Runs on SDL's dummy video driver unless a driver is set, so it works on a headless machine;
the game is played through an in-memory session (the engine, no journal), so the numbers
measure the screen, not the disk.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.game.api import JSON, Outcome, Source, Update

PRESSES = 300
IDLE_SECONDS = 3.0


class MemorySession:
    """A minimal in-memory GameSessionProtocol over companion.game.applying (no journal, no
    undo)."""

    def __init__(self, players: tuple[str, ...] = ("Ann", "Bo", "Cy", "Dee")) -> None:
        from companion.game.applying import apply_command

        self._apply = apply_command
        self._state: Any = None
        self._listeners: list[Callable[[Update], None]] = []
        self.submit({"do": "new_game", "edition": "classic-eur", "players": list(players),
                     "seed": 11}, Source("script", banker=True))

    def submit(self, command: JSON, source: Source, expect_version: int | None = None) -> Outcome:
        """Apply at once and tell the listeners."""
        from companion.game.applying import state_json
        from companion.rules import Accepted

        result = self._apply(self._state, command)
        if not isinstance(result, Accepted):
            return Outcome(False, 0, code=result.code.value, message=result.message,
                           params=dict(result.params))
        self._state = result.state
        update = Update(result.state.version, state_json(result.state), result.events_json(),
                        source)
        for listener in list(self._listeners):
            listener(update)
        return Outcome(True, result.state.version, update.events)

    def state(self) -> JSON:
        """The public state with legal commands."""
        from companion.game.applying import state_json

        return state_json(self._state)

    def undo(self, source: Source) -> Outcome:
        """Not kept here."""
        return Outcome(False, 0, code="nothing_to_undo", message="no undo in the bench")

    redo = undo

    def undo_target(self) -> JSON | None:
        """Nothing to undo here."""
        return None

    def history(self, player: str | None = None, limit: int = 200) -> list[JSON]:
        """No journal."""
        return []

    def add_listener(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        """Register a listener."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback)


def _rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc), else the peak from getrusage."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_bench(size: tuple[int, int] = (800, 480)) -> dict[str, float]:
    """screen.input_to_frame_ms_p99, run.idle_cpu_percent and run.rss_mb."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from companion.screen.app import ScreenLoop
    from companion.screen.controller import Controller

    pygame.display.init()
    try:
        session = MemorySession()
        controller = Controller(session)
        loop = ScreenLoop(controller, pygame.display.set_mode(size))
        loop.draw()
        timings: list[float] = []
        for _ in range(PRESSES):
            prompt = controller.current_prompt()
            action = next((a for a in prompt.actions if a.command is not None and a.button), None)
            if action is None or action.button is None:
                session = MemorySession()
                controller.close()
                controller = Controller(session)
                loop = ScreenLoop(controller, loop.surface)
                continue
            start = time.perf_counter()
            controller.press(action.button)
            loop.draw()  # render + flip: the frame that shows the press's result
            timings.append((time.perf_counter() - start) * 1000)
        timings.sort()
        p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))] if timings else 0.0
        controller.ui.anims.clear()
        controller.ui.message = None
        controller.ui.auction_deadline = None
        stopper = threading.Timer(IDLE_SECONDS, loop.request_stop)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        stopper.start()
        loop.run()
        idle = (time.process_time() - cpu0) / (time.perf_counter() - wall0) * 100
        controller.close()
        return {"screen.input_to_frame_ms_p99": round(p99, 2),
                "run.idle_cpu_percent": round(idle, 2),
                "run.rss_mb": round(_rss_mb(), 1)}
    finally:
        pygame.display.quit()


if __name__ == "__main__":
    import json

    print(json.dumps(run_bench()))
