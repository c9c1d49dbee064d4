"""RFID readers: frame parsers, and real pyserial reading real pseudo-terminals."""

from __future__ import annotations

import doctest
import os
import queue
import random
import select
import threading
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

import hardware.readers as readers_pkg
from companion.inputs.events import HardwareWarning, TagEvent
from hardware.readers import (
    FakeReader,
    KeyboardReader,
    NullReader,
    Pn532Reader,
    Rdm6300Reader,
    ReaderSpecError,
    TapDeduper,
    fake,
    keyboard,
    open_reader,
    pn532,
    rdm6300,
)
from hardware.readers.keyboard import KeyboardWedgeDecoder, key_event
from hardware.readers.pn532 import ACK, Frame, Pn532FrameParser, build_frame
from hardware.readers.rdm6300 import Rdm6300Parser, encode_frame

TIMEOUT = 5.0


class FakeClock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("module", [rdm6300, pn532, fake, readers_pkg])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


# -- RDM6300 frames -------------------------------------------------------------------


def test_rdm6300_frame_split_anywhere_is_one_tag() -> None:
    frame = encode_frame("1A2B3C4D5E")
    for cut in range(len(frame) + 1):
        parser = Rdm6300Parser(confirm=1)  # framing alone
        assert parser.feed(frame[:cut]) + parser.feed(frame[cut:]) == ["1A2B3C4D5E"]


@pytest.mark.parametrize(
    "bad",
    [
        b"\x021A2B3C4D5E00\x03",  # wrong checksum
        b"\x021A2B3C4D5G5A\x03",  # not hex
        b"\x021A2B3C4D5E5A\x04",  # no ETX
        b"\x021A2B3C",  # cut short by the next frame's STX
    ],
)
def test_rdm6300_bad_frames_give_no_tag(bad: bytes) -> None:
    parser = Rdm6300Parser(confirm=1)  # framing alone
    assert parser.feed(bad) == []
    assert parser.feed(encode_frame("0011223344")) == ["0011223344"]
    assert parser.bad_frames == 1


def test_rdm6300_random_noise_never_crashes_and_never_makes_a_tag() -> None:
    rng = random.Random(7)
    parser = Rdm6300Parser(confirm=1)  # framing alone
    for _ in range(200):
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        assert parser.feed(noise) == []  # a valid frame by chance: ~1 in 10^15
        assert parser.feed(encode_frame("A1B2C3D4E5")) == ["A1B2C3D4E5"]


# -- PN532 frames -------------------------------------------------------------------


def test_pn532_parser_ack_and_answer_split_bytewise() -> None:
    stream = ACK + build_frame(0x4B, bytes([0]), tfi=0xD5)
    parser = Pn532FrameParser()
    frames: list[Frame] = []
    for byte in stream:
        frames += parser.feed(bytes([byte]))
    assert frames == [Frame("ack"), Frame("data", 0xD5, bytes([0x4B, 0]))]


def test_pn532_parser_resyncs_after_noise_and_bad_checksums() -> None:
    good = build_frame(0x15, tfi=0xD5)
    corrupt = bytearray(build_frame(0x4B, bytes([1, 1, 0, 4, 8, 4, 1, 2, 3, 4]), tfi=0xD5))
    corrupt[-2] ^= 0xFF  # data checksum
    bad_len = b"\x00\x00\xff\x05\x00"  # LEN + LCS != 0
    parser = Pn532FrameParser()
    frames = parser.feed(b"\x13\x37\xff" + bytes(corrupt) + bad_len + good)
    assert frames == [Frame("data", 0xD5, bytes([0x15]))]
    assert parser.bad_frames == 2


def test_pn532_parser_random_noise_never_crashes() -> None:
    rng = random.Random(11)
    parser = Pn532FrameParser()
    good = build_frame(0x4B, bytes([0]), tfi=0xD5)
    for _ in range(300):
        parser.feed(bytes(rng.randrange(1, 256) for _ in range(rng.randrange(30))))
        assert parser.feed(good)[-1] == Frame("data", 0xD5, bytes([0x4B, 0]))


