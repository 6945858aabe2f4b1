"""A search key pressed before an area's first rows arrive (a slow server, a fast typist) finds
its field: the name typed after it is the search, and its digits never switch areas. On Unleash
7.5.1 the features' first page came after `s`, whose search box was mounted with that page: the
name's `6` opened the event log. `Held` keeps the first page waiting until the test lets it go."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from held_transport import Held
from textual import events

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.opening import Opened
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle

from .helpers import visible_text
from .row_cache_state import CACHED, SEARCH, app_on, cache_of, features_state

PROJECT = "payments"
NAME = "wallet-v2"  # `2` is the feature types' key; `a` (archived) and `t` (toggle) are keys too
KEY_NAMES = {"-": "minus", "/": "slash"}


def burst(app: FlagtuiApp, text: str) -> None:
    """Every key posted at once, as the terminal driver does for one read of a fast input."""
    for char in text:
        app.post_message(events.Key(KEY_NAMES.get(char, char), char))


async def until_features_shown(app: FlagtuiApp, pilot: Any) -> None:
    """The features area is on screen (its page still held): no worker can finish meanwhile,
    so this waits for the screen itself, a bounded number of refreshes."""
    for _ in range(50):
        if isinstance(app.screen, FeaturesScreen) and app.screen.is_mounted:
            break
        await pilot.pause()
    for _ in range(3):
        await pilot.pause()
    assert isinstance(app.screen, FeaturesScreen)


async def expected_names(sandbox: Any) -> list[str]:
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        page = await client.features.search(FeatureQuery(project=PROJECT, query=NAME))
    assert 0 < len(page.features) < 20  # the search filters the project's flags
    return [feature.name for feature in page.features]


async def assert_filtered_after_release(
    app: FlagtuiApp, pilot: Any, held: Held, sandbox: Any
) -> None:
    """The name typed is still the search once the page is let go, and its rows are shown."""
    held.release()
    await settle(app, pilot)
    assert isinstance(app.screen, FeaturesScreen)
    assert NAME in visible_text(app, "#search")
    assert app.focused is app.screen.search_box  # the filters mounted meanwhile took nothing
    wanted = await expected_names(sandbox)
    table = app.screen.query_one(ResourceTable)
    assert [str(key.value) for key in table.rows] == wanted
    shown = visible_text(app, "#features")
    assert all(name in shown for name in wanted)
    assert f"{len(wanted)} features" in visible_text(app, "#page-status")


async def test_s_and_a_name_typed_before_the_first_page_are_the_search(sandbox, tmp_path) -> None:
    held = Held(lambda path: path == SEARCH)
    app = app_on(sandbox, tmp_path, PROJECT, held)
    async with app.run_test(size=(100, 24)) as pilot:
        await until_features_shown(app, pilot)
        assert "loading" in visible_text(app, "#page-status")  # no page yet
        await pilot.press("s", *(KEY_NAMES.get(c, c) for c in NAME))
        await pilot.pause()
        assert isinstance(app.screen, FeaturesScreen)  # `2` did not switch areas
        assert NAME in visible_text(app, "#search")
        assert "loading" in visible_text(app, "#page-status")  # the area, still waiting
        assert SEARCH not in held.answered
        await assert_filtered_after_release(app, pilot, held, sandbox)


async def test_slash_and_a_burst_before_the_first_page_are_the_search(sandbox, tmp_path) -> None:
    held = Held(lambda path: path == SEARCH)
    app = app_on(sandbox, tmp_path, PROJECT, held)
    async with app.run_test(size=(100, 24)) as pilot:
        await until_features_shown(app, pilot)
        app.post_message(events.Key("slash", "/"))
        burst(app, NAME)
        for _ in range(4):
            await pilot.pause()
        assert isinstance(app.screen, FeaturesScreen)
        assert NAME in visible_text(app, "#search")
        await assert_filtered_after_release(app, pilot, held, sandbox)


class TypingOpener:
    """Opens the sandbox profile while `s` and the name arrive from the terminal: keys typed
    during a returning start's first frame, handled once the area replaced it."""

    def __init__(self, sandbox: Any, transport: Held) -> None:
        self.sandbox, self.transport = sandbox, transport
        self.app: FlagtuiApp | None = None
        self.typed_on = ""  # the screen shown when the keys came

    def __call__(self) -> Opened | None:
        assert self.app is not None
        self.typed_on = type(self.app.screen).__name__
        burst(self.app, "s" + NAME)
        client = AdminClient(
            self.sandbox.url, self.sandbox.admin_token, profile="sandbox", transport=self.transport
        )
        return Opened(client, Profile(name="sandbox", url=self.sandbox.url), {})


async def test_a_search_typed_on_the_first_frame_is_the_areas_search(
    sandbox, tmp_path: Path
) -> None:
    cache_of(sandbox, tmp_path).save("features", PROJECT, CACHED)
    held = Held(lambda path: path == SEARCH)
    opener = TypingOpener(sandbox, held)
    state = features_state(tmp_path, PROJECT)
    expected = Profile(name="sandbox", url=sandbox.url)
    app = opener.app = FlagtuiApp(None, expected, opener=opener, state_path=state)
    async with app.run_test(size=(100, 24)) as pilot:
        await until_features_shown(app, pilot)
        assert opener.typed_on == "CachedFeaturesScreen"
        assert NAME in visible_text(app, "#search")
        assert SEARCH not in held.answered
        await assert_filtered_after_release(app, pilot, held, sandbox)


async def test_a_before_the_first_page_shows_the_archived_flags(sandbox, tmp_path) -> None:
    """`a` mounts the filters if the first page has not: it waited one refresh for them to be
    composed, which was too short, and the app failed (NoMatches) on the stage filter."""
    held = Held(lambda path: path == SEARCH)
    app = app_on(sandbox, tmp_path, PROJECT, held)
    async with app.run_test(size=(100, 24)) as pilot:
        await until_features_shown(app, pilot)
        await pilot.press("a")
        held.release()
        await settle(app, pilot)
        assert "archived" in visible_text(app, "#stage")
        async with AdminClient(sandbox.url, sandbox.admin_token) as client:
            query = FeatureQuery(project=PROJECT, lifecycle=["archived"])
            archived = await client.features.search(query)
        assert archived.features  # else nothing here could fail
        table = app.screen.query_one(ResourceTable)
        assert [str(key.value) for key in table.rows] == [f.name for f in archived.features]
        assert f"{archived.total} features" in visible_text(app, "#page-status")
