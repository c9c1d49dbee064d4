"""Build hook: compile the rules engine and the bots with mypyc when this machine can.

The engine's speed target (docs/bench.md) needs the compiled modules; everything works
without them, only slower. `COMPANION_COMPILE=0` skips compiling. A build that fails (no C
compiler, no Python headers) installs plain Python instead of failing the install. After a
good build, `companion/engine_build.json` records a hash of every compiled source, so that
`companion.engine_build` uses the compiled modules only while they match the sources.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
#: the modules compiled: the pure rules engine and the bots that play it in benchmarks
SOURCES = sorted(
    [p.relative_to(ROOT).as_posix() for p in (ROOT / "companion" / "rules").rglob("*.py")]
    + ["companion/bots.py"]
)
MANIFEST = "engine_build.json"


def _module(path: str) -> str:
    """companion/rules/engine.py -> companion.rules.engine (a package's __init__: the package)."""
    name = path.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def _say(message: str) -> None:
    print(f"table-companion: {message}", file=sys.stderr)


class BuildEngine(build_ext):  # type: ignore[misc]  # setuptools without type hints here
    """build_ext that falls back to plain Python and records what it compiled."""

    def run(self) -> None:
        if not self.extensions:
            return
        inplace = self.inplace  # the editable install's copy into the checkout
        try:
            super().run()
        except Exception as exc:  # any compiler or linker failure: install plain Python
            _say(f"compiling the engine failed ({exc}); installing it as plain Python")
            self._remove_outputs(also_inplace=inplace)
            return
        manifest = {_module(src): hashlib.sha256((ROOT / src).read_bytes()).hexdigest()
                    for src in SOURCES}
        target = Path(self.get_ext_fullpath("companion.bots")).parent / MANIFEST
        target.write_text(json.dumps({"modules": manifest}, indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")
        _say(f"compiled {len(SOURCES)} engine modules with mypyc")

    def _remove_outputs(self, also_inplace: bool) -> None:
        """Leave no half build behind (compiled modules need each other), nor an older one."""
        places = [False, True] if also_inplace else [False]
        for inplace in places:  # get_ext_fullpath answers for the build dir or the checkout
            self.inplace = inplace
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            manifest = Path(self.get_ext_fullpath("companion.bots")).with_name(MANIFEST)
            manifest.unlink(missing_ok=True)


#: setup.py commands that build: the others (egg_info, dist_info) need no compiling
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _extensions() -> list[Any]:
    """The mypyc extensions, or none when compiling is switched off or impossible."""
    if not BUILDS & set(sys.argv[1:]):
        return []
    if os.environ.get("COMPANION_COMPILE", "1") == "0":
        _say("COMPANION_COMPILE=0: installing the engine as plain Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not available: installing the engine as plain Python")
        return []
    try:
        # the strict section for companion.rules.* may look unused to a mypy started in
        # pip's isolated build environment; that note must not stop the build
        return list(mypycify(["--no-warn-unused-configs", *SOURCES], opt_level="3",
                             group_name="companion.native"))
    except BaseException as exc:  # mypyc exits on type errors: fall back, never fail
        _say(f"mypyc could not translate the engine ({exc!r}); installing plain Python")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildEngine})