def test_deduper_one_tap_per_placement_per_tag() -> None:
    clock = FakeClock()
    dedupe = TapDeduper(clock, gap=0.5)
    seen = []
    for tag, dt in [("A", 0), ("A", 0.1), ("B", 0.1), ("A", 0.1), ("B", 0.1), ("A", 0.6)]:
        clock.now += dt
        seen.append(dedupe.seen(tag))
    assert seen == [True, False, True, False, False, True]


# -- real pseudo-terminals ------------------------------------------------------------


class PtyPort:
    """A pty pair behind a stable symlink, like a USB adapter that can be unplugged."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.lock = threading.Lock()  # held by a fake device while it uses the fds
        self.master = -1
        self.slave = -1
        self.plug()

    def plug(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.link.unlink(missing_ok=True)
        self.link.symlink_to(os.ttyname(self.slave))

    def unplug(self) -> None:
        self.link.unlink(missing_ok=True)
        with self.lock:
            os.close(self.master)
            os.close(self.slave)
            self.master = self.slave = -1

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        if self.master >= 0:
            self.unplug()


@pytest.fixture
def port(tmp_path: Path) -> Iterator[PtyPort]:
    p = PtyPort(tmp_path / "ttyRFID")
    yield p
    p.close()


@pytest.fixture
def events() -> queue.Queue[object]:
    return queue.Queue()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def next_event(q: queue.Queue[object]) -> object:
    return q.get(timeout=TIMEOUT)


def next_warning(q: queue.Queue[object]) -> HardwareWarning:
    while True:
        event = next_event(q)
        if isinstance(event, HardwareWarning):
            return event


@pytest.fixture
def rdm(port: PtyPort, events: queue.Queue[object], clock: FakeClock) -> Iterator[Rdm6300Reader]:
    reader = Rdm6300Reader(str(port.link), events.put, clock=clock, retry_interval=0.02)
    reader.confirm = 1  # these tests follow single frames; tests/test_rdm6300_noise.py: 2
    reader.start()
    assert reader.connected.wait(TIMEOUT)
    yield reader
    reader.close()


def test_rdm6300_pty_a_single_frame_is_not_yet_a_tap(
    port: PtyPort, events: queue.Queue[object], clock: FakeClock
) -> None:
    reader = Rdm6300Reader(str(port.link), events.put, clock=clock, retry_interval=0.02)
    reader.start()
    try:
        assert reader.connected.wait(TIMEOUT)
        frame = encode_frame("0A1B2C3D4E")
        port.write(frame)
        assert reader.wait_for_bytes(len(frame), TIMEOUT)
        assert events.empty()  # the 8-bit checksum alone lets 1 random frame in 256 pass
        port.write(frame)  # a card lying on the reader repeats it
        event = next_event(events)
        assert isinstance(event, TagEvent) and event.tag == "0A1B2C3D4E"
    finally:
        reader.close()


def test_rdm6300_pty_repeats_are_one_tap(
    rdm: Rdm6300Reader, port: PtyPort, events: queue.Queue[object]
) -> None:
    frame = encode_frame("0A1B2C3D4E")
    port.write(frame * 4)
    for _ in range(3):
        port.write(frame)
    port.write(encode_frame("1111111111"))
    assert rdm.wait_for_bytes(8 * len(frame), TIMEOUT)
    tags = [next_event(events), next_event(events)]
    assert [t.tag for t in tags if isinstance(t, TagEvent)] == ["0A1B2C3D4E", "1111111111"]
    assert events.empty()
    assert all(isinstance(t, TagEvent) and t.reader == f"rdm6300:{port.link}" for t in tags)


def test_rdm6300_pty_same_card_placed_again_is_a_new_tap(
    rdm: Rdm6300Reader, port: PtyPort, events: queue.Queue[object], clock: FakeClock
) -> None:
    port.write(encode_frame("0A1B2C3D4E"))
    assert isinstance(next_event(events), TagEvent)
    clock.now += 2.0
    port.write(encode_frame("0A1B2C3D4E"))
    event = next_event(events)
    assert isinstance(event, TagEvent) and event.tag == "0A1B2C3D4E"


def test_rdm6300_pty_noise_bad_checksum_and_split_frame(
    rdm: Rdm6300Reader, port: PtyPort, events: queue.Queue[object]
) -> None:
    good = encode_frame("00DEADBEEF")
    bad = bytearray(encode_frame("0011223344"))
    bad[11] = ord("0") if bad[11] != ord("0") else ord("1")
    sent = b"\xff\x00 noise \x03\x03" + bytes(bad) + good[:6]
    port.write(sent)
    assert rdm.wait_for_bytes(len(sent), TIMEOUT)  # the reader has the first half
    assert events.empty()
    port.write(good[6:])
    event = next_event(events)
    assert isinstance(event, TagEvent) and event.tag == "00DEADBEEF"
    assert rdm.bad_frames == 1
    assert events.empty()


def test_rdm6300_pty_unplug_warns_and_replug_reconnects(
    rdm: Rdm6300Reader, port: PtyPort, events: queue.Queue[object]
) -> None:
    port.unplug()
    warning = next_warning(events)
    assert (warning.code, warning.active) == ("reader_unplugged", True)
    assert str(port.link) in warning.message
    port.plug()
    cleared = next_warning(events)
    assert (cleared.code, cleared.active) == ("reader_unplugged", False)
    assert rdm.connected.wait(TIMEOUT)
    port.write(encode_frame("0102030405"))
    event = next_event(events)
    assert isinstance(event, TagEvent) and event.tag == "0102030405"


def test_reader_missing_at_start_warns_then_connects(
    tmp_path: Path, events: queue.Queue[object]
) -> None:
    link = tmp_path / "ttyLATER"
    reader = Rdm6300Reader(str(link), events.put, retry_interval=0.02)
    reader.start()
    try:
        warning = next_warning(events)
        assert (warning.code, warning.active) == ("reader_unplugged", True)
        later = PtyPort(link)
        try:
            assert not next_warning(events).active
            later.write(encode_frame("0A0B0C0D0E") * 2)  # a card repeats its frame
            assert isinstance(next_event(events), TagEvent)
        finally:
            later.close()
    finally:
        reader.close()


class FakePn532:
    """A PN532 on the far side of a pty: answers frames the way the chip does."""

    def __init__(self, port: PtyPort) -> None:
        self.port = port
        self.card: bytes | None = None
        self.mute = False
        self.corrupt_next = False
        self.commands: list[int] = []
        self.polls = 0
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def wait_polls(self, count: int) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self.polls >= count, TIMEOUT)

    def _run(self) -> None:
        parser = Pn532FrameParser()
        fd = -1
        while not self._stop.is_set():
            with self.port.lock:
                if self.port.master != fd:  # plugged in anew
                    fd, parser = self.port.master, Pn532FrameParser()
                if fd < 0:
                    ready = []
                else:
                    ready, _, _ = select.select([fd], [], [], 0.02)
                if ready:
                    for frame in parser.feed(os.read(fd, 256)):
                        if frame.kind == "data" and frame.tfi == 0xD4:
                            self._answer(fd, frame.payload[0])
            if fd < 0:
                self._stop.wait(0.01)  # unplugged: wait for the test to plug it back

    def _answer(self, fd: int, command: int) -> None:
        with self._cond:
            self.commands.append(command)
            if command == 0x4A:
                self.polls += 1
            self._cond.notify_all()
        if self.mute:
            return
        params = b""
        if command == 0x4A:
            uid = self.card
            params = bytes([0]) if uid is None else bytes([1, 1, 0, 4, 8, len(uid)]) + uid
        answer = bytearray(build_frame(command + 1, params, tfi=0xD5))
        if self.corrupt_next:
            self.corrupt_next = False
            answer[-2] ^= 0x55
        os.write(fd, b"\x00\x42" + ACK + bytes(answer))  # a little line noise first

    def close(self) -> None:
        self._stop.set()
        self._thread.join(TIMEOUT)


@pytest.fixture
def chip(port: PtyPort) -> Iterator[FakePn532]:
    device = FakePn532(port)
    yield device
    device.close()


@pytest.fixture
def pn(
    port: PtyPort, chip: FakePn532, events: queue.Queue[object], clock: FakeClock
) -> Iterator[Pn532Reader]:
    reader = Pn532Reader(str(port.link), events.put, clock=clock, retry_interval=0.02)
    reader.poll_interval = 0.005
    reader.answer_timeout = 1.0  # a loaded CI machine answers late;
    # only the dropped and the silent answers wait it out
    reader.start()
    assert chip.wait_polls(1)
    yield reader
    reader.close()


def test_pn532_pty_wakes_configures_and_polls(pn: Pn532Reader, chip: FakePn532) -> None:
    assert chip.commands[:3] == [0x14, 0x32, 0x4A]


def test_pn532_pty_card_lying_there_is_one_tap(
    pn: Pn532Reader, chip: FakePn532, events: queue.Queue[object], clock: FakeClock
) -> None:
    chip.card = bytes.fromhex("04A1B2C3D4E580")
    event = next_event(events)
    assert isinstance(event, TagEvent) and event.tag == "04A1B2C3D4E580"
    assert chip.wait_polls(chip.polls + 5)
    assert events.empty()
    chip.card = None
    clock.now += 2.0
    chip.card = bytes.fromhex("04A1B2C3D4E580")
    assert isinstance(next_event(events), TagEvent)


def test_pn532_pty_bad_checksum_answer_is_dropped(
    pn: Pn532Reader, chip: FakePn532, events: queue.Queue[object]
) -> None:
    chip.corrupt_next = True
    chip.card = bytes.fromhex("DEADBEEF")
    event = next_event(events)
    assert isinstance(event, TagEvent) and event.tag == "DEADBEEF"
    assert pn.bad_frames >= 1


def test_pn532_pty_silent_chip_warns_and_recovers(
    pn: Pn532Reader, chip: FakePn532, events: queue.Queue[object]
) -> None:
    chip.mute = True
    warning = next_warning(events)
    assert (warning.code, warning.active) == ("reader_silent", True)
    chip.mute = False
    assert not next_warning(events).active
    chip.card = bytes.fromhex("01020304")
    assert isinstance(next_event(events), TagEvent)


def test_pn532_pty_unplug_and_replug(
    pn: Pn532Reader, chip: FakePn532, port: PtyPort, events: queue.Queue[object]
) -> None:
    port.unplug()
    warning = next_warning(events)
    assert warning.active and warning.code in {"reader_unplugged", "reader_silent"}
    port.plug()
    assert not next_warning(events).active
    chip.card = bytes.fromhex("0A0B0C0D")
    event = next_event(events)
    assert isinstance(event, TagEvent) and event.tag == "0A0B0C0D"


# -- keyboard wedge -------------------------------------------------------------------


def test_keyboard_wedge_fast_keys_and_enter_make_a_tag() -> None:
    clock = FakeClock()
    decoder = KeyboardWedgeDecoder(clock=clock)
    results = []
    for key in "0012345678":
        clock.now += 0.01
        results.append(decoder.feed_key(key))
    clock.now += 0.01
    assert decoder.feed_key("return") == "0012345678"
    assert results == [None] * 10


def test_keyboard_wedge_human_typing_is_not_a_tag() -> None:
    clock = FakeClock()
    decoder = KeyboardWedgeDecoder(clock=clock)
    for key in "0012345678":
        clock.now += 0.4
        decoder.feed_key(key)
    clock.now += 0.4
    assert decoder.feed_key("enter") is None
    for key in ["1", "2", "x", "3", "4"]:
        decoder.feed_key(key)
    assert decoder.feed_key("enter") is None  # "x" broke it; "34" is too short


def test_keyboard_reader_from_evdev_stream(tmp_path: Path, events: queue.Queue[object]) -> None:
    fifo = tmp_path / "event-kbd"
    os.mkfifo(fifo)
    reader = KeyboardReader(events.put, str(fifo), retry_interval=0.02)
    reader.start()
    try:
        with open(fifo, "wb", buffering=0) as dev:
            codes = [11, 11, 2, 3, 4, 5, 6, 7, 8, 9, 28]  # "0012345678" Enter
            dev.write(b"".join(key_event(c) + key_event(c, 0) for c in codes))
            event = next_event(events)
            reader.close()  # while the writer is open, so the thread is not reopening the fifo
            assert not reader._worker.running
        assert isinstance(event, TagEvent) and event.tag == "0012345678"
        assert event.reader == f"keyboard:{fifo}"
    finally:
        reader.close()


def test_keyboard_reader_fed_by_the_screen(events: queue.Queue[object]) -> None:
    reader = KeyboardReader(events.put)
    assert not any(reader.feed_key(k) for k in "ABCDEF12")
    assert reader.feed_key("return")
    assert isinstance(next_event(events), TagEvent)
    for k in "ABCDEF12":
        reader.feed_key(k)
    reader.feed_key("return")  # the same card again at once: still lying there
    assert events.empty()


# -- fake reader and specs ------------------------------------------------------------


def test_fake_reader_socket_taps(tmp_path: Path, events: queue.Queue[object]) -> None:
    reader = FakeReader(events.put, tmp_path)
    reader.start()
    try:
        assert reader.listening.wait(TIMEOUT)
        assert fake.send_tap(tmp_path, "0a1b2c3d4e") == "ok"
        assert fake.send_tap(tmp_path, "not a tag!") == "error: not a tag"
        event = next_event(events)
        assert isinstance(event, TagEvent) and event.tag == "0A1B2C3D4E"
        assert events.empty()
    finally:
        thread = reader._thread
        reader.close()
    assert not (tmp_path / "tap.sock").exists()
    assert thread is not None and not thread.is_alive(), "close() ends the blocking accept"


def test_an_idle_fake_reader_sleeps_in_accept(tmp_path: Path) -> None:
    """No timeout on the socket: an idle reader wakes nothing (it woke 5 times a second)."""
    reader = FakeReader(lambda _e: None, tmp_path)
    reader.start()
    try:
        assert reader.listening.wait(TIMEOUT)
        assert reader._sock is not None and reader._sock.gettimeout() is None
    finally:
        reader.close()


def test_fake_reader_replaces_a_stale_socket(tmp_path: Path, events: queue.Queue[object]) -> None:
    import socket

    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(tmp_path / "tap.sock"))
    stale.close()  # the file stays, nobody listens
    reader = FakeReader(events.put, tmp_path)
    reader.start()
    try:
        assert reader.listening.wait(TIMEOUT)
        assert fake.send_tap(tmp_path, "ABCD") == "ok"
    finally:
        reader.close()


@pytest.mark.parametrize(
    "spec, kind",
    [
        ("rdm6300:/dev/serial0", Rdm6300Reader),
        ("pn532:/dev/ttyUSB0", Pn532Reader),
        ("keyboard", KeyboardReader),
        ("keyboard:/dev/input/event3", KeyboardReader),
        ("fake", FakeReader),
        ("none", NullReader),
    ],
)
def test_open_reader_by_spec(spec: str, kind: type, tmp_path: Path) -> None:
    reader = open_reader(spec, lambda e: None, data_dir=tmp_path)
    assert isinstance(reader, kind)


@pytest.mark.parametrize("spec", ["rdm6300", "pn532:", "mfrc522:/dev/spidev0.0"])
def test_bad_reader_specs_are_refused(spec: str) -> None:
    with pytest.raises(ReaderSpecError):
        open_reader(spec, lambda e: None)


def test_keyboard_module_maps_digits_and_enter() -> None:
    assert keyboard._KEYCODES[11] == "0" and keyboard._KEYCODES[28] == "enter"
