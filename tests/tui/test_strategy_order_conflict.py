"""`K`/`J` in a flag's detail against another admin's change (issue 43, item 3): the order the
detail shows is the state the move is made from; a reorder or a strategy added since stops it,
shown on the conflict screen (what changed, who, when); reload asks again on the order as it
is now, "send mine anyway" (typed in production) puts the order reviewed first and keeps
theirs after it. Nothing of theirs is lost."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from flagtui.api import AdminClient
from flagtui.api.models import Strategy
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from testkit.pilot import settle
from testkit.second_admin import second_admin

from .helpers import screen_text, toast_text, visible_text
from .rollout_flows import DEMO, SPLIT, confirm, demo_flag, open_detail


async def strategies(client: AdminClient, name: str, titles: list[str]) -> list[str]:
    """The flag's production strategies once one is added per title: their ids, in order."""
    for title in titles:
        await client.rollouts.add(DEMO, name, ENVIRONMENT, Strategy(name="default", title=title))
    return [str(s.id) for s in await client.rollouts.list(DEMO, name, ENVIRONMENT)]


async def order(client: AdminClient, name: str) -> list[str]:
    return [str(s.id) for s in await client.rollouts.list(DEMO, name, ENVIRONMENT)]


async def other_admin(sandbox: Any) -> tuple[AdminClient, str]:
    token, who = second_admin(sandbox)
    other = AdminClient(sandbox.url, token, profile="other")
    await other.connect()
    return other, who


async def moved_first_down(app: FlagtuiApp, pilot: Any) -> None:
    """`J` on the first strategy (production alone has several: no environment picker)."""
    await pilot.press("J")
    await settle(app, pilot)
    assert isinstance(app.screen, ChoicePicker), screen_text(app)
    app.screen.query_one(OptionList).highlighted = 0
    await pilot.press("enter")
    await settle(app, pilot)


async def test_a_reorder_since_the_detail_was_read_stops_j_and_reload_moves_it_in_theirs(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    first, second, third = await strategies(client, name, ["everyone", "last"])
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        detail = await open_detail(app, pilot, name)
        other, who = await other_admin(sandbox)
        async with other:  # they put the third first: the detail still shows 1, 2, 3
            await other.rollouts.set_order(DEMO, name, ENVIRONMENT, [third])
        await moved_first_down(app, pilot)
        body = await confirm(app, pilot, f"Reorder the strategies of {name} in {ENVIRONMENT}?")
        assert f'[{{"id": "{second}", "sortOrder": 0}}, {{"id": "{first}"' in body
        assert isinstance(app.screen, EditConflictModal), screen_text(app)
        said = visible_text(app, ".dialog-body")
        assert "nothing was sent" in said and f"in {ENVIRONMENT} since it was shown" in said
        assert (
            f'order: shown ["{first}", "{second}", "{third}"], now ["{third}", "{first}",' in said
        )
        assert f"strategy-order-changed by {who} at " in said
        assert await order(client, name) == [third, first, second]  # theirs, nothing sent

        await pilot.click("#reload")  # the question again, on the order as it is now
        await settle(app, pilot)
        body = await confirm(app, pilot, f"Reorder the strategies of {name} in {ENVIRONMENT}?")
        assert f'[{{"id": "{third}", "sortOrder": 0}}, {{"id": "{second}", "sortOrder": 1}}' in body
        assert app.screen is detail
        assert f"Strategies of {name} reordered in {ENVIRONMENT}" in toast_text(app)
    assert await order(client, name) == [third, second, first]  # moved down in their order


async def test_a_strategy_added_since_is_shown_then_sent_anyway_typed_keeping_theirs(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    first, second = await strategies(client, name, ["everyone"])
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        detail = await open_detail(app, pilot, name)
        other, who = await other_admin(sandbox)
        async with other:
            theirs = await other.rollouts.add(
                DEMO, name, ENVIRONMENT, Strategy(name="default", title="theirs")
            )
        await moved_first_down(app, pilot)
        await confirm(app, pilot, f"Reorder the strategies of {name} in {ENVIRONMENT}?")
        modal = app.screen
        assert isinstance(modal, EditConflictModal), screen_text(app)
        said = visible_text(app, ".dialog-body")
        assert f'now ["{first}", "{second}", "{theirs.id}"]' in said
        assert f"feature-strategy-add by {who} at " in said
        assert await order(client, name) == [first, second, str(theirs.id)]
        assert f"To send yours anyway, type '{ENVIRONMENT}'" in visible_text(app, ".dialog")
        assert modal.anyway_button.disabled
        modal.query_one("#typed").value = ENVIRONMENT
        await settle(app, pilot)
        await pilot.click("#anyway")
        await settle(app, pilot)
        assert app.screen is detail
        assert f"Strategies of {name} reordered in {ENVIRONMENT}" in toast_text(app)
        assert "2. flexibleRollout “A/B split”" in visible_text(app, "#feature")
    # the order reviewed first, their strategy kept after it
    assert await order(client, name) == [second, first, str(theirs.id)]
    page = await client.events.search(feature=name, limit=3)
    assert [(e.type, e.created_by) for e in page.events[:2]] == [
        ("strategy-order-changed", "admin"),
        ("feature-strategy-add", who),
    ]
