"""`flagtui integration create` on a real Unleash: a webhook created from the CLI, its URL read
from stdin, delivers to a receiver of this test on loopback after a flag change, and its secret
(the URL, which Unleash marks sensitive) appears in none of the command's outputs. The
integration is switched off at the end, never deleted (see test_collector_on_real_unleash: a
delete can end the server)."""

from __future__ import annotations

import io
import json
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from real_webhook import retire_webhook

from flagtui.cli import main

pytestmark = pytest.mark.unleash
# Real Unleash delivers after answering the write, and reads its list of integrations from a
# cache of about a minute: a new one misses the changes of that minute. The flag is changed
# again every CHANGE_EVERY seconds until a delivery arrives.
WAIT_SECONDS = 150
CHANGE_EVERY = 10


class _Receiver(BaseHTTPRequestHandler):
    received: list[tuple[str, bytes]]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.received.append((self.path, body))  # type: ignore[attr-defined]
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    server.received = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_webhook_created_from_the_cli_delivers_and_its_secret_is_never_shown(
    real_unleash, receiver, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    secret = f"s3cret-{uuid.uuid4().hex}"
    url = f"http://127.0.0.1:{receiver.server_port}/hook/{secret}"
    flag = f"cli-integration-{uuid.uuid4().hex[:10]}"
    outputs = []

    def run(*argv: str) -> int:
        monkeypatch.setattr("sys.stdin", io.StringIO(f"{url}\n"))  # as a pipe gives it
        capsys.readouterr()
        code = main(list(argv))
        captured = capsys.readouterr()
        outputs.append(captured.out + captured.err)
        return code

    argv = ("integration", "create", "webhook", "--param-stdin", "url",
            "--event", "feature-created", "--event", "feature-metadata-updated",
            "--project", "default",
            "--description", f"flagtui cli create {flag}")  # fmt: skip
    assert run(*argv, "--dry-run", "-o", "json") == 0, outputs[-1]
    assert run(*argv, "--dry-run") == 0, outputs[-1]
    assert run(*argv, "-o", "json") == 0, outputs[-1]
    addon_id = json.loads(outputs[-1])["id"]
    with httpx.Client(
        base_url=real_unleash.url, headers={"Authorization": real_unleash.token}, timeout=30
    ) as http:
        try:
            created = http.post("/api/admin/projects/default/features", json={"name": flag})
            assert created.status_code in (200, 201), created.text
            deadline = time.monotonic() + WAIT_SECONDS
            changed = time.monotonic()
            while time.monotonic() < deadline:
                if any(flag.encode() in body for _, body in receiver.received):
                    break
                if time.monotonic() - changed > CHANGE_EVERY:
                    http.patch(
                        f"/api/admin/projects/default/features/{flag}",
                        json=[{"op": "replace", "path": "/description", "value": uuid.uuid4().hex}],
                    )
                    changed = time.monotonic()
                time.sleep(0.5)
            delivered = {path for path, body in receiver.received if flag.encode() in body}
            assert delivered == {f"/hook/{secret}"}
            assert run("integration", "list", "-o", "json") == 0, outputs[-1]
            assert run("integration", "disable", str(addon_id), "--yes") == 0, outputs[-1]
            assert http.get(f"/api/admin/addons/{addon_id}").json()["enabled"] is False
        finally:
            retire_webhook(http, addon_id)  # switched off, never deleted
            http.delete(f"/api/admin/projects/default/features/{flag}")
    assert len(outputs) == 5  # two dry runs, the creation, the list, the switch
    for said in outputs:
        assert secret not in said
