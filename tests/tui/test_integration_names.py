"""Integrations named so they can be told apart (issue 23, item 4): three webhooks whose names
differ only in the middle, and two with the same name, in every triage table at 80 and 120
columns: the failures, their groups and the integrations."""

from __future__ import annotations

import re

import pytest
from lookalikes import LOOKALIKES, TWINS, add_failing_webhooks

from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, settle
from .helpers import screen_text, visible_text


async def rendered_rows(app, pilot, selector: str, keys: list[str]) -> list[str]:
    """The line drawn for each row key, as a person sees it."""
    table = app.screen.query_one(selector, ResourceTable)
    drawn = []
    for key in keys:
        row = table.get_row_index(key)
        table.move_cursor(row=row, animate=False)
        await pilot.pause()
        lines = visible_text(app, selector).splitlines()
        drawn.append(lines[1 + row - int(table.scroll_y)])  # under the header
    return drawn


def assert_told_apart(drawn: list[str], names: list[str], ids: list[int]) -> None:
    """Each lookalike's name cell keeps what tells it apart (its number, or for twins their
    id), and no two read alike."""
    cells = []
    for line, name, addon_id in zip(drawn, names, ids, strict=True):
        cell = re.search(r"perf2\S*(?: \S+)*", line)
        assert cell, line
        cells.append(cell.group())
        told_by = f"#{addon_id}" if names.count(name) > 1 else re.search(r"-\d", name).group()
        assert re.search(rf"{told_by}\b", cell.group()), line
    assert len(set(cells)) == len(cells), cells


@pytest.mark.parametrize("width", [80, 120])
async def test_lookalike_integrations_are_told_apart_in_every_table(
    make_app, sandbox, tmp_path, width
) -> None:
    made = add_failing_webhooks(sandbox)
    names = [*LOOKALIKES, TWINS[0], TWINS[1]]
    ids = [*(made[n][0] for n in LOOKALIKES), *made[TWINS[0]]]
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#failures", ResourceTable)
        keys = [
            next(str(r.key.value) for r in table.ordered_rows if r.key.value.startswith(f"{i}:"))
            for i in ids
        ]
        assert_told_apart(await rendered_rows(app, pilot, "#failures", keys), names, ids)
        table.move_cursor(row=table.get_row_index(keys[-1]), animate=False)
        await pilot.press("enter")  # a twin's delivery: its id in the title too
        await settle(pilot)
        assert f"{TWINS[1]} (webhook) #{ids[-1]}" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("equals_sign")
        await settle(pilot)
        groups = app.screen.query_one("#failure-groups", ResourceTable)
        keys = [
            next(str(r.key.value) for r in groups.ordered_rows if r.key.value.startswith(f"{i}:"))
            for i in ids
        ]
        drawn = await rendered_rows(app, pilot, "#failure-groups", keys)
        assert_told_apart(drawn, names, ids)
        assert all("Webhook" in line for line in drawn)  # the error keeps what room is left

        await pilot.press("4")
        await settle(pilot)
        drawn = await rendered_rows(app, pilot, "#integrations", [str(i) for i in ids])
        assert_told_apart(drawn, names, ids)
