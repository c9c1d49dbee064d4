"""`companion doctor` on a fake Pi (a temporary root) and on this machine."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion import engine_build
from companion.app import cli, doctor
from companion.app.doctor import Finding, Host, Options, Status
from companion.config import Config, ReaderKind, ReadersConfig, ReaderSpec, SoundConfig
from hardware.readers.pn532 import ACK, GET_FIRMWARE_VERSION, PN532_TO_HOST, build_frame
from hardware.readers.rdm6300 import Rdm6300Reader, encode_frame

NOW = 1_750_000_000.0  # June 2025
REPO = Path(__file__).resolve().parent.parent
MEMINFO = """\
MemTotal:         933656 kB
MemFree:          512000 kB
MemAvailable:     742400 kB
"""
CARDS = """\
 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
"""


class Runner:
    """A fake `run`: answers by the whole command line, else by program name, and records
    every call."""

    def __init__(self, answers: Mapping[str, tuple[int, str, str]] | None = None) -> None:
        self.answers = {
            "systemctl": (3, "inactive\n", ""),
            "systemctl is-active avahi-daemon": (0, "active\n", ""),
            "timedatectl": (0, "yes\n", ""),
            sys.executable: (0, "KMSDRM 1920 1080 gl=libEGL,libGLESv2 rss_kb=71680\n", ""),
            **(answers or {}),
        }
        self.calls: list[tuple[list[str], Mapping[str, str] | None]] = []

    def __call__(
        self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None
    ) -> subprocess.CompletedProcess[str]:
        self.calls.append((list(argv), env))
        key = " ".join(argv) if " ".join(argv) in self.answers else argv[0]
        if key not in self.answers:
            raise FileNotFoundError(argv[0])
        code, out, err = self.answers[key]
        return subprocess.CompletedProcess(list(argv), code, out, err)


class StuckPin(MockPin):  # type: ignore[misc]  # gpiozero has no type hints
    """A mock pin that reads low (pressed) once pulled up, for GPIO 22 only."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.info.name == "GPIO22":
            self.drive_low()


class FakePort:
    """A serial port that answers each write from a script and records the writes."""

    def __init__(self, answer: Callable[[bytes], bytes] = lambda data: b"") -> None:
        self.answer = answer
        self.pending = b""
        self.written = b""
        self.closed = False

    def write(self, data: bytes) -> int:
        self.written += data
        self.pending += self.answer(data)
        return len(data)

    def read(self, size: int = 1) -> bytes:
        data, self.pending = self.pending[:size], self.pending[size:]
        return data

    def close(self) -> None:
        self.closed = True


def make_pi(root: Path, model: str = "Raspberry Pi 4 Model B Rev 1.4") -> Path:
    """A fake Raspberry Pi file system: model, KMS, sound, GPIO and UART devices."""
    files = {
        "proc/device-tree/model": model + "\x00",
        "proc/asound/cards": CARDS,
        "dev/dri/card0": "",
        "dev/dri/card1": "",
        "dev/snd/pcmC0D0p": "",
        "dev/gpiochip0": "",
        "dev/serial0": "",
        "dev/ttyUSB0": "",
        "proc/meminfo": MEMINFO,
        "etc/hostname": "monopoly\n",
        "sys/devices/platform/soc/soc:firmware/get_throttled": "0\n",
        "etc/avahi/services/table-companion.service": (
            REPO / "deploy" / "avahi" / "table-companion.service").read_text(),
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "data").mkdir()
    return root


@pytest.fixture
def pi(tmp_path: Path) -> Iterator[Host]:
    """A Host for a healthy fake Pi; tests break one thing at a time."""
    root = make_pi(tmp_path / "root")
    factory = MockFactory()
    host = Host(
        root=root,
        env={"SDL_VIDEODRIVER": "kmsdrm"},
        user="companion",
        run=Runner(),
        access=lambda path, mode: True,
        open_serial=lambda device, baud, timeout: FakePort(),
        open_reader=lambda spec, emit: pytest.fail("no tap was asked for"),
        read_line=lambda timeout: None,
        now=lambda: NOW,
        say=lambda text: None,
        engine="compiled",
        pin_factory=lambda: factory,
        has_module=lambda name: True,
        free_bytes=lambda path: 10 * 1024**3,
        serial_timeout=0.05,
    )
    yield host
    factory.close()


