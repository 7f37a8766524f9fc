"""The site's ASGI application (config.asgi) called in this process: a GET read as it streams, as uvicorn would."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from django.db import connections


def run(coroutine_function, *args):
    """`asyncio.run` with the event loop's pool on one thread, whose database connections are closed at the end (the
    ASGI app reads on the pool, which keeps its connection between reads; the test database must be dropped)."""

    async def main():
        pool = ThreadPoolExecutor(max_workers=1)
        loop = asyncio.get_running_loop()
        loop.set_default_executor(pool)
        try:
            return await coroutine_function(*args)
        finally:
            await loop.run_in_executor(pool, connections.close_all)

    return asyncio.run(main())


class AsgiGet:
    """One GET to `config.asgi.application`; `start()` gives (status, headers, first body), `ended()` whether the
    application finished its answer by itself (the stream closed) within `timeout` seconds."""

    def __init__(self, path: str, *, token: str | None = None, query: str = ""):
        from config.asgi import application

        headers = [(b"host", b"testserver"), (b"accept", b"text/event-stream")]
        if token:
            headers.append((b"authorization", f"Token {token}".encode()))
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.application = application
        self.sent: asyncio.Queue = asyncio.Queue()
        self.leave = asyncio.Event()
        self.task: asyncio.Task | None = None

    async def _receive(self) -> dict:
        await self.leave.wait()
        return {"type": "http.disconnect"}

    async def start(self, timeout: float = 30) -> tuple[int, dict, bytes]:
        self.task = asyncio.create_task(self.application(self.scope, self._receive, self.sent.put))
        started = await asyncio.wait_for(self.sent.get(), timeout)
        assert started["type"] == "http.response.start", started
        body = await asyncio.wait_for(self.sent.get(), timeout)
        headers = {k.decode(): v.decode() for k, v in started["headers"]}
        return started["status"], headers, body.get("body", b"")

    async def body(self, timeout: float = 30) -> bytes:
        """The next piece of the body; b"" once the application ended it."""
        message = await asyncio.wait_for(self.sent.get(), timeout)
        return message["body"] if message.get("more_body") else message.get("body", b"") or b""

    async def ended(self, timeout: float) -> bool:
        """Whether the answer ends by itself within `timeout` seconds (the pieces sent meanwhile are dropped)."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    message = await self.sent.get()
                    if not message.get("more_body"):
                        return True
        except TimeoutError:
            return False

    async def close(self) -> None:
        """The client leaves; the application stops."""
        self.leave.set()
        if self.task is not None:
            await asyncio.wait_for(self.task, 30)
