"""The Context fields area at 80x24: reached from the palette (it has no key), the header naming
it; a field created, edited (the question says no flag's evaluation changes and names the
constraint left off the legal values) and deleted from forms, each outcome on screen and on the
server after; bad input refused inline naming the field; a field in use asks for its typed name
and the server's refusal is said."""

from __future__ import annotations

import re

import httpx
from textual.widgets import Input

from flagtui.tui.screens.context_fields import ContextFieldsScreen
from flagtui.tui.screens.context_form import ContextFieldForm
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle

from .helpers import screen_text, visible_text
from .palette_keys import run_from_palette

FLAGS = "/api/admin/projects/default/features"


async def open_area(app, pilot) -> ContextFieldsScreen:
    await settle(app, pilot)
    await run_from_palette(app, pilot, "context fields", "Go to Context fields")
    await settle(app, pilot)
    assert isinstance(app.screen, ContextFieldsScreen)
    return app.screen


async def select(app, pilot, name: str) -> None:
    table = app.screen.query_one(ResourceTable)
    table.move_cursor(row=table.get_row_index(name))
    await pilot.pause()


def server(sandbox) -> httpx.Client:
    return httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token})


async def test_the_area_lists_fields_and_creates_one(make_app, sandbox) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_area(app, pilot)
        shown = screen_text(app)
        assert "Context" in shown.splitlines()[0] + shown.splitlines()[1]  # the header names it
        [plan] = [line for line in visible_text(app, "#context-fields").splitlines()
                  if line.split()[:1] == ["plan"]]  # fmt: skip
        assert "Subscription plan" in plan and " 4 " in plan
        await pilot.press("C")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, ContextFieldForm)
        assert "Name: 1 to 100 URL-friendly characters" in screen_text(app)
        await pilot.press(*"bad name")  # typed: a name with a space
        await pilot.press("tab", *"Where", "tab", *"eu,us", "tab", "space", "tab")
        assert app.focused is form.query_one("#cf-save")  # Tab in the order drawn
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is form
        assert "Not sent — name: 1 to 100 URL-friendly characters" in visible_text(app, "#cf-error")
        form.name_box.value = "region"
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        asked = screen_text(app)
        assert "POST /api/admin/context" in asked and '"stickiness": true' in asked
        app.screen.query_one("#confirm").press()
        await settle(app, pilot)
        assert isinstance(app.screen, ContextFieldsScreen)
        assert "Done: region is on the server as shown" in visible_text(app, "#context-status")
        assert "region" in visible_text(app, "#context-fields")
    stored = server(sandbox).get("/api/admin/context/region").json()
    assert (stored["description"], stored["stickiness"]) == ("Where", True)
    assert [v["value"] for v in stored["legalValues"]] == ["eu", "us"]


async def test_an_edit_says_no_evaluation_changes_and_names_the_constraint_left_off(
    make_app, sandbox
) -> None:
    http = server(sandbox)
    body = {"name": "tier", "legalValues": [{"value": "gold"}, {"value": "silver"}]}
    assert http.post("/api/admin/context", json=body).status_code == 201
    assert http.post(FLAGS, json={"name": "tiered"}).status_code == 201
    constraint = {"contextName": "tier", "operator": "IN", "values": ["silver"]}
    path = f"{FLAGS}/tiered/environments/production/strategies"
    assert http.post(path, json={"name": "default", "constraints": [constraint]}).is_success
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_area(app, pilot)
        await select(app, pilot, "tier")
        shown = visible_text(app, "#context-fields")
        assert re.search(r"(?<!\d)1 flag(?!s)", shown), shown
        assert not re.search(r"(?<!\d)1 flags", shown), shown
        await pilot.press("e")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, ContextFieldForm)
        assert form.query_one("#cf-legal", Input).value == "gold, silver"
        form.query_one("#cf-legal", Input).value = "gold"
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        asked = screen_text(app)
        assert "no flag's evaluation changes" in asked
        assert "tiered in production" in asked and "uses silver" in asked
        app.screen.query_one("#confirm").press()
        await settle(app, pilot)
        assert isinstance(app.screen, ContextFieldsScreen)
        assert "Done: tier" in visible_text(app, "#context-status")
    stored = http.get("/api/admin/context/tier").json()
    assert [v["value"] for v in stored["legalValues"]] == ["gold"]


async def test_a_used_fields_delete_asks_for_its_name_and_the_refusal_is_said(
    make_app, sandbox
) -> None:
    http = server(sandbox)
    assert http.post("/api/admin/context", json={"name": "seat"}).status_code == 201
    assert http.post("/api/admin/context", json={"name": "spare"}).status_code == 201
    assert http.post(FLAGS, json={"name": "seated"}).status_code == 201
    constraint = {"contextName": "seat", "operator": "IN", "values": ["a"]}
    path = f"{FLAGS}/seated/environments/development/strategies"
    assert http.post(path, json={"name": "default", "constraints": [constraint]}).is_success
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_area(app, pilot)
        await select(app, pilot, "seat")
        await pilot.press("d")
        await settle(app, pilot)
        modal = app.screen
        assert isinstance(modal, TypedConfirmModal)
        asked = screen_text(app)
        assert "seated: development: default" in asked and "Type 'seat' to confirm" in asked
        assert modal.confirm_button.disabled
        await pilot.press(*"seat", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ContextFieldsScreen)
        said = visible_text(app, "#context-status")
        assert "Not deleted — " in said and "ConflictError" in said
        await select(app, pilot, "spare")
        await pilot.press("d")
        await settle(app, pilot)
        assert type(app.screen) is ConfirmModal  # unused: no name to type
        assert "spare is used by no strategy" in screen_text(app)
        app.screen.query_one("#confirm").press()
        await settle(app, pilot)
        assert "Done: spare deleted" in visible_text(app, "#context-status")
        assert "spare" not in visible_text(app, "#context-fields")
    assert http.get("/api/admin/context/seat").status_code == 200
    assert http.get("/api/admin/context/spare").status_code == 404


async def test_read_only_cannot_create_edit_or_delete(make_app, sandbox) -> None:
    app = make_app(read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_area(app, pilot)
        for key in ("C", "e", "d"):
            await pilot.press(key)
            await settle(app, pilot)
            assert isinstance(app.screen, ContextFieldsScreen)
    names = {f["name"] for f in server(sandbox).get("/api/admin/context").json()}
    assert "plan" in names
