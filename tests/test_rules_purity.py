"""The rules package is pure: no I/O, clock or global randomness, and apply changes nothing."""

from __future__ import annotations

import ast
from pathlib import Path

from rules_helpers import ok, start

import companion.rules

FORBIDDEN = {"pygame", "gpiozero", "serial", "flask", "sqlite3", "time", "random", "os",
             "socket", "threading", "subprocess", "datetime", "io", "pathlib", "json"}


def test_rules_package_imports_nothing_that_does_io() -> None:
    folder = Path(companion.rules.__file__).parent
    seen = []
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                seen.append(name)
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
    assert "companion.rules.state" in seen  # the walk did see the imports


def test_apply_leaves_the_given_state_unchanged() -> None:
    from companion.rules import snapshot

    g = start()
    before = snapshot(g)
    g2, _ = ok(g, {"do": "roll", "dice": [3, 4]}, {"do": "draw"})
    assert snapshot(g) == before
    assert snapshot(g2) != before


def test_state_copy_carries_every_field() -> None:
    import dataclasses

    g, _ = ok(start(), {"do": "roll", "dice": [1, 2]})
    g.extra["x"] = 1
    c = g.copy()
    for f in dataclasses.fields(g):
        if f.name == "owned":
            continue
        assert getattr(c, f.name) == getattr(g, f.name), f.name
    mutable = [f.name for f in dataclasses.fields(g)
               if isinstance(getattr(g, f.name), list | dict) and f.name != "owned"]
    for name in mutable:
        assert getattr(c, name) is not getattr(g, name) or name == "players", name
