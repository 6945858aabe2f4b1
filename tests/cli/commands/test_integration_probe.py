"""`flagtui integration probe ID` (issue 48, item 5) against real loopback targets: a dead port,
a server with a self-signed certificate, a working HTTP server (which must see no payload) and
a name that does not resolve; the URL's secrets masked in every format."""

from __future__ import annotations

import http.server
import json
import socket
import sqlite3
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..processes import patch_many

SECRET_PATH, SECRET_QUERY, SECRET_USER = "T0SECRETPATH", "abc123query", "hookuser:hookpass"


def hook_url(scheme: str, host: str, port: int | None = None) -> str:
    where = f"{host}:{port}" if port else host
    return f"{scheme}://{SECRET_USER}@{where}/hooks/{SECRET_PATH}?token={SECRET_QUERY}"


def add_webhook(sandbox, server, url: str) -> int:
    """A webhook to `url` with one failed delivery that names it (as real Unleash records a
    webhook's delivery; the server lists the URL itself masked). Written to the sandbox's
    database: the sandbox's created integrations always succeed."""
    with sqlite3.connect(sandbox.db_path) as conn:
        cursor = conn.execute(
            "INSERT INTO addons (provider, description, enabled, events, projects, environments,"
            " parameters, created_at, behaviour) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                "webhook", "group-probe hook", 1, json.dumps(["feature-metadata-updated"]),
                "[]", "[]", json.dumps({"url": url}), "2026-01-01T00:00:00.000Z", "unreachable",
            ),
        )  # fmt: skip
        addon_id = int(cursor.lastrowid or 0)
    patch_many(server, 1, "probe")
    listed = server.get("/api/admin/addons").json()["addons"]
    assert [a["parameters"]["url"] for a in listed if a["id"] == addon_id] == ["*****"]
    return addon_id


def assert_masked(text: str) -> None:
    for secret in (SECRET_PATH, SECRET_QUERY, "hookpass", "hookuser"):
        assert secret not in text


def steps(result) -> dict[str, dict]:
    return {s["step"]: s for s in result.json["steps"]}


def dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_dead_port_is_connection_refused_with_the_url_masked(run, sandbox, server):
    port = dead_port()
    addon_id = add_webhook(sandbox, server, hook_url("http", "127.0.0.1", port))
    result = run("integration", "probe", str(addon_id), "-o", "json")
    assert result.code == 6, result.err
    assert result.json["target"] == f"http://•••••@127.0.0.1:{port}/•••••?token=•••••"
    found = steps(result)
    assert (found["dns"]["result"], found["tcp"]["result"]) == ("ok", "FAILED")
    assert found["tcp"]["detail"] == f"connection refused (127.0.0.1:{port})"
    assert found["http"]["result"] == "skipped" and result.json["reached"] is False
    assert "Unleash's server may see the network differently" in result.json["seenFrom"]
    assert_masked(result.out + result.err)
    table = run("integration", "probe", str(addon_id), "-o", "table")
    assert table.code == 6
    assert "connection refused" in table.out and "may see the network differently" in table.out
    assert f"127.0.0.1:{port}/•••••" in table.out
    assert_masked(table.out + table.err)


@pytest.fixture
def self_signed(tmp_path: Path) -> Iterator[int]:
    """A TLS server on loopback with a self-signed certificate (openssl made it)."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            try:
                with context.wrap_socket(conn, server_side=True):
                    pass
            except (ssl.SSLError, OSError):
                pass  # the client refuses the certificate: what is tested

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield int(listener.getsockname()[1])
    stop.set()
    listener.close()
    thread.join(10)


def test_a_self_signed_certificate_is_said_not_trusted(run, sandbox, server, self_signed):
    addon_id = add_webhook(sandbox, server, hook_url("https", "localhost", self_signed))
    result = run("integration", "probe", str(addon_id), "-o", "json")
    assert result.code == 6, result.err
    found = steps(result)
    assert found["tcp"]["result"] == "ok" and found["tls"]["result"] == "FAILED"
    assert found["tls"]["detail"].startswith("certificate not trusted: self-signed certificate")
    assert found["http"]["result"] == "skipped"
    assert_masked(result.out + result.err)


class Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[tuple[str, str, bytes]] = []

    def _record(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        type(self).seen.append((self.command, self.path, body))
        self.send_response(204)
        self.end_headers()

    do_HEAD = do_GET = do_POST = do_PUT = _record

    def log_message(self, *args: object) -> None:
        pass


def test_a_working_server_answers_a_head_and_sees_no_payload(run, sandbox, server):
    Recorder.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        url = hook_url("http", "127.0.0.1", httpd.server_address[1])
        addon_id = add_webhook(sandbox, server, url)
        result = run("integration", "probe", str(addon_id), "-o", "json")
    finally:
        httpd.shutdown()
        thread.join(10)
    assert result.code == 0, result.err
    found = steps(result)
    assert (
        found["http"]["result"] == "ok"
        and found["http"]["detail"] == "HEAD answered 204 No Content"
    )
    assert found["tls"]["result"] == "skipped" and result.json["reached"] is True
    assert all(isinstance(s["ms"], float) for s in result.json["steps"] if s["result"] == "ok")
    assert Recorder.seen == [("HEAD", f"/hooks/{SECRET_PATH}?token={SECRET_QUERY}", b"")]
    assert_masked(result.out + result.err)


def test_a_name_that_does_not_resolve_is_said(run, sandbox, server):
    addon_id = add_webhook(sandbox, server, hook_url("https", "hooks.group-probe.invalid"))
    result = run("integration", "probe", str(addon_id), "-o", "json")
    assert result.code == 6, result.err
    dns = steps(result)["dns"]
    assert dns["result"] == "FAILED"
    assert dns["detail"].startswith("hooks.group-probe.invalid does not resolve")
    assert steps(result)["tcp"]["result"] == "skipped"


def test_an_unknown_integration_is_the_servers_404_and_a_masked_url_nothing_to_probe(
    run, sandbox, server
):
    assert run("integration", "probe", "999999", "-o", "json").code == 4
    with sqlite3.connect(sandbox.db_path) as conn:  # a webhook with no delivery yet
        cursor = conn.execute(
            "INSERT INTO addons (provider, description, enabled, events, projects, environments,"
            " parameters, created_at, behaviour) VALUES (?,?,?,?,?,?,?,?,?)",
            ("webhook", "quiet", 1, "[]", "[]", "[]", json.dumps({"url": hook_url("http", "x")}),
             "2026-01-01T00:00:00.000Z", "reliable"),
        )  # fmt: skip
        quiet = int(cursor.lastrowid or 0)
    result = run("integration", "probe", str(quiet), "-o", "table")
    assert result.code == 2 and "no URL to probe" in result.line
    assert run("integration", "probe", str(quiet), "--timeout", "0").code == 2
