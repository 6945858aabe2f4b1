"""Feature types: lifetime edits are validated inline and reach the server."""

from __future__ import annotations

from textual.widgets import Input

from flagtui.tui.screens.feature_types import FeatureTypesScreen, LifetimeModal
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle

from .faults import html_error
from .faults import settle as settle_after_faults
from .helpers import screen_text, visible_text


async def open_editor(app, pilot, type_id: str) -> LifetimeModal:
    await settle(app, pilot)
    await pilot.press("2")
    await settle(app, pilot)
    assert isinstance(app.screen, FeatureTypesScreen)
    table = app.screen.query_one(ResourceTable)
    table.move_cursor(row=table.get_row_index(type_id))
    await pilot.press("e")
    await pilot.pause()
    assert isinstance(app.screen, LifetimeModal)
    return app.screen


async def test_lifetime_edit_reaches_the_server(make_app, client) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await open_editor(app, pilot, "release")
        modal.query_one(Input).value = "90"
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
        shown = visible_text(app, "#types").splitlines()
        [row] = [line for line in shown if line.split()[:1] == ["release"]]
        assert "90 days" in row
    types = {t.id: t for t in await client.feature_types.list()}
    assert types["release"].lifetime_days == 90


async def test_never_clears_the_lifetime(make_app, client) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await open_editor(app, pilot, "experiment")
        modal.query_one(Input).value = "never"
        await pilot.press("enter")
        await settle(app, pilot)
    types = {t.id: t for t in await client.feature_types.list()}
    assert types["experiment"].lifetime_days is None


async def test_invalid_lifetimes_are_refused_inline_and_kept(make_app, client) -> None:
    before = {t.id: t.lifetime_days for t in await client.feature_types.list()}
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await open_editor(app, pilot, "release")
        for bad in ("abc", "-3", "2147483648", "1.5", ""):
            modal.query_one(Input).value = bad
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is modal
            assert "Not sent — " in visible_text(app, "#lifetime-error")
            assert modal.query_one(Input).value == bad
    assert {t.id: t.lifetime_days for t in await client.feature_types.list()} == before


async def test_read_only_cannot_edit_lifetimes(make_app, client) -> None:
    before = {t.id: t.lifetime_days for t in await client.feature_types.list()}
    app = make_app(read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press("e", "enter")
        await pilot.pause()
        assert isinstance(app.screen, FeatureTypesScreen)
    assert {t.id: t.lifetime_days for t in await client.feature_types.list()} == before


async def test_leaving_the_lifetime_dialog_with_a_typed_value_asks_first(make_app, client) -> None:
    """Issue 22: leaving a form with unsaved edits asks first. One escape dropped the typed
    lifetime without a word before."""
    before = {t.id: t.lifetime_days for t in await client.feature_types.list()}
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await open_editor(app, pilot, "release")
        await pilot.press("escape")  # nothing typed: closes at once
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
        modal = await open_editor(app, pilot, "release")
        modal.query_one(Input).value = "120"
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "Leave without saving?" in screen_text(app)
        await pilot.press("enter")  # Cancel is focused: stay, the value kept
        await settle(app, pilot)
        assert app.screen is modal and modal.query_one(Input).value == "120"
        await pilot.press("escape")
        await settle(app, pilot)
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
    assert {t.id: t.lifetime_days for t in await client.feature_types.list()} == before


async def test_after_an_unknown_outcome_the_lifetime_dialog_closes_at_once(build, faulty) -> None:
    """It says to close and read the types again: closing does not ask to discard what may
    have been saved."""
    server, fault = faulty
    fault.fail("PUT", "/feature-types/release/lifetime", html_error(504))
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await open_editor(app, pilot, "release")
        modal.query_one(Input).value = "45"
        await pilot.press("enter")
        await settle_after_faults(app, pilot)
        assert "Outcome unknown" in visible_text(app, "#lifetime-error")
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
