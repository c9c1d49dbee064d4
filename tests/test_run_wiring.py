"""`companion run` wiring: RFID taps reach the game session as commands by context."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from companion.app.tap_cmd import send_tap
from companion.app.wiring import Readers, reader_specs
from companion.game.api import Source, Update
from companion.game.session import GameSession

ANN_CARD = "0A1B2C3D4E"


def test_reader_specs_add_the_simulated_reader_off_a_pi() -> None:
    assert reader_specs(["keyboard"], on_a_pi=False) == ["fake"]
    assert reader_specs(["rdm6300:/dev/serial0"], on_a_pi=True) == ["rdm6300:/dev/serial0"]
    assert reader_specs(["pn532:/dev/ttyUSB0", "fake"], on_a_pi=False) == [
        "pn532:/dev/ttyUSB0", "fake"]


def test_tapping_a_bank_card_on_a_buy_prompt_buys(tmp_path: Path) -> None:
    (tmp_path / "tags.json").write_text(json.dumps(
        {"version": 1, "tags": {ANN_CARD: {"kind": "bank_card", "number": 1, "player": "Ann"}}}))
    messages: list[tuple[str, str]] = []
    with GameSession.open(tmp_path) as session:
        script = Source("script", banker=True)
        session.submit({"do": "new_game", "edition": "classic-eur", "players": ["Ann", "Bo"],
                        "seed": 1}, script)
        session.submit({"do": "roll", "dice": [1, 2]}, script)
        assert session.state()["pending"]["kind"] == "buy"
        bought = threading.Event()

        def seen(update: Update) -> None:
            if any(e.get("kind") == "bought" for e in update.events):
                bought.set()

        session.add_listener(seen)
        readers = Readers(session, tmp_path, ["fake"], lambda m, k: messages.append((m, k)))
        try:
            assert send_tap(tmp_path, ANN_CARD) == "ok"
            assert bought.wait(10), f"the tap bought nothing; screen messages: {messages}"
        finally:
            readers.close()
        lecourbe = next(s for s in session.state()["squares"] if s["index"] == 3)
        assert lecourbe["owner"] == "Ann"
        entry = session.history(limit=1)[-1]
        assert entry["command"]["do"] == "buy", entry
        assert (entry["source"]["kind"], entry["source"]["player"]) == ("rfid", "Ann"), entry


def test_a_reader_that_cannot_open_warns_and_the_rest_runs(tmp_path: Path) -> None:
    messages: list[tuple[str, str]] = []
    with GameSession.open(tmp_path) as session:
        readers = Readers(session, tmp_path, ["nosuchkind:/dev/x", "fake"],
                          lambda m, k: messages.append((m, k)))
        try:
            assert len(readers.readers) == 1
            assert any(k == "warning" and "nosuchkind" in m for m, k in messages)
        finally:
            readers.close()


def test_web_remote_serves_and_shows_a_fresh_join_link_after_each_join(tmp_path: Path) -> None:
    import urllib.request

    from companion.app.wiring import WebRemote

    joined = threading.Event()
    with GameSession.open(tmp_path) as session:
        remote = WebRemote(session, "127.0.0.1", 0, tmp_path, on_join=lambda _joined: joined.set())
        remote.start()
        try:
            link = remote.join_link()
            assert "/join/" in link and remote.join_link() == link  # same until spent
            local = link.replace(link.split("/")[2].split(":")[0], "127.0.0.1", 1)
            with urllib.request.urlopen(local, timeout=10) as page:
                assert page.status == 200
            code = link.rsplit("/", 1)[1]
            assert remote.app.extensions["web_remote"].joins.spend(code)
            assert joined.wait(5)
            assert remote.join_link() != link
        finally:
            remote.close()


def test_sigterm_stops_a_headless_companion_promptly(tmp_path: Path) -> None:
    """systemd stops the companion with SIGTERM: it must exit, not hang in a lock, also when
    a second signal comes while the first is being handled (seen hung: py-spy showed the
    handler re-entering the Event lock it already held)."""
    import os
    import signal
    import subprocess
    import sys

    from tools.bench.proc import free_port

    port = free_port()
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "COMPANION_CONFIG": str(tmp_path / "none")}
    with subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--headless", "--port", str(port),
         "--data-dir", str(tmp_path / "data"), "--reader", "fake"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    ) as proc:
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()  # printed once everything is up
            assert "without a screen" in line, line
            qr = proc.stdout.readline()  # then the join link's QR code, for a phone to scan
            assert set(qr.strip()) == {"█"} and len(qr.strip()) > 20, qr
            assert (tmp_path / "data" / "tap.sock").exists()  # --reader fake is listening
            proc.send_signal(signal.SIGTERM)
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=20) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_a_bad_reader_option_is_refused_clearly(tmp_path: Path) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--headless", "--reader", "bogus:/dev/x",
         "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--reader" in proc.stderr and "rdm6300" in proc.stderr


# --- where phones would join, on a screenshot -------------------------------------------------


def test_the_join_placeholder_names_the_port_it_is_given(monkeypatch: Any) -> None:
    from companion import net

    monkeypatch.setattr(net, "lan_address", lambda: "192.0.2.7")
    assert net.placeholder_url(9090) == "http://192.0.2.7:9090/"


def test_the_controller_shows_the_remotes_configured_port(monkeypatch: Any) -> None:
    from web_fakes import FakeSession

    from companion import net
    from companion.screen.controller import Controller

    monkeypatch.setattr(net, "lan_address", lambda: "192.0.2.7")
    assert Controller(FakeSession(), remote_port=9123).ui.remote_placeholder == \
        "http://192.0.2.7:9123/"
    assert Controller(FakeSession()).ui.remote_placeholder == "http://192.0.2.7:8080/"
    assert Controller(FakeSession(), remote_port=None).ui.remote_placeholder is None


def screenshot_texts(monkeypatch: Any, tmp_path: Path, *args: str) -> tuple[int, list[str]]:
    """Run `companion screenshot` on a saved game; its exit code and the texts drawn."""
    from companion import net
    from companion.app import screenshot_cmd
    from companion.screen import render as render_mod

    data = tmp_path / "data"
    if not data.exists():
        with GameSession.open(data) as session:
            session.submit({"do": "new_game", "edition": "classic-eur",
                            "players": ["Ann", "Bo"], "seed": 1}, Source("script", banker=True))
    monkeypatch.setattr(net, "lan_address", lambda: "192.0.2.7")
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "no-such-config.toml"))
    drawn: list[str] = []
    real_render = render_mod.render

    def render(*render_args: Any) -> Any:
        frame = real_render(*render_args)
        drawn.extend(t.text for t in frame.texts)
        return frame

    monkeypatch.setattr(render_mod, "render", render)
    code = screenshot_cmd.main(["--data-dir", str(data), "--out", str(tmp_path / "shot.png"),
                                *args])
    return code, drawn


def test_a_screenshot_shows_the_port_phones_would_join_on(monkeypatch: Any,
                                                          tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[web]\nport = 9123\n", encoding="utf-8")
    code, drawn = screenshot_texts(monkeypatch, tmp_path, "--config", str(config))
    assert code == 0 and (tmp_path / "shot.png").stat().st_size > 0
    assert "192.0.2.7:9123" in drawn and "192.0.2.7:8080" not in drawn
    code, drawn = screenshot_texts(monkeypatch, tmp_path, "--config", str(config),
                                   "--port", "7000")
    assert code == 0 and "192.0.2.7:7000" in drawn
    code, drawn = screenshot_texts(monkeypatch, tmp_path)  # no configuration: the default
    assert code == 0 and "192.0.2.7:8080" in drawn
    config.write_text("[web]\nenabled = false\n", encoding="utf-8")
    code, drawn = screenshot_texts(monkeypatch, tmp_path, "--config", str(config))
    from companion.screen.texts import text

    assert code == 0 and not any("192.0.2.7" in t for t in drawn)
    assert text("remote_off") in drawn  # as companion run shows it with the remote off
    config.write_text("[web]\nport = 99999\n", encoding="utf-8")
    code, drawn = screenshot_texts(monkeypatch, tmp_path, "--config", str(config))
    assert code == 2 and drawn == []


def log_title(lang: str) -> str:
    """The screen's "Last moves" heading in `lang`."""
    from companion.screen import texts

    before = texts.language()
    texts.use_language(lang)
    try:
        return texts.text("log_title")
    finally:
        texts.use_language(before)


