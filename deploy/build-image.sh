#!/usr/bin/env bash
# A card image to flash: Debian 12 (Bookworm) for arm64 with Debian's own kernel
# (linux-image-arm64) and Raspberry Pi boot firmware (raspi-firmware), the companion
# installed by deploy/install.sh from the lock files, its service enabled, and first-boot
# settings read from companion.toml on the card's FAT partition (deploy/firstboot.py).
#
#     sudo nice -n 19 deploy/build-image.sh [--cache-dir DIR] [--out FILE] [--xz]
#     sudo deploy/build-image.sh --preflight   # can it run here? (exit 0 yes, 3 no: why)
#
# Built on this x86 machine: the root is made as deploy/test-arm64.sh makes its own (an
# arm64 debootstrap run through qemu-user-static, its base root cached), then the Debian
# packages of a bootable Pi (cached as a second layer, keyed by their list), then
# install.sh. The card is written without loop devices or mounts: the FAT partition by
# mkfs.vfat and mtools, the root and data partitions by `mke2fs -d`, the three put behind
# an MBR partition table. The data partition is /var: the saved games, their backups, the
# log, the network's leases and every other file written while the table runs, so that
# the root can be mounted read-only (`read_only = true` in companion.toml; first boot
# grows the data partition, not the root, onto the whole card). Debian's kernel and raspi-firmware boot a Raspberry Pi 3, 3+, 4, 400,
# Zero 2 W and CM3/CM4 (not a Pi 5, not the 32-bit Pi 1, 2 and Zero/Zero W); the same
# card also boots in qemu-system-aarch64's `virt` machine (tests/test_image_boot.py).
#
# Prints the image's path on its last line ("image: FILE"). An image of the same checkout
# and package lists is kept in the cache directory and used again.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out=""
xz=0
image_preflight=0
image_cache=/var/cache/table-companion-arm64
keep_root=0
rebuild=0

image_usage() {
    cat <<EOF
usage: sudo nice -n 19 $0 [options]

Build a flashable arm64 card image of Table Companion (Debian 12, Debian's kernel and
Raspberry Pi firmware; boots a Pi 3, 4, 400 or Zero 2 W).

  --cache-dir DIR   where the base root, the system layer and the image are kept
                    (default: $image_cache)
  --out FILE        copy the finished image to FILE too
  --xz              also write FILE.xz (or the cached image's .xz), ready for Imager
  --rebuild         build the image again even when one of this checkout is cached
  --keep            leave the arm64 root under the cache directory for a look inside
  --preflight       only check that this machine can build it: exit 0, or 3 with why
  -h, --help        this help
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --cache-dir)
            [ $# -ge 2 ] || { echo "build-image.sh: --cache-dir needs a directory" >&2; exit 2; }
            image_cache="$2"
            shift
            ;;
        --cache-dir=*) image_cache="${1#--cache-dir=}" ;;
        --out)
            [ $# -ge 2 ] || { echo "build-image.sh: --out needs a file" >&2; exit 2; }
            out="$2"
            shift
            ;;
        --out=*) out="${1#--out=}" ;;
        --xz) xz=1 ;;
        --rebuild) rebuild=1 ;;
        --keep) keep_root=1 ;;
        --preflight) image_preflight=1 ;;
        -h | --help) image_usage; exit 0 ;;
        *) echo "build-image.sh: unknown option $1" >&2; image_usage >&2; exit 2 ;;
    esac
    shift
done

# The arm64 root's steps (registries, the cached base root, chroot, install.sh) are
# deploy/test-arm64.sh's: one implementation for the install test and the image.
set --
ARM64_ROOT_LIBRARY=1
# shellcheck source=test-arm64.sh
source "$here/test-arm64.sh"
cache_dir="$image_cache"
keep="$keep_root"

#: the Debian packages of a Pi that boots: Debian's kernel, the Pi's boot firmware and
#: Wi-Fi firmware, an initramfs, NetworkManager (the table's Wi-Fi or its own hotspot),
#: Mesa's DRI drivers (SDL's KMS/DRM display draws through EGL/GBM: vc4 on a Pi,
#: kms_swrast on QEMU's virtio GPU), the network clock, and what first boot uses to grow
#: the root partition onto the whole card.
readonly IMAGE_PACKAGES=(
    linux-image-arm64 initramfs-tools raspi-firmware firmware-brcm80211 wireless-regdb
    network-manager wpasupplicant dnsmasq-base iw
    libgl1-mesa-dri libegl-mesa0
    systemd-timesyncd cloud-guest-utils e2fsprogs dosfstools fdisk
    locales ca-certificates less
)
readonly COMPONENTS="main non-free-firmware"
readonly BOOT_LABEL=RASPIFIRM
readonly ROOT_LABEL=RASPIROOT
#: the third partition, /var: what is written at run time (deploy/firstboot.py's DATA_LABEL)
readonly DATA_LABEL=TABLEDATA
readonly BOOT_MB=256
#: free room left in the root partition beyond what the files take: it keeps its size (the
#: data partition after it is the one grown onto the card), so room for updates of the
#: app (each keeps the version before: about 140 MB a version) and of Debian's packages
readonly ROOT_SPARE_MB=1024
#: free room in the data partition beyond /var's files (first boot grows it onto the card)
readonly DATA_SPARE_MB=256
readonly SETTINGS=companion.toml

