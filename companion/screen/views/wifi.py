"""The phones' corner while the table makes its own Wi-Fi: the Wi-Fi QR code comes first.

With no router around, the Pi is the Wi-Fi (deploy/install.sh --hotspot): a phone must
join that network before it can open the phone remote. Until a phone is on it, the corner
shows the network's QR code (cameras join a WIFI:T:WPA;S:...;P:...;; code by themselves),
its name and passphrase to type by hand, at the readable size; then the join QR of the phone
remote (panels.draw_remote) as on any Wi-Fi.
"""

from __future__ import annotations

import pygame

from companion.screen import theme
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import UiState
from companion.screen.views.panels import draw_remote, qr_surface


def draw_phones(p: Painter, rect: pygame.Rect, ui: UiState) -> None:
    """The phones' corner: the Wi-Fi QR code while `ui.wifi` is set (the game gives it the
    whole side column then), else the join QR."""
    if ui.wifi is None:
        draw_remote(p, rect, ui)
        return
    p.fill(rect, theme.PANEL, radius=6)
    inner = rect.inflate(-p.px(8), -p.px(6))
    wifi = ui.wifi
    size = theme.SIZES["qr_caption"]
    floor = theme.readable(p.scale)
    said = [(text("wifi_title"), theme.ACCENT, True),
            (text("wifi_network", ssid=wifi.ssid), theme.TEXT, False),
            (text("wifi_password", passphrase=wifi.passphrase), theme.TEXT, True)]
    heights = []
    for line, _color, bold in said:  # each as many lines as it takes, up to four
        count, line_h = p.wrapped(line, inner.width, size, bold)
        heights.append(min(4, count) * line_h)
    words_h = min(sum(heights), inner.height * 55 // 100)
    qr = qr_surface(wifi.qr, min(inner.width, inner.height - words_h - p.px(4)))
    # the code and its words as one block, centred in the corner
    top = inner.centery - (qr.get_height() + p.px(4) + words_h) // 2
    code = p.surface.blit(qr, qr.get_rect(midtop=(inner.centerx, top)))
    top = code.bottom + p.px(4)
    for (line, color, bold), height in zip(said, heights, strict=True):
        p.paragraph(line, pygame.Rect(inner.x, top, inner.width, height), size, color,
                    bold=bold, align="center", max_lines=4, min_size=floor)
        top += height
