"""The strategy form tells the truth under faults: an answer lost after the server applied the
change is an unknown outcome, said in the form and never re-sent from it; a refusal keeps what
was typed and says the server's words. Faults: faults.py's `FaultApp` and `DropAnswers`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.responses import JSONResponse
from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.screens.strategy_form import StrategyFormScreen

from .faults import DropAnswers, settle
from .helpers import visible_text
from .rollout_flows import DEMO, PATH, SPLIT, confirm, demo_flag, open_form, review


async def edit_rollout(app: Any, pilot: Any, name: str, rollout: str) -> StrategyFormScreen:
    await settle(app, pilot)
    form = await open_form(app, pilot, name, "S")
    form.query_one("#rollout", Input).value = rollout
    await review(app, pilot)
    await confirm(app, pilot, f"Update strategy of {name} in {ENVIRONMENT}?")
    assert app.screen is form
    return form


async def test_a_lost_answer_is_an_unknown_outcome_never_resent(
    build: Any, faulty: Any, sandbox_db: Path, client: AdminClient
) -> None:
    server, fault = faulty
    name = demo_flag(sandbox_db, SPLIT)
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    path = PATH.format(name, strategy.id)
    drop = DropAnswers()
    app = build(server.url, server.admin_token, transport=drop)
    async with app.run_test(size=(120, 40)) as pilot:
        drop.methods.add("PUT")
        await edit_rollout(app, pilot, name, "10")
        said = visible_text(app, "#form-error")
        assert "Outcome unknown" in said and "r in the detail reads the flag" in said
        await review(app, pilot)  # asked again: not sent again
        assert "Not sent again from here" in visible_text(app, "#form-error")
    assert fault.count("PUT", path) == 1
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert after.parameters and after.parameters["rollout"] == "10"  # it was applied


async def test_a_refusal_says_the_server_words_and_keeps_the_inputs(
    build: Any, faulty: Any, sandbox_db: Path, client: AdminClient
) -> None:
    server, fault = faulty
    name = demo_flag(sandbox_db, SPLIT)
    (strategy,) = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    refusal = {"name": "ConflictError", "message": "the flag was changed meanwhile"}
    fault.fail("PUT", PATH.format(name, strategy.id), lambda: JSONResponse(refusal, 409))
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await edit_rollout(app, pilot, name, "25")
        said = visible_text(app, "#form-error")
        assert "Not applied" in said and "the flag was changed meanwhile" in said
        assert form.query_one("#rollout", Input).value == "25"
    after = await client.rollouts.get(DEMO, name, ENVIRONMENT, str(strategy.id))
    assert after.parameters == strategy.parameters
