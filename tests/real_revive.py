"""Real Unleash (6.x to 8.2) writes an archived flag's `archived` and a revived flag's `initial`
lifecycle stage after it has answered, in an event handler. A flag deleted before that write
makes the insert break a foreign key, and the unhandled rejection ends the whole Unleash
process; a flag revived before its `archived` stage is written ends up live in stage
`archived`. Tests on a real server wait for each stage, as a person's pace would."""

from __future__ import annotations

import asyncio

import httpx

from flagtui.api import AdminClient

LIMIT_S = 10.0


async def wait_until_revived(client: AdminClient, project: str, name: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + LIMIT_S
    while loop.time() < deadline:
        feature = await client.features.get(project, name)
        if feature.lifecycle is not None and feature.lifecycle.stage == "initial":
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name}: no initial lifecycle stage {LIMIT_S:g} s after its revival")


async def wait_until_archived(admin: httpx.AsyncClient, project: str, name: str) -> None:
    """Read from the flag's lifecycle route (the feature search allows 15 reads a minute)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + LIMIT_S
    path = f"/api/admin/projects/{project}/features/{name}/lifecycle"
    while loop.time() < deadline:
        stages = (await admin.get(path)).json()
        if any(s["stage"] == "archived" for s in stages):  # listed in the order written
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name}: no archived lifecycle stage {LIMIT_S:g} s after its archive")
