"""A known set of differences seeded into one of two sandboxes made from the same data: what
`flagtui diff` and the TUI's drift view must list, exactly (a flag only on one side, a type, an
environment switched, a rollout percentage)."""

from __future__ import annotations

import httpx

from flagtui.sandbox import SandboxServer

PROJECT = "default"


def seed_differences(prod: SandboxServer) -> set[tuple[str, str]]:
    """Changes made on prod only; the differences `diff` must find, as (flag, what)."""
    http = httpx.Client(base_url=prod.url, headers={"Authorization": prod.admin_token})
    flags = sorted(
        f["name"] for f in http.get(f"/api/admin/projects/{PROJECT}/features").json()["features"]
    )
    only, typed, switched, rolled = flags[:4]
    base = f"/api/admin/projects/{PROJECT}/features"
    http.delete(f"{base}/{only}").raise_for_status()  # archived: no longer live on prod
    http.patch(
        f"{base}/{typed}", json=[{"op": "replace", "path": "/type", "value": "kill-switch"}]
    ).raise_for_status()
    envs = {e["name"]: e["enabled"] for e in http.get(f"{base}/{switched}").json()["environments"]}
    state = "off" if envs["development"] else "on"
    http.post(f"{base}/{switched}/environments/development/{state}").raise_for_status()
    strategy = {
        "name": "flexibleRollout",
        "parameters": {"rollout": "37", "stickiness": "default", "groupId": rolled},
    }
    http.post(
        f"{base}/{rolled}/environments/production/strategies", json=strategy
    ).raise_for_status()
    return {
        (only, "present"),
        (typed, "type"),
        (switched, "enabled in development"),
        (rolled, "strategies in production"),
    }
