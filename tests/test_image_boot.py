"""The card image, booted for real: deploy/build-image.sh's image in qemu-system-aarch64.

The `virt` machine with a virtio GPU at 800x480 boots the card's own kernel and initramfs
(taken from its FAT partition) with its root partition, as a Pi would; first boot applies a
companion.toml written onto the FAT partition as a maker would (name, language, banker PIN,
Wi-Fi). Then, as a person would: the table screen is taken from QEMU (its monitor's
screendump), its QR code is read (zbarimg) and opened through the forwarded web port; the
banker joins with the first-boot PIN and plays; QEMU is killed mid-game (a power cut), the
card boots again and every acknowledged move is there. The maker's settings turn the
read-only root on: the whole game is played on a root mounted read-only, its saved games
on the card's data partition (/var), which the power cut must not cost a move either; in
each boot `companion backup` without --out, started in /, writes onto that partition. A
third boot turns the read-only root off again as the guide says (a companion.toml with
read_only = false): the root is writable, and every game is still there.

It also prints the companion's RSS and start time as systemd saw them inside the guest:
EMULATED figures (TCG, an x86 core emulating a Cortex-A72), not a Pi's.

Opt-in for now (COMPANION_IMAGE_TEST=1; see OPT_IN), where it can run (root,
qemu-system-aarch64, zbarimg, and what `deploy/build-image.sh --preflight` needs);
COMPANION_IMAGE_TEST=0 skips it. The image is
cached by the checkout's hash (COMPANION_IMAGE_CACHE, default
/var/cache/table-companion-arm64), or COMPANION_IMAGE=FILE boots a given image without
building; every wait is bounded.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.bench.probe import HttpPhone
from tools.bench.proc import free_port

REPO = Path(__file__).resolve().parent.parent
BUILD = REPO / "deploy" / "build-image.sh"
QEMU = "qemu-system-aarch64"
#: an uncached build (debootstrap, the system layer, install.sh): the system layer alone
#: took 41 min (2478 s, its initramfs under qemu-user) on this project's loaded machine
BUILD_TIMEOUT = 90 * 60
#: from QEMU's start to the companion's screen, under TCG on a loaded machine
BOOT_TIMEOUT = 12 * 60
CANNOT_RUN = 3
#: prctl(2)'s option: a signal for this process when its parent dies
PR_SET_PDEATHSIG = 1
#: the default of COMPANION_IMAGE_TEST: "0" (opt-in). The whole boot passed on this
#: project's machine (2026-11-27), but a first build takes 45-60 min of a shared machine
OPT_IN = "0"
NAME = "kitchen"
PIN = "2468"
#: the guest's address on QEMU's user network (its DHCP's first): what a phone on the
#: table's network opens, so what the screen's QR code must say (not the loopback)
GUEST_ADDRESS = "10.0.2.15"
JOIN_PREFIX = f"http://{GUEST_ADDRESS}:8080/join/"
LANGUAGE = "de"
WIFI_PASSWORD = "correct horse battery"
SETTINGS = f"""[table]
name = "{NAME}"
language = "{LANGUAGE}"
banker_pin = "{PIN}"

[wifi]
ssid = "Table Net"
password = "{WIFI_PASSWORD}"
country = "DE"
hotspot = true

[system]
read_only = true
"""
#: the card's data partition (/var), the third: deploy/build-image.sh's DATA_LABEL
DATA_LABEL = "TABLEDATA"
#: printed on the serial console from inside the guest (the kernel's systemd.run= command,
#: in the test's copy of the card only): the companion's figures as systemd has them
PROBE = r"""#!/bin/sh
# systemd.run's unit is ordered before basic.target: start the loop as a unit of its own
if [ "$1" != loop ]; then
    exec systemd-run --no-block --unit=image-test-probe /bin/sh "$0" loop
fi
n=0
until systemctl -q is-active table-companion.service || [ $n -ge 900 ]; do
    sleep 1; n=$((n + 1))
done
# the root as the companion runs on it: its mount options, whether a write to it fails,
# and where the saved games are (first boot's settings are applied by now)
echo "PROBE root_options=$(awk '$2 == "/" {o = $4} END {print o}' /proc/mounts)" >/dev/console
if said=$(sh -c ': >/image-test-probe-write' 2>&1); then
    rm -f /image-test-probe-write; said=written
else
    said="refused: ${said##*: }"
