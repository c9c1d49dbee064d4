"""`companion doctor`: check that this machine can run the companion, and say how to fix it.

Each check looks at one thing the table needs (settings, screen and how it is drawn, sound,
buttons, readers, data directory, clock; memory, mDNS and the hotspot in table.py) and
reports OK, WARN or FAIL with a fix. Off a Pi, missing hardware
is only a WARN; on a Pi it is a FAIL. The exit code is 1 if anything FAILed.

Everything the checks touch goes through `Host` (host.py: file system root, environment,
commands, serial ports, readers), so the tests can build a fake Pi in a temporary directory.
"""

from __future__ import annotations

import argparse
import os
import queue
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app.doctor import table
from companion.app.doctor.host import Completed as Completed
from companion.app.doctor.host import Finding as Finding
from companion.app.doctor.host import Host as Host
from companion.app.doctor.host import Runner as Runner
from companion.app.doctor.host import Status as Status
from companion.config import Config, ConfigError, ReaderKind, ReaderSpec, load_config
from companion.paths import default_config_file

SERVICE = "table-companion"
SERVICE_USER = "companion"
MIN_FREE_FAIL = 20 * 1024 * 1024
MIN_FREE_WARN = 200 * 1024 * 1024
EARLIEST_SANE_TIME = 1704067200  # 2024-01-01: a clock before this was never set
#: run in a child: open the display as `companion run` does, draw a frame, and say the video
#: driver, the size, the GL libraries now mapped and the resident size ("KMSDRM 800 480
#: gl=libEGL,libGLESv2 rss_kb=70312"); a display that cannot open says why on stderr
DISPLAY_PROBE = f"""
import logging, sys
logging.basicConfig(level=logging.WARNING, format="%(message)s")
import pygame
from companion.screen.app import DisplaySpec, open_display
surface = open_display(DisplaySpec())
if surface is None:
    sys.exit(1)
pygame.display.flip()
with open("/proc/self/maps") as f:
    maps = f.read()
gl = sorted({{name.strip("._") for name in {table.GL_LIBRARIES!r} if name in maps}})
with open("/proc/self/status") as f:
    rss = next(line.split()[1] for line in f if line.startswith("VmRSS"))
w, h = surface.get_size()
print(pygame.display.get_driver(), w, h, "gl=" + (",".join(gl) or "-"), "rss_kb=" + rss)
"""


@dataclass(frozen=True)
class Options:
    """What to check: the config file, a data directory override, and tap waiting."""

    config_file: Path | None = None
    data_dir: Path | None = None
    wait_tap: bool = False
    timeout: float = 15.0


# --- the checks --------------------------------------------------------------------------


def check_config(host: Host, options: Options) -> tuple[Config, list[Finding]]:
    """Load the settings; a bad file is a FAIL naming its line, and defaults are used."""
    path = options.config_file or default_config_file()
    try:
        config = load_config(path)
    except ConfigError as exc:
        return Config(), [Finding("config", Status.FAIL, str(exc),
                                  f"edit {path} (the example, every key explained, is "
                                  "deploy/config.toml); checking the rest with the defaults")]
    if config.source is None:
        return config, [Finding("config", Status.WARN, f"no file at {path}: using the defaults",
                                "copy deploy/config.toml there to set the pins and readers")]
    readers = ", ".join(str(s) for s in config.readers.specs) or "none"
    return config, [Finding("config", Status.OK,
                            f"{path}: readers {readers}; web port {config.web.port}")]


def check_service(host: Host) -> list[Finding]:
    """A running companion holds the screen, pins and ports the other checks open."""
    result = host.command(["systemctl", "is-active", SERVICE])
    if result is None or result.stdout.strip() != "active":
        return []
    return [Finding("service", Status.WARN, f"{SERVICE} is running: screen, pins and readers "
                    "are busy, so those checks may fail",
                    f"sudo systemctl stop {SERVICE}, run the doctor, then "
                    f"sudo systemctl start {SERVICE}")]


