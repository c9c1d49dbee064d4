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
# Apart from that resolution, requirements/fast.txt: the phones' server's optional C HTTP
# parser (httptools, the newest release with --upgrade, else the version pinned there),
# binary only: the sha256 of its manylinux wheel for each CPython of FAST_PYTHONS on each
# of FAST_MACHINES (64-bit Linux), fetched by pip download, and no sdist (a Pi must never
# compile). scripts/install-fast.sh installs it where one of them fits and goes on without
# it where none does (a 32-bit Pi OS). `scripts/lock.sh --fast` makes that file alone.
#
# uv itself comes, at the version below, from the index into a throwaway venv; it asks the
# index for the files' hashes (PyPI, or $UV_DEFAULT_INDEX).
set -euo pipefail

readonly UV_VERSION=0.13.8
#: requirements/fast.txt: the package, and the Pythons and machines its wheels are hashed for
#: (pyproject.toml's requires-python >= 3.11: Bookworm's 3.11 to Trixie's 3.13 and on; a PC
#: and a 64-bit Pi), each with the manylinux tags of a glibc up to Bookworm's 2.36
readonly FAST_PACKAGE=httptools
readonly FAST_PYTHONS=(3.11 3.12 3.13 3.14)
readonly FAST_MACHINES=(x86_64 aarch64)
readonly FAST_GLIBC_MINOR=36
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/requirements"
upgrade=()
fast_only=0
for option in "$@"; do
    case "$option" in
        --upgrade) upgrade=(--upgrade) ;;
        --fast) fast_only=1 ;;
        -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        *) echo "lock.sh: unknown option $option (--upgrade, --fast, --help)" >&2; exit 2 ;;
    esac
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/uv"
pip=("$work/uv/bin/python" -m pip --disable-pip-version-check)

lock_fast() {
    # requirements/fast.txt from the wheels pip download fetches for every Python and
    # machine above (one version for all: a missing wheel stops the lock, never a hash).
    local version python machine wheel wheels=() spec="$FAST_PACKAGE"
    version="$(sed -n "s/^$FAST_PACKAGE==\([^ ]*\).*$/\1/p" "$out/fast.txt" 2>/dev/null || true)"
    [ ${#upgrade[@]} -eq 0 ] && [ -n "$version" ] && spec="$FAST_PACKAGE==$version"
    for python in "${FAST_PYTHONS[@]}"; do
        for machine in "${FAST_MACHINES[@]}"; do
            # the tags such a machine's pip accepts (pip's --platform takes each as it is)
            local platforms=() minor
            for ((minor = FAST_GLIBC_MINOR; minor >= 5; minor--)); do
                platforms+=(--platform "manylinux_2_${minor}_$machine")
            done
            for minor in manylinux2014 manylinux2010 manylinux1; do
                platforms+=(--platform "${minor}_$machine")
            done
            rm -rf "$work/fast"
            "${pip[@]}" download --quiet --no-deps --only-binary=:all: --implementation cp \
                --python-version "$python" "${platforms[@]}" --dest "$work/fast" "$spec"
            wheel="$(find "$work/fast" -name '*.whl' -print -quit)"
            [ -n "$wheel" ] || { echo "lock.sh: no $spec wheel for $python $machine" >&2; exit 1; }
            if [ "$spec" = "$FAST_PACKAGE" ]; then  # the newest, for every other one too
                version="$(basename "$wheel" | cut -d- -f2)"
                spec="$FAST_PACKAGE==$version"
            fi
            wheels+=("$(basename "$wheel") $(sha256sum "$wheel" | cut -d' ' -f1)")
        done
    done
    {
        echo "# The phones' server's optional C HTTP parser, binary only: made by scripts/lock.sh"
        echo "# (installed by scripts/install-fast.sh, never by the other lock files' installs)."
        echo "# One hash per wheel, no sdist:"
        printf '#   %s\n' "${wheels[@]%% *}"
        printf '%s \\\n' "$spec"
        local n=0 entry
        for entry in "${wheels[@]}"; do
            n=$((n + 1))
            if [ "$n" -lt "${#wheels[@]}" ]; then
                printf '    --hash=sha256:%s \\\n' "${entry##* }"
            else
                printf '    --hash=sha256:%s\n' "${entry##* }"
            fi
        done
    } >"$out/fast.txt.new"
    mv "$out/fast.txt.new" "$out/fast.txt"
    echo "requirements/fast.txt: $spec, ${#wheels[@]} wheels"
}

if [ "$fast_only" -eq 1 ]; then
    install -d "$out"
    lock_fast
    exit 0
fi
"${pip[@]}" install --quiet "uv==$UV_VERSION"
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
lock_fast
echo "requirements/: $(grep -c '^[a-z0-9]' "$out/dev.txt") packages pinned with their hashes" \
    "($(grep -c '^[a-z0-9]' "$out/run.txt") for the app)"