fi
echo "PROBE root_write=$said" >/dev/console
echo "PROBE games_on=$(findmnt -n -o SOURCE,TARGET,LABEL --target /var/lib/table-companion |
    tr -s ' ' ,)" >/dev/console
# the saved games there, and `companion backup` as a person runs it (from /, no --out)
echo "PROBE journals=$(find /var/lib/table-companion/games -name '*.journal' | wc -l)" \
    >/dev/console
said=$(cd / && /usr/local/bin/companion backup 2>&1 | tail -n 1)
echo "PROBE backup=$said" >/dev/console
# who made the framebuffer the screen shows (the DRM plane's), from the DRM debug files
grep -qs ' /sys/kernel/debug ' /proc/mounts || mount -t debugfs none /sys/kernel/debug
while [ $n -lt 3600 ]; do
    pid=$(systemctl show -P MainPID table-companion.service)
    echo "PROBE scanout_by=$(awk '/^plane\[/ {p = 0} /plane-0$/ {p = 1}
        p && /allocated by =/ {print $4; exit}' /sys/kernel/debug/dri/0/state 2>/dev/null)" \
        >/dev/console
    echo "PROBE rss_kb=$(awk '/^VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null)" \
        "hwm_kb=$(awk '/^VmHWM/ {print $2}' /proc/$pid/status 2>/dev/null)" \
        "start_us=$(systemctl show -P ExecMainStartTimestampMonotonic table-companion.service)" \
        "ready_us=$(systemctl show -P ActiveEnterTimestampMonotonic table-companion.service)" \
        "restarts=$(systemctl show -P NRestarts table-companion.service)" >/dev/console
    sleep 10; n=$((n + 10))
