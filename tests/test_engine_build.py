"""The compiled engine: used only while it matches its sources, and it plays like them."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from companion import engine_build

ROOT = Path(__file__).resolve().parent.parent
EXT = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def _fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package `fakepkg` with module `mod` whose compiled twin is garbage: importing the
    twin fails, so a test sees which one an import took."""
    pkg = tmp_path / "fakepkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "mod.py").write_text("WHERE = 'source'\n")
    (pkg / "sub" / f"mod{EXT}").write_bytes(b"not a shared library")
    monkeypatch.setattr(engine_build, "PACKAGE_DIR", pkg)
    monkeypatch.setattr(engine_build, "MANIFEST", pkg / "engine_build.json")
    monkeypatch.delenv("COMPANION_PURE", raising=False)
    monkeypatch.setattr(engine_build, "status", engine_build.status)  # choose() sets it
    return pkg


def _record(pkg: Path) -> None:
    digest = hashlib.sha256((pkg / "sub" / "mod.py").read_bytes()).hexdigest()
    (pkg / "engine_build.json").write_text(json.dumps({"modules": {"fakepkg.sub.mod": digest}}))


def test_a_matching_build_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = _fake_package(tmp_path, monkeypatch)
    _record(pkg)
    assert engine_build.check() == "compiled"


def test_an_edited_source_makes_the_build_stale(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = _fake_package(tmp_path, monkeypatch)
    _record(pkg)
    (pkg / "sub" / "mod.py").write_text("WHERE = 'edited source'\n")
    assert engine_build.check() == "source: fakepkg.sub.mod changed since it was compiled"


@pytest.mark.parametrize("damage, why", [
    ("no manifest", "source: the engine is not compiled (compiled modules without "
                    "engine_build.json)"),
    ("bad manifest", "source: engine_build.json is unreadable"),
    ("no compiled module", "source: fakepkg.sub.mod has no compiled module"),
    ("pure asked for", "source: COMPANION_PURE is set"),
])
def test_anything_short_of_a_whole_build_means_source(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str, why: str) -> None:
    pkg = _fake_package(tmp_path, monkeypatch)
    _record(pkg)
    if damage == "no manifest":
        (pkg / "engine_build.json").unlink()
    elif damage == "bad manifest":
        (pkg / "engine_build.json").write_text("{not json")
    elif damage == "no compiled module":
        (pkg / "sub" / f"mod{EXT}").unlink()
    else:
        monkeypatch.setenv("COMPANION_PURE", "1")
    assert engine_build.check() == why


def test_a_stale_build_is_imported_from_source(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = _fake_package(tmp_path, monkeypatch)
    _record(pkg)
    (pkg / "sub" / "mod.py").write_text("WHERE = 'edited source'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    for name in ("fakepkg", "fakepkg.sub", "fakepkg.sub.mod"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    importlib.invalidate_caches()
    with pytest.raises(ImportError):  # Python itself prefers the (here broken) compiled twin
        importlib.import_module("fakepkg.sub.mod")
    monkeypatch.delitem(sys.modules, "fakepkg.sub.mod", raising=False)
    assert engine_build.choose().startswith("source: fakepkg.sub.mod changed")
    module = importlib.import_module("fakepkg.sub.mod")
    assert module.WHERE == "edited source"


def _can_compile() -> bool:
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return include.exists() and shutil.which("cc") is not None


@pytest.mark.skipif(os.environ.get("COMPANION_COMPILE") == "0" or not _can_compile(),
                    reason="the engine is not compiled here (COMPANION_COMPILE=0 or no compiler)")
def test_the_tests_run_the_compiled_engine() -> None:
    """Where the engine can be compiled, ./test.sh (re)builds it, so these tests run what ships;
    after editing an engine source, run ./test.sh (or pip install -e .) to rebuild."""
    assert engine_build.status == "compiled"
    import companion.rules.engine

    assert engine_build.compiled(), companion.rules.engine.__file__


@pytest.mark.skipif(engine_build.status != "compiled",
                    reason="the engine runs from source here: the other tests cover it")
def test_the_source_engine_passes_the_doctests_and_golden_games_too() -> None:
    """The compiled and the plain engine must play alike; the doctests only run from source."""
    env = {**os.environ, "COMPANION_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "companion/rules",
         "tests/test_replay.py", "tests/test_rules_properties.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout
