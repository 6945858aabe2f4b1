"""Integrations whose names tell them apart only in the middle (issue 23, item 4), made on the
sandbox: webhooks `perf2-hook-N dead port`, longer ones alike but for the `hook-N` in their
middle, and two with the very same description, each subscribed to flag metadata changes and
failing every delivery; one flag change then gives each a failed delivery."""

from __future__ import annotations

import json
import sqlite3
import uuid

import httpx

from flagtui.sandbox import SandboxServer

LOOKALIKES = (
    "perf2-hook-1 dead port",
    "perf2-hook-2 dead port",
    "perf2-hook-3 dead port",
    # Longer than any column gives them: what tells them apart is past what a head or an end
    # cut can keep at 80 columns, and past the commands' 60-character cells.
    *(
        f"perf2 staging cluster eu-west webhook hook-{n} for the payments team's on-call rota"
        for n in (4, 5, 6)
    ),
)
TWINS = ("perf2 twin hook", "perf2 twin hook")


def add_failing_webhooks(sandbox: SandboxServer) -> dict[str, list[int]]:
    """The sandbox has no route that creates an integration (real Unleash's POST
    /api/admin/addons): they are written to its database, then a flag's description is changed
    through the API. Returns the ids by description, in the order made."""
    db_path = sandbox.db_path
    made: dict[str, list[int]] = {}
    with sqlite3.connect(db_path) as conn:
        for description in (*LOOKALIKES, *TWINS):
            cursor = conn.execute(
                "INSERT INTO addons (provider, description, enabled, events, projects,"
                " environments, parameters, created_at, behaviour) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    "webhook",
                    description,
                    1,
                    json.dumps(["feature-metadata-updated"]),
                    "[]",
                    "[]",
                    json.dumps({"url": "http://127.0.0.1:9/perf2"}),
                    "2026-01-01T00:00:00.000Z",
                    "revoked-key",  # every delivery fails
                ),
            )
            made.setdefault(description, []).append(int(cursor.lastrowid or 0))
    headers = {"Authorization": sandbox.admin_token}
    with httpx.Client(base_url=sandbox.url, headers=headers, timeout=30) as http:
        flag = http.get("/api/admin/projects/default/features").json()["features"][0]["name"]
        change = [{"op": "replace", "path": "/description", "value": uuid.uuid4().hex}]
        assert http.patch(f"/api/admin/projects/default/features/{flag}", json=change).is_success
        for ids in made.values():
            for addon_id in ids:
                answer = http.get(f"/api/admin/addons/{addon_id}/events").json()
                assert [d["state"] for d in answer["integrationEvents"]] == ["failed"]
    return made
