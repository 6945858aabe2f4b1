"""The TUI's flag creation and its two variants forms on real Unleash (issue 25), judged as the
admin's applications will see them: a flag created with `C` is recorded (`feature-created`,
lifecycle stage `initial`) and known, off, to the official SDK; variants set in the environment
form and in the strategy form are recorded as their events, and the SDK hands each of the
10,000 synthetic userIds (`u-1` … `u-10000`) a variant so that the counts per variant are the
ones the review's preview said before sending. A flag without environment variants is told at
once that Unleash refuses them there. Flags are archived at the end, never deleted."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections import Counter
from pathlib import Path

import pytest
from real_intent import (
    PROJECT,
    flag_events_since,
    newest_event_id,
    wait_for_flag_events,
    wait_for_stage,
)
from real_tui import on_detail, real_app
from textual.widgets import Input

from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.create_flag import CreateFlagScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.strategy_form import StrategyFormScreen
from flagtui.tui.screens.variant_form import VariantFormScreen
from flagtui.tui.screens.variant_rows import VariantRow
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle
from tests.tui.helpers import screen_text, toast_text, visible_text

pytestmark = pytest.mark.unleash

USERS = 10_000
ROWS = [("blue", "30"), ("green", "")]  # green takes the rest: 70 %


async def type_rows(app: FlagtuiApp, pilot, add_key: str | None) -> None:
    """Two variant rows typed as ROWS (`add_key` adds a row when the form has none yet)."""
    wanted = len(ROWS) - len(list(app.screen.query(VariantRow)))
    for _ in range(wanted if add_key else 0):
        await pilot.press(add_key)
    await settle(app, pilot)
    rows = list(app.screen.query(VariantRow).results(VariantRow))
    if len(rows) < len(ROWS):  # the environment form starts with one row: ctrl+n adds more
        await pilot.press("ctrl+n")
        await settle(app, pilot)
        rows = list(app.screen.query(VariantRow).results(VariantRow))
    for row, (name, weight) in zip(rows, ROWS, strict=True):
        row.query_one(".v-name", Input).value = name
        row.query_one(".v-weight", Input).value = weight
    await settle(app, pilot)


def counts(said: str) -> dict[str, int]:
    return {v: int(re.search(rf"{v} ([\d,]+)", said)[1].replace(",", "")) for v, _ in ROWS}  # type: ignore[index]


async def review_and_send(app: FlagtuiApp, pilot) -> str:
    await pilot.press("ctrl+r")
    await settle(app, pilot)
    assert isinstance(app.screen, ConfirmModal), screen_text(app)
    body = " ".join(str(visible_text(app, ".dialog-body")).split())  # lines wrap in the dialog
    await pilot.press("enter")
    await settle(app, pilot)
    return body


def sdk_counts(production, flag: str) -> dict[str, int]:
    got = Counter(production.variant(flag, {"userId": f"u-{u}"}) for u in range(1, USERS + 1))
    return {v: got[v] for v, _ in ROWS}


def test_a_flag_created_from_the_tui(admin, sdk, real_unleash, tmp_path: Path):
    production = sdk("production")
    name = f"created-{uuid.uuid4().hex[:10]}"
    mark = newest_event_id(admin)

    async def create() -> str:
        async with real_app(real_unleash, tmp_path) as (app, pilot):
            await pilot.press("C")
            await settle(app, pilot)
            assert isinstance(app.screen, CreateFlagScreen), screen_text(app)
            app.screen.name_box.value = name
            await review_and_send(app, pilot)
            assert isinstance(app.screen, FeatureDetailScreen), screen_text(app)
            return str(toast_text(app))

    try:
        assert f"Flag {name} created in {PROJECT}" in asyncio.run(create())
        expected = [("feature-created", None)]
        assert wait_for_flag_events(admin, name, mark, expected) == expected
        wait_for_stage(admin, PROJECT, name, "initial")
        production.wait_until(name, False)  # known to the SDK, and off
    finally:
        admin.delete(f"/api/admin/projects/{PROJECT}/features/{name}")


def test_environment_variants_from_the_form(
    admin, sdk, legacy_variants_flag, real_unleash, tmp_path: Path
):
    enabled_flag = legacy_variants_flag
    production = sdk("production")
    production.wait_until(enabled_flag, True)
    mark = newest_event_id(admin)

    async def set_variants() -> str:
        async with real_app(real_unleash, tmp_path) as (app, pilot):
            await on_detail(app, pilot, enabled_flag, "V", "production")
            assert isinstance(app.screen, VariantFormScreen), screen_text(app)
            await type_rows(app, pilot, None)
            body = await review_and_send(app, pilot)
            assert f"Variants of {enabled_flag} set in production" in toast_text(app)
            return body

    body = asyncio.run(set_variants())
    assert "This is production." in body
    previewed = counts(body.partition("userIds after:")[2])
    expected = [("feature-environment-variants-updated", "production")]
    assert wait_for_flag_events(admin, enabled_flag, mark, expected) == expected
    production.wait_for_revision(flag_events_since(admin, enabled_flag, mark)[-1]["id"])
    assert sdk_counts(production, enabled_flag) == previewed  # what the preview said, exactly
    assert 0.25 < previewed["blue"] / USERS < 0.35, previewed


def test_strategy_variants_from_the_form(admin, sdk, enabled_flag, real_unleash, tmp_path: Path):
    production = sdk("production")
    production.wait_until(enabled_flag, True)
    mark = newest_event_id(admin)

    async def set_variants() -> str:
        async with real_app(real_unleash, tmp_path, (140, 60)) as (app, pilot):
            await on_detail(app, pilot, enabled_flag, "S", "production", "")  # its one strategy
            assert isinstance(app.screen, StrategyFormScreen), screen_text(app)
            await type_rows(app, pilot, "ctrl+n")
            return await review_and_send(app, pilot)

    body = asyncio.run(set_variants())
    previewed = counts(body.partition("per variant:")[2].partition("→")[2])
    expected = [("feature-strategy-update", "production")]
    assert wait_for_flag_events(admin, enabled_flag, mark, expected) == expected
    [update] = flag_events_since(admin, enabled_flag, mark)
    assert [v["name"] for v in update["data"]["variants"]] == ["blue", "green"]
    production.wait_for_revision(update["id"])
    assert sdk_counts(production, enabled_flag) == previewed
    assert sum(previewed.values()) == USERS


def test_a_flag_without_environment_variants_is_told_before_any_request(
    admin, enabled_flag, real_unleash, tmp_path: Path
):
    mark = newest_event_id(admin)

    async def press_v() -> str:
        async with real_app(real_unleash, tmp_path) as (app, pilot):
            # 8.x lists no variants per environment: the key reads them, then asks which
            await on_detail(app, pilot, enabled_flag, "V", "production")
            assert isinstance(app.screen, FeatureDetailScreen), screen_text(app)
            return " ".join(toast_text(app).split())

    said = asyncio.run(press_v())
    assert f"Nothing sent: {enabled_flag} has no environment variants" in said
    assert flag_events_since(admin, enabled_flag, mark) == []  # nothing written
