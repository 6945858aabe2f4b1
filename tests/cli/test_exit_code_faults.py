"""The exit codes of the faults a real server cannot be made to produce on purpose (a timeout,
a 5xx, a 429, an answer that is not the API's, TLS to a plain-HTTP port), from a small loopback
server that answers the connect like Unleash does; and the server refusing a request as
invalid (a 400 from the sandbox) as exit 2."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import pytest

from .conftest import Result, Run
from .stand_in import UI_CONFIG, _QuietServer

FAULTS: dict[str, tuple[int, str, bytes]] = {
    "server-error": (500, "application/json", b'{"name": "InternalError", "message": "boom"}'),
    "rate-limited": (429, "text/plain", b"Too many requests, please try again later."),
    "unexpected-response": (200, "text/html", b"<html><body>Sign in to the proxy</body></html>"),
}


class _Faulty(BaseHTTPRequestHandler):
    """Answers ui-config like a server; every other read gets the fault named in the path of
    the profile's URL (`/slow` for an answer later than the profile's timeout)."""

    def do_GET(self) -> None:
        fault, _, rest = self.path.lstrip("/").partition("/")
        if rest.startswith("api/admin/ui-config"):
            self._answer(200, "application/json", UI_CONFIG)
        elif fault == "slow":
            time.sleep(3)
            self._answer(200, "application/json", b"{}")
        else:
            self._answer(*FAULTS[fault])

    def _answer(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if status == 429:
            self.send_header("Retry-After", "30")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def faulty() -> Iterator[str]:
    server = _QuietServer(("127.0.0.1", 0), _Faulty)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def type_list_at(run: Run, cli_env, monkeypatch, url: str) -> Result:
    """`type list` on a profile at `url` that waits at most 1 s for an answer."""
    (cli_env / "config.toml").write_text(f'[profiles.f]\nurl = "{url}"\ntimeout = 1\n')
    monkeypatch.setenv("UNLEASH_URL", url)  # its token: UNLEASH_API_TOKEN
    return run("type", "list", "-P", "f")


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_6_the_server_failing_or_not_answering_as_the_api(run, cli_env, monkeypatch, faulty, kind):
    result = type_list_at(run, cli_env, monkeypatch, f"http://{faulty}/{kind}")
    assert (result.code, result.out) == (6, "")
    assert result.error["kind"] == kind
    assert result.error["path"] == "/api/admin/feature-types"


def test_6_timeout(run, cli_env, monkeypatch, faulty):
    result = type_list_at(run, cli_env, monkeypatch, f"http://{faulty}/slow")
    assert (result.code, result.error["kind"]) == (6, "timeout")
    assert result.error["message"] == "no complete answer within 1 s"


def test_6_tls_to_a_port_that_speaks_plain_http(run, cli_env, monkeypatch, faulty):
    result = type_list_at(run, cli_env, monkeypatch, f"https://{faulty}/any")
    assert (result.code, result.error["kind"]) == (6, "tls")
    assert result.error["path"] == "/api/admin/ui-config"


def test_2_a_request_the_server_refuses_as_invalid(run):
    result = run("env", "remove", "default", "no-such-env", "--yes")
    assert result.code == 2
    assert (result.error["kind"], result.error["status"]) == ("invalid-request", 400)
    assert (result.error["method"], result.error["name"]) == ("DELETE", "ValidationError")
