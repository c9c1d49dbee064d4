"""The PN532 13.56 MHz reader in HSU (UART) mode at 115200 baud.

Host frames: 00 00 FF LEN LCS D4 CMD params DCS 00, with LEN + LCS = 0 and the sum of
D4, CMD, params and DCS = 0 (mod 256). The PN532 answers an ACK (00 00 FF 00 FF 00), then
a frame with D5 and CMD + 1. We wake it (0x55 then zeros), configure the SAM (normal mode),
limit passive-activation retries so polls return at once, and poll InListPassiveTarget
(one ISO 14443-A target); the tag is the UID in uppercase hex.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from hardware.readers.base import ReaderSilent, SerialReader

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
WAKEUP = b"\x55\x55" + b"\x00" * 14
HOST_TO_PN532, PN532_TO_HOST = 0xD4, 0xD5

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A


def build_frame(command: int, params: bytes = b"", tfi: int = HOST_TO_PN532) -> bytes:
    """A normal information frame.

    >>> build_frame(SAM_CONFIGURATION, bytes([1, 0x14, 1])).hex(" ")
    '00 00 ff 05 fb d4 14 01 14 01 02 00'
    >>> build_frame(GET_FIRMWARE_VERSION).hex(" ")
    '00 00 ff 02 fe d4 02 2a 00'
    """
    data = bytes([tfi, command]) + params
    if len(data) > 254:
        raise ValueError("frame too long for a normal frame")
    return (
        b"\x00\x00\xff"
        + bytes([len(data), (-len(data)) & 0xFF])
        + data
        + bytes([(-sum(data)) & 0xFF, 0x00])
    )


@dataclass(frozen=True)
class Frame:
    """One frame from the stream: kind is ack, nack, error or data (tfi + payload)."""

    kind: str
    tfi: int = 0
    payload: bytes = b""


class Pn532FrameParser:
    """Splits a byte stream into frames, resynchronising after noise and bad checksums."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.bad_frames = 0

    def feed(self, data: bytes) -> list[Frame]:
        """Frames completed by `data`, in order."""
        self._buf += data
        out: list[Frame] = []
        buf = self._buf
        while True:
            start = buf.find(b"\x00\xff")
            if start < 0:
                del buf[: max(0, len(buf) - 1)]  # keep a trailing 00: it may start a frame
                return out
            del buf[:start]
            if len(buf) < 4:
                return out
            length, lcs = buf[2], buf[3]
            if length == 0 and lcs == 0xFF:
                out.append(Frame("ack"))
                del buf[:4]
                continue
            if length == 0xFF and lcs == 0x00:
                out.append(Frame("nack"))
                del buf[:4]
                continue
            if (length + lcs) & 0xFF or length < 1:
                self.bad_frames += 1
                del buf[:2]
                continue
            if len(buf) < 5 + length:
                return out
            body = bytes(buf[4 : 4 + length])
            if (sum(body) + buf[4 + length]) & 0xFF:
                self.bad_frames += 1
                del buf[:2]
                continue
            del buf[: 5 + length]
            if length == 1 and body[0] == 0x7F:
                out.append(Frame("error"))
            else:
                out.append(Frame("data", body[0], body[1:]))


def parse_target(payload: bytes) -> str | None:
    """The UID (uppercase hex) from an InListPassiveTarget answer, None if no card.

    payload: after D5 4B: NbTg, Tg, SENS_RES (2), SEL_RES, UID length, UID.
    >>> parse_target(bytes([1, 1, 0, 4, 8, 4, 0xDE, 0xAD, 0xBE, 0xEF]))
    'DEADBEEF'
    >>> parse_target(bytes([0])) is None
    True
    """
    if len(payload) < 6 or payload[0] < 1:
        return None
    uid_len = payload[5]
    uid = payload[6 : 6 + uid_len]
    if uid_len == 0 or len(uid) != uid_len:
        return None
    return uid.hex().upper()


class Pn532Reader(SerialReader):
    """A PN532 in HSU mode (`pn532:/dev/serial0` or `pn532:/dev/ttyUSB0`)."""

    baudrate = 115200
    kind = "pn532"
    poll_interval = 0.1
    answer_timeout = 0.5
    max_silent_polls = 3

    def session(self, port: Any) -> None:
        """Wake and configure the PN532, then poll for cards until stopping."""
        self._parser = Pn532FrameParser()
        port.write(WAKEUP)
        if self._command(port, SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01])) is None:
            raise ReaderSilent("no answer to SAMConfiguration")
        # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation: poll twice, then answer "no card".
        self._command(port, RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, 0x02]))
        self.connected_ok()
        silent = 0
        while not self.stopping:
            answer = self._command(port, IN_LIST_PASSIVE_TARGET, bytes([0x01, 0x00]))
            if answer is None:
                silent += 1
                if silent >= self.max_silent_polls:
                    raise ReaderSilent("no answer to InListPassiveTarget")
                port.write(WAKEUP)
                continue
            silent = 0
            payload, read_at = answer
            tag = parse_target(payload)
            if tag is not None:
                self.tag_read(tag, read_at)
            self._stop.wait(self.poll_interval)

    def _command(self, port: Any, command: int, params: bytes) -> tuple[bytes, float] | None:
        """Send a command; its answer's payload and read time, or None on timeout."""
        port.write(build_frame(command, params))
        deadline = time.monotonic() + self.answer_timeout
        while time.monotonic() < deadline and not self.stopping:
            data = port.read(max(1, port.in_waiting))
            read_at = time.perf_counter()
            if not data:
                continue
            frames = self._parser.feed(data)
            self.bad_frames = self._parser.bad_frames
            self._received(data)
            for frame in frames:
                if frame.kind == "nack":
                    port.write(build_frame(command, params))  # the PN532 asks us to resend
                elif frame.kind == "data" and frame.tfi == PN532_TO_HOST and frame.payload:
                    if frame.payload[0] == command + 1:
                        return frame.payload[1:], read_at
        return None
