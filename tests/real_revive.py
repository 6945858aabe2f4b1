"""Real Unleash (8.2 at least) writes a revived flag's `initial` lifecycle stage after it has
answered the revive, in an event handler. A flag deleted before that write makes the insert
break a foreign key, and the unhandled rejection ends the whole Unleash process. Tests that
revive a flag on a real server wait for the stage before anything may delete the flag."""

from __future__ import annotations

import asyncio

from flagtui.api import AdminClient

LIMIT_S = 10.0


async def wait_until_revived(client: AdminClient, project: str, name: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + LIMIT_S
    while loop.time() < deadline:
        feature = await client.get_feature(project, name)
        if feature.lifecycle is not None and feature.lifecycle.stage == "initial":
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name}: no initial lifecycle stage {LIMIT_S:g} s after its revival")