install_host_tools() {
    # Beyond test-arm64.sh's: the tools that write the card's two file systems.
    local missing=()
    command -v mkfs.vfat >/dev/null || missing+=(dosfstools)
    command -v mcopy >/dev/null || missing+=(mtools)
    command -v sfdisk >/dev/null || missing+=(fdisk)
    mke2fs -V 2>&1 | grep -q 'mke2fs 1\.4[3-9]' || missing+=(e2fsprogs)
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]} failed"
    fi
    host_tools
}

image_preflight_check() {
    command -v mkfs.vfat >/dev/null || cannot "dosfstools not installed (mkfs.vfat)"
    command -v mcopy >/dev/null || cannot "mtools not installed (mcopy)"
    command -v sfdisk >/dev/null || cannot "fdisk not installed (sfdisk)"
    preflight_check
}

apt_list() {
    # install.sh's own Debian packages (the app's and the hotspot's), one line.
    bash -c 'source <(sed -n "/^readonly APT_PACKAGES=(/,/^)/p;/^readonly HOTSPOT_PACKAGES=/p" "$1")
        echo "${APT_PACKAGES[*]} ${HOTSPOT_PACKAGES[*]}"' _ "$source_dir/deploy/install.sh"
}

layer_tarball() {
    local key
    key="$(printf '%s|%s|%s|%s' "$(basename "$(base_tarball)")" "${IMAGE_PACKAGES[*]}" \
        "$(apt_list)" "$COMPONENTS" | sha256sum | cut -c1-12)"
    printf '%s/image-system-%s.tar' "$cache_dir" "$key"
}

checkout_hash() {
    # What goes into the image from this checkout (its files as install.sh sees them) and
    # the system layer it sits on: the same hash, the same image.
    {
        basename "$(layer_tarball)"
        tar -C "$source_dir" --exclude=.git --exclude=.venv --exclude=__pycache__ \
            --exclude='*.egg-info' --exclude=build --exclude=.pytest_cache \
            --exclude=.mypy_cache --exclude=.ruff_cache --exclude='*.so' \
            --exclude=engine_build.json --sort=name --mtime=@0 --owner=0 --group=0 \
            --numeric-owner -cf - . | sha256sum
    } | sha256sum | cut -c1-16
}

write_sources() {
    # Debian's mirror as this machine uses it, with the Pi's firmware component.
    local sources="$root/etc/apt/sources.list.d/debian.sources"
    {
        printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: %s\n' \
            "$mirror" "$SUITE" "$SUITE" "$COMPONENTS"
        printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
        if [ -n "$security" ]; then
            printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: %s\n' \
                "$security" "$SUITE" "$COMPONENTS"
            printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
        fi
    } >"$sources"
}

