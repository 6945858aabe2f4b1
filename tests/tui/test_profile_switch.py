"""Switching profile inside the app (P, or the palette): the config's profiles, a new client,
and nothing of the old profile's data left on screen."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.config import store_token
from flagtui.sandbox import SandboxServer, create_database
from flagtui.sandbox.demo_data import DEMO_SEED
from flagtui.tui.row_cache import RowCache
from flagtui.tui.screens.connect import ConnectScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.feature_types import FeatureTypesScreen
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.widgets.profile_picker import ProfilePickerModal
from testkit.pilot import settle

from .helpers import screen_text, toast_text, visible_text
from .palette_keys import palette_for


@pytest.fixture
def other_sandbox(tmp_path: Path) -> Iterator[SandboxServer]:
    """A second sandbox server, with other data (another seed)."""
    path = tmp_path / "other.db"
    create_database(path, seed=DEMO_SEED + 1)
    with SandboxServer(path) as server:
        yield server


@pytest.fixture
def profiles(sandbox: Any, other_sandbox: SandboxServer, tmp_path: Path, monkeypatch) -> Path:
    """A config of five profiles (tokens in a credentials file); returns the state file, where
    `prod` remembers the feature types area."""
    monkeypatch.delenv("UNLEASH_URL", raising=False)
    monkeypatch.delenv("UNLEASH_API_TOKEN", raising=False)
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir()
    config.write_text(
        f'[profiles.sandbox]\nurl = "{sandbox.url}"\n\n'
        f'[profiles.other]\nurl = "{other_sandbox.url}"\n\n'
        f'[profiles.prod]\nurl = "{other_sandbox.url}"\nproduction = true\nread_only = true\n\n'
        '[profiles.gone]\nurl = "http://127.0.0.1:9"\ntimeout = 1\n\n'
        '[profiles.tokenless]\nurl = "http://127.0.0.1:9"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("FLAGTUI_CONFIG", str(config))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "secret" / "tokens.toml"))
    store_token("sandbox", sandbox.admin_token)
    store_token("other", other_sandbox.admin_token)
    store_token("prod", other_sandbox.admin_token)
    store_token("gone", "no-server-answers")
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"prod": {"area": "feature-types"}}), encoding="utf-8")
    return state


async def names_on(server: Any, project: str) -> set[str]:
    async with AdminClient(server.url, server.admin_token, profile="check") as checker:
        page = await checker.features.search(FeatureQuery(project=project, limit=50))
    return {f.name for f in page.features}


async def switch_to(app: Any, pilot: Any, name: str, failing: bool = False) -> None:
    await pilot.press("P")
    await settle(app, pilot)
    assert isinstance(app.screen, ProfilePickerModal)
    options = app.screen.query_one(OptionList)
    options.highlighted = options.get_option_index(name)
    await pilot.press("enter")
    await settle(app, pilot, failures=failing)


async def test_switching_sandboxes_shows_only_the_second_servers_rows(
    make_app, profiles, sandbox, other_sandbox, client
) -> None:
    project = (await client.projects.list())[0].id
    first, second = await names_on(sandbox, project), await names_on(other_sandbox, project)
    only_first, only_second = sorted(first - second), sorted(second - first)
    assert only_first and only_second
    app = make_app(state_path=profiles)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(project, only_first[0]))
        await settle(app, pilot)
        assert only_first[0] in screen_text(app)
        await pilot.press("P")
        await settle(app, pilot)
        picker = visible_text(app, "#profile-picker")
        assert other_sandbox.url in picker and "prod" in picker and "PRODUCTION" in picker
        await pilot.press("escape")
        await settle(app, pilot)
        await switch_to(app, pilot, "other")
        assert isinstance(app.screen, FeaturesScreen)
        assert len(app.screen_stack) == 1  # the first profile's detail is gone
        context = visible_text(app, "FlagtuiHeader")
        assert "other" in context and other_sandbox.url in context
        shown = screen_text(app)
        assert only_second[0] in shown
        assert not any(name in shown for name in only_first)
    assert app.client is not None and app.client.profile == "other"
    # The rows the second profile saw are kept for it, never in the first profile's cache.
    rows_dir = profiles.parent / "rows"
    first_cache = RowCache(rows_dir, "sandbox", sandbox.url).path
    assert not first_cache.exists() or only_second[0] not in first_cache.read_text()
    assert only_second[0] in RowCache(rows_dir, "other", other_sandbox.url).path.read_text()


async def test_production_and_read_only_and_the_area_follow_the_profile(make_app, profiles) -> None:
    app = make_app(state_path=profiles)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert not app.has_class("-production")
        await switch_to(app, pilot, "prod")
        assert isinstance(app.screen, FeatureTypesScreen)  # the area prod remembered
        assert app.has_class("-production")
        context = visible_text(app, "FlagtuiHeader")
        assert "prod" in context and "PRODUCTION" in context and "🔒 RO" in context
        assert "Edit lifetime" not in visible_text(app, "KeyBar")
        assert "Patch a flag…" not in await palette_for(app, pilot, "patch")
        await pilot.press("escape")
        await settle(app, pilot)
        await switch_to(app, pilot, "sandbox")
        assert isinstance(app.screen, FeaturesScreen)  # where sandbox was
        assert not app.has_class("-production")
        context = visible_text(app, "FlagtuiHeader")
        assert "PRODUCTION" not in context and "🔒 RO" not in context
        assert "Patch a flag…" in await palette_for(app, pilot, "patch")


async def test_a_failing_profile_ends_on_the_connect_screen_and_can_switch_again(
    make_app, profiles, sandbox
) -> None:
    app = make_app(state_path=profiles)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await switch_to(app, pilot, "gone", failing=True)
        assert isinstance(app.screen, ConnectScreen)
        status = visible_text(app, "#connect-status")
        assert "profile gone" in status and "Unreachable" in status
        assert "P to switch profile" in status
        assert "gone" in visible_text(app, "FlagtuiHeader")
        await switch_to(app, pilot, "sandbox")
        assert isinstance(app.screen, FeaturesScreen)
        assert sandbox.url in visible_text(app, "FlagtuiHeader")


async def test_switch_profile_from_the_palette(make_app, profiles) -> None:
    app = make_app(state_path=profiles)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "Switch profile…" in await palette_for(app, pilot, "switch profile")
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ProfilePickerModal)
        assert "sandbox" in visible_text(app, "#profile-picker")


async def test_a_profile_without_token_changes_nothing_and_says_why(make_app, profiles) -> None:
    app = make_app(state_path=profiles)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await switch_to(app, pilot, "tokenless")
        assert "Could not switch to profile tokenless" in toast_text(app)
        assert "flagtui login --profile tokenless" in toast_text(app)
        assert isinstance(app.screen, FeaturesScreen)
        assert app.profile.name == "sandbox" and "sandbox" in visible_text(app, "FlagtuiHeader")


SLOW_TOKEN = """\
import os, sys, time
with open(sys.argv[1], "w") as out:
    out.write(str(os.getpid()))
