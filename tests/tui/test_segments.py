"""The Segments area (reached with `:`), at 80x24 on the sandbox: the rows, new / edit / delete
with what the screen says at each step, and the server's state after each flow."""

from __future__ import annotations

import httpx
from textual.widgets import Input

from flagtui.tui.screens.segment_form import SegmentFormScreen
from flagtui.tui.screens.segments import SegmentsScreen
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle

from .faults import html_error, json_error
from .faults import settle as settle_after_faults
from .helpers import screen_text, visible_text
from .palette_keys import run_from_palette


async def open_area(app, pilot) -> SegmentsScreen:
    await settle(app, pilot)
    await run_from_palette(app, pilot, "Go to Segments", "Go to Segments")
    assert isinstance(app.screen, SegmentsScreen)
    return app.screen


async def select(app, pilot, screen: SegmentsScreen, segment_id: int) -> None:
    table = screen.query_one(ResourceTable)
    table.move_cursor(row=table.get_row_index(str(segment_id)))
    await pilot.pause()


async def add_constraint(app, pilot, form: SegmentFormScreen, values: str) -> None:
    form.query_one("#c-field", Input).value = "userId"
    await pilot.pause()
    form.query_one("#c-operator", Select).value = "IN"
    form.query_one("#c-values", Input).value = values
    await pilot.click("#c-add")
    await pilot.pause()


async def test_the_area_lists_segments_and_the_header_names_it(make_app, client) -> None:
    segments = await client.segments.list()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_area(app, pilot)
        await settle(app, pilot)
        shown = screen_text(app)
        assert shown.splitlines()[1].rstrip().endswith("9 CRs Segs")  # named while open
        rows = visible_text(app, "#segments")
        first = segments[0]
        [row] = [line for line in rows.splitlines() if line.strip().startswith(first.name)]
        assert f"{first.used_in_features} flags" in row and "userId is one of" in row


async def test_new_segment_is_reviewed_then_created(make_app, client) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_area(app, pilot)
        await pilot.press("C")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, SegmentFormScreen)
        await pilot.press("ctrl+r")  # no name yet
        await settle(app, pilot)
        assert "Not sent — name: a segment needs a name" in visible_text(app, "#form-error")
        form.query_one("#segment-name", Input).value = "tui-made"
        await add_constraint(app, pilot, form, "u-1, u-2")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        shown = screen_text(app)
        assert "Create segment tui-made?" in shown and "POST /api/admin/segments" in shown
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert isinstance(app.screen, SegmentsScreen)
        assert "Created tui-made (segment-created)" in visible_text(app, "#segments-status")
        assert "tui-made" in visible_text(app, "#segments")
    [made] = [s for s in await client.segments.list() if s.name == "tui-made"]
    assert [c.values for c in made.constraints] == [["u-1", "u-2"]]


async def test_an_edit_previews_the_flags_then_asks_for_the_name(make_app, client) -> None:
    segment = max(await client.segments.list(), key=lambda s: s.used_in_features or 0)
    used = await client.segments.used_by(segment.id)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_area(app, pilot)
        await select(app, pilot, screen, segment.id)
        await pilot.press("e")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, SegmentFormScreen)
        await add_constraint(app, pilot, form, "u-1")
        form.query_one("#preview-context", Input).value = "oops"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert app.screen is form
        assert "Not sent — preview context: 'oops'" in visible_text(app, "#form-error")
        form.query_one("#preview-context", Input).value = "plan=pro"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        modal = app.screen
        assert isinstance(modal, TypedConfirmModal)
        shown = screen_text(app)
        assert f"Change segment {segment.name}?" in shown
        assert "(1,000 synthetic userIds, context {'properties': {'plan':" in shown
        assert " → " in shown
        assert f"{used[0].project_id}/{used[0].feature_name}" in shown
        modal.query_one("#typed", Input).value = segment.name
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert isinstance(app.screen, SegmentsScreen)
        said = visible_text(app, "#segments-status")
        assert f"Changed {segment.name} (segment-updated)" in said
    now = await client.segments.get(segment.id)
    assert [c.values for c in now.constraints][-1] == ["u-1"]
    assert len(now.constraints) == len(segment.constraints) + 1


