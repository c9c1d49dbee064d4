"""Join links for the table screen's QR code and the address `companion run` prints."""

from __future__ import annotations

import socket

from flask import Flask

from web_remote.context import Remote


def join_url(app_or_state: Flask | Remote, base_url: str, fresh: bool = False) -> str:
    """A one-time join link ("http://10.0.0.2:8080/join/<code>").

    Without `fresh`, the outstanding unspent link is returned again (the screen may ask on
    every frame); once a phone spends it, the next call gives a new one.
    """
    remote: Remote = app_or_state.extensions["web_remote"] \
        if isinstance(app_or_state, Flask) else app_or_state
    code = remote.joins.mint(fresh=fresh)
    return f"{base_url.rstrip('/')}/join/{code}"


def local_addresses() -> list[str]:
    """This machine's LAN addresses, best first (for the printed and QR-coded link)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: picks the outgoing interface
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if addr not in found and not addr.startswith("127."):
                found.append(addr)
    except OSError:
        pass
    return found or ["127.0.0.1"]
