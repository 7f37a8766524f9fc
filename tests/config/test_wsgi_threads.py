"""The embedded default runs Django on long-lived threads under uvicorn (config/wsgi_threads.py, decision 28): what an
ASGI server hands it reaches a WSGI application whole, and the answer comes back whole, streamed or not."""

from __future__ import annotations

import asyncio
import json
import threading

from config.wsgi_threads import WsgiOnThreads


def echo(environ, start_response):
    """A WSGI application answering with what it was given, and the thread it ran on."""
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    seen = {key: environ.get(key) for key in ("REQUEST_METHOD", "PATH_INFO", "QUERY_STRING", "CONTENT_TYPE")}
    seen.update(
        body=body.decode(),
        cookie=environ.get("HTTP_COOKIE"),
        host=environ.get("HTTP_HOST"),
        remote=environ["REMOTE_ADDR"],
        scheme=environ["wsgi.url_scheme"],
        thread=threading.current_thread().name,
    )
    start_response("201 Created", [("Content-Type", "application/json"), ("X-Echo", "yes")])
    return [json.dumps(seen).encode()]


class Streamed(list):
    """An answer in chunks, as Django's StreamingHttpResponse and FileResponse are, closed by the server."""

    streaming = True
    closed = False

    def close(self):
        self.closed = True


def call(application, *, method="GET", path="/", query=b"", headers=(), chunks=(b"",)):
    """One request through `application` as uvicorn makes it; the messages it sent back."""
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "query_string": query,
        "root_path": "",
        "headers": [(b"host", b"club.example:8000"), *headers],
        "client": ("192.0.2.7", 50000),
        "server": ("127.0.0.1", 8000),
    }
    parts = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]
    sent = []

    async def receive():
        return parts.pop(0)

    async def send(message):
        sent.append(message)

    asyncio.run(application(scope, receive, send))
    return sent


def test_a_request_reaches_the_wsgi_application_whole_and_its_answer_comes_back():
    sent = call(
        WsgiOnThreads(echo, 2),
        method="POST",
        path="/tables/7/é/",
        query=b"a=1&b=2",
        headers=[(b"content-type", b"application/json"), (b"cookie", b"a=1"), (b"cookie", b"b=2")],
        chunks=[b'{"move":', b' "a1"}'],  # in two parts, with no Content-Length: as a chunked upload comes
    )
    start, body = sent
    assert start["status"] == 201 and (b"x-echo", b"yes") in start["headers"]
    seen = json.loads(body["body"])
    assert seen["REQUEST_METHOD"] == "POST" and seen["QUERY_STRING"] == "a=1&b=2"
    assert seen["PATH_INFO"].encode("latin-1").decode() == "/tables/7/é/"  # PEP 3333: UTF-8 bytes as latin-1
    assert seen["body"] == '{"move": "a1"}' and seen["CONTENT_TYPE"] == "application/json"
    assert seen["cookie"] == "a=1; b=2" and seen["host"] == "club.example:8000"
    assert seen["remote"] == "192.0.2.7" and seen["scheme"] == "http"
    assert body.get("more_body", False) is False


def test_requests_are_answered_on_the_few_threads_of_the_pool():
    application = WsgiOnThreads(echo, 2)
    threads = {json.loads(call(application)[1]["body"])["thread"] for _ in range(10)}
    assert 1 <= len(threads) <= 2 and all(name.startswith("django") for name in threads)


def test_a_streamed_answer_goes_chunk_by_chunk_and_is_closed():
    answer = Streamed([b"first ", b"", b"second"])

    def streaming(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return answer

    sent = call(WsgiOnThreads(streaming, 1))
    assert sent[0]["status"] == 200
    assert [m["body"] for m in sent[1:]] == [b"first ", b"second", b""]
    assert [m["more_body"] for m in sent[1:]] == [True, True, False]
    assert answer.closed


def test_a_client_gone_before_it_finished_asking_gets_nothing():
    called = []

    def application(environ, start_response):
        called.append(environ)
        start_response("200 OK", [])
        return [b""]

    scope = {"type": "http", "method": "POST", "path": "/", "headers": []}
    messages = [{"type": "http.request", "body": b"half", "more_body": True}, {"type": "http.disconnect"}]
    sent = []

    async def receive():
        return messages.pop(0)

    async def send(message):
        sent.append(message)

    asyncio.run(WsgiOnThreads(application, 1)(scope, receive, send))
    assert called == [] and sent == []
