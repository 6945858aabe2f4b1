"""Two admins editing one strategy at once (issue 43, item 3): the form keeps the strategy it
was opened on; when another admin changed it before the send, nothing is sent and the screen
says what changed, by whom and when; reload shows their change, "send mine anyway" (typed in
production) sends what was reviewed, and the event log holds both updates."""

from __future__ import annotations

from flagtui.api import AdminClient
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from testkit.pilot import settle

from .helpers import visible_text
from .rollout_flows import DEMO, SPLIT, confirm, demo_flag, open_form, review, rules, vip_only


async def test_a_change_made_since_the_form_opened_stops_the_send_and_is_shown(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "S")
        form.query_one("#rollout").value = "60"
        who = await vip_only(sandbox, name, strategy)
        await review(app, pilot)
        await confirm(app, pilot, f"Update strategy of {name} in {ENVIRONMENT}?")
        assert isinstance(app.screen, EditConflictModal)
        said = visible_text(app, ".dialog-body")
        assert "nothing was sent" in said
        assert 'constraints: shown [], now [{"contextName": "userId"' in said
        assert '"vip-only"' in said and 'title: shown "A/B split", now "VIPs only"' in said
        assert f"feature-strategy-update by {who} at " in said
        kept = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
        assert rules(kept) == [("userId", "IN", ["vip-only"])] and kept.title == "VIPs only"
        assert (kept.parameters or {})["rollout"] == "100"  # theirs, untouched

        await pilot.click("#reload")  # the form on their strategy; then the rollout again
        await settle(app, pilot)
        assert app.screen is form
        assert "userId is one of vip-only" in visible_text(app, "#c-list")
        assert "Reloaded: strategy" in visible_text(app, "#form-error")
        form.query_one("#rollout").value = "60"
        await review(app, pilot)
        await confirm(app, pilot, f"Update strategy of {name} in {ENVIRONMENT}?")
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert rules(after) == [("userId", "IN", ["vip-only"])]  # nothing of theirs lost
    assert after.title == "VIPs only" and (after.parameters or {})["rollout"] == "60"


async def test_send_mine_anyway_is_typed_in_production_and_both_are_in_the_event_log(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "S")
        form.query_one("#rollout").value = "60"
        who = await vip_only(sandbox, name, strategy)
        await review(app, pilot)
        await confirm(app, pilot, f"Update strategy of {name} in {ENVIRONMENT}?")
        modal = app.screen
        assert isinstance(modal, EditConflictModal)
        assert f"To send yours anyway, type '{ENVIRONMENT}'" in visible_text(app, ".dialog")
        assert modal.anyway_button.disabled
        modal.query_one("#typed").value = ENVIRONMENT
        await settle(app, pilot)
        await pilot.click("#anyway")
        await settle(app, pilot)
        assert app.screen is not form  # sent: the form closed
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert rules(after) == [] and (after.parameters or {})["rollout"] == "60"
    page = await client.events.search(feature=name, limit=2)
    assert [(e.type, e.created_by) for e in page.events] == [
        ("feature-strategy-update", "admin"),
        ("feature-strategy-update", who),
    ]
