"""`serve(app, host, port, threads)`: run the remote with waitress on a thread of its own,
with a handle that stops it cleanly (live streams ended, sockets closed, the thread joined).

Only waitress's public API: `waitress.server.create_server` with a socket map of our own
(its `map` argument), the `asyncore_loop_timeout` adjustment, the server's `task_dispatcher`
(its worker threads) and `close()`. Stopping ends the worker threads (running requests
finish), empties the socket map, so the serving loop ends at its next turn, then closes
what the map held and the server itself.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from waitress.server import create_server

#: every phone's live stream holds a thread; commands and pages need some more
MIN_THREADS = 32
#: how long the serving loop may wait for sockets before it looks at its map again (s)
LOOP_TIMEOUT_S = 0.5


class ServerHandle:
    """A running server: its address, and `stop()`."""

    def __init__(self, app: Flask, server: Any, sockets: dict[int, Any],
                 thread: threading.Thread) -> None:
        self.app = app
        self._server = server
        self._sockets = sockets
        self._thread = thread
        self.host, self.port = server.effective_host, int(server.effective_port)
        self._stopped = False

    @property
    def url(self) -> str:
        """The base URL ("http://127.0.0.1:8080")."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def stop(self, timeout: float = 5.0) -> None:
        """End the live streams, join the worker threads and the serving loop, close every
        connection."""
        if self._stopped:
            return
        self._stopped = True
        self.app.extensions["web_remote"].close()  # ends the live streams first
        self._server.task_dispatcher.shutdown(timeout=timeout)  # running requests finish
        held = list(self._sockets.values())
        self._sockets.clear()  # the loop runs while its map holds sockets: it ends now
        self._thread.join(timeout)
        held += list(self._sockets.values())  # accepted while the loop finished its turn
        self._sockets.clear()
        for dispatcher in held:  # the connections left open (phones keep them alive)
            if dispatcher is not self._server:
                try:
                    dispatcher.close()
                except OSError:
                    pass
        self._server.close()

    def __enter__(self) -> ServerHandle:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080,
          threads: int = MIN_THREADS) -> ServerHandle:
    """Start serving `app` in the background (port 0: any free port); returns the handle."""
    sockets: dict[int, Any] = {}
    server = create_server(
        app, map=sockets, host=host, port=port, threads=max(threads, 4),
        ident="table-companion", channel_timeout=120, connection_limit=200,
        clear_untrusted_proxy_headers=True, asyncore_loop_timeout=LOOP_TIMEOUT_S)
    thread = threading.Thread(target=server.run, name="web-remote", daemon=True)
    thread.start()
    return ServerHandle(app, server, sockets, thread)
