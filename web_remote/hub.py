"""Live updates: one bounded queue per connected phone, fed by the session's listener.

The listener runs on the session's writer thread, so `publish` only drops a message into
each queue (never blocks, never serializes); each phone's stream thread encodes it, once
per message for everyone, and writes it out as a Server-Sent Event.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from typing import Any

#: a client that has this many undelivered messages is too slow: it is dropped and reconnects
QUEUE_LIMIT = 256


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


_CLOSE = Message("close", None)


class Client:
    """One connected phone's queue."""

    def __init__(self) -> None:
        self.queue: queue.Queue[Message] = queue.Queue(QUEUE_LIMIT)
        self.dropped = False


class Hub:
    """Fan-out of messages to every connected stream."""

    def __init__(self) -> None:
        self._clients: set[Client] = set()
        self._lock = threading.Lock()
        self._closed = False

    def subscribe(self) -> Client:
        """A new client queue (closed at once when the hub is shutting down)."""
        client = Client()
        with self._lock:
            if self._closed:
                client.queue.put_nowait(_CLOSE)
            else:
                self._clients.add(client)
        return client

    def unsubscribe(self, client: Client) -> None:
        """Forget a client (its stream ended)."""
        with self._lock:
            self._clients.discard(client)

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
        for client in clients:
            try:
                client.queue.put_nowait(message)
            except queue.Full:
                client.dropped = True
                self.unsubscribe(client)

    def close(self) -> None:
        """End every stream (server shutdown)."""
        with self._lock:
            self._closed = True
            clients = list(self._clients)
            self._clients.clear()
        for client in clients:
            try:
                client.queue.put_nowait(_CLOSE)
            except queue.Full:
                client.dropped = True

    def stream(self, client: Client, first: list[Message], keepalive: float) -> Iterator[bytes]:
        """The bytes of one SSE response: the first messages, then live ones, keep-alives."""
        try:
            yield b"retry: 2000\n\n" + b"".join(m.encode() for m in first)
            while not client.dropped:
                try:
                    message = client.queue.get(timeout=keepalive)
                except queue.Empty:
                    yield b": keep-alive\n\n"
                    continue
                if message is _CLOSE:
                    return
                yield message.encode()
        finally:
            self.unsubscribe(client)