make_layer() {
    # The base root plus a Pi's boot packages and install.sh's, kept as a tarball.
    local tarball
    tarball="$(layer_tarball)"
    if [ -f "$tarball" ]; then
        say "cached: $tarball ($(du -m "$tarball" | cut -f1) MB)"
        return
    fi
    open_root
    write_sources
    install -d -m 0755 "$root/boot/firmware"
    # raspi-firmware writes config.txt and cmdline.txt from these at every kernel update
    # (what install.sh would add to config.txt would be lost at the next one).
    cat >"$root/etc/default/raspi-firmware" <<EOF
# The card's root partition, by label (deploy/build-image.sh).
ROOTPART=LABEL=$ROOT_LABEL
CONSOLES="tty1"
EOF
    cat >"$root/etc/default/raspi-firmware-custom" <<'EOF'
# Table Companion: the SoC's watchdog (systemd feeds it; a Pi that hangs whole resets).
dtparam=watchdog=on
EOF
    printf 'LANG=C.UTF-8\n' >"$root/etc/default/locale"
    in_root apt-get update -qq
    # The initramfs once (the kernel's own `update-initramfs -c`): every later package
    # with a hook would make it again (`-u`), and one takes ~25 min under emulation on a
    # loaded machine.
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends initramfs-tools >/dev/null
    local conf=/etc/initramfs-tools/update-initramfs.conf
    sed -i 's/^update_initramfs=.*/update_initramfs=no/' "$root$conf"
    local log="$cache_dir/system-layer-apt.log"
    # shellcheck disable=SC2046 # a list of package names
    # (--force-confold: keep /etc/default/raspi-firmware as written above, no prompt)
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        --no-install-recommends "${IMAGE_PACKAGES[@]}" $(apt_list) >"$log" 2>&1 ||
        { tail -n 40 "$log" >&2; die "apt-get install failed (all of it in $log)"; }
    sed -i 's/^update_initramfs=.*/update_initramfs=yes/' "$root$conf"
    # raspi-firmware's kernel hook: the kernel, the initramfs and the DTBs onto the FAT
    # partition, config.txt and cmdline.txt (whichever package dpkg configured first)
    in_root env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware
    in_root apt-get clean
    rm -rf "$root"/var/lib/apt/lists/*_Packages "$root/root/$APP"
    umount_all "$root"
    tar --numeric-owner -C "$root" -cf "$tarball.part" .
    mv "$tarball.part" "$tarball"
    rm -rf --one-file-system "$root"
    root=""
    say "cached the system layer as $tarball ($(du -m "$tarball" | cut -f1) MB)"
}

open_layer() {
    # open_root (test-arm64.sh) on the system layer instead of the bare base root.
    local layer
    layer="$(layer_tarball)"
    base_tarball() { printf '%s' "$layer"; }
    open_root
    write_sources
}

install_companion() {
    # install.sh as on a Pi, but for a card: the name 'table' unless first boot says
    # otherwise, no hotspot passphrase yet (each card makes its own at first boot).
    echo debian >"$root/etc/hostname"
    # shellcheck disable=SC2119 # install.sh with its defaults, as on a Pi
    install_sh
    local first
    first="$(readlink "$root/opt/$APP/venv")"
    ok "installed ${first%/venv}"
}

install_firstboot() {
    # The first-boot unit and its script; the settings file on the FAT partition.
    install -D -m 0755 "$source_dir/deploy/firstboot.py" \
        "$root/usr/local/lib/$APP/firstboot.py"
    install -D -m 0644 "$source_dir/deploy/systemd/$APP-firstboot.service" \
        "$root/etc/systemd/system/$APP-firstboot.service"
    in_root systemctl enable "$APP-firstboot.service" >/dev/null
    install -D -m 0644 "$source_dir/deploy/$SETTINGS" "$root/boot/firmware/$SETTINGS"
    ok "first boot reads /boot/firmware/$SETTINGS ($APP-firstboot.service enabled)"
}

seal_root() {
    # What must differ per card, or not be on it at all.
    # The root's options say rw or ro: first boot writes them (companion.toml's read_only,
    # deploy/firstboot.py); everything written at run time is on /var or in RAM.
    cat >"$root/etc/fstab" <<EOF
# <file system>     <mount point>   <type>  <options>                       <dump> <pass>
LABEL=$ROOT_LABEL   /               ext4    rw,noatime,errors=remount-ro    0      1
# The FAT partition: companion.toml holds a PIN and a Wi-Fi password until first boot
# has read them, so only root may read it (umask).
LABEL=$BOOT_LABEL   /boot/firmware  vfat    rw,umask=0077,noatime           0      2
# The data partition: the saved games and their backups (/var/lib/table-companion), the
# log, the network's leases, the clock's last time; always writable.
LABEL=$DATA_LABEL   /var            ext4    rw,noatime                      0      2
# Scratch files in RAM, never on the card.
tmpfs               /tmp            tmpfs   mode=1777,nosuid,nodev,size=25%,nr_inodes=1m 0 0
EOF
    # NetworkManager's resolv.conf in /run, reached through a link: never a write to /etc.
    ln -sfn ../run/NetworkManager/resolv.conf "$root/etc/resolv.conf"
    : >"$root/etc/machine-id"  # each card makes its own at first boot
    rm -f "$root/var/lib/dbus/machine-id" "$root/etc/apt/apt.conf.d/90check-valid"
    rm -rf "$root/usr/local/share/table-companion-test" "$root/root/$APP" \
        "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/tmp/* \
        "$root"/var/tmp/*
    in_root apt-get clean
    # The console on the screen stays off: the companion draws there (its unit conflicts
    # with getty@tty1); a serial console on the header's UART is raspi-firmware's choice.
    [ -s "$root/boot/firmware/config.txt" ] || die "raspi-firmware wrote no config.txt"
    ls "$root"/boot/firmware/vmlinuz-* >/dev/null 2>&1 ||
        die "no kernel on the FAT partition (raspi-firmware's hook did not run)"
    ok "sealed: fstab by label (/var on its own partition), no machine-id, no build leftovers"
}

write_image() {
    # Three file systems from the root's directories, behind an MBR (the Pi's boot ROM
    # reads only MBR and FAT): 1 FAT32 $BOOT_LABEL, 2 ext4 $ROOT_LABEL (/), 3 ext4
    # $DATA_LABEL (/var, last: first boot grows it onto the whole card).
    local image="$1" work boot_img root_img data_img root_mb used_mb data_mb var_mb
    umount_all "$root"
    work="$(mktemp -d "$cache_dir/image.XXXXXX")"
    boot_img="$work/boot.img"
    root_img="$work/root.img"
    data_img="$work/data.img"
    mkfs.vfat -F 32 -n "$BOOT_LABEL" -C "$boot_img" $((BOOT_MB * 1024)) >/dev/null
    mcopy -s -p -i "$boot_img" "$root"/boot/firmware/* ::/
    # /var's files go onto the data partition, its directory (with its owner and mode)
    # stays on the root as the empty mount point; so does the FAT partition's.
    var_mb="$(du -sxm "$root/var" | cut -f1)"
    data_mb=$((var_mb + var_mb / 10 + DATA_SPARE_MB))
    mke2fs -q -t ext4 -L "$DATA_LABEL" -E root_owner=0:0 -d "$root/var" "$data_img" \
        "${data_mb}M"
    mv "$root/boot/firmware" "$work/firmware"
    install -d -m 0755 "$root/boot/firmware"
    mv "$root/var" "$work/var"
    install -d -m 0755 "$root/var"
    used_mb="$(du -sxm "$root" | cut -f1)"
    root_mb=$((used_mb + used_mb / 10 + ROOT_SPARE_MB))
    mke2fs -q -t ext4 -L "$ROOT_LABEL" -E root_owner=0:0 -d "$root" "$root_img" "${root_mb}M"
    rmdir "$root/boot/firmware" "$root/var"
    mv "$work/firmware" "$root/boot/firmware"
    mv "$work/var" "$root/var"
    local total=$((4 + BOOT_MB + root_mb + data_mb))
    rm -f "$image.part"
    truncate -s "${total}M" "$image.part"
    sfdisk -q "$image.part" <<EOF
label: dos
unit: sectors
start=8192, size=$((BOOT_MB * 2048)), type=c, bootable
start=$((8192 + BOOT_MB * 2048)), size=$((root_mb * 2048)), type=83
start=$((8192 + (BOOT_MB + root_mb) * 2048)), size=$((data_mb * 2048)), type=83
EOF
    dd if="$boot_img" of="$image.part" bs=1M seek=4 conv=notrunc,sparse status=none
    dd if="$root_img" of="$image.part" bs=1M seek=$((4 + BOOT_MB)) conv=notrunc,sparse \
        status=none
    dd if="$data_img" of="$image.part" bs=1M seek=$((4 + BOOT_MB + root_mb)) \
        conv=notrunc,sparse status=none
    rm -rf "$work"
    mv "$image.part" "$image"
    ok "image: $total MB (FAT $BOOT_MB MB, root $root_mb MB with $used_mb MB of files," \
        "data $data_mb MB with $var_mb MB of /var)"
}

image_main() {
    if [ "$image_preflight" -eq 1 ]; then
        image_preflight_check
        return 0
    fi
    total_start="$(date +%s)"
    trap cleanup EXIT
    install -d -m 0755 "$cache_dir"
    exec 8>"$cache_dir/.image-lock"
    if ! flock -n 8; then
        say "another image build is running with $cache_dir: waiting for it"
        flock 8
    fi
    timed "host tools" install_host_tools
    registries
    # The base root is test-arm64.sh's (and its lock's).
    exec 9>"$cache_dir/.lock"
    flock 9
    timed "base root (debootstrap, or the cached tarball)" make_base
    flock -u 9
    timed "system layer: kernel, Pi firmware, NetworkManager (or the cached tarball)" make_layer
    local image
    image="$cache_dir/table-companion-arm64-$(checkout_hash).img"
    if [ -f "$image" ] && [ "$rebuild" -eq 0 ]; then
        say "cached: $image (the same checkout and packages)"
    else
        rm -f "$cache_dir"/table-companion-arm64-*.img "$cache_dir"/table-companion-arm64-*.img.xz
        timed "unpack the system layer" open_layer
        timed "deploy/install.sh" install_companion
        timed "first-boot settings" install_firstboot
        timed "seal the root" seal_root
        timed "write the card image" write_image "$image"
    fi
    if [ "$xz" -eq 1 ] && [ ! -f "$image.xz" ]; then
        timed "compress (xz)" xz -T0 -k -6 "$image"
    fi
    if [ -n "$out" ]; then
        cp --sparse=always "$image" "$out"
        [ "$xz" -eq 0 ] || cp "$image.xz" "$out.xz"
        image="$out"
    fi
    printf '\n==> Summary\n'
    print_timings
    say "image: $image"
}

image_main
