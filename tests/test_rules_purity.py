"""The rules package is pure: no I/O, clock or global randomness, and apply changes nothing."""

from __future__ import annotations

import ast
from pathlib import Path

from rules_helpers import ok, start

#: the engine's sources (not `companion.rules.__file__`: a mypyc-compiled package first
#: imported through companion.bots reports a path that does not exist)
RULES = Path(__file__).resolve().parent.parent / "companion" / "rules"
FORBIDDEN = {"pygame", "gpiozero", "serial", "flask", "sqlite3", "time", "random", "os",
             "socket", "threading", "subprocess", "datetime", "io", "pathlib", "json"}


def test_rules_package_imports_nothing_that_does_io() -> None:
    folder = RULES
    seen = []
    for path in folder.rglob("*.py"):
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
    # shared on purpose: the engine replaces these lists and dicts instead of changing them
    # (GameState.copy); `players` and its records until the first change (GameState.wp)
    shared = {"decks", "extra", "standings", "claims", "players"}
    for name in mutable:
        assert (getattr(c, name) is not getattr(g, name)) == (name not in shared), name
    c.wp(0).cash -= 1
    assert c.players is not g.players and c.players[1] is g.players[1]
    assert g.players[0].cash == c.players[0].cash + 1


def _rules_imports() -> dict[str, set[str]]:
    """Each companion/rules module and the rules modules it imports, at any depth of its
    code (a function-level import counts as much as one at the top)."""
    folder = RULES
    graph: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        here = path.parent.name if path.stem == "__init__" and path.parent != folder \
            else path.stem  # module names are unique across the rules package's folders
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                if node.level:  # a relative import: from . import x / from .x import y
                    modules = [f"companion.rules.{node.module}"]
                else:
                    modules = [node.module]
                    if node.module == "companion.rules":
                        modules = [f"{node.module}.{a.name}" for a in node.names]
            for name in modules:
                if name.startswith("companion.rules."):
                    found.add(name.split(".")[-1])
        graph[here] = found - {here}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph (its modules, the first repeated at the end), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, set())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return []

    for start_node in sorted(graph):
        if start_node not in state:
            found = visit(start_node)
            if found:
                return found
    return []


def test_cycle_finder_finds_a_function_level_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_rules_modules_import_in_one_direction() -> None:
    graph = _rules_imports()
    graph.pop("__init__", None)  # the package's front door re-exports; nothing imports it
    assert {"money", "flow", "engine", "board"} <= set(graph)
    assert _cycle(graph) == [], "an import circle in companion/rules"
    # the ledger is a leaf above the state: it drives no moves, turns or bankruptcies
    assert graph["money"] <= {"codes", "edition", "events", "options", "state"}
    # the events are the vocabulary every module speaks: they import no other rules module
    assert graph["events"] == set()
    assert "__init__" not in {m for deps in graph.values() for m in deps}


def test_rules_modules_import_at_the_top_only() -> None:
    folder = RULES
    for path in folder.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = set(tree.body)
        for node in tree.body:  # a top-level `if TYPE_CHECKING:` block (types only) is the top
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
                top.update(node.body)
        inner = [node.lineno for node in ast.walk(tree)
                 if isinstance(node, ast.Import | ast.ImportFrom) and node not in top]
        assert inner == [], f"{path.name} imports inside functions at lines {inner}"
