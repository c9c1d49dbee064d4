# shellcheck shell=bash
# What the deploy tests that build a Debian root share (sourced by deploy/test-fresh.sh and
# deploy/test-arm64.sh, never run): the step timings, the preflight's answers, the
# registries as this machine's apt and pip use them, the debootstrapped base root cached as
# a tarball, and the root's apt sources.
#
# The sourcing script sets, before calling these: ME (its name, for messages), SUITE, APP,
# BASE_PACKAGES, base_arch (the root's Debian architecture), cache_dir, fresh_base, root
# (once unpacked), and PIP_ENV_AS: how a setting reaches the root's pip ("--setenv=" for
# systemd-nspawn, "" for env(1) in a chroot).
# shellcheck disable=SC2034,SC2154 # those are the sourcing script's; what is set here, it reads

#: exit status of --preflight when this machine cannot run the test (the reason on stdout)
readonly CANNOT_RUN=3
#: where the certificate authorities pip trusts here are put in the root
readonly ROOT_PIP_CERT=/usr/local/share/table-companion-test/pip-ca.crt

step_names=()
step_seconds=()
failures=0
current_step=""
total_start=0

say() { printf '%s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }
die() { printf '%s: %s\n' "$ME" "$*" >&2; exit 1; }

timed() {
    # Run "$@" as the step named $1, printing and recording how long it took. A step that
    # fails stops the test (set -e); checks record their failures and carry on.
    local name="$1" start end
    shift
    printf '\n==> %s\n' "$name"
    current_step="$name"
    start="$(date +%s)"
    "$@"
    end="$(date +%s)"
    current_step=""
    step_names+=("$name")
    step_seconds+=("$((end - start))")
    printf -- '--- %s: %ss\n' "$name" "$((end - start))"
}

print_timings() {
    # How long each finished step took, and the total so far.
    local i
    for i in "${!step_names[@]}"; do
        printf '%6ss  %s\n' "${step_seconds[$i]}" "${step_names[$i]}"
    done
    printf '%6ss  total\n' "$(($(date +%s) - total_start))"
}

# --- the preflight -----------------------------------------------------------------------

reachable() {
    # Whether URL $1 answers an HTTP request within 15 s (trusting CA file $2 if given).
    python3 - "$1" "${2:-}" >/dev/null 2>&1 <<'PY'
import ssl, sys, urllib.request
context = ssl.create_default_context(cafile=sys.argv[2] or None)
request = urllib.request.Request(sys.argv[1], method="HEAD")
with urllib.request.urlopen(request, timeout=15, context=context):
    pass
PY
}

cannot() {
    printf 'cannot run here: %s\n' "$*"
    exit "$CANNOT_RUN"
}

answered=""
registries_answer() {
    # The preflight's last checks: apt knows Debian's mirror and it answers, and so does
    # pip's index (both said in $answered).
    mirror="$(repo_uri "$SUITE")"
    [ -n "$mirror" ] ||
        cannot "apt has no Debian $SUITE lists (/etc/apt/sources.list*; apt-get update)"
    reachable "${mirror%/}/dists/$SUITE/Release" ||
        cannot "Debian's mirror ${mirror%/}/dists/$SUITE/Release does not answer"
    registries >/dev/null
    local index="${pip_index:-https://pypi.org/simple/}"
    reachable "${index%/}/pip/" "$pip_cert" || cannot "pip's index $index does not answer"
    answered="$mirror and $index answer"
}

# --- the registries as this machine's apt and pip use them ----------------------------------

mirror=""
security=""
pip_env=()
pip_cert=""
pip_index=""

repo_uri() {
    # The address apt here fetches suite $1 from (empty when it has none).
    # shellcheck disable=SC2016 # $(REPO_URI) is apt's placeholder, not the shell's
    apt-get indextargets --format '$(REPO_URI)' "Codename: $1" 'Identifier: Packages' |
        head -n 1
}

registries() {
    mirror="$(repo_uri "$SUITE")"
    if [ -z "$mirror" ]; then
        say "apt has no $SUITE lists yet: apt-get update"
        apt-get update -qq
        mirror="$(repo_uri "$SUITE")"
    fi
    security="$(repo_uri "$SUITE-security")"
    [ -n "$mirror" ] || die "no Debian $SUITE mirror in /etc/apt/sources.list*"
    say "Debian mirror: $mirror${security:+ (security: $security)}"
    # pip's own settings here (its config files and PIP_* variables): the index, and the
    # certificate authorities it trusts for it, which the root's pip must trust as well;
    # nothing else of this machine's pip settings (no local wheel folders, no caches).
    local settings="" index cert
    if command -v pip3 >/dev/null; then
        settings="$(pip3 config list 2>/dev/null || true)"
    fi
    index="$(pip_setting index-url "$settings")"
    cert="$(pip_setting cert "$settings")"
    if [ -n "$index" ]; then
        pip_index="$index"
        pip_env+=("${PIP_ENV_AS}PIP_INDEX_URL=$index")
        say "pip index: $index"
    else
        say "pip index: pip's default (PyPI)"
    fi
    if [ -n "$cert" ] && [ -f "$cert" ]; then
        pip_cert="$cert"
        pip_env+=("${PIP_ENV_AS}PIP_CERT=$ROOT_PIP_CERT")
        say "pip trusts: $cert (as $ROOT_PIP_CERT in the root)"
    fi
}

pip_setting() {
    # The value of pip setting $1 in `pip config list` output $2: PIP_* first, then files.
    local scope value
    for scope in ":env:" "global" "user" "site"; do
        value="$(sed -n "s/^$scope\\.$1='\\(.*\\)'\$/\\1/p" <<<"$2" | tail -n 1)"
        if [ -n "$value" ]; then
            printf '%s\n' "$value"
            return
        fi
    done
}

# --- the base root -----------------------------------------------------------------------

base_tarball() {
    printf '%s/%s-%s-%s.tar' "$cache_dir" "$SUITE" "$base_arch" "$(printf '%s' \
        "$BASE_PACKAGES" | sha256sum | cut -c1-12)"
}

make_base() {
    local tarball new
    tarball="$(base_tarball)"
    if [ -f "$tarball" ] && [ "$fresh_base" -eq 0 ]; then
        say "cached: $tarball ($(du -m "$tarball" | cut -f1) MB)"
        return
    fi
    install -d -m 0755 "$cache_dir"
    new="$(mktemp -d "$cache_dir/debootstrap.XXXXXX")"
    chmod 0755 "$new"
    debootstrap --arch="$base_arch" --variant=minbase --include="$BASE_PACKAGES" \
        --keyring=/usr/share/keyrings/debian-archive-keyring.gpg "$SUITE" "$new" "$mirror" ||
        { umount_all "$new"; rm -rf --one-file-system "$new"; return 1; }
    umount_all "$new"
    rm -rf "$new"/var/cache/apt/archives/*.deb "$new"/var/lib/apt/lists/*_Packages
    tar --numeric-owner -C "$new" -cf "$tarball.part" .
    mv "$tarball.part" "$tarball"
    rm -rf --one-file-system "$new"
    say "cached the base root as $tarball ($(du -m "$tarball" | cut -f1) MB)"
}

umount_all() {
    # Unmount everything under $1, deepest first.
    local target
    while read -r target; do
        umount -l "$target" || true
    done < <(awk -v root="$1" '$2 == root || index($2, root "/") == 1 {print $2}' \
        /proc/self/mounts | sort -r)
}

root_registries() {
    # The unpacked root fetches from the registries this machine uses: apt's sources (the
    # mirror, its updates and security) and the certificate authorities pip trusts here.
    if [ -n "$pip_cert" ]; then
        install -D -m 0644 "$pip_cert" "$root$ROOT_PIP_CERT"
    fi
    local sources="$root/etc/apt/sources.list.d/debian.sources"
    {
        printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\n' \
            "$mirror" "$SUITE" "$SUITE"
        printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
        if [ -n "$security" ]; then
            printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n' \
                "$security" "$SUITE"
            printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
        fi
    } >"$sources"
    rm -f "$root/etc/apt/sources.list"
    # A snapshot mirror has expired Release files: keep this host's view of that.
    local valid
    valid="$(apt-config dump Acquire::Check-Valid-Until | awk '{print $2}' | tr -d '";')"
    if [ "$valid" = false ]; then
        echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/90check-valid"
    fi
}
