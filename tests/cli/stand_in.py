"""A loopback stand-in for a server: JSON answers, no log lines."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UI_CONFIG = b'{"version": "8.2.0", "versionInfo": {"current": {"enterprise": "8.2.0"}}}'


class JsonAnswers(BaseHTTPRequestHandler):
    """A loopback stand-in's answers: JSON, and no log lines."""

    def _answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a TLS hello it cannot read, a client gone after its timeout: expected here
