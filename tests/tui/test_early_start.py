"""A returning user's start (issue 17): the first frame shows the cached rows of the profile the
start expects, drawn before the config is validated and the client made (the opener), and only
the app's own key works until the opener has run. Checked on what was on screen when the
opener was called, and after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from held_transport import Held

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.opening import Opened
from testkit.pilot import settle

from .helpers import screen_text, visible_text
from .row_cache_state import CACHED, SEARCH, cache_of, features_state, first_project


class Opener:
    """Opens the sandbox profile, first noting what the screen showed when it was called."""

    def __init__(self, sandbox: Any, transport: Held | None = None) -> None:
        self.sandbox, self.transport = sandbox, transport
        self.app: FlagtuiApp | None = None  # the app it opens for, once made
        self.seen: dict[str, Any] = {}

    def __call__(self) -> Opened | None:
        app = self.app
        assert app is not None
        self.seen = {
            "screen": screen_text(app),
            "status": visible_text(app, "#page-status") if app.screen.query("#page-status") else "",
            "area key works": app.check_action("switch_area", ("events",)),
            "quit works": app.check_action("quit", ()),
        }
        client = AdminClient(
            self.sandbox.url, self.sandbox.admin_token, profile="sandbox", transport=self.transport
        )
        return Opened(client, Profile(name="sandbox", url=self.sandbox.url), {})


def early_app(
    sandbox: Any, tmp_path: Path, project: str, opener: Callable[[], Opened | None]
) -> FlagtuiApp:
    """A start expecting the sandbox profile, its features area of `project` remembered."""
    expected = Profile(name="sandbox", url=sandbox.url)
    state = features_state(tmp_path, project)
    return FlagtuiApp(None, expected, opener=opener, state_path=state)


async def test_the_first_frame_shows_the_cached_rows_before_the_client_exists(
    sandbox, tmp_path
) -> None:
    project = await first_project(sandbox)
    cache_of(sandbox, tmp_path).save("features", project, CACHED)
    held = Held(lambda path: path == SEARCH)
    opener = Opener(sandbox, held)
    app = opener.app = early_app(sandbox, tmp_path, project, opener)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        first = opener.seen
        assert "cached-only-flag" in first["screen"]
        assert "cached rows from" in first["status"] and "refreshing" in first["status"]
        assert "connecting…" in first["screen"] and "sandbox" in first["screen"]
        # The key bar says only what works yet; the area keys wait for the opener.
        assert "q Quit" in first["screen"] and "Toggle" not in first["screen"]
        assert first["area key works"] is False and first["quit works"] is True
        held.release()
        await settle(app, pilot)
        assert "cached-only-flag" not in screen_text(app)
        assert "page 1/" in visible_text(app, "#page-status")
        assert "t Toggle" in screen_text(app)


async def test_without_cached_rows_the_first_frame_is_the_header_and_the_area_follows(
    sandbox, tmp_path
) -> None:
    """Before: an empty screen until the opener had run (issue 26: a first start showed
    nothing for as long as its imports took)."""
    project = await first_project(sandbox)
    opener = Opener(sandbox)
    app = opener.app = early_app(sandbox, tmp_path, project, opener)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(app, pilot)
        first = opener.seen["screen"]
        assert "sandbox" in first and "· connecting…" in first and "1 Flags" in first
        assert first.count("connecting…") == 2  # the header's, and the status line's
        assert "page 1/" in visible_text(app, "#page-status")


async def test_an_opener_that_fails_ends_the_app_after_the_first_frame(sandbox, tmp_path) -> None:
    project = await first_project(sandbox)
    cache_of(sandbox, tmp_path).save("features", project, CACHED)
    shown: list[str] = []

    def failing() -> None:
        shown.append(screen_text(app))
        return None

    app = early_app(sandbox, tmp_path, project, failing)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
    assert "cached-only-flag" in shown[0]
    assert app.return_code == 2


async def test_the_first_frame_shows_cached_server_text_as_written(sandbox, tmp_path) -> None:
    """The cached rows are server text: in the first frame too, markup is not read and control
    characters are shown, not sent."""
    project = await first_project(sandbox)
    hostile = ("x", ["[bold]x[/bold]\x1b[31m", "release", "", "", "", ""])
    cache_of(sandbox, tmp_path).save("features", project, [hostile])
    opener = Opener(sandbox)
    app = opener.app = early_app(sandbox, tmp_path, project, opener)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        assert "[bold]x[/bold]␛[31m" in opener.seen["screen"]
        await settle(app, pilot)
