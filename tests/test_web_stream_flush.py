"""The live streams' writes from the loop's wake-up (web_remote.serving.pump's `flush`): a
move's bytes are written to every waiting stream in the one pass of the loop that the
publish's one hand-over runs, in order, and a write that must wait for the socket (flow
control) is finished before anything after it; an answer's head and body go out in one
write (`Corked`). Driven on an event loop with a recording `send`, no server."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from web_remote.hub import Client, Hub, Message, wake_all
from web_remote.serving import Corked, Waker, Wakers, pump

EVENT = "state"


def _frame(version: int) -> bytes:
    return Message(EVENT, {"version": version}, ident=version).encode()


class Phone:
    """A recording ASGI `send` and `receive` for one stream: `hold` makes the next writes
    wait (as uvicorn's send waits for a full socket to drain) until `drain`."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.written: list[bytes] = []
        self.ended = False
        self.held: asyncio.Future[None] | None = None
        self.resumed_writer = 0  # writes made from pump's own task (not the wake-up)
        self.gone = loop.create_future()
        self.fail = False  # the next write raises (as uvicorn's send on a broken answer)

    def hold(self) -> None:
        self.held = self.loop.create_future()

    def drain(self) -> None:
        held, self.held = self.held, None
        assert held is not None
        held.set_result(None)

    async def send(self, message: dict[str, Any]) -> None:
        while self.held is not None:
            await self.held
        if self.fail:
            raise RuntimeError("Unexpected ASGI message")
        if asyncio.current_task() is not None and \
                asyncio.current_task().get_name() == "pump":  # type: ignore[union-attr]
            self.resumed_writer += 1
        if message.get("more_body"):
            self.written.append(message["body"])
        else:
            self.ended = True

    async def receive(self) -> dict[str, Any]:
        await self.gone
        return {"type": "http.disconnect"}


def _run(loop: asyncio.AbstractEventLoop, steps: int = 5) -> None:
    for _ in range(steps):
        loop.run_until_complete(asyncio.sleep(0))


@pytest.fixture
def loop() -> Any:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def _streams(loop: asyncio.AbstractEventLoop, hub: Hub, wakers: Wakers, n: int
             ) -> list[tuple[Client, Phone, asyncio.Task[None]]]:
    out = []
    for k in range(n):
        client = hub.subscribe(f"phone{k}")
        assert client is not None
        p = Phone(loop)
        task = loop.create_task(pump(client, [], 60.0, p.receive, p.send, wakers), name="pump")
        out.append((client, p, task))
    _run(loop)  # each writes its first bytes and waits
    return out


def _count_handovers(loop: Any) -> list[object]:
    """The callbacks handed to `loop` from other threads from now on
    (`call_soon_threadsafe`, still run as before), in order."""
    handed: list[object] = []
    real = loop.call_soon_threadsafe

    def counted(callback: Any, *args: Any) -> Any:
        handed.append(callback)
        return real(callback, *args)

    loop.call_soon_threadsafe = counted
    return handed


def test_a_move_is_written_to_every_stream_in_one_pass_of_the_loop(loop: Any) -> None:
    """Published from another thread (the session's listener): one hand-over to the loop,
    and every waiting stream has the move's bytes when the loop has run it once; its
    writer task was not resumed for it."""
    hub, wakers = Hub(), Wakers(loop)
    streams = _streams(loop, hub, wakers, 12)
    handed = _count_handovers(loop)
    for version in (2, 3):
        publisher = threading.Thread(target=hub.publish,
                                     args=(EVENT, {"version": version}, version))
        publisher.start()
        publisher.join(5)
        loop.run_until_complete(asyncio.sleep(0))  # one pass: the hand-over runs
        for _client, p, _task in streams:
            assert p.written[-1] == _frame(version)
    assert len(handed) == 2  # one hand-over a move, for all twelve
    assert all(p.resumed_writer == 1 for _c, p, _t in streams)  # the first bytes only
    for client, _p, _task in streams:
        client.end()
    _run(loop)
    assert all(p.ended and t.done() and t.exception() is None for _c, p, t in streams)


def test_a_write_that_must_wait_keeps_the_stream_in_order(loop: Any) -> None:
    """The socket is full when a move comes (uvicorn's send waits for it to drain): that
    write is finished first, then what came meanwhile, in order; the end comes last."""
    hub, wakers = Hub(), Wakers(loop)
    [(client, p, task)] = _streams(loop, hub, wakers, 1)
    p.hold()
    hub.publish(EVENT, {"version": 2}, 2)
    _run(loop)
    assert p.written == [b"retry: 2000\n\n"]  # waiting for the socket
    hub.publish(EVENT, {"version": 3}, 3)
    hub.publish(EVENT, {"version": 4}, 4)
    _run(loop)
    assert p.written == [b"retry: 2000\n\n"]
    p.drain()
    _run(loop)
    assert p.written[1:] == [_frame(2), _frame(3) + _frame(4)]
    hub.publish(EVENT, {"version": 5}, 5)  # written from the wake-up again
    _run(loop)
    assert p.written[-1] == _frame(5)
    p.hold()
    hub.publish(EVENT, {"version": 6}, 6)
    client.end()  # ended while a write waits: that write, then the end
    _run(loop)
    assert not p.ended
    p.drain()
    _run(loop)
    assert p.written[-1] == _frame(6) and p.ended and task.done()
    assert task.exception() is None


def test_a_write_that_fails_ends_the_stream(loop: Any) -> None:
    """A write from the wake-up that raises ends the stream as the writer's own would:
    its task raises it, and the phone leaves the hub."""
    hub, wakers = Hub(), Wakers(loop)
    [(client, p, task)] = _streams(loop, hub, wakers, 1)
    p.fail = True
    hub.publish(EVENT, {"version": 2}, 2)
    _run(loop)
    assert task.done() and isinstance(task.exception(), RuntimeError)
    assert hub.count == 0


def test_a_message_that_cannot_be_written_ends_the_streams_not_the_loop(loop: Any) -> None:
    """A message whose bytes cannot be made (its payload is not JSON) ends each stream it
    was queued for, as the writer's own write would; one wake-up's failure never leaves the
    streams after it asleep."""
    hub, wakers = Hub(), Wakers(loop)
    streams = _streams(loop, hub, wakers, 3)
    hub.publish(EVENT, {"version": object()}, 2)
    _run(loop)
    assert all(t.done() and isinstance(t.exception(), TypeError) for _c, _p, t in streams)
    assert hub.count == 0
    woken: list[int] = []

    def broken() -> None:
        raise RuntimeError("a wake-up that fails")

    wakers.wake([Waker(wakers, broken), Waker(wakers, lambda: woken.append(1))])
    _run(loop)
    assert woken == [1]


def test_a_phone_gone_while_a_write_waits(loop: Any) -> None:
    """The phone goes away while a write waits for the socket (uvicorn then lets the
    waiting write return): the stream ends, the phone leaves the hub, nothing is left
    running; and a server stopping cancels a stream whose write waits, that write too."""
    hub, wakers = Hub(), Wakers(loop)
    [(client, p, task), (client2, p2, task2)] = _streams(loop, hub, wakers, 2)
    p.hold()
    p2.hold()
    hub.publish(EVENT, {"version": 2}, 2)
    _run(loop)
    p.gone.set_result(None)
    p.drain()
    _run(loop)
    assert task.done() and task.exception() is None
    assert not task2.done()
    task2.cancel()  # the server stops
    _run(loop)
    assert task2.cancelled() and hub.count == 0
    assert [t for t in asyncio.all_tasks(loop) if not t.done()] == []


def test_wake_all_hands_over_once_however_the_threads_interleave(loop: Any) -> None:
    """`wake_all` hands the serving loop's wakers over together: one hand-over, even with the
    loop running them while another thread publishes; other wakers are called each."""
    wakers = Wakers(loop)
    events = [asyncio.Event() for _ in range(12)]
    handed = _count_handovers(loop)
    plain: list[int] = []
    wake_all([wakers.waker(e) for e in events] + [lambda: plain.append(1)])
    assert len(handed) == 1 and plain == [1]
    loop.run_until_complete(asyncio.sleep(0))
    assert all(e.is_set() for e in events)


class _Transport:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = self.aborted = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def is_closing(self) -> bool:
        return self.closed


def test_corked_writes_what_it_held_in_one_write() -> None:
    t = _Transport()
    cork = Corked(t)  # type: ignore[arg-type]
    cork.write(b"a")
    assert t.writes == [b"a"]  # not held: straight on
    cork.hold()
    cork.write(b"HTTP/1.1 200 OK\r\n\r\n")
    cork.write(memoryview(b"{}"))
    assert t.writes == [b"a"]
    cork.release()
    assert t.writes == [b"a", b"HTTP/1.1 200 OK\r\n\r\n{}"]
    cork.release()  # nothing held: nothing written
    assert len(t.writes) == 2
    cork.hold()
    cork.write(b"head")
    cork.write(b"body")
    cork.close()  # uvicorn closes a connection: close after the answer: what is held first
    assert t.writes[-1] == b"headbody" and t.closed
    assert cork.is_closing()  # everything else is the transport's
    t2 = _Transport()
    cork2 = Corked(t2)  # type: ignore[arg-type]
    cork2.hold()
    cork2.write(b"x")
    cork2.abort()
    assert t2.writes == [] and t2.aborted