async def test_a_used_segment_is_not_deleted_and_an_unused_one_is(make_app, client) -> None:
    used = max(await client.segments.list(), key=lambda s: s.used_in_features or 0)
    unused = [s for s in await client.segments.list() if not s.used_in_features]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_area(app, pilot)
        await select(app, pilot, screen, used.id)
        await pilot.press("d")
        await settle(app, pilot)
        assert isinstance(app.screen, SegmentsScreen)
        said = visible_text(app, "#segments-status")
        assert f"Not deleted — {used.name} is used by" in said
        if not unused:  # the demo's are all used: one of the test's own
            await pilot.press("C")
            await settle(app, pilot)
            app.screen.query_one("#segment-name", Input).value = "tui-unused"
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            await pilot.click("#confirm")
            await settle(app, pilot)
            unused = [s for s in await client.segments.list() if s.name == "tui-unused"]
        await select(app, pilot, screen, unused[0].id)
        await pilot.press("d")
        await settle(app, pilot)
        modal = app.screen
        assert isinstance(modal, TypedConfirmModal)
        modal.query_one("#typed", Input).value = unused[0].name
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert f"Deleted {unused[0].name} (segment-deleted)" in visible_text(
            app, "#segments-status"
        )
    ids = [s.id for s in await client.segments.list()]
    assert used.id in ids and unused[0].id not in ids


async def test_read_only_offers_no_writes(make_app, client) -> None:
    before = await client.segments.list()
    app = make_app(read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_area(app, pilot)
        await settle(app, pilot)
        for key in ("C", "e", "d"):
            await pilot.press(key)
            await settle(app, pilot)
            assert isinstance(app.screen, SegmentsScreen)
    assert await client.segments.list() == before


async def test_an_unknown_outcome_and_a_refusal_are_said_on_screen(build, faulty) -> None:
    """A gateway's 504 after the PUT: the form says the outcome is unknown and sends nothing
    again; the server's refusal of a DELETE is said in the area's status line."""
    server, fault = faulty
    fault.fail("PUT", "/api/admin/segments/", html_error(504))
    fault.fail("DELETE", "/api/admin/segments/", json_error(403, "NoAccessError", "no way"))
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_area(app, pilot)
        await pilot.press("C")
        await settle(app, pilot)
        app.screen.query_one("#segment-name", Input).value = "tui-faulty"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        await pilot.click("#confirm")
        await settle_after_faults(app, pilot)
        assert "Created tui-faulty" in visible_text(app, "#segments-status")
        await settle(app, pilot)
        headers = {"Authorization": server.admin_token}
        async with httpx.AsyncClient(base_url=server.url, headers=headers) as http:
            listed = (await http.get("/api/admin/segments")).json()["segments"]
        [made] = [s["id"] for s in listed if s["name"] == "tui-faulty"]
        await select(app, pilot, screen, made)
        await pilot.press("e")
        await settle(app, pilot)
        form = app.screen
        form.query_one("#segment-description", Input).value = "changed"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        await pilot.click("#confirm")
        await settle_after_faults(app, pilot)
        assert "Outcome unknown" in visible_text(app, "#form-error")
        puts = fault.count("PUT", "/api/admin/segments/")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert app.screen is form and fault.count("PUT", "/api/admin/segments/") == puts
        await pilot.press("escape")
        await settle(app, pilot)
        assert "Outcome unknown" in visible_text(app, "#segments-status")
        await select(app, pilot, screen, made)
        await pilot.press("d")
        await settle(app, pilot)
        app.screen.query_one("#typed", Input).value = "tui-faulty"
        await pilot.click("#confirm")
        await settle_after_faults(app, pilot)
        assert "Not deleted — " in visible_text(app, "#segments-status")
        assert "no way" in visible_text(app, "#segments-status")