def config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def by_check(findings: list[Finding], check: str) -> list[Finding]:
    return [f for f in findings if f.check == check]


def statuses(findings: list[Finding]) -> dict[str, set[Status]]:
    out: dict[str, set[Status]] = {}
    for f in findings:
        out.setdefault(f.check, set()).add(f.status)
    return out


def test_healthy_pi_is_all_ok(pi: Host, tmp_path: Path) -> None:
    path = config_file(tmp_path, '[readers]\nspecs = ["rdm6300:/dev/serial0"]\n')
    findings = doctor.run_checks(pi, Options(config_file=path, data_dir=Path("/data")))
    assert all(f.status is Status.OK for f in findings), doctor.report(findings)
    checks = [f.check for f in findings]
    for check in ("config", "display", "audio", "gpio", "reader rdm6300:/dev/serial0",
                  "data", "clock"):
        assert check in checks
    assert "KMSDRM 1920x1080" in doctor.report(findings)
    assert "vc4hdmi0, Headphones" in doctor.report(findings)


def test_display_probe_runs_pygame_in_a_child_with_kmsdrm(pi: Host) -> None:
    pi.env = {}
    findings = doctor.check_display(pi)
    assert isinstance(pi.run, Runner)
    (argv, env), = [c for c in pi.run.calls if c[0][0] == sys.executable]
    assert argv[1] == "-c" and "open_display(DisplaySpec())" in argv[2]
    assert env is not None and env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert [(f.check, f.status) for f in findings] == [
        ("display", Status.OK), ("display", Status.OK), ("renderer", Status.OK)]
    assert "kmsdrm: SDL draws through GL ES through EGL/GBM" in findings[-1].message
    assert "70 MB resident after the first frame" in findings[-1].message


def test_display_probe_on_a_desktop_uses_its_window_system(pi: Host) -> None:
    (pi.root / "proc/device-tree/model").unlink()
    pi.env = {"DISPLAY": ":0"}
    for card in (pi.root / "dev/dri").iterdir():
        card.unlink()
    findings = doctor.check_display(pi)
    assert isinstance(pi.run, Runner)
    ((_argv, env),) = [c for c in pi.run.calls if c[0][0] == sys.executable]
    assert env is not None and "SDL_VIDEODRIVER" not in env
    assert findings[-1].status is Status.OK


def test_display_busy_fails_with_the_reason(pi: Host) -> None:
    pi.run = Runner({sys.executable: (1, "", "Traceback...\npygame.error: kmsdrm not available")})
    (probe,) = [f for f in doctor.check_display(pi) if "pygame" in f.message]
    assert probe.status is Status.FAIL
    assert "kmsdrm not available" in probe.message
    assert "do_boot_behaviour B1" in probe.fix


def test_no_kms_fails_on_a_pi_and_warns_elsewhere(pi: Host) -> None:
    for card in (pi.root / "dev/dri").iterdir():
        card.unlink()
    assert doctor.check_display(pi)[0].status is Status.FAIL
    assert "vc4-kms-v3d" in doctor.check_display(pi)[0].fix
    (pi.root / "proc/device-tree/model").unlink()
    assert doctor.check_display(pi)[0].status is Status.WARN
    assert isinstance(pi.run, Runner)
    assert not [c for c in pi.run.calls if c[0][0] == sys.executable]  # nothing to probe


def test_display_permission(pi: Host) -> None:
    pi.access = lambda path, mode: "dri" not in str(path)
    finding = doctor.check_display(pi)[0]
    assert finding.status is Status.FAIL
    assert "usermod -aG video,render companion" in finding.fix


def test_pygame_missing_fails(pi: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)
    finding = doctor.check_display(pi)[-1]
    assert finding.status is Status.FAIL and "pygame does not load" in finding.message


