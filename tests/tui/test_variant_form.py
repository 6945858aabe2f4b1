"""The environment-variants form of a feature's detail (issue 25, item 2): `V`, rows typed,
the request and the engine's preview shown, what the server stores; weights that do not add
up are refused with the field named and nothing sent; read-only profiles send nothing."""

from __future__ import annotations

import re
from typing import Any

from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.api.models import Strategy
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.variant_form import VariantFormScreen
from flagtui.tui.screens.variant_rows import VariantRow
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle

from .helpers import screen_text, toast_text, visible_text
from .variant_flows import PROJECT, holder, open_form


async def type_rows(app: FlagtuiApp, pilot: Any, rows: list[tuple[str, str]]) -> None:
    """Exactly `rows` (name, weight %) in the form, rows added or removed as needed."""
    form = app.screen
    assert isinstance(form, VariantFormScreen)
    while len(form.rows) < len(rows):
        await pilot.press("ctrl+n")
        await settle(app, pilot)
    for extra in form.rows[len(rows) :]:
        await extra.remove()
    for row, (name, weight) in zip(form.rows, rows, strict=True):
        row.query_one(".v-name", Input).value = name
        row.query_one(".v-weight", Input).value = weight
        row.query_one(".v-value", Input).value = ""
        row.query_one(".v-type").clear()
    await settle(app, pilot)


async def test_two_variants_50_50_shown_previewed_and_stored(make_app, client: AdminClient) -> None:
    name, env = await holder(client)
    everyone = {"rollout": "100", "stickiness": "default", "groupId": name}  # on for every user
    await client.rollouts.add(
        PROJECT, name, env, Strategy(name="flexibleRollout", parameters=everyone)
    )
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await open_form(app, pilot, name, env)
        await type_rows(app, pilot, [("blue", "50"), ("green", "")])
        assert "= 50.0 %" in screen_text(app)  # the variable row's share, before sending
        app.screen.query_one("#user-id", Input).value = "u-1"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal), screen_text(app)
        body = visible_text(app, ".dialog-body")
        path = f"/api/admin/projects/{PROJECT}/features/{name}/environments/{env}/variants"
        assert f"PUT {path}" in body
        assert '"name": "blue", "weight": 500, "weightType": "fix"' in body
        assert "userId u-1: " in body and "→ variant " in body
        after = " ".join(body.split()).partition("userIds after:")[2]  # lines wrapped
        assert "10,000 get the flag" in after, body
        counts = {
            w: int(re.search(rf"{w} ([\d,]+)", after)[1].replace(",", ""))
            for w in ("blue", "green")
        }
        assert sum(counts.values()) <= 10_000
        for n in counts.values():
            assert 4_500 < n < 5_500, body  # about half each
        await pilot.press("enter")  # Send
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert f"Variants of {name} set in {env}" in toast_text(app)
    stored = await client.rollouts.variants(PROJECT, name, env)
    assert [(v.name, v.weight) for v in stored] == [("blue", 500), ("green", 500)]
    event = (await client.events.search(feature=name, limit=1)).events[0]
    assert event.type == "feature-environment-variants-updated"


async def test_weights_over_100_are_refused_with_the_field_named(
    make_app, client: AdminClient
) -> None:
    name, env = await holder(client)
    before = await client.rollouts.variants(PROJECT, name, env)
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        form = await open_form(app, pilot, name, env)
        await type_rows(app, pilot, [("blue", "60"), ("green", "50")])
        sent = app.client.requests_sent
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert app.screen is form  # no question
        said = visible_text(app, "#form-error")
        assert "Not sent — variants.weight: the weights add up to 1100, not 1000" in said
        assert app.client.requests_sent == sent
        values = [row.query_one(".v-name", Input).value for row in form.rows]
        assert values == ["blue", "green"]  # nothing typed lost

        await type_rows(app, pilot, [("blue", "12.34"), ("green", "")])
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "variants[0].weight: '12.34' is not a percentage" in visible_text(app, "#form-error")
        assert "weight: refused" in visible_text(app, VariantRow)

        await pilot.press("escape")  # edits: asks first
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "Leave without sending?" in screen_text(app)
        assert app.client.requests_sent == sent
    assert await client.rollouts.variants(PROJECT, name, env) == before


async def test_read_only_refuses_before_any_request(make_app, client: AdminClient) -> None:
    name, _ = await holder(client)
    app = make_app(read_only=True)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        detail = app.screen
        sent = app.client.requests_sent
        await pilot.press("V")
        await settle(app, pilot)
        assert app.screen is detail
        assert "profile sandbox is read-only: Variants is not offered." in toast_text(app)
        assert app.client.requests_sent == sent


async def test_the_palette_word_variant_reaches_the_form(make_app) -> None:
    for read_only in (False, True):
        app = make_app(read_only=read_only)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("ctrl+p")
            await settle(app, pilot)
            app.screen.query_one(Input).value = "variant"
            await settle(app, pilot)
            shown = "Edit a flag's variants…" in screen_text(app)
            assert shown is not read_only  # a read-only profile is offered no write


async def test_a_flag_without_environment_variants_is_told_at_once(
    make_app, client: AdminClient
) -> None:
    """Unleash refuses environment variants on a flag that has none (deprecated for strategy
    variants); the form would only lose what was typed, so V says so before any request."""
    name = next(
        f.name
        for f in await client.features.list(PROJECT)
        if f.environments and not any(e.variant_count for e in f.environments)
    )
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        detail = app.screen
        sent = app.client.requests_sent
        await pilot.press("V")
        await settle(app, pilot)
        assert app.screen is detail
        said = " ".join(toast_text(app).split())
        assert f"Nothing sent: {name} has no environment variants" in said
        assert "S edits one, N adds one" in said
        assert app.client.requests_sent == sent
