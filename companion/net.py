"""Where this machine is on the table's network: the address phones use to reach it."""

from __future__ import annotations

import fcntl
import socket
import struct

#: ioctl(2)'s request for an interface's IPv4 address (Linux, <linux/sockios.h>)
SIOCGIFADDR = 0x8915


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else 127.0.0.1.

    The route to the world's addresses names it; a network with no such route (the table's
    own hotspot, a router-less LAN) has none, and then the first interface other than the
    loopback with an IPv4 address is the one phones reach."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
        return str(probe.getsockname()[0])
    except OSError:
        return interface_address(probe) or "127.0.0.1"
    finally:
        probe.close()


def interface_address(probe: socket.socket) -> str | None:
    """The IPv4 address of the first interface that is not the loopback and has one."""
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        return None
    for _index, name in interfaces:
        if name == "lo":
            continue
        try:
            answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR,
                                 struct.pack("256s", name.encode()[:15]))
        except OSError:  # no IPv4 address on it (yet)
            continue
        address = socket.inet_ntoa(answer[20:24])
        if not address.startswith("127."):
            return address
    return None


def placeholder_url(port: int) -> str:
    """Where phones would join this machine's phone remote on `port` (the configured one):
    shown, marked as not running, when no server runs (a screenshot)."""
    return f"http://{lan_address()}:{port}/"