def test_audio(pi: Host) -> None:
    assert [f.status for f in doctor.check_audio(pi, Config())] == [Status.OK]
    muted = Config(sound=SoundConfig(mute=True))
    assert [f.status for f in doctor.check_audio(pi, muted)] == [Status.OK, Status.WARN]
    pi.access = lambda path, mode: "snd" not in str(path)
    finding = doctor.check_audio(pi, Config())[0]
    assert finding.status is Status.FAIL and "-aG audio" in finding.fix
    (pi.root / "proc/asound/cards").write_text("--- no soundcards ---\n")
    assert doctor.check_audio(pi, Config())[0].status is Status.FAIL


def test_gpio_reads_every_button(pi: Host) -> None:
    (finding,) = doctor.check_gpio(pi, Config())
    assert finding.status is Status.OK
    assert "roll=17 yes=27 no=22 pass_go=23 undo=24 menu=25" in finding.message


def test_gpio_reports_a_stuck_button(pi: Host) -> None:
    factory = MockFactory(pin_class=StuckPin)
    pi.pin_factory = lambda: factory
    (finding,) = doctor.check_gpio(pi, Config())
    assert finding.status is Status.WARN
    assert finding.message == "reads pressed now: no (GPIO 22)"


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ("no-chips", Status.FAIL, "no GPIO chips"),
        ("no-lgpio", Status.FAIL, "lgpio library is not installed"),
        ("denied", Status.FAIL, "may not open /dev/gpiochip"),
        ("mock", Status.WARN, "simulated"),
        ("factory-error", Status.FAIL, "does not start"),
    ],
)
def test_gpio_problems(pi: Host, change: str, status: Status, words: str) -> None:
    if change == "no-chips":
        (pi.root / "dev/gpiochip0").unlink()
    elif change == "no-lgpio":
        pi.has_module = lambda name: name != "lgpio"
    elif change == "denied":
        pi.access = lambda path, mode: "gpiochip" not in str(path)
    elif change == "mock":
        pi.env = {"GPIOZERO_PIN_FACTORY": "mock"}
    else:
        def broken() -> Any:
            raise OSError("can not open gpiochip")
        pi.pin_factory = broken
    (finding,) = doctor.check_gpio(pi, Config())
    assert finding.status is status
    assert words in finding.message


def test_missing_hardware_is_only_a_warning_off_a_pi(pi: Host) -> None:
    (pi.root / "proc/device-tree/model").unlink()
    (pi.root / "dev/gpiochip0").unlink()
    (pi.root / "dev/serial0").unlink()
    (pi.root / "proc/asound/cards").unlink()
    config = Config(readers=ReadersConfig((ReaderSpec(ReaderKind.RDM6300, "/dev/serial0"),)))
    found = doctor.check_gpio(pi, config) + doctor.check_audio(pi, config)
    found += doctor.check_readers(pi, config, Options())
    assert {f.status for f in found} == {Status.WARN}


def readers(*specs: str) -> Config:
    from companion.config import parse_reader_spec

    return Config(readers=ReadersConfig(tuple(parse_reader_spec(s) for s in specs)))


def test_uart_reader_missing_says_enable_uart(pi: Host) -> None:
    (pi.root / "dev/serial0").unlink()
    (finding,) = doctor.check_readers(pi, readers("rdm6300:/dev/serial0"), Options())
    assert finding.status is Status.FAIL
    assert "--enable-uart" in finding.fix


def test_serial_reader_permission_and_busy(pi: Host) -> None:
    pi.access = lambda path, mode: "ttyUSB0" not in str(path)
    (finding,) = doctor.check_readers(pi, readers("pn532:/dev/ttyUSB0"), Options())
    assert finding.status is Status.FAIL and "-aG dialout" in finding.fix

    def busy(device: str, baud: int, timeout: float) -> FakePort:
        raise OSError(16, "Device or resource busy")

    pi.access = lambda path, mode: True
    pi.open_serial = busy
    (finding,) = doctor.check_readers(pi, readers("rdm6300:/dev/serial0"), Options())
    assert finding.status is Status.FAIL and "busy" in finding.message


