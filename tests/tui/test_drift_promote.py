"""Promote… from the drift view: development promoted to production of one sandbox, the plan
shown as `flagtui plan` says it, confirmed by typing the production environment's name, each
write's outcome shown, and afterwards the server holds no difference between the two (the
view, compared again, says so too); a promotion cancelled at its plan sends nothing; one
server's project promoted to another's, pruned, leaves no difference between them."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.config import store_token
from flagtui.fleet.drift import Reading, compare
from flagtui.sandbox import SandboxServer
from flagtui.tui.screens.drift import DriftScreen
from flagtui.tui.screens.drift_promotion import PromoteResult
from flagtui.tui.screens.promote_form import PromoteForm
from flagtui.tui.widgets.confirm import TypedConfirmModal
from flagtui.tui.widgets.edit_conflict import EditConflictModal
from testkit.drift_seed import seed_differences
from testkit.event_count import event_count as writes_recorded
from testkit.pilot import settle
from testkit.promotable import promotable

from .helpers import Wrapped, visible_text
from .palette_keys import run_from_palette

PROJECT = "search"
SIDES = ("development", "production")


@pytest.fixture
def one_profile(tmp_path: Path, monkeypatch, sandbox) -> None:
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    monkeypatch.delenv("UNLEASH_URL", raising=False)
    monkeypatch.delenv("UNLEASH_API_TOKEN", raising=False)
    (tmp_path / "config.toml").write_text(
        f'default_profile = "staging"\n[profiles.staging]\nurl = "{sandbox.url}"\n'
    )
    store_token("staging", sandbox.admin_token)
    promotable(sandbox, (PROJECT,))


async def drift_of(client: AdminClient) -> list[tuple[str, str]]:
    left, right = [Reading(env, client, PROJECT, env) for env in SIDES]
    return sorted((d["featureName"], d["what"]) for d in await compare(left, right))


def event_count(sandbox) -> int:
    with httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}) as h:
        return writes_recorded(h)


async def open_plan(
    app, pilot, sides: tuple[str, str] = SIDES, project: str = PROJECT, prune: bool = False
) -> Wrapped:
    """The drift view compares the two sides, Promote… plans the left one onto the right
    one: the plan's text as shown."""
    await settle(app, pilot)
    await run_from_palette(app, pilot, "drift", "Drift between servers or environments")
    assert isinstance(app.screen, DriftScreen)
    for field, value in zip(("a", "b", "project"), (*sides, project), strict=True):
        app.screen.query_one(f"#drift-{field}", Input).value = value
    app.screen.query_one("#drift-a", Input).focus()
    await pilot.press("enter")
    await settle(app, pilot)
    await pilot.press("U")
    await settle(app, pilot)
    assert isinstance(app.screen, PromoteForm)
    form = visible_text(app, ".dialog")
    assert f"{sides[0]} → {sides[1]}" in form and "Prune" in form
    if prune:
        app.screen.query_one("#promote-prune").focus()
        await pilot.press("space")
    app.screen.query_one("#promote-project", Input).focus()  # the drift view's project, kept
    await pilot.press("enter")
    await settle(app, pilot)
    assert isinstance(app.screen, TypedConfirmModal), app.screen
    return visible_text(app, ".dialog-body")


async def test_one_environment_promoted_to_production(make_app, one_profile, sandbox, client):
    differing = await drift_of(client)
    assert differing, "the demo's two environments differ"
    app = make_app(name="staging")
    async with app.run_test(size=(80, 24)) as pilot:
        shown = await open_plan(app, pilot)
        flag, what = differing[0]
        assert f"~ {PROJECT}/{flag} (update)" in shown, shown
        assert f"    {what} in production: " in shown and " → " in shown
        assert "who gets it in production: " in shown and "synthetic users" in shown
        assert "From development to production on profile staging" in shown
        assert "This writes to production: production" in shown
        events = event_count(sandbox)
        await pilot.press(*"production", "enter")  # typed: the production environment's name
        await settle(app, pilot)
        assert isinstance(app.screen, PromoteResult)
        outcomes = visible_text(app, ".dialog")
        assert "Promoted: " in outcomes and "refused" not in outcomes, outcomes
        assert f"done      {PROJECT}/{flag} " in outcomes
        assert "read back" in outcomes and "differs" not in outcomes
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, DriftScreen)
        status = str(visible_text(app, "#drift-status"))
        assert "0 differences between environments development and production" in status, status
    assert event_count(sandbox) > events
    assert await drift_of(client) == []


