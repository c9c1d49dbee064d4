"""The real `companion run --headless` with a saved game, for the tests that play through
real sockets: its port and the join link it prints; stopped with SIGTERM after, and its
output must hold no traceback."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from companion.game.api import Source
from companion.game.session import GameSession
from tools.bench.proc import free_port

ENV = {**os.environ, "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "dummy"}


def headless_table(tmp_path: Path, config: str = "") -> Iterator[tuple[int, str]]:
    """A headless companion over a new classic game of Ann and Bo (the device rolls), with
    `config` as its config.toml ({port} filled in; "": none): its port and join link."""
    data = tmp_path / "data"
    with GameSession.open(data) as session:
        assert session.submit({"do": "new_game", "edition": "classic-eur",
                               "players": ["Ann", "Bo"], "seed": 3},
                              Source("script", banker=True)).accepted
    port = free_port()
    settings = tmp_path / "config.toml"
    if config:
        settings.write_text(config.format(port=port), encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--headless", "--port", str(port),
         "--data-dir", str(data)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, env={**ENV, "COMPANION_CONFIG": str(settings)})
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put("")

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        while True:
            line = lines.get(timeout=60)
            assert line, "the companion ended before serving the phones"
            if "Phones join at:" in line:
                break
        yield port, line.rsplit(" ", 1)[1].strip()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        reader.join(timeout=20)
        assert proc.stdout is not None
        proc.stdout.close()
    output = []
    while (rest := lines.get(timeout=5)):
        output.append(rest)
    assert "Traceback" not in "".join(output)