done
"""


def why_not() -> str | None:
    """Why the image boot test cannot run here, or None."""
    if os.environ.get("COMPANION_IMAGE_TEST", OPT_IN) != "1":
        return ("COMPANION_IMAGE_TEST is not 1 (building the card image takes 30-60 min "
                "the first time, booting it three times about 10)")
    if os.geteuid() != 0:
        return "needs root (debootstrap, chroot)"
    for tool, package in ((QEMU, "qemu-system-arm"), ("zbarimg", "zbar-tools"),
                          ("mcopy", "mtools")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed ({package}; ./test.sh installs it)"
    result = subprocess.run(["bash", str(BUILD), "--preflight"], capture_output=True,
                            text=True, timeout=120, check=False)
    if result.returncode == CANNOT_RUN:
        return result.stdout.strip()
    assert result.returncode == 0, f"--preflight failed: {result.stdout}{result.stderr}"
    return None


@pytest.fixture(scope="module")
def image() -> Path:
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    given = os.environ.get("COMPANION_IMAGE")
    if given:  # an image built before (deploy/build-image.sh --out FILE): boot that one
        assert Path(given).is_file(), f"COMPANION_IMAGE={given}: no such file"
        return Path(given)
    cache = os.environ.get("COMPANION_IMAGE_CACHE", "/var/cache/table-companion-arm64")
    try:
        result = subprocess.run(["nice", "-n", "19", "bash", str(BUILD), "--cache-dir", cache],
                                capture_output=True, text=True, timeout=BUILD_TIMEOUT,
                                check=False)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        pytest.fail(f"deploy/build-image.sh took over {BUILD_TIMEOUT} s:\n{out[-4000:]}")
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-4000:]
    print(result.stdout[result.stdout.rfind("==> Summary"):])
    found = re.search(r"^image: (\S+)$", result.stdout, re.M)
    assert found, result.stdout[-2000:]
    return Path(found.group(1))


def partitions(disk: Path) -> list[dict[str, int]]:
    table = json.loads(subprocess.run(["sfdisk", "--json", str(disk)], capture_output=True,
                                      text=True, check=True).stdout)
    return table["partitiontable"]["partitions"]  # type: ignore[no-any-return]


class Card:
    """A copy of the image, as a card written from it, and its FAT partition."""

    def __init__(self, image: Path, folder: Path) -> None:
        self.disk = folder / "card.img"
        subprocess.run(["cp", "--sparse=always", str(image), str(self.disk)], check=True)
        # a card larger than the image: first boot grows the root onto it
        with self.disk.open("r+b") as f:
            f.truncate(self.disk.stat().st_size + 512 * 1024 * 1024)
        self.fat = f"{self.disk}@@{partitions(self.disk)[0]['start'] * 512}"
        self.folder = folder

    def files(self) -> list[str]:
        listing = subprocess.run(["mdir", "-b", "-i", self.fat, "::/"], capture_output=True,
                                 text=True, check=True, env={**os.environ,
                                                             "MTOOLS_SKIP_CHECK": "1"}).stdout
        return [line.removeprefix("::/").strip() for line in listing.splitlines()]

    def get(self, name: str) -> bytes:
        target = self.folder / name
        subprocess.run(["mcopy", "-o", "-i", self.fat, f"::/{name}", str(target)],
                       check=True, env={**os.environ, "MTOOLS_SKIP_CHECK": "1"})
        return target.read_bytes()

    def put(self, name: str, data: str) -> None:
        source = self.folder / f"put-{name}"
        source.write_text(data)
        subprocess.run(["mcopy", "-o", "-i", self.fat, str(source), f"::/{name}"],
                       check=True, env={**os.environ, "MTOOLS_SKIP_CHECK": "1"})


def die_with_parent() -> None:
    """In QEMU's process before it starts: the kernel kills it when the test's process
    ends, however that ends (a SIGTERM or SIGKILL to pytest runs no `finally`)."""
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class Machine:
    """qemu-system-aarch64 booting the card: serial console to a file, the monitor on a
    socket, the web port forwarded to the loopback only (the guest reaches nothing else)."""

    def __init__(self, card: Card, kernel: Path, initrd: Path, name: str) -> None:
        self.port = free_port()
        self.serial = card.folder / f"{name}-serial.log"
        self.monitor = card.folder / f"{name}-monitor.sock"
        self.started = time.monotonic()
        append = ("root=LABEL=RASPIROOT rw rootwait console=ttyAMA0 net.ifnames=0 "
                  "systemd.journald.forward_to_console=1 "
                  'systemd.run="/bin/sh /boot/firmware/probe.sh" '
                  "systemd.run_success_action=none systemd.run_failure_action=none "
                  # systemd.run alone makes kernel-command-line.target the default target
                  # (nothing else starts): the card's own target, with the probe wanted
                  "systemd.unit=multi-user.target systemd.wants=kernel-command-line.service")
        self.proc = subprocess.Popen(
            ["nice", "-n", "5", QEMU, "-M", "virt", "-cpu", "cortex-a72", "-smp", "2",
             "-m", "1024", "-kernel", str(kernel), "-initrd", str(initrd), "-append", append,
             "-drive", f"if=none,id=card,file={card.disk},format=raw,cache=writeback",
             "-device", "virtio-blk-pci,drive=card",
             "-device", "virtio-gpu-pci,xres=800,yres=480",
             "-netdev", f"user,id=net,restrict=on,hostfwd=tcp:127.0.0.1:{self.port}-:8080",
             "-device", "virtio-net-pci,netdev=net,romfile=", "-display", "none", "-no-reboot",
             "-serial", f"file:{self.serial}",
             "-monitor", f"unix:{self.monitor},server,nowait"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=die_with_parent)

    def log(self) -> str:
        return self.serial.read_text(errors="replace") if self.serial.exists() else ""

    def wait_for(self, pattern: str, timeout: float) -> re.Match[str]:
        """The first match of `pattern` in the serial log, waiting at most `timeout` s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.log(), re.M)
            if found:
                return found
            if self.proc.poll() is not None:
                pytest.fail(f"QEMU ended ({self.proc.returncode}): "
                            f"{self.proc.stderr.read() if self.proc.stderr else b''!r}\n"
                            f"{self.log()[-3000:]}")
            time.sleep(1)  # polling a file QEMU appends to: no event to wait on
        pytest.fail(f"no {pattern!r} within {timeout} s:\n{self.log()[-4000:]}")

    def command(self, line: str) -> str:
        """One monitor command; its answer up to the next prompt."""
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(60)
            sock.connect(str(self.monitor))
            said = b""
            while not said.endswith(b"(qemu) "):
                said += sock.recv(4096)
            sock.sendall(line.encode() + b"\n")
            said = b""
            while not said.endswith(b"(qemu) "):
                chunk = sock.recv(4096)
                if not chunk:
                    break
                said += chunk
            return said.decode(errors="replace")

    def screenshot(self, png: Path) -> bool:
        """The virtio GPU's scanout, as QEMU has it, saved as PNG (False: none yet)."""
        ppm = png.with_suffix(".ppm")
        ppm.unlink(missing_ok=True)
        try:
            self.command(f"screendump {ppm}")
        except (FileNotFoundError, ConnectionRefusedError):  # QEMU not listening yet
            return False
        if not ppm.exists() or ppm.stat().st_size == 0:
            return False
        import pygame
        pygame.image.save(pygame.image.load(str(ppm)), str(png))
        return True

    def power_cut(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        if self.proc.stderr is not None:
            self.proc.stderr.close()

    def shut_down(self) -> None:
        if self.proc.poll() is None:
            self.power_cut()


def read_qr(png: Path) -> str:
    """The QR code on a screenshot, read by zbarimg; the game's screen draws it small (one
    or two pixels a module, which a phone's camera resolves on the real screen but zbarimg
    not always on the screenshot): then read again from the pixels, each one made 4x4."""
    result = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True,
                            text=True, timeout=60, check=False)
    if result.stdout.strip():
        return result.stdout.strip()
    import pygame
    shot = pygame.image.load(str(png))
    bigger = png.with_name(f"{png.stem}-x4.png")
    pygame.image.save(pygame.transform.scale_by(shot, 4), str(bigger))  # nearest pixel
    result = subprocess.run(["zbarimg", "--quiet", "--raw", str(bigger)], capture_output=True,
                            text=True, timeout=60, check=False)
    return result.stdout.strip()