def pn532_answer(data: bytes) -> bytes:
    """A PN532 that answers GetFirmwareVersion with firmware 1.6."""
    if build_frame(GET_FIRMWARE_VERSION) in data:
        return ACK + build_frame(0x03, bytes([0x32, 1, 6, 7]), tfi=PN532_TO_HOST)
    return b""


def test_pn532_answers_with_its_firmware(pi: Host) -> None:
    ports: list[FakePort] = []

    def open_serial(device: str, baud: int, timeout: float) -> FakePort:
        assert (device, baud) == (str(pi.root / "dev/ttyUSB0"), 115200)
        ports.append(FakePort(pn532_answer))
        return ports[-1]

    pi.open_serial = open_serial
    (finding,) = doctor.check_readers(pi, readers("pn532:/dev/ttyUSB0"), Options())
    assert finding.status is Status.OK
    assert "firmware 1.6" in finding.message
    assert ports[0].closed


def test_silent_pn532_fails(pi: Host) -> None:
    (finding,) = doctor.check_readers(pi, readers("pn532:/dev/ttyUSB0"), Options())
    assert finding.status is Status.FAIL
    assert "HSU" in finding.fix


class ScriptedPort:
    """What Rdm6300Reader reads: one card's frame, then silence until closed."""

    def __init__(self, frames: bytes) -> None:
        self.data = frames
        self.closed = threading.Event()

    @property
    def in_waiting(self) -> int:
        return len(self.data)

    def read(self, size: int = 1) -> bytes:
        if not self.data:
            self.closed.wait(0.01)  # the read timeout a real port would have
            return b""
        chunk, self.data = self.data[:size], self.data[size:]
        return chunk

    def close(self) -> None:
        self.closed.set()


def test_wait_tap_reads_a_card_through_the_real_reader(pi: Host) -> None:
    said: list[str] = []
    pi.say = said.append
    opened: list[str] = []

    def open_reader(spec: str, emit: Callable[[Any], None]) -> Rdm6300Reader:
        opened.append(spec)
        frame = encode_frame("0A00B1C2D3") * 2  # a card on the reader repeats its frame
        return Rdm6300Reader(
            "/dev/serial0", emit, serial_factory=lambda *a, **k: ScriptedPort(frame)
        )

    pi.open_reader = open_reader
    found = doctor.check_readers(pi, readers("rdm6300:/dev/serial0"), Options(wait_tap=True))
    assert [f.status for f in found] == [Status.OK, Status.OK]
    assert found[1].message.startswith("read card 0A00B1C2D3")
    assert opened == ["rdm6300:/dev/serial0"]
    assert said and "Tap a card on rdm6300:/dev/serial0" in said[0]


def test_wait_tap_times_out(pi: Host) -> None:
    class Silent:
        def start(self) -> None: ...
        def close(self) -> None: ...

    pi.open_reader = lambda spec, emit: Silent()
    options = Options(wait_tap=True, timeout=0.05)
    found = doctor.check_readers(pi, readers("rdm6300:/dev/serial0"), options)
    assert [f.status for f in found] == [Status.OK, Status.FAIL]
    assert "no card read within 0.05 s" in found[1].message


@pytest.mark.parametrize(
    ("line", "status", "words"),
    [("0012345678\n", Status.OK, "read card 0012345678"), (None, Status.FAIL, "nothing typed"),
     ("hello\n", Status.FAIL, "no card number")],
)
def test_keyboard_reader_wait_tap(pi: Host, line: str | None, status: Status, words: str) -> None:
    pi.read_line = lambda timeout: line
    found = doctor.check_readers(pi, readers("keyboard"), Options(wait_tap=True))
    assert found[0].status is Status.OK
    assert found[1].status is status and words in found[1].message


def test_keyboard_event_device_needs_input_group(pi: Host) -> None:
    pi.access = lambda path, mode: False
    (pi.root / "dev/input").mkdir()
    (pi.root / "dev/input/event3").write_text("")
    (finding,) = doctor.check_readers(pi, readers("keyboard:/dev/input/event3"), Options())
    assert finding.status is Status.FAIL and "-aG input" in finding.fix


