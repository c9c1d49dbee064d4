"""`serve(app, host, port, threads)`: run the remote on an event loop of its own thread, with
a handle that stops it cleanly (live streams ended, connections closed, threads joined).

Why not a thread per connection (waitress, before): a live stream held one of its worker
threads for as long as the phone kept the page open, so 32 phones starved every command,
and idle sockets of an unjoined laptop filled its connection limit. Here uvicorn (an asyncio
HTTP server) holds the connections; page and command requests run the Flask app on a
bounded pool of `threads` (a2wsgi), but for a phone's plain move, checked on the loop and
queued to the session's writer, which hands its outcome back to the loop (`Dispatcher.
_move`: no thread waits for the writer), while every live stream is written by the event
loop itself and takes no thread: a closed socket ends its stream at once. A move published to
every phone wakes the loop once, and that one pass writes it to every waiting stream
(`pump`); an answer built whole goes out in one send, its head and body together
(`Corked`). uvicorn parses with httptools (a C parser) where its wheel is installed, else
with the pure-Python h11; both on asyncio, and the guards below are the same on both.
httptools is an optional accelerator, never a dependency: scripts/install-fast.sh installs
its wheel from requirements/fast.txt where one fits this Python (64-bit Linux on x86_64 or
aarch64), and says so and goes on where none does (a 32-bit Pi OS, armv7l, even on a
64-bit kernel). Connections are
guarded before any request: at most `per_address` from one address (past it: a 503 and
closed), and when all `max_connections` are held a newcomer from a lighter address ends
one of the heaviest address's (Gate: a laptop with many addresses never shuts a phone
out); every request head must arrive whole in time (the first within `first_request_s`,
each next one within `next_request_s` of the answer before it, which also closes idle
kept-alive connections), and a body is read whole on the loop, within BODY_TIMEOUT_S,
before a thread runs the request. The Flask view
`/api/stream` still decides who may stream (joined phones, a cap per device and in total,
web_remote.hub); it hands the stream over through the ASGI scope.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import io
import logging
import math
import socket
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from flask import Flask
from uvicorn import Config, Server
from uvicorn.protocols.http.h11_impl import H11Protocol

from companion.game.api import Outcome
from web_remote.app import MOVE_PATH
from web_remote.hub import STREAM_SLOT, Client, Message
from web_remote.security import TABLE_SLOT

#: uvicorn's HTTP/1.1 protocol: httptools' C parser where its wheel is installed
#: (scripts/install-fast.sh), else h11's
HTTP_PROTOCOL: type[asyncio.Protocol]
try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    HTTP_PROTOCOL = HttpToolsProtocol
except ImportError:  # no wheel fitted this Python (armv7l): the pure-Python parser
    HTTP_PROTOCOL = H11Protocol


def parser_name(protocol: type[asyncio.Protocol]) -> str:
    """The HTTP parser a protocol class of uvicorn's (or one made from it) parses with:
    "httptools" or "h11" (said in the log at start and by the bench)."""
    return "h11" if issubclass(protocol, H11Protocol) else "httptools"

log = logging.getLogger(__name__)

#: threads for pages and commands (live streams take none)
MIN_THREADS = 8
#: connections one address may hold at once: a phone's browser opens about six
PER_ADDRESS = 32
#: a connection must send a whole request head within this long (s), or it is closed
FIRST_REQUEST_S = 8.0
#: the next request head on a kept-alive connection must be whole within this long after
#: the answer before it (s): an idle connection, or one dribbling a head, is closed then
KEEPALIVE_S = 15.0
#: connections open at once; past it a lighter address's newcomer replaces a heavier one's
MAX_CONNECTIONS = 512
#: a request body must have arrived whole within this long (s), or the answer is a 408
BODY_TIMEOUT_S = 10.0
#: addresses remembered as the table's (a player's or the banker's phone was seen there)
TABLE_ADDRESSES = 64
#: how long `serve` waits for the loop to start serving (s)
START_TIMEOUT_S = 10.0
#: how often the serving loop does its housekeeping while nothing else wakes it
TICK_S = 1.0

#: the ASGI scope key through which a request offers its connection's `Corked` transport
#: (web_remote.serving only): an answer built whole is written in one send, head and body
CORK_SLOT = "web_remote.cork"
#: how often a move waiting for the session's writer looks whether the writer still runs (s)
WRITER_LOOK_S = 1.0
#: an answer built whole: its status, its headers, its body
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]

#: answers up to this size (the body's bytes) go out in one send with their head; a larger
#: one (a backup) is not copied for it
CORK_MAX = 64 * 1024

_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
         b"Retry-After: 5\r\nConnection: close\r\nContent-Length: 45\r\n\r\n"
         b"Too many connections from this address: wait")


class Gate:
    """Connections open per address, and in all (used on the event loop only).

    No address may hold more than `per_address`; when all `total` are held, a newcomer
    from an address holding fewer than the heaviest one (by two or more) ends that heaviest
    address's oldest idle connection (else its oldest) and takes its place: a laptop with
    many addresses can fill the table's connections only until a phone comes, and every
    address keeps at least its share (total / addresses). The table's addresses (where a
    player's or the banker's phone was seen, `seated`) come first: their connections are
    never ended for another's, and a newcomer of theirs always ends one of the heaviest
    other address's (and when the table's hold every connection, the fair rule among them:
    a player's laptop with many addresses cannot shut the other players out)."""

    def __init__(self, per_address: int, total: int = 1 << 30) -> None:
        self.per_address = per_address
        self.total = total
        self.open: dict[str, list[Any]] = {}  # address -> its connections, oldest first
        self.count = 0
        self.table: dict[str, None] = {}  # the table's addresses, the latest seen last

    def seated(self, address: str) -> None:
        """A player's or the banker's phone sent a request from `address`."""
        self.table.pop(address, None)
        self.table[address] = None
        while len(self.table) > TABLE_ADDRESSES:  # the oldest are forgotten
            del self.table[next(iter(self.table))]

    def enter(self, address: str, conn: Any = None) -> bool:
        """Count one more connection from `address`; False past its share (not counted).
        `conn` (its protocol, with `idle` and `evict()`) may be ended later for another."""
        held = self.open.get(address, [])
        if len(held) >= self.per_address:
            return False
        if self.count >= self.total and not self._make_room(address, len(held)):
            return False
        self.open.setdefault(address, []).append(conn)
        self.count += 1
        return True

    def _make_room(self, address: str, mine: int) -> bool:
        """End one connection of the heaviest address not the table's, when it holds two
        more than `mine` (any number, for a newcomer of the table's); among the table's
        own addresses (when they hold every connection) the fair rule again."""
        def load(a: str) -> int:
            return len(self.open[a])

        heaviest = max((a for a in self.open if a not in self.table), key=load, default=None)
        fair = address not in self.table
        if heaviest is None and not fair:  # the table's hold them all: be fair among them
            heaviest, fair = max(self.open, key=load, default=None), True
        if heaviest is None or (fair and load(heaviest) < mine + 2):
            return False
        conns = self.open[heaviest]
        victim = next((c for c in conns if c is not None and c.idle), None) \
            or next((c for c in conns if c is not None), None)
        if victim is None:
            return False
        self._forget(heaviest, victim)
        victim.evict()
        return True

    def _forget(self, address: str, conn: Any) -> None:
        held = self.open.get(address)
        if held is None:
            return
        try:
            held.remove(conn)
        except ValueError:
            return
        self.count -= 1
        if not held:
            del self.open[address]

    def leave(self, address: str, conn: Any = None) -> None:
        """A counted connection closed."""
        self._forget(address, conn)