def check_display(host: Host) -> list[Finding]:
    """A KMS/DRM display the user may open, and pygame able to draw on it."""
    findings: list[Finding] = []
    driver = host.env.get("SDL_VIDEODRIVER", "")
    cards = sorted(host.path("/dev/dri").glob("card*"))
    if not cards:
        if host.on_pi:
            findings.append(Finding("display", Status.FAIL, "no KMS display (/dev/dri/card*)",
                                    "put dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt "
                                    "(Bookworm's default) and reboot"))
        else:
            findings.append(Finding("display", Status.WARN,
                                    "no KMS/DRM display (/dev/dri) on this machine",
                                    "fine on a desktop (a window) or with `companion run "
                                    "--headless`; on the Pi the screen needs /dev/dri"))
    else:
        names = ", ".join(c.name for c in cards)
        usable = [c for c in cards if host.access(c, os.R_OK | os.W_OK)]
        if not usable:
            findings.append(Finding("display", Status.FAIL,
                                    f"{host.user} may not open {names}",
                                    _groups_fix(host, "video,render")))
        else:
            findings.append(Finding("display", Status.OK, f"KMS/DRM devices: {names}"))
    desktop = bool(host.env.get("DISPLAY") or host.env.get("WAYLAND_DISPLAY"))
    kms = bool(cards) and driver in ("", "kmsdrm")
    findings += _check_pygame(host, probe=desktop or kms)
    return findings


#: how a missing or broken Python package comes back: from the lock file, each package at
#: the version and hash the tests passed with (README), never whatever the index has today
REINSTALL = ("sudo deploy/install.sh on the Pi, or ./start.sh in a checkout (both install "
             "the locked requirements/run.txt)")


def _check_pygame(host: Host, probe: bool) -> list[Finding]:
    """pygame loads; on a KMS machine or a desktop, a child process opens the display as
    `companion run` does and draws a frame: the display, and how it is drawn (renderer)."""
    try:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame  # deferred: heavy, and only this check needs it
    except (ImportError, OSError) as exc:
        return [Finding("display", Status.FAIL, f"pygame does not load: {exc}",
                        f"reinstall: {REINSTALL}")]
    version = getattr(pygame, "version", None)
    label = f"pygame-ce {getattr(version, 'ver', '?')}"
    if not probe:
        return [Finding("display", Status.OK, f"{label} loads"), table.no_renderer_finding(host)]
    env = dict(host.env)
    if not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        env.setdefault("SDL_VIDEODRIVER", "kmsdrm")  # what the service uses
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    try:
        result = host.run([sys.executable, "-c", DISPLAY_PROBE], 20.0, env)
    except (OSError, subprocess.SubprocessError) as exc:
        return [Finding("display", Status.FAIL, f"{label}: opening the display failed: {exc}",
                        "see journalctl -b for the display driver")]
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no message"])[-1]
        return [Finding("display", Status.FAIL, f"{label} cannot open the display: {last}",
                        "a desktop or the running companion may hold the screen: boot to the "
                        "console (sudo raspi-config nonint do_boot_behaviour B1) and "
                        f"stop {SERVICE}; check that the screen is plugged in before boot")]
    words = result.stdout.split()
    shown = f"{words[0]} {words[1]}x{words[2]}" if len(words) >= 3 else result.stdout.strip()
    return [Finding("display", Status.OK, f"{label} opens the display: {shown}"),
            table.renderer_finding(words, env)]


def check_audio(host: Host, config: Config) -> list[Finding]:
    """An ALSA sound card the user may open; the configured volume and mute."""
    try:
        text = host.path("/proc/asound/cards").read_text(errors="replace")
    except OSError:
        text = ""
    cards = [line.split("]:", 1)[0].split("[", 1)[1].strip()
             for line in text.splitlines() if "[" in line and "]:" in line]
    if not cards:
        return [Finding("audio", host.missing(), "no sound card (ALSA) found",
                        "plug in HDMI audio or a USB speaker; on a Pi 5 (no jack) use HDMI or "
                        "USB; the companion runs silent meanwhile")]
    devices = sorted(host.path("/dev/snd").glob("pcmC*p"))
    if devices and not any(host.access(d, os.R_OK | os.W_OK) for d in devices):
        return [Finding("audio", Status.FAIL, f"{host.user} may not open /dev/snd",
                        _groups_fix(host, "audio"))]
    findings = [Finding("audio", Status.OK, f"sound cards: {', '.join(cards)}")]
    if config.sound.mute or config.sound.volume == 0:
        findings.append(Finding("audio", Status.WARN, "sound is off in the settings "
                                f"(volume {config.sound.volume}, mute {config.sound.mute})",
                                "set [sound] volume and mute in the config file"))
    return findings


