"""The RDM6300 125 kHz reader: UART 9600 8N1, frames of STX, 10 hex chars, 2 hex chars of
checksum, ETX. The checksum is the XOR of the five bytes the ten hex chars spell.

The module repeats the frame while a card lies on it; the shared TapDeduper makes that one
tap. Noise between frames, split frames and bad checksums are dropped and counted. The
checksum is only 8 bits (1 random frame in 256 passes it), so a tag counts only once the
same frame arrived `confirm` times in a row (2 by default, `[readers] rdm6300_confirm`):
a card on the reader repeats its frame within a tenth of a second, line noise never does.
"""

from __future__ import annotations

import time
from functools import reduce
from typing import Any

from hardware.readers.base import SerialReader

STX, ETX = 0x02, 0x03
_BODY = 12  # 10 data chars + 2 checksum chars
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def encode_frame(tag: str) -> bytes:
    """The frame an RDM6300 sends for a 10-hex-char tag (for fakes, tests and benches).

    >>> encode_frame("0A00B1C2D3")
    b'\\x020A00B1C2D3AA\\x03'
    """
    data = bytes.fromhex(tag)
    if len(data) != 5:
        raise ValueError("an RDM6300 tag is 10 hex characters")
    checksum = reduce(lambda a, b: a ^ b, data)
    return bytes([STX]) + tag.upper().encode() + f"{checksum:02X}".encode() + bytes([ETX])


class Rdm6300Parser:
    """Splits a byte stream into valid tags; keeps partial frames across feeds. A tag is
    given once its frame came `confirm` times in a row, and for every repeat after that."""

    def __init__(self, confirm: int = 2) -> None:
        if confirm < 1:
            raise ValueError("confirm must be at least 1")
        self._body: bytearray | None = None
        self.bad_frames = 0
        self.confirm = confirm
        self._last: str | None = None
        self._streak = 0

    def feed(self, data: bytes) -> list[str]:
        """Tags completed by `data`, in order (10 uppercase hex characters each)."""
        tags: list[str] = []
        for byte in data:
            if byte == STX:
                if self._body:
                    self.bad_frames += 1  # a frame cut short by a new one
                    self._streak = 0
                self._body = bytearray()
            elif self._body is None:
                continue  # noise between frames
            elif len(self._body) < _BODY:
                self._body.append(byte)
            else:
                body, self._body = bytes(self._body), None
                tag = self._check(body) if byte == ETX else None
                if tag is None:
                    self.bad_frames += 1
                    self._streak = 0
                    continue
                self._streak = self._streak + 1 if tag == self._last else 1
                self._last = tag
                if self._streak >= self.confirm:
                    tags.append(tag)
        return tags

    @staticmethod
    def _check(body: bytes) -> str | None:
        if not all(b in _HEX for b in body):
            return None
        data = bytes.fromhex(body[:10].decode())
        if reduce(lambda a, b: a ^ b, data) != int(body[10:].decode(), 16):
            return None
        return body[:10].decode().upper()


class Rdm6300Reader(SerialReader):
    """An RDM6300 on a serial port (`rdm6300:/dev/serial0`)."""

    baudrate = 9600
    kind = "rdm6300"
    #: frames of one tag in a row before it counts (set from `[readers] rdm6300_confirm`)
    confirm = 2

    def session(self, port: Any) -> None:
        """Read frames until stopping; the module only talks, so any open port is ok."""
        parser = Rdm6300Parser(self.confirm)
        self.connected_ok()
        while not self.stopping:
            data = port.read(max(1, port.in_waiting))
            read_at = time.perf_counter()
            if not data:
                continue
            for tag in parser.feed(data):
                self.tag_read(tag, read_at)
            self.bad_frames = parser.bad_frames
            self._received(data)
