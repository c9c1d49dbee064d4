# shellcheck shell=bash
# Sourced by test.sh once .venv exists: debootstrap, qemu-user-static and binfmt-support, so
# that tests/test_deploy_arm64.py installs the companion in an arm64 Debian root through
# qemu (deploy/test-arm64.sh; ~7 min with its cached base root, 15 without; it skips,
# saying why, without root, binfmt_misc or the network; COMPANION_ARM64_TEST=0 skips it).
if ! apt_install debootstrap qemu-user-static binfmt-support; then
    echo "warning: could not install debootstrap and qemu-user-static: the arm64 install test will be skipped" >&2
fi
