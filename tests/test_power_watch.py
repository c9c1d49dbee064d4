"""Under-voltage and throttling on the running table (companion.power.watch_power), read from a
fake sysfs root as the Pi's kernel writes it, and drawn on the real table screen."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from web_fakes import FakeSession

from companion import power as power_watch
from companion.power import SYSFS, THROTTLED, UNDER_VOLTAGE, PowerWatch, watch_power
from companion.screen import texts
from companion.screen.app import ScreenLoop
from companion.screen.controller import Controller
from companion.screen.entry import warning_text
from companion.words.catalog import LANGUAGES

#: an interval no test waits for: the thread never reads by itself within a test
NEVER = 3600.0


class Pi:
    """A fake root with the Pi kernel's get_throttled file in it."""

    def __init__(self, root: Path, flags: int = 0) -> None:
        self.root = root
        self.file = root / SYSFS.lstrip("/")
        self.file.parent.mkdir(parents=True)
        self.set(flags)

    def set(self, flags: int) -> None:
        self.file.write_text(f"{flags:x}\n", encoding="utf-8")


class Face:
    """A table face recording its posted warnings."""

    def __init__(self) -> None:
        self.posted: list[tuple[str, str, bool]] = []
        self.arrived = threading.Event()

    def post_warning(self, code: str, source: str, message: str, active: bool = True) -> None:
        assert message == power_watch.MESSAGES[code]
        self.posted.append((code, source, active))
        self.arrived.set()


def no_vcgencmd(_argv: list[str]) -> str | None:
    return None


@pytest.fixture
def pi(tmp_path: Path) -> Pi:
    return Pi(tmp_path / "root")


def start(face: object, pi: Pi, every: float = NEVER) -> PowerWatch:
    watch = watch_power(face, root=pi.root, every=every, run=no_vcgencmd)
    assert watch is not None
    return watch


def test_off_a_pi_nothing_is_watched(tmp_path: Path) -> None:
    face = Face()
    assert watch_power(face, root=tmp_path, run=no_vcgencmd) is None
    assert face.posted == []


def test_a_healthy_pi_shows_nothing(pi: Pi) -> None:
    face = Face()
    watch = start(face, pi)
    try:
        assert watch.check() == set() and face.posted == []
    finally:
        watch.close()


def test_under_voltage_shown_while_it_lasts_and_cleared(pi: Pi) -> None:
    face = Face()
    watch = start(face, pi)
    try:
        pi.set(0x50005)  # under-voltage and throttled now (and since boot)
        assert watch.check() == {UNDER_VOLTAGE}  # throttling explained by the power
        assert watch.check() == {UNDER_VOLTAGE}  # said once, not at every read
        pi.set(0x50000)  # over; the since-boot bits stay
        assert watch.check() == set()
        assert face.posted == [(UNDER_VOLTAGE, "power", True), (UNDER_VOLTAGE, "power", False)]
    finally:
        watch.close()


def test_a_dip_between_two_reads_is_shown_once(pi: Pi) -> None:
    """A dip shorter than the interval leaves only the since-boot bit: shown until the
    next read, which finds it old news."""
    face = Face()
    watch = start(face, pi)
    try:
        pi.set(0x10000)
        assert watch.check() == {UNDER_VOLTAGE}
        assert watch.check() == set()
        assert face.posted == [(UNDER_VOLTAGE, "power", True), (UNDER_VOLTAGE, "power", False)]
    finally:
        watch.close()


def test_heat_throttling_is_its_own_warning(pi: Pi) -> None:
    face = Face()
    watch = start(face, pi)
    try:
        pi.set(0x40004)
        assert watch.check() == {THROTTLED}
        pi.set(0x40000)
        assert watch.check() == set()
        assert face.posted == [(THROTTLED, "power", True), (THROTTLED, "power", False)]
    finally:
        watch.close()


def test_an_unreadable_moment_changes_nothing(pi: Pi) -> None:
    face = Face()
    pi.set(0x1)
    watch = start(face, pi)
    try:
        assert watch.shown == {UNDER_VOLTAGE}  # already at the start
        pi.file.write_text("error=2\n")
        assert watch.check() == {UNDER_VOLTAGE}
        pi.file.unlink()
        assert watch.check() == {UNDER_VOLTAGE}
        assert face.posted == [(UNDER_VOLTAGE, "power", True)]
    finally:
        watch.close()


def test_the_thread_reads_by_itself(pi: Pi) -> None:
    face = Face()
    watch = start(face, pi, every=0.05)
    try:
        pi.set(0x1)
        assert face.arrived.wait(10), "the watch never read the flags again"
        assert face.posted[0] == (UNDER_VOLTAGE, "power", True)
    finally:
        watch.close()
    assert not watch._thread.is_alive()


def test_a_headless_table_gets_it_in_its_log(pi: Pi) -> None:
    said: list[tuple[str, str]] = []

    class Headless:
        def post_message(self, message: str, kind: str = "info") -> None:
            said.append((message, kind))

    pi.set(0x1)
    watch = start(Headless(), pi)
    try:
        pi.set(0x0)
        watch.check()
    finally:
        watch.close()
    assert said == [(power_watch.MESSAGES[UNDER_VOLTAGE], "warning")]


@pytest.mark.parametrize("code", [UNDER_VOLTAGE, THROTTLED])
def test_the_sentences_are_in_every_language(code: str) -> None:
    before = texts.language()
    try:
        said = {}
        for lang in LANGUAGES:
            texts.use_language(lang)
            said[lang] = warning_text(code, "power", "fallback")
        assert said["en"] == power_watch.MESSAGES[code]
        assert all(s and s != "fallback" for s in said.values()), said
        others = [s for lang, s in said.items() if lang != "en"]
        assert len(set(others)) == len(others) and said["en"] not in others, said
    finally:
        texts.use_language(before)


@pytest.fixture
def screen() -> Iterator[None]:
    saved = os.environ.get("SDL_VIDEODRIVER")
    language = texts.language()
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    yield
    pygame.display.quit()
    texts.use_language(language)
    if saved is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = saved


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_table_screen_draws_it(screen: None, pi: Pi, lang: str) -> None:
    controller = Controller(FakeSession(), language=lang)  # type: ignore[arg-type]
    loop = ScreenLoop(controller, pygame.display.set_mode((800, 480)))
    pi.set(0x50005)
    watch = start(controller, pi)
    try:
        controller.drain()
        sentence = texts.text("warn_under_voltage")
        loop.draw()
        assert controller.frame is not None
        assert sentence in " ".join(t.text for t in controller.frame.texts)
        pi.set(0x50000)
        watch.check()
        controller.drain()
        loop.draw()
        assert sentence not in " ".join(t.text for t in controller.frame.texts)
    finally:
        watch.close()
        controller.close()
