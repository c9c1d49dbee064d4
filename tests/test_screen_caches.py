"""What the screen keeps between frames (text measurements and renderings, the board's ring)
never changes a pixel: a frame drawn from warm caches equals one drawn from cold ones, also
after the board changed."""

from __future__ import annotations

import copy
import os
import subprocess
import sys

import pygame
import pytest
from fixtures.screen.scenarios import SCENARIOS, scenario

from companion.screen import fonts, painter
from companion.screen import render as render_module
from companion.screen.render import render
from companion.screen.views import board_map

pytestmark = pytest.mark.usefixtures("screen_in_english")


def cold() -> None:
    """Forget everything the screen keeps between frames."""
    painter.forget()
    board_map._ring = None
    board_map._ground = None


def pixels(state: object, ui: object, size: tuple[int, int] = (800, 480)) -> bytes:
    surface = pygame.Surface(size)
    render(state, ui, surface)  # type: ignore[arg-type]
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_warm_frame_is_the_cold_frame(name: str) -> None:
    state, ui = scenario(name, "en")
    cold()
    first = pixels(state, ui)
    assert painter._measured and painter._rendered, "the first frame filled the caches"
    assert pixels(state, ui) == first
    for size in ((1920, 1080), (800, 480)):  # another size and back: the ring is redrawn
        pixels(state, ui, size)
    assert pixels(state, ui) == first


def test_the_ring_is_drawn_again_when_a_deed_changes_hands_or_gets_a_house() -> None:
    state, ui = scenario("turn", "en")
    assert state is not None
    cold()
    before = pixels(state, ui)
    ring = board_map._ring
    changed = copy.deepcopy(state)
    square = next(sq for sq in changed["squares"] if sq.get("owner"))
    square["houses"] = int(square.get("houses") or 0) + 1
    warm = pixels(changed, ui)
    assert board_map._ring is not ring and warm != before
    cold()
    assert pixels(changed, ui) == warm
    ring = board_map._ring
    pixels(changed, ui)
    assert board_map._ring is ring, "nothing on the ring changed: drawn once"


def test_a_cached_text_is_the_glyphs_freetype_draws() -> None:
    face = painter.font(False)
    for text, px in (("Kr\u00a018\u00a0800", 18), ("Жёлтый gjpq", 11), ("…", 27)):
        direct = pygame.Surface((320, 80))
        cached = pygame.Surface((320, 80))
        face.render_to(direct, (20, 50), text, fgcolor=(250, 200, 100), size=px)
        ink = painter.ink(text, px)
        cached.blit(painter.rendered(text, px, (250, 200, 100)), (20 + ink.x, 50 - ink.y))
        assert pygame.image.tobytes(direct, "RGB") == pygame.image.tobytes(cached, "RGB")


def test_the_screen_starts_freetype_with_room_for_the_glyphs_of_all_its_sizes() -> None:
    """Freetype's glyph cache is sized when it starts: a screen that started it with the
    default 64 would load and hint a glyph again for most new texts (issue 28). Started as the
    window starts it (the display first, then the first text), in a fresh interpreter."""
    code = ("import pygame; pygame.display.init(); from companion.screen import painter; "
            "painter.ink('1', 16); import pygame.freetype; "
            "print(pygame.freetype.get_cache_size())")
    env = os.environ | {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env, timeout=60)
    assert int(out.stdout.split()[-1]) == fonts.GLYPHS_KEPT >= 1024


def test_a_wrapped_paragraph_s_line_height_is_the_one_it_is_drawn_with() -> None:
    surface = pygame.Surface((400, 200))
    p = painter.Painter(surface, 1.0, 1.0)
    for size, bold in ((14, False), (22, True)):
        lines, height = p.wrapped("Velperplein, Arnhem kopen voor € 120?", 120, size, bold)
        assert lines >= 2
        assert height == painter.font(bold).get_sized_height(size) + 2


def test_a_ring_drawn_square_by_square_is_the_ring_drawn_whole() -> None:
    """Squares changing hands, built on, mortgaged and freed one after another: each ring
    drawn again over the last (only the squares that changed) has the pixels and texts of
    a ring drawn from nothing, at both scales (with and without the squares' names)."""
    state, ui = scenario("turn", "en")
    assert state is not None
    for size in ((800, 480), (1280, 720)):
        changed = copy.deepcopy(state)
        names = [p["name"] for p in changed["players"]]
        cold()
        pixels(changed, ui, size)
        ring = board_map._ring
        assert ring is not None
        steps = 0
        for number, square in enumerate(sq for sq in changed["squares"] if "owner" in sq):
            step = number % 4
            if step == 0:
                square["owner"] = names[number % len(names)]
            elif step == 1 and square.get("kind") == "lot":
                square["owner"], square["houses"] = names[0], 2
            elif step == 2:
                square["owner"], square["mortgaged"] = names[-1], True
            else:
                square["owner"], square["mortgaged"] = None, False
            warm_surface = pygame.Surface(size)
            warm = render(changed, ui, warm_surface)
            assert board_map._ring is not None and board_map._ring[2] is ring[2], \
                "the same layer, drawn again where it changed"
            cold()
            cold_surface = pygame.Surface(size)
            whole = render(changed, ui, cold_surface)
            assert pygame.image.tobytes(warm_surface, "RGB") == \
                pygame.image.tobytes(cold_surface, "RGB"), f"step {number} at {size}"
            assert warm.texts == whole.texts, f"step {number} at {size}"
            pixels(changed, ui, size)  # warm again, from this ring on
            ring = board_map._ring
            steps += 1
        assert steps >= 20


