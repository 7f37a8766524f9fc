"""Django's WSGI handler on a fixed pool of threads, as an ASGI application: how the embedded default runs Django
under uvicorn (config/asgi.py; decision 28).

Django's own ASGI handler starts a thread for every request (its per-request thread context) and hops between that
thread and the event loop at each middleware that is not of its kind, and a database connection cannot outlive the
request's thread, so every request opened a new one (gunicorn.conf.py sets DATABASE_CONN_MAX_AGE=0 for it).  Measured
on the embedded default, that was about a third of a move's CPU beside what Django itself does.  Here the request's
body is read on the event loop, then Django handles the request on one of a few long-lived threads, start to end,
as under any WSGI server, each thread keeping its database connection (DATABASE_CONN_MAX_AGE, with its health
check) from one request to the next; the answer goes back to the loop in one hop (a streamed answer, chunk by chunk).
The event streams never come here: feed.asgi answers them in front.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings


class WsgiOnThreads:
    def __init__(self, wsgi_application, threads: int):
        self.application = wsgi_application
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="django")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return  # no lifespan events (uvicorn is told so) and no websockets
        body = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b")
        try:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return  # gone before it finished asking: nothing to answer
                body.write(message.get("body", b""))
                if not message.get("more_body", False):
                    break
            size = body.tell()
            body.seek(0)
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self.pool, self._handle, scope, body, size, send, loop)
        finally:
            body.close()

    def _handle(self, scope, body, size: int, send, loop) -> None:
        """On a pool thread: Django answers, and the answer is handed to the loop."""
        started: list = []

        def start_response(status, headers, exc_info=None):
            encoded = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]
            started[:] = [int(status.split(" ", 1)[0]), encoded]
            return lambda data: None  # the legacy write() callable; Django never uses it

        answer = self.application(_environ(scope, body, size), start_response)
        try:
            if getattr(answer, "streaming", False):
                self._say(loop, send, [_start(started)])
                for chunk in answer:
                    if chunk:
                        self._say(loop, send, [{"type": "http.response.body", "body": chunk, "more_body": True}])
                self._say(loop, send, [{"type": "http.response.body", "body": b"", "more_body": False}])
            else:
                content = b"".join(answer)
                self._say(loop, send, [_start(started), {"type": "http.response.body", "body": content}])
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()  # Django's request_finished: the connection kept, or closed if too old or broken

    @staticmethod
    def _say(loop, send, messages: list[dict]) -> None:
        async def say():
            for message in messages:
                await send(message)

        asyncio.run_coroutine_threadsafe(say(), loop).result()


def _start(started: list) -> dict:
    status, headers = started
    return {"type": "http.response.start", "status": status, "headers": headers}


def _environ(scope, body, size: int) -> dict:
    """The WSGI environ of an ASGI HTTP scope (PEP 3333: the path as latin-1 of its UTF-8 bytes)."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf-8").decode("latin-1"),
        "PATH_INFO": scope["path"].encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] or 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": client[0],
        "REMOTE_PORT": str(client[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "CONTENT_LENGTH": str(size),  # what was read (a chunked body has no header saying it)
    }
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if name == "CONTENT_TYPE":
            environ[name] = value
            continue
        if name == "CONTENT_LENGTH":
            continue  # the body's own size, above
        key = f"HTTP_{name}"
        if key in environ:  # a header sent twice: one value, as Django's ASGI handler makes it
            value = f"{environ[key]}{'; ' if key == 'HTTP_COOKIE' else ','}{value}"
        environ[key] = value
    return environ
