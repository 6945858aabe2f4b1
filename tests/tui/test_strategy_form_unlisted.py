"""The strategy form takes a constraint on a context field the server does not list, as Unleash
does (issue 43, item 6), saying that the SDKs must send it; the server then holds it. Before,
it was refused with no way around."""

from __future__ import annotations

from textual.widgets import Input, Select

from flagtui.api import AdminClient
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from testkit.pilot import settle

from .helpers import visible_text
from .rollout_flows import DEMO, SPLIT, demo_flag, open_form, review


async def test_remote_address_is_added_with_a_warning_and_stored(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "S")
        form.query_one("#c-field", Input).value = "remoteAddress"
        await settle(app, pilot)
        form.query_one("#c-operator", Select).value = "IN"
        form.query_one("#c-values", Input).value = "10.0.0.1"
        await pilot.click("#c-add")
        await settle(app, pilot)
        said = visible_text(app, "#c-error")
        assert "Added — constraints[0].contextName: 'remoteAddress' is not a context field" in said
        assert "of this server: SDKs must send it" in said
        assert "remoteAddress is one of 10.0.0.1" in visible_text(app, "#c-list")
        await review(app, pilot)
        assert '"contextName": "remoteAddress"' in visible_text(app, ".dialog-body")
        await pilot.press("enter")
        await settle(app, pilot)
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert [(c.context_name, c.values) for c in after.constraints or []] == [
        ("remoteAddress", ["10.0.0.1"])
    ]