def test_texts_and_the_ring_in_the_display_s_format_draw_the_very_same_pixels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a display open, texts and the ring are kept in its pixel format (blitted
    15-20 times faster): every scenario's frame is the one drawn from freetype's own
    format, byte for byte, at both scales."""
    pygame.display.init()
    try:
        pygame.display.set_mode((800, 480))
        raw = painter.font(False).render("Rue de la Paix", fgcolor=(200, 200, 200),
                                         size=18)[0]
        for name in SCENARIOS:
            state, ui = scenario(name, "en")
            for size in ((800, 480), (1280, 720)):
                with monkeypatch.context() as kept_raw:
                    kept_raw.setattr(painter, "for_blitting", lambda picture: picture)
                    kept_raw.setattr(board_map, "for_blitting", lambda picture: picture)
                    cold()
                    before = pixels(state, ui, size)
                cold()
                assert pixels(state, ui, size) == before, f"{name} at {size}"
                if name == "turn":
                    kept = next(iter(painter._rendered.values()))
                    assert kept.get_masks() != raw.get_masks() or \
                        kept.get_flags() != raw.get_flags(), "drawn in the display's format"
    finally:
        pygame.display.quit()
        cold()


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_board_copied_on_its_ground_is_the_ring_blended_on_the_filled_area(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's frame copies the ring already laid on the screen's ground
    (`board_map._on_ground`, the board among `render.COVERS`): the very pixels of filling
    the board's area and blending the transparent ring over it, as frames did before, on
    the display's 32-bit format and on a 24-bit surface alike."""
    state, ui = scenario(name, "en")
    for depth in (32, 24):
        surface = pygame.Surface((800, 480), 0, depth)
        cold()
        render(state, ui, surface)  # type: ignore[arg-type]
        copied = pygame.image.tobytes(surface, "RGB")
        if board_map._ring is not None:  # a screen with the board (not the setup form)
            assert board_map._ground is not None and board_map._ground[0] is board_map._ring
        with monkeypatch.context() as m:  # the old way: the area filled, the ring blended
            m.setattr(board_map, "_on_ground", lambda p, layer: layer)
            m.setattr(render_module, "COVERS", render_module.COVERS - {"board"})
            cold()
            surface.fill((1, 2, 3))
            render(state, ui, surface)  # type: ignore[arg-type]
        assert pygame.image.tobytes(surface, "RGB") == copied


def test_a_frame_that_moves_only_a_token_keeps_the_board_ground() -> None:
    """A move that changes no square (only where a token stands) copies the ground made
    before, and a board drawn again over an old frame leaves nothing of it behind."""
    state, ui = scenario("turn", "en")
    assert state is not None
    cold()
    surface = pygame.Surface((800, 480))
    last = render(state, ui, surface)  # type: ignore[arg-type]
    ground = board_map._ground
    moved = copy.deepcopy(state)
    mover = next(p for p in moved["players"] if not p.get("bankrupt"))
    mover["position"] = (int(mover.get("position") or 0) + 7) % 40
    render(moved, ui, surface, last)  # type: ignore[arg-type]
    assert board_map._ground is ground, "no square changed: the same ground"
    assert pygame.image.tobytes(surface, "RGB") == pixels(moved, ui)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_dice_kept_by_their_faces_are_the_dice_drawn_anew(size: tuple[int, int]) -> None:
    """The header's dice and total are a part kept by their faces (`painter.DICE`): every
    throw of two dice, and of the speed die, with a timed game's clock beside them or not,
    shows the very pixels of a frame drawn from nothing, when it is drawn first over the
    frame before and when it comes again, copied."""
    state, ui = scenario("turn", "en")
    assert state is not None
    throws: list[list[int | str]] = [[a, b] for a in range(1, 7) for b in range(1, 7)]
    throws += [[3, 4, "bus"], [6, 6, "mr_monopoly"], [2, 5, 3], [1, 1, 1]]
    cases = []
    for clock in (None, 125.0):
        timed = copy.copy(ui)
        timed.clock_deadline = None if clock is None else timed.now + clock
        for dice in throws:
            rolled = copy.deepcopy(state)
            rolled["dice"] = dice
            cold()
            cases.append((rolled, timed, pixels(rolled, timed, size)))
    cold()
    surface = pygame.Surface(size)
    last = render(state, ui, surface)  # type: ignore[arg-type]
    for round_ in ("drawn", "copied"):
        for rolled, timed, expected in cases:
            kept = set(painter.DICE.items)
            last = render(rolled, timed, surface, last)  # type: ignore[arg-type]
            assert pygame.image.tobytes(surface, "RGB") == expected, \
                f"{rolled['dice']} {round_}, clock {timed.clock_deadline}"
            if round_ == "copied":
                assert set(painter.DICE.items) == kept, "every throw kept: nothing new"
    assert len(painter.DICE.items) == len(throws)
