"""The strategy form at 80x24 scrolls to the focused field: Tab down to a variant row, or to the
preview's userIds, and the field is drawn with its label; nothing is sent on the way."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.screens.variant_rows import VariantRow
from testkit.pilot import settle

from .helpers import visible_text
from .rollout_flows import DEMO, SPLIT, demo_flag, open_form


async def tab_to(app: Any, pilot: Any, wanted: Input, key: str = "tab") -> None:
    for _ in range(30):
        if app.focused is wanted:
            await settle(app, pilot)
            return
        await pilot.press(key)
        await pilot.pause()
    raise AssertionError(f"Tab never reached {wanted!r}: focus is on {app.focused!r}")


async def test_tab_scrolls_the_form_to_the_variant_rows_and_the_preview(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    before = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "S")
        rows = list(form.query(VariantRow).results(VariantRow))
        first, second = (row.query_one(".v-name", Input) for row in rows[:2])
        assert "Variants (ctrl+n" not in visible_text(app, "#strategy-form")  # below the fold
        await tab_to(app, pilot, first)
        shown = visible_text(app, "#strategy-form")
        assert "Variants (ctrl+n adds one)" in shown and first.value in shown, shown
        await tab_to(app, pilot, second)  # the next row comes into view as focus reaches it
        assert second.value in visible_text(app, "#strategy-form")
        await tab_to(app, pilot, form.query_one("#preview-users", Input))
        shown = visible_text(app, "#strategy-form")
        assert "Preview for userIds (comma-separated)" in shown and "u-1, u-2" in shown, shown
        assert "Type (the server's strategy types)" not in shown  # scrolled, not grown
        await tab_to(app, pilot, form.query_one("#title", Input), "shift+tab")  # back up
        assert "Title (optional)" in visible_text(app, "#strategy-form")
    assert await client.rollouts.list(DEMO, name, ENVIRONMENT) == before  # nothing sent
