"""Every key that changes who gets a flag says, in its question, how many of 10,000 synthetic
userIds get it before and after (the SDKs' engine on the flag read again, the change applied
as the server stores it): the switch in production (`t`, on and off), `0`, `D`, `X`, and the
strategy form in an environment that is off (nothing now, and the share once switched on).
Each number on screen is compared with an independent count of what the server serves after
the write (its client API fed to the SDKs' engine, `served_share`)."""

from __future__ import annotations

import re

import httpx
from served_share import served
from textual.widgets import Input, OptionList

from flagtui.api import AdminClient
from flagtui.api.bulk_changes import Change
from flagtui.api.feature_query import FeatureQuery
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.screens.bulk_screens import BulkResult
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from testkit.pilot import settle

from .areas import app_in
from .helpers import Wrapped, visible_text
from .palette_keys import run_from_palette
from .rollout_flows import (
    DEMO,
    confirm,
    demo_flag,
    open_detail,
    open_form,
    pick_production,
    review,
    until_shown,
)

TEN = "10% of production"
BULK_PROJECT = "payments"


def share(n: int) -> str:
    return f"{n:,} ({n / 10_000:.1%})"


async def asked(app, pilot, key: str) -> Wrapped:
    """The question `key` leads to (production picked where asked): its body."""
    await pilot.press(key)
    await settle(app, pilot)
    await pick_production(app, pilot)
    await until_shown(app, pilot, ConfirmModal)
    return visible_text(app, ".dialog-body")


async def test_switching_off_and_on_in_production_says_who_gets_it(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, TEN)
    now, _ = served(sandbox, name)
    assert 800 < now < 1_200  # about 10 %
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        await open_detail(app, pilot, name)
        body = await asked(app, pilot, "t")
        assert f"Who gets it (the SDKs' engine, synthetic userIds u-1…): {share(now)} → 0" in body
        await confirm(app, pilot, f"Switch {name} off in {ENVIRONMENT}?")
        assert served(sandbox, name)[0] == 0
        body = await asked(app, pilot, "t")
        assert f"0 (0.0%) → {share(now)} of 10,000" in body
        await confirm(app, pilot, f"Switch {name} on in {ENVIRONMENT}?")
    assert served(sandbox, name)[0] == now


