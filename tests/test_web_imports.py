"""The phone remote's modules import one way: no circle among web_remote's modules, counting
imports inside functions too (issue "One clear house": the app factory and its views used
to import each other)."""

from __future__ import annotations

import ast
from pathlib import Path

import web_remote

ROOT = Path(web_remote.__file__).parent


def module_name(path: Path) -> str:
    """web_remote/views/api.py -> web_remote.views.api; a package's __init__ -> the package."""
    parts = ("web_remote", *path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(source: str, here: str, is_package: bool, known: set[str]) -> set[str]:
    """The web_remote modules the source of module `here` imports, anywhere in it (a
    `from package import name` counts the submodule when `name` is one, else the package)."""
    found: set[str] = set()
    package = here if is_package else here.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:
                    found.add(sub)
                elif base in known:
                    found.add(base)
    found.discard(here)
    return found


def graph() -> dict[str, set[str]]:
    """Every web_remote module and the web_remote modules it imports."""
    files = sorted(ROOT.rglob("*.py"))
    known = {module_name(f) for f in files}
    return {module_name(f): imports(f.read_text(encoding="utf-8"), module_name(f),
                                    f.name == "__init__.py", known) for f in files}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle found by a depth-first walk (each as the path round it)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                walk(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            walk(node)
    return found


def test_the_walk_finds_a_circle() -> None:
    """The check itself can fail: a made-up circle is found, with the function-level import
    that closes it."""
    tree = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(tree) == [["a", "b", "c", "a"]]
    known = set(graph())
    source = "def f():\n    from web_remote.app import create_app\n    from .. import i18n\n"
    assert imports(source, "web_remote.views.probe", False, known) == {
        "web_remote.app", "web_remote.i18n"}


def test_no_import_circle_in_the_remote() -> None:
    edges = graph()
    assert "web_remote.context" in edges and edges["web_remote.app"]  # the graph was read
    assert cycles(edges) == []


def test_views_take_what_they_share_from_the_context() -> None:
    edges = graph()
    for name, targets in edges.items():
        if name.startswith("web_remote.views."):
            assert "web_remote.app" not in targets, name
            assert "web_remote" not in targets, name  # the package imports the app
    assert not edges["web_remote.context"] & {"web_remote.app", "web_remote.views.api",
                                              "web_remote.views.banker",
                                              "web_remote.views.join",
                                              "web_remote.views.pages"}