def test_fake_none_and_no_readers(pi: Host) -> None:
    assert [f.status for f in doctor.check_readers(pi, readers("fake"), Options())] == [
        Status.WARN
    ]
    assert [f.status for f in doctor.check_readers(pi, readers("none"), Options())] == [
        Status.OK
    ]
    assert [f.status for f in doctor.check_readers(pi, readers(), Options())] == [Status.WARN]


def test_data_dir(pi: Host, tmp_path: Path) -> None:
    config = Config()
    (ok,) = doctor.check_data_dir(pi, config, Options(data_dir=Path("/data")))
    assert ok.status is Status.OK and "10.0 GB free" in ok.message
    assert list((pi.root / "data").iterdir()) == []  # the probe file is gone
    (new,) = doctor.check_data_dir(pi, config, Options(data_dir=Path("/data/new/games")))
    assert new.status is Status.OK and "will be created" in new.message
    (pi.root / "file").write_text("")
    (bad,) = doctor.check_data_dir(pi, config, Options(data_dir=Path("/file/games")))
    assert bad.status is Status.FAIL and "not a directory" in bad.message


@pytest.mark.parametrize(
    ("free", "status"), [(5 * 1024**2, Status.FAIL), (100 * 1024**2, Status.WARN)]
)
def test_data_dir_space(pi: Host, free: int, status: Status) -> None:
    pi.free_bytes = lambda path: free
    (finding,) = doctor.check_data_dir(pi, Config(), Options(data_dir=Path("/data")))
    assert finding.status is status and "MB" in finding.message


def test_data_dir_from_config(pi: Host, tmp_path: Path) -> None:
    path = config_file(tmp_path, '[game]\ndata_dir = "/data/from-config"\n')
    findings = doctor.run_checks(pi, Options(config_file=path))
    (data,) = by_check(findings, "data")
    assert data.message.startswith("/data/from-config ")


@pytest.mark.parametrize(
    ("now", "answer", "status"),
    [
        (NOW, (0, "yes\n", ""), Status.OK),
        (NOW, (0, "no\n", ""), Status.WARN),
        (NOW, (1, "", "System has not been booted with systemd"), Status.WARN),
        (0.0, (0, "yes\n", ""), Status.FAIL),
    ],
)
def test_clock(pi: Host, now: float, answer: tuple[int, str, str], status: Status) -> None:
    pi.now = lambda: now
    pi.run = Runner({"timedatectl": answer})
    (finding,) = doctor.check_clock(pi)
    assert finding.status is status


def test_clock_without_timedatectl_uses_timesyncd_flag(pi: Host) -> None:
    pi.run = Runner()
    assert isinstance(pi.run, Runner)
    del pi.run.answers["timedatectl"]
    assert doctor.check_clock(pi)[0].status is Status.WARN
    flag = pi.root / "run/systemd/timesync/synchronized"
    flag.parent.mkdir(parents=True)
    flag.write_text("")
    assert doctor.check_clock(pi)[0].status is Status.OK


def test_running_service_is_pointed_out(pi: Host) -> None:
    pi.run = Runner({"systemctl": (0, "active\n", "")})
    (finding,) = doctor.check_service(pi)
    assert finding.status is Status.WARN and "systemctl stop table-companion" in finding.fix
    pi.run = Runner()
    assert doctor.check_service(pi) == []


def test_bad_config_fails_naming_the_line_and_checks_the_rest(pi: Host, tmp_path: Path) -> None:
    path = config_file(tmp_path, "[sound]\nvolume = 50\n\n[web]\nport = 99999\n")
    findings = doctor.run_checks(pi, Options(config_file=path, data_dir=Path("/data")))
    (config,) = by_check(findings, "config")
    assert config.status is Status.FAIL
    assert f"{path}:5: web.port" in config.message
    assert {"display", "audio", "gpio", "data", "clock"} <= set(statuses(findings))


def test_missing_config_warns(pi: Host, tmp_path: Path) -> None:
    (finding,) = doctor.check_config(pi, Options(config_file=tmp_path / "none.toml"))[1]
    assert finding.status is Status.WARN and "using the defaults" in finding.message


