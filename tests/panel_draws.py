"""Count the decision panels drawn anew from now on (`panels._draw_prompt` wrapped), for the
tests that tell a panel kept ahead (one blit) from one drawn in the frame."""

from __future__ import annotations

from typing import Any

import pytest

from companion.screen.views import panels


def count_panel_draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, one "x" in the list returned per decision panel drawn anew."""
    drawn: list[str] = []
    real = panels._draw_prompt

    def counting(*args: Any) -> None:
        drawn.append("x")
        real(*args)

    monkeypatch.setattr(panels, "_draw_prompt", counting)
    return drawn
