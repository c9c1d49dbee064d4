"""Live updates: one bounded queue per connected phone, fed by the session's listener.

The listener runs on the session's writer thread, so `publish` only drops a message into
each queue and wakes its writer (never blocks, never serializes); the writer (the serving
event loop, web_remote.serving.pump) encodes it, once per message for everyone, and writes
it out as a Server-Sent Event. Streams are capped per device and in total.

After a move every phone is sent which pages the move changed, not the state: judged once
for all of them (web_remote.context.Remote._told, from the state's change, `state_change`)
and encoded once; a stream's first event carries the version alone, and a client that wants
the state reads /api/state (docs/phone-remote.md).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

JSON = dict[str, Any]
#: one step of a change: [path, value] sets the value at the path (object keys and array
#: indexes from the top), [path] deletes that key; an empty path is the whole state
Step = list[Any]

#: a client that has this many undelivered messages is too slow: it is dropped and reconnects
QUEUE_LIMIT = 256


def state_change(before: Any, after: Any) -> list[Step]:
    """The steps that turn `before` into `after` (JSON values): objects are compared key by
    key and arrays of the same length item by item, down to what differs; anything else is
    set whole. Equal parts cost one comparison each (done in C).

    >>> state_change({"a": 1, "p": [{"c": 5}, {"c": 7}], "x": 0}, {"a": 1, "p": [{"c": 5},
    ...               {"c": 6}], "y": None})
    [[['p', 1, 'c'], 6], [['y'], None], [['x']]]
    """
    steps: list[Step] = []
    _changed(before, after, [], steps)
    return steps


def _changed(before: Any, after: Any, path: list[Any], steps: list[Step]) -> None:
    if type(before) is not type(after):
        steps.append([path, after])
    elif isinstance(after, dict):
        for key, value in after.items():
            if key not in before:
                steps.append([[*path, key], value])
            elif before[key] != value or type(before[key]) is not type(value):
                _changed(before[key], value, [*path, key], steps)
        steps.extend([[*path, key]] for key in before if key not in after)
    elif isinstance(after, list) and len(after) == len(before):
        for i, (old, new) in enumerate(zip(before, after, strict=True)):
            if old != new or type(old) is not type(new):
                _changed(old, new, [*path, i], steps)
    elif before != after:
        steps.append([path, after])


class Message:
    """One event for every phone; encoded lazily and only once."""

    __slots__ = ("event", "payload", "ident", "_data", "_lock")

    def __init__(self, event: str, payload: Any, ident: int | None = None) -> None:
        self.event = event
        self.payload = payload
        self.ident = ident
        self._data: bytes | None = None
        self._lock = threading.Lock()

    def encode(self) -> bytes:
        """The Server-Sent Event bytes: optional id, event name, one JSON data line."""
        data = self._data
        if data is None:
            with self._lock:
                if self._data is None:
                    head = f"id: {self.ident}\n" if self.ident is not None else ""
                    body = json.dumps(self.payload, separators=(",", ":"), ensure_ascii=False)
                    self._data = f"{head}event: {self.event}\ndata: {body}\n\n".encode()
                data = self._data
        return data


#: the ASGI scope key through which the `/api/stream` view hands its stream to the event
#: loop (web_remote.serving); absent when another WSGI server runs the app
STREAM_SLOT = "web_remote.stream"
#: live streams at once, for the whole table: past it a phone is told to try again
MAX_STREAMS = 64
#: live streams of one phone (its open tabs): a newer one ends the oldest (a reload whose
#: old stream is not gone yet); a closed page's stream ends at once anyway
PER_DEVICE = 4
#: live streams of spectators (phones that hold no seat and are not the banker's), all
#: together: the rest is the players' and the banker's, whose streams are always served
SPECTATORS = MAX_STREAMS // 2
#: live streams of spectators from one address (a laptop's many cookies)
SPECTATORS_PER_ADDRESS = 8


class Client:
    """One connected phone's undelivered messages; the stream's writer waits on them (a
    thread on `wait`, or the event loop through `waker`)."""

    def __init__(self, device: str = "") -> None:
        self.device = device
        self._items: deque[Message] = deque()
        self._lock = threading.RLock()  # taken directly where nothing waits (C, not Python)
        self._cond = threading.Condition(self._lock)
        self.dropped = False  # too slow: ended, the phone reconnects
        self.ended = False
        self.waker: Callable[[], None] | None = None
        self.forget: Callable[[Client], None] | None = None  # the hub's unsubscribe
        self.seated = True  # a player's or the banker's stream (False: a spectator's)
        self.address = ""  # where a spectator's stream comes from
        self._sleepers = 0  # threads in `wait` (a WSGI server's stream): notified on a put
        #: the live part this stream carries (web_remote.parts.Part; None: none)
        self.part: Any = None

    def put(self, message: Message) -> bool:
        """Queue a message (never blocks); False when the queue was full: dropped."""
        kept, waker = self.queue(message)
        if waker is not None:
            waker()
        return kept

    def queue(self, message: Message) -> tuple[bool, Callable[[], None] | None]:
        """`put` without waking the writer: whether the message was kept (False: the queue
        was full, the client dropped), and the waker the caller must call (or hand to
        `wake_all`) once it has queued what goes together."""
        with self._lock:
            if self.ended:
                return True, None
            if len(self._items) >= QUEUE_LIMIT:
                self.dropped = self.ended = True
            else:
                self._items.append(message)
            if self._sleepers:
                self._cond.notify_all()
            return not self.dropped, self.waker

    def end(self) -> None:
        """End the stream (after what is queued)."""
        with self._lock:
            self.ended = True
            self._cond.notify_all()
            waker = self.waker
        if waker is not None:
            waker()

    def close(self) -> None:
        """End the stream and leave the hub (its writer is done)."""
        self.end()
        if self.forget is not None:
            self.forget(self)

    def take(self) -> tuple[list[Message], bool]:
        """The queued messages (now none queued), and whether the stream has ended."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
            return items, self.ended

    def wait(self, timeout: float) -> tuple[list[Message], bool]:
        """`take`, after waiting up to `timeout` for a message or the end."""
        with self._cond:
            if not self._items and not self.ended:
                self._sleepers += 1
                try:
                    self._cond.wait(timeout)
                finally:
                    self._sleepers -= 1
        return self.take()