def check_gpio(host: Host, config: Config) -> list[Finding]:
    """GPIO chips the user may open and a real pin factory (lgpio) for the buttons."""
    pins = " ".join(f"{name}={pin}" for name, pin in config.buttons.pins.items())
    factory = host.env.get("GPIOZERO_PIN_FACTORY", "")
    if factory == "mock":
        return [Finding("gpio", Status.WARN, "GPIOZERO_PIN_FACTORY=mock: the buttons are "
                        "simulated", "unset GPIOZERO_PIN_FACTORY to use the real pins")]
    chips = sorted(host.path("/dev").glob("gpiochip*"))
    if not chips:
        fix = ("update the system (sudo apt full-upgrade) and reboot" if host.on_pi else
               "fine for trying it out without the button panel")
        return [Finding("gpio", host.missing(), "no GPIO chips (/dev/gpiochip*): the buttons "
                        f"will be simulated ({pins})", fix)]
    if not any(host.access(c, os.R_OK | os.W_OK) for c in chips):
        return [Finding("gpio", Status.FAIL, f"{host.user} may not open /dev/gpiochip*",
                        _groups_fix(host, "gpio"))]
    if factory not in ("", "lgpio"):
        return [Finding("gpio", Status.WARN, f"GPIOZERO_PIN_FACTORY={factory}: Bookworm's "
                        "supported pin factory is lgpio", "unset GPIOZERO_PIN_FACTORY")]
    if not host.has_module("lgpio"):
        return [Finding("gpio", host.missing(), "the lgpio library is not installed: the "
                        "buttons will be simulated",
                        f"{REINSTALL}; it has lgpio for the Pi's aarch64 and armv7l")]
    return [_try_pin_factory(host, config, pins)]


