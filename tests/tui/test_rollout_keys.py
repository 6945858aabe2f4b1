"""The 3 a.m. keys of a feature's detail (issue 25, item 5): `0` rolls one environment's gradual
rollouts back to 0 %, `D` disables one strategy. What the screen shows (the request, the
production question, the outcome), then what the server holds; read-only profiles send
nothing; the palette finds the rollout words."""

from __future__ import annotations

from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle

from .helpers import screen_text, toast_text, visible_text
from .rollout_flows import DEMO, PATH, demo_flag, open_detail, pick_production


async def test_roll_back_shows_the_request_asks_in_production_and_sets_0(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, "10% of production")
    before = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    (strategy,) = [s for s in before if s.name == "flexibleRollout"]
    assert strategy.parameters and strategy.parameters["rollout"] == "10"
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        detail = await open_detail(app, pilot, name)
        await pilot.press("0")
        await settle(app, pilot)
        await pick_production(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        shown = screen_text(app)
        assert f"Roll {name} back to 0 % in {ENVIRONMENT}?" in shown
        body = visible_text(app, ".dialog-body")
        assert f"This is {ENVIRONMENT}." in body  # a production environment, said once
        assert f"PUT {PATH.format(name, strategy.id)}" in body
        assert '"rollout": "0"' in body and '"name": "flexibleRollout"' in body
        await pilot.press("enter")  # Cancel has the focus: nothing sent
        await settle(app, pilot)
        assert app.screen is detail
        still = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
        assert still.parameters and still.parameters["rollout"] == "10"

        await pilot.press("0")
        await settle(app, pilot)
        await pick_production(app, pilot)
        await pilot.press("tab", "enter")  # to "Roll back", then press it
        await settle(app, pilot)
        assert app.screen is detail
        assert f"{name} rolled back to 0 % in {ENVIRONMENT} (1 strategy)" in toast_text(app)
        assert "rollout 0%" in visible_text(app, "#feature")  # read again, shown
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert after.parameters == {**strategy.parameters, "rollout": "0"}
    assert after.constraints == strategy.constraints and not after.disabled


async def test_roll_back_again_says_nothing_is_sent(make_app, client, sandbox) -> None:
    name = demo_flag(sandbox.db_path, "10% of production")
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    zero = strategy.model_copy(update={"parameters": {**strategy.parameters, "rollout": "0"}})
    await client.rollouts.update(DEMO, name, ENVIRONMENT, zero)
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        detail = await open_detail(app, pilot, name)
        await pilot.press("0")
        await settle(app, pilot)
        await pick_production(app, pilot)
        assert app.screen is detail  # no question: there is nothing to ask about
        said = toast_text(app)
        assert f"Nothing sent: every gradual rollout of {name} in {ENVIRONMENT}" in said


async def test_disable_strategy_shows_the_patch_and_says_the_environment_goes_off(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, "Beta tenants")
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    assert not strategy.disabled
    app = make_app()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        detail = await open_detail(app, pilot, name)
        await pilot.press("D")
        await settle(app, pilot)
        await pick_production(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert f"Disable strategy {strategy.id} of {name} in {ENVIRONMENT}?" in screen_text(app)
        body = visible_text(app, ".dialog-body")
        assert f"This is {ENVIRONMENT}." in body  # a production environment, said once
        assert f"PATCH {PATH.format(name, strategy.id)}" in body
        assert '[{"op": "replace", "path": "/disabled", "value": true}]' in body
        assert f"Unleash then switches {ENVIRONMENT} off" in body
        await pilot.press("tab", "enter")
        await settle(app, pilot)
        assert app.screen is detail
        said = f"Strategy {strategy.id} of {name} disabled in {ENVIRONMENT}"
        assert said in toast_text(app)
        assert "disabled: not evaluated" in visible_text(app, "#feature")  # read again
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert after.disabled is True


async def test_read_only_refuses_both_keys_before_any_request(make_app, client, sandbox) -> None:
    name = demo_flag(sandbox.db_path, "10% of production")
    before = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app(read_only=True)
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        detail = await open_detail(app, pilot, name)
        sent = app.client.requests_sent
        for key, said in (("0", "Roll back to 0 %"), ("D", "Disable strategy")):
            await pilot.press(key)
            await settle(app, pilot)
            assert app.screen is detail  # no picker, no question
            assert f"profile sandbox is read-only: {said} is not offered." in toast_text(app)
            assert said not in visible_text(app, "KeyBar")
        assert app.client.requests_sent == sent
    assert await client.rollouts.list(DEMO, name, ENVIRONMENT) == before


# Issue 25, item 5: each word, and the entries it must find.
ROLLOUT_WORDS = {
    "rollout": ["Roll a flag back to 0 %…", "Read a flag's rollout…"],
    "strategy": ["Disable a flag's strategy…", "Read a flag's rollout…"],
    "variant": ["Read a flag's rollout…"],
    "constraint": ["Read a flag's rollout…"],
    "segment": ["Read a flag's rollout…"],
    "playground": ["Who gets a flag? (CLI: flagtui playground)"],
    "who gets": ["Who gets a flag? (CLI: flagtui playground)"],
}
WRITES = ("Roll a flag back to 0 %…", "Disable a flag's strategy…")


async def test_the_palette_finds_the_rollout_words(make_app) -> None:
    for read_only in (False, True):
        app = make_app(read_only=read_only)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("ctrl+p")
            await settle(app, pilot)
            query = app.screen.query_one(Input)
            for word, titles in ROLLOUT_WORDS.items():
                query.value = word
                await settle(app, pilot)
                shown = screen_text(app)
                for title in titles:
                    if read_only and title in WRITES:
                        assert title not in shown  # a read-only profile is offered no write
                    else:
                        assert title in shown, f"{word!r} did not find {title!r}:\n{shown}"
