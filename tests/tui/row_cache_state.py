"""The row cache's tests' set-up: a remembered project, a cached page,
the server's first page, an app on the sandbox."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from held_transport import Held

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.row_cache import RowCache

SEARCH = "/api/admin/search/features"


CACHED = [("cached-only-flag", ["cached-only-flag", "release", "", "", "", "2020-01-01"])]


async def first_project(sandbox: Any) -> str:
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        return (await client.projects.list())[0].id


def features_state(tmp_path: Path, project: str, name: str = "sandbox") -> Path:
    """A state file in which profile `name` remembers the features area of `project`."""
    state = tmp_path / "state.json"
    state.write_text(json.dumps({name: {"area": "features", "project": project}}))
    return state


def app_on(
    sandbox: Any, tmp_path: Path, project: str, transport: Held, name: str = "sandbox"
) -> FlagtuiApp:
    """An app whose remembered area is the features of `project` (state in tmp_path)."""
    state = features_state(tmp_path, project, name)
    client = AdminClient(sandbox.url, sandbox.admin_token, profile=name, transport=transport)
    return FlagtuiApp(client, Profile(name=name, url=sandbox.url), state_path=state)


def cache_of(sandbox: Any, tmp_path: Path, name: str = "sandbox") -> RowCache:
    """The row cache `app_on` uses for that profile (beside its state file)."""
    return RowCache(tmp_path / "rows", name, sandbox.url)


def server_first_page(sandbox: Any, project: str) -> list[str]:
    query = {"project": f"IS:{project}", "sortBy": "name", "sortOrder": "asc", "limit": 50}
    answer = httpx.get(
        f"{sandbox.url}/api/admin/search/features",
        params={**query, "offset": 0},
        headers={"Authorization": sandbox.admin_token},
    )
    return [f["name"] for f in answer.json()["features"]]