def wake_all(wakers: list[Callable[[], None]]) -> None:
    """Call each waker; those of the serving loop's streams (web_remote.serving.Wakers: a
    waker with `together`, the function that wakes a list of its own at once) in one
    hand-over for all of them, so the loop is woken once for a message every phone gets,
    however the threads interleave."""
    together: dict[Any, list[Callable[[], None]]] = {}
    for waker in wakers:
        many = getattr(waker, "together", None)
        if many is None:
            waker()
        else:
            together.setdefault(many, []).append(waker)
    for many, group in together.items():
        many(group)


class Hub:
    """Fan-out of messages to every connected stream, with a cap per device and in total."""

    def __init__(self, max_streams: int = MAX_STREAMS, per_device: int = PER_DEVICE,
                 spectators: int = SPECTATORS,
                 spectators_per_address: int = SPECTATORS_PER_ADDRESS) -> None:
        self._clients: dict[Client, None] = {}  # oldest first
        self._lock = threading.Lock()
        self._closed = False
        self.max_streams = max_streams
        self.per_device = per_device
        self.spectators = spectators
        self.spectators_per_address = spectators_per_address

    def subscribe(self, device: str = "", *, seated: bool = True,
                  address: str = "") -> Client | None:
        """A new client queue, or None past the caps. A device at its own cap ends its
        oldest stream (a reloaded page whose old stream is not yet gone); spectators
        (`seated` False) hold at most `spectators` streams together and
        `spectators_per_address` from one `address`; a player's or the banker's stream past
        the total cap ends the oldest spectator's. While the hub is shutting down the client
        is ended at once."""
        client = Client(device)
        client.seated, client.address = seated, address
        superseded: list[Client] = []
        with self._lock:
            if self._closed:
                client.ended = True
                return client
            mine = [c for c in self._clients if c.device == device]
            while len(mine) >= self.per_device:
                oldest = mine.pop(0)
                del self._clients[oldest]
                superseded.append(oldest)
            watching = [c for c in self._clients if not c.seated]
            if not seated and (len(watching) >= self.spectators or sum(
                    c.address == address for c in watching) >= self.spectators_per_address):
                refused = True
            elif len(self._clients) >= self.max_streams:
                refused = not (seated and watching)
                if not refused:  # the table's own phones first: a spectator makes room
                    del self._clients[watching[0]]
                    superseded.append(watching[0])
            else:
                refused = False
            if not refused:
                self._clients[client] = None
                client.forget = self.unsubscribe
        for old in superseded:
            old.end()
        return None if refused else client

    def unsubscribe(self, client: Client) -> None:
        """Forget a client (its stream ended)."""
        with self._lock:
            self._clients.pop(client, None)

    def clients(self) -> list[Client]:
        """The connected streams, oldest first."""
        with self._lock:
            return list(self._clients)

    @property
    def count(self) -> int:
        """How many streams are connected."""
        with self._lock:
            return len(self._clients)

    def publish(self, event: str, payload: Any, ident: int | None = None) -> None:
        """Hand a message to every client without blocking; a full queue drops its client."""
        message = Message(event, payload, ident)
        with self._lock:
            clients = list(self._clients)
        wakers: list[Callable[[], None]] = []
        for client in clients:
            kept, waker = client.queue(message)
            if waker is not None:
                wakers.append(waker)
            if not kept:
                self.unsubscribe(client)
        wake_all(wakers)  # after every queue has it: the serving loop's in one hand-over

    def written(self, timeout: float) -> None:
        """Wait (at most `timeout` seconds) until the serving loop ran the wake-ups of the
        messages queued so far, which write them to their streams (web_remote.serving.
        Wakers.after): work that follows a move waits for every phone to be told first,
        instead of taking the interpreter from the loop meanwhile. A stream written by a
        thread of its own (no loop) is not waited for."""
        afters = {after for client in self.clients()
                  if (after := getattr(client.waker, "after", None)) is not None}
        done = [threading.Event() for _ in afters]
        for after, event in zip(afters, done, strict=True):
            after(event.set)
        deadline = time.monotonic() + timeout
        for event in done:
            event.wait(max(0.0, deadline - time.monotonic()))

    def close(self) -> None:
        """End every stream (server shutdown)."""
        with self._lock:
            self._closed = True
            clients = list(self._clients)
            self._clients.clear()
        for client in clients:
            client.end()

    def stream(self, client: Client, first: list[Message], keepalive: float) -> Iterator[bytes]:
        """The bytes of one SSE response written by a thread (a WSGI server without the
        event loop of web_remote.serving): the first messages, then live ones, keep-alives."""
        try:
            yield b"retry: 2000\n\n" + b"".join(m.encode() for m in first)
            while True:
                batch, ended = client.wait(keepalive)
                if batch:
                    yield b"".join(m.encode() for m in batch)
                elif not ended:
                    yield b": keep-alive\n\n"
                if ended:
                    return
        finally:
            client.close()
