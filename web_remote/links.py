"""Join links for the table screen's QR code and the address `companion run` prints."""

from __future__ import annotations

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