def test_report_shows_fixes_and_counts() -> None:
    text = doctor.report([
        Finding("display", Status.OK, "fine", "never shown"),
        Finding("audio", Status.FAIL, "no sound card", "plug in a speaker"),
        Finding("clock", Status.WARN, "not synchronised", "wait"),
    ])
    lines = text.splitlines()
    assert lines[0] == "OK    display  fine"
    assert lines[1] == "FAIL  audio    no sound card"
    assert lines[2].strip() == "fix: plug in a speaker"
    assert "never shown" not in text
    assert lines[-1] == "1 failed, 1 warnings, 1 ok"


def test_doctor_on_this_machine_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real checks on the real machine: a bad config makes the exit code 1."""
    bad = config_file(tmp_path, "[buttons]\nroll = 99\n")
    code = cli.main(["doctor", "--config", str(bad), "--data-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert f"{bad}:2: buttons.roll" in out
    for check in ("display", "audio", "gpio", "reader keyboard", "data", "clock"):
        assert f" {check} " in out
    assert "pygame" not in doctor.__dict__  # imported only inside the display check


def test_timeout_must_be_positive() -> None:
    with pytest.raises(SystemExit):
        doctor.parse_args(["--timeout", "0"])
    assert doctor.parse_args(["--wait-tap", "--timeout", "3"]) == Options(
        wait_tap=True, timeout=3.0
    )


def test_engine_says_whether_it_runs_compiled(pi: Host) -> None:
    pi.engine = "compiled"
    (compiled,) = doctor.check_engine(pi)
    assert compiled.status is Status.OK
    pi.engine = "source: companion.rules.engine changed since it was compiled"
    (source,) = doctor.check_engine(pi)
    assert source.status is Status.WARN
    assert "companion.rules.engine changed since it was compiled" in source.message
    assert "./test.sh" in source.fix
    pi.engine = "source: the engine is not compiled"  # the Pi's install: no compiler there
    (plain,) = doctor.check_engine(pi)
    assert plain.status is Status.OK and "plain Python" in plain.message
    assert Host().engine == engine_build.status


# --- the renderer, memory, mDNS and the hotspot (companion/app/doctor/table.py) ------------


def test_a_window_drawn_through_gl_is_a_warning_that_says_how_to_avoid_it(pi: Host) -> None:
    (pi.root / "proc/device-tree/model").unlink()
    pi.env = {"DISPLAY": ":0"}
    pi.run = Runner({sys.executable: (0, "x11 800 480 gl=libGL,libLLVM rss_kb=149504\n", "")})
    (renderer,) = by_check(doctor.check_display(pi), "renderer")
    assert renderer.status is Status.WARN
    assert "x11: a window drawn through GL (libGL, libLLVM loaded)" in renderer.message
    assert "146 MB resident" in renderer.message
    assert "SDL_FRAMEBUFFER_ACCELERATION=0" in renderer.fix
    pi.run = Runner({sys.executable: (0, "x11 800 480 gl=- rss_kb=58368\n", "")})
    (renderer,) = by_check(doctor.check_display(pi), "renderer")
    assert renderer.status is Status.OK
    assert renderer.message == ("x11: the driver's own framebuffer, no GL loaded; "
                                "57 MB resident after the first frame")


def test_no_display_means_no_renderer(pi: Host) -> None:
    (pi.root / "proc/device-tree/model").unlink()
    pi.env = {}
    for card in (pi.root / "dev/dri").iterdir():
        card.unlink()
    (renderer,) = by_check(doctor.check_display(pi), "renderer")
    assert renderer.status is Status.WARN and "runs headless" in renderer.message


def test_the_probe_opens_the_display_as_companion_run_does_on_this_machine() -> None:
    """The real probe in a child, with SDL's dummy driver: it draws and reports."""
    env = {"SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-c", doctor.DISPLAY_PROBE], capture_output=True,
                            text=True, env=env, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    words = result.stdout.split()
    assert words[:3] == ["dummy", "800", "480"] and words[3] == "gl=-"
    assert 10 * 1024 < int(words[4].removeprefix("rss_kb=")) < 1024 * 1024


