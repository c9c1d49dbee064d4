"""scripts/install-fast.sh for real, against pip's index: the phones' server's C HTTP parser
(httptools, requirements/fast.txt) is a wheel where one fits this Python, and nothing, with
one line saying so and exit 0, where none does.

pip's own options stand in for the machines (`--platform`, `--python-version`, into a
`--target` folder): a 32-bit Raspberry Pi OS (armv7l, whose kernel may well be 64-bit:
pip's tags are its userland's) gets no wheel and the install goes on; every wheel the lock
names installs through the step; on this machine a server started with the installed
wheel on its path parses with httptools. deploy/test-arm64.sh checks the same on an arm64
root, through deploy/install.sh.

The tests that fetch from pip's index are on by default, like the emulated installs
(tests/test_deploy_arm64.py): they run when the index answers and skip saying why
otherwise; COMPANION_FAST_TEST=0 skips them. Each run fetches a few half-megabyte wheels.
An index that does not answer, and a Python that does not run, need no network.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
STEP = REPO / "scripts" / "install-fast.sh"
FALLBACK = "the phones' server uses the pure-Python parser (h11)"
VERSION = re.search(r"^httptools==(\S+)", (REPO / "requirements" / "fast.txt").read_text(
    encoding="utf-8"), re.M)


def lock_sh_array(name: str) -> list[str]:
    """A `readonly NAME=(...)` array of scripts/lock.sh: the Pythons and machines locked."""
    text = (REPO / "scripts" / "lock.sh").read_text(encoding="utf-8")
    found = re.search(rf"^readonly {name}=\((.*?)\)$", text, re.M)
    assert found, f"no {name} in scripts/lock.sh"
    return found.group(1).split()


def manylinux(machine: str, glibc_minor: int = 36) -> list[str]:
    """pip's --platform options for a glibc Linux `machine` (Bookworm's glibc 2.36): every
    manylinux tag its pip accepts, as packaging's tags list them on such a machine."""
    tags = [f"manylinux_2_{minor}_{machine}" for minor in range(glibc_minor, 4, -1)]
    tags += [f"{legacy}_{machine}" for legacy in ("manylinux2014", "manylinux2010",
                                                  "manylinux1")]
    tags.append(f"linux_{machine}")
    return [option for tag in tags for option in ("--platform", tag)]


@pytest.fixture(scope="module")
def index() -> str:
    """pip's index, when it answers (else the test skips, saying why)."""
    if os.environ.get("COMPANION_FAST_TEST") == "0":
        pytest.skip("COMPANION_FAST_TEST=0 (the httptools step against pip's index)")
    url = os.environ.get("PIP_INDEX_URL", "")
    if not url:
        listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"],
                                capture_output=True, text=True, check=False).stdout
        found = re.search(r"^(?:global|install|:env:)\.index-url='([^']+)'$", listed, re.M)
        url = found.group(1) if found else "https://pypi.org/simple/"
    try:
        with urllib.request.urlopen(urllib.request.Request(
                url.rstrip("/") + "/httptools/", method="HEAD"), timeout=15):
            pass
    except OSError as exc:
        pytest.skip(f"pip's index {url} does not answer ({exc}): the httptools step needs it")
    return url


