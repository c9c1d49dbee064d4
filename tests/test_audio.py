"""The generated sounds (shape, determinism) and the sound player with and without audio."""

from __future__ import annotations

import array
import importlib.util
import os
import sys
import wave
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from companion.screen import audio

SOUNDS_DIR = Path(__file__).resolve().parent.parent / "sounds"


@pytest.fixture()
def dummy_audio() -> Iterator[None]:
    """SDL's dummy audio driver for the test; the environment and the mixer restored after."""
    saved = os.environ.get("SDL_AUDIODRIVER")
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    yield
    import pygame.mixer

    if pygame.mixer.get_init():
        pygame.mixer.quit()
    if saved is None:
        del os.environ["SDL_AUDIODRIVER"]
    else:
        os.environ["SDL_AUDIODRIVER"] = saved


def load_generator() -> ModuleType:
    """tools/make_sounds.py is a script, not a package module: load it by path."""
    generator = SOUNDS_DIR.parent / "tools" / "make_sounds.py"
    spec = importlib.util.spec_from_file_location("sounds_generate", generator)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_samples(name: str) -> tuple[wave._wave_params, array.array[int]]:
    with wave.open(str(SOUNDS_DIR / f"{name}.wav"), "rb") as wav:
        params = wav.getparams()
        samples = array.array("h", wav.readframes(wav.getnframes()))
    return params, samples


@pytest.mark.parametrize("name", audio.SOUND_NAMES)
def test_committed_sound_is_what_the_generator_makes(name: str) -> None:
    generator = load_generator()
    assert (SOUNDS_DIR / f"{name}.wav").read_bytes() == generator.wav_bytes(name)


def test_generator_is_deterministic(tmp_path: Path) -> None:
    generator = load_generator()
    assert generator.main(["--out", str(tmp_path)]) == 0
    assert generator.main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "dice.wav").write_bytes(b"not a wav")
    assert generator.main(["--out", str(tmp_path), "--check"]) == 1


@pytest.mark.parametrize("name", audio.SOUND_NAMES)
def test_waveform_is_short_loud_unclipped_and_click_free(name: str) -> None:
    params, samples = read_samples(name)
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, 22050)
    duration = params.nframes / params.framerate
    assert 0.2 <= duration <= 2.0
    peak = max(abs(s) for s in samples) / 32767
    assert 0.5 <= peak <= 0.9, "normalised below full scale"
    assert sum(1 for s in samples if abs(s) >= 32766) == 0, "no clipped samples"
    rms = (sum(s * s for s in samples) / len(samples)) ** 0.5 / 32767
    assert rms > 0.03, "audible, not silence"
    assert abs(samples[0]) < 200 and abs(samples[-1]) < 200, "fades in and out"


def test_sounds_are_all_different() -> None:
    contents = {read_samples(name)[1].tobytes() for name in audio.SOUND_NAMES}
    assert len(contents) == len(audio.SOUND_NAMES)


@pytest.mark.parametrize(
    ("event", "sound"),
    [
        ({"kind": "rolled", "dice": [3, 4]}, "dice"),
        ({"kind": "transfer", "from": "bank", "to": "Ann", "amount": 200, "reason": "salary"},
         "pass_go"),
        ({"kind": "transfer", "from": "Bo", "to": "Ann", "amount": 20, "reason": "rent"},
         "cash_in"),
        ({"kind": "transfer", "from": "Ann", "to": "bank", "amount": 200, "reason": "buy"},
         "cash_out"),
        ({"kind": "jailed", "player": "Ann"}, "jail"),
        ({"kind": "auction_won", "player": "Bo", "square": 5, "amount": 120}, "gavel"),
        ({"kind": "bankrupt", "player": "Cy", "creditor": None}, "bankrupt"),
        ({"kind": "rejected", "code": "insufficient_funds"}, "refused"),
        ({"kind": "moved", "player": "Ann", "to": 7}, None),
    ],
)
def test_event_sounds(event: dict[str, object], sound: str | None) -> None:
    assert audio.sound_for_event(event) == sound


def test_one_command_plays_dice_and_the_most_telling_sound() -> None:
    events = [
        {"kind": "rolled"},
        {"kind": "transfer", "from": "bank", "to": "Ann", "reason": "salary"},
        {"kind": "transfer", "from": "Ann", "to": "Bo", "reason": "rent"},
    ]
    assert audio.sounds_for(events) == ["dice", "pass_go"]
    assert audio.sounds_for([{"kind": "moved"}]) == []


def test_player_plays_with_the_dummy_driver(dummy_audio: None) -> None:
    player = audio.SoundPlayer(volume=0.5)
    try:
        assert player.available
        assert player.play("dice")
        assert player.play_events([{"kind": "bankrupt"}]) == ["bankrupt"]
        assert not player.play("no-such-sound")
        player.set_muted(True)
        assert not player.play("dice")
        player.set_muted(False)
        player.set_volume(0.0)
        assert not player.play("dice")
        player.set_volume(7.0)
        assert player.volume == 1.0
    finally:
        player.close()


def test_player_is_silent_when_the_mixer_cannot_start(
    dummy_audio: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pygame
    import pygame.mixer

    def no_device(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    player = audio.SoundPlayer()
    assert not player.available
    assert not player.play("dice")
    assert player.play_events([{"kind": "rolled"}, {"kind": "bankrupt"}]) == []
    player.close()


def test_player_is_silent_without_sound_files(dummy_audio: None, tmp_path: Path) -> None:
    player = audio.SoundPlayer(sounds_dir=tmp_path)
    assert not player.available
    assert not player.play("dice")
    player.close()


def test_no_sound_device_means_silence_without_trying(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """A machine without /dev/snd (a server, a container) stays silent without SDL filling
    the log with ALSA errors; a driver named in SDL_AUDIODRIVER is always tried."""
    monkeypatch.delenv("SDL_AUDIODRIVER", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert audio.no_sound_device(tmp_path / "snd")
    (tmp_path / "snd").mkdir()
    assert not audio.no_sound_device(tmp_path / "snd")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    assert not audio.no_sound_device(tmp_path / "none")
    monkeypatch.delenv("SDL_AUDIODRIVER")
    monkeypatch.setattr(audio, "no_sound_device", lambda: True)
    player = audio.SoundPlayer()
    assert not player.available and player.play("roll") is False


def test_the_audio_device_is_open_only_around_sounds(dummy_audio: None) -> None:
    """An open SDL audio device wakes its thread ~50 times a second even in silence: the
    player opens it for a sound and closes it after some silence, then opens it again."""
    import pygame.mixer

    player = audio.SoundPlayer(idle_close_s=0.1)
    try:
        assert player.available and not pygame.mixer.get_init(), "closed until a sound"
        assert player.play("dice")
        player.settle()
        assert player.device_open.is_set()
        assert player.device_closed.wait(60), "closed again after the silence"
        assert not pygame.mixer.get_init()
        assert player.play("gavel")
        player.settle()
        assert player.device_open.is_set(), "open again for the next sound"
    finally:
        player.close()
    assert not pygame.mixer.get_init()
