"""The shared table shows text as written; the key bar is clickable; paging reads ahead."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Input, Select

from flagtui.tui.widgets.help import HelpScreen
from flagtui.tui.widgets.keybar import KeyBar
from flagtui.tui.widgets.table import Column, ResourceTable
from testkit.pilot import settle

from .areas import app_in
from .helpers import visible_text


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ResourceTable([("name", "Name"), ("by", "By")])


async def test_cells_are_shown_as_written_not_as_markup() -> None:
    app = TableApp()
    async with app.run_test(size=(60, 6)) as pilot:
        table = app.query_one(ResourceTable)
        table.set_rows([("k", ["beta[bold]x[/bold]", "[link=https://evil.test]me"])])
        await pilot.pause()
        shown = visible_text(app, "ResourceTable")
        assert "beta[bold]x[/bold]" in shown
        assert "[link=https://evil.test]me" in shown


async def test_columns_fit_what_they_hold_whatever_came_first() -> None:
    """Before the fix: cells changed in place kept the width of what was there before (the
    columns 'collapsed' to their first contents, or their headers, until a resize)."""
    app = TableApp()
    async with app.run_test(size=(60, 6)) as pilot:
        table = app.query_one(ResourceTable)
        table.set_rows([("k", ["", ""])])
        await pilot.pause()
        table.set_rows([("k", ["release-2026-rollout", "someone@example.com"])])
        await pilot.pause()
        shown = visible_text(app, "ResourceTable")
        assert "release-2026-rollout" in shown
        assert "someone@example.com" in shown


class FlexApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ResourceTable(
            [Column("id", "ID"), Column("type", "Type", max=12, middle=True),
             Column("details", "Details", flex=True)]
        )  # fmt: skip


async def test_the_flexible_column_takes_what_the_others_leave_and_follows_resizes() -> None:
    app = FlexApp()
    details = "connection refused by hooks.example.com after 3 attempts"
    async with app.run_test(size=(40, 6)) as pilot:
        table = app.query_one(ResourceTable)
        table.set_rows([("1", ["1", "feature-environment-enabled", details])], ["record 1"])
        await pilot.pause()
        shown = visible_text(app, "ResourceTable")
        assert "featur…abled" in shown  # clipped to 12, in the middle: both ends kept
        assert "connection refuse" in shown and details not in shown
        assert table.selected_record == "record 1"
        await pilot.resize_terminal(100, 6)
        await pilot.pause()
        assert details in visible_text(app, "ResourceTable")


async def test_clicking_a_key_in_the_key_bar_presses_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        bar = app.screen.query_one(KeyBar)
        text = str(bar.render())
        assert "? Help" in text
        await pilot.click(KeyBar, offset=(text.index("? Help") + 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_page_down_is_read_ahead_and_escape_leaves_the_search_box(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.screen.query_one("#project", Select).value = "mobile-app"  # 66 features: 2 pages
        await settle(app, pilot)
        assert "page 1/2 · 66 features" in visible_text(app, "#page-status")
        first_page = app.screen.query_one(ResourceTable).selected_key
        sent = app.client.requests_sent
        await pilot.press("pagedown")
        await settle(app, pilot)
        assert "page 2/2 · 66 features" in visible_text(app, "#page-status")
        assert app.screen.query_one(ResourceTable).selected_key != first_page
        assert app.client.requests_sent == sent  # drawn from the page read ahead
        await pilot.press("s")
        assert app.focused is not None and app.focused.id == "search"
        await pilot.press("escape")
        assert isinstance(app.focused, ResourceTable)


async def test_a_page_already_read_is_drawn_by_the_key_press_itself(make_app) -> None:
    """PageDown and PageUp between pages the client holds draw them while the key is handled,
    with no worker's round trip in between (issue 17: paging as fast as a cursor move)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.screen.query_one("#project", Select).value = "mobile-app"  # 66 features: 2 pages
        await settle(app, pilot)
        status = app.screen.query_one("#page-status")
        sent = app.client.requests_sent
        for delta, shown in ((1, "page 2/2"), (-1, "page 1/2"), (1, "page 2/2")):
            await app.screen.run_action(f"page({delta})")
            assert shown in str(status.render())  # already, before any other task ran
            await pilot.pause()
            assert shown in visible_text(app, "#page-status")
        assert app.client.requests_sent == sent


@pytest.mark.parametrize("area", ["events", "users", "failures"])
async def test_tables_fit_80_columns(make_app, tmp_path, area: str) -> None:
    """Before the fix, for events: its columns were wider than the screen (the last one cut at
    the edge, a horizontal scrollbar over the last row)."""
    app = app_in(make_app, tmp_path, area)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        if area == "users":
            app.screen.query_one("#user-search", Input).value = "ma"
            await settle(app, pilot)
        table = app.screen.query_one(ResourceTable)
        assert table.row_count
        assert table.virtual_size.width <= table.scrollable_content_region.width
