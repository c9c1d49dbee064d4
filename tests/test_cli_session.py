"""The session's command line: replay --data-dir, state, undo, games, export and import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.app import export_cmd, games_cmd, replay, state_cmd, undo_cmd
from companion.paths import default_data_dir
from tools.bench.journal import bot_script

ROOT = Path(__file__).resolve().parent.parent


def write_script(path: Path, commands: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(c) + "\n" for c in commands), "utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], main: Any, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def script(tmp_path: Path) -> Path:
    commands = bot_script(seed=9, count=120)
    commands.insert(7, {"do": "fly"})
    return write_script(tmp_path / "game.jsonl", commands)


def test_replay_data_dir_prints_one_line_per_script_line(tmp_path: Path, script: Path) -> None:
    text = script.read_text("utf-8") + "\n\n"  # blank lines are no script lines
    script.write_text(text, "utf-8")
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(script),
                           "--data-dir", str(tmp_path / "d")], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0 and done.stderr == ""
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    assert [x["line"] for x in lines] == list(range(1, 122))
    assert lines[7] == {"line": 8, "ok": False, "code": "bad_command",
                        "message": "unknown command 'fly'"}
    accepted = [x for x in lines if x["ok"]]
    assert [x["version"] for x in accepted] == list(range(1, 121))


def test_state_json_equals_the_in_memory_replay(tmp_path: Path, script: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d"
    assert run(capsys, replay.main, [str(script), "--data-dir", str(data)])[0] == 0
    code, out, _ = run(capsys, replay.main, [str(script), "--json"])
    in_memory = json.loads(out)
    del in_memory["rejected"]
    code, out, err = run(capsys, state_cmd.main, ["--data-dir", str(data), "--json"])
    assert code == 0 and err == ""
    assert json.loads(out) == in_memory
    code, out, _ = run(capsys, state_cmd.main, ["--data-dir", str(data)])
    assert code == 0 and "P1" in out


def test_undo_and_redo_from_the_keyboard(tmp_path: Path, script: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d"
    run(capsys, replay.main, [str(script), "--data-dir", str(data)])
    code, out, _ = run(capsys, undo_cmd.main, ["--data-dir", str(data)])
    assert code == 0 and out.startswith("undone: ") and "version 121" in out
    code, out, _ = run(capsys, undo_cmd.main, ["--data-dir", str(data), "--redo"])
    assert code == 0 and out.startswith("redone: ")
    code, _, err = run(capsys, undo_cmd.main, ["--data-dir", str(data), "--redo"])
    assert code == 1 and "nothing to redo" in err


def test_export_then_import_gives_the_same_table(tmp_path: Path, script: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d"
    run(capsys, replay.main, [str(script), "--data-dir", str(data)])
    run(capsys, undo_cmd.main, ["--data-dir", str(data)])
    run(capsys, undo_cmd.main, ["--data-dir", str(data)])
    code, exported, _ = run(capsys, export_cmd.main, ["--data-dir", str(data)])
    assert code == 0 and len(exported.splitlines()) == 118  # 120 commands, 2 undone
    assert all('"dice"' in x for x in exported.splitlines() if '"do": "roll"' in x)
    _, original, _ = run(capsys, state_cmd.main, ["--data-dir", str(data), "--json"])
    exported_file = write_script(tmp_path / "export.jsonl",
                                 [json.loads(x) for x in exported.splitlines()])
    code, out, err = run(capsys, games_cmd.main, ["--data-dir", str(data), "--import",
                                                  str(exported_file), "--id", "copy"])
    assert code == 0 and out.strip() == "copy" and err == ""
    _, copied, _ = run(capsys, state_cmd.main, ["--data-dir", str(data), "--json", "--game",
                                                "copy"])
    a, b = json.loads(original), json.loads(copied)
    assert a.pop("version") > b.pop("version")  # the undos bumped the original's version
    assert a == b
    # the export keeps who sent each command
    assert json.loads(exported.splitlines()[0])["source"]["kind"] == "script"


def test_games_list_resume_new_delete(tmp_path: Path, script: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d"
    assert run(capsys, games_cmd.main, ["--data-dir", str(data)])[1].startswith("no saved")
    run(capsys, replay.main, [str(script), "--data-dir", str(data)])
    code, new_id, _ = run(capsys, games_cmd.main, ["--data-dir", str(data), "--new",
                                                   "--id", "second"])
    assert code == 0 and new_id.strip() == "second"
    code, out, _ = run(capsys, games_cmd.main, ["--data-dir", str(data), "--json"])
    items = json.loads(out)
    assert [i["id"] for i in items if i["current"]] == ["second"]
    first = next(i for i in items if i["id"] != "second")
    assert first["players"] == ["P1", "P2", "P3", "P4"] and first["version"] == 120
    assert run(capsys, games_cmd.main, ["--data-dir", str(data), "--resume",
                                        first["id"]])[0] == 0
    code, out, _ = run(capsys, state_cmd.main, ["--data-dir", str(data), "--json"])
    assert json.loads(out)["version"] == 120
    assert run(capsys, games_cmd.main, ["--data-dir", str(data), "--delete", "second"])[0] == 0
    code, _, err = run(capsys, games_cmd.main, ["--data-dir", str(data), "--delete", "second"])
    assert code == 1 and "no saved game" in err
    _, out, _ = run(capsys, games_cmd.main, ["--data-dir", str(data)])
    assert out.startswith("* ") and len(out.splitlines()) == 1


def test_state_without_a_game_says_so(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, state_cmd.main, ["--data-dir", str(tmp_path), "--json"])
    assert code == 1 and out == "" and "no saved game" in err


def test_default_data_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("COMPANION_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "table-companion"
    code, out, _ = run(capsys, games_cmd.main, ["--new", "--id", "x"])
    assert code == 0 and (tmp_path / "table-companion" / "games" / "x.journal").exists()


#: every subcommand taking --data-dir, with what else it needs to reach the data directory
DATA_DIR_COMMANDS: dict[str, list[str]] = {
    "undo": [], "state": [], "games": [], "export": [], "backup": [],
    "restore": ["backup.tar.gz"], "replay": ["SCRIPT"], "screenshot": ["--out", "shot.png"],
    "tap": ["04a1b2c3d4"], "run": [],
}


@pytest.mark.parametrize("name", sorted(DATA_DIR_COMMANDS))
def test_a_data_dir_naming_a_file_is_one_line_for_every_subcommand(
        name: str, tmp_path: Path, script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--data-dir FILE` says so in one line (as `companion run` does), not as a raw errno
    message from deep inside the command, and leaves the file alone."""
    from companion.app import cli

    afile = tmp_path / "notes.txt"
    afile.write_text("not a directory\n")
    extra = [str(script) if a == "SCRIPT" else a for a in DATA_DIR_COMMANDS[name]]
    code = cli.main([name, "--data-dir", str(afile), *extra])
    out, err = capsys.readouterr()
    assert code == 2 and not out, (out, err)
    assert err == f"companion {name}: the data directory {afile} is a file, not a directory: " \
        "choose another with --data-dir DIR\n"
    assert afile.read_text() == "not a directory\n"


def test_companion_version_names_the_installed_package(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`companion --version` says the version that runs, the one pyproject.toml gave the
    installed package (an update's rollback is checked by it)."""
    import tomllib
    from importlib.metadata import version

    from companion.app import cli

    assert cli.main(["--version"]) == 0
    said = capsys.readouterr().out.strip()
    assert said == f"companion {version('table-companion')}"
    project = tomllib.loads(Path(__file__).parents[1].joinpath("pyproject.toml").read_text())
    assert said == f"companion {project['project']['version']}"
    assert cli.main(["--version", "extra"]) == 2  # not a command: a usage error
