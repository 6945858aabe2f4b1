"""The detail's `L` clone, `M` mark completed, `d` delete for good and `Y` copy strategies, at
80x24: each question as rendered, then what the server holds and the event it recorded."""

from __future__ import annotations

import uuid
from typing import Any

from textual.widgets import Button, Input

from flagtui.api import AdminClient
from flagtui.api.models import Strategy, Variant
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.flag_picker import FlagPickerModal
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.clone_modal import CloneModal
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from testkit.pilot import settle

from .helpers import screen_text, toast_text
from .palette_keys import palette_for, run_from_palette, type_text

PROJECT = "default"
SIZE = (80, 24)


async def a_flag(
    client: AdminClient, rollouts: int = 1, variant: str | None = None, project: str = PROJECT
) -> str:
    """A new flag with `rollouts` gradual rollouts in development."""
    name = f"ops-{uuid.uuid4().hex[:8]}"
    await client.features.create(project, name)
    variants = [Variant(name=variant)] if variant else None
    for percent in (30, 50)[:rollouts]:
        rollout = Strategy(name="flexibleRollout", parameters={"rollout": percent},
                           variants=variants)  # fmt: skip
        await client.rollouts.add(project, name, "development", rollout)
    return name


async def newest_event(client: AdminClient, name: str) -> Any:
    return (await client.events.search(feature=name, limit=1)).events[0]


async def open_detail(app: Any, pilot: Any, name: str) -> None:
    app.push_screen(FeatureDetailScreen(PROJECT, name))
    await settle(app, pilot)


async def test_l_clones_the_flag_and_opens_the_clone(make_app, client) -> None:
    name = await a_flag(client)
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, name)
        await pilot.press("O")
        await settle(app, pilot)
        assert isinstance(app.screen, CloneModal)
        assert f"Clone {name}" in screen_text(app)
        field = app.screen.query_one("#clone-name", Input)
        assert field.value == f"{name}-copy"
        field.value = "not a name"
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, CloneModal)  # refused, what was typed kept
        assert "Not sent: name:" in screen_text(app) and field.value == "not a name"
        field.value = f"{name}-c"
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert app.screen.feature_name == f"{name}-c"
        assert f"{name} cloned as {name}-c" in toast_text(app)
    clone = await client.features.get(PROJECT, f"{name}-c")
    dev = next(e for e in clone.environments or [] if e.name == "development")
    assert [s.parameters["groupId"] for s in dev.strategies or [] if s.parameters] == [name]
    assert not any(e.enabled for e in clone.environments or [])
    assert (await newest_event(client, f"{name}-c")).type == "feature-strategy-add"


async def test_m_marks_completed_with_the_variant_kept(make_app, client) -> None:
    name = await a_flag(client, variant="blue")
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, name)
        await pilot.press("M")
        await settle(app, pilot)
        assert isinstance(app.screen, ChoicePicker)
        shown = screen_text(app)
        assert "Kept, with variant blue" in shown and "Discarded" in shown
        await pilot.press("down", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        asked = screen_text(app)
        assert "completed stage (kept, variant blue)" in asked
        assert "lifecycle/complete" in asked
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert f"{name} marked completed (kept)" in toast_text(app)
        detail = app.screen
        assert isinstance(detail, FeatureDetailScreen)  # read again: completed, so u, not M
        assert detail.check_action("uncomplete", ()) is not False
        assert detail.check_action("flag_op", ("complete",)) is False
    flag = await client.features.get(PROJECT, name)
    assert flag.lifecycle is not None and flag.lifecycle.stage == "completed"
    assert flag.lifecycle.status == "kept"
    event = await newest_event(client, name)
    assert event.type == "feature-completed" and event.data["statusValue"] == "blue"


async def test_d_deletes_an_archived_flag_for_good_after_its_typed_name(make_app, client) -> None:
    live, name = await a_flag(client), await a_flag(client)
    await client.features.archive(PROJECT, name)
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, live)
        await pilot.press("d")  # a live flag: not offered
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        await open_detail(app, pilot, name)
        await pilot.press("d")
        await settle(app, pilot)
        assert isinstance(app.screen, TypedConfirmModal)
        asked = screen_text(app)
        assert "cannot be revived" in asked and f"DELETE /api/admin/archive/{name}" in asked
        assert app.screen.query_one("#confirm", Button).disabled
        await pilot.press(*name, "enter")
        await settle(app, pilot)
        assert f"{name} deleted for good" in toast_text(app)
        assert not (isinstance(app.screen, FeatureDetailScreen) and app.screen.feature_name == name)
    assert await client.archived.find(PROJECT, name) is None
    assert (await newest_event(client, name)).type == "feature-deleted"
    assert (await client.features.get(PROJECT, live)).name == live


async def test_y_copies_the_strategies_to_production_after_its_typed_name(make_app, client) -> None:
    name = await a_flag(client, rollouts=2)
    before = await client.rollouts.list(PROJECT, name, "production")
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, name)
        await pilot.press("Y")
        await settle(app, pilot)
        if isinstance(app.screen, ChoicePicker) and "to which" in screen_text(app):
            labels = app.screen.labels
            index = next(i for i, label in enumerate(labels) if label.startswith("production"))
            await pilot.press(*["down"] * index, "enter")
            await settle(app, pilot)
        assert isinstance(app.screen, ChoicePicker)
        assert "All 2 strategies" in screen_text(app)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, TypedConfirmModal)
        asked = screen_text(app)
        assert "This is production." in asked and "Who gets it" in asked
        await pilot.press(*"production", "enter")
        await settle(app, pilot)
        assert "2 strategies copied to production" in toast_text(app)
    after = await client.rollouts.list(PROJECT, name, "production")
    copied = after[len(before) :]
    assert [s.parameters.get("rollout") for s in copied if s.parameters] == ["30", "50"]
    event = await newest_event(client, name)
    assert event.type == "feature-strategy-add" and event.environment == "production"


async def test_a_read_only_profile_is_offered_none_of_them(make_app, client) -> None:
    name = await a_flag(client)
    app = make_app(read_only=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, name)
        for key in ("O", "M", "Y"):
            await pilot.press(key)
            await settle(app, pilot)
            assert isinstance(app.screen, FeatureDetailScreen), key
        assert "is not offered" in toast_text(app)
    assert (await newest_event(client, name)).type == "feature-strategy-add"


async def test_the_palette_deletes_an_archived_flag_it_picks(make_app, client) -> None:
    project = (await client.projects.list())[0].id  # the one the features area opens on
    name = await a_flag(client, project=project)
    await client.features.archive(project, name)
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        for word, title in (
            ("clone", "Clone a flag…"),
            ("completed", "Mark a flag completed…"),
            ("copy to environment", "Copy strategies to another environment…"),
        ):
            assert title in await palette_for(app, pilot, word), word
            await pilot.press("escape")
            await settle(app, pilot)
        await run_from_palette(app, pilot, "delete flag", "Delete an archived flag for good…")
        assert isinstance(app.screen, FlagPickerModal)
        await type_text(pilot, name)
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, TypedConfirmModal), screen_text(app)
        assert f"Delete {name} for good?" in screen_text(app)
        await pilot.press(*name, "enter")
        await settle(app, pilot)
        assert f"{name} deleted for good" in toast_text(app)
    assert await client.archived.find(project, name) is None
