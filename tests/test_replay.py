"""`companion replay`: the table script contract, golden whole games, malformed input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.replay import ScriptError, read_script, replay_lines

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "tests" / "data" / "games").glob("*.jsonl"))
DEMO = ROOT / "companion" / "data" / "demo" / "short-game.jsonl"


def run_replay(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "replay", *args],
                          capture_output=True, text=True, input=stdin, timeout=120, cwd=ROOT)


@pytest.mark.parametrize("script", GAMES, ids=lambda p: p.stem)
def test_golden_whole_games_replay_to_their_recorded_final_state(script: Path) -> None:
    expected = json.loads(script.with_suffix("").with_suffix(".expected.json").read_text("utf-8"))
    state, rejected = replay_lines(read_script(script.read_text("utf-8")))
    assert state is not None and rejected == []
    from companion.game.applying import state_json

    got = state_json(state, with_legal=False)
    got["rejected"] = rejected
    assert got == expected
    assert expected["winner"] is not None


def test_golden_games_exist() -> None:
    assert len(GAMES) >= 3


def demo_with_a_refusal(tmp_path: Path) -> Path:
    """The demo with one refused line 18: Cy builds without the whole colour group."""
    lines = DEMO.read_text("utf-8").splitlines()
    lines.insert(17, '{"do":"build","by":"Cy","square":9}')
    script = tmp_path / "refused.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return script


def test_replay_json_has_the_documented_fields(tmp_path: Path) -> None:
    proc = run_replay(str(demo_with_a_refusal(tmp_path)), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    for key in ("edition", "players", "squares", "bank", "current", "pending", "rejected",
                "winner"):
        assert key in out
    assert set(out["players"][0]) >= {"name", "cash", "position", "in_jail", "jail_cards",
                                      "bankrupt"}
    assert set(out["squares"][0]) >= {"index", "owner", "houses", "hotel", "mortgaged"}
    assert set(out["bank"]) >= {"houses", "hotels"}
    [refusal] = out["rejected"]
    assert (refusal["line"], refusal["code"]) == (18, "no_monopoly")
    assert "Avenue de la République" in refusal["message"]
    assert refusal["params"]["square"] == 9 and refusal["params"]["current"] == "Cy"
    ann = out["players"][0]
    assert ann["cash"] == 1500 - 200 - 50 - 180 + 250


def test_the_demo_replays_cleanly_and_a_refusal_is_printed_with_its_line(tmp_path: Path) -> None:
    proc = run_replay(str(DEMO))  # the README's first command: nothing a newcomer reads as a bug
    assert proc.returncode == 0 and proc.stderr == ""
    assert "Ann" in proc.stdout and "turn 6, version 28" in proc.stdout
    assert "refused" not in proc.stdout
    assert json.loads(run_replay(str(DEMO), "--json").stdout)["rejected"] == []
    proc = run_replay(str(demo_with_a_refusal(tmp_path)))
    assert proc.returncode == 0 and "refused line 18" in proc.stdout


def test_refused_line_changes_nothing_and_replay_goes_on(tmp_path: Path) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text('{"do":"new_game","edition":"classic-eur","players":["A","B"]}\n'
                      '{"do":"buy"}\n{"do":"fly"}\n{"do":"roll","dice":[1,2]}\n')
    out = json.loads(run_replay(str(script), "--json").stdout)
    assert [r["line"] for r in out["rejected"]] == [2, 3]
    assert [r["code"] for r in out["rejected"]] == ["not_now", "bad_command"]
    assert out["players"][0]["position"] == 3 and out["pending"]["kind"] == "buy"


@pytest.mark.parametrize(("text", "line"), [
    ('{"do":"roll"}\n{not json\n', 2),
    ('\n\n[1, 2]\n', 3),
    ('{"dice": [1, 2]}\n', 1),
])
def test_malformed_line_stops_with_its_number_and_exit_code_2(
    tmp_path: Path, text: str, line: int
) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(text)
    proc = run_replay(str(script), "--json")
    assert proc.returncode == 2
    assert f"line {line}" in proc.stderr and proc.stdout == ""
    with pytest.raises(ScriptError) as err:
        read_script(text)
    assert err.value.line == line


def test_missing_script_file_is_a_clear_error(tmp_path: Path) -> None:
    proc = run_replay(str(tmp_path / "nope.jsonl"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_replay_reads_standard_input() -> None:
    proc = run_replay("-", "--json", stdin=DEMO.read_text("utf-8"))
    assert proc.returncode == 0 and json.loads(proc.stdout)["edition"] == "classic-eur"


@pytest.mark.parametrize(("line", "why"), [
    ("[" * 20000 + "]" * 20000, "nested deeper"),
    ('{"do": "bid", "by": "Ann", "amount": ' + "9" * 5000 + "}", "more than 18 digits"),
    ('{"do": "pay", "amount": 1' + "0" * 40 + ".5}", "more than 18 digits"),
])
def test_a_monstrous_line_is_refused_with_its_line_number(line: str, why: str) -> None:
    script = '{"do": "new_game", "edition": "classic-eur", "players": ["A", "B"]}\n' + line + "\n"
    done = run_replay("-", stdin=script)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "line 2" in done.stderr and why in done.stderr
