"""`companion bench` part "speech": what the table's voice costs on the real path.

A real journaled session (companion.game.session) with the announcer listening
(companion.speech.announcer) and espeak-ng writing each sentence to a WAV file (the
voice's sink: synthesis without a sound card; playing adds only the device's time, not
the engine's CPU). Per rent payment: the writer's commit with and without the announcer
listening, the latency from the commit's answer to the sentence synthesized, and the
engine child's CPU per sentence and per second of speech (getrusage of the children).
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
import wave
from pathlib import Path
from typing import Any

from companion.game.api import Source
from companion.game.session import GameSession
from companion.speech.announcer import Announcer
from companion.speech.voice import Voice, engine_path
from tools.bench.journal import percentile

SAMPLES = 20
TABLE = Source(kind="script", banker=True)


def _game(data_dir: Path) -> GameSession:
    session = GameSession.open(data_dir)
    session.submit({"do": "new_game", "edition": "sv", "players": ["Anna", "Bram"],
                    "seed": 3}, TABLE)
    return session


def _commits(session: GameSession, samples: int) -> list[float]:
    """ms per payment committed (each one sentence: "Anna betalar Bram 7 kronor")."""
    out = []
    for amount in range(1, samples + 1):
        start = time.perf_counter()
        outcome = session.submit({"do": "pay", "from": "Anna", "to": "Bram",
                                  "amount": amount}, TABLE)
        out.append((time.perf_counter() - start) * 1000)
        assert outcome.accepted, outcome
    return out


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_bench(samples: int = SAMPLES) -> dict[str, Any]:
    """speech.* figures; speech.skipped without espeak-ng."""
    if engine_path() is None:
        return {"speech.skipped": "espeak-ng is not installed"}
    with tempfile.TemporaryDirectory(prefix="companion-speech-") as tmp:
        bare = _game(Path(tmp, "bare"))
        try:
            bare_ms = _commits(bare, samples)
        finally:
            bare.close()
        session = _game(Path(tmp, "spoken"))
        voice = Voice(sink=Path(tmp, "heard"))
        announcer = Announcer(session, voice, Path(tmp, "spoken"), language=lambda: "sv")
        latency: list[float] = []
        commit_ms: list[float] = []
        cpu_before = _children_cpu_s()
        try:
            for amount in range(1, samples + 1):
                start = time.perf_counter()
                outcome = session.submit({"do": "pay", "from": "Anna", "to": "Bram",
                                          "amount": amount}, TABLE)
                answered = time.perf_counter()
                commit_ms.append((answered - start) * 1000)
                assert outcome.accepted, outcome
                if not voice.wait_said(amount, 30.0):
                    raise RuntimeError("the voice said nothing within 30 s")
                latency.append((time.perf_counter() - answered) * 1000)
        finally:
            announcer.close()
            session.close()
        cpu_s = _children_cpu_s() - cpu_before
        audio_s = 0.0
        for said in voice.heard:
            if said.wav is not None:
                with wave.open(str(said.wav), "rb") as wav:
                    audio_s += wav.getnframes() / wav.getframerate()
    sentences = len(voice.heard)
    return {
        "speech.sentences": float(sentences),
        "speech.commit_ms_p50": round(statistics.median(commit_ms), 3),
        "speech.commit_bare_ms_p50": round(statistics.median(bare_ms), 3),
        "speech.commit_ms_p99": round(percentile(commit_ms, 0.99), 3),
        "speech.commit_bare_ms_p99": round(percentile(bare_ms, 0.99), 3),
        "speech.sentence_latency_ms_p50": round(statistics.median(latency), 1),
        "speech.sentence_latency_ms_max": round(max(latency), 1),
        "speech.child_cpu_ms_per_sentence": round(cpu_s * 1000 / max(1, sentences), 1),
        "speech.audio_s_per_sentence": round(audio_s / max(1, sentences), 2),
        "speech.child_cpu_per_audio_s": round(cpu_s / audio_s, 3) if audio_s else 0.0,
    }