async def test_a_promotion_cancelled_at_its_plan_sends_nothing(
    make_app, one_profile, sandbox, client
):
    differing = await drift_of(client)
    events = event_count(sandbox)
    app = make_app(name="staging")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_plan(app, pilot)
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, DriftScreen)
        status = str(visible_text(app, "#drift-status"))
    assert "Not promoted: nothing was sent." in status, status
    assert event_count(sandbox) == events
    assert await drift_of(client) == differing


async def test_a_target_changed_since_the_plan_stops_the_promotion_before_any_write(
    make_app, one_profile, sandbox, client
):
    differing = await drift_of(client)
    flag = differing[0][0]
    path = f"/api/admin/projects/{PROJECT}/features/{flag}"
    app = make_app(name="staging")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_plan(app, pilot)
        with httpx.Client(base_url=sandbox.url,
                          headers={"Authorization": sandbox.admin_token}) as h:  # fmt: skip
            prod = next(e for e in h.get(path).json()["environments"]
                        if e["name"] == "production")  # fmt: skip
            switched = "off" if prod["enabled"] else "on"  # another admin, meanwhile
            assert h.post(f"{path}/environments/production/{switched}").status_code == 200
        events = event_count(sandbox)
        await pilot.press(*"production", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, EditConflictModal), app.screen
        said = visible_text(app, ".dialog")
        assert "changed since it was shown" in said and f"flag {PROJECT}/{flag}" in said, said
        assert "nothing was sent" in said
        await pilot.press("escape")
        await settle(app, pilot)
    assert event_count(sandbox) == events  # not one write of the plan
    assert await drift_of(client) != []


@pytest.fixture
def prod(sandbox_template: Path, tmp_path: Path) -> Iterator[SandboxServer]:
    shutil.copyfile(sandbox_template, tmp_path / "prod.db")
    with SandboxServer(tmp_path / "prod.db") as server:
        yield server


@pytest.fixture
def two_profiles(tmp_path: Path, monkeypatch, sandbox, prod) -> None:
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    monkeypatch.delenv("UNLEASH_URL", raising=False)
    monkeypatch.delenv("UNLEASH_API_TOKEN", raising=False)
    (tmp_path / "config.toml").write_text(
        f'default_profile = "staging"\n[profiles.staging]\nurl = "{sandbox.url}"\n'
        f'[profiles.prod]\nurl = "{prod.url}"\n'
    )
    store_token("staging", sandbox.admin_token)
    store_token("prod", prod.admin_token)


async def test_one_server_promoted_to_another(make_app, two_profiles, sandbox, prod, client):
    seeded = seed_differences(sandbox)  # the source changed; the target still as it was
    app = make_app(name="staging")
    async with app.run_test(size=(80, 24)) as pilot:
        shown = await open_plan(app, pilot, ("staging", "prod"), "default", prune=True)
        assert "From profile staging to profile prod." in shown
        assert "This writes to production: production." in shown
        events = event_count(prod)
        assert event_count(sandbox) > 0
        source_events = event_count(sandbox)
        await pilot.press(*"production", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, PromoteResult)
        outcomes = visible_text(app, ".dialog")
        assert "Promoted: " in outcomes and "refused" not in outcomes, outcomes
        await pilot.press("escape")
        await settle(app, pilot)
        status = visible_text(app, "#drift-status")
    assert "0 differences between profiles staging and prod" in status, status
    assert event_count(prod) > events and event_count(sandbox) == source_events
    async with AdminClient(prod.url, prod.admin_token, profile="check-prod") as target:
        await target.connect()
        left = Reading("staging", client, "default", None)
        found = await compare(left, Reading("prod", target, "default", None))
    assert seeded and found == []
