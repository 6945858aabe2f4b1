"""Secrets masked in every output and at rest (issue 23, item 3): a webhook whose URL has a
secret path and query and whose `bodyTemplate` holds a secret, set through the sandbox's API,
and a delivery of it as real Unleash records one (`details`: the URL and the rendered body).
No format of `integration list|deliveries` or `failures` (nor `--follow`) prints a secret
without `--reveal`; the archive `collect` writes (a custom `sqlite:///` path) holds none, in
its file or its `-wal`, and its files are the user's alone."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from .processes import command_env

WEBHOOK = 1  # the demo's first integration: a webhook
PATH_SECRET = "T0PATHs3cr3t"
QUERY_SECRET = "q5ecretvalue"
BODY_SECRET = "b0dys3cr3t"
SECRETS = (PATH_SECRET, QUERY_SECRET, BODY_SECRET)
URL = f"https://hooks.example.com/services/{PATH_SECRET}?token={QUERY_SECRET}"
TEMPLATE = f'{{"auth": "{BODY_SECRET}", "flag": "{{{{featureName}}}}"}}'
FORMATS = ("table", "json", "jsonl", "csv")


def leaked(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


@pytest.fixture
def secret_webhook(server, sandbox) -> str:
    """The webhook's URL and body template set through the API, and one failed delivery
    recorded with them; the delivery's id."""
    addon = server.get("/api/admin/addons").json()["addons"][WEBHOOK - 1]
    body = {k: addon[k] for k in ("provider", "description", "enabled", "events", "projects")}
    body |= {"environments": addon["environments"]}
    body["parameters"] = {"url": URL, "bodyTemplate": TEMPLATE}
    server.put(f"/api/admin/addons/{WEBHOOK}", json=body).raise_for_status()
    return add_secret_delivery(sandbox.db_path)


def add_secret_delivery(db_path: str) -> str:
    """A failed delivery of the webhook, recorded as real Unleash does: the URL and the
    rendered body template in its details."""
    with sqlite3.connect(db_path) as conn:
        event = conn.execute(
            "SELECT event FROM integration_events WHERE addon_id = ? LIMIT 1", (WEBHOOK,)
        ).fetchone()[0]
        details = {"url": URL, "contentType": "application/json", "body": TEMPLATE}
        cursor = conn.execute(
            "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
            " details) VALUES (?,?,?,?,?,?)",
            (
                WEBHOOK,
                "2030-01-01T00:00:00.000Z",  # the newest
                "failed",
                f"Webhook request to {URL} failed with status code: 503",
                event,
                json.dumps(details),
            ),
        )
        return str(cursor.lastrowid)


@pytest.mark.parametrize("output", FORMATS)
def test_integration_list_masks_the_body_template(run, secret_webhook, output):
    result = run("integration", "list", "-o", output)
    assert result.code == 0, result.err
    assert leaked(result.out) == []
    revealed = run("integration", "list", "-o", "json", "--reveal")
    # The URL is masked by Unleash itself (a sensitive parameter); the template is not.
    assert leaked(revealed.out) == [BODY_SECRET]


@pytest.mark.parametrize("output", FORMATS)
def test_deliveries_and_failures_mask_secrets_in_every_format(run, secret_webhook, output):
    for command in (
        ("integration", "deliveries", str(WEBHOOK)),
        ("failures", "--integration", str(WEBHOOK)),
    ):
        result = run(*command, "-o", output)
        assert result.code == 0, result.err
        assert leaked(result.out + result.err) == [], command
        assert "hooks.example.com" in result.out or output == "table"  # the host stays


def test_reveal_shows_them(run, secret_webhook):
    for command in (
        ("integration", "deliveries", str(WEBHOOK)),
        ("failures", "--integration", str(WEBHOOK)),
    ):
        result = run(*command, "-o", "json", "--reveal")
        delivery = next(d for d in result.json if d["id"] == secret_webhook)
        assert delivery["details"] == {
            "url": URL,
            "contentType": "application/json",
            "body": TEMPLATE,
        }
        masked = next(d for d in run(*command, "-o", "json").json if d["id"] == secret_webhook)
        assert masked["details"]["url"] == "https://hooks.example.com/•••••?token=•••••"
        assert masked["details"]["body"] == "•••••"


@pytest.mark.parametrize("reveal", [False, True])
def test_follow_masks_unless_revealed(cli_env, sandbox, secret_webhook, reveal):
    argv = [sys.executable, "-m", "flagtui", "failures", "--follow", "--interval", "60"]
    argv += ["--integration", str(WEBHOOK), *(["--reveal"] if reveal else [])]
    proc = subprocess.Popen(
        argv,
        env=command_env(cli_env, sandbox),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for _ in range(500):  # what is there is printed first, oldest first: ours is last
            line = proc.stdout.readline()
            if json.loads(line)["id"] == secret_webhook:
                break
        else:
            raise AssertionError("the delivery was not printed")
        assert leaked(line) == (list(SECRETS) if reveal else [])
    finally:
        proc.kill()
        proc.wait()


def test_the_archive_at_a_custom_path_holds_no_secret_and_is_private(
    run, cli_env, sandbox, secret_webhook
):
    folder = cli_env / "team-archive"
    path = folder / "deliveries.db"
    (cli_env / "config.toml").write_text(
        f'[profiles.team]\nurl = "{sandbox.url}"\narchive_url = "sqlite:///{path}"\n'
    )
    files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
    umask = os.umask(0o022)  # the usual one: files 0644 unless flagtui says otherwise
    try:
        assert run("collect", "-P", "team", "--once", "-o", "json").code == 0
        # A reader keeps the -wal and -shm (SQLite removes them when the last one closes),
        # so the next collect's writes stay in the -wal to be looked at.
        reader = sqlite3.connect(path)
        reader.execute("SELECT count(*) FROM deliveries").fetchone()
        second = add_secret_delivery(sandbox.db_path)
        collected = run("collect", "-P", "team", "--once", "-o", "json")
        assert collected.code == 0 and collected.json["stored"] > 0, collected.err
        assert [p.name for p in files if p.exists()] == [p.name for p in files]
        for file in files[:2]:
            assert leaked(file.read_bytes().decode("utf-8", "replace")) == [], file.name
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in files}
        reader.close()
    finally:
        os.umask(umask)
    assert modes == {p.name: 0o600 for p in files}
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    stored = run("failures", "-P", "team", "--integration", str(WEBHOOK), "-o", "json")
    ids = [d["id"] for d in stored.json]
    assert secret_webhook in ids and second in ids
    delivery = next(d for d in stored.json if d["id"] == second)
    assert delivery["details"]["url"] == "https://hooks.example.com/•••••?token=•••••"
    revealed = run("failures", "-P", "team", "--integration", str(WEBHOOK), "--reveal")
    assert leaked(revealed.out) == []  # the archive has nothing to reveal


def test_secrets_leave_no_trace_in_what_the_commands_write(run, cli_env, secret_webhook):
    """Every file under the test's home (the default archive among them) but the sandbox's."""
    assert run("collect", "--once", "-o", "json").code == 0
    run("failures", "-o", "json")
    files = [p for p in Path(cli_env).rglob("*") if p.is_file()]
    written = [p for p in files if not p.name.startswith("sandbox.db")]
    assert written
    for file in written:
        assert leaked(file.read_bytes().decode("utf-8", "replace")) == [], file
