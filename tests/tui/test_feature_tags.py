"""Real Unleash (6.10 to 8.2) leaves `tags` out of a flag's payload; the detail then shows the
flag's tag list (GET /api/admin/features/:f/tags), and says so when that is not known either.
The sandbox follows the contract (its payload has tags): they are taken out on their way."""

from __future__ import annotations

import re
from typing import Any

import httpx

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.screens.feature_detail import FeatureDetailScreen

from .areas import settle
from .helpers import visible_text
from .rewritten import app_over_rewritten_sandbox

FEATURE_PATH = re.compile(r"/api/admin/projects/[^/]+/features/[^/]+")


def _without_tags(method: str, path: str, body: Any) -> Any:
    if method == "GET" and FEATURE_PATH.fullmatch(path):
        return {k: v for k, v in body.items() if k != "tags"}
    return body


def _without_tags_or_tag_list(method: str, path: str, body: Any) -> Any:
    if path.endswith("/tags"):
        return httpx.Response(403, json={"name": "NoAccessError", "message": "no"})
    return _without_tags(method, path, body)


async def a_tagged_feature(client: AdminClient) -> tuple[str, list[str]]:
    for feature in (
        await client.features.search(FeatureQuery(project="payments", limit=50))
    ).features:
        if feature.tags:
            return feature.name, [f"{t.type}:{t.value}" for t in feature.tags]
    raise AssertionError("the demo's payments project has a tagged flag")


async def detail_text(sandbox: Any, tmp_path: Any, rewrite: Any, name: str) -> str:
    app = app_over_rewritten_sandbox(sandbox, tmp_path, "feature-types", rewrite)
    async with app.run_test(size=(100, 60)) as pilot:
        await settle(pilot)
        app.push_screen(FeatureDetailScreen("payments", name))
        await settle(pilot)
        text = visible_text(app, "#feature")
    await app.client.aclose()
    return text


async def test_tags_missing_from_the_payload_are_read_from_the_tag_list(
    sandbox, client, tmp_path
) -> None:
    name, tags = await a_tagged_feature(client)
    text = await detail_text(sandbox, tmp_path, _without_tags, name)
    tags_section = text.split("Tags", 1)[1].split("Dependencies", 1)[0]
    assert all(tag in tags_section for tag in tags), text


async def test_tags_nobody_said_are_not_known_rather_than_none(sandbox, client, tmp_path) -> None:
    name, _tags = await a_tagged_feature(client)
    text = await detail_text(sandbox, tmp_path, _without_tags_or_tag_list, name)
    tags_section = text.split("Tags", 1)[1].split("Dependencies", 1)[0]
    assert "not known (the server did not say)" in tags_section
