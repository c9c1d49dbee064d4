"""`companion run` (and so `./start.sh`) without --headless on a machine with no usable display
(issue: journeys, item 1): it says once why there is no screen, serves the phones and keeps
going, instead of crashing (it raised AttributeError once the display failed to open)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.bench.proc import free_port


def closed_x_display() -> str:
    """An X display number no server answers on (its socket does not exist)."""
    number = 4242
    while Path(f"/tmp/.X11-unix/X{number}").exists():
        number += 1
    return f":{number}"


def no_display_env(kind: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["SDL_AUDIODRIVER"] = "dummy"
    if kind == "gone":  # a desktop that went away: SDL would fall back to drawing in memory
        env["DISPLAY"] = closed_x_display()
    return env


@pytest.fixture
def started(tmp_path: Path, request: pytest.FixtureRequest
            ) -> Iterator[tuple[subprocess.Popen[str], queue.Queue[str], int]]:
    kind, _, players = request.param.partition("+")
    if players:  # a game of these players is saved first
        from companion.game.api import Source
        from companion.game.session import GameSession

        with GameSession.open(tmp_path / "data") as session:
            session.submit({"do": "new_game", "edition": "classic-eur",
                            "players": players.split(",")}, Source("script", banker=True))
    if kind == "none" and any(Path("/dev/dri").glob("card*")):
        pytest.skip("this machine has a KMS/DRM card: it is not a machine with no display")
    port = free_port()
    env = {**no_display_env(kind), "COMPANION_CONFIG": str(tmp_path / "none")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--port", str(port),
         "--data-dir", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put("")  # the end of the output

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield proc, lines, port
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=20)
        reader.join(timeout=20)
        assert proc.stdout is not None
        proc.stdout.close()


def wait_for_line(lines: queue.Queue[str], text: str, seen: list[str]) -> str:
    while True:
        line = lines.get(timeout=60)
        seen.append(line)
        if not line:
            raise AssertionError(f"the companion ended before saying {text!r}:\n"
                                 + "".join(seen))
        if text in line:
            return line


@pytest.mark.parametrize("started", ["none", "gone"], indirect=True)
def test_a_start_with_no_display_serves_the_phones_and_says_why_once(
        started: tuple[subprocess.Popen[str], queue.Queue[str], int]) -> None:
    proc, lines, port = started
    seen: list[str] = []
    line = wait_for_line(lines, "running without a screen", seen)
    assert "(" in line, line  # the reason, in the same line
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
        assert page.status == 200
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0
    while (rest := lines.get(timeout=20)):
        seen.append(rest)
    output = "".join(seen)
    assert "Traceback" not in output and "Error" not in output, output
    assert output.count("without a screen") == 1, output


@pytest.mark.parametrize("started", ["none+Ann,Bo,Cy"], indirect=True)
def test_the_join_qr_code_goes_into_the_log_once_not_at_every_join(
        started: tuple[subprocess.Popen[str], queue.Queue[str], int]) -> None:
    """Under systemd stdout is the journal on the SD card: one QR block at the start, then a
    line per join (issue: the appliance, SD-card wear)."""
    from tools.bench.probe import HttpPhone

    proc, lines, port = started
    seen: list[str] = []
    first = wait_for_line(lines, "Phones join at:", seen).rsplit(" ", 1)[1].strip()
    for n, name in enumerate(("Ann", "Bo", "Cy")):
        phone = HttpPhone(f"http://127.0.0.1:{port}")
        link = first if n == 0 else wait_for_line(lines, "Next phone joins at:", seen
                                                   ).rsplit(" ", 1)[1].strip()
        try:
            assert phone.join(link, f"player:{name}") == 302
        finally:
            phone.close()
    wait_for_line(lines, "Next phone joins at:", seen)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0
    while (rest := lines.get(timeout=20)):
        seen.append(rest)
    qr_rows = [line for line in seen if line.startswith("██")]
    assert qr_rows, "the start shows its QR code"
    assert len(qr_rows) == len(set(qr_rows)) or len(qr_rows) < 60, "".join(seen)
    starts_of_blocks = [i for i, line in enumerate(seen) if line.startswith("█████")
                        and (i == 0 or not seen[i - 1].startswith("█"))]
    assert len(starts_of_blocks) == 1, "".join(seen)


def test_a_headless_table_speaks_its_configured_language_to_the_phones(tmp_path: Path) -> None:
    """With no screen the configured [screen] language is the phones' too (it only reached
    them through the screen's controller)."""
    config = tmp_path / "config.toml"
    config.write_text('[screen]\nlanguage = "nl"\n')
    port = free_port()
    env = {**no_display_env("none"), "COMPANION_CONFIG": str(config)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--headless", "--port", str(port),
         "--data-dir", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the start says where phones join once it serves them
            if "Phones join at:" in line:
                break
        request = urllib.request.Request(f"http://127.0.0.1:{port}/",
                                         headers={"Accept-Language": "en"})
        with urllib.request.urlopen(request, timeout=10) as page:
            assert '<html lang="nl">' in page.read().decode()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
