"""Each exit code of the contract, and how errors are said: one JSON envelope on stderr with
JSON output, one readable line otherwise. Exit 5 (not supported) needs an OSS server: see
tests/conformance/test_cli_on_real_unleash.py."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from flagtui.cli import main
from flagtui.cli.exits import EXIT_CODES_HELP


def test_0_and_1_failures_found_only_with_fail_on_failures(run):
    assert run("failures").code == 0
    assert run("failures", "--fail-on-failures").code == 1
    # Integration 1 posts to a reliable endpoint: nothing failed in the last hour, all of
    # which the server still lists (its whole history it does not: 8, test_failures_server_only).
    quiet = run("failures", "--integration", "1", "--since", "1h", "--fail-on-failures")
    assert (quiet.code, quiet.json) == (0, [])


def test_2_usage(run):
    result = run("feature", "list", "--bogus")
    assert result.code == 2
    assert "unrecognized arguments: --bogus" in result.err
    assert run("event", "search", "--since", "soon").code == 2
    archived = run("feature", "list", "--archived")
    assert (archived.code, archived.error["kind"]) == (2, "usage")
    assert archived.error["message"].startswith("--archived needs --project")


def test_2_configuration(run):
    result = run("type", "list", "-P", "nope")
    assert result.code == 2
    assert result.error == {
        "kind": "configuration",
        "status": None,
        "name": "ConfigError",
        "message": "No profile named 'nope' (known: env).",
        "method": None,
        "path": None,
    }


def test_2_a_contract_limit_names_the_field(run):
    assert run("user", "search", "a").error["message"] == "q: at least 2 characters"
    result = run("event", "search", "--limit", "101", "-o", "table")
    assert (result.code, result.line) == (2, "flagtui: limit: an integer from 1 to 100")


def test_2_an_event_limit_under_1_is_refused_not_an_empty_answer(run):
    for limit in ("0", "-3"):
        result = run("event", "search", "--limit", limit)
        assert (result.code, result.out) == (2, ""), limit
        assert result.error["message"] == "limit: an integer from 1 to 100"


def test_3_authentication(run, monkeypatch):
    monkeypatch.setenv("UNLEASH_API_TOKEN", "*:*.not-a-token-of-this-server")
    result = run("type", "list")
    assert result.code == 3
    assert (result.error["kind"], result.error["status"]) == ("authentication", 401)


def test_3_permission(run, monkeypatch, sandbox):
    monkeypatch.setenv("UNLEASH_API_TOKEN", sandbox.viewer_token)
    result = run("type", "lifetime", "release", "3")
    assert result.code == 3
    assert (result.error["kind"], result.error["status"]) == ("permission", 403)
    assert result.error["method"] == "PUT"
    assert result.error["path"] == "/api/admin/feature-types/release/lifetime"


def test_4_not_found_in_table_mode_is_one_line(run):
    result = run("feature", "show", "default", "no-such-flag", "-o", "table")
    assert result.code == 4
    assert result.line == (
        "flagtui: GET /api/admin/projects/default/features/no-such-flag (profile env) failed: "
        "404 NotFoundError: Could not find feature flag no-such-flag in project default"
    )
    assert run("integration", "disable", "999", "--yes").error["kind"] == "not-found"


def test_6_unreachable(run, monkeypatch):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("UNLEASH_URL", f"http://127.0.0.1:{port}")
    result = run("type", "list")
    assert result.code == 6
    assert result.error["kind"] == "unreachable"
    assert result.error["path"] == "/api/admin/ui-config"


class _DropsWrites(BaseHTTPRequestHandler):
    """Answers ui-config like a server; takes a write's request and closes without answering
    (no real server does that on purpose: it is what a proxy or a crash mid-write looks like)."""

    def do_GET(self) -> None:
        body = b'{"version": "8.2.0", "versionInfo": {"current": {"enterprise": "8.2.0"}}}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_PUT(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def drops_writes() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _DropsWrites)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_7_outcome_unknown(run, monkeypatch, drops_writes):
    monkeypatch.setenv("UNLEASH_URL", drops_writes)
    result = run("type", "lifetime", "release", "3")
    assert result.code == 7
    assert result.error["kind"] == "outcome-unknown"
    assert result.error["method"] == "PUT"
    result = run("type", "lifetime", "release", "3", "-o", "table")
    assert "may or may not have been applied: re-read before retrying" in result.line


def test_help_lists_the_exit_codes(capsys):
    for argv in (["--help"], ["feature", "patch", "--help"], ["failures", "--help"]):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 0
        assert EXIT_CODES_HELP in capsys.readouterr().out
    for code in range(8):
        assert f"\n  {code}  " in EXIT_CODES_HELP


def test_failures_since_counts_only_recent_ones(run):
    # The demo's deliveries are from 2025: none in the last hour until a change fails now.
    assert run("failures", "--since", "1h", "--fail-on-failures").code == 0
    # Integration 5's key is revoked: its delivery of this change fails.
    assert (
        run("feature", "patch", "default", "admin-async-emails", "--set", "description=n").code == 0
    )
    found = run("failures", "--since", "1h", "--fail-on-failures")
    assert found.code == 1
    hour_ago = datetime.now(UTC) - timedelta(hours=1)
    assert 5 in {d["integrationId"] for d in found.json}
    assert all(datetime.fromisoformat(d["createdAt"]) > hour_ago for d in found.json)


@pytest.mark.parametrize("command", [("failures",), ("event", "search")], ids=" ".join)
@pytest.mark.parametrize(
    "since",
    ["10000000000d", "999999999d", "5215w", "9" * 5000 + "s"],
    ids=["1e10d", "999999999d", "5215w", "5000-digits"],
)
def test_2_a_since_out_of_range_names_the_option_and_the_limit(run, command, since):
    # Not 1 (failures found: a cron alert would mail a false one), not 6, never a traceback.
    result = run(*command, "--since", since, "-o", "table")
    assert (result.code, result.out) == (2, "")
    assert "argument --since: " in result.err and "at most 36500d (100 years)" in result.err
    assert "Traceback" not in result.err


def test_since_0s_means_now(run):
    # Every failure and event of the demo is older than now: nothing is that recent.
    assert run("failures", "--since", "0s", "--fail-on-failures").code == 0
    assert run("failures", "--since", "0s").json == []
    assert run("event", "search", "--since", "0s").json == []
    assert run("event", "search", "--since", "36500d", "--limit", "1").code == 0
