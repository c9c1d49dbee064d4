"""`serve(app, host, port, threads)`: run the remote with waitress on a thread of its own,
with a handle that stops it cleanly (live streams ended, sockets closed, threads joined).
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from waitress.server import create_server

#: every phone's live stream holds a thread; commands and pages need some more
MIN_THREADS = 32


class ServerHandle:
    """A running server: its address, and `stop()`."""

    def __init__(self, app: Flask, server: Any, thread: threading.Thread) -> None:
        self.app = app
        self._server = server
        self._thread = thread
        self.host, self.port = server.effective_host, int(server.effective_port)
        self._stopped = False

    @property
    def url(self) -> str:
        """The base URL ("http://127.0.0.1:8080")."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def stop(self, timeout: float = 5.0) -> None:
        """End the live streams, close every connection and wait for the threads."""
        if self._stopped:
            return
        self._stopped = True
        self.app.extensions["web_remote"].close()  # ends the live streams first
        server = self._server
        from waitress import wasyncore

        server.task_dispatcher.shutdown(timeout=timeout)  # running requests finish
        try:
            server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        except OSError:  # the serving loop already closed its wake-up pipe: close here
            wasyncore.close_all(server._map)
        self._thread.join(timeout)

    def __enter__(self) -> ServerHandle:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080,
          threads: int = MIN_THREADS) -> ServerHandle:
    """Start serving `app` in the background (port 0: any free port); returns the handle."""
    server = create_server(app, host=host, port=port, threads=max(threads, 4),
                           ident="table-companion", channel_timeout=120,
                           connection_limit=200, clear_untrusted_proxy_headers=True)
    thread = threading.Thread(target=server.run, name="web-remote", daemon=True)
    thread.start()
    return ServerHandle(app, server, thread)
