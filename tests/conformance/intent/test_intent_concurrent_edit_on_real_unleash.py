"""Two admins editing one strategy at once, on real Unleash (issue 43, item 3). The TUI's form
is opened on a production rollout; before it sends, a second client narrows the strategy to
`userId IN [vip-only]` with a title. The send is stopped: nothing is sent, and the screen says
what changed and the event log's who and when. Reload, the rollout typed again and sent: the
other admin's constraint and title are kept (the event log has both updates) and the official
SDK turns the flag on for the VIP alone. Each flag is new and archived at the end."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from real_intent import (
    PROJECT,
    flag_events_since,
    newest_event_id,
    wait_for_flag_events,
    wait_for_stage,
)
from real_tui import on_detail, real_app
from textual.widgets import Input

from flagtui.tui.screens.strategy_form import StrategyFormScreen
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from testkit.pilot import settle
from tests.tui.helpers import visible_text

pytestmark = pytest.mark.unleash

VIP = {"contextName": "userId", "operator": "IN", "values": ["vip-only"]}


@pytest.fixture
def edits_flag(flagtui, admin) -> Iterator[str]:
    name = f"edits-{uuid.uuid4().hex[:10]}"
    assert flagtui("feature", "create", PROJECT, name, "--description", "issue 43").code == 0
    wait_for_stage(admin, PROJECT, name, "initial")
    yield name
    admin.delete(f"/api/admin/projects/{PROJECT}/features/{name}")  # archives


def strategies_path(flag: str) -> str:
    return f"/api/admin/projects/{PROJECT}/features/{flag}/environments/production/strategies"


def narrow_to_vips(other: httpx.Client, flag: str) -> None:
    """The other admin's change: their constraint and title on the one strategy."""
    [strategy] = other.get(strategies_path(flag)).json()
    body = {k: strategy[k] for k in ("name", "parameters", "segments", "variants")}
    body |= {"title": "VIPs only", "constraints": [VIP]}
    answer = other.put(f"{strategies_path(flag)}/{strategy['id']}", json=body)
    assert answer.status_code == 200, answer.text


async def send_over_another_admins_change(real_unleash, other, flag: str, tmp: Path) -> str:
    """The form opened, the other admin's change, the send stopped; reload, 60 % sent. What
    the conflict's question said."""
    async with real_app(real_unleash, tmp) as (app, pilot):
        await on_detail(app, pilot, flag, "S", "production", "")
        form = app.screen
        assert isinstance(form, StrategyFormScreen)
        form.query_one("#rollout", Input).value = "60"
        narrow_to_vips(other, flag)
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, EditConflictModal), type(app.screen).__name__
        said = str(visible_text(app, ".dialog-body"))
        await pilot.click("#reload")
        await settle(app, pilot)
        assert "userId is one of vip-only" in visible_text(app, "#c-list")
        form.query_one("#rollout", Input).value = "60"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert not isinstance(app.screen, StrategyFormScreen), visible_text(app, "#form-error")
    return said


def test_another_admins_change_is_shown_and_kept(
    flagtui, admin, sdk, edits_flag, real_unleash, tmp_path: Path
):
    production = sdk("production")
    assert flagtui("feature", "enable", PROJECT, edits_flag, "production", "--yes").code == 0
    production.wait_until(edits_flag, True)
    mark = newest_event_id(admin)
    headers = {"Authorization": real_unleash.token}
    with httpx.Client(base_url=real_unleash.url, headers=headers) as other:
        said = asyncio.run(
            send_over_another_admins_change(real_unleash, other, edits_flag, tmp_path)
        )
    flat = "".join(said.split())
    assert "nothingwassent" in flat
    assert 'constraints:shown[],now[{"contextName":"userId"' in flat and "vip-only" in flat
    assert "feature-strategy-updateby" in flat  # the event log's who, then when
    expected = [("feature-strategy-update", "production")] * 2
    assert wait_for_flag_events(admin, edits_flag, mark, expected) == expected
    [strategy] = admin.get(strategies_path(edits_flag)).json()
    assert strategy["constraints"] == [VIP] and strategy["title"] == "VIPs only"
    assert strategy["parameters"]["rollout"] == "60"
    production.wait_for_revision(flag_events_since(admin, edits_flag, mark)[-1]["id"])
    assert production.evaluate(edits_flag, {"userId": "u-1"}) is False
