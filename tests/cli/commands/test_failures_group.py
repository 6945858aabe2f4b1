"""`flagtui failures --group` (issue 48, item 4): one row per integration and error, with its
newest triggering change and who, in every format, from the server or the archive, with the
answer's freshness said as without it; and the cron recipe of docs/on-call.md run as written
(`--report-changes`): one group, then nothing, then "recovered"."""

from __future__ import annotations

import csv
import io
import json
import os
import socket
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import httpx

from ..processes import patch_many

ROOT = Path(__file__).resolve().parents[3]


def dead_url() -> str:
    """A loopback URL nothing listens on, with secrets in its path and query."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/hooks/T0SECRET?token=abc123"


def add_dead_webhook(sandbox) -> int:
    """A webhook to a closed loopback port, created through the API and subscribed to flag
    metadata changes: every delivery fails as real Unleash 8.2 says it ("status code: 500")."""
    body = {
        "provider": "webhook",
        "description": "group-probe dead hook",
        "enabled": True,
        "parameters": {"url": dead_url()},
        "events": ["feature-metadata-updated"],
        "projects": [],
        "environments": [],
    }
    headers = {"Authorization": sandbox.admin_token}
    created = httpx.post(f"{sandbox.url}/api/admin/addons", json=body, headers=headers)
    assert created.is_success, created.text
    return int(created.json()["id"])


def dead_groups(rows: list[dict], addon_id: int) -> list[dict]:
    return [r for r in rows if r["integrationId"] == addon_id]


def test_groups_name_the_count_the_span_and_the_newest_change_in_every_format(run, sandbox, server):
    addon_id = add_dead_webhook(sandbox)
    patch_many(server, 3, "group-probe")
    result = run("failures", "--group", "--since", "1h", "-o", "json")
    assert result.code == 0, result.err
    (group,) = dead_groups(result.json, addon_id)
    assert (
        group["count"] == 3 and group["errorKey"] == "Webhook request failed with status code: <n>"
    )
    assert group["stateDetails"] == "Webhook request failed with status code: 500"
    assert group["firstSeen"] <= group["lastSeen"]
    change = group["newestChange"]
    assert change["type"] == "feature-updated" or change["type"].startswith("feature-")
    assert change["featureName"] == "admin-async-emails" and change["createdBy"]
    answer = json.loads(result.err)["answer"]  # the answer's line, as without --group
    assert answer["source"] == "live" and answer["shown"] == answer["inWindow"]
    # The whole failures are counted, each once.
    assert sum(g["count"] for g in result.json) == answer["inWindow"]

    table = run("failures", "--group", "--since", "1h", "-o", "table")
    assert table.code == 0 and table.err.startswith("flagtui: from the server")
    (line,) = [x for x in table.out.splitlines() if "group-probe dead hook (webhook)" in x]
    assert "admin-async-emails" in line and " 3 " in line and "status code: 500" in line
    rows = list(
        csv.DictReader(io.StringIO(run("failures", "--group", "--since", "1h", "-o", "csv").out))
    )
    (row,) = [r for r in rows if r["integrationId"] == str(addon_id)]
    assert (row["count"], row["newestChange.featureName"]) == ("3", "admin-async-emails")


def test_the_archive_groups_alike_and_says_its_freshness(run, sandbox, server):
    addon_id = add_dead_webhook(sandbox)
    patch_many(server, 2, "group-probe")
    assert run("collect", "--once", "-o", "json").code == 0
    patch_many(server, 1, "group-probe late")  # after the collection: read from the server
    result = run("failures", "--group", "--integration", str(addon_id), "-o", "json")
    assert result.code == 0, result.err
    (group,) = result.json
    assert group["count"] == 3 and group["source"] == "live"  # the newest is the server's
    assert group["newestChange"]["featureName"] == "admin-async-emails"
    answer = json.loads(result.err)["answer"]
    assert (answer["source"], answer["complete"], answer["liveAdded"]) == ("archive", True, 1)
    assert answer["collectedUntil"]
    collected = run("collect", "--once", "-o", "json")
    assert collected.code == 0
    again = run("failures", "--group", "--integration", str(addon_id), "-o", "json")
    (group,) = again.json
    assert (group["count"], group["source"]) == (3, "archive")


def test_group_is_refused_with_follow(run):
    result = run("failures", "--group", "--follow", "-o", "table")
    assert result.code == 2 and "not with --follow" in result.line


def recipe() -> tuple[dict[str, str], str]:
    """The crontab of docs/on-call.md's cron alert: its variables and its command."""
    text = (ROOT / "docs" / "on-call.md").read_text(encoding="utf-8")
    block = text[text.index("# crontab -e") :].split("```")[0]
    variables, command = {}, None
    for line in block.splitlines():
        if line.startswith("*/15 * * * * "):
            command = line.removeprefix("*/15 * * * * ")
        elif "=" in line and not line.startswith("#"):
            name, _, value = line.partition("=")
            variables[name] = value
    assert command is not None, block
    return variables, command