def test_memory_names_the_running_companion(pi: Host) -> None:
    (pi.root / "proc/812").mkdir()
    (pi.root / "proc/812/status").write_text("Name:\tcompanion\nVmRSS:\t   59392 kB\n")
    pi.run = Runner({"systemctl show --property=MainPID --value table-companion":
                     (0, "812\n", "")})
    (memory,) = doctor.table.check_memory(pi)
    assert memory.status is Status.OK
    assert memory.message == ("725 MB available of 911 MB; companion run (pid 812) uses "
                              "58 MB resident")


def test_memory_finds_a_companion_started_by_hand_and_warns_when_low(pi: Host) -> None:
    (pi.root / "proc/4242").mkdir()
    (pi.root / "proc/4242/cmdline").write_bytes(b"/usr/bin/python3\0-m\0companion\0run\0")
    (pi.root / "proc/4242/status").write_text("VmRSS:\t   40960 kB\n")
    (pi.root / "proc/4243").mkdir()
    (pi.root / "proc/4243/cmdline").write_bytes(b"/usr/local/bin/companion\0doctor\0")
    (pi.root / "proc/meminfo").write_text("MemTotal: 427000 kB\nMemAvailable: 61440 kB\n")
    (memory,) = doctor.table.check_memory(pi)
    assert memory.status is Status.WARN
    assert "60 MB available of 416 MB; companion run (pid 4242) uses 40 MB" in memory.message
    assert "do_boot_behaviour B1" in memory.fix


def test_mdns_ok_names_the_address_phones_open(pi: Host) -> None:
    (mdns,) = doctor.table.check_mdns(pi, Config())
    assert (mdns.status, mdns.message) == (
        Status.OK, "avahi-daemon announces http://monopoly.local:8080/")


def test_mdns_warns_with_the_fix(pi: Host, tmp_path: Path) -> None:
    pi.run = Runner({"systemctl is-active avahi-daemon": (3, "inactive\n", "")})
    (mdns,) = doctor.table.check_mdns(pi, Config())
    assert mdns.status is Status.WARN and "avahi-daemon is inactive" in mdns.message
    assert "systemctl enable --now avahi-daemon" in mdns.fix
    config = doctor.load_config(config_file(tmp_path, "[web]\nport = 9000\n"))
    (mdns,) = doctor.table.check_mdns(pi, config)
    assert "announces port 8080, the phone remote listens on 9000" in mdns.message
    (pi.root / "etc/avahi/services/table-companion.service").unlink()
    (mdns,) = doctor.table.check_mdns(pi, Config())
    assert mdns.status is Status.WARN and "phones cannot find" in mdns.message


