"""The sandbox's hostile strings on a real Unleash: what it stores as sent, what it refuses, and
flagtui in a real terminal on what it stored (the same checks as tests/tui/test_hostile_pty.py).

Real Unleash OSS 8.2 stores descriptions, PATCHed feature types, tag values and integration
descriptions and parameters, strategy titles and variant payloads as sent, control characters,
markup and BiDi included. It refuses:
a new flag whose type is not a known feature type (400; a PATCH to any type is accepted), and a
tag value above its length limit (the 62-character OSC 52 string; shorter control sequences are
accepted), and a webhook URL whose host does not resolve (500 UnknownError ENOTFOUND: it
looks the host up when the integration is saved). Projects, feature types, groups and change
requests cannot be created on OSS.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from hostile_pty import Walk, open_flagtui
from real_webhook import retire_webhook_async

from flagtui.sandbox import hostile_data as hx

pytestmark = pytest.mark.unleash

FEATURES = "/api/admin/projects/default/features"
# Real Unleash resolves a webhook's host when it is saved: loopback, with a token in the query.
WEBHOOK_URL = "http://127.0.0.1:9/flags?token=hx-webhook-s3cret&team=ops"
TAGS = ["[/x]", hx.MARKUP[:40], f"hx {hx.BIDI_TEXT}", hx.EMOJI, hx.CSI_CLEAR, hx.OSC0, "ab\x9bcd"]
# The strategy form's repro (issue 44): a title that writes the clipboard, renames the window
# and clears the screen, and a variant payload that renames the window; short enough that an
# 80-column input draws all of it.
STRATEGY_TITLE = f"hx-title {hx.OSC52}{hx.OSC0}{hx.CSI_CLEAR}{hx.C1_CSI}{hx.C1_MARK}"
PAYLOAD = f"hx-payload {hx.OSC0}{hx.CSI_CLEAR}"


@dataclass
class Hostile:
    feature: str
    description: str
    addon: int


@pytest.fixture
async def hostile_on_unleash(unleash_admin: httpx.AsyncClient) -> AsyncIterator[Hostile]:
    """A flag with a hostile description, type and tags, and a disabled webhook with a hostile
    description, body template and a URL with a token; all removed afterwards."""
    name = f"hx-real-{uuid.uuid4().hex[:10]}"
    description = hx.hostile("hx-desc-real", long=True)
    addon_id: int | None = None
    try:
        created = await unleash_admin.post(
            FEATURES, json={"name": name, "type": "release", "description": description}
        )
        assert created.status_code == 201, created.text
        addon = await unleash_admin.post(
            "/api/admin/addons",
            json={
                "provider": "webhook",
                "description": hx.hostile(f"hx-addon-{name}", lines=False),
                "enabled": False,
                "parameters": {"url": WEBHOOK_URL, "bodyTemplate": hx.hostile("hx-body")},
                "events": ["feature-created"],
                "projects": ["default"],
                "environments": [],
            },
        )
        assert addon.status_code == 201, addon.text
        addon_id = addon.json()["id"]
        patched = await unleash_admin.patch(
            f"{FEATURES}/{name}", json=[{"op": "replace", "path": "/type", "value": "[/x]"}]
        )
        assert patched.status_code == 200, patched.text
        for value in TAGS:
            tagged = await unleash_admin.post(
                f"/api/admin/features/{name}/tags", json={"type": "simple", "value": value}
            )
            assert tagged.status_code == 201, (value, tagged.text)
        strategy = await unleash_admin.post(
            f"{FEATURES}/{name}/environments/development/strategies",
            json={
                "name": "flexibleRollout",
                "title": STRATEGY_TITLE,
                "parameters": {"rollout": "50", "stickiness": "default", "groupId": name},
                "variants": [
                    {
                        "name": "hx-variant",
                        "weight": 1000,
                        "weightType": "variable",
                        "stickiness": "default",
                        "payload": {"type": "string", "value": PAYLOAD},
                    }
                ],
            },
        )
        assert strategy.status_code == 200, strategy.text
        yield Hostile(name, description, addon_id)
    finally:
        if addon_id is not None:
            await retire_webhook_async(unleash_admin, addon_id)
        await unleash_admin.delete(f"{FEATURES}/{name}")


async def test_real_unleash_stores_hostile_text_as_sent(
    unleash_admin: httpx.AsyncClient, hostile_on_unleash: Hostile
) -> None:
    feature = (await unleash_admin.get(f"{FEATURES}/{hostile_on_unleash.feature}")).json()
    assert feature["description"] == hostile_on_unleash.description
    assert feature["type"] == "[/x]"
    tags = await unleash_admin.get(f"/api/admin/features/{hostile_on_unleash.feature}/tags")
    assert {t["value"] for t in tags.json()["tags"]} == set(TAGS)


async def test_real_unleash_refuses_an_unknown_type_on_create_and_a_long_tag(
    unleash_admin: httpx.AsyncClient, hostile_on_unleash: Hostile
) -> None:
    name = f"hx-refused-{uuid.uuid4().hex[:10]}"
    refused = await unleash_admin.post(FEATURES, json={"name": name, "type": "[/x]"})
    assert refused.status_code == 400 and refused.json()["name"] == "BadDataError"
    tag = await unleash_admin.post(
        f"/api/admin/features/{hostile_on_unleash.feature}/tags",
        json={"type": "simple", "value": hx.OSC52},
    )
    assert tag.status_code == 400, tag.text


def test_flagtui_in_a_real_terminal_on_hostile_text_stored_by_real_unleash(
    real_unleash: Any, hostile_on_unleash: Hostile, tmp_path: Path
) -> None:
    """Few feature searches (real Unleash allows 15 a minute per client IP, shared): the one
    on start and the one for the flag's name."""
    name = hostile_on_unleash.feature
    with open_flagtui(
        real_unleash.url, real_unleash.token, tmp_path, area="features", project="default"
    ) as term:
        walk = Walk(term)
        # The search box is mounted with the first page: `s` before it finds nothing to focus,
        # and the name's digits would switch areas.
        walk.step("features", [], "n/p Page", "search features (s)")
        walk.step("search for the flag", ["s", name, "enter"], name, "1 feature")
        walk.step("the flag's detail", ["enter"], "hx-desc-real", "y Copy")
        walk.step("the patch form", ["e"], f"Patch {name}", "Review & send")
        walk.step("back to the detail", ["escape"], "y Copy", gone="Review & send")
        # One environment has a strategy: `S` opens its form (no environment to pick).
        walk.step("the strategy form", ["S"], "␛]0;pwned␇␛[2J<U+009B>HX-C1", "Review & send")
        walk.step("back from the form", ["escape"], "y Copy", gone="Review & send")
        walk.step("back to the features", ["escape"], "n/p Page", gone="y Copy")
        walk.step("integrations", ["4"], "Trend", "⏎ Open")
        addon = f"hx-addon-{name}"
        walk.step("the hostile webhook, filtered", ["/", addon, "enter"], addon)
        walk.step("its deliveries", ["enter"], addon, "page 1 · deliveries", "f Failed")
        walk.step("back to the integrations", ["escape"], "Trend", "⏎ Open", gone="f Failed")
        walk.step("event log", ["6"], "50/100", "feature (s)")
        # Filtered to the flag: its few events fit one page ("last page"), tags among them.
        walk.step("the flag's events", ["s", name, "enter"], "feature-tagged", "last page")
        walk.step("an event's detail", ["enter"], "y Copy")
        walk.step("back to the event log", ["escape"], "50/100", gone="y Copy")
        term.send("q")
        assert term.wait_exit(10) == 0
        term.settle(quiet=0.2, limit=3)
        walk.check("after quitting", running=False)
    headers = {"Authorization": real_unleash.token}
    read = httpx.get(f"{real_unleash.url}{FEATURES}/{name}", headers=headers, timeout=30)
    kept = read.json()["environments"]
    strategy = next(e for e in kept if e["name"] == "development")["strategies"][0]
    assert strategy["title"] == STRATEGY_TITLE  # the untouched form sent nothing
    assert strategy["variants"][0]["payload"]["value"] == PAYLOAD
