"""A context field created elsewhere after the strategy form opened is usable without closing
the form (issue 46): before refusing, or warning of, a field it does not know, the constraint
editor reads the server's context fields again, legal values included."""

from __future__ import annotations

import httpx
from textual.widgets import Input, Select

from flagtui.api import AdminClient
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from testkit.pilot import settle

from .helpers import Wrapped, visible_text
from .rollout_flows import DEMO, SPLIT, demo_flag, open_form, review


async def add_constraint(app, pilot, form, field: str, value: str) -> Wrapped:
    form.query_one("#c-field", Input).value = field
    await settle(app, pilot)
    form.query_one("#c-operator", Select).value = "IN"
    form.query_one("#c-values", Input).value = value
    form.query_one("#c-add").press()
    await settle(app, pilot)
    form.query_one("#c-error").scroll_visible(animate=False)
    await settle(app, pilot)
    return visible_text(app, "#c-error")


async def test_a_field_created_after_the_form_opened_is_taken_with_its_legal_values(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "S")
        assert form.catalog.context_field("region") is None
        created = httpx.post(
            f"{sandbox.url}/api/admin/context",
            headers={"Authorization": sandbox.admin_token},
            json={"name": "region", "legalValues": [{"value": "eu"}, {"value": "us"}]},
        )
        assert created.status_code == 201
        said = await add_constraint(app, pilot, form, "region", "mars")
        assert "Not added — constraints[0].values[0]: 'mars' is not a legal value of region" in said
        said = await add_constraint(app, pilot, form, "region", "eu")
        assert "not a context field" not in said
        form.query_one("#c-list").scroll_visible(animate=False)
        await settle(app, pilot)
        assert "region is one of eu" in visible_text(app, "#c-list")
        await review(app, pilot)
        await pilot.press("enter")  # the update is focused
        await settle(app, pilot)
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert ("region", ["eu"]) in [(c.context_name, c.values) for c in after.constraints or []]
