"""companion.app.systemd against a real unix datagram socket standing in for systemd."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app import systemd


class FakeManager:
    """A bound datagram socket, as systemd's notify socket is; reads what was sent."""

    def __init__(self, sock: socket.socket, address: str) -> None:
        self.sock = sock
        self.env = {"NOTIFY_SOCKET": address}

    def received(self) -> list[str]:
        """Every datagram waiting, without blocking (sendto has delivered them already)."""
        got = []
        while True:
            try:
                got.append(self.sock.recv(8192).decode("utf-8"))
            except BlockingIOError:
                return got


@pytest.fixture
def manager() -> Iterator[FakeManager]:
    # A short directory: a unix socket's path must fit in 108 bytes.
    short = Path(tempfile.mkdtemp(prefix="sd-", dir="/tmp"))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(short / "notify"))
    sock.setblocking(False)
    try:
        yield FakeManager(sock, str(short / "notify"))
    finally:
        sock.close()
        shutil.rmtree(short)


def test_ready_sends_ready_and_status(manager: FakeManager) -> None:
    assert systemd.ready("table open", environ=manager.env)
    assert manager.received() == ["READY=1\nSTATUS=table open"]


def test_watchdog_sends_watchdog(manager: FakeManager) -> None:
    assert systemd.watchdog(environ=manager.env)
    assert systemd.notify("STOPPING=1", environ=manager.env)
    assert manager.received() == ["WATCHDOG=1", "STOPPING=1"]


def test_abstract_socket() -> None:
    """"@name" is an abstract socket (no file), as systemd may hand out."""
    name = f"table-companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.setblocking(False)
        assert systemd.ready(environ={"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(100) == b"READY=1"


def test_outside_systemd_nothing_is_sent() -> None:
    assert not systemd.ready(environ={})
    assert not systemd.watchdog(environ={"NOTIFY_SOCKET": ""})
    assert not systemd.notify("READY=1", environ={"NOTIFY_SOCKET": "vsock:2:1234"})


def test_a_vanished_socket_does_not_stop_the_game(tmp_path: Path) -> None:
    assert not systemd.watchdog(environ={"NOTIFY_SOCKET": str(tmp_path / "gone")})


def test_bad_state_is_refused(manager: FakeManager) -> None:
    with pytest.raises(ValueError, match="1 to 4096 bytes"):
        systemd.notify("", environ=manager.env)
    with pytest.raises(ValueError):
        systemd.notify("STATUS=" + "x" * 5000, environ=manager.env)
    assert manager.received() == []


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 30.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}, 30.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, None),  # someone else's
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval(env: dict[str, str], expected: float | None) -> None:
    assert systemd.watchdog_interval(env) == expected


def test_heartbeat_feeds_at_a_third_of_the_interval(manager: FakeManager) -> None:
    env = {**manager.env, "WATCHDOG_USEC": "30000000"}
    heart = systemd.Heartbeat(env)
    assert heart.every == 10.0
    sent = [heart.beat(now) for now in (100.0, 101.0, 109.9, 110.0, 115.0, 120.5)]
    assert sent == [True, False, False, True, False, True]
    assert manager.received() == ["WATCHDOG=1"] * 3


def test_heartbeat_without_a_watchdog_sends_nothing(manager: FakeManager) -> None:
    heart = systemd.Heartbeat(manager.env)  # a notify socket but no WatchdogSec=
    assert heart.every is None
    assert not heart.beat(0.0) and not heart.beat(1000.0)
    assert manager.received() == []
