"""The screen's and the words' import graph has no circle, and the screen's folder stays small.

Read from the sources with `ast`: every import counts, at the top, inside functions and
under `if TYPE_CHECKING:` (a circle hidden there still ties the modules together).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion.screen", "companion.words")
MAX_LOOSE_MODULES = 16

Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    """companion/screen/views/prompt.py -> companion.screen.views.prompt."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of PACKAGES by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package.replace(".", "/")).rglob("*.py"):
            found[module_name(path)] = path
    return found


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that module `name` imports, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                head = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(head + ([base] if base else []))
            # "from companion.screen import texts" imports the module companion.screen.texts
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        out.update(t for t in targets if t in known and t != name)
    return out


def import_graph() -> Graph:
    """Module -> the modules of PACKAGES it imports."""
    found = modules()
    known = set(found)
    return {name: imported(name, path, known) for name, path in found.items()}


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def test_no_import_circle_in_screen_and_words() -> None:
    graph = import_graph()
    assert "companion.screen.controller" in graph and "companion.words.catalog" in graph
    assert "companion.screen.render" in graph["companion.screen.controller"]
    assert circles(graph) == []


def test_the_circle_finder_finds_circles() -> None:
    """The finder itself: a three-module ring and a pair are found, a chain is not."""
    ring: Graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(ring) == [["a", "b", "c"]]
    assert circles({"x": {"y"}, "y": {"x"}, "z": set()}) == [["x", "y"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_function_level_and_type_checking_imports_count(tmp_path: Path) -> None:
    """An import inside a function or under TYPE_CHECKING is an edge of the graph."""
    source = tmp_path / "mod.py"
    source.write_text("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from companion.screen import controller\n"
                      "def f():\n    import companion.words.catalog\n"
                      "    from . import texts\n", encoding="utf-8")
    known = {"companion.screen.controller", "companion.words.catalog",
             "companion.screen.texts"}
    assert imported("companion.screen.mod", source, known) == known


def test_screen_folder_holds_at_most_16_loose_modules() -> None:
    loose = [p.name for p in (ROOT / "companion" / "screen").glob("*.py")
             if p.name != "__init__.py"]
    assert loose and len(loose) <= MAX_LOOSE_MODULES, sorted(loose)
