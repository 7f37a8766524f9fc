"""A local receiver for the outbound tests: a real HTTP server on 127.0.0.1 standing for a webhook's service or a
push service, recording what it is sent and answering the statuses it is told to, in order."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    method: str
    path: str
    headers: dict
    body: bytes


@dataclass
class Receiver:
    statuses: list[int] = field(default_factory=list)  # answered in order; 200 (or the default) once used up
    default: int = 201
    received: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                size = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(size)
                receiver.received.append(Received("POST", self.path, dict(self.headers.items()), body))
                status = receiver.statuses.pop(0) if receiver.statuses else receiver.default
                answer = b'{"ok": true}' if status < 300 else b"no"
                self.send_response(status)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
