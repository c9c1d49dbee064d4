"""The documented screenshots (tools/make_screenshots.py, docs/screen.md): every language at
every size is there and linked, they are drawn from a real mid-game state, and small."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pygame

from tools import make_screenshots

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "docs" / "screenshots"


def test_every_language_and_size_is_committed_small_and_linked_from_the_screen_doc() -> None:
    doc = (ROOT / "docs" / "screen.md").read_text("utf-8")
    linked = set(re.findall(r"\(screenshots/([a-z]{2}-\d+x\d+\.png)\)", doc))
    for width, height in make_screenshots.SIZES:
        files = [SHOTS / f"{lang}-{width}x{height}.png" for lang in make_screenshots.LANGUAGES]
        assert {f.name for f in files} <= linked
        for file in files:
            assert pygame.image.load(str(file)).get_size() == (width, height)
        assert sum(f.stat().st_size for f in files) < 600_000, (width, height)
        crowded = [SHOTS / f"{lang}-{width}x{height}-8p.png"
                   for lang in make_screenshots.EIGHT_LANGUAGES]
        assert {f.name for f in crowded} <= set(
            re.findall(r"\(screenshots/([a-z]{2}-\d+x\d+-8p\.png)\)", doc))
        assert all(pygame.image.load(str(f)).get_size() == (width, height) for f in crowded)


def test_the_palette_png_keeps_a_flat_pictures_pixels_exactly(tmp_path: Path) -> None:
    surface = pygame.Surface((40, 30))
    surface.fill((20, 24, 33))
    pygame.draw.rect(surface, (230, 180, 40), (5, 5, 20, 10))
    path = tmp_path / "flat.png"
    path.write_bytes(make_screenshots.png_bytes(40, 30, pygame.image.tobytes(surface, "RGB")))
    loaded = pygame.image.load(str(path))
    assert pygame.image.tobytes(loaded.convert(24) if loaded.get_bitsize() != 24 else loaded,
                                "RGB") == pygame.image.tobytes(surface, "RGB")


def test_the_pictures_are_drawn_from_the_golden_game_part_way(tmp_path: Path,
                                                              monkeypatch: Any) -> None:
    from companion import net
    from companion.screen import render as render_mod
    from companion.words import catalog as i18n

    drawn: list[str] = []
    real_render = render_mod.render

    def render(*args: Any) -> Any:
        frame = real_render(*args)
        drawn.extend(t.text for t in frame.texts)
        return frame

    monkeypatch.setattr(render_mod, "render", render)
    address = net.lan_address
    [path] = make_screenshots.make(tmp_path, ["ru"], [(800, 480)])
    assert net.lan_address is address  # the documentation address was only borrowed
    assert path.name == "ru-800x480.png" and pygame.image.load(str(path)).get_size() == (800, 480)
    said = " ".join(drawn)
    assert "192.0.2.10:8080" in said and "Ходит Bo" in said  # mid-game, in Russian
    card = i18n.localized_name("classic-eur", "chance-utility", "ru")
    assert card.split()[0] in said and "Перейдите" in said  # the drawn card, in Russian


def test_the_eight_players_are_drawn_part_way_through_their_game(tmp_path: Path,
                                                                  monkeypatch: Any) -> None:
    import json

    from companion.screen import render as render_mod

    script = make_screenshots.eight_player_game(tmp_path)
    first = json.loads(script.read_text("utf-8").splitlines()[0])
    assert first["players"] == list(make_screenshots.EIGHT)
    assert max(len(name) for name in first["players"]) == 24  # the engine's longest
    drawn: list[Any] = []
    real_render = render_mod.render

    def render(*args: Any) -> Any:
        frame = real_render(*args)
        drawn.extend(frame.texts)
        return frame

    monkeypatch.setattr(render_mod, "render", render)
    [path] = make_screenshots.make(tmp_path, ["en"], [(800, 480)], script,
                                   make_screenshots.EIGHT_STOP, suffix="-8p")
    assert path.name == "en-800x480-8p.png"
    # every card, mid-game: a name too long for its row gives up later words for initials
    # ("Maximilian W. R."), never its first word
    firsts = {name.split()[0] for name in make_screenshots.EIGHT}
    assert {t.text.split()[0] for t in drawn if t.text.split()
            and t.text.split()[0] in firsts} == firsts
    assert not any("wins" in t.text for t in drawn)