class Corked:
    """A connection's transport as uvicorn's protocol sees it: every write passes straight
    on, except between `hold` and `release`, whose writes go out as one (an answer's head
    and body: one send, one segment, where uvicorn writes each ASGI message as it comes).
    Closing writes what is held first; everything else is the transport's own."""

    def __init__(self, transport: asyncio.WriteTransport) -> None:
        self.transport = transport
        self._held: list[bytes] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._held is None:
            self.transport.write(data)
        elif data:  # (h11 writes an empty end of message)
            self._held.append(bytes(data))

    def writelines(self, lines: Any) -> None:
        for data in lines:
            self.write(data)

    def hold(self) -> None:
        """Keep the writes from now until `release`."""
        if self._held is None:
            self._held = []

    def release(self) -> None:
        """Write what was held, in one write."""
        held, self._held = self._held, None
        if held:
            self.transport.write(held[0] if len(held) == 1 else b"".join(held))

    def close(self) -> None:
        self.release()
        self.transport.close()

    def abort(self) -> None:
        self._held = None
        self.transport.abort()


def guarded_protocol(gate: Gate, first_request_s: float, next_request_s: float = 0.0,
                     base: type[asyncio.Protocol] | None = None) -> type[asyncio.Protocol]:
    """uvicorn's HTTP/1.1 protocol `base` (HTTP_PROTOCOL unless said: httptools' where
    installed, else h11's) behind the gate: a connection past its address's share gets a
    503 and is closed; every request head must arrive whole in time (the first within
    `first_request_s` of connecting, each next one within `next_request_s` of the answer
    before it, which also closes an idle kept-alive connection), or the connection is
    closed. The asyncio.Protocol methods are extended, and uvicorn's own hooks (h11's
    `handle_events` or httptools' `on_headers_complete`, and `on_response_complete`, each
    calling uvicorn's own) say when a request head was read and when an answer ended."""
    between = next_request_s or KEEPALIVE_S
    parent: Any = base or HTTP_PROTOCOL

    class Guarded(parent):  # type: ignore[misc]
        _address = ""
        _counted = False
        _deadline: asyncio.TimerHandle | None = None
        _waiting_after: object = None  # the finished request whose successor is awaited

        @property
        def idle(self) -> bool:
            """No request is being answered (waiting for a head, or between requests)."""
            return self.cycle is None or bool(self.cycle.response_complete)

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(Corked(transport))  # type: ignore[arg-type]
            self._address = self.client[0] if self.client else ""
            if not gate.enter(self._address, self):
                self.transport.write(_BUSY)
                self.transport.close()
                return
            self._counted = True
            self._arm(first_request_s)

        def _arm(self, seconds: float) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._waiting_after = self.cycle
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def handle_events(self) -> None:  # h11's: the events of the data received
            super().handle_events()
            self._head_read()

        def on_headers_complete(self) -> None:  # httptools': a request head was parsed
            super().on_headers_complete()
            self._head_read()

        def _head_read(self) -> None:
            scope = getattr(self, "scope", None)  # the request's, before its app runs
            if scope is not None:
                scope[CORK_SLOT] = self.transport
            if self._deadline is not None and self.cycle is not self._waiting_after:
                self._disarm()  # a whole request head came: its request is answered now

        def on_response_complete(self) -> None:
            answered = self.cycle
            super().on_response_complete()
            if not self.transport.is_closing() and self.cycle is answered:
                self._arm(between)  # the next head (or the end) must come in time

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._counted:
                self._counted = False
                gate.leave(self._address, self)
            super().connection_lost(exc)

        def evict(self) -> None:
            """Closed to make room for another address's connection (the gate forgot it)."""
            self._counted = False
            self._disarm()
            self.transport.close()

        def _too_slow(self) -> None:
            self._deadline = None
            self.transport.close()

    return Guarded


