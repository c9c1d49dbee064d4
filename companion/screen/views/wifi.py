"""The phones' corner while the table makes its own Wi-Fi: the Wi-Fi QR code comes first.

With no router around, the Pi is the Wi-Fi (deploy/install.sh --hotspot): a phone must
join that network before it can open the phone remote. Until a phone is on it, the corner
shows the network's QR code (cameras join a WIFI:T:WPA;S:...;P:...;; code by themselves),
its name and passphrase to type by hand; then the join QR of the phone remote
(panels.draw_remote) as on any Wi-Fi.
"""

from __future__ import annotations

import pygame

from companion.screen import theme
from companion.screen.painter import Painter
from companion.screen.texts import text
from companion.screen.ui_state import UiState, WifiJoin
from companion.screen.views.panels import draw_remote, qr_surface


def draw_phones(p: Painter, rect: pygame.Rect, ui: UiState) -> None:
    """The phones' corner: the Wi-Fi QR code while `ui.wifi` is set, else the join QR."""
    if ui.wifi is None:
        draw_remote(p, rect, ui)
        return
    p.fill(rect, theme.PANEL, radius=6)
    inner = rect.inflate(-p.px(8), -p.px(6))
    if inner.width > inner.height * 1.4:
        _beside(p, inner, ui.wifi)
    else:
        _below(p, inner, ui.wifi)


def _code(p: Painter, box: pygame.Rect, wifi: WifiJoin) -> None:
    qr = qr_surface(wifi.qr, min(box.width, box.height))
    p.surface.blit(qr, qr.get_rect(center=box.center))


def _below(p: Painter, inner: pygame.Rect, wifi: WifiJoin) -> None:
    """The setup's tall corner: the code above; the title, name and passphrase below."""
    words_h = min(inner.height * 2 // 5, p.px(80))
    _code(p, pygame.Rect(inner.x, inner.y, inner.width, inner.height - words_h), wifi)
    title, network, password = _split(pygame.Rect(inner.x, inner.bottom - words_h,
                                                  inner.width, words_h))
    p.paragraph(text("wifi_title"), title, 11, theme.ACCENT, bold=True, align="center",
                max_lines=2)
    p.text(text("wifi_network", ssid=wifi.ssid), network, 11, theme.TEXT, align="center",
           min_size=7)
    p.text(text("wifi_password", passphrase=wifi.passphrase), password, 11, theme.TEXT,
           bold=True, align="center", min_size=7)


def _beside(p: Painter, inner: pygame.Rect, wifi: WifiJoin) -> None:
    """The game's wide corner: the code on the left; the title and the passphrase (the
    words to type if a camera does not join by itself) beside it."""
    qr = qr_surface(wifi.qr, inner.height)
    code = p.surface.blit(qr, qr.get_rect(midleft=inner.midleft))
    words = pygame.Rect(code.right + p.px(5), inner.y, inner.right - code.right - p.px(5),
                        inner.height)
    title, label, value = _split(words)
    p.paragraph(text("wifi_short"), title, 12, theme.ACCENT, bold=True, max_lines=2)
    p.text(text("wifi_password_label"), label, 11, theme.TEXT_DIM, min_size=8)
    p.text(wifi.passphrase, value, 13, theme.TEXT, bold=True, min_size=7)


def _split(box: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
    """A half for the (wrapping) title, then two lines."""
    title_h = box.height // 2
    line_h = (box.height - title_h) // 2
    return (pygame.Rect(box.x, box.y, box.width, title_h),
            pygame.Rect(box.x, box.y + title_h, box.width, line_h),
            pygame.Rect(box.x, box.y + title_h + line_h, box.width, line_h))
