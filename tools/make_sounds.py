"""Synthesise the companion's eight sounds as 16-bit mono WAV files (stdlib only).

The sounds are made by the project, not downloaded: each is a few lines of additive synthesis
(sines, a soft square, seeded noise) with envelopes. Output is deterministic, so running
`python tools/make_sounds.py` again reproduces the committed files byte for byte;
`--check` says whether they are up to date and `--out DIR` writes elsewhere.
"""

from __future__ import annotations

import argparse
import array
import math
import random
import sys
import wave
from collections.abc import Callable, Iterable
from pathlib import Path

RATE = 22050
PEAK = 0.8  # normalised peak, -1.9 dBFS: loud enough, never clipping
FADE_S = 0.004  # fade in and out so no sound starts or ends with a click

Samples = list[float]


def silence(seconds: float) -> Samples:
    """A buffer of zeros."""
    return [0.0] * int(seconds * RATE)


def mix(into: Samples, sound: Samples, at: float, gain: float = 1.0) -> None:
    """Add `sound` into `into` starting `at` seconds, growing `into` if needed."""
    start = int(at * RATE)
    end = start + len(sound)
    if end > len(into):
        into.extend([0.0] * (end - len(into)))
    for i, value in enumerate(sound):
        into[start + i] += gain * value


def tone(
    freq: float | Callable[[float], float],
    seconds: float,
    decay: float = 0.0,
    partials: Iterable[tuple[float, float]] = ((1.0, 1.0),),
    attack: float = 0.005,
    release: float = 0.012,
) -> Samples:
    """A tone with harmonic `partials` (ratio, gain), exponential `decay` per second.

    `attack` and `release` ramp the start and the end linearly so notes never click.
    `freq` may be a function of time for glides and vibrato; phase is integrated so the
    pitch bends without clicks.
    """
    parts = list(partials)
    out: Samples = []
    phase = 0.0
    for i in range(int(seconds * RATE)):
        t = i / RATE
        ramp = min(1.0, t / attack if attack else 1.0, (seconds - t) / release)
        f = freq(t) if callable(freq) else freq
        phase += 2 * math.pi * f / RATE
        env = math.exp(-decay * t) * ramp
        out.append(env * sum(g * math.sin(r * phase) for r, g in parts))
    return out


def noise_burst(seconds: float, decay: float, seed: int, lowpass: float = 0.5) -> Samples:
    """Seeded white noise through a one-pole low-pass, decaying exponentially."""
    rng = random.Random(seed)
    out: Samples = []
    last = 0.0
    for i in range(int(seconds * RATE)):
        last += lowpass * (rng.uniform(-1.0, 1.0) - last)
        out.append(last * math.exp(-decay * i / RATE))
    return out


def dice() -> Samples:
    """Two dice rattling in a hand and tumbling on the board: ever softer clicks."""
    out = silence(0.5)
    hits = [(0.0, 1.0), (0.045, 0.7), (0.11, 0.9), (0.16, 0.5), (0.24, 0.6), (0.31, 0.35),
            (0.36, 0.25), (0.41, 0.15)]
    for n, (at, gain) in enumerate(hits):
        mix(out, noise_burst(0.03, 180.0, seed=10 + n, lowpass=0.7), at, gain)
        mix(out, tone(1900.0 + 170.0 * n, 0.025, decay=220.0), at, 0.35 * gain)
    return out


BELL = ((1.0, 1.0), (2.0, 0.45), (3.01, 0.2), (4.2, 0.12))


def cash_in() -> Samples:
    """A bright two-note till ring, rising: money arrives."""
    out = silence(0.55)
    mix(out, noise_burst(0.02, 250.0, seed=3), 0.0, 0.4)
    mix(out, tone(1318.5, 0.5, decay=7.0, partials=BELL), 0.0, 0.8)
    mix(out, tone(1760.0, 0.45, decay=6.0, partials=BELL), 0.08, 0.9)
    return out


def cash_out() -> Samples:
    """A soft two-note chime, falling: money leaves."""
    out = silence(0.45)
    mix(out, tone(880.0, 0.3, decay=9.0, partials=BELL[:2]), 0.0)
    mix(out, tone(659.3, 0.35, decay=8.0, partials=BELL[:2]), 0.1)
    return out