def test_the_cron_recipe_mails_one_group_then_nothing_then_recovered(
    sandbox, server, tmp_path: Path
):
    variables, command = recipe()
    assert "MAILTO" in variables and "--report-changes" in command
    (tmp_path / "config.toml").write_text(f'[profiles.staging]\nurl = "{sandbox.url}"\n')
    env = {
        # cron's PATH as the recipe sets it, with the folder this flagtui is installed in
        "PATH": f"{Path(sys.executable).parent}:{variables['PATH']}",
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "FLAGTUI_CONFIG": str(tmp_path / "config.toml"),
        "FLAGTUI_CREDENTIALS": str(tmp_path / "creds" / "tokens.toml"),
        "UNLEASH_URL": sandbox.url,  # the staging profile's token, from the environment
        "UNLEASH_API_TOKEN": sandbox.admin_token,
    }

    def cron() -> subprocess.CompletedProcess[str]:
        # As cron runs it: `sh -c`, both outputs mailed.
        return subprocess.run(
            ["/bin/sh", "-c", command], env=env, capture_output=True, text=True, timeout=120
        )

    with sqlite3.connect(sandbox.db_path) as conn:  # one broken integration: the others off
        conn.execute("UPDATE addons SET enabled = 0")
    addon_id = add_dead_webhook(sandbox)
    patch_many(server, 2, "cron")
    first = cron()
    assert first.returncode == 1, first.stderr
    assert first.stderr.startswith("flagtui: from the server")
    header, mine = first.stdout.splitlines()  # one group
    assert header.split()[:3] == ["change", "lastSeen", "integration"]
    assert mine.startswith("new ") and "group-probe dead hook (webhook)" in mine
    assert "status code: 500" in mine and "admin-async-emails" in mine
    assert "T0SECRET" not in first.stdout + first.stderr and "abc123" not in first.stdout
    states = list((tmp_path / "data" / "flagtui" / "archive").glob("*.failure-groups.json"))
    assert len(states) == 1 and stat.S_IMODE(os.stat(states[0]).st_mode) == 0o600

    patch_many(server, 1, "cron again")  # still failing: a new failure of the same group
    second = cron()
    assert (second.returncode, second.stdout, second.stderr) == (0, "", "")

    addons = server.get("/api/admin/addons").json()["addons"]
    (addon,) = [a for a in addons if a["id"] == addon_id]
    assert server.put(f"/api/admin/addons/{addon_id}", json=addon | {"enabled": False}).is_success
    third = cron()
    assert third.returncode == 1, third.stderr
    (line,) = [x for x in third.stdout.splitlines() if "group-probe dead hook" in x]
    assert line.startswith("recovered ")
    fourth = cron()
    assert (fourth.returncode, fourth.stdout) == (0, "")
    assert httpx.get(f"{sandbox.url}/health").status_code < 500
