"""A QR code drawn in text, for a terminal: `companion run --headless` prints the phones'
join link this way, so a phone can scan it off the terminal with no table screen (the Wi-Fi
QR of a hotspot can use the same function)."""

from __future__ import annotations

import io


def qr_for_terminal(text: str) -> str:
    """The QR code of `text` in Unicode half blocks, two modules a character high, light
    modules drawn as blocks (for a terminal's dark background), with a quiet border.

    >>> lines = qr_for_terminal("http://pi.local:8080/").splitlines()
    >>> len(lines) > 10 and set(lines[0]) == {"█"}
    True
    """
    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
