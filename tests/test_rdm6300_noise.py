"""RDM6300's 8-bit checksum lets 1 random frame in 256 through: a tag counts only when its
frame comes twice in a row (issue: faults and bad input)."""

from __future__ import annotations

import random

import pytest

from companion.config import ConfigError, load_config
from hardware.readers.rdm6300 import ETX, STX, Rdm6300Parser, encode_frame


def frame_shaped_noise(size: int, seed: int = 7) -> bytes:
    """Frames of random hex with random checksums, as a noisy line gives."""
    rng = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        body = "".join(rng.choice("0123456789ABCDEF") for _ in range(12)).encode()
        out += bytes([STX]) + body + bytes([ETX])
        if rng.random() < 0.1:
            out += bytes(rng.randrange(256) for _ in range(rng.randrange(4)))
    return bytes(out[:size])


def test_a_megabyte_of_frame_shaped_noise_gives_no_tap() -> None:
    noise = frame_shaped_noise(1_000_000)
    lenient = Rdm6300Parser(confirm=1)
    assert len(lenient.feed(noise)) > 100  # what the old reader took for taps
    parser = Rdm6300Parser()
    assert parser.feed(noise) == []
    assert parser.bad_frames > 50_000


def test_a_card_on_the_reader_counts_from_its_second_frame() -> None:
    parser = Rdm6300Parser()
    frame = encode_frame("0A1B2C3D4E")
    assert parser.feed(frame) == []
    assert parser.feed(frame) == ["0A1B2C3D4E"]
    assert parser.feed(frame[:5]) == [] and parser.feed(frame[5:]) == ["0A1B2C3D4E"]


def test_another_tag_or_a_bad_frame_between_starts_the_count_again() -> None:
    a, b = encode_frame("0A1B2C3D4E"), encode_frame("0011223344")
    assert Rdm6300Parser().feed(a + b + a) == []
    bad = bytes([STX]) + b"ZZZZZZZZZZZZ" + bytes([ETX])
    parser = Rdm6300Parser()
    assert parser.feed(a + bad + a) == []
    assert parser.feed(a) == ["0A1B2C3D4E"]


def test_the_count_is_configurable(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "config.toml"
    path.write_text("[readers]\nrdm6300_confirm = 3\n")
    assert load_config(path).readers.rdm6300_confirm == 3
    path.write_text("[readers]\nrdm6300_confirm = 0\n")
    with pytest.raises(ConfigError, match="rdm6300_confirm"):
        load_config(path)
    parser = Rdm6300Parser(confirm=3)
    frame = encode_frame("0A1B2C3D4E")
    assert parser.feed(frame * 2) == [] and parser.feed(frame) == ["0A1B2C3D4E"]
