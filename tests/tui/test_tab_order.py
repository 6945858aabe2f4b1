"""Tab in every form follows the order the fields are drawn (top to bottom, left to right),
every stop is a field whose label says what it takes, and the keys typed after a Tab in one
burst (a fast typist, a paste, SSH) go to the field Tab reached (issue 46, item 6)."""

from __future__ import annotations

import uuid

from textual import events
from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.screens.create_flag import CreateFlagScreen
from flagtui.tui.screens.feature_types import LifetimeModal
from flagtui.tui.screens.patch_form import PatchFormScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle

from . import variant_flows
from .areas import app_in
from .helpers import screen_text, visible_text
from .rollout_flows import DEMO, SPLIT, demo_flag, open_detail, open_form, until_shown
from .tab_walk import from_first, tab_walk

STRATEGY = [
    "Type (the server's strategy types)",
    "Title (optional)",
    "Rollout % (0–100)",
    "Stickiness (what the percentage hashes)",
    "Group id (text; default: the flag's name)",
    "Constraints (all must match; Delete removes the highlighted one)",
    "context field",
    "operator",
    "value (IN, NOT_IN, STR_*: comma-separated)",
    "NOT",
    "Add constraint",
    "Segments (space ticks or unticks)",
]
VARIANT_ROW = ["name", "auto %", "payload", "value", "✕"]
PREVIEW = [
    "Preview for userIds (comma-separated)",
    "Preview context (KEY=VALUE, space-separated; optional)",
]


def burst(app, *keys: str) -> None:
    """Keys as a terminal sends them in one burst: all queued before the first has run."""
    for key in keys:
        char = "\t" if key == "tab" else key
        app.post_message(events.Key(key, char))


async def test_the_strategy_form_tabs_in_the_order_drawn_variants_included(make_app, sandbox):
    name = demo_flag(sandbox.db_path, SPLIT)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(app, pilot, name, "N")
        assert from_first(await tab_walk(app, pilot), STRATEGY[0]) == STRATEGY + PREVIEW
        assert "Group id (text; default: the flag's name)" in screen_text(app)
        await pilot.press("ctrl+n")  # a variant's row, between the segments and the preview
        await settle(app, pilot)
        walked = from_first(await tab_walk(app, pilot), STRATEGY[0])
        assert walked == STRATEGY + VARIANT_ROW + PREVIEW


async def test_keys_typed_after_tabs_in_one_burst_go_to_the_field_reached(
    make_app, sandbox, client: AdminClient
) -> None:
    """Title, four Tabs to the constraint's field, `country`: in that field, not in the title,
    the rollout % or the group id. Then the release as typed: Title, Tab, the rollout %, sent
    with Enter (Add has the focus), and the server holds what was typed where it was typed."""
    name = demo_flag(sandbox.db_path, SPLIT)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "N")
        burst(app, "tab", "tab", "tab", "tab", "tab", *"country")
        await settle(app, pilot)
        typed = {i: form.query_one(f"#{i}", Input).value for i in ("title", "rollout", "c-field")}
        assert typed == {"title": "", "rollout": "100", "c-field": "country"}
        assert "country" in visible_text(app, "#c-field")
        form.query_one("#c-field", Input).value = ""
        form.query_one("#title", Input).focus()
        await settle(app, pilot)
        burst(app, *"canary", "tab", "2", "5")
        await settle(app, pilot)
        assert form.query_one("#rollout", Input).value == "25"
        await pilot.press("ctrl+r")
        await until_shown(app, pilot, ConfirmModal)
        assert app.focused is not None and app.focused.id == "confirm"  # "Add"
        await pilot.press("enter")
        await settle(app, pilot)
    added = [s for s in await client.rollouts.list(DEMO, name, ENVIRONMENT) if s.title == "canary"]
    assert [(s.parameters or {}).get("rollout") for s in added] == ["25"]


async def test_the_variants_form_tabs_in_the_order_drawn(make_app, client) -> None:
    name, env = await variant_flows.holder(client)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        form = await variant_flows.open_form(app, pilot, name, env)
        rows = len(form.rows)
        walked = from_first(await tab_walk(app, pilot), "Stickiness")
        assert walked == ["Stickiness", *VARIANT_ROW * rows, "Preview for userId"]


async def test_the_patch_form_tabs_in_the_order_drawn(make_app, sandbox) -> None:
    name = demo_flag(sandbox.db_path, SPLIT)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_detail(app, pilot, name)
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, PatchFormScreen)
        walked = [label.split(":")[0] for label in await tab_walk(app, pilot)]
        assert walked == [
            "Description (text; may be empty)",
            "Type (the server's feature types)",
            "stale",
            "impressionData",
            "archived",
        ]
        assert "Description (text; may be empty)" in screen_text(app)


async def test_the_create_flag_form_tabs_in_the_order_drawn(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("C")
        await settle(app, pilot)
        assert isinstance(app.screen, CreateFlagScreen)
        assert await tab_walk(app, pilot) == [
            "Name (letters, digits and - _ . ! ~ * ' ( ))",
            "Type (the server's feature types)",
            "Description (optional)",
            "Impression data (SDKs emit an event per evaluation)",
        ]


async def test_the_lifetime_dialog_tabs_from_the_days_to_save(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, LifetimeModal)
        days, save = await tab_walk(app, pilot)
        assert days.startswith("Days until potentially stale, or never.") and save == "Save"


async def test_the_access_grant_form_tabs_column_by_column(make_app, tmp_path) -> None:
    app = app_in(make_app, tmp_path, "access")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        users = "Users (name or e-mail)"
        assert from_first(await tab_walk(app, pilot), "project") == [
            "project",  # the project picker, then the access the project grants now
            "access-current",
            "Roles",
            users,  # its search box, then the users found
            users,
            "Groups",
        ]
        assert users in screen_text(app)


async def test_a_flag_created_from_the_keyboard_alone(make_app, tmp_path, client) -> None:
    """Name, Tab, Tab, a description, ctrl+r, Enter: created (Create has the focus)."""
    name = f"typed-{uuid.uuid4().hex[:8]}"
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("C")
        await settle(app, pilot)
        burst(app, *name, "tab", "tab", *"typed")
        await settle(app, pilot)
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("enter")
        await settle(app, pilot)
    flag = await client.features.get("payments", name)
    assert flag.description == "typed"
