"""`flagtui api`'s refusals, each proven at a gateway in front of the sandbox (what reached it)
and in the sandbox's event log: a read-only profile sends its GETs and no other method, a
production one asks first, --dry-run sends nothing at all (a GET neither), a URL of another
server and an Authorization header are refused; secrets are masked in what it prints."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest
from gateway import Gateway

from flagtui.masking import MASK

from ..conftest import event_count
from .helpers import PROJECT

FEATURES = f"/api/admin/projects/{PROJECT}/features"
SECRET_URL = "https://hooks.example.test/T0/s3cr3t-path?token=s3cr3t"
SECRET_BODY = '{"text": "s3cr3t body"}'
WRITES = [
    ("POST", FEATURES, "-f", "name=api-refused"),
    ("PUT", "/api/admin/feature-types/release/lifetime", "-F", "lifetimeDays=3"),
    ("PATCH", f"{FEATURES}/admin-async-emails", "--input", "-"),
    ("DELETE", f"{FEATURES}/admin-async-emails"),
]


@pytest.fixture
def gateway(sandbox, monkeypatch):
    with Gateway(sandbox.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)  # UNLEASH_API_TOKEN: that URL's token
        yield gateway


def profile(cli_env, gateway, **settings: str) -> None:
    lines = [f'url = "{gateway.url}"', *(f"{key} = {value}" for key, value in settings.items())]
    (cli_env / "config.toml").write_text("[profiles.p]\n" + "\n".join(lines) + "\n")


def test_a_read_only_profile_sends_gets_and_refuses_every_other_method(
    run, server, cli_env, gateway
):
    profile(cli_env, gateway, read_only="true")
    before = event_count(server)
    for argv in WRITES:
        result = run("api", *argv, "-P", "p", "-o", "json")
        assert result.code == 2, (argv, result.err)
        assert result.error["kind"] == "read-only"
        assert (
            result.error["message"]
            == f"Profile 'p' is read-only: send a {argv[0]} request was not sent."
        )
    assert gateway.received == []
    assert event_count(server) == before
    assert run("api", "GET", "/api/admin/projects", "-P", "p").code == 0
    assert [r.method for r in gateway.received] == ["GET"]


def test_a_production_profile_asks_before_a_write(run, server, cli_env, gateway):
    profile(cli_env, gateway, production="true")
    before = event_count(server)
    refused = run("api", "POST", FEATURES, "-f", "name=api-unasked", "-P", "p", "-o", "json")
    assert refused.code == 2 and refused.error["kind"] == "not-confirmed"
    assert gateway.received == [] and event_count(server) == before
    read = run("api", "GET", "/api/admin/projects", "-P", "p")
    assert read.code == 0  # a read is not asked
    sent = run("api", "POST", FEATURES, "-f", "name=api-asked", "-P", "p", "--yes")
    assert sent.code == 0, sent.err
    assert event_count(server) == before + 1


def test_dry_run_prints_the_exact_request_and_sends_nothing(run, server, sandbox, gateway):
    before = event_count(server)
    shown = run(
        "api", "POST", f"{FEATURES}?x=1", "-f", "name=api-dry", "-F", "impressionData=true",
        "-H", "X-Trace: t1", "--dry-run",
    ).json  # fmt: skip
    assert shown["dryRun"] is True and shown["method"] == "POST"
    assert shown["url"] == f"{gateway.url}{FEATURES}?x=1"
    assert shown["body"] == {"name": "api-dry", "impressionData": True}
    assert shown["headers"]["authorization"] == MASK
    assert shown["headers"]["x-trace"] == "t1"
    assert shown["headers"]["content-type"] == "application/json"
    get = run("api", "GET", "/api/admin/projects", "--dry-run", "-o", "table")
    assert get.code == 0 and get.out.splitlines()[-1] == "nothing was sent"
    assert sandbox.admin_token not in get.out + str(shown)
    assert gateway.received == []
    assert event_count(server) == before


def test_a_url_of_another_server_is_refused_and_the_profiles_own_is_taken(run, gateway):
    for path in ("https://evil.example/api/admin/projects", "//evil.example/api/admin/projects"):
        result = run("api", "GET", path, "-o", "json")
        assert result.code == 2 and result.error["kind"] == "invalid-argument", path
        assert result.error["message"].startswith("PATH: a path on the profile's server")
    assert gateway.received == []
    own = run("api", "GET", f"{gateway.url}/api/admin/projects?limit=1")
    assert own.code == 0, own.err
    [sent] = gateway.received
    assert (sent.path, sent.query) == ("/api/admin/projects", {"limit": ["1"]})


def test_headers_are_sent_but_never_a_token_typed_on_the_command_line(run, gateway):
    refused = run(
        "api", "GET", "/api/admin/projects", "-H", "Authorization: *:*.typed", "-o", "json"
    )
    assert refused.code == 2 and "profile's token is sent" in refused.error["message"]
    assert gateway.received == []
    sent = run("api", "GET", "/api/admin/projects", "-H", "X-Request-Id: abc")
    assert sent.code == 0, sent.err
    assert gateway.received[0].headers["x-request-id"] == "abc"


def test_secrets_are_masked_in_the_answer(run, server, sandbox):
    """A delivery's details carry its target's URL and the rendered body (real Unleash's
    webhook deliveries do): masked in every format, as the failures view masks them."""
    addon = server.get("/api/admin/addons").json()["addons"][0]["id"]
    details = {"url": SECRET_URL, "body": SECRET_BODY, "contentType": "application/json"}
    with closing(sqlite3.connect(sandbox.db_path)) as conn, conn:
        event = conn.execute("SELECT event FROM integration_events LIMIT 1").fetchone()[0]
        conn.execute(
            "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
            " details) VALUES (?, '2099-01-01T00:00:00.000Z', 'failed', ?, ?, ?)",
            (addon, f"POST {SECRET_URL} failed", event, json.dumps(details)),
        )
    path = f"/api/admin/addons/{addon}/events"
    said = server.get(path).text  # the server says them
    assert "s3cr3t-path" in said and "s3cr3t body" in said
    for output in ("json", "table", "jsonl"):
        result = run("api", "GET", path, "-o", output)
        assert result.code == 0, result.err
        assert "s3cr3t" not in result.out, output
        assert MASK in result.out or json.dumps(MASK)[1:-1] in result.out  # jsonl: escaped
    newest = run("api", "GET", path, "-F", "limit=1").json["integrationEvents"][0]
    assert newest["details"] == {"url": f"https://hooks.example.test/{MASK}?token={MASK}",
                                 "body": MASK,
                                 "contentType": "application/json"}  # fmt: skip
