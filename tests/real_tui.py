"""The app on a real Unleash, as the conformance suite's TUI tests drive it: the client and
the app made for the server, the picker's line chosen, a key pressed on a flag's detail."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from real_intent import PROJECT
from textual.widgets import OptionList

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from testkit.pilot import settle


@asynccontextmanager
async def real_app(
    real_unleash: Any, tmp_path: Path, size: tuple[int, int] = (140, 50)
) -> AsyncIterator[tuple[FlagtuiApp, Any]]:
    """The app on `real_unleash`, settled on its first screen; its client closed after."""
    client = AdminClient(real_unleash.url, real_unleash.token, profile="real")
    app = FlagtuiApp(client, Profile(name="real", url=real_unleash.url), state_path=tmp_path / "s")
    try:
        async with app.run_test(size=size, notifications=True) as pilot:
            await settle(app, pilot)
            yield app, pilot
    finally:
        await client.aclose()


async def pick(app: FlagtuiApp, pilot: Any, starts: str) -> None:
    """The picker's line that starts with `starts` (an environment, a strategy), when a
    picker is asking."""
    if isinstance(app.screen, ChoicePicker):
        labels = app.screen.labels
        app.screen.query_one(OptionList).highlighted = next(
            i for i, label in enumerate(labels) if label.startswith(starts)
        )
        await pilot.press("enter")
        await settle(app, pilot)


async def on_detail(app: FlagtuiApp, pilot: Any, flag: str, key: str, *picks: str) -> None:
    """`key` pressed on `flag`'s detail, then each picker answered in turn."""
    app.push_screen(FeatureDetailScreen(PROJECT, flag))
    await settle(app, pilot)
    await pilot.press(key)
    await settle(app, pilot)
    for starts in picks:
        await pick(app, pilot, starts)
