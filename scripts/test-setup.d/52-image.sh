# shellcheck shell=bash
# Sourced by test.sh once .venv exists: qemu-system-aarch64 (qemu-system-arm) and the tools
# that write a card image's file systems (dosfstools, mtools, fdisk), so that
# tests/test_image_boot.py builds the card image (deploy/build-image.sh, on top of
# 50-arm64.sh's debootstrap and qemu-user-static) and boots it in QEMU's virt machine
# (it skips, saying why, without root or the network). Opt-in for now: only
# COMPANION_IMAGE_TEST=1 runs it, and only then is anything installed here.
if [ "${COMPANION_IMAGE_TEST:-0}" = 1 ]; then
    if ! apt_install qemu-system-arm dosfstools mtools fdisk; then
        echo "warning: could not install qemu-system-arm and mtools: the card image test will be skipped" >&2
    fi
fi
