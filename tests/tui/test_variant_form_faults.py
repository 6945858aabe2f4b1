"""The environment-variants form tells the truth under faults: an answer lost after the server
applied the variants is an unknown outcome, said in the form, with F5 to read what is stored
(never re-sent by itself); a refusal says the server's words and keeps every row as typed.
Faults: faults.py's `FaultApp` and `DropAnswers`."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse
from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.tui.screens.variant_form import VariantFormScreen
from flagtui.tui.screens.variant_rows import VariantRow
from flagtui.tui.widgets.confirm import ConfirmModal

from .faults import DropAnswers, settle
from .helpers import screen_text, visible_text
from .variant_flows import PROJECT, holder, open_form

PATH = "/api/admin/projects/payments/features/{}/environments/{}/variants"


async def send_half_and_half(app: Any, pilot: Any, name: str, env: str) -> VariantFormScreen:
    form = await open_form(app, pilot, name, env, failures=True)
    while len(form.rows) < 2:
        await pilot.press("ctrl+n")
        await settle(app, pilot)
    for row in form.rows[2:]:
        row.remove()
    await settle(app, pilot)
    for row, (variant, weight) in zip(form.rows, (("left", "50"), ("right", "")), strict=True):
        row.query_one(".v-name", Input).value = variant
        row.query_one(".v-weight", Input).value = weight
    await pilot.press("ctrl+r")
    await settle(app, pilot)
    assert isinstance(app.screen, ConfirmModal), screen_text(app)
    await pilot.press("enter")
    await settle(app, pilot)
    assert app.screen is form
    return form


async def test_a_lost_answer_is_unknown_and_f5_reads_what_is_stored(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    server, fault = faulty
    name, env = await holder(client)
    drop = DropAnswers()
    app = build(server.url, server.admin_token, transport=drop)
    async with app.run_test(size=(120, 40)) as pilot:
        drop.methods.add("PUT")
        form = await send_half_and_half(app, pilot, name, env)
        said = visible_text(app, "#form-error")
        assert "Outcome unknown" in said and "Press F5 to re-read them" in said
        assert "f5 Reload" in visible_text(app, "KeyBar")
        await pilot.press("f5")
        await settle(app, pilot)
        reread = " ".join(visible_text(app, "#form-error").split())
        assert "Re-read: stored now: left 50 % fixed" in reread and "right 50 %" in reread
        assert [r.query_one(".v-name", Input).value for r in form.rows] == ["left", "right"]
    assert fault.count("PUT", PATH.format(name, env)) == 1  # never sent again by itself
    stored = await client.rollouts.variants(PROJECT, name, env)
    assert [(v.name, v.weight) for v in stored] == [("left", 500), ("right", 500)]


async def test_a_refusal_says_the_server_words_and_keeps_the_rows(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    server, fault = faulty
    name, env = await holder(client)
    before = await client.rollouts.variants(PROJECT, name, env)
    refusal = {"name": "ConflictError", "message": "the variants were changed meanwhile"}
    fault.fail("PUT", PATH.format(name, env), lambda: JSONResponse(refusal, 409))
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await send_half_and_half(app, pilot, name, env)
        said = visible_text(app, "#form-error")
        assert "Not applied" in said and "the variants were changed meanwhile" in said
        assert [r.query_one(".v-weight", Input).value for r in form.rows] == ["50", ""]
        assert isinstance(form.rows[0], VariantRow)
    assert await client.rollouts.variants(PROJECT, name, env) == before
