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


def code_of(script: str) -> str:
    """A shell script of the repository without its comment lines."""
    text = (REPO / script).read_text(encoding="utf-8")
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.lstrip().startswith("#"))


def test_the_installers_install_only_from_the_lock() -> None:
    """No pip install of a package by name in the installers: the lock files or the
    project itself with --no-deps."""
    for script in ("scripts/bootstrap.sh", "deploy/install.sh", "scripts/install-fast.sh"):
        text = code_of(script)
        installs = re.findall(r"pip[^\n]*?\binstall\b(?:[^\n]*\\\n)*[^\n]*", text)
        assert installs, script
        for command in installs:
            assert "--require-hashes" in command or "--no-deps" in command, (script, command)


def test_lock_sh_explains_itself_and_refuses_a_bad_option() -> None:
    script = REPO / "scripts" / "lock.sh"
    result = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0 and "--upgrade" in result.stdout, result.stderr
    assert "--fast" in result.stdout and "requirements/fast.txt" in result.stdout
    result = subprocess.run(["bash", str(script), "--frobnicate"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 2 and "unknown option" in result.stderr


# --- requirements/fast.txt: the phones' server's optional C HTTP parser ---------------------

FAST = read_lock("fast")  # pinned, every line with its hashes (read_lock fails otherwise)


def lock_sh_array(name: str) -> list[str]:
    """A `readonly NAME=(...)` array of scripts/lock.sh."""
    text = (REPO / "scripts" / "lock.sh").read_text(encoding="utf-8")
    found = re.search(rf"^readonly {name}=\((.*?)\)$", text, re.M)
    assert found, f"no {name} in scripts/lock.sh"
    return found.group(1).split()


def test_the_fast_lock_is_httptools_wheels_alone() -> None:
    """requirements/fast.txt pins httptools alone, for every environment (no marker: pip's
    own tags decide where a wheel fits, not `platform_machine`, which a 32-bit userland on
    a 64-bit kernel answers with aarch64), with one hash per wheel it names and only wheels:
    no sdist a Pi could be sent to compile. The wheels are the ones scripts/lock.sh asks
    for: each of its CPythons on each of its 64-bit Linux machines, and no armv7l one."""
    assert set(FAST) == {"httptools"}
    pin = FAST["httptools"]
    assert pin.marker is None
    text = (LOCK / "fast.txt").read_text(encoding="utf-8")
    named = re.findall(r"^#\s+(httptools-\S+)$", text, re.M)
    assert named and all(name.endswith(".whl") for name in named), named
    assert all(name.startswith(f"httptools-{pin.version}-") for name in named), named
    assert len(named) == len(pin.hashes)
    pythons, machines = lock_sh_array("FAST_PYTHONS"), lock_sh_array("FAST_MACHINES")
    assert "3.11" in pythons and {"x86_64", "aarch64"} <= set(machines)
    wanted = {(f"cp{p.replace('.', '')}", m) for p in pythons for m in machines}
    have = {(name.split("-")[2], m) for name in named for m in machines
            if f"_{m}." in name or name.endswith(f"_{m}.whl")}
    assert have == wanted and len(named) == len(wanted), (have, wanted)
    assert not any("armv7l" in name or "musllinux" in name for name in named)


def test_the_fast_lock_is_a_version_uvicorn_parses_with() -> None:
    """uvicorn's httptools protocol (its `standard` extra) asks for a version range: the
    pinned release is in it."""
    asked = [Requirement(r) for r in metadata.requires("uvicorn") or []]
    wanted = [r for r in asked if canonicalize_name(r.name) == "httptools"]
    assert wanted, "uvicorn no longer names httptools: is its httptools protocol gone?"
    version = FAST["httptools"].version
    assert all(r.specifier.contains(version) for r in wanted), (version, wanted)


def test_the_app_locks_never_ask_for_httptools() -> None:
    """Only the optional step installs it: a locked install of the app (run.txt on the
    Pi, dev.txt for the tests) must work where no wheel fits."""
    for name in FILES:
        assert "httptools" not in LOCKS[name], f"requirements/{name}.txt pins httptools"
    for requirement in declared("dev", "pi"):
        assert canonicalize_name(requirement.name) != "httptools"


def test_one_step_installs_the_fast_lock_binary_only() -> None:
    """scripts/install-fast.sh is the one place requirements/fast.txt is installed from:
    a wheel only (never a build), checked against the lock's hashes, nothing else pulled
    in; scripts/bootstrap.sh (./start.sh, ./test.sh) and deploy/install.sh (the Pi) run it,
    and no installer installs the file by itself."""
    step = code_of("scripts/install-fast.sh")
    installs = re.findall(r"pip[^\n]*?\binstall\b(?:[^\n]*\\\n)*[^\n]*", step)
    assert len(installs) == 1, installs
    for option in ("--only-binary=:all:", "--no-deps", "--require-hashes", '-r "$lock"'):
        assert option in installs[0], option
    assert re.search(r'^lock=.*/requirements/fast\.txt"$', step, re.M)
    for script in ("scripts/bootstrap.sh", "deploy/install.sh"):
        text = code_of(script)
        assert re.search(r"^\s*(run )?bash \"\$(root|source_dir)/scripts/install-fast\.sh\" ",
                         text, re.M), f"{script} does not run scripts/install-fast.sh"
        assert "fast.txt" not in text.replace("requirements/fast.txt scripts/install-fast.sh",
                                              ""), f"{script} installs fast.txt itself"
