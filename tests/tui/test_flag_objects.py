"""`#` and `L` on a flag's detail at 80x24: tags added and removed, a parent flag set and
taken away; each shows the request (and who gets the flag per environment) before anything is
sent, and each flow checks the rendered screen, then what the server holds."""

from __future__ import annotations

import uuid
from typing import Any

from flagtui.api import AdminClient
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.line_prompt import LinePrompt
from testkit.pilot import settle

from .helpers import screen_text, toast_text

PROJECT = "payments"
SIZE = (80, 24)


async def new_flag(client: AdminClient, prefix: str) -> str:
    name = f"{prefix}-{uuid.uuid4().hex[:6]}"
    await client.features.create(PROJECT, name)
    return name


async def opened(app: Any, pilot: Any, name: str) -> None:
    await settle(app, pilot)
    app.push_screen(FeatureDetailScreen(PROJECT, name))
    await settle(app, pilot)


async def typed(app: Any, pilot: Any, key: str, line: str) -> str:
    await pilot.press(key)
    await settle(app, pilot)
    assert isinstance(app.screen, LinePrompt), screen_text(app)
    await pilot.press(*("backspace" if c == "\b" else c for c in line), "enter")
    await settle(app, pilot)
    return screen_text(app)


async def test_tags_are_added_and_removed_with_the_request_shown(make_app, client) -> None:
    name = await new_flag(client, "tui-tags")
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await opened(app, pilot, name)
        asked = await typed(app, pilot, "number_sign", "simple:beta")
        assert isinstance(app.screen, ConfirmModal)
        assert "Adds: simple:beta" in asked and "POST /api/admin/features/" in asked
        await pilot.press("enter")  # Send is focused: adding is not destructive
        await settle(app, pilot)
        assert "tags now simple:beta" in toast_text(app)
        assert [(t.type, t.value) for t in await client.tags.list(name)] == [("simple", "beta")]
        again = await typed(app, pilot, "number_sign", "beta")  # the flag has it: nothing to send
        assert isinstance(app.screen, FeatureDetailScreen), again
        assert "Nothing sent" in toast_text(app) and "already tagged simple:beta" in toast_text(app)
        asked = await typed(app, pilot, "number_sign", "-simple:beta")
        assert "Removes: simple:beta" in asked and "DELETE /api/admin/features/" in asked
        await pilot.press("enter")  # Send is focused (a tag is added back as easily)
        await settle(app, pilot)
    assert await client.tags.list(name) == []
    events = [e.type for e in (await client.events.search(feature=name, limit=5)).events]
    assert events[:3] == ["feature-untagged", "feature-tagged", "feature-created"]


async def test_a_parent_is_set_with_who_gets_it_shown_then_removed(make_app, client) -> None:
    child, parent = await new_flag(client, "tui-child"), await new_flag(client, "tui-parent")
    await client.features.set_environment_enabled(PROJECT, child, "development", True)
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await opened(app, pilot, child)
        asked = await typed(app, pilot, "L", parent)
        # off in production before and after, but no one once switched on: a production change
        assert isinstance(app.screen, TypedConfirmModal), asked
        assert "production: off (no one now); once on: 1,000 → 0" in asked
        assert "development: 1,000 → 0" in asked
        await pilot.press(*child, "tab", "tab", "enter")  # the typed name, Cancel, then Send
        await settle(app, pilot)
        assert f"{child} now depends on {parent}" in toast_text(app)
        flag = await client.features.get(PROJECT, child)
        assert [d.feature for d in flag.dependencies or []] == [parent]
        refused = await typed(app, pilot, "L", child)
        assert isinstance(app.screen, FeatureDetailScreen), refused
        assert "cannot depend on itself" in toast_text(app)
        asked = await typed(app, pilot, "L", "\b" * 40)  # emptied: no parent
        assert "development: 0 → 1,000" in asked
        assert "DELETE" in asked and f"features/{child}/dependencies" in asked
        await pilot.press(*child, "tab", "tab", "enter")  # the typed name, Cancel, then Send
        await settle(app, pilot)
    assert (await client.features.get(PROJECT, child)).dependencies == []