def _try_pin_factory(host: Host, config: Config, pins: str) -> Finding:
    """Open gpiozero's lgpio factory and read every button: a pressed one is stuck."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from gpiozero import Button

            factory = host.pin_factory()
    except Exception as exc:  # noqa: BLE001 - any backend failure is the finding
        return Finding("gpio", host.missing(), f"the lgpio pin factory does not start: {exc}",
                       f"stop {SERVICE} if it runs; check /dev/gpiochip* permissions")
    stuck: list[str] = []
    try:
        for name, pin in config.buttons.pins.items():
            try:
                button = Button(pin, pull_up=True, pin_factory=factory)
            except Exception as exc:  # noqa: BLE001
                return Finding("gpio", Status.FAIL, f"cannot use GPIO {pin} for {name}: {exc}",
                               f"stop {SERVICE} if it runs, or pick another pin in [buttons]")
            try:
                if button.is_pressed:
                    stuck.append(f"{name} (GPIO {pin})")
            finally:
                button.close()
    finally:
        factory.close()
    if stuck:
        return Finding("gpio", Status.WARN, f"reads pressed now: {', '.join(stuck)}",
                       "release it; if nobody presses it, the button is stuck or its wire "
                       "touches ground: check the wiring")
    return Finding("gpio", Status.OK, f"lgpio pin factory; buttons {pins}")


def check_readers(host: Host, config: Config, options: Options) -> list[Finding]:
    """Every configured reader: its device opens; with --wait-tap, a card tap arrives."""
    findings: list[Finding] = []
    for spec in config.readers.specs:
        findings.extend(_check_reader(host, spec, options))
    if not config.readers.specs:
        findings.append(Finding("readers", Status.WARN, "no reader configured: taps only "
                                "from the phone", "list your readers in [readers] specs"))
    return findings


def _check_reader(host: Host, spec: ReaderSpec, options: Options) -> list[Finding]:
    name = f"reader {spec}"
    if spec.kind is ReaderKind.NONE:
        return [Finding(name, Status.OK, "no reader here (taps from the phone only)")]
    if spec.kind is ReaderKind.FAKE:
        return [Finding(name, Status.WARN, "simulated: taps come from the phone or "
                        "`companion tap`", "list a real reader in [readers] specs")]
    if spec.kind is ReaderKind.KEYBOARD and spec.device is None:
        found = [Finding(name, Status.OK, "tags typed by a USB reader reach the screen "
                         "like key presses")]
        if options.wait_tap:
            found.append(_wait_for_typed_tag(host, name, options.timeout))
        return found
    assert spec.device is not None
    device = host.path(spec.device)
    if not device.exists():
        return [Finding(name, host.missing(), f"{spec.device} does not exist",
                        _missing_device_fix(spec))]
    if not host.access(device, os.R_OK | os.W_OK if spec.kind.serial else os.R_OK):
        group = "dialout" if spec.kind.serial else "input"
        return [Finding(name, Status.FAIL, f"{host.user} may not open {spec.device}",
                        _groups_fix(host, group))]
    if spec.kind.serial:
        opened = _probe_serial(host, spec, name)
        if opened.status is not Status.OK or not options.wait_tap:
            return [opened]
        return [opened, _wait_for_tap(host, spec, name, options.timeout)]
    found = [Finding(name, Status.OK, f"{spec.device} opens")]
    if options.wait_tap:
        found.append(_wait_for_tap(host, spec, name, options.timeout))
    return found


def _probe_serial(host: Host, spec: ReaderSpec, name: str) -> Finding:
    """Open the port; ask a PN532 for its firmware (an RDM6300 only talks when tapped)."""
    assert spec.device is not None and spec.kind.baud is not None
    try:
        port = host.open_serial(str(host.path(spec.device)), spec.kind.baud, 0.1)
    except Exception as exc:  # noqa: BLE001 - pyserial raises SerialException or OSError
        return Finding(name, Status.FAIL, f"cannot open {spec.device}: {exc}",
                       f"is another program using it (sudo systemctl stop {SERVICE})? "
                       f"{_groups_fix(host, 'dialout')}")
    try:
        if spec.kind is ReaderKind.RDM6300:
            return Finding(name, Status.OK, f"{spec.device} opens at 9600 baud (an RDM6300 "
                           "only talks when a card is near: try --wait-tap)")
        version = _pn532_firmware(port, host.serial_timeout)
    finally:
        port.close()
    if version is None:
        return Finding(name, Status.FAIL, f"no answer from a PN532 on {spec.device}",
                       "check the wiring (reader TX to Pi RX, RX to TX, 3.3 V or 5 V, GND) "
                       "and that the board's switches select HSU (UART) mode")
    return Finding(name, Status.OK, f"PN532 answers on {spec.device}: firmware {version}")


def _pn532_firmware(port: Any, timeout: float = 1.0) -> str | None:
    """Wake a PN532 and ask GetFirmwareVersion; "1.6" or None when nothing answers."""
    from hardware.readers.pn532 import (
        GET_FIRMWARE_VERSION,
        PN532_TO_HOST,
        WAKEUP,
        Pn532FrameParser,
        build_frame,
    )

    parser = Pn532FrameParser()
    port.write(WAKEUP + build_frame(GET_FIRMWARE_VERSION))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = port.read(64)
        for frame in parser.feed(data or b""):
            payload = frame.payload
            if frame.kind == "data" and frame.tfi == PN532_TO_HOST and payload[:1] == b"\x03":
                if len(payload) >= 4:
                    return f"{payload[2]}.{payload[3]}"
    return None


def _wait_for_tap(host: Host, spec: ReaderSpec, name: str, timeout: float) -> Finding:
    """Run the companion's own reader for `spec` until a card is tapped or time runs out."""
    from companion.inputs.events import HardwareWarning, TagEvent

    events: queue.Queue[Any] = queue.Queue()
    reader = host.open_reader(str(spec), events.put)
    host.say(f"  Tap a card on {spec} now (waiting {timeout:g} s)...")
    started = time.monotonic()
    problem = ""
    reader.start()
    try:
        while (left := timeout - (time.monotonic() - started)) > 0:
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                break
            if isinstance(event, TagEvent):
                took = time.monotonic() - started
                return Finding(name, Status.OK, f"read card {event.tag} after {took:.1f} s")
            if isinstance(event, HardwareWarning) and event.active:
                problem = f" ({event.message})"
    finally:
        reader.close()
    return Finding(name, Status.FAIL, f"no card read within {timeout:g} s{problem}",
                   "hold the card flat on the reader for a second; check the reader's power "
                   "LED, the antenna cable and (for the UART) that TX of the reader goes to "
                   "GPIO 15 (RXD, pin 10)")