def wait_for_qr(machine: Machine, folder: Path, timeout: float,
                spent: str = "") -> tuple[str, Path]:
    """The screen's join QR code once the companion drew it with the address a phone on the
    table's network reaches (the screen, read as a phone's camera would), and the
    screenshot it was read from; not the `spent` link (the table shows a new one)."""
    deadline = time.monotonic() + timeout
    shot = folder / "screen.png"
    text = ""
    while time.monotonic() < deadline:
        text = read_qr(shot) if machine.screenshot(shot) else ""
        if text.startswith(JOIN_PREFIX) and text != spent:
            return text, shot
        if "running without a screen" in machine.log():
            pytest.fail("the companion started headless:\n" + machine.log()[-3000:])
        time.sleep(5)  # the screen is only seen by taking it again
    pytest.fail(f"no join QR code for {JOIN_PREFIX} on the screen within {timeout} s (the "
                f"last read: {text!r}):\n{machine.log()[-4000:]}")


def scanout_owner(machine: Machine) -> str:
    """The process that made the framebuffer on the screen's plane, as the guest's DRM
    debug files last said ("" until one has)."""
    owners = re.findall(r"^PROBE scanout_by=(\S*)", machine.log(), re.M)
    return owners[-1] if owners else ""


def mdns(log: str) -> dict[str, list[str]]:
    """What avahi-daemon said in a boot's log: the names it took, its name conflicts, the
    services it announced and the interfaces it joined."""
    return {
        "names": re.findall(r"avahi-daemon\[\d+\]: Server startup complete\. Host name is "
                            r"(\S+?)\.local\.", log),
        "conflicts": re.findall(r"avahi-daemon\[\d+\]: Host name conflict, retrying with "
                                r"(\S+)", log),
        "services": re.findall(r'avahi-daemon\[\d+\]: Service "([^"]+)" \(\S+\) '
                               r"successfully established", log),
        "interfaces": re.findall(r"avahi-daemon\[\d+\]: New relevant interface "
                                 r"(\S+) for mDNS", log),
    }


def probe_root(machine: Machine) -> dict[str, str]:
    """The root's mount options, what a write to it said, the mount holding the saved
    games (SOURCE,TARGET,LABEL), how many journals are there and what `companion backup`
    without --out said, as the probe saw them once the companion ran."""
    found = machine.wait_for(r"^PROBE backup=.*$", 300)
    log = machine.log()
    return {key: (re.findall(rf"^PROBE {key}=(.*?)\r?$", log, re.M) or [""])[-1]
            for key in ("root_options", "root_write", "games_on", "journals", "backup")} | {
        "seen": found.group(0)}