def test_a_screenshot_speaks_the_configured_language(monkeypatch: Any, tmp_path: Path) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")
    config = tmp_path / "config.toml"
    config.write_text('[screen]\nlanguage = "ru"\n', encoding="utf-8")
    code, drawn = screenshot_texts(monkeypatch, tmp_path, "--config", str(config))
    assert code == 0 and log_title("ru") in drawn and log_title("fr") not in drawn
    config.write_text("[web]\nport = 9123\n", encoding="utf-8")  # no language: the edition's
    code, drawn = screenshot_texts(monkeypatch, tmp_path, "--config", str(config))
    assert code == 0 and log_title("fr") in drawn
    code, drawn = screenshot_texts(monkeypatch, tmp_path, "--config", str(config),
                                   "--language", "sv")
    assert code == 0 and log_title("sv") in drawn


def test_a_first_start_without_configuration_speaks_the_systems_language(
        monkeypatch: Any, tmp_path: Path) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, drawn = screenshot_texts(monkeypatch, tmp_path)  # COMPANION_CONFIG names no file
    assert code == 0 and log_title("de") in drawn and log_title("fr") not in drawn
    config = tmp_path / "config.toml"
    config.write_text("[web]\nport = 9123\n", encoding="utf-8")
    code, drawn = screenshot_texts(monkeypatch, tmp_path, "--config", str(config))
    assert code == 0 and log_title("fr") in drawn  # a configured table: its edition speaks


