"""Use the mypyc-compiled rules engine only while it matches the sources beside it.

`setup.py` compiles companion/rules and companion/bots.py when it can and records a hash of
every compiled source in engine_build.json. In a checkout (editable install) the compiled
modules sit next to the .py files and Python would prefer them even after a source was
edited; `choose()` (run when `companion` is imported) then loads every engine module from
source instead, so a stale build is never used, only slower. `COMPANION_PURE=1` forces the
sources. See docs/bench.md.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = PACKAGE_DIR / "engine_build.json"
#: what `choose()` decided: "compiled", or "source" and why
status = "source: not chosen yet"


def _source_of(module: str) -> Path:
    """The .py file of a module of this package (a package: its __init__.py)."""
    parts = module.split(".")[1:]
    path = PACKAGE_DIR.joinpath(*parts)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _compiled_beside(source: Path) -> bool:
    """Whether a compiled module sits next to this source (and would win the import)."""
    stem = source.stem
    return any(
        (source.parent / f"{stem}{suffix}").exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def _compiled_modules() -> list[str]:
    """Names of this package's modules that have a compiled twin beside their source."""
    names = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for lib in PACKAGE_DIR.rglob(f"*{suffix}"):
            rel = lib.relative_to(PACKAGE_DIR.parent).as_posix().removesuffix(suffix)
            name = rel.replace("/", ".").removesuffix(".__init__")
            if _source_of(name).exists():
                names.append(name)
    return sorted(set(names))


def check() -> str:
    """'compiled' when the compiled engine matches its sources, else 'source: <why>'."""
    if os.environ.get("COMPANION_PURE", "") not in ("", "0"):
        return "source: COMPANION_PURE is set"
    if not MANIFEST.exists():
        return "source: the engine is not compiled" + (
            " (compiled modules without engine_build.json)" if _compiled_modules() else "")
    try:
        recorded = json.loads(MANIFEST.read_text(encoding="utf-8"))["modules"]
        assert isinstance(recorded, dict)
    except (OSError, ValueError, KeyError, AssertionError):
        return "source: engine_build.json is unreadable"
    for module, digest in sorted(recorded.items()):
        source = _source_of(module)
        if not _compiled_beside(source):
            return f"source: {module} has no compiled module"
        try:
            current = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:
            return f"source: {module} has no source"
        if current != digest:
            return f"source: {module} changed since it was compiled"
    return "compiled"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules' .py files, ahead of their compiled twins."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        source = _source_of(fullname)
        if source.name == "__init__.py":
            return importlib.util.spec_from_file_location(
                fullname, source, submodule_search_locations=[str(source.parent)])
        return importlib.util.spec_from_file_location(fullname, source)


def choose() -> str:
    """Decide once, before any engine module is imported, which engine this process uses."""
    global status
    status = check()
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _SourceFinder)]
    if status != "compiled":
        modules = _compiled_modules()
        if modules:
            sys.meta_path.insert(0, _SourceFinder(modules))
    return status


def compiled() -> bool:
    """Whether this process runs the compiled engine."""
    engine = sys.modules.get("companion.rules.engine")
    return engine is not None and not str(getattr(engine, "__file__", "")).endswith(".py")