def ext4_files(disk: Path, number: int, folder: Path, path: str) -> list[str]:
    """The names in directory `path` of the card's ext4 partition `number` (1-based), read
    from a copy of it whose journal e2fsck replayed first (as the next mount would): after
    a power cut the newest files may be in the journal only."""
    part = partitions(disk)[number - 1]
    copy = folder / f"partition-{number}.img"
    subprocess.run(["dd", f"if={disk}", f"of={copy}", "bs=512", f"skip={part['start']}",
                    f"count={part['size']}", "conv=sparse", "status=none"], check=True,
                   timeout=600)
    fsck = subprocess.run(["e2fsck", "-f", "-y", str(copy)], capture_output=True, text=True,
                          timeout=600, check=False)
    assert fsck.returncode in (0, 1), fsck.stdout + fsck.stderr  # 1: errors corrected
    listing = subprocess.run(["debugfs", "-R", f"ls -p {path}", str(copy)],
                             capture_output=True, text=True, timeout=120, check=True).stdout
    copy.unlink()
    return [fields[5] for line in listing.splitlines()
            if len(fields := line.split("/")) > 6 and fields[5] not in (".", "..")]


def probe_figures(machine: Machine) -> dict[str, int]:
    lines = re.findall(r"^PROBE (rss_kb=.*)$", machine.log(), re.M)
    assert lines, machine.log()[-3000:]
    return {key: int(value) for key, value in re.findall(r"(\w+)=(\d+)", lines[-1])}


def banker(port: int, join_url: str, pin: str) -> tuple[HttpPhone, int]:
    """The banker's phone through the forwarded port; its Origin is the name phones open
    (http://NAME.local:8080), which the table accepts only if first boot named it so."""
    phone = HttpPhone(f"http://127.0.0.1:{port}", timeout=60)
    phone.base = f"http://{NAME}.local:8080"
    path = re.sub(r"^https?://[^/]+", "", join_url)
    return phone, phone.join(f"http://{NAME}.local:8080{path}", "banker", pin)


