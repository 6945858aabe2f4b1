"""A switch per environment tells the truth under faults: an answer lost after the server
applied it is an unknown outcome (never re-sent), a second switch while one is in flight is
refused, a refusal says the server's words. Faults: faults.py's `FaultApp` and
`DropAnswers`."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from flagtui.api import AdminClient
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.table import ResourceTable

from .faults import PROJECT, DropAnswers, settle
from .helpers import toast_text


async def switch(app: Any, pilot: Any, environment: str) -> None:
    """`t` on the highlighted flag, then the line of `environment` in the picker."""
    await pilot.press("t")
    await pilot.pause()
    picker = app.screen
    assert isinstance(picker, ChoicePicker)
    index = next(i for i, label in enumerate(picker.labels) if label.startswith(f"{environment} "))
    picker.query_one(OptionList).highlighted = index
    await pilot.press("enter")
    await pilot.pause()


def highlighted(app: Any) -> str:
    return str(app.screen.query_one(ResourceTable).selected_record.name)


async def enabled_in(client: AdminClient, name: str, environment: str) -> bool | None:
    feature = await client.features.get(PROJECT, name)
    return next(e.enabled for e in feature.environments or [] if e.name == environment)


async def test_a_lost_answer_is_an_unknown_outcome_sent_once(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    server, fault = faulty
    drop = DropAnswers()
    app = build(server.url, server.admin_token, transport=drop)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, FeaturesScreen)
        name = highlighted(app)
        before = await enabled_in(client, name, "staging")
        drop.methods.add("POST")
        await switch(app, pilot, "staging")
        await settle(app, pilot)
        said = toast_text(app)
        assert "Outcome unknown" in said and "press r to read the current state" in said
        assert "switched" not in said
    verb = "off" if before else "on"
    assert fault.count("POST", f"/features/{name}/environments/staging/{verb}") == 1
    assert await enabled_in(client, name, "staging") is (not before)


async def test_a_second_switch_while_one_is_in_flight_is_refused(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    server, fault = faulty
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        name = highlighted(app)
        fault.answers_released.clear()
        await switch(app, pilot, "staging")
        await switch(app, pilot, "qa")
        assert "not sent again" in toast_text(app)
        fault.answers_released.set()
        await settle(app, pilot)
    sent = fault.count("POST", f"/features/{name}/environments/staging/") + fault.count(
        "POST", f"/features/{name}/environments/qa/"
    )
    assert sent == 1


async def test_a_refusal_says_the_servers_words(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    server, _ = faulty
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        name = highlighted(app)
        await client.environments.remove(PROJECT, "qa")  # meanwhile, elsewhere
        await switch(app, pilot, "qa")
        await settle(app, pilot)
        said = toast_text(app)
        assert "Request failed" in said
        assert f"Could not find environment qa for feature: {name}" in said
