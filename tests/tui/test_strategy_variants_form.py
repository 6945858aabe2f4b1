"""A strategy's variants in the strategy form (issue 25, item 2): typed as rows, each row's
share shown, refused before any request with the row named, previewed per variant with the
SDKs' engine, and stored as shown."""

from __future__ import annotations

import re

from textual.widgets import Input, Select

from flagtui.api import AdminClient
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.screens.variant_rows import VariantRow
from testkit.pilot import settle

from .helpers import visible_text
from .rollout_flows import DEMO, confirm, demo_flag, open_form, review


def row(form: object, index: int) -> VariantRow:
    return list(form.query(VariantRow).results(VariantRow))[index]  # type: ignore[attr-defined]


def count(said: str, variant: str) -> int:
    """`blue 2,956` in the preview's words, as a number."""
    found = re.search(rf"{variant} ([\d,]+)", said)
    assert found, said
    return int(found[1].replace(",", ""))


async def test_two_strategy_variants_shared_previewed_and_stored(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, "10% of production")
    app = make_app()
    async with app.run_test(size=(140, 60), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "N")
        form.query_one("#rollout", Input).value = "100"
        await pilot.press("ctrl+n", "ctrl+n")
        await settle(app, pilot)
        row(form, 0).query_one(".v-name", Input).value = "blue"
        row(form, 0).query_one(".v-weight", Input).value = "30"
        row(form, 0).query_one(".v-type", Select).value = "string"
        row(form, 0).query_one(".v-value", Input).value = "#00f"
        row(form, 1).query_one(".v-name", Input).value = "green"
        await settle(app, pilot)
        assert "= 70.0 %" in visible_text(app, "#strategy-variants")  # green takes the rest
        await review(app, pilot)
        body = await confirm(app, pilot, f"Add strategy to {name} in {ENVIRONMENT}?")
        assert '"name": "blue", "weight": 300' in body
        assert '"name": "green", "weight": 700' in body
        split = next(line for line in str(body).splitlines() if "per variant:" in line)
        after = split.split("→")[1]
        blue, green = (count(after, v) for v in ("blue", "green"))
        # users the flag's first strategy (10 %, no variants) takes get no variant
        assert "no variant" in after and 8_500 < blue + green < 9_500
        assert 0.25 < blue / (blue + green) < 0.35
    added = (await client.rollouts.list(DEMO, name, ENVIRONMENT))[-1]
    stored = [
        (v.name, v.weight, v.payload.value if v.payload else None) for v in added.variants or []
    ]
    assert stored == [("blue", 300, "#00f"), ("green", 700, None)]
    page = await client.events.search(feature=name, limit=5)
    assert page.events[0].type == "feature-strategy-add"


async def test_a_nameless_variant_is_refused_under_its_row_with_nothing_sent(
    make_app, client: AdminClient, sandbox
) -> None:
    name = demo_flag(sandbox.db_path, "10% of production")
    before = await client.rollouts.list(DEMO, name, ENVIRONMENT)
    app = make_app()
    async with app.run_test(size=(140, 60), notifications=True) as pilot:
        form = await open_form(app, pilot, name, "N")
        sent = app.client.requests_sent
        await pilot.press("ctrl+n", "ctrl+n")
        await settle(app, pilot)
        row(form, 0).query_one(".v-name", Input).value = "blue"
        row(form, 0).query_one(".v-weight", Input).value = "60"
        row(form, 1).query_one(".v-weight", Input).value = "50"
        await review(app, pilot)
        assert app.screen is form
        assert "Not sent — variants[1].name" in visible_text(app, "#form-error")
        assert "↑ name: refused" in visible_text(app, "#strategy-variants")
        row(form, 1).query_one(".v-name", Input).value = "green"
        await review(app, pilot)
        assert app.screen is form
        said = visible_text(app, "#form-error")
        assert "Not sent — variants.weight: the weights add up to 1100, not 1000" in said
        assert row(form, 1).query_one(".v-weight", Input).value == "50"  # kept as typed
        assert app.client.requests_sent == sent
    assert await client.rollouts.list(DEMO, name, ENVIRONMENT) == before