time.sleep(60)
print("never-printed")
"""


def ended(pid: int) -> bool:
    """Gone, or a zombie (killed, not yet reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except (FileNotFoundError, ProcessLookupError):  # gone before or while /proc was read
        return True


async def test_a_slow_token_command_is_said_on_screen_and_stopped_on_exit(
    make_app, profiles, tmp_path
) -> None:
    """Before the fix: while a switch runs a profile's token_command nothing on screen says so
    (its line goes to a stderr the TUI hides), and leaving the app leaves the command running
    until its 30 s timeout (the app's exit waits for it)."""
    script, pid_file = tmp_path / "slow_token.py", tmp_path / "token.pid"
    script.write_text(SLOW_TOKEN, encoding="utf-8")
    config = Path(os.environ["FLAGTUI_CONFIG"])
    command = f"{sys.executable} {script} {pid_file}"
    with config.open("a", encoding="utf-8") as out:
        out.write(f'\n[profiles.slow]\nurl = "http://127.0.0.1:9"\ntoken_command = "{command}"\n')
    app = make_app(state_path=profiles)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("P")
        await settle(app, pilot)
        options = app.screen.query_one(OptionList)
        options.highlighted = options.get_option_index("slow")
        await pilot.press("enter")
        for _ in range(500):  # bounded: until the command runs and the screen says so
            if pid_file.exists() and "token_command" in toast_text(app):
                break
            await pilot.pause(0.02)
        assert "running the token_command of profile 'slow'" in toast_text(app)
        assert "30 s" in toast_text(app)
        assert app.profile.name == "sandbox"  # the current profile stays meanwhile
        pid = int(pid_file.read_text())
        assert not ended(pid)
    for _ in range(100):
        if ended(pid):
            break
        await asyncio.sleep(0.05)
    assert ended(pid), "the token_command outlived the app"
