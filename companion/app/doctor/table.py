"""`companion doctor`'s checks of what a Pi table needs beyond its devices: how the screen is
drawn (the SDL video driver, and whether GL is loaded), the memory in use, mDNS (phones open
http://<name>.local:8080/) and the Pi's own Wi-Fi (the NetworkManager hotspot).

Each reads the machine through `Host` (companion/app/doctor/host.py), so the tests fake it.
"""

from __future__ import annotations

import re
import socket
import xml.etree.ElementTree as ET
from pathlib import Path

from companion.app import hotspot
from companion.app.doctor.host import Finding, Host, Status
from companion.config import Config

SERVICE = "table-companion"
AVAHI_FILE = f"/etc/avahi/services/{SERVICE}.service"
HOTSPOT_PROFILE = f"/etc/NetworkManager/system-connections/{SERVICE}-hotspot.nmconnection"
#: where deploy/hotspot.py is: the Pi's install keeps the source beside the venv, a checkout
#: has it in deploy/
HOTSPOT_SCRIPTS = (f"/opt/{SERVICE}/src/deploy/hotspot.py",
                   str(Path(__file__).resolve().parents[3] / "deploy" / "hotspot.py"))
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, which has libnm's bindings (python3-gi)
#: the shared libraries of an OpenGL stack (Mesa's GL and GLES, EGL, its drivers, LLVM)
GL_LIBRARIES = ("libGL.", "libGLX", "libGLESv2", "libEGL", "libLLVM", "_dri.so", "libgallium")
#: below this much available memory a game may be killed by the kernel (a Pi Zero 2 W with
#: a desktop running comes close)
LOW_MEMORY_MB = 100
#: the companion's resident size the bench aims at in a window (docs/bench.md)
RSS_TARGET_MB = 80


# --- the renderer ------------------------------------------------------------------------


def renderer_finding(words: list[str], env: dict[str, str]) -> Finding:
    """What the display probe (doctor's child that opened the display as `companion run`
    does and drew a frame) says about how pixels reach the screen: "DRIVER W H gl=LIBS
    rss_kb=N"."""
    fields = dict(w.split("=", 1) for w in words[3:] if "=" in w)
    driver = words[0].lower() if words else "?"
    if "gl" not in fields:
        return Finding("renderer", Status.WARN, f"{driver}: the probe did not say whether GL "
                       "was loaded", "update the companion (sudo deploy/install.sh)")
    gl = [name for name in fields["gl"].split(",") if name and name != "-"]
    rss = f"{int(fields.get('rss_kb', '0')) // 1024} MB resident after the first frame"
    hint = env.get("SDL_FRAMEBUFFER_ACCELERATION")
    if driver == "kmsdrm":
        how = "GL ES through EGL/GBM" if gl else "no GL"
        return Finding("renderer", Status.OK, f"kmsdrm: SDL draws through {how} (SDL 2's "
                       f"KMS/DRM has no other way); {rss}")
    if not gl:
        return Finding("renderer", Status.OK, f"{driver}: the driver's own framebuffer, no GL "
                       f"loaded; {rss}")
    setting = f", SDL_FRAMEBUFFER_ACCELERATION={hint}" if hint else ""
    return Finding("renderer", Status.WARN, f"{driver}: a window drawn through GL "
                   f"({', '.join(gl)} loaded{setting}); {rss} (the bench's target: "
                   f"{RSS_TARGET_MB} MB)",
                   "SDL_FRAMEBUFFER_ACCELERATION=0 draws through the window system's own "
                   "framebuffer instead: Mesa's GL and LLVM stay unloaded (about 90 MB less)")


def no_renderer_finding(host: Host) -> Finding:
    """No display to probe: `companion run` runs headless, with no renderer and no GL."""
    return Finding("renderer", host.missing(), "no display to draw on: `companion run` "
                   "runs headless (no SDL renderer, no GL)",
                   "on the Pi: a screen on HDMI or DSI and dtoverlay=vc4-kms-v3d")


# --- memory ------------------------------------------------------------------------------


def _meminfo_mb(host: Host) -> dict[str, int]:
    try:
        text = host.path("/proc/meminfo").read_text(errors="replace")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if value.strip().endswith("kB"):
            out[key] = int(value.split()[0]) // 1024
    return out


