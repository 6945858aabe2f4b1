"""The strategy form of a feature's detail (issue 25, item 2): what it shows before sending (the
request, the preview with the SDKs' engine, the production question), what the server holds
after, and what it refuses before any request (rollout 101, semver "abc", a read-only profile),
or takes with a warning (a context field the server does not list)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, OptionList, Select, SelectionList

from flagtui.api import AdminClient
from flagtui.api.models import Strategy
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle

from .helpers import screen_text, toast_text, visible_text
from .rollout_flows import (
    DEMO,
    PATH,
    SPLIT,
    confirm,
    demo_flag,
    open_detail,
    open_form,
    pick_production,
    review,
)


async def test_rollout_set_to_10_from_the_form_shows_request_and_preview(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "S")
        assert f"Edit strategy {strategy.id} of {name} in {ENVIRONMENT}" in screen_text(app)
        form.query_one("#rollout", Input).value = "10"
        await review(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert f"Update strategy of {name} in {ENVIRONMENT}?" in screen_text(app)
        body = visible_text(app, ".dialog-body")
        assert f"This is {ENVIRONMENT}." in body  # a production environment, said once
        assert f"PUT {PATH.format(name, strategy.id)}" in body
        assert '"rollout": "10"' in body
        assert "10,000 synthetic userIds on: 10,000 of 10,000 (100.0%) →" in body
        await pilot.press("enter")
        await settle(app, pilot)
        assert f"Strategy {strategy.id} of {name} updated in {ENVIRONMENT}" in toast_text(app)
        assert "rollout 10%" in visible_text(app, "#feature")  # the detail read it again
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert after.parameters == {**(strategy.parameters or {}), "rollout": "10"}
    assert after.variants == strategy.variants  # the form left them as they were
    page = await client.events.search(feature=name, limit=5)
    assert page.events[0].type == "feature-strategy-update"


async def test_constraint_userid_in_u1_previewed_then_stored(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "S")
        form.query_one("#c-field", Input).value = "userId"
        await settle(app, pilot)
        form.query_one("#c-operator", Select).value = "IN"
        form.query_one("#c-values", Input).value = "u-1"
        await pilot.click("#c-add")
        await settle(app, pilot)
        assert "userId is one of u-1" in visible_text(app, "#c-list")
        await review(app, pilot)
        body = visible_text(app, ".dialog-body")
        assert '"contextName": "userId"' in body and '"values": ["u-1"]' in body
        lines = str(body).splitlines()
        u1 = next(line for line in lines if "userId=u-1:" in line)
        u2 = next(line for line in lines if "userId=u-2:" in line)
        assert u1.split("→")[1].strip().startswith("on")
        assert u2.split("→")[1].strip().startswith("off")
        assert "10,000 synthetic userIds on: 10,000 of 10,000 (100.0%) → 1 of 10,000" in body
        # the server's own playground, for the flag as it is now, agrees with the engine
        assert body.count("server's playground now: on, variant") == 2
        assert body.count("(agrees)") == 2
        await pilot.press("enter")
        await settle(app, pilot)
        assert "userId is one of u-1" in visible_text(app, "#feature")
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert [(c.context_name, c.operator, c.values) for c in after.constraints or []] == [
        ("userId", "IN", ["u-1"])
    ]


async def test_invalid_input_is_refused_naming_the_field_with_nothing_sent(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    before = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "S")
        sent = app.client.requests_sent
        form.query_one("#rollout", Input).value = "101"
        await review(app, pilot)
        assert app.screen is form  # no question
        said = visible_text(app, "#form-error")
        assert "Not sent — parameters.rollout: a whole percentage from 0 to 100" in said
        assert "↑ a whole percentage from 0 to 100, not '101'" in visible_text(app, "#gradual")
        assert form.query_one("#rollout", Input).value == "101"  # kept

        form.query_one("#c-field", Input).value = "appVersion"
        await settle(app, pilot)
        form.query_one("#c-operator", Select).value = "SEMVER_EQ"
        form.query_one("#c-values", Input).value = "abc"
        await pilot.click("#c-add")
        await settle(app, pilot)
        said = visible_text(app, "#c-error")
        assert "Not added — constraints[0].value: 'abc' is not a semantic version" in said
        assert form.query_one("#c-values", Input).value == "abc"

        form.query_one("#c-field", Input).value = "tenantid"
        await settle(app, pilot)
        form.query_one("#c-operator", Select).value = "IN"
        form.query_one("#c-values", Input).value = "acme"
        await pilot.click("#c-add")
        await settle(app, pilot)
        said = visible_text(app, "#c-error")  # added, as Unleash takes it: said, not refused
        assert "Added — constraints[0].contextName: 'tenantid' is not a context field" in said
        assert "SDKs must send it (did you mean tenantId?)" in said
        await pilot.press("escape")  # leave: something was typed, so it asks
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "Leave without sending?" in screen_text(app)
        await pilot.press("enter")  # Cancel: back in the form, everything as typed
        await settle(app, pilot)
        assert app.screen is form and form.query_one("#rollout", Input).value == "101"
        # one read: the context fields again, before saying tenantid is not one of them
        assert app.client.requests_sent == sent + 1
    assert await client.rollouts.list(DEMO, name, ENVIRONMENT) == before


async def test_read_only_refuses_the_strategy_keys_before_any_request(make_app, sandbox) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    app = make_app(read_only=True)
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        detail = await open_detail(app, pilot, name)
        sent = app.client.requests_sent
        for key, said in (("N", "New strategy"), ("S", "Edit strategy"), ("X", "Remove strategy")):
            await pilot.press(key)
            await settle(app, pilot)
            assert app.screen is detail
            assert f"profile sandbox is read-only: {said} is not offered." in toast_text(app)
        assert app.client.requests_sent == sent


async def pick(app: FlagtuiApp, pilot: Any, index: int) -> None:
    assert isinstance(app.screen, ChoicePicker), screen_text(app)
    app.screen.query_one(OptionList).highlighted = index
    await pilot.press("enter")
    await settle(app, pilot)


async def test_new_strategy_from_the_form_is_added_after_the_others(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, "10% of production")
    (first,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "N")
        assert f"Add a strategy to {name} in {ENVIRONMENT}" in screen_text(app)
        form.query_one("#rollout", Input).value = "50"
        form.query_one("#title", Input).value = "half"
        await review(app, pilot)
        body = await confirm(app, pilot, f"Add strategy to {name} in {ENVIRONMENT}?")
        assert f"POST {PATH.format(name, '').rstrip('/')}" in body
        assert '"rollout": "50"' in body and '"title": "half"' in body
        assert "added to" in toast_text(app)
    first_now, added = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    assert first_now.id == first.id
    assert added.title == "half" and added.parameters and added.parameters["rollout"] == "50"
    page = await client.events.search(feature=name, limit=5)
    assert page.events[0].type == "feature-strategy-add"


async def test_enable_remove_and_move_a_strategy(make_app, client: AdminClient, sandbox) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    (first,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    second = await client.rollouts.add(
        DEMO, name, ENVIRONMENT, Strategy(name="default", title="everyone")
    )
    await client.rollouts.set_disabled(DEMO, name, ENVIRONMENT, str(second.id), True)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        await open_detail(app, pilot, name)
        await pilot.press("E")
        await settle(app, pilot)
        await pick_production(app, pilot)  # one disabled strategy: no strategy picker
        body = await confirm(app, pilot, f"Enable strategy {second.id} of {name} in {ENVIRONMENT}?")
        assert f"PATCH {PATH.format(name, second.id)}" in body
        assert f"Strategy {second.id} of {name} enabled in {ENVIRONMENT}" in toast_text(app)

        await pilot.press("J")  # the first one down (production alone has two: no env picker)
        await settle(app, pilot)
        await pick(app, pilot, 0)
        body = await confirm(app, pilot, f"Reorder the strategies of {name} in {ENVIRONMENT}?")
        assert "set-sort-order" in body
        assert f'[{{"id": "{second.id}", "sortOrder": 0}}, {{"id": "{first.id}"' in body
        assert [s.id for s in await client.rollouts.list(DEMO, name, ENVIRONMENT)] == [
            second.id,
            first.id,
        ]

        await pilot.press("X")
        await settle(app, pilot)
        await pick_production(app, pilot)
        await pick(app, pilot, 0)  # the first in order: `everyone`
        body = await confirm(app, pilot, f"Remove strategy {second.id} of {name} in {ENVIRONMENT}?")
        assert f"DELETE {PATH.format(name, second.id)}" in body
        assert f"Strategy {second.id} of {name} removed from {ENVIRONMENT}" in toast_text(app)
    assert [s.id for s in await client.rollouts.list(DEMO, name, ENVIRONMENT)] == [first.id]


FORM_WORDS = {
    "rollout": ["Add a strategy to a flag…", "Edit a flag's strategy…"],
    "strategy": ["Add a strategy to a flag…", "Remove a flag's strategy…"],
    "constraint": ["Add a strategy to a flag…", "Edit a flag's strategy…"],
    "segment": ["Add a strategy to a flag…", "Edit a flag's strategy…"],
    "reorder": ["Reorder a flag's strategies…"],
}


async def test_the_palette_finds_the_strategy_form_by_its_words(make_app) -> None:
    for read_only in (False, True):
        app = make_app(read_only=read_only)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("ctrl+p")
            await settle(app, pilot)
            query = app.screen.query_one(Input)
            for word, titles in FORM_WORDS.items():
                query.value = word
                await settle(app, pilot)
                shown = screen_text(app)
                for title in titles:  # all writes: never offered to a read-only profile
                    assert (title in shown) is not read_only, f"{word!r}, {title!r}:\n{shown}"


async def test_another_type_with_its_parameters_and_a_segment(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, "10% of production")
    segment = next(s for s in await client.segments.list() if s.name == "beta-testers")
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "N")
        offered = [t.name for t in form.types]
        assert "remoteAddress" in offered
        assert "userWithId" not in offered  # deprecated: not for a new strategy
        form.query_one("#type", Select).value = "remoteAddress"
        await settle(app, pilot)
        assert not form.query_one("#gradual").display
        (ips,) = [box for box in form.query(Input) if box.name == "IPs"]
        await review(app, pilot)  # required and empty: refused under it
        assert "↑ required by remoteAddress" in visible_text(app, "#other-params")
        ips.value = "10.0.0.1"
        form.query_one("#segments", SelectionList).select(segment.id)
        await review(app, pilot)
        body = await confirm(app, pilot, f"Add strategy to {name} in {ENVIRONMENT}?")
        assert '"name": "remoteAddress"' in body and '"IPs": "10.0.0.1"' in body
        assert f'"segments": [{segment.id}]' in body
    added = (await client.rollouts.list(DEMO, name, ENVIRONMENT))[-1]
    assert added.name == "remoteAddress" and added.parameters == {"IPs": "10.0.0.1"}
    assert added.segments == [segment.id]
