"""`companion tap` refuses what no reader could read and never writes to a plain file."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import tap_cmd


@pytest.mark.parametrize("tag", ["É", "0A1B2C3DÉ", "-x", "--", "٣٣٣"])
def test_only_ascii_tags(tag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert tap_cmd.main(["--data-dir", str(tmp_path), "--", tag]) == 2
    assert "is not a tag id" in capsys.readouterr().err


def test_a_serial_path_that_is_a_regular_file_is_left_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("keep me")
    assert tap_cmd.main(["0A1B2C3D4E", "--serial", str(target)]) == 2
    assert target.read_text() == "keep me"
    assert "not a serial device" in capsys.readouterr().err


def test_help_is_help_not_a_tag(capsys: pytest.CaptureFixture[str]) -> None:
    assert tap_cmd.main(["--help"]) == 0
    assert "usage: companion tap" in capsys.readouterr().out