def _wait_for_typed_tag(host: Host, name: str, timeout: float) -> Finding:
    """A keyboard-wedge reader types the tag and Enter into this terminal."""
    host.say(f"  Tap a card on the USB reader now (waiting {timeout:g} s)...")
    line = host.read_line(timeout)
    tag = (line or "").strip()
    if tag and all(c in "0123456789abcdefABCDEF" for c in tag) and len(tag) >= 4:
        return Finding(name, Status.OK, f"read card {tag.upper()}")
    if line is None:
        return Finding(name, Status.FAIL, f"nothing typed within {timeout:g} s",
                       "check that the reader is plugged in and beeps when tapped")
    return Finding(name, Status.FAIL, f"typed {tag!r}, which is no card number",
                   "set the reader to output the number in decimal or hex with Enter")


def check_data_dir(host: Host, config: Config, options: Options) -> list[Finding]:
    """The data directory (saved games) is writable and has room."""
    data_dir = options.data_dir or config.data_dir
    where = host.path(str(data_dir.absolute()))
    existing = where
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return [Finding("data", Status.FAIL, f"{data_dir}: {existing} is not a directory",
                        "set [game] data_dir to a directory")]
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".doctor-") as probe:
            probe.write(b"saved games go here")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        return [Finding("data", Status.FAIL, f"{data_dir} is not writable by {host.user}: "
                        f"{exc.strerror or exc}",
                        f"sudo chown -R {SERVICE_USER}: {data_dir}, and run the doctor as "
                        f"the service user: sudo -u {SERVICE_USER} companion doctor")]
    free = host.free_bytes(existing)
    shown = f"{free / 1024**3:.1f} GB" if free >= 1024**3 else f"{free // 1024**2} MB"
    created = "" if where.exists() else " (it will be created)"
    if free < MIN_FREE_FAIL:
        return [Finding("data", Status.FAIL, f"{data_dir}: only {shown} free", _space_fix())]
    if free < MIN_FREE_WARN:
        return [Finding("data", Status.WARN, f"{data_dir}: {shown} free{created}", _space_fix())]
    return [Finding("data", Status.OK, f"{data_dir} is writable{created}; {shown} free")]


def check_clock(host: Host) -> list[Finding]:
    """A plausible time, synchronised over the network (the Pi has no battery clock)."""
    now = host.now()
    if now < EARLIEST_SANE_TIME:
        shown = time.strftime("%Y-%m-%d %H:%M", time.gmtime(now))
        return [Finding("clock", Status.FAIL, f"the clock says {shown} UTC: it was never set",
                        "connect the Pi to the network (it sets the time by NTP), or "
                        "sudo date -s '2025-01-31 20:00'")]
    result = host.command(["timedatectl", "show", "--property=NTPSynchronized", "--value"])
    synced: bool | None = None
    if result is not None and result.returncode == 0 and result.stdout.strip() in ("yes", "no"):
        synced = result.stdout.strip() == "yes"
    elif host.path("/run/systemd/timesync/synchronized").exists():
        synced = True
    shown = time.strftime("%Y-%m-%d %H:%M", time.localtime(now))
    if synced:
        return [Finding("clock", Status.OK, f"{shown}, synchronised over the network")]
    if synced is None:
        return [Finding("clock", Status.WARN, f"{shown}; cannot tell whether it is synchronised",
                        "timedatectl (systemd-timesyncd) shows it on the Pi")]
    return [Finding("clock", Status.WARN, f"{shown}, not synchronised yet: saved-game times "
                    "may be off", "connect to the network; timedatectl shows the state")]


