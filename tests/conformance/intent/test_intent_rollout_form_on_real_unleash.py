"""The TUI's strategy form on real Unleash (issue 25). A production rollout set to 10 %: the
review shows the request and the preview (10,000 synthetic userIds, `u-1` … `u-10000`, with the
SDKs' engine), the event log records the update, and the official SDK, once it has the new
state, turns the flag on for exactly as many of those users as the preview said. A constraint
`userId IN [u-1]`: the preview says u-1 on and u-2 off before sending, the server's playground
agrees for the flag as it was, and the SDK then answers the same. Each flag is
new (`form-…`, made with `flagtui feature create`) and archived at the end, never deleted."""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from real_intent import (
    PROJECT,
    flag_events_since,
    newest_event_id,
    wait_for_flag_events,
    wait_for_stage,
)
from real_tui import on_detail, real_app
from textual.widgets import Input, Select

from flagtui.tui.screens.strategy_form import StrategyFormScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle
from tests.tui.helpers import visible_text

pytestmark = pytest.mark.unleash

USERS = 10_000
SHARE = re.compile(r"synthetic userIds on: [\d,]+ of [\d,]+ \([\d.]+%\) → ([\d,]+) of ([\d,]+)")


@pytest.fixture
def form_flag(flagtui, admin) -> Iterator[str]:
    name = f"form-{uuid.uuid4().hex[:10]}"
    assert flagtui("feature", "create", PROJECT, name, "--description", "issue 25").code == 0
    wait_for_stage(admin, PROJECT, name, "initial")
    yield name
    admin.delete(f"/api/admin/projects/{PROJECT}/features/{name}")  # archives


async def set_rollout_in_the_form(real_unleash, flag: str, tmp_path: Path) -> int:
    """The form's rollout set to 10 % and sent; how many of the synthetic users the review's
    preview said would get the flag after."""
    async with real_app(real_unleash, tmp_path) as (app, pilot):
        await on_detail(app, pilot, flag, "S", "production", "")  # its one strategy
        assert isinstance(app.screen, StrategyFormScreen)
        app.screen.query_one("#rollout", Input).value = "10"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        body = str(visible_text(app, ".dialog-body"))
        joined = "".join(body.split())  # the request is wrapped to the dialog's width
        assert f"PUT/api/admin/projects/{PROJECT}/features/{flag}/environments/production" in joined
        assert '"rollout":"10"' in joined
        previewed, population = (int(n.replace(",", "")) for n in SHARE.search(body).groups())
        assert population == USERS
        await pilot.press("enter")
        await settle(app, pilot)
    return previewed


async def add_user_constraint_in_the_form(real_unleash, flag: str, tmp_path: Path) -> str:
    """`userId IN [u-1]` added to the flag's production strategy in the form and sent; the
    review's body, read before sending."""
    async with real_app(real_unleash, tmp_path) as (app, pilot):
        await on_detail(app, pilot, flag, "S", "production", "")
        form = app.screen
        assert isinstance(form, StrategyFormScreen)
        form.query_one("#c-field", Input).value = "userId"
        await settle(app, pilot)
        form.query_one("#c-operator", Select).value = "IN"
        form.query_one("#c-values", Input).value = "u-1"
        await pilot.click("#c-add")
        await settle(app, pilot)
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        body = str(visible_text(app, ".dialog-body"))
        await pilot.press("enter")
        await settle(app, pilot)
    return body


def test_a_user_id_constraint_from_the_form(
    flagtui, admin, sdk, form_flag, real_unleash, tmp_path: Path
):
    production = sdk("production")
    assert flagtui("feature", "enable", PROJECT, form_flag, "production", "--yes").code == 0
    production.wait_until(form_flag, True)
    mark = newest_event_id(admin)
    body = asyncio.run(add_user_constraint_in_the_form(real_unleash, form_flag, tmp_path))
    lines = body.splitlines()
    said = {
        user: next(line for line in lines if f"userId={user}:" in line) for user in ("u-1", "u-2")
    }
    assert said["u-1"].split("→")[1].strip().startswith("on")  # the preview, before sending
    assert said["u-2"].split("→")[1].strip().startswith("off")
    assert body.count("(agrees)") == 2  # the server's playground, for the flag as it was
    expected = [("feature-strategy-update", "production")]
    assert wait_for_flag_events(admin, form_flag, mark, expected) == expected
    production.wait_for_revision(flag_events_since(admin, form_flag, mark)[-1]["id"])
    assert production.evaluate(form_flag, {"userId": "u-1"}) is True
    assert production.evaluate(form_flag, {"userId": "u-2"}) is False


def test_production_rollout_to_ten_percent_from_the_form(
    flagtui, admin, sdk, form_flag, real_unleash, tmp_path: Path
):
    production = sdk("production")
    assert flagtui("feature", "enable", PROJECT, form_flag, "production", "--yes").code == 0
    production.wait_until(form_flag, True)  # on: Unleash's flexibleRollout at 100 %
    mark = newest_event_id(admin)

    previewed = asyncio.run(set_rollout_in_the_form(real_unleash, form_flag, tmp_path))

    expected = [("feature-strategy-update", "production")]
    assert wait_for_flag_events(admin, form_flag, mark, expected) == expected
    [update] = flag_events_since(admin, form_flag, mark)
    assert update["data"]["parameters"]["rollout"] == "10"
    production.wait_for_revision(update["id"])
    on = sum(production.evaluate(form_flag, {"userId": f"u-{u}"}) for u in range(1, USERS + 1))
    assert on == previewed  # the preview said what the SDK now does, user for user in total
    assert 0.09 * USERS <= on <= 0.11 * USERS, on
    listed = flagtui("feature", "strategies", PROJECT, form_flag, "--env", "production")
    assert json.loads(listed.out)[0]["parameters"]["rollout"] == "10"
