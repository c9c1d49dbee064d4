"""The net-worth chart's file (web_remote/worth.py): appended to, one line per move, and
read back whatever a power cut or a full card left of it (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import paths
from companion.game.api import Standing
from web_remote import store, worth
from web_remote.store import Persister
from web_remote.worth import WorthRecorder, read_series

NAMES = ["Ann", "Bo", "Cy"]


def standing(version: int, names: list[str] = NAMES) -> Standing:
    """What the session's writer tells the recorder: players' worth, version and turn."""
    return Standing(version, version // 3, tuple(names),
                    tuple(1500 + 10 * version + i for i in range(len(names))))


def recorded(path: Path, versions: range, names: list[str] = NAMES) -> None:
    """Record the states of `versions` with a recorder of its own, written out."""
    persister = Persister()
    recorder = WorthRecorder(path, persister)
    for v in versions:
        recorder.record(standing(v, names))
    assert persister.flush()
    persister.stop()


def reopened(path: Path) -> tuple[list[str], list[dict[str, Any]]]:
    """What a restarted remote reads of the chart."""
    persister = Persister()
    try:
        return WorthRecorder(path, persister).series()
    finally:
        persister.stop()


def test_a_restart_reads_every_sample_back(tmp_path: Path) -> None:
    path = tmp_path / "networth.jsonl"
    recorded(path, range(1, 41))
    players, samples = reopened(path)
    assert players == NAMES
    assert [s["v"] for s in samples] == list(range(1, 41))
    assert samples[-1]["w"] == [1900, 1901, 1902]


def test_a_move_appends_one_line_and_never_rewrites_the_file(tmp_path: Path) -> None:
    """The file's earlier bytes stay as they were (appended, not replaced: same inode),
    and each sample adds the same few bytes at move 10 as at move 1 000."""
    path = tmp_path / "networth.jsonl"
    persister = Persister()
    recorder = WorthRecorder(path, persister)
    recorder.record(standing(1))
    assert persister.flush()
    inode, sizes = path.stat().st_ino, []
    for v in range(2, 1001):
        before = path.stat().st_size
        recorder.record(standing(v))
        assert persister.flush()
        sizes.append(path.stat().st_size - before)
    persister.stop()
    assert path.stat().st_ino == inode
    assert max(sizes) < 80 and max(sizes) - min(sizes) <= 8  # the digits of the numbers


def test_a_line_torn_by_a_power_cut_is_skipped_and_the_next_starts_afresh(
        tmp_path: Path) -> None:
    path = tmp_path / "networth.jsonl"
    recorded(path, range(1, 11))
    raw = path.read_bytes()
    path.write_bytes(raw[:-9])  # the last sample half written
    players, samples = reopened(path)
    assert players == NAMES and [s["v"] for s in samples] == list(range(1, 10))
    recorded(path, range(11, 13))  # the table goes on after the restart
    assert [s["v"] for s in reopened(path)[1]] == [*range(1, 10), 11, 12]


@pytest.mark.parametrize("junk", [b"", b"\x00" * 64, b"{\"players\": [1, 2]}\n",
                                  b"not json at all\n{\"v\": 1}\n", b"[]\n"])
def test_a_damaged_file_never_breaks_the_start(tmp_path: Path, junk: bytes) -> None:
    path = tmp_path / "networth.jsonl"
    path.write_bytes(junk)
    assert reopened(path) == ([], [])
    recorded(path, range(1, 4))
    assert [s["v"] for s in reopened(path)[1]] == [1, 2, 3]


def test_lines_of_other_players_or_written_twice_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "networth.jsonl"
    lines = [{"players": NAMES}, {"v": 1, "w": [1, 2, 3]}, {"v": 2, "w": [1, 2]},
             {"v": 3, "w": [1, 2, "x"]}, {"v": 4, "w": [4, 5, 6]}, {"v": 4, "w": [4, 5, 6]}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert [s["v"] for s in read_series(path)[1]] == [1, 4]


def test_a_new_game_starts_a_new_file(tmp_path: Path) -> None:
    path = tmp_path / "networth.jsonl"
    recorded(path, range(1, 30))
    recorded(path, range(1, 3), ["Di", "Ed"])
    players, samples = reopened(path)
    assert players == ["Di", "Ed"] and [s["v"] for s in samples] == [1, 2]
    assert len(path.read_bytes().splitlines()) == 3


def test_the_file_stays_bounded_past_the_samples_kept(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worth, "MAX_SAMPLES", 50)
    path = tmp_path / "networth.jsonl"
    recorded(path, range(1, 400))
    assert len(path.read_bytes().splitlines()) <= 2 * 50 + 1
    assert [s["v"] for s in reopened(path)[1]] == list(range(350, 400))


def test_the_older_single_file_is_read_once(tmp_path: Path) -> None:
    legacy = tmp_path / worth.LEGACY_NAME
    legacy.write_text(json.dumps({"players": NAMES, "samples": [
        {"v": 1, "t": 0, "n": 1, "w": [1, 2, 3]}, {"v": 2, "t": 0, "n": 1, "w": [4, 5, 6]}]}))
    path = tmp_path / "networth.jsonl"
    recorded(path, range(3, 5))
    assert [s["v"] for s in reopened(path)[1]] == [1, 2, 3, 4]


def test_a_full_card_loses_no_sample_once_it_has_room_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An append that fails half written (ENOSPC) leaves a torn line; the samples are
    written again on a fresh line with the next one, and read back once each."""
    path = tmp_path / "networth.jsonl"
    real = paths.append_bytes
    full = {"on": False}

    def append(target: Path, data: bytes, sync: bool = True) -> None:
        if full["on"]:
            real(target, data[: len(data) // 2], sync)
            raise OSError(28, "No space left on device")
        real(target, data, sync)

    monkeypatch.setattr(store, "append_bytes", append)
    persister = Persister()
    recorder = WorthRecorder(path, persister)
    recorder.record(standing(1))
    assert persister.flush()
    full["on"] = True
    recorder.record(standing(2))
    assert persister.flush()
    full["on"] = False
    recorder.record(standing(3))
    assert persister.flush()
    persister.stop()
    assert [s["v"] for s in reopened(path)[1]] == [1, 2, 3]