async def test_roll_back_and_disable_say_who_loses_it(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, TEN)
    now, _ = served(sandbox, name)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        await open_detail(app, pilot, name)
        body = await asked(app, pilot, "0")
        assert f"{share(now)} → 0 (0.0%) of 10,000" in body
        await confirm(app, pilot, f"Roll {name} back to 0 % in {ENVIRONMENT}?")
        assert served(sandbox, name)[0] == 0
        # back to 10 %, then D: the same share lost, and the environment goes off with it
        (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
        ten = {**(strategy.parameters or {}), "rollout": "10"}
        await client.rollouts.update(DEMO, name, ENVIRONMENT, strategy.model_copy(
            update={"parameters": ten}))  # fmt: skip
        assert served(sandbox, name)[0] == now
        await pilot.press("r")  # the detail shows the strategy as it is now: D acts on that
        await settle(app, pilot)
        body = await asked(app, pilot, "D")
        assert f"{share(now)} → 0 (0.0%) of 10,000" in body
        await confirm(app, pilot, f"Disable strategy {strategy.id} of {name}")
    assert served(sandbox, name)[0] == 0


async def test_removing_one_of_two_strategies_says_the_share_left(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, TEN)
    (ten,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    alone, _ = served(sandbox, name)  # the 10 % one: what is left once the other is removed
    half = ten.model_copy(update={"id": None, "parameters": {**(ten.parameters or {}),
                                                              "rollout": "50"}})  # fmt: skip
    added = await client.rollouts.add(DEMO, name, ENVIRONMENT, half)
    both, _ = served(sandbox, name)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        await open_detail(app, pilot, name)
        await pilot.press("X")
        await settle(app, pilot)
        picker = app.screen
        assert isinstance(picker, ChoicePicker)
        if any(label.startswith(f"{ENVIRONMENT} ") for label in picker.labels):
            await pick_production(app, pilot)
            picker = app.screen
            assert isinstance(picker, ChoicePicker)
        labels = picker.labels  # which strategy: the 50 % one
        index = next(i for i, label in enumerate(labels) if label.startswith(str(added.id)))
        picker.query_one("OptionList").highlighted = index
        await pilot.press("enter")
        await until_shown(app, pilot, ConfirmModal)
        body = visible_text(app, ".dialog-body")
        assert both > alone
        assert f"{share(both)} → {share(alone)} of 10,000" in body
        await confirm(app, pilot, f"Remove strategy {added.id} of {name}")
    assert served(sandbox, name)[0] == alone


async def test_a_strategy_changed_where_the_flag_is_off_says_its_share_once_switched_on(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, TEN)
    now, _ = served(sandbox, name)
    await client.features.set_environment_enabled(DEMO, name, ENVIRONMENT, False)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "S")
        form.query_one("#rollout", Input).value = "50"
        await review(app, pilot)
        await until_shown(app, pilot, ConfirmModal)
        body = visible_text(app, ".dialog-body")
        assert "10,000 synthetic userIds on: 0 of 10,000 (0.0%) → 0 of 10,000 (0.0%)" in body
        assert f"{ENVIRONMENT} is off: this changes no one now; once it is switched on:" in body
        assert f"{now:,} of 10,000 ({now / 10_000:.1%}) → " in body
        on_after = str(body).split("once it is switched on:")[1].split("→")[1].split(" of")[0]
        await pilot.press("enter")
        await settle(app, pilot)
    assert served(sandbox, name)[0] == 0  # still off
    await client.features.set_environment_enabled(DEMO, name, ENVIRONMENT, True)
    assert f"{served(sandbox, name)[0]:,}" == on_after.strip()


async def test_a_bulk_switch_on_says_each_flags_share_then_serves_it(
    make_app, client: AdminClient, sandbox, tmp_path
) -> None:
    page = await client.features.search(FeatureQuery(project=BULK_PROJECT, limit=2))
    names = [f.name for f in page.features]
    await client.bulk.send(await client.bulk.plan(BULK_PROJECT, Change("disable", "production"),
                                                  names))  # fmt: skip
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("space", "space", "B")
        await settle(app, pilot)
        for choice in ("Switch on in", "production"):
            picker = app.screen
            assert isinstance(picker, ChoicePicker)
            picker.query_one(OptionList).highlighted = next(
                i for i, label in enumerate(picker.labels) if label.startswith(choice)
            )
            await pilot.press("enter")
            await settle(app, pilot)
        await until_shown(app, pilot, TypedConfirmModal)
        plan = str(visible_text(app, ".dialog-body"))
        await pilot.press(*"production", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, BulkResult)
    for name in names:
        now, _ = served(sandbox, name, users=1_000)
        row = plan.split(name, 1)[1].split("who gets it: ", 1)[1].splitlines()[0]
        assert row == f"production 0 (0.0%) → {now:,} ({now / 1_000:.1%}) of 1,000", plan


async def test_the_stale_archive_plan_says_who_loses_each_flag(make_app, client, sandbox) -> None:
    http = httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token})
    params = {"project": f"IS:{DEMO}", "state": "IS_ANY_OF:stale,potentially-stale",
              "limit": 1000}  # fmt: skip
    stale = http.get("/api/admin/search/features", params=params).json()["features"]
    on = {
        f["name"]: served(sandbox, f["name"], users=1_000)[0]
        for f in stale
        if any(e["name"] == "production" and e["enabled"] for e in f["environments"])
    }
    assert any(on.values())  # someone gets one of them: the plan has a share to lose
    app = make_app()
    async with app.run_test(size=(200, 60), notifications=True) as pilot:
        await settle(app, pilot)
        app.project = DEMO
        await run_from_palette(app, pilot, "stale", "Stale flags of the project")
        await settle(app, pilot)
        await pilot.press("A")
        await until_shown(app, pilot, TypedConfirmModal)
        modal = app.screen
        assert isinstance(modal, TypedConfirmModal)
        assert "who gets it: " in visible_text(app, ".dialog-body")
        plan = modal.body.plain  # all of it: the dialog scrolls past the first rows
        await pilot.press(*modal.expected, "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, BulkResult)
    for name, before in on.items():
        row = Wrapped(re.split(r"\n\s*(?:send|unchanged|refused) ", plan.split(name, 1)[1])[0])
        assert f"who gets it: {before:,} ({before / 1_000:.1%})" not in row  # each env named
        assert f"production {before:,} ({before / 1_000:.1%}) → 0 (0.0%) of 1,000" in row, row
        assert served(sandbox, name, users=1_000)[0] == 0  # archived: served to no one