@pytest.fixture(scope="module")
def booted(image: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    """Three boots of one card, with a power cut before each of the next two (the third
    with the read-only root turned off), and what each showed."""
    folder = tmp_path_factory.mktemp("card")
    card = Card(image, folder)
    assert len(partitions(card.disk)) == 3, partitions(card.disk)  # FAT, root, data
    kernels = [f for f in card.files() if f.startswith("vmlinuz-")]
    initrds = [f for f in card.files() if f.startswith("initrd.img-")]
    assert kernels and initrds, card.files()
    kernel, initrd = folder / "vmlinuz", folder / "initrd.img"
    kernel.write_bytes(card.get(kernels[-1]))
    initrd.write_bytes(card.get(initrds[-1]))
    card.put("companion.toml", SETTINGS)
    card.put("probe.sh", PROBE)
    size_before = partitions(card.disk)[2]["size"]
    seen: dict[str, object] = {}
    first = Machine(card, kernel, initrd, "first")
    try:
        join_url, shot = wait_for_qr(first, folder, BOOT_TIMEOUT)
        seen["first_boot_s"] = round(time.monotonic() - first.started)
        shutil.copy(shot, folder / "first-screen.png")
        seen["screen"] = folder / "first-screen.png"
        seen["join_url"] = join_url
        phone, wrong = banker(first.port, join_url, "1111")
        seen["wrong_pin_status"] = wrong
        phone.close()
        # a wrong PIN spends the link (one guess per link): the screen shows a new one
        join_url, _shot = wait_for_qr(first, folder, 120, spent=join_url)
        phone, status = banker(first.port, join_url, PIN)
        assert status == 302, status
        status, headers, page = phone.request("GET", "/")
        for _ in range(3):  # a joined phone is sent on to its own page (the banker's)
            if status not in (302, 303):
                break
            status, headers, page = phone.request(
                "GET", re.sub(r"^https?://[^/]+", "", headers.get("location", "/")))
        assert status == 200, (status, headers)
        seen["page"] = page.decode(errors="replace")
        status, body = phone.command({"do": "new_game", "edition": "classic-eur",
                                      "players": ["Ann", "Bo"], "seed": 5}, 0)
        assert status == 200, body
        version = body["version"]
        for _ in range(12):
            status, body = phone.command({"do": "pay", "from": "Ann", "to": "Bo",
                                          "amount": 10}, version)
            assert status == 200, body
            version = body["version"]
        seen["acknowledged"] = version
        seen["cash"] = {p["name"]: p["cash"] for p in phone.state()["players"]}
        seen["first_root"] = probe_root(first)
        first.wait_for(r"^PROBE rss_kb=\d+", 120)
        seen["first_probe"] = probe_figures(first)
        seen["first_scanout_by"] = scanout_owner(first)
        seen["first_mdns"] = mdns(first.log())
        phone.close()
        first.power_cut()  # mid-game: no shutdown, nothing flushed by the guest
        seen["size_before"] = size_before
        seen["size_after"] = partitions(card.disk)[2]["size"]
        # on the data partition (its /lib is /var/lib): the game and the name of the current
        seen["data_files"] = ext4_files(card.disk, 3, folder, "/lib/table-companion")
        seen["data_games"] = ext4_files(card.disk, 3, folder, "/lib/table-companion/games")
        seen["fat_files"] = card.files()
        seen["applied"] = card.get("companion-applied.toml").decode()
    finally:
        first.shut_down()
    second = Machine(card, kernel, initrd, "second")
    try:
        join_url, shot = wait_for_qr(second, folder, BOOT_TIMEOUT)
        seen["second_boot_s"] = round(time.monotonic() - second.started)
        phone, status = banker(second.port, join_url, PIN)
        assert status == 302, status
        state = phone.state()
        seen["resumed"] = state["version"]
        seen["resumed_cash"] = {p["name"]: p["cash"] for p in state["players"]}
        seen["second_root"] = probe_root(second)
        second.wait_for(r"^PROBE rss_kb=\d+", 120)
        seen["second_probe"] = probe_figures(second)
        seen["second_scanout_by"] = scanout_owner(second)
        seen["second_mdns"] = mdns(second.log())
        phone.close()
    finally:
        second.shut_down()
    # the read-only root turned off again, as the guide tells a maker: a companion.toml
    # with read_only = false, and a start (after the second boot's power cut)
    card.put("companion.toml", "[system]\nread_only = false\n")
    third = Machine(card, kernel, initrd, "third")
    try:
        join_url, shot = wait_for_qr(third, folder, BOOT_TIMEOUT)
        phone, status = banker(third.port, join_url, PIN)
        assert status == 302, status
        state = phone.state()
        seen["third_resumed"] = state["version"]
        seen["third_cash"] = {p["name"]: p["cash"] for p in state["players"]}
        seen["third_root"] = probe_root(third)
        phone.close()
        seen["third_applied"] = card.get("companion-applied.toml").decode()
    finally:
        third.shut_down()
    for name in ("first", "second"):
        probe = seen[f"{name}_probe"]
        assert isinstance(probe, dict)
        print(f"EMULATED (qemu-system-aarch64 TCG, cortex-a72 x2, 1 GiB; not a Pi) {name} "
              f"boot: screen's QR readable after {seen[f'{name}_boot_s']} s from power on; "
              f"the companion ready {(probe['ready_us'] - probe['start_us']) / 1e6:.1f} s "
              f"after its start, {probe['ready_us'] / 1e6:.1f} s after the kernel's; "
              f"RSS {probe['rss_kb'] // 1024} MB (peak {probe['hwm_kb'] // 1024} MB)")
    yield seen


def test_the_screen_shows_the_companion_and_its_qr_opens_the_table(
        booted: dict[str, object]) -> None:
    """The QR code read off QEMU's screen is the companion's join link, and it opens."""
    assert re.fullmatch(rf"{re.escape(JOIN_PREFIX)}[\w-]+", str(booted["join_url"]))
    import pygame
    surface = pygame.image.load(str(booted["screen"]))
    assert surface.get_size() == (800, 480)
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, 800, 8)
               for y in range(0, 480, 8)}
    assert len(colours) > 8, "a blank or text console screen, not the companion's"


@pytest.mark.parametrize("boot", ["first", "second"])
def test_the_screen_is_the_companions_own_framebuffer(booted: dict[str, object],
                                                     boot: str) -> None:
    """The plane QEMU showed holds a framebuffer the companion made (SDL's KMS/DRM path),
    not the kernel's console."""
    assert booted[f"{boot}_scanout_by"] == "companion"


@pytest.mark.parametrize("boot", ["first", "second"])
def test_mdns_announces_the_configured_name_only(booted: dict[str, object], boot: str) -> None:
    """avahi takes the name first boot set, on the network's interface, and keeps it: no
    "conflict" with its own announcement (it renamed the table kitchen-2, kitchen-3 when
    an IPv6 address replaced another while it announced)."""
    seen = booted[f"{boot}_mdns"]
    assert isinstance(seen, dict)
    assert seen["names"] == [NAME], seen
    assert seen["conflicts"] == [], seen
    assert seen["services"] == [f"Table Companion on {NAME}"], seen
    assert "eth0.IPv4" in seen["interfaces"], seen
    assert not any(".IPv6" in i for i in seen["interfaces"]), seen  # use-ipv6=no


