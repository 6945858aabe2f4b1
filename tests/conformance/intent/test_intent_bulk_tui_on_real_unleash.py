"""Marked flags archived from the TUI on real Unleash (issue 27): 20 new flags found by the
features search, `*` marks every one, `B` plans their archive, one question, then each flag's
outcome. The server records exactly one `feature-archived` per flag and each reaches the
`archived` stage. Flags are new (`tui-bulk-…`) and stay archived, never deleted."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest
from real_intent import (
    PROJECT,
    flag_event_types_since,
    newest_event_id,
    wait_for_flag_events,
    wait_for_stage,
)
from real_tui import real_app
from textual.widgets import Input, OptionList

from flagtui.tui.screens.bulk_screens import BulkResult
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle
from tests.tui.helpers import screen_text

pytestmark = pytest.mark.unleash

COUNT = 20


async def archive_marked(real_unleash, prefix: str, tmp_path: Path) -> tuple[str, str]:
    """The features search for `prefix`, every match marked and archived: the plan's question
    and the result screen, as shown."""
    async with real_app(real_unleash, tmp_path, (140, 70)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, FeaturesScreen), screen_text(app)
        screen.query_one("#search", Input).value = prefix
        await settle(app, pilot)
        await pilot.press("asterisk", "B")
        await settle(app, pilot)
        assert isinstance(app.screen, ChoicePicker), screen_text(app)
        app.screen.query_one(OptionList).highlighted = 0  # Archive
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal), screen_text(app)
        question = screen_text(app)
        await pilot.press("tab", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, BulkResult), screen_text(app)
        return question, screen_text(app)


def test_twenty_marked_flags_archived_from_the_tui(admin, real_unleash, tmp_path: Path):
    prefix = f"tui-bulk-{uuid.uuid4().hex[:8]}"
    names = [f"{prefix}-{i:02d}" for i in range(COUNT)]
    for name in names:
        body = {"name": name, "type": "release"}
        created = admin.post(f"/api/admin/projects/{PROJECT}/features", json=body)
        assert created.status_code in (200, 201), created.text
    for name in names:  # written after the answer: an archive before it would be overwritten
        wait_for_stage(admin, PROJECT, name, "initial")
    mark = newest_event_id(admin)

    question, result = asyncio.run(archive_marked(real_unleash, prefix, tmp_path))

    assert f"Archive {COUNT} of {COUNT} marked flags?" in question
    assert all(name in question for name in names)
    assert f"Archive feature: {COUNT} done" in result
    for name in names:
        wait_for_flag_events(admin, name, mark, [("feature-archived", None)])
        wait_for_stage(admin, PROJECT, name, "archived")
        assert flag_event_types_since(admin, name, mark) == [("feature-archived", None)]