def test_the_systems_language_is_read_as_gettext_reads_it(tmp_path: Path) -> None:
    from companion.app.wiring import screen_language, system_language

    assert system_language({"LANGUAGE": "pl:en", "LANG": "sv_SE.UTF-8"}) == "pl"
    assert system_language({"LC_ALL": "nl_BE.UTF-8", "LANG": "fr_FR"}) == "nl"
    assert system_language({"LANG": "en_GB.UTF-8"}) == "en"
    assert system_language({"LANG": "C.UTF-8"}) == system_language({}) == ""
    assert system_language({"LANG": "ja_JP.UTF-8"}) == ""  # not one of the seven
    missing, present = tmp_path / "none.toml", tmp_path / "config.toml"
    present.write_text("", encoding="utf-8")
    assert screen_language("", missing, {"LANG": "ru_RU"}) == "ru"
    assert screen_language("", present, {"LANG": "ru_RU"}) == ""
    assert screen_language("sv", missing, {"LANG": "ru_RU"}) == "sv"


def test_a_screenshot_of_a_game_in_use_says_so(monkeypatch: Any, tmp_path: Path,
                                               capsys: Any) -> None:
    from companion.app import screenshot_cmd
    from companion.game.session import open_session

    data = tmp_path / "data"
    running = open_session(data)  # as companion run holds it
    try:
        code = screenshot_cmd.main(["--data-dir", str(data), "--out", str(tmp_path / "s.png")])
    finally:
        running.close()
    assert code == 2 and not (tmp_path / "s.png").exists()
    err = capsys.readouterr().err
    assert "in use by another companion" in err and "Traceback" not in err


def test_gpio_is_looked_for_before_gpiozero_is_imported(tmp_path: Path) -> None:
    from companion.app import wiring

    pattern = str(tmp_path / "gpiochip*")
    assert not wiring.has_gpio((pattern,))
    (tmp_path / "gpiochip0").touch()
    assert wiring.has_gpio((pattern,))


def test_the_join_link_follows_the_tables_address(tmp_path: Path, monkeypatch: Any) -> None:
    """A Pi's companion starts before its Wi-Fi is up: the join link named the loopback (no
    phone reaches it) until a restart. The watch moves it, and the QR code with it, once
    the network gives the table its address; a configured table URL stays."""
    from companion import net
    from companion.app.wiring import AddressWatch, WebRemote

    address = ["127.0.0.1"]
    monkeypatch.setattr(net, "lan_address", lambda: address[0])
    moved = threading.Event()
    with GameSession.open(tmp_path) as session:
        remote = WebRemote(session, "127.0.0.1", 0, tmp_path)
        remote.start()
        watch = AddressWatch(remote, moved.set, every=0.05)
        try:
            port = remote.handle.port
            before = remote.join_link()
            assert before.startswith(f"http://127.0.0.1:{port}/join/")
            assert not moved.wait(0.3)  # no change, no call
            address[0] = "10.42.0.1"
            assert moved.wait(5)
            after = remote.join_link()
            assert after == before.replace("127.0.0.1", "10.42.0.1")  # the same one-time code
            assert not remote.follow_address()  # nothing new since
        finally:
            watch.close()
            remote.close()
        configured = WebRemote(session, "127.0.0.1", 0, tmp_path,
                               table_url="http://table.fritz.box:8080/")
        configured.start()
        try:
            address[0] = "10.42.0.9"
            assert not configured.follow_address()
            assert configured.join_link().startswith("http://table.fritz.box:8080/join/")
        finally:
            configured.close()
