"""Features: paging, search, detail, patch form, uncomplete, read-only and errors."""

from __future__ import annotations

from textual.widgets import Input, TextArea

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.screens.patch_form import PatchFormScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle

from .helpers import visible_text


async def first_project(client: AdminClient) -> str:
    return (await client.projects.list())[0].id


async def open_detail(app, pilot, project: str, name: str) -> FeatureDetailScreen:
    app.push_screen(FeatureDetailScreen(project, name))
    await settle(app, pilot)
    assert isinstance(app.screen, FeatureDetailScreen)
    return app.screen


async def test_table_pages_and_searches_on_the_server(make_app, client) -> None:
    project = await first_project(client)
    total = (await client.features.search(FeatureQuery(project=project, limit=1))).total
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        table = app.screen.query_one(ResourceTable)
        assert table.row_count == min(total, 50)
        assert f"page 1/{-(-total // 50)} · {total} features" in visible_text(app, "#page-status")
        first = table.selected_key
        assert first is not None
        await pilot.press("s")
        await pilot.press(*first[-6:])
        await settle(app, pilot)
        keys = [row.key.value for row in table.ordered_rows]
        assert first in keys
        assert all(first[-6:] in key for key in keys)


async def test_enter_opens_the_detail_of_the_selected_feature(make_app, client) -> None:
    app = make_app()
    async with app.run_test(size=(80, 120)) as pilot:  # room for the whole detail
        await settle(app, pilot)
        name = app.screen.query_one(ResourceTable).selected_key
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        text = visible_text(app, "#feature")
        assert name in text and "Environments" in text and "production" in text
        assert "strategies" in text and "Collaborators" in text  # the full record
        assert "reading strategies" not in text
        await pilot.press("escape")
        assert isinstance(app.screen, FeaturesScreen)


async def test_patch_form_sends_the_changed_fields_after_confirmation(make_app, client) -> None:
    project = await first_project(client)
    name = (await client.features.search(FeatureQuery(project=project, limit=1))).features[0].name
    before = await client.features.get(project, name)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, project, name)
        await pilot.press("e")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, PatchFormScreen)
        form.query_one("#description", Input).value = "Edited from the TUI"
        await pilot.click("#stale")
        assert form.changed_ops() == [
            {"op": "replace", "path": "/description", "value": "Edited from the TUI"},
            {"op": "replace", "path": "/stale", "value": not before.stale},
        ]
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        assert app.screen.focused is not None and app.screen.focused.id == "confirm"  # a save
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert "Edited from the TUI" in visible_text(app, "#feature")
    after = await client.features.get(project, name)
    assert after.description == "Edited from the TUI"
    assert after.stale is (not before.stale)


async def test_raw_patch_is_validated_before_sending_and_input_kept(make_app, client) -> None:
    project = await first_project(client)
    name = (await client.features.search(FeatureQuery(project=project, limit=1))).features[0].name
    before = await client.features.get(project, name)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, project, name)
        await pilot.press("e")
        await settle(app, pilot)
        await pilot.press("ctrl+t")
        raw = app.screen.query_one("#raw", TextArea)
        raw.text = '[{"op": "frobnicate", "path": "/description"}]'
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, PatchFormScreen)
        assert "patch[0].op: one of add, remove" in visible_text(app, "#form-error")
        raw.text = "[{"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert "Not sent — JSON: line 1" in visible_text(app, "#form-error")
        assert raw.text == "[{"
    assert (await client.features.get(project, name)).description == before.description


async def test_a_refused_patch_shows_the_error_and_keeps_the_input(make_app, client) -> None:
    project = await first_project(client)
    name = (await client.features.search(FeatureQuery(project=project, limit=1))).features[0].name
    before = await client.features.get(project, name)
    app = make_app(viewer=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, project, name)
        await pilot.press("e")
        await settle(app, pilot)
        app.screen.query_one("#description", Input).value = "viewer was here"
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert isinstance(app.screen, PatchFormScreen)
        error = visible_text(app, "#form-error")
        assert "403 NoAccessError" in error and f"PATCH /api/admin/projects/{project}" in error
        assert app.screen.query_one("#description", Input).value == "viewer was here"
    assert (await client.features.get(project, name)).description == before.description


async def test_uncomplete_returns_the_feature_to_its_previous_stage(make_app, client) -> None:
    page = await client.features.search(FeatureQuery(lifecycle=["completed"], limit=1))
    feature = page.features[0]
    assert feature.project is not None
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, feature.project, feature.name)
        assert "Stage completed" in visible_text(app, "#feature")
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.click("#confirm")
        await settle(app, pilot)
        stage_line = visible_text(app, "#feature")
        assert "Stage completed" not in stage_line
    after = await client.features.get(feature.project, feature.name)
    assert after.lifecycle is not None and after.lifecycle.stage != "completed"
    assert f"Stage {after.lifecycle.stage}" in stage_line


async def test_read_only_profile_hides_and_refuses_writes(make_app, client) -> None:
    page = await client.features.search(FeatureQuery(lifecycle=["completed"], limit=1))
    feature = page.features[0]
    assert feature.project is not None
    app = make_app(read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        detail = await open_detail(app, pilot, feature.project, feature.name)
        shown = {b.binding.action for b in detail.active_bindings.values()}
        assert not {"edit", "uncomplete", "archive"} & shown
        await pilot.press("e", "u", "A")
        await settle(app, pilot)
        assert app.screen is detail
    after = await client.features.get(feature.project, feature.name)
    assert after.lifecycle is not None and after.lifecycle.stage == "completed"


async def test_a_page_read_again_that_came_back_the_same_keeps_its_rows(
    make_app, client, monkeypatch
) -> None:
    """A page read from the server again (r; or on return from a detail, once the client's copy
    is 30 s old) that came back the same is shown with the rows already built (before: all built
    again, and so converted, fitted and clipped again, on the next PageDown to it too). A row
    that did change is built and drawn anew."""
    from flagtui.tui.screens import features as features_module

    built: list[str] = []
    feature_row = features_module.feature_row
    monkeypatch.setattr(
        features_module,
        "feature_row",
        lambda feature, *args: built.append(feature.name) or feature_row(feature, *args),
    )
    project = await first_project(client)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        table = app.screen.query_one(ResourceTable)
        shown, page = table._all, app.screen.features
        built.clear()
        await pilot.press("r")
        await settle(app, pilot)
        assert app.screen.features is not page  # read again
        assert built == [] and table._all is shown
        feature = table.selected_record
        assert feature is not None
        flipped = [{"op": "replace", "path": "/stale", "value": not feature.stale}]
        await client.features.patch(project, feature.name, flipped)
        await pilot.press("r")
        await settle(app, pilot)
        assert built and table._all is not shown
        lines = visible_text(app, "ResourceTable").splitlines()
        row = next(line for line in lines if feature.name in line)
        assert (" stale " in row) is (not feature.stale)


async def test_a_potentially_stale_flag_is_never_said_not_to_be(make_app, client) -> None:
    """No record says whether a flag is potentially stale (only the search's state filter): the
    detail of one the filter finds makes no claim either way."""
    project = await first_project(client)
    found = await client.features.search(
        FeatureQuery(project=project, states=["potentially-stale"], limit=50)
    )
    flag = next(f for f in found.features if not f.stale)
    app = make_app()
    async with app.run_test(size=(80, 120)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, project, flag.name)
        text = visible_text(app, "#feature")
        assert flag.name in text and "Stale no" in text
        assert "potentially" not in text