def step(*pip_options: str, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    """The step for this Python with `pip_options`, as bootstrap.sh and install.sh run it."""
    return subprocess.run(["bash", str(STEP), sys.executable, *pip_options],
                          capture_output=True, text=True, timeout=300, check=False, env=env)


def test_an_index_that_does_not_answer_ends_in_one_line(tmp_path: Path) -> None:
    """No network needed: pip's index refuses the connection (this machine's pip settings
    left out), and the step says so in its one line and exits 0, installing nothing."""
    alone = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    alone["PIP_CONFIG_FILE"] = os.devnull
    target = tmp_path / "site"
    result = step("--index-url", "http://127.0.0.1:9/simple/", "--retries", "1",
                  "--timeout", "2", "--target", str(target), env=alone)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ("httptools not installed, the package index did not answer: "
                             f"{FALLBACK}\n"), result.stdout
    assert not target.exists() or not any(target.iterdir())


def test_a_python_that_does_not_run_is_refused() -> None:
    """A wrong venv path is the caller's mistake, said, with status 2 (not a fallback)."""
    result = subprocess.run(["bash", str(STEP), "/nonexistent/bin/python"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2 and "does not run" in result.stderr


@pytest.mark.parametrize("platforms", [
    ["--platform", "linux_armv7l"],
    manylinux("armv7l"),
], ids=["linux_armv7l", "bookworm-armhf-tags"])
def test_a_32_bit_pi_os_gets_no_wheel_and_the_install_goes_on(index: str, tmp_path: Path,
                                                             platforms: list[str]) -> None:
    """No armv7l wheel on the index, and the sdist is never built: exit 0, one line saying
    the server serves with h11, nothing installed."""
    target = tmp_path / "site"
    result = step(*platforms, "--python-version", "3.11", "--target", str(target))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    assert lines[0] == (f"no httptools wheel fits this Python (Python 3.11, "
                        f"{platforms[-1]}): {FALLBACK}"), lines[0]
    assert result.stderr == ""
    assert not target.exists() or not any(target.iterdir()), list(target.rglob("*"))


@pytest.mark.parametrize("machine", lock_sh_array("FAST_MACHINES"))
@pytest.mark.parametrize("python", lock_sh_array("FAST_PYTHONS"))
def test_every_locked_wheel_installs_through_the_step(index: str, tmp_path: Path,
                                                      python: str, machine: str) -> None:
    """Each CPython and 64-bit machine scripts/lock.sh locks gets its wheel, the hash in
    requirements/fast.txt: the parser built for that Python and that machine."""
    assert VERSION
    target = tmp_path / "site"
    result = step(*manylinux(machine), "--python-version", python, "--target", str(target))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == (f"httptools {VERSION.group(1)} installed: the phones' server "
                             "parses HTTP with httptools (C)\n"), result.stdout
    abi = f"cpython-{python.replace('.', '')}-{machine}-linux-gnu"
    built = sorted(p.name for p in (target / "httptools").rglob("*.so"))
    assert built and all(abi in name for name in built), (abi, built)


SERVE = r"""
import http.client, json, sys
from flask import Flask
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.http.h11_impl import H11Protocol
import httptools
from web_remote.serving import serve

class NoStreams:
    def close(self):
        pass

app = Flask("fast")
app.extensions["web_remote"] = NoStreams()
app.get("/")(lambda: "served")
said = {"httptools": httptools.__file__}
for pure in (False, True):
    handle = serve(app, "127.0.0.1", 0, 2, pure=pure)
    conn = http.client.HTTPConnection("127.0.0.1", handle.port, timeout=10)
    conn.request("GET", "/")
    answer = conn.getresponse()
    body = answer.read().decode()
    # the kept-alive connection's protocol, as the server's gate holds it
    (held,) = handle._dispatcher.gate.open["127.0.0.1"]
    said["h11" if pure else "default"] = {
        "parser": handle.parser, "status": answer.status, "body": body,
        "httptools": isinstance(held, HttpToolsProtocol), "h11": isinstance(held, H11Protocol)}
    conn.close()
    handle.stop()
print(json.dumps(said))
"""


def test_where_a_wheel_fits_a_started_server_parses_with_httptools(index: str,
                                                                    tmp_path: Path) -> None:
    """This machine's Python (x86_64) gets the wheel through the step; with it on the path
    a started server's connections are httptools' (pure=True still h11's), and answer."""
    target = tmp_path / "site"
    result = step("--target", str(target))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.endswith("parses HTTP with httptools (C)\n"), result.stdout
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), str(REPO)])}
    ran = subprocess.run([sys.executable, "-c", SERVE], capture_output=True, text=True,
                         env=env, cwd=REPO, timeout=120, check=False)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    said = json.loads(ran.stdout.splitlines()[-1])
    assert Path(said["httptools"]).is_relative_to(target), said
    assert said["default"] == {"parser": "httptools", "status": 200, "body": "served",
                               "httptools": True, "h11": False}, said
    assert said["h11"] == {"parser": "h11", "status": 200, "body": "served",
                           "httptools": False, "h11": True}, said