def test_first_boot_settings_are_applied_and_the_secrets_leave_the_card(
        booted: dict[str, object]) -> None:
    # the PIN: a wrong one is refused (with no PIN set it would have become the PIN)
    assert booted["wrong_pin_status"] == 403
    # the name: the phones' Origin http://kitchen.local:8080 was accepted (a 302 above)
    assert f'lang="{LANGUAGE}"' in str(booted["page"])
    files = booted["fat_files"]
    assert isinstance(files, list)
    assert "companion.toml" not in files and "companion-applied.toml" in files
    applied = str(booted["applied"])
    assert PIN not in applied and WIFI_PASSWORD not in applied
    assert f'name = "{NAME}"' in applied and "Wi-Fi 'Table Net'" in applied
    assert "the root read-only" in applied
    # the data partition (the card's last) grew onto the larger card
    assert int(str(booted["size_after"])) > int(str(booted["size_before"]))


@pytest.mark.parametrize("boot", ["first", "second"])
def test_the_root_is_read_only_and_the_games_on_the_data_partition(
        booted: dict[str, object], boot: str) -> None:
    """With read_only = true the companion runs on a root mounted read-only (from first
    boot's settings on, the same boot): a write to / fails; the saved games are on the data
    partition, mounted at /var."""
    seen = booted[f"{boot}_root"]
    assert isinstance(seen, dict)
    assert "ro" in seen["root_options"].split(","), seen
    assert seen["root_write"] == "refused: Read-only file system", seen
    source, target, label = seen["games_on"].split(",")
    assert (source, target, label) == ("/dev/vda3", "/var", DATA_LABEL), seen


@pytest.mark.parametrize("boot", ["first", "second", "third"])
def test_a_backup_without_out_is_written_on_the_data_partition(
        booted: dict[str, object], boot: str) -> None:
    """`companion backup` started in / with no --out (the folder it is started in is
    read-only with the root) writes into the data directory's backups/, on /var."""
    seen = booted[f"{boot}_root"]
    assert isinstance(seen, dict)
    assert re.fullmatch(r"/var/lib/table-companion/backups/companion-backup-\d{8}-\d{6}"
                        r"\.tar\.gz: \d+ game\(s\) and \d+ other file\(s\)",
                        seen["backup"]), seen


def test_the_read_only_root_turned_off_again_keeps_every_game(
        booted: dict[str, object]) -> None:
    """A companion.toml with read_only = false and a start, as the guide says: the root is
    writable again (a write to / as root succeeds), the saved games are still on the data
    partition, every one of them, with every acknowledged move."""
    seen = booted["third_root"]
    assert isinstance(seen, dict)
    assert "rw" in seen["root_options"].split(","), seen
    assert seen["root_write"] == "written", seen
    assert seen["games_on"].split(",") == ["/dev/vda3", "/var", DATA_LABEL], seen
    second = booted["second_root"]
    assert isinstance(second, dict)
    assert int(seen["journals"]) == int(second["journals"]) >= 1, (seen, second)
    assert booted["third_resumed"] == booted["acknowledged"] == 13
    assert booted["third_cash"] == booted["cash"]
    assert "the root writable" in str(booted["third_applied"])


def test_the_saved_game_is_on_the_data_partition(booted: dict[str, object]) -> None:
    """After the power cut, the card's data partition itself holds the game the table
    played (its `current` names it, its files are in games/)."""
    files, games = booted["data_files"], booted["data_games"]
    assert isinstance(files, list) and isinstance(games, list)
    assert "current" in files and "games" in files, files
    assert games, games


def test_a_power_cut_mid_game_loses_no_acknowledged_move(booted: dict[str, object]) -> None:
    assert booted["resumed"] == booted["acknowledged"] == 13
    assert booted["resumed_cash"] == booted["cash"] == {"Ann": 1380, "Bo": 1620}


def test_the_build_script_refuses_a_bad_option() -> None:
    result = subprocess.run(["bash", str(BUILD), "--frobnicate"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 2 and "unknown option" in result.stderr
    result = subprocess.run(["bash", str(BUILD), "--help"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0 and "--preflight" in result.stdout
