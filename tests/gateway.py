"""A gateway in front of a real server (the sandbox or a real Unleash), which no server can be
made to be on demand: `Gateway` forwards every request to its upstream and hands the answer back,
except that the answer to the method it is told to fail (`path`: only that path's) is its own (a
504 page, say). By default the request is forwarded first, so the upstream has applied the write
the client is told nothing certain about; `forward=False` answers without forwarding (a gateway
that never reached the origin, or the origin's own refusal). `after(method, path)` runs once
upstream has answered and before the client hears it (another admin's change in between, say)."""

from __future__ import annotations

import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import parse_qs, urlsplit

import httpx

from testkit.tls_files import TlsFiles

NOT_FORWARDED = frozenset({"host", "content-length", "connection", "transfer-encoding"})
REASONS = {502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Time-out"}


@dataclass(frozen=True)
class Received:
    """A request as it reached the gateway: headers' names in lower case."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]


@dataclass(frozen=True)
class Answer:
    status: int
    content_type: str
    body: bytes


def gateway_page(status: int) -> Answer:
    """The error page nginx shows for a 502, 503 or 504."""
    title = f"{status} {REASONS[status]}"
    page = f"<html><head><title>{title}</title></head><body><h1>{title}</h1><hr>nginx</body></html>"
    return Answer(status, "text/html", page.encode())


class Gateway:
    """`with Gateway(upstream, answer=gateway_page(504)) as gateway:` point a client at
    `gateway.url`; `forwarded` lists (method, path, upstream status) of what reached upstream,
    `received` every request as it arrived. With `tls` it serves HTTPS with that certificate
    (a client that does not trust it sends it nothing)."""

    def __init__(
        self,
        upstream: str,
        *,
        answer: Answer | None = None,
        method: str = "PATCH",
        path: str | None = None,
        forward: bool = True,
        tls: TlsFiles | None = None,
        after: Callable[[str, str], None] | None = None,
    ) -> None:
        self.answer = answer
        self.after = after
        self.method = method
        self.path = path
        self.forward = forward
        self.forwarded: list[tuple[str, str, int]] = []
        self.received: list[Received] = []
        self.upstream = httpx.Client(base_url=upstream, timeout=30)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Forward)
        self._server.daemon_threads = True
        self._server.gateway = self  # type: ignore[attr-defined]
        self.scheme = "http"
        if tls is not None:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(tls.cert, tls.key)
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
            self.scheme = "https"

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self._server.server_address[1]}"

    def count(self, method: str) -> int:
        return sum(1 for seen, _, _ in self.forwarded if seen == method)

    def __enter__(self) -> Gateway:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self.upstream.close()


class _Forward(BaseHTTPRequestHandler):
    def _handle(self) -> None:
        gateway: Gateway = self.server.gateway  # type: ignore[attr-defined]
        target = urlsplit(self.path)
        headers = {name.lower(): value for name, value in self.headers.items()}
        gateway.received.append(
            Received(self.command, target.path, parse_qs(target.query), headers)
        )
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        own = gateway.answer if self.command == gateway.method else None
        if gateway.path not in (None, target.path):
            own = None
        if own is None or gateway.forward:
            headers = {k: v for k, v in self.headers.items() if k.lower() not in NOT_FORWARDED}
            upstream = gateway.upstream.request(self.command, self.path, headers=headers,
                                                content=body)  # fmt: skip
            gateway.forwarded.append((self.command, self.path, upstream.status_code))
            if gateway.after is not None:
                gateway.after(self.command, target.path)
            if own is None:
                kind = upstream.headers.get("content-type", "application/octet-stream")
                own = Answer(upstream.status_code, kind, upstream.content)
        self.send_response(own.status)
        self.send_header("Content-Type", own.content_type)
        self.send_header("Content-Length", str(len(own.body)))
        self.end_headers()
        self.wfile.write(own.body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

    def log_message(self, *args: object) -> None:
        pass