class Dispatcher:
    """The ASGI app: `/api/stream` answered by the Flask view, then written by the loop; a
    phone's plain move checked and queued from the loop (`_move`); every other request runs
    the Flask app on the thread pool."""

    def __init__(self, app: Flask, threads: int, gate: Gate | None = None) -> None:
        self.wsgi = WSGIMiddleware(app, workers=threads)  # type: ignore[arg-type]
        self.gate = gate
        self.max_body = int(app.config.get("MAX_CONTENT_LENGTH") or 64 * 1024)
        self.ready = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.wakers: Wakers | None = None  # the live streams' wake-ups (made on its loop)
        self.stopping = False  # the server stops: no body is waited for any more
        self.reading: set[asyncio.Task[Any]] = set()  # requests waiting for their body

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    self.loop = asyncio.get_running_loop()
                    self.wakers = Wakers(self.loop)
                    self.ready.set()
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        if scope["path"] == "/api/stream" and scope["method"] == "GET":
            await self._stream(scope, receive, send)
        else:
            await self._buffered(scope, receive, send)

    async def _buffered(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Run the Flask app once the whole body is here: a phone sending its body slowly
        holds a connection, never a pool thread. A body said to be over the limit goes on
        unread (Flask answers 413); one that takes too long gets a 408."""
        limit = self.max_body
        said = next((v for k, v in scope["headers"] if k == b"content-length"), b"0")
        if said.isdigit() and int(said) > limit:
            await self.wsgi(scope, receive, send)  # type: ignore[arg-type]
            return
        body = bytearray()
        task = asyncio.current_task()
        if self.stopping or task is None:
            await _plain(send, 503, b"The remote is stopping.")
            return
        self.reading.add(task)  # `close` cancels it: the server stops, nothing is waited for
        try:
            async with asyncio.timeout(BODY_TIMEOUT_S):
                more = True
                while more and len(body) <= limit:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    body += message.get("body", b"")
                    more = bool(message.get("more_body", False))
        except TimeoutError:
            await _plain(send, 408, b"The request took too long.")
            return
        except asyncio.CancelledError:
            if not self.stopping:
                raise
            task.uncancel()
            await _plain(send, 503, b"The remote is stopping.")
            return
        finally:
            self.reading.discard(task)
        whole = bytes(body[:limit + 1])  # past the limit: cut there, and Flask answers 413
        scope = dict(scope)
        scope["headers"] = [(k, v) for k, v in scope["headers"]
                            if k not in (b"content-length", b"transfer-encoding")]
        scope["headers"].append((b"content-length", str(len(whole)).encode()))
        await self._whole(scope, whole, send)
        self._seen(scope)

    async def _whole(self, scope: dict[str, Any], body: bytes, send: Any) -> None:
        """Run the Flask app on a pool thread for a request whose body is here, and send its
        whole answer from the loop in two messages: a2wsgi hands each part of an answer
        (its head, each chunk, the end) from the thread to the loop and waits for the loop
        to take it, three round trips and three writes for a page, which a table's phones
        read after every move (issue 28). Every answer here is built in memory already
        (pages, JSON, a backup); the live streams go through `_stream`."""
        environ = build_environ(scope, io.BytesIO(body))  # type: ignore[arg-type]
        loop = asyncio.get_running_loop()
        context, app = contextvars.copy_context(), self.wsgi.app

        def job() -> tuple[int, list[tuple[bytes, bytes]], bytes]:
            return context.run(_answer, app, environ)

        try:
            answered = await self._move(environ) if scope["path"] == MOVE_PATH else None
            if answered is None:
                answered = await loop.run_in_executor(self.wsgi.executor, job)
        except Exception:  # the app's own errors are Flask's 500s; this is ours
            log.exception("the remote could not answer %s", scope.get("path"))
            await _plain(send, 500, b"The remote failed to answer.")
            return
        status, headers, content = answered
        cork = scope.get(CORK_SLOT) if len(content) <= CORK_MAX else None
        if cork is not None:
            cork.hold()  # the head and the body in one send
        try:
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})
        finally:
            if cork is not None:
                cork.release()

    async def _move(self, environ: Any) -> Answer | None:
        """A phone's move answered without a pool thread (issue 28): its checks on the loop
        (`MoveFastPath.begin`), its command queued to the session's writer, which hands the
        outcome back to the loop once the row is durable, and the answer made on the loop
        from it; a thread went from the loop to the pool, from the pool to the writer and
        back each way before. None: the request is the pool's (anything Flask answers).
        While the command waits, the writer is looked at once a second: one that stopped
        is answered as `submit` answers it (the game session stopped)."""
        mover: Any = getattr(self.wsgi.app, "wsgi_app", None)
        begin = getattr(mover, "begin", None)
        if begin is None:
            return None
        loop = asyncio.get_running_loop()
        told: asyncio.Future[Outcome | Exception] = loop.create_future()

        def settle(result: Outcome | Exception) -> None:  # on the loop
            if not told.done():
                told.set_result(result)

        def tell(result: Outcome | Exception) -> None:  # the writer's thread (or the loop)
            try:
                loop.call_soon_threadsafe(settle, result)
            except RuntimeError:  # the loop has ended: nobody waits for the answer
                pass

        game = begin(environ, tell)
        if game is None:
            return None
        timer: asyncio.TimerHandle | None = None

        def look() -> None:  # once a second while the move waits: is the writer there?
            nonlocal timer
            if told.done():
                return
            if not game.healthy(math.inf):  # its threads ended (no stuck time counts)
                settle(Outcome(False, game.version, code="session_closed",
                               message="the game session stopped"))
            else:
                timer = loop.call_later(WRITER_LOOK_S, look)

        timer = loop.call_later(WRITER_LOOK_S, look)
        try:
            result = await told
        finally:
            timer.cancel()
        return _answer(functools.partial(mover.answer, result), environ)

    def _seen(self, scope: dict[str, Any]) -> None:
        """After the app answered: a request the app marked as a player's or the banker's
        makes its address the table's (the gate keeps its connections first)."""
        client = scope.get("client")
        if scope.get(TABLE_SLOT) and self.gate is not None and client:
            self.gate.seated(str(client[0]))

    def close(self) -> None:
        """Stop waiting for slow bodies (the server is stopping); from any thread."""
        loop = self.loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._stop_reading)
            except RuntimeError:  # the loop has ended already
                pass

    def _stop_reading(self) -> None:
        self.stopping = True
        for task in list(self.reading):
            task.cancel()

    async def _stream(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The Flask view admits the phone (or refuses it); an admitted stream is written
        here, on the loop, until it ends or the phone goes away."""
        scope[STREAM_SLOT] = None  # the view puts (client, first messages, keep-alive) here
        held: list[dict[str, Any]] = []

        async def hold(message: dict[str, Any]) -> None:
            held.append(message)

        await self.wsgi(scope, receive, hold)  # type: ignore[arg-type]
        self._seen(scope)
        slot = scope.get(STREAM_SLOT)
        if slot is None or not held or held[0]["type"] != "http.response.start":
            for message in held:  # a refusal: passed on as it was
                await send(message)
            return
        client, first, keepalive = slot
        start = dict(held[0])
        start["headers"] = [(k, v) for k, v in start["headers"] if k != b"content-length"]
        try:
            await send(start)
            await pump(client, first, float(keepalive), receive, send, self.wakers)
        finally:
            client.close()


def _answer(app: Any, environ: Any) -> Answer:
    """The WSGI app's whole answer (status, headers, body): on a pool thread, or on the
    loop for a phone's move answered from its outcome (`Dispatcher._move`)."""
    head: list[Any] = []
    parts: list[bytes] = []

    def start_response(status: str, response_headers: list[tuple[str, str]],
                       exc_info: Any = None) -> Any:
        head[:] = [int(status.split(" ", 1)[0]),
                   [(name.strip().encode("latin1").lower(), value.strip().encode("latin1"))
                    for name, value in response_headers]]
        return parts.append

    iterable = app(environ, start_response)
    try:
        parts.extend(iterable)
    finally:
        close = getattr(iterable, "close", None)
        if close is not None:
            close()
    if not head:
        raise RuntimeError("the app answered without starting a response")
    return head[0], head[1], b"".join(parts)


async def _plain(send: Any, status: int, text: bytes) -> None:
    """A short plain-text answer that closes the connection."""
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": text})


class Wakers:
    """Wakes the loop's stream writers from other threads (the session's listener, which
    publishes a move to every phone's queue at once): one hand-over to the loop for all the
    streams woken together (`wake`, which web_remote.hub.wake_all calls once for a message
    every phone gets), not one each (a self-pipe write and a wake of the loop per phone)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._lock = threading.Lock()
        self._due: list[Callable[[], None]] = []

    def waker(self, wake: asyncio.Event, flush: Callable[[], None] | None = None) -> Waker:
        """A waker for any thread: the loop soon calls `flush` (a stream's writer writing
        what is queued there and then), or sets `wake` when there is none."""
        return Waker(self, flush or wake.set)

    def wake(self, wakers: list[Waker]) -> None:
        """From any thread: run these wakers' work on the loop soon, in one hand-over with
        any others due before the loop gets to them."""
        with self._lock:
            first = not self._due
            self._due.extend(w.run for w in wakers)
        if first:  # the loop is told once for all that come before it runs
            try:
                self.loop.call_soon_threadsafe(self._set)
            except RuntimeError:  # the loop has ended
                pass

    def after(self, callback: Callable[[], None]) -> None:
        """From any thread: call `callback` on the loop once the wake-ups handed over before
        it ran (their streams written); at once when the loop has ended."""
        try:
            self.loop.call_soon_threadsafe(callback)
        except RuntimeError:  # the loop has ended
            callback()

    def _set(self) -> None:
        with self._lock:
            due, self._due = self._due, []
        for run in due:
            try:
                run()
            except Exception:  # one stream's failure must not leave the others asleep
                log.exception("a live stream's wake-up failed")


class Waker:
    """One stream's waker (a web_remote.hub.Client's `waker`): called alone it hands itself
    to the loop; `together` wakes a list of them in one hand-over (web_remote.hub.wake_all)."""

    __slots__ = ("run", "together", "after")

    def __init__(self, wakers: Wakers, run: Callable[[], None]) -> None:
        self.run = run  # on the loop
        self.together = wakers.wake
        self.after = wakers.after  # Hub.written waits on it

    def __call__(self) -> None:
        self.together([self])


async def _finish(step: Coroutine[Any, Any, Any], waits_on: Any) -> None:
    """Run to its end, as a task would have, a coroutine stepped once outside any task that
    then waited on `waits_on` (what it yielded: a future, or None for a bare yield)."""
    while True:
        try:
            if waits_on is None:
                await asyncio.sleep(0)
            else:  # taken on as a task takes what its coroutine yields (else await refuses)
                waits_on._asyncio_future_blocking = False
                await waits_on
        except BaseException as exc:  # what it waited for failed, or this task is cancelled
            try:
                waits_on = step.throw(exc)
            except StopIteration:
                return
            continue
        try:
            waits_on = step.send(None)
        except StopIteration:
            return


async def pump(client: Client, first: list[Message], keepalive: float, receive: Any,
               send: Any, wakers: Wakers | None = None) -> None:
    """Write one phone's stream: the first messages, then what is queued each time it is
    woken, a keep-alive comment once it was quiet for `keepalive` seconds; ends when the hub
    ends it or the phone disconnects. Each event's bytes were made once for every phone
    (`Message.encode`); the keep-alive's one timer is moved only when it runs out, not at
    every write (a move wakes every stream at once). While the writer waits, a wake-up
    writes what is queued right there on the loop (`flush`), without resuming this task
    (twelve phones' streams written in one pass of the loop after a move); anything else (the
    end, the phone gone, a write that must wait for the socket to drain) resumes it, and
    the stream's bytes stay in order: a write that had to wait is finished before the next."""
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()
    gone = quiet = False
    last = loop.time()  # when the stream last carried something
    timer: asyncio.TimerHandle | None = None
    waiting = False  # the task waits for a wake-up: `flush` may write for it
    late: asyncio.Task[None] | None = None  # flush's write that had to wait for the socket
    failed: Exception | None = None  # flush's write failed: the task raises it

    def check_quiet() -> None:
        nonlocal timer, quiet
        left = last + keepalive - loop.time()
        if left > 0:  # written since: look again when it has been quiet long enough
            timer = loop.call_later(left, check_quiet)
        else:
            quiet = True
            wake.set()

    async def watch() -> None:
        nonlocal gone
        while (await receive())["type"] != "http.disconnect":
            pass
        gone = True
        wake.set()

    def body(data: bytes) -> dict[str, Any]:
        return {"type": "http.response.body", "body": data, "more_body": True}

    def flush() -> None:
        """On the loop, woken: write the queued messages now if the task waits and the
        write needs no waiting; else (or when the stream ended) wake the task."""
        nonlocal last, late, failed
        if not waiting or gone or late is not None or failed is not None:
            wake.set()
            return
        batch, ended = client.take()
        if batch:
            try:
                step = send(body(batch[0].encode() if len(batch) == 1
                                 else b"".join(m.encode() for m in batch)))
                waits_on = step.send(None)
            except StopIteration:  # written
                last = loop.time()
            except Exception as exc:  # as the task's own write would have raised it
                failed = exc
                wake.set()
                return
            else:  # the transport is full: the rest is a task's, which the writer awaits
                late = loop.create_task(_finish(step, waits_on))
                wake.set()
                return
        if ended:
            wake.set()

    client.waker = (wakers or Wakers(loop)).waker(wake, flush)
    watcher = loop.create_task(watch())
    timer = loop.call_later(keepalive, check_quiet)

    async def write(data: bytes) -> None:
        nonlocal last
        await send(body(data))
        last = loop.time()

    try:
        await write(b"retry: 2000\n\n" + b"".join(m.encode() for m in first))
        while not gone:
            wake.clear()  # before taking: a message queued after the take wakes it again
            if late is not None:  # flush's write first: the stream's bytes in order
                await late
                late = None
                last = loop.time()
            if failed is not None:
                raise failed
            batch, ended = client.take()
            if batch:
                await write(batch[0].encode() if len(batch) == 1
                            else b"".join(m.encode() for m in batch))
            elif quiet:
                await write(b": keep-alive\n\n")
            if quiet:
                quiet = False
                timer = loop.call_later(keepalive, check_quiet)
            if ended or gone:
                break
            waiting = True
            try:
                await wake.wait()
            finally:
                waiting = False
        if not gone:
            if late is not None:
                await late
                late = None
            await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        if timer is not None:
            timer.cancel()
        if late is not None:
            late.cancel()
        client.waker = None
        client.close()
        watcher.cancel()


