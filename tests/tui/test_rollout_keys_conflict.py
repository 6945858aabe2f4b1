"""`0` and `D` in a flag's detail against another admin's change (issue 43, item 3): the change
made between the question and the send stops it, shown on the conflict screen (what changed,
who, when); reload asks again on the strategy as it is now, "send mine anyway" (typed in
production) sends what was asked; nothing of theirs is lost that the key does not change."""

from __future__ import annotations

from flagtui.api import AdminClient
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from testkit.pilot import settle

from .helpers import screen_text, toast_text, visible_text
from .rollout_flows import DEMO, demo_flag, open_detail, pick_production, rules, vip_only


async def test_roll_back_overtaken_is_shown_and_reload_asks_on_their_strategy(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, "10% of production")
    (strategy,) = [s for s in await client.rollouts.list(DEMO, name, ENVIRONMENT)
                   if s.name == "flexibleRollout"]  # fmt: skip
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        detail = await open_detail(app, pilot, name)
        await pilot.press("0")
        await settle(app, pilot)
        await pick_production(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        who = await vip_only(sandbox, name, strategy)
        await pilot.press("tab", "enter")  # "Roll back"
        await settle(app, pilot)
        assert isinstance(app.screen, EditConflictModal), screen_text(app)
        said = visible_text(app, ".dialog-body")
        assert "nothing was sent" in said and f"in {ENVIRONMENT} since it was shown" in said
        assert 'constraints: shown [], now [{"contextName": "userId"' in said
        assert f"feature-strategy-update by {who} at " in said
        kept = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
        assert rules(kept) == [("userId", "IN", ["vip-only"])]
        assert (kept.parameters or {})["rollout"] == "10"  # not sent

        await pilot.click("#reload")  # the question again, on their strategy
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal), screen_text(app)
        assert '"constraints": [{"contextName": "userId"' in visible_text(app, ".dialog-body")
        await pilot.press("tab", "enter")
        await settle(app, pilot)
        assert app.screen is detail
        assert f"{name} rolled back to 0 % in {ENVIRONMENT} (1 strategy)" in toast_text(app)
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert rules(after) == [("userId", "IN", ["vip-only"])] and after.title == "VIPs only"
    assert (after.parameters or {})["rollout"] == "0"


async def test_disable_overtaken_is_shown_then_sent_anyway_typed_in_production(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, "Beta tenants")
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        detail = await open_detail(app, pilot, name)
        await pilot.press("D")
        await settle(app, pilot)
        await pick_production(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        who = await vip_only(sandbox, name, strategy)
        await pilot.press("tab", "enter")  # "Disable"
        await settle(app, pilot)
        modal = app.screen
        assert isinstance(modal, EditConflictModal), screen_text(app)
        said = visible_text(app, ".dialog-body")
        assert "nothing was sent" in said and 'now "VIPs only"' in said
        assert f"feature-strategy-update by {who} at " in said
        assert not (await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))).disabled
        assert f"To send yours anyway, type '{ENVIRONMENT}'" in visible_text(app, ".dialog")
        assert modal.anyway_button.disabled
        modal.query_one("#typed").value = ENVIRONMENT
        await settle(app, pilot)
        await pilot.click("#anyway")
        await settle(app, pilot)
        assert app.screen is detail
        assert f"Strategy {strategy.id} of {name} disabled in {ENVIRONMENT}" in toast_text(app)
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert after.disabled is True  # the PATCH changed only that: their constraint stays
    assert rules(after) == [("userId", "IN", ["vip-only"])] and after.title == "VIPs only"
    page = await client.events.search(feature=name, type="feature-strategy-update", limit=2)
    assert [e.created_by for e in page.events] == ["admin", who]  # both in the event log
