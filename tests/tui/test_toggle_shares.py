"""`t` outside production asks nothing (issue 43, item 1): a flag's detail says under each
environment who gets the flag now and once `t` switches it (1,000 synthetic userIds, the SDKs'
engine, from the record shown), and the picker of `t` and the toast after the switch say the
same numbers. Each
number is compared with what the server then serves to an SDK of that environment
(`served_share`), and the detail reads no more than its four requests for it (the project's default
strategies one of them)."""

from __future__ import annotations

import re
import sqlite3

from served_share import served
from textual.widgets import OptionList

from flagtui.api import AdminClient
from flagtui.api.models import Strategy
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle

from .helpers import screen_lines, screen_text, toast_text, visible_text
from .rollout_flows import DEMO, demo_flag, open_detail

USERS = 1_000
DEV = "development"


def rollout_30(name: str) -> Strategy:
    parameters = {"rollout": "30", "stickiness": "default", "groupId": name}
    return Strategy(name="flexibleRollout", parameters=parameters)


async def a_rollout_of_30_switched_off_in_development(client: AdminClient, name: str) -> None:
    for s in await client.rollouts.list(DEMO, name, DEV):
        await client.rollouts.remove(DEMO, name, DEV, str(s.id))
    await client.rollouts.add(DEMO, name, DEV, rollout_30(name))
    feature = await client.features.get(DEMO, name)
    if next(e for e in feature.environments or [] if e.name == DEV).enabled:
        await client.features.set_environment_enabled(DEMO, name, DEV, False)


def one_line(app: FlagtuiApp, said: str) -> None:
    """`said` is drawn on one line of the screen, not folded."""
    assert any(said in line for line in screen_lines(app)), screen_text(app)


async def toggle_development(app: FlagtuiApp, pilot, counted: str) -> None:
    """`t`, development picked: its line in the picker says `counted` (before → after)."""
    await pilot.press("t")
    await settle(app, pilot)
    assert isinstance(app.screen, ChoicePicker), screen_text(app)
    labels = app.screen.labels
    (index,) = [i for i, label in enumerate(labels) if label.startswith(f"{DEV} ")]
    assert labels[index].endswith(f" · {counted} of 1,000"), labels
    app.screen.query_one(OptionList).highlighted = index
    await pilot.press("enter")
    await settle(app, pilot)
    assert not isinstance(app.screen, ConfirmModal)  # not production: no question


async def test_the_detail_says_what_t_does_in_development_and_the_toast_says_it_again(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, "10% of production")
    await a_rollout_of_30_switched_off_in_development(client, name)
    app = make_app()
    async with app.run_test(size=(80, 50), notifications=True) as pilot:
        await settle(app, pilot)
        sent = app.client.requests_sent
        await open_detail(app, pilot, name)
        assert app.client.requests_sent - sent == 4  # the flag, segments, events, the defaults
        shown = visible_text(app, "#feature")
        found = re.search(r"off · if switched on \(t\): ([\d,]+) of 1,000 synthetic userIds", shown)
        assert found, shown
        n = int(found[1].replace(",", ""))
        assert 200 < n < 400  # about 30 %
        one_line(app, f"    off · if switched on (t): {n:,} of 1,000 synthetic userIds")

        await toggle_development(app, pilot, f"0 → {n:,}")
        said = f"{name} switched on in {DEV}; who gets it: 0 → {n:,} of 1,000 synthetic userIds"
        assert said in toast_text(app)
        assert served(sandbox, name, users=USERS, environment=DEV)[0] == n
        on = f"on for {n:,} of 1,000 synthetic userIds · if switched off (t): no one"
        assert on in visible_text(app, "#feature")  # the record read again, counted again
        one_line(app, on)

        await toggle_development(app, pilot, f"{n:,} → 0")
        said = f"{name} switched off in {DEV}; who gets it: {n:,} → 0 of 1,000 synthetic userIds"
        assert said in toast_text(app)
        assert served(sandbox, name, users=USERS, environment=DEV)[0] == 0
        assert f"off · if switched on (t): {n:,} of 1,000" in visible_text(app, "#feature")
    assert not next(
        e for e in (await client.features.get(DEMO, name)).environments or [] if e.name == DEV
    ).enabled


async def test_a_child_flag_is_counted_with_its_parent_read_once(
    make_app, client: AdminClient, sandbox
) -> None:
    """The engine needs the parent's record to answer for the child: the one request added."""
    with sqlite3.connect(sandbox.db_path) as conn:
        name, project, parent = conn.execute(
            "SELECT c.name, c.project, json_extract(c.dependency, '$.feature') FROM features c"
            " JOIN features p ON p.name = json_extract(c.dependency, '$.feature')"
            " WHERE p.dependency IS NULL AND c.archived_at IS NULL LIMIT 1"
        ).fetchone()
    # the parent at 30 % in production, the child for everyone: the child reaches the parent's
    for flag, strategy in ((parent, rollout_30(parent)), (name, Strategy(name="default"))):
        for s in await client.rollouts.list(project, flag, "production"):
            await client.rollouts.remove(project, flag, "production", str(s.id))
        await client.rollouts.add(project, flag, "production", strategy)
        await client.features.set_environment_enabled(project, flag, "production", True)
    app = make_app()
    async with app.run_test(size=(120, 60), notifications=True) as pilot:
        await settle(app, pilot)
        sent = app.client.requests_sent
        app.push_screen(FeatureDetailScreen(project, name))
        await settle(app, pilot)
        assert app.client.requests_sent - sent == 5  # and its parent
        shown = visible_text(app, "#feature")
        production = shown[shown.index("production · ") :]
        found = re.search(r"on for ([\d,]+) of 1,000 synthetic userIds", production)
        assert found, shown
    n = int(found[1].replace(",", ""))
    assert 200 < n < 400 and n == served(sandbox, name, users=USERS)[0]
