"""What the integration commands' tests share: a webhook created with a secret URL, the
integrations the sandbox lists, and the parameters it stores (its API masks them)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

SECRET = "https://hooks.example.test/T0/s3cr3t-path"


def addons(server) -> list[dict]:
    return server.get("/api/admin/addons").json()["addons"]


def create(run, *extra: str):
    return run(
        "integration", "create", "webhook", "--param", f"url={SECRET}",
        "--event", "feature-created", "--project", "default", "--description", "ci", *extra,
    )  # fmt: skip


def stored_parameters(sandbox) -> dict[str, str]:
    """The newest integration's parameters as the sandbox stores them (its API masks them)."""
    with closing(sqlite3.connect(sandbox.db_path)) as conn:
        row = conn.execute("SELECT parameters FROM addons ORDER BY id DESC LIMIT 1").fetchone()
    return dict(json.loads(row[0]))
