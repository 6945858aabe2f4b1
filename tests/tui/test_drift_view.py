"""The drift view: two sandboxes made from the same data, a known set of differences seeded
into one; the view, opened from the palette, lists exactly those. Environment against
environment on one server too."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from textual.widgets import Input

from flagtui.config import store_token
from flagtui.sandbox import SandboxServer
from flagtui.tui.screens.drift import DriftScreen
from testkit.drift_seed import PROJECT, seed_differences
from testkit.pilot import settle

from .helpers import visible_text
from .palette_keys import run_from_palette


@pytest.fixture
def prod(sandbox_template: Path, tmp_path: Path) -> Iterator[SandboxServer]:
    db = tmp_path / "prod.db"
    shutil.copyfile(sandbox_template, db)
    with SandboxServer(db) as server:
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


async def compare(app, pilot, a: str, b: str) -> list[str]:
    """Open the view from the palette, name both sides, compare: the table's lines."""
    await settle(app, pilot)
    await run_from_palette(app, pilot, "drift", "Drift between servers or environments")
    assert isinstance(app.screen, DriftScreen)
    app.screen.query_one("#drift-a", Input).value = a
    app.screen.query_one("#drift-b", Input).value = b
    app.screen.query_one("#drift-project", Input).value = PROJECT
    app.screen.query_one("#drift-a", Input).focus()
    await pilot.press("enter")
    await settle(app, pilot)
    return visible_text(app, "#drift").splitlines()[1:]  # under the header


async def test_two_servers_show_exactly_the_seeded_differences(make_app, two_profiles, prod):
    seeded = seed_differences(prod)
    app = make_app(name="staging")
    async with app.run_test(size=(160, 40)) as pilot:
        rows = await compare(app, pilot, "staging", "prod")
        header = visible_text(app, "#drift").splitlines()[0]
        status = visible_text(app, "#drift-status")
        sides = visible_text(app, "#drift-sides").split()
    assert sides == ["staging", "prod", PROJECT]  # the three fields side by side, each seen
    assert "staging" in header and "prod" in header
    assert "4 differences between profiles staging and prod (project default)" in status
    assert "read at" in status
    assert len([line for line in rows if line.strip()]) == len(seeded)
    for flag, what in seeded:
        [line] = [line for line in rows if f" {flag} " in line]
        assert what in line, line
    present = next(line for line in rows if "present" in line.split())
    assert present.split()[-2:] == ["present", "absent"]
    rollout = next(line for line in rows if "strategies in production" in line)
    assert "37 %" in rollout and rollout.count("%") == 1, rollout  # only what differs


async def test_two_environments_of_this_server(make_app, two_profiles, sandbox):
    http = httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token})
    differing = set()
    for flag in http.get(f"/api/admin/projects/{PROJECT}/features").json()["features"]:
        envs = {e["name"]: e["enabled"] for e in flag["environments"]}
        if envs.get("development") != envs.get("production"):
            differing.add(flag["name"])
    app = make_app(name="staging")
    async with app.run_test(size=(160, 60)) as pilot:
        await compare(app, pilot, "development", "production")
        await pilot.press("/", *"enabled")  # the rows filter: the table holds more than fits
        await settle(app, pilot)
        rows = visible_text(app, "#drift").splitlines()[1:]
        status = visible_text(app, "#drift-status")
    assert "environments development and production of staging" in status
    switched = {line.split()[1] for line in rows if line.split()[2:3] == ["enabled"]}
    assert switched == differing and differing
