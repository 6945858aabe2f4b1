"""Writes tell the truth (issue 11, items 4 and 6): one send per confirmation while a write is in
flight, an unknown outcome when the connection breaks after sending, archived flags listed,
opened and revived, and a rate limit that says when it retries and lets `r` retry now.

Faults come from faults.py's `FaultApp` (slow or refused answers from a real sandbox
over HTTP) and, for a connection that breaks once the server has applied the write, a
transport that drops the answer it received."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import Checkbox, Input

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.feature_types import FeatureTypesScreen, LifetimeModal
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.screens.patch_form import PatchFormScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from flagtui.tui.widgets.table import ResourceTable

from .faults import FEATURE, PROJECT, DropAnswers, json_error, open_form, send_form, settle
from .helpers import screen_text, visible_text


async def a_name(client: AdminClient) -> str:
    return (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name


async def test_a_second_send_while_the_first_is_in_flight_is_refused(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    """Failed on old main: a second ctrl+r and confirm sent a second PATCH."""
    server, fault = faulty
    name = await a_name(client)
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        form = await open_form(app, pilot, name)
        fault.delay_answers = 1.5
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.click("#confirm")
        await pilot.pause(0.2)
        while_sending = visible_text(app, "#form-error")
        await pilot.press("ctrl+r")
        await pilot.pause()
        if isinstance(app.screen, ConfirmModal):  # what old main did
            await pilot.click("#confirm")
            await pilot.pause()
        second_press = visible_text(app, "#form-error")
        assert app.screen is form
        await asyncio.sleep(1.6)
        await settle(app, pilot)
        assert fault.count("PATCH", f"/features/{name}") == 1
        assert isinstance(app.screen, FeatureDetailScreen)
    assert "sending…" in while_sending
    assert "not sent again" in second_press
    assert (await client.features.get(PROJECT, name)).description == "typed by hand"


async def test_a_patch_whose_connection_breaks_after_sending_offers_the_re_read(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    """Failed on old main: shown as "Not applied — … Unreachable" though the server applied it."""
    server, fault = faulty
    name = await a_name(client)
    drop = DropAnswers()
    app = build(server.url, server.admin_token, transport=drop)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        form = await open_form(app, pilot, name)
        drop.methods.add("PATCH")
        await send_form(app, pilot)
        said = visible_text(app, "#form-error")
        assert "may or may not have been applied" in said and "F5" in said
        assert "Not applied" not in said
        await pilot.press("f5")
        await settle(app, pilot)
        assert "the server already has these values" in visible_text(app, "#form-error")
        assert form.query_one("#description", Input).value == "typed by hand"
    assert fault.count("PATCH", f"/features/{name}") == 1
    assert (await client.features.get(PROJECT, name)).description == "typed by hand"


async def test_a_refused_patch_leaves_the_servers_record_as_the_baseline(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    server, fault = faulty
    name = await a_name(client)
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        form = await open_form(app, pilot, name)
        # someone else changes the description while the form is open
        await client.features.patch(PROJECT, name, [{"op": "replace", "path": "/description",
                                                   "value": "typed by hand"}])  # fmt: skip
        fault.fail("PATCH", f"/features/{name}", json_error(500, "InternalError", "boom"), times=1)
        await send_form(app, pilot)
        assert isinstance(app.screen, EditConflictModal)  # their change is said first
        await pilot.click("#anyway")
        await settle(app, pilot)
        assert "Not applied" in visible_text(app, "#form-error")
        assert form.feature.description == "typed by hand"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert "Nothing changed" in visible_text(app, "#form-error")


async def test_archived_flags_are_listed_opened_and_revived(make_app, client) -> None:
    """Failed on old main: the archived stage listed nothing and there was no revive."""
    project = (await client.projects.list())[0].id
    name = (await client.features.search(FeatureQuery(project=project, limit=1))).features[0].name
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(project, name))
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, PatchFormScreen)
        app.screen.query_one("#archived", Checkbox).value = True
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert "v revives it" in screen_text(app) and f"{name} archived" in screen_text(app)
        assert await client.archived.find(project, name) is not None

        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, FeaturesScreen)
        await pilot.press("a")
        await settle(app, pilot)
        table = app.screen.query_one(ResourceTable)
        archived = {f.name for f in (await client.archived.list(project, limit=50)).features}
        shown = {row.key.value for row in table.ordered_rows}
        assert name in shown and shown <= archived
        table.move_cursor(row=table.get_row_index(name))
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert "v revives it" in screen_text(app) and "reading" not in screen_text(app)
        assert "0 strategies" not in screen_text(app)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.click("#confirm")
        await settle(app, pilot)
        assert "revived" in screen_text(app) and "v revives it" not in screen_text(app)
    live = await client.features.get(project, name)
    assert not live.is_archived and live.lifecycle and live.lifecycle.stage == "initial"


async def test_a_long_retry_after_is_capped_said_and_r_retries_now(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    """Failed on old main: "retrying in 3600 s", no time, no key to retry now."""
    server, fault = faulty
    name = await a_name(client)
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        hour = json_error(429, "RateLimited", "slow down", **{"Retry-After": "3600"})
        fault.fail("GET", FEATURE + name, hour, times=1)
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        text = screen_text(app)  # a toast: its lines are folded
        assert "retrying in 180 s" in text and "(by " in text and "r retries now" in text
        assert fault.count("GET", FEATURE + name) == 1
        await pilot.press("r")
        await settle(app, pilot)
        assert fault.count("GET", FEATURE + name) == 2
        assert visible_text(app, "#feature").startswith(name)


async def test_the_lifetime_dialog_sends_once_and_says_so(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    """Failed on old main: a second Enter while the first PUT was in flight sent another."""
    server, fault = faulty
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
        table = app.screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index("release"))
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, LifetimeModal)
        app.screen.query_one(Input).value = "77"
        fault.delay_answers = 1.5
        await pilot.press("enter")
        await pilot.pause(0.2)
        while_sending = visible_text(app, "#lifetime-error")
        await pilot.press("enter")
        await pilot.pause()
        second_press = visible_text(app, "#lifetime-error")
        await asyncio.sleep(1.6)
        await settle(app, pilot)
        assert fault.count("PUT", "/feature-types/release/lifetime") == 1
        assert isinstance(app.screen, FeatureTypesScreen)
    assert "sending…" in while_sending and "already sent" in second_press
    types = {t.id: t for t in await client.feature_types.list()}
    assert types["release"].lifetime_days == 77


async def test_an_uncomplete_whose_connection_breaks_says_how_to_check(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    """Failed on old main: "Request failed … Unreachable" for a write the server applied."""
    server, fault = faulty
    page = await client.features.search(
        FeatureQuery(project=PROJECT, lifecycle=["completed"], limit=1)
    )
    name = page.features[0].name
    drop = DropAnswers()
    app = build(server.url, server.admin_token, transport=drop)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        drop.methods.add("POST")
        await pilot.press("u")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(app, pilot)
        text = " ".join(screen_text(app).replace("▌", " ").split())
        assert "Outcome unknown" in text and "may or may not have been applied" in text
        assert "press r to read the current state" in text
    assert fault.count("POST", f"/features/{name}/lifecycle/uncomplete") == 1
    feature = await client.features.get(PROJECT, name)
    assert feature.lifecycle is not None and feature.lifecycle.stage != "completed"
