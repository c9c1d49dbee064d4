#!/usr/bin/env bash
# Pin every dependency, direct and transitive, with the hashes of its files on the index:
# regenerates the lock files in requirements/ from pyproject.toml. The one command to
# update them (then run ./test.sh and commit requirements/ with pyproject.toml):
#
#     scripts/lock.sh             # what pyproject.toml changed; every other pin stays
#     scripts/lock.sh --upgrade   # the newest versions pyproject.toml allows
#
# One universal resolution (uv's `pip compile --universal`: Python 3.11 and newer, every
# platform the project installs on: x86_64 for development and CI, aarch64 and armv7l on
# the Pi, with markers such as lgpio's) gives requirements/dev.txt, everything; the other
# files are the parts of it each installer needs, constrained to the same versions:
#
#   build.txt   pip, and the build requirements of pyproject.toml but mypy (setuptools,
#               wheel): scripts/bootstrap.sh and deploy/install.sh
#   mypyc.txt   mypy, to compile the rules engine with mypyc (scripts/bootstrap.sh)
#   run.txt     the app's dependencies and the Pi's extra (start.sh, deploy/install.sh)
#   dev.txt     all of it, with the dev tools (test.sh)
#
# uv itself comes, at the version below, from the index into a throwaway venv; it asks the
# index for the files' hashes (PyPI, or $UV_DEFAULT_INDEX).
set -euo pipefail

readonly UV_VERSION=0.13.8
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/requirements"
upgrade=()
case "${1:-}" in
    "") ;;
    --upgrade) upgrade=(--upgrade) ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "lock.sh: unknown option $1 (--upgrade, --help)" >&2; exit 2 ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/uv"
"$work/uv/bin/python" -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"
uv="$work/uv/bin/uv"

# The build requirements, split: mypy (mypyc) apart, since the Pi builds no compiled engine.
python3 - "$root/pyproject.toml" "$work" <<'PY'
import re, sys, tomllib
from pathlib import Path
requires = tomllib.loads(Path(sys.argv[1]).read_text())["build-system"]["requires"]
work = Path(sys.argv[2])
name = lambda r: re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0].lower()
(work / "build.in").write_text("pip\n" + "".join(f"{r}\n" for r in requires if name(r) != "mypy"))
(work / "mypyc.in").write_text("".join(f"{r}\n" for r in requires if name(r) == "mypy"))
PY

install -d "$out"
compile() {
    # uv pip compile into requirements/$1 from the rest of the arguments.
    local target="$1"
    shift
    (cd "$root" && "$uv" pip compile --quiet --universal --python-version 3.11 \
        --generate-hashes --custom-compile-command "scripts/lock.sh" --no-progress \
        "${upgrade[@]}" "$@" -o "requirements/$target.new")
    mv "$out/$target.new" "$out/$target"
}
# pip compile keeps the pins already in the output file: start from the current ones
for name in dev run build mypyc; do
    [ ! -f "$out/$name.txt" ] || cp "$out/$name.txt" "$out/$name.txt.new"
done
compile dev.txt pyproject.toml --all-extras "$work/build.in" "$work/mypyc.in"
compile run.txt pyproject.toml --extra pi -c requirements/dev.txt
compile build.txt "$work/build.in" -c requirements/dev.txt
compile mypyc.txt "$work/mypyc.in" -c requirements/dev.txt
# The inputs were temporary files: name them as what they are.
sed -i -e "s|$work/build.in|pyproject.toml's build-system.requires, and pip|g" \
    -e "s|$work/mypyc.in|pyproject.toml's build-system.requires (mypy)|g" "$out"/*.txt
echo "requirements/: $(grep -c '^[a-z0-9]' "$out/dev.txt") packages pinned with their hashes" \
    "($(grep -c '^[a-z0-9]' "$out/run.txt") for the app)"
