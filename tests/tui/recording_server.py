"""A loopback server that records every request as it arrives (its method, path, query and
headers) and answers it from the real sandbox behind it, over HTTP or HTTPS: what a client sent,
seen from the server's side."""

from __future__ import annotations

import ssl
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from testkit.tls_files import TlsFiles


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # names in lower case


class RecordingServer:
    def __init__(self, upstream: str, tls: TlsFiles | None = None) -> None:
        self.requests: list[Recorded] = []
        recorded = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                target = urlsplit(self.path)
                headers = {name.lower(): value for name, value in self.headers.items()}
                recorded.append(Recorded("GET", target.path, parse_qs(target.query), headers))
                answer = httpx.get(
                    upstream + self.path, headers={"Authorization": headers["authorization"]}
                )
                self.send_response(answer.status_code)
                self.send_header("Content-Type", answer.headers["content-type"])
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        scheme = "http"
        if tls is not None:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(tls.cert, tls.key)
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
            scheme = "https"
        self.url = f"{scheme}://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def searches(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.endswith("/api/admin/search/features")]

    def __enter__(self) -> RecordingServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