def pass_go() -> Samples:
    """A rising major arpeggio with the octave held: salary collected."""
    out = silence(0.9)
    notes = [523.25, 659.25, 783.99, 1046.5]
    for n, freq in enumerate(notes):
        length = 0.5 if n == len(notes) - 1 else 0.16
        mix(out, tone(freq, length, decay=4.0, partials=((1.0, 1.0), (2.0, 0.3))), 0.1 * n)
    return out


SQUARE = tuple((float(k), 1.0 / k) for k in (1, 3, 5, 7, 9))


def jail() -> Samples:
    """A low buzz under a cell door's metallic clang."""
    out = silence(0.8)
    mix(out, tone(110.0, 0.55, decay=3.0, partials=SQUARE), 0.0, 0.6)
    clang = ((1.0, 1.0), (2.76, 0.6), (5.4, 0.4), (8.93, 0.25))
    mix(out, tone(310.0, 0.75, decay=5.0, partials=clang, attack=0.001), 0.0, 0.7)
    mix(out, noise_burst(0.05, 90.0, seed=7), 0.0, 0.5)
    return out


def gavel() -> Samples:
    """Two wooden knocks of an auctioneer's gavel: sold."""
    out = silence(0.45)
    for at, gain in ((0.0, 0.8), (0.2, 1.0)):
        mix(out, tone(lambda t: 190.0 - 300.0 * t, 0.12, decay=35.0, attack=0.001), at, gain)
        mix(out, noise_burst(0.03, 160.0, seed=int(at * 100) + 1, lowpass=0.3), at, 0.6 * gain)
    return out


def bankrupt() -> Samples:
    """A descending sad trombone, the last note wobbling: a player is out."""
    out = silence(1.6)
    brass = ((1.0, 1.0), (2.0, 0.5), (3.0, 0.3), (4.0, 0.15))
    notes = [(392.0, 0.0, 0.3), (370.0, 0.3, 0.3), (349.2, 0.6, 0.3)]
    for freq, at, length in notes:
        mix(out, tone(freq, length, decay=2.0, partials=brass, attack=0.03), at, 0.8)

    def wobble(t: float) -> float:
        return 329.6 * (1.0 + 0.02 * math.sin(2 * math.pi * 6.0 * t))

    mix(out, tone(wobble, 0.7, decay=2.5, partials=brass, attack=0.03), 0.9, 0.8)
    return out


def refused() -> Samples:
    """Two short low buzzes: that action is not allowed."""
    out = silence(0.36)
    soft_square = tuple((k, g) for k, g in SQUARE[:3])
    for at in (0.0, 0.17):
        mix(out, tone(196.0, 0.13, decay=6.0, partials=soft_square, attack=0.003), at)
    return out


SOUNDS: dict[str, Callable[[], Samples]] = {
    "dice": dice,
    "cash_in": cash_in,
    "cash_out": cash_out,
    "pass_go": pass_go,
    "jail": jail,
    "gavel": gavel,
    "bankrupt": bankrupt,
    "refused": refused,
}


def finish(samples: Samples) -> bytes:
    """Fade the ends, normalise to PEAK and quantise to little-endian 16-bit PCM."""
    fade = int(FADE_S * RATE)
    n = len(samples)
    for i in range(min(fade, n)):
        samples[i] *= i / fade
        samples[n - 1 - i] *= i / fade
    top = max(abs(v) for v in samples) or 1.0
    scale = PEAK * 32767 / top
    pcm = array.array("h", (round(v * scale) for v in samples))
    if sys.byteorder == "big":
        pcm.byteswap()
    return pcm.tobytes()


def wav_bytes(name: str) -> bytes:
    """The complete WAV file for one named sound."""
    import io

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(finish(SOUNDS[name]()))
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> int:
    """Write every sound to DIR (default: beside this script); --check only compares."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "sounds")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    args = parser.parse_args(argv)
    stale = []
    for name in SOUNDS:
        path = args.out / f"{name}.wav"
        data = wav_bytes(name)
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(path.name)
        else:
            path.write_bytes(data)
    if stale:
        print("stale sounds: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