def check_engine(host: Host) -> list[Finding]:
    """Whether the rules engine runs compiled (setup.py, mypyc): plain Python works, slower."""
    status = host.engine
    if status == "compiled":
        return [Finding("engine", Status.OK, "compiled (mypyc)")]
    why = status.removeprefix("source: ")
    if "changed since it was compiled" in why or "has no compiled module" in why:
        # a checkout whose compiled engine no longer matches its sources
        return [Finding("engine", Status.WARN, f"plain Python, {why}; games work, bots and "
                        "replays are slower", "./start.sh or ./test.sh rebuilds it "
                        "(scripts/bootstrap.sh, from the lock files)")]
    # the Pi installs the plain engine on purpose: no compiler on the device (docs/bench.md)
    return [Finding("engine", Status.OK, f"plain Python ({why}): fast enough for the table; "
                    "a checkout with gcc and python3-dev compiles it for the benchmarks")]


def _groups_fix(host: Host, groups: str) -> str:
    if host.user == SERVICE_USER:
        return f"sudo usermod -aG {groups} {SERVICE_USER}, then restart the service"
    return (f"run as the service user (sudo -u {SERVICE_USER} companion doctor), or add "
            f"yourself: sudo usermod -aG {groups} {host.user} and log in again")


def _missing_device_fix(spec: ReaderSpec) -> str:
    if spec.uses_uart:
        return ("turn on the serial port: sudo deploy/install.sh --enable-uart, then reboot "
                "(on a Pi 5 use /dev/ttyAMA0 with dtoverlay=uart0-pi5)")
    if spec.kind is ReaderKind.KEYBOARD:
        return "plug the reader in; ls /dev/input/by-id/ shows its -event-kbd name"
    return "plug the reader in; ls /dev/serial/by-id/ shows the names to use"


def _space_fix() -> str:
    return "free some space (sudo apt clean; journalctl --vacuum-size=50M) or use a bigger card"


# --- running -----------------------------------------------------------------------------


def run_checks(host: Host, options: Options) -> list[Finding]:
    """Every check, in the order a person would fix things."""
    config, findings = check_config(host, options)
    findings += check_service(host)
    findings += check_display(host)
    findings += check_audio(host, config)
    findings += check_gpio(host, config)
    findings += check_readers(host, config, options)
    findings += check_data_dir(host, config, options)
    findings += check_clock(host)
    findings += check_engine(host)
    findings += table.check_memory(host)
    findings += table.check_mdns(host, config)
    findings += table.check_hotspot(host, config)
    findings += table.check_power(host)
    return findings


def report(findings: Iterable[Finding]) -> str:
    """The findings as aligned lines, each fix indented under its finding."""
    rows = list(findings)
    width = max((len(f.check) for f in rows), default=0)
    lines = []
    for f in rows:
        lines.append(f"{f.status.value:<5} {f.check:<{width}}  {f.message}")
        if f.fix and f.status is not Status.OK:
            lines.append(f"{'':<5} {'':<{width}}  fix: {f.fix}")
    fails = sum(f.status is Status.FAIL for f in rows)
    warns = sum(f.status is Status.WARN for f in rows)
    lines.append("")
    lines.append(f"{fails} failed, {warns} warnings, {len(rows) - fails - warns} ok")
    return "\n".join(lines)


def parse_args(argv: Sequence[str]) -> Options:
    """The command line of `companion doctor`."""
    parser = argparse.ArgumentParser(
        prog="companion doctor",
        description="Check display, renderer, audio, GPIO, readers, data directory, clock, "
        "memory, mDNS and the hotspot.",
    )
    parser.add_argument("--config", type=Path, help="the config file (default: "
                        "$COMPANION_CONFIG or ~/.config/table-companion/config.toml)")
    parser.add_argument("--data-dir", type=Path, help="the data directory to check")
    parser.add_argument("--wait-tap", action="store_true",
                        help="wait for a card tap on each configured reader")
    parser.add_argument("--timeout", type=float, default=15.0,
                        help="seconds to wait for each tap (default 15)")
    args = parser.parse_args(list(argv))
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    return Options(args.config, args.data_dir, args.wait_tap, args.timeout)


def main(argv: list[str]) -> int:
    """Run every check and print what is wrong and how to fix it; 1 if anything FAILed."""
    options = parse_args(argv)
    host = Host()
    where = host.model or "not a Raspberry Pi: missing hardware is only a warning"
    print(f"Table Companion doctor ({where}; user {host.user})\n", flush=True)
    findings = run_checks(host, options)
    print(report(findings))
    return 1 if any(f.status is Status.FAIL for f in findings) else 0
