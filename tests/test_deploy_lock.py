"""The lock files in requirements/ (scripts/lock.sh): every dependency pinned with hashes,
in agreement with pyproject.toml and with each other, and the venv the tests run in made
from them (so a fresh machine's `./test.sh` runs with the very versions these tests passed
with: a Babel that compiles the committed .mo files, the same ruff and mypy)."""

from __future__ import annotations

import re
import subprocess
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parent.parent
LOCK = REPO / "requirements"
FILES = ("build", "mypyc", "run", "dev")
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
HASH = re.compile(r"--hash=sha256:([0-9a-f]{64})$")


@dataclass(frozen=True)
class Pin:
    """One locked package: its version, the environments it is for, its files' hashes."""

    name: str
    version: str
    marker: Marker | None
    hashes: frozenset[str]

    def applies(self) -> bool:
        """Whether this Python on this machine installs it."""
        return self.marker is None or self.marker.evaluate()


def read_lock(name: str) -> dict[str, Pin]:
    """requirements/<name>.txt as pins by canonical name; fails on anything unpinned."""
    text = (LOCK / f"{name}.txt").read_text(encoding="utf-8")
    pins: dict[str, Pin] = {}
    for entry in re.sub(r"\s*\\\n\s*", " ", text).splitlines():
        entry = entry.split("#", 1)[0].strip()
        if not entry:
            continue
        requirement, *options = entry.split(" --")
        options = [f"--{o}" for o in options]
        req = Requirement(requirement)
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==", f"{name}.txt: unpinned {entry}"
        hashes = frozenset(m.group(1) for o in options if (m := HASH.match(o)))
        assert hashes and len(hashes) == len(options), f"{name}.txt: {req.name} without hashes"
        key = canonicalize_name(req.name)
        assert key not in pins, f"{name}.txt: {req.name} twice"
        pins[key] = Pin(key, specs[0].version, req.marker, hashes)
    return pins


LOCKS = {name: read_lock(name) for name in FILES}


def declared(*extras: str) -> list[Requirement]:
    """pyproject.toml's dependencies, with the named extras."""
    project = PYPROJECT["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        found += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return found


def build_requires() -> list[Requirement]:
    return [Requirement(r) for r in PYPROJECT["build-system"]["requires"]]


@pytest.mark.parametrize(("lock", "wanted"), [
    ("run", lambda: declared("pi")),
    ("dev", lambda: [*declared("dev", "pi"), *build_requires(), Requirement("pip")]),
    ("build", lambda: [r for r in build_requires() if r.name != "mypy"]),
    ("mypyc", lambda: [r for r in build_requires() if r.name == "mypy"]),
])
def test_each_lock_pins_what_pyproject_asks_for(lock: str, wanted: object) -> None:
    """Every requirement of pyproject.toml is in its lock file at a version it allows, for
    every environment its marker names (lgpio only on the Pi's aarch64 and armv7l)."""
    assert callable(wanted)
    pins = LOCKS[lock]
    for req in wanted():
        pin = pins.get(canonicalize_name(req.name))
        assert pin is not None, f"requirements/{lock}.txt lacks {req}: run scripts/lock.sh"
        assert req.specifier.contains(pin.version, prereleases=True), (
            f"requirements/{lock}.txt pins {pin.name}=={pin.version}, pyproject.toml wants "
            f"{req}: run scripts/lock.sh")
        if req.marker is not None:
            assert pin.marker == req.marker, (pin, req)
    if lock == "build":
        assert "pip" in pins


def test_the_pi_gets_lgpio_and_a_pc_does_not() -> None:
    lgpio = LOCKS["run"]["lgpio"]
    assert lgpio.marker is not None
    for machine, wanted in (("aarch64", True), ("armv7l", True), ("x86_64", False)):
        assert lgpio.marker.evaluate({"platform_machine": machine}) is wanted, machine
    # a wheel for each: the Pi has no compiler (the sdist's hash is one more)
    assert len(lgpio.hashes) >= 3


def test_the_parts_agree_with_the_whole() -> None:
    """build, mypyc and run are parts of dev's one resolution: the same versions and files."""
    whole = LOCKS["dev"]
    for part in ("build", "mypyc", "run"):
        for key, pin in LOCKS[part].items():
            assert key in whole, f"{part}.txt has {key}, dev.txt not"
            assert (pin.version, pin.hashes) == (whole[key].version, whole[key].hashes), key
    # nothing in dev.txt that no part and no dev tool needs is a waste, but nothing is
    # missing either: every part's packages are installed by test.sh's one file
    assert set().union(*(LOCKS[p] for p in ("build", "mypyc", "run"))) <= set(whole)


def test_the_catalogs_were_compiled_by_the_locked_babel() -> None:
    """The committed .mo files say which Babel made them: the lock pins that one."""
    made_by = set()
    for po in (REPO / "companion" / "locale").glob("*/LC_MESSAGES/companion.po"):
        found = re.search(r'"Generated-By: Babel (\S+)\\n"', po.read_text(encoding="utf-8"))
        assert found, po
        made_by.add(found.group(1))
    assert made_by == {LOCKS["run"]["babel"].version}


def test_the_venv_is_made_from_the_lock() -> None:
    """This venv holds exactly the locked versions (./test.sh installs them); a venv made
    otherwise (pip install -e .) would test other versions than a fresh machine gets."""
    wrong = []
    for pin in LOCKS["dev"].values():
        if not pin.applies() or pin.name == "pip":
            continue
        try:
            have = metadata.version(pin.name)
        except metadata.PackageNotFoundError:
            have = "missing"
        if have != pin.version:
            wrong.append(f"{pin.name} {have} (locked: {pin.version})")
    assert not wrong, "this venv is not the lock's (./test.sh reinstalls it): " + ", ".join(wrong)


def test_the_installers_install_only_from_the_lock() -> None:
    """No pip install of a package by name in the installers: the lock files or the
    project itself with --no-deps."""
    for script in ("scripts/bootstrap.sh", "deploy/install.sh"):
        text = (REPO / script).read_text(encoding="utf-8")
        installs = re.findall(r"pip[^\n]*?\binstall\b(?:[^\n]*\\\n)*[^\n]*", text)
        assert installs, script
        for command in installs:
            assert "--require-hashes" in command or "--no-deps" in command, (script, command)


def test_lock_sh_explains_itself_and_refuses_a_bad_option() -> None:
    script = REPO / "scripts" / "lock.sh"
    result = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0 and "--upgrade" in result.stdout, result.stderr
    result = subprocess.run(["bash", str(script), "--frobnicate"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 2 and "unknown option" in result.stderr