class QuietServer(Server):
    """uvicorn's server with its housekeeping tick (the Date header, the exit check) once a
    second instead of ten times: an idle table's serving thread wakes once a second, and
    `exit_now` still stops it at once."""

    def __init__(self, config: Config) -> None:
        super().__init__(config)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None

    async def main_loop(self) -> None:
        """uvicorn's loop, each pass a second (the counter steps by ten, so that uvicorn
        refreshes its Date header on every pass, as it does once a second)."""
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 10) % 864000
            try:
                await asyncio.wait_for(self._wake.wait(), TICK_S)
            except TimeoutError:
                pass
            should_exit = await self.on_tick(counter)

    def exit_now(self) -> None:
        """From any thread: stop serving (gracefully) without waiting for the next tick."""
        self.should_exit = True
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            try:
                loop.call_soon_threadsafe(wake.set)
            except RuntimeError:  # the loop has already closed
                pass


class ServerHandle:
    """A running server: its address, and `stop()`."""

    def __init__(self, app: Flask, server: QuietServer, dispatcher: Dispatcher,
                 sock: socket.socket, thread: threading.Thread, parser: str = "h11") -> None:
        self.app = app
        #: the HTTP parser uvicorn serves with: "httptools" (its wheel installed) or "h11"
        self.parser = parser
        self._server = server
        self._dispatcher = dispatcher
        self._sock = sock
        self._thread = thread
        self.host, self.port = sock.getsockname()[:2]
        self._stopped = False

    @property
    def url(self) -> str:
        """The base URL ("http://127.0.0.1:8080")."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def stop(self, timeout: float = 5.0) -> None:
        """End the live streams, let running requests finish, close every connection and
        join the serving thread and the pool's threads."""
        if self._stopped:
            return
        self._stopped = True
        self.app.extensions["web_remote"].close()  # ends the live streams first
        self._dispatcher.close()  # and the waits for slow bodies
        self._server.config.timeout_graceful_shutdown = max(1, int(timeout))
        self._server.exit_now()
        self._thread.join(timeout + 2)
        self._dispatcher.wsgi.executor.shutdown(wait=True)
        self._sock.close()

    def __enter__(self) -> ServerHandle:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket (OSError now, in the caller, when the port is busy)."""
    family, kind, proto, _name, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(1024)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int = MIN_THREADS,
          *, per_address: int = PER_ADDRESS, first_request_s: float = FIRST_REQUEST_S,
          next_request_s: float = KEEPALIVE_S,
          max_connections: int = MAX_CONNECTIONS, pure: bool = False) -> ServerHandle:
    """Start serving `app` in the background (port 0: any free port); returns the handle
    once the loop serves. `threads` run pages and commands; streams take none. The
    connection guards (`per_address`, `first_request_s`, `next_request_s`,
    `max_connections`) are the module's constants unless a test says otherwise. `pure`:
    uvicorn's pure-Python h11 even where httptools is installed (as a machine without its
    wheel serves: the tests hold both parsers to the same guards)."""
    sock = listening_socket(host, port)
    gate = Gate(per_address, max_connections)
    dispatcher = Dispatcher(app, max(threads, 2), gate)
    protocol = H11Protocol if pure else HTTP_PROTOCOL
    config = Config(
        dispatcher, ws="none",
        http=guarded_protocol(gate, first_request_s, next_request_s, protocol),
        lifespan="on", loop="asyncio", log_config=None, log_level="warning",
        access_log=False, proxy_headers=False, server_header=False,
        timeout_keep_alive=max(1, int(next_request_s)),
        limit_concurrency=2 * max_connections,  # a backstop: the gate makes room before it
        backlog=1024)
    server = QuietServer(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="web-remote", daemon=True)
    thread.start()
    if not dispatcher.ready.wait(START_TIMEOUT_S):
        server.should_exit = True
        sock.close()
        raise RuntimeError("the phone remote did not start serving")
    log.info("the phone remote parses HTTP with %s", parser_name(protocol))
    return ServerHandle(app, server, dispatcher, sock, thread, parser_name(protocol))