def _rss_mb(host: Host, pid: int) -> int | None:
    try:
        text = host.path(f"/proc/{pid}/status").read_text(errors="replace")
    except OSError:
        return None
    found = re.search(r"^VmRSS:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) // 1024 if found else None


def running_companions(host: Host) -> list[int]:
    """The process ids of `companion run`s here: the service's main process, else any
    started by hand (`companion run`, `python -m companion run`)."""
    result = host.command(["systemctl", "show", "--property=MainPID", "--value", SERVICE])
    if result is not None and result.returncode == 0 and result.stdout.strip().isdigit():
        pid = int(result.stdout.strip())
        if pid > 0:
            return [pid]
    pids = []
    try:
        entries = list(host.path("/proc").iterdir())
    except OSError:
        return []
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [Path(a.decode(errors="replace")).name for a in argv if a]
        for i, word in enumerate(words[:-1]):
            if word == "companion" and words[i + 1] == "run":
                pids.append(int(entry.name))
                break
    return sorted(pids)


def check_memory(host: Host) -> list[Finding]:
    """The memory this machine has free, and what a running companion uses."""
    info = _meminfo_mb(host)
    if "MemAvailable" not in info:
        return [Finding("memory", Status.WARN, "cannot read /proc/meminfo", "")]
    free, total = info["MemAvailable"], info.get("MemTotal", 0)
    running = [(pid, _rss_mb(host, pid)) for pid in running_companions(host)]
    used = "; ".join(f"companion run (pid {pid}) uses {rss} MB resident"
                     for pid, rss in running if rss is not None)
    used = used or ("no companion running (start it to see what it uses: sudo systemctl "
                    f"start {SERVICE})")
    message = f"{free} MB available of {total} MB; {used}"
    if free < LOW_MEMORY_MB:
        return [Finding("memory", Status.WARN, message,
                        "close other programs; a desktop takes about 200 MB: boot to the "
                        "console (sudo raspi-config nonint do_boot_behaviour B1)")]
    return [Finding("memory", Status.OK, message)]


# --- mDNS --------------------------------------------------------------------------------


def _hostname(host: Host) -> str:
    try:
        name = host.path("/etc/hostname").read_text(errors="replace").strip()
    except OSError:
        name = ""
    return name or socket.gethostname()


def check_mdns(host: Host, config: Config) -> list[Finding]:
    """The avahi service file announcing the phone remote, and avahi-daemon running."""
    if not config.web.enabled:
        return [Finding("mdns", Status.OK, "the phone remote is off: nothing to announce")]
    port = config.web.port
    address = f"http://{_hostname(host)}.local:{port}/"
    path = host.path(AVAHI_FILE)
    try:
        service = ET.parse(path).getroot().find("service")
    except FileNotFoundError:
        return [Finding("mdns", Status.WARN, f"no {AVAHI_FILE}: phones cannot find {address} "
                        "by name", "sudo deploy/install.sh (installs avahi-daemon and it)")]
    except (OSError, ET.ParseError) as exc:
        return [Finding("mdns", Status.WARN, f"{AVAHI_FILE} cannot be read: {exc}",
                        "sudo deploy/install.sh writes it again")]
    announced = service.findtext("port") if service is not None else None
    if announced != str(port):
        return [Finding("mdns", Status.WARN, f"{AVAHI_FILE} announces port {announced}, the "
                        f"phone remote listens on {port}",
                        "sudo deploy/install.sh (writes it with [web] port)")]
    result = host.command(["systemctl", "is-active", "avahi-daemon"])
    state = result.stdout.strip() if result is not None else ""
    if state == "active":
        return [Finding("mdns", Status.OK, f"avahi-daemon announces {address}")]
    said = f"avahi-daemon is {state}" if state else "cannot tell whether avahi-daemon runs"
    return [Finding("mdns", Status.WARN, f"{said}: phones cannot find {address} by name",
                    "sudo apt install avahi-daemon; sudo systemctl enable --now avahi-daemon")]


# --- the hotspot -------------------------------------------------------------------------


def _libnm_check(host: Host, profile: Path) -> Finding | None:
    """deploy/hotspot.py --check with Debian's python3 (libnm); None when it cannot run."""
    script = next((s for s in HOTSPOT_SCRIPTS if Path(s).exists()), None)
    if script is None or not Path(SYSTEM_PYTHON).exists():
        return None
    result = host.command([SYSTEM_PYTHON, script, "--check", str(profile)], timeout=30)
    if result is None or result.returncode == 2:
        return None  # no libnm here (python3-gi, gir1.2-nm-1.0)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["refused"])[-1]
        return Finding("hotspot", Status.FAIL, f"NetworkManager refuses the profile: {last}",
                       "sudo deploy/install.sh --hotspot writes it again")
    return Finding("hotspot", Status.OK, "NetworkManager's library (libnm) accepts "
                   f"{HOTSPOT_PROFILE}")


def check_hotspot(host: Host, config: Config) -> list[Finding]:
    """The Pi's own Wi-Fi: its NetworkManager profile present and valid, its hotspot.toml
    readable by the companion, and whether it is on now."""
    profile = host.path(HOTSPOT_PROFILE)
    info = host.path(str(config.web.hotspot_file)) if config.web.hotspot_file else None
    if not profile.exists() and (info is None or not info.exists()):
        return [Finding("hotspot", Status.OK, "none: phones use the table's Wi-Fi router "
                        "(sudo deploy/install.sh --hotspot makes the Pi's own Wi-Fi for "
                        "tables without one)")]
    if not profile.exists():
        return [Finding("hotspot", Status.WARN, f"{info} but no {HOTSPOT_PROFILE}: "
                        "NetworkManager has no hotspot to start",
                        "sudo deploy/install.sh --hotspot")]
    findings = []
    checked = _libnm_check(host, profile) if _readable(profile) else None
    if checked is None:
        why = "libnm is not installed" if _readable(profile) else "only root may read it"
        findings.append(Finding("hotspot", Status.WARN, f"{HOTSPOT_PROFILE} is there, not "
                                f"checked ({why})", "sudo companion doctor checks it with "
                                "NetworkManager's library (apt install python3-gi "
                                "gir1.2-nm-1.0)"))
    else:
        findings.append(checked)
    if info is None:
        findings.append(Finding("hotspot", Status.WARN, "[web] hotspot_file is \"\": the "
                                "screen never shows the Wi-Fi's QR code",
                                "set it to /etc/table-companion/hotspot.toml"))
        return findings
    try:
        spot = hotspot.load(info)
    except hotspot.HotspotFileError as exc:
        return [*findings, Finding("hotspot", Status.FAIL, str(exc),
                                   "sudo deploy/install.sh --hotspot writes it again")]
    if spot is None:
        return [*findings, Finding("hotspot", Status.WARN, f"no {info}: the screen cannot "
                                   "show the Wi-Fi's QR code", "sudo deploy/install.sh "
                                   "--hotspot")]
    on = host.root == Path("/") and hotspot.active(spot)
    state = (f"on now (this Pi is {spot.address}): the screen shows its QR code first" if on
             else "off now (NetworkManager starts it when no known Wi-Fi is around: sudo "
             "nmcli connection up 'Table Companion hotspot')")
    findings.append(Finding("hotspot", Status.OK, f"Wi-Fi {spot.ssid!r}, {state}"))
    return findings


def _readable(path: Path) -> bool:
    try:
        with path.open("rb"):
            return True
    except OSError:
        return False


# --- the power supply --------------------------------------------------------------------


def check_power(host: Host) -> list[Finding]:
    """Under-voltage and throttling as the Pi's firmware reports them (companion.power)."""
    from companion.power import read_power

    def run(argv: list[str]) -> str | None:
        done = host.command(argv)
        return done.stdout if done is not None and done.returncode == 0 else None

    power = read_power(host.root, run)
    if power is None:
        if host.on_pi:
            return [Finding("power", Status.WARN, "the firmware's power flags cannot be read",
                            "update the Pi's kernel and firmware: sudo apt full-upgrade")]
        return [Finding("power", Status.OK, "not a Raspberry Pi: no power flags to read")]
    supply = "use the Pi's official power supply (5.1 V, 2.5 A for a Zero 2 W or a 3, " \
        "3 A for a 4, 5 A for a 5) and a short, thick cable; an SD card written during a " \
        "voltage drop can be damaged"
    if power.under_voltage_now:
        return [Finding("power", Status.FAIL, f"under-voltage now (flags {power.flags:#x})",
                        supply)]
    if power.under_voltage_since_boot:
        return [Finding("power", Status.WARN, "under-voltage happened since the Pi started "
                        f"(flags {power.flags:#x})", supply)]
    if power.throttled_now or power.throttled_since_boot:
        when = "now" if power.throttled_now else "since the Pi started"
        return [Finding("power", Status.WARN, f"the processor was slowed down {when} (heat; "
                        f"flags {power.flags:#x})", "give the Pi air or a heatsink; keep it "
                        "out of the sun and off the radiator")]
    return [Finding("power", Status.OK, "no under-voltage or throttling since the Pi started")]
