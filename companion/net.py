"""Where this machine is on the table's network: the address phones use to reach it."""

from __future__ import annotations

import socket


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else 127.0.0.1."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def placeholder_url(port: int) -> str:
    """Where phones would join this machine's phone remote on `port` (the configured one):
    shown, marked as not running, when no server runs (a screenshot)."""
    return f"http://{lan_address()}:{port}/"