def make_hotspot(pi: Host) -> None:
    """deploy/hotspot.py, for real, into the fake Pi."""
    import grp
    import os

    result = subprocess.run([sys.executable, str(REPO / "deploy" / "hotspot.py"), "--root",
                             str(pi.root), "--group", grp.getgrgid(os.getgid()).gr_name],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_hotspot_none_is_fine(pi: Host) -> None:
    (finding,) = doctor.table.check_hotspot(pi, Config())
    assert finding.status is Status.OK and "install.sh --hotspot" in finding.message


def test_hotspot_profile_checked_by_libnm_and_its_file_read(pi: Host) -> None:
    make_hotspot(pi)
    pi.run = Runner({"/usr/bin/python3": (0, "libnm 1.42.4 reads it\n", "")})
    findings = doctor.table.check_hotspot(pi, Config())
    assert [f.status for f in findings] == [Status.OK, Status.OK], doctor.report(findings)
    assert "libnm" in findings[0].message
    assert findings[1].message.startswith("Wi-Fi 'TableCompanion-")
    assert "off now" in findings[1].message
    assert isinstance(pi.run, Runner)
    (argv, _env), = [c for c in pi.run.calls if c[0][0] == "/usr/bin/python3"]
    assert argv[1].endswith("deploy/hotspot.py")
    assert argv[-2:] == ["--check", str(pi.root / doctor.table.HOTSPOT_PROFILE[1:])]


def test_hotspot_refused_by_libnm_or_half_made_fails_or_warns(pi: Host) -> None:
    make_hotspot(pi)
    pi.run = Runner({"/usr/bin/python3": (1, "", "hotspot.py: NetworkManager refuses x: "
                                          "802-11-wireless.mode: bad")})
    findings = doctor.table.check_hotspot(pi, Config())
    assert findings[0].status is Status.FAIL and "mode: bad" in findings[0].message
    (pi.root / "etc/table-companion/hotspot.toml").write_text('ssid = "x"\n')
    assert doctor.table.check_hotspot(pi, Config())[-1].status is Status.FAIL
    (pi.root / "etc/table-companion/hotspot.toml").unlink()
    (pi.root / doctor.table.HOTSPOT_PROFILE[1:]).unlink()
    (none,) = doctor.table.check_hotspot(pi, Config())
    assert none.status is Status.OK and none.message.startswith("none: ")


@pytest.mark.parametrize("flags, status, words", [
    ("50005", Status.FAIL, "under-voltage now"),
    ("50000", Status.WARN, "under-voltage happened since the Pi started"),
    ("40000", Status.WARN, "slowed down since the Pi started"),
    ("8", Status.WARN, "slowed down now"),
    ("0", Status.OK, "no under-voltage"),
])
def test_power_flags_of_the_firmware(pi: Host, flags: str, status: Status, words: str) -> None:
    (pi.root / "sys/devices/platform/soc/soc:firmware/get_throttled").write_text(flags + "\n")
    [finding] = by_check(doctor.run_checks(pi, Options(data_dir=Path("/data"))), "power")
    assert finding.status is status and words in finding.message, finding
    assert status is Status.OK or "power supply" in finding.fix or "heatsink" in finding.fix


def test_power_from_vcgencmd_without_the_sysfs_file(pi: Host) -> None:
    (pi.root / "sys/devices/platform/soc/soc:firmware/get_throttled").unlink()
    pi.run.answers["vcgencmd"] = (0, "throttled=0x50005\n", "")  # type: ignore[attr-defined]
    [finding] = by_check(doctor.run_checks(pi, Options(data_dir=Path("/data"))), "power")
    assert finding.status is Status.FAIL and "under-voltage now" in finding.message


def test_a_missing_package_is_fixed_from_the_lock_file(
        pi: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """pygame, lgpio or a stale engine: the fix installs the locked versions (README: every
    package from requirements/, checked against its hash), never an unpinned pip install."""
    monkeypatch.setitem(sys.modules, "pygame", None)
    pygame = doctor.check_display(pi)[-1]
    pi.has_module = lambda name: name != "lgpio"
    (lgpio,) = doctor.check_gpio(pi, Config())
    pi.engine = "source: companion.rules.engine changed since it was compiled"
    (engine,) = doctor.check_engine(pi)
    root = Path(__file__).resolve().parents[1]
    locked = (root / "requirements/run.txt").read_text(encoding="utf-8")
    for finding, package in ((pygame, "pygame-ce"), (lgpio, "lgpio")):
        assert finding.status is Status.FAIL
        assert "deploy/install.sh" in finding.fix and "./start.sh" in finding.fix, finding
        assert "requirements/run.txt" in finding.fix, finding
        pinned = re.search(rf"^{re.escape(package)}==\S+ .*?\\\n\s+--hash=sha256:", locked,
                           re.M | re.S)
        assert pinned, f"{package} is not pinned with a hash in requirements/run.txt"
    assert "./start.sh" in engine.fix or "./test.sh" in engine.fix
    for finding in (pygame, lgpio, engine):
        assert "pip install" not in finding.fix, finding
    for script in ("deploy/install.sh", "start.sh", "test.sh", "scripts/bootstrap.sh"):
        assert (root / script).is_file(), script
    source = (root / "companion/app/doctor").rglob("*.py")
    said = [line for path in source for line in path.read_text(encoding="utf-8").splitlines()
            if "pip install" in line and "--require-hashes" not in line]
    assert said == [], "the doctor suggests an unpinned pip install"
