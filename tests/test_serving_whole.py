"""The remote's pages are answered from the pool thread in one hand-over (issue 28): the
Flask app's whole answer, sent by the loop as a head and a body. Whatever the app answers
arrives as it was: a status and its headers, a body made of several chunks, a POST's body
read by the app, an error page, a HEAD, several answers on one kept-alive connection."""

from __future__ import annotations

import http.client
from collections.abc import Iterator

import pytest
from flask import Flask, Response, request

from web_remote.serving import ServerHandle, serve


class _NoStreams:
    """The remote's place in the app, with no live streams to end."""

    def close(self) -> None:
        """Nothing to end."""


@pytest.fixture
def server(parser: str) -> Iterator[ServerHandle]:
    """The app served on `parser` (httptools where installed, and h11)."""
    app = Flask(__name__)

    @app.get("/chunks")
    def chunks() -> Response:
        return Response((f"part {i};" for i in range(50)), mimetype="text/plain",
                        headers={"X-Test": "yes"})

    @app.post("/echo")
    def echo() -> Response:
        return Response(request.get_data()[::-1], status=201)

    @app.get("/boom")
    def boom() -> Response:
        raise RuntimeError("the view failed")

    app.extensions["web_remote"] = _NoStreams()  # what `stop` ends first
    handle = serve(app, "127.0.0.1", 0, 2, pure=parser == "h11")
    assert handle.parser == parser
    yield handle
    handle.stop()


def test_answers_arrive_whole_on_one_connection(server: ServerHandle) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/chunks")
        resp = conn.getresponse()
        assert resp.status == 200 and resp.getheader("X-Test") == "yes"
        assert resp.read().decode() == "".join(f"part {i};" for i in range(50))
        body = bytes(range(256)) * 40
        conn.request("POST", "/echo", body=body)
        resp = conn.getresponse()
        assert resp.status == 201 and resp.read() == body[::-1]
        conn.request("GET", "/boom")
        resp = conn.getresponse()
        assert resp.status == 500 and resp.read()  # Flask's own error page
        conn.request("HEAD", "/chunks")
        resp = conn.getresponse()
        assert resp.status == 200 and resp.read() == b""
        conn.request("GET", "/nothing")
        resp = conn.getresponse()
        assert resp.status == 404 and resp.read()
    finally:
        conn.close()


def test_stopping_answers_a_request_still_sending_its_body(server: ServerHandle) -> None:
    """A request whose body has not all come when the server stops is answered 503 at
    once (its read cancelled), not left to its 10 s deadline (a 408) while the stop waits
    for it (here up to 60 s: uvicorn's own end would cancel it only then)."""
    import socket

    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    try:
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhalf")
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/chunks")  # the loop has read the head before this answer
        assert conn.getresponse().read()
        conn.close()
        server.stop(timeout=60.0)
        assert sock.recv(4096).startswith(b"HTTP/1.1 503")
    finally:
        sock.close()


def test_the_c_parser_serves_where_its_wheel_is_installed() -> None:
    """scripts/install-fast.sh installs httptools where its wheel fits: where it imports,
    uvicorn parses with it (the serving loop's CPU per move, docs/bench.md); else h11. A
    protocol made from h11's stays h11's (`pure=True`)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from web_remote import serving

    try:
        import httptools  # noqa: F401
    except ImportError:
        assert serving.HTTP_PROTOCOL is H11Protocol
    else:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        assert serving.HTTP_PROTOCOL is HttpToolsProtocol
    pure = serving.guarded_protocol(serving.Gate(1), 1.0, base=H11Protocol)
    assert issubclass(pure, H11Protocol) and serving.parser_name(pure) == "h11"


def test_each_answer_goes_out_in_one_write(server: ServerHandle,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The head and the body of an answer built whole are written together, one write on
    the connection (web_remote.serving.Corked), on both parsers; nothing of it is written
    on its own (a chunked body's end included); a HEAD's head alone."""
    from web_remote import serving

    held: list[int] = []  # the parts each release wrote as one
    alone: list[bytes] = []  # writes that went straight to the connection
    real_release, real_write = serving.Corked.release, serving.Corked.write

    def release(self: serving.Corked) -> None:
        if self._held:  # (closing releases too, with nothing held)
            held.append(len(self._held))
        real_release(self)

    def write(self: serving.Corked, data: bytes) -> None:
        if self._held is None and data:
            alone.append(bytes(data))
        real_write(self, data)

    monkeypatch.setattr(serving.Corked, "release", release)
    monkeypatch.setattr(serving.Corked, "write", write)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        for method, path, body in (("GET", "/chunks", None), ("POST", "/echo", b"abc"),
                                   ("GET", "/boom", None), ("HEAD", "/chunks", None)):
            conn.request(method, path, body=body)
            data = conn.getresponse().read()
            assert (data == b"") == (method == "HEAD")
    finally:
        conn.close()
    assert alone == []
    assert len(held) == 4 and all(n >= 2 for n in held[:3]) and held[3] == 1
